"""The ``ecarte`` command."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from ecarte._core import EcarteError
from ecarte.agents import make_agent
from ecarte.display import deal_report
from ecarte.duel import Deal, Match, Rules

AGENT_NAMES = ["heuristic", "random"]


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


@main.command("play")
@click.option("--opponent", type=click.Choice(AGENT_NAMES), default="heuristic",
              show_default=True, help="The built-in agent you play against.")
@click.option("--seed", type=int, default=None, help="Seed of the match (random if omitted).")
@click.option("--order", type=click.Choice(["ecarte", "traditional"]), default="ecarte",
              show_default=True, help="Rank order.")
@click.option("--target", type=click.IntRange(1, 100), default=7, show_default=True,
              help="Points that win the match.")
@click.option("--seat", type=click.IntRange(0, 1), default=0, show_default=True,
              help="Your seat; seat 0 deals first.")
@click.option("--save", "save_path", type=click.Path(dir_okay=False, path_type=Path),
              help="Save the match record here at the end without asking.")
def play_command(
    opponent: str, seed: int | None, order: str, target: int, seat: int, save_path: Path | None
) -> None:
    """Play a match against a built-in agent in the terminal.

    Type a card (QH, q♥, 10s), propose/decline/accept/refuse, discard 7C, or a number from
    the list of legal moves. Also: help, hint, undo, quit.
    """
    from rich.console import Console

    from ecarte.play import Game

    console = Console(highlight=False)
    match = Match(seed=seed, rules=Rules(order=order, target=target))
    game = Game(
        match,
        make_agent(opponent, match.seed + 1),
        seat=seat,
        hint_agent=lambda: make_agent(HINT_AGENT, match.seed + 2),
    )
    console.print(f"ecarte: you play {opponent}, match to {target}, seed {match.seed}. "
                  "Type help for the commands.")
    while True:
        console.print(game.screen())
        if match.is_over():
            break
        try:
            line = click.prompt("", prompt_suffix="> ", default="", show_default=False)
        except (EOFError, click.Abort):
            line = "quit"
        reply = game.handle(line)
        if reply.message:
            console.print(reply.message)
        if reply.quit:
            break
    _offer_save(match, save_path)


HINT_AGENT = "heuristic"


def _offer_save(match: Match, save_path: Path | None) -> None:
    if save_path is None:
        try:
            answer = click.prompt("Save the match record to (Enter to skip)", default="",
                                  show_default=False)
        except (EOFError, click.Abort):
            answer = ""
        if not answer.strip():
            return
        save_path = Path(answer.strip())
    save_path.write_text(match.to_json())
    click.echo(f"Record saved to {save_path}")


def run() -> None:
    try:
        main()
    except EcarteError as exc:
        click.echo(f"error: {exc}", err=True)
        sys.exit(2)
