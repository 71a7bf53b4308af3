"""``ecarte solve``: the double-dummy value of a position and of each legal action; many
positions from seeds (also on Ray), or a JSON-lines batch."""

from __future__ import annotations

from pathlib import Path

import click
from rich.table import Table

from ecarte import MAX_THREADS
from ecarte.cli.common import (
    DEAL_FORMAT,
    MATCH_FORMAT,
    SEED,
    backend_of,
    fail,
    parse_deal,
    parse_match,
    ray_option,
    read_record,
)
from ecarte.duel import Deal
from ecarte.errors import EcarteError


@click.command("solve")
@click.argument(
    "file", required=False, type=click.Path(exists=True, dir_okay=False, path_type=Path)
)
@click.option(
    "--seed",
    type=SEED,
    default=None,
    help="Solve the deal of this seed instead, played with no exchange.",
)
@click.option(
    "--deal",
    "deal_number",
    type=click.IntRange(1),
    default=None,
    help="With a match record FILE: solve its deal N (1 is the first).",
)
@click.option(
    "--dealer",
    type=click.IntRange(0, 1),
    default=0,
    show_default=True,
    help="The dealer, with --seed.",
)
@click.option(
    "--objective",
    type=click.Choice(["points", "cards"]),
    default="points",
    show_default=True,
    help="Deal points, or the most cards the player can take.",
)
@click.option(
    "--batch",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    help="Solve every position of a JSON-lines file of deal records, in parallel, "
    "and write one JSON line of results each.",
)
@click.option(
    "--out",
    type=click.Path(dir_okay=False, path_type=Path),
    help="With --batch: write the results here instead of stdout.",
)
@click.option(
    "--threads",
    type=click.IntRange(1, MAX_THREADS),
    default=None,
    help="With --batch: worker threads (default: all cores).",
)
@click.option(
    "--positions",
    type=click.IntRange(1),
    default=None,
    help="With --seed: solve this many deals (from derive_seed(SEED, i)) and summarise.",
)
@ray_option
def solve_command(
    file: Path | None,
    seed: int | None,
    deal_number: int | None,
    dealer: int,
    objective: str,
    batch: Path | None,
    out: Path | None,
    threads: int | None,
    positions: int | None = None,
    ray_address: str | None = None,
) -> None:
    """The double-dummy value of a play-phase position, and of every legal action.

    FILE is a deal record (``deal.to_json()``), or a match record with --deal N; its position
    after the recorded actions is solved, or its first lead when the deal is over. With
    --seed, the deal of that seed is solved from its first lead. With --batch, each line of
    the file is a deal record (or a position of the solver benchmark's set).
    """
    import time

    from rich.console import Console

    from ecarte.duel import action_values, solve

    if batch is not None:
        if file is not None or seed is not None:
            raise EcarteError("give --batch FILE.jsonl alone, without a FILE or --seed")
        solve_batch(batch, out, objective, threads)
        return
    if out is not None or threads is not None:
        raise EcarteError("--out and --threads go with --batch")
    if (file is None) == (seed is None):
        raise click.UsageError("give a deal record FILE or --seed N (one of them)")
    if positions is not None or ray_address is not None:
        if positions is None or seed is None:
            raise click.UsageError("--positions N (with --seed) solves many deals; --ray needs it")
        click.echo(solve_positions(seed, positions, dealer, objective, ray_address))
        return
    console = Console(highlight=False)
    if file is not None:
        text, kind = read_record(file, "solve", (DEAL_FORMAT, MATCH_FORMAT))
        if kind == MATCH_FORMAT:
            deals = parse_match(file, text).deals
            if deal_number is None or deal_number > len(deals):
                problem = "" if deal_number is None else f", it has no deal {deal_number}"
                fail(
                    f"{file} is a match record of {len(deals)} deal{'s' * (len(deals) != 1)}"
                    f"{problem}: choose one with --deal N (1 to {len(deals)})"
                )
            deal = deals[deal_number - 1]
        else:
            if deal_number not in (None, 1):
                fail(f"{file} is a deal record: --deal is for match records")
            deal = parse_deal(file, text)
        if deal.phase == "over":
            deal = first_lead(deal)
            console.print("The deal is over: solving it from its first lead.")
    else:
        if deal_number is not None:
            raise click.UsageError("--deal goes with a match record FILE, not with --seed")
        deal = Deal(seed=seed, dealer=dealer)
        deal.apply("decline")
    if deal.phase != "play":
        raise EcarteError(f"the position is in the {deal.phase} phase; solve needs the play phase")
    player = deal.current_player
    assert player is not None
    started = time.perf_counter()
    solution = solve(deal, objective)
    elapsed = time.perf_counter() - started
    values = action_values(deal, objective)
    console.print(
        f"Trump {deal.trump.symbol}, talon {deal.talon_size} "
        f"({' '.join(c.pretty() for c in deal.talon)}), seat {player} to play"
    )
    for seat in (0, 1):
        console.print(f"  seat {seat}: {' '.join(c.pretty() for c in deal.hand(seat))}")
    if deal.lead is not None:
        console.print(f"  led: {deal.lead.pretty()}")
    unit = "deal points" if objective == "points" else "cards"
    console.print(
        f"Value for seat {player}: {solution.value:+d} {unit} "
        f"({solution.nodes} nodes, {elapsed * 1000:.2f} ms)"
    )
    table = Table(title="Every legal action")
    table.add_column("action")
    table.add_column(unit, justify="right")
    table.add_column("best", justify="center")
    best = set(solution.best_actions)
    for action, value in values:
        table.add_row(str(action), f"{value:+d}", "*" if action in best else "")
    console.print(table)


def first_lead(deal: Deal) -> Deal:
    """``deal`` replayed to the start of its play phase."""
    replay = Deal.from_deck(deal.deck, dealer=deal.dealer, rules=deal.rules)
    for action in deal.history:
        if replay.phase == "play":
            break
        replay.apply(action)
    return replay


def solve_positions(
    seed: int, positions: int, dealer: int, objective: str, address: str | None
) -> str:
    """``ecarte solve --seed S --positions N [--ray]``: solves the deals of seeds
    ``derive_seed(S, i)`` from their first lead and summarises them."""
    import time

    from ecarte import derive_seed
    from ecarte.duel import solve_many

    deals = []
    for i in range(positions):
        deal = Deal(seed=derive_seed(seed, i), dealer=dealer)
        deal.apply("decline")
        deals.append(deal)
    started = time.perf_counter()
    solutions = solve_many(deals, objective, backend=backend_of(address), progress=None)
    elapsed = time.perf_counter() - started
    unit = "deal points" if objective == "points" else "cards"
    mean = sum(s.value for s in solutions) / positions
    nodes = sum(s.nodes for s in solutions)
    return (
        f"{positions} positions from seed {seed}: mean value {mean:+.3f} {unit} for the "
        f"player to lead, {nodes} nodes, {elapsed:.2f} s"
    )


def solve_batch(path: Path, out: Path | None, objective: str, threads: int | None) -> None:
    """``ecarte solve --batch``: the results as JSON lines on stdout or in ``out``, with a
    progress bar on stderr."""
    import json
    import sys

    from ecarte.bench.positions import count_lines, solve_records
    from ecarte.progress import progress_bar

    with progress_bar("Solving", count_lines(path)) as advance:
        results = solve_records(path, objective, threads, advance)
    text = "".join(json.dumps(r) + "\n" for r in results)
    if out is None:
        sys.stdout.write(text)
    else:
        out.write_text(text, encoding="utf-8")
        print(f"{len(results)} positions solved, results in {out}", file=sys.stderr)
