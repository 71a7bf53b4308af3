"""The ``ecarte`` command."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from ecarte._core import EcarteError
from ecarte.agents import make_agent
from ecarte.display import deal_report
from ecarte.duel import Deal, Match, Rules

AGENT_NAMES = ["heuristic", "pimc", "random"]


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="ecarte")
def main() -> None:
    """ecarte: a fast, faithful écarté engine. Run `ecarte COMMAND --help` for details."""


@main.command("match")
@click.option("--seed", type=int, default=1, show_default=True, help="Seed of the match's deals.")
@click.option(
    "--agents",
    nargs=2,
    type=click.Choice(AGENT_NAMES),
    default=("heuristic", "heuristic"),
    show_default=True,
    help="The agents in seat 0 and seat 1.",
)
@click.option("--target", type=click.IntRange(1, 100), default=7, show_default=True,
              help="Points that win the match.")
@click.option("--order", type=click.Choice(["ecarte", "traditional"]), default="ecarte",
              show_default=True, help="Rank order.")
@click.option("--first-dealer", type=click.IntRange(0, 1), default=0, show_default=True)
@click.option("--out", type=click.Path(dir_okay=False, path_type=Path),
              help="Save the match record (JSON) to this file.")
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
    names = [f"{agents[0].capitalize()}-0", f"{agents[1].capitalize()}-1"]
    match = Match(seed=seed, first_dealer=first_dealer, rules=Rules(order=order, target=target))
    players = (make_agent(agents[0], seed * 2), make_agent(agents[1], seed * 2 + 1))
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
        out.write_text(match.to_json())
        click.echo(f"Record saved to {out}")


@main.command("arena")
@click.argument("agent_a", type=click.Choice(AGENT_NAMES))
@click.argument("agent_b", type=click.Choice(AGENT_NAMES))
@click.option("--matches", type=click.IntRange(1), default=100, show_default=True,
              help="Seeds; each is played twice with seats and cards swapped.")
@click.option("--seed", type=int, default=0, show_default=True)
@click.option("--workers", type=click.IntRange(1), default=1, show_default=True,
              help="Processes playing seeds in parallel.")
@click.option("--samples", type=click.IntRange(1), default=None,
              help="Worlds per PIMC decision (default: the agent's default).")
@click.option("--target", type=click.IntRange(1, 100), default=7, show_default=True)
@click.option("--order", type=click.Choice(["ecarte", "traditional"]), default="ecarte",
              show_default=True)
def arena_command(
    agent_a: str,
    agent_b: str,
    matches: int,
    seed: int,
    workers: int,
    samples: int | None,
    target: int,
    order: str,
) -> None:
    """Duplicate matches between AGENT_A and AGENT_B, with 95% confidence intervals."""
    from ecarte.arena import play

    def spec(name: str) -> str:
        return f"pimc:{samples}" if name == "pimc" and samples else name

    result = play(spec(agent_a), spec(agent_b), matches=matches, seed=seed, workers=workers,
                  rules=Rules(order=order, target=target), progress=True)
    click.echo(result.table())


def run() -> None:
    try:
        main()
    except EcarteError as exc:
        click.echo(f"error: {exc}", err=True)
        sys.exit(2)
