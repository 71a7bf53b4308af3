"""``ecarte replay``: a saved deal, match or bank session record, all at once or step by
step."""

from __future__ import annotations

from pathlib import Path

import click

from ecarte.bank import Table
from ecarte.cli.bank import session_steps_text
from ecarte.cli.common import ASCII_OPTION, ask, checked, record_text
from ecarte.display import counted, deal_steps
from ecarte.duel import Deal, Match
from ecarte.play import QUIT_WORDS

#: The names of the seats when the record has none.
SEATS = ("Seat 0", "Seat 1")


@click.command("replay")
@click.argument("file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option(
    "--step", is_flag=True, help="Show one step at a time (an exchange, a trick); Enter for more."
)
@ASCII_OPTION
def replay_command(file: Path, step: bool) -> None:
    """Show a saved duel deal, duel match or bank session record, all at once or step by
    step."""
    found, text = record_text(file, "replay", (Deal, Match, Table))
    if found.reader is Table:
        steps = checked(file, lambda: session_steps_text(text))
    else:
        record = checked(file, lambda: found.read(text))
        steps = deal_steps(record, SEATS) if isinstance(record, Deal) else match_steps(record)
    for lines in steps:
        for line in lines:
            click.echo(line)
        if step and lines is not steps[-1]:
            answer = ask("(Enter: next, q: quit) ")
            if answer is None or answer.strip().lower() in QUIT_WORDS:
                break


def match_steps(match: Match) -> list[list[str]]:
    """A match as steps: its heading, then each deal's steps (:func:`deal_steps`) after a
    blank line, with the score after each finished deal, and the result."""
    names = match.players or SEATS
    steps = [[f"Match to {match.target}, seed {match.seed}: {names[0]} v {names[1]}"]]
    score = [0, 0]
    for i, deal in enumerate(match.deals, 1):
        deal_lines = deal_steps(deal, names)
        deal_lines[0][:0] = ["", f"Deal {i}"]
        outcome = deal.outcome()
        if outcome is not None:
            score[outcome.winner] += outcome.points
            deal_lines[-1].append(f"  Score: {names[0]} {score[0]}, {names[1]} {score[1]}")
        steps += deal_lines
    winner = match.winner
    if winner is None:
        ending = f"The match is unfinished: {names[0]} {score[0]}, {names[1]} {score[1]}."
    else:
        ending = (
            f"{names[winner]} wins the match {score[winner]}-{score[1 - winner]} "
            f"in {counted(len(match.deals), 'deal')}."
        )
    steps[-1] += ["", ending]
    return steps
