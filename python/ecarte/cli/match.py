"""``ecarte match``: a whole match between two built-in agents, shown deal by deal."""

from __future__ import annotations

from pathlib import Path

import click

from ecarte.cli.common import (
    AGENT,
    ORDER_OPTION,
    SEED,
    TARGET_OPTION,
    agent_name,
    check_output_path,
    make_cli_agent,
    write_output,
)
from ecarte.display import deal_report
from ecarte.duel import Deal, Match, Rules
from ecarte.seeding import agent_seed


@click.command("match")
@click.option(
    "--seed",
    type=SEED,
    default=1,
    show_default=True,
    help="Seed of the match's deals (0 to 2**64 - 1).",
)
@click.option(
    "--agents",
    nargs=2,
    type=AGENT,
    default=("pimc", "pimc"),
    show_default=True,
    help="The agents in seat 0 and seat 1: built-in agents, or model files (*.zip) saved by "
    "stable-baselines3.",
)
@TARGET_OPTION
@ORDER_OPTION
@click.option("--first-dealer", type=click.IntRange(0, 1), default=0, show_default=True)
@click.option(
    "--out",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Save the match record (JSON) to this file.",
)
@click.option("--quiet", is_flag=True, help="Print only the result.")
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
    names = [f"{agent_name(agents[0]).capitalize()}-0", f"{agent_name(agents[1]).capitalize()}-1"]
    match = Match(seed=seed, first_dealer=first_dealer, rules=Rules(order=order, target=target))
    players = (
        make_cli_agent(agents[0], agent_seed(seed, 0)),
        make_cli_agent(agents[1], agent_seed(seed, 1)),
    )
    if not quiet:
        click.echo(f"Match to {target}, seed {seed}: {names[0]} v {names[1]} ({order} order)")

    def show(deal: Deal, m: Match) -> None:
        if quiet:
            return
        click.echo(f"\nDeal {m.deals.index(deal) + 1}")
        for line in deal_report(deal, names):
            click.echo(line)
        click.echo(f"  Score: {names[0]} {m.score[0]}, {names[1]} {m.score[1]}")

    result = match.play(*players, on_deal=show)
    click.echo(
        f"\n{names[result.winner]} wins the match {result.score[0]}-{result.score[1]} "
        f"in {len(result.outcomes)} deals."
    )
    if out is not None:
        write_output(out, match.to_json(), "--out")
        click.echo(f"Record saved to {out}")
