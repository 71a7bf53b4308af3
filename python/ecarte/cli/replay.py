"""``ecarte replay``: a saved deal or match record, all at once or line by line."""

from __future__ import annotations

from pathlib import Path

import click

from ecarte.cli.common import DEAL_FORMAT, MATCH_FORMAT, parse_deal, parse_match, read_record
from ecarte.display import deal_report


@click.command("replay")
@click.argument("file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--step", is_flag=True, help="Show one line at a time; Enter for the next.")
def replay_command(file: Path, step: bool) -> None:
    """Show a saved duel deal or match record, all at once or step by step."""
    text, kind = read_record(file, "replay", (DEAL_FORMAT, MATCH_FORMAT))
    names = ["Seat 0", "Seat 1"]
    lines: list[str] = []
    if kind == DEAL_FORMAT:
        lines = deal_report(parse_deal(file, text), names)
    else:
        match = parse_match(file, text)
        lines.append(f"Match to {match.target}, seed {match.seed}")
        score = [0, 0]
        for i, deal in enumerate(match.deals, 1):
            lines.append(f"Deal {i}")
            lines += deal_report(deal, names)
            outcome = deal.outcome()
            if outcome is not None:
                score[outcome.winner] += outcome.points
                lines.append(f"  Score: {names[0]} {score[0]}, {names[1]} {score[1]}")
        if match.winner is not None:
            lines.append(f"{names[match.winner]} wins the match {score[0]}-{score[1]}.")
    for line in lines:
        click.echo(line)
        if step:
            try:
                answer = click.prompt(
                    "", prompt_suffix="(Enter: next, q: quit) ", default="", show_default=False
                )
            except (EOFError, click.Abort):
                break
            if answer.strip().lower() == "q":
                break
