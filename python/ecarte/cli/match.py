"""``ecarte match``: a whole match between two built-in agents, shown deal by deal."""

from __future__ import annotations

from pathlib import Path

import click

from ecarte.cli.common import (
    ASCII_OPTION,
    MODEL_SUFFIX,
    ORDER_OPTION,
    OUTPUT,
    PLAYER,
    SEED,
    TARGET_OPTION,
    Whole,
    agent_name,
    check_output_path,
    make_player,
    write_output,
)
from ecarte.display import counted, deal_report
from ecarte.duel import Deal, Match, Rules
from ecarte.seeding import agent_seed


@click.command("match")
@click.option(
    "--seed",
    type=SEED,
    default=1,
    show_default=True,
    help="Seed of the match's deals.",
)
@click.option(
    "--agents",
    nargs=2,
    type=PLAYER,
    default=("pimc", "pimc"),
    show_default=True,
    help="The agents in seat 0 and seat 1: built-in agents, or model files (*.zip) saved by "
    "stable-baselines3.",
)
@TARGET_OPTION
@ORDER_OPTION
@click.option(
    "--first-dealer",
    type=Whole(0, 1),
    default=0,
    show_default=True,
    help="The seat that deals the first deal.",
)
@click.option(
    "--out",
    type=OUTPUT,
    help="Save the match record (JSON) to this file.",
)
@click.option("--quiet", is_flag=True, help="Print only the result.")
@ASCII_OPTION
def match_command(
    seed: int,
    agents: tuple[str, str],
    target: int,
    order: str,
    first_dealer: int,
    out: Path | None,
    quiet: bool,
) -> None:
    """Play a whole match between two built-in agents and print it deal by deal."""
    if out is not None:
        check_output_path(out, "--out")
    names = (player_name(agents[0], 0), player_name(agents[1], 1))
    match = Match(seed=seed, first_dealer=first_dealer, rules=Rules(order=order, target=target))
    match.players = names
    players = (
        make_player(agents[0], agent_seed(seed, 0)),
        make_player(agents[1], agent_seed(seed, 1)),
    )
    if not quiet:
        specs = [
            f"{name} ({spec})" if ":" in spec or spec.endswith(MODEL_SUFFIX) else name
            for name, spec in zip(names, agents, strict=True)
        ]
        ranks = ", traditional rank order" if order == "traditional" else ""
        click.echo(f"Match to {target}, seed {seed}: {specs[0]} v {specs[1]}{ranks}")

    def show(deal: Deal, m: Match) -> None:
        if quiet:
            return
        click.echo(f"\nDeal {m.deals.index(deal) + 1}")
        for line in deal_report(deal, names):
            click.echo(line)
        click.echo(f"  Score: {names[0]} {m.score[0]}, {names[1]} {m.score[1]}")

    result = match.play(*players, on_deal=show)
    winner, score = result.winner, result.score
    click.echo(
        ("" if quiet else "\n")
        + f"{names[winner]} wins the match {score[winner]}-{score[1 - winner]} "
        f"in {counted(len(result.outcomes), 'deal')}."
    )
    if out is not None:
        write_output(out, match.to_json(), "--out")
        click.echo(f"Record saved to {out}")


def player_name(spec: str, seat: int) -> str:
    """How a match names the agent of ``spec`` in ``seat``: the agent's (or model file's)
    name and the seat, ``Master-0``; a world count stays in the spec the header shows."""
    name = agent_name(spec)
    if not spec.endswith(MODEL_SUFFIX):
        name = name.split(":")[0]
    return f"{name.capitalize()}-{seat}"
