"""``ecarte solve``: the double-dummy value of a position and of each legal action; many
positions from seeds (also on Ray), or a JSON-lines batch."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import click
from rich.table import Table

from ecarte import MAX_BATCH, MAX_THREADS
from ecarte.cli.common import (
    ASCII_OPTION,
    OUTPUT,
    SEED,
    Whole,
    backend_of,
    console,
    fail,
    load_record,
    ray_option,
    write_output,
)
from ecarte.display import action_str, card_str, cards_text, counted, suit_str
from ecarte.duel import Deal, Match, Solution
from ecarte.errors import EcarteError
from ecarte.registry import record_formats


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
    type=Whole(1),
    default=None,
    help="With a match record FILE: solve its deal N (1 is the first).",
)
@click.option(
    "--dealer",
    type=Whole(0, 1),
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
    type=OUTPUT,
    help="With --batch: write the results here instead of stdout.",
)
@click.option(
    "--threads",
    type=Whole(1, MAX_THREADS),
    default=None,
    help="With --batch: worker threads (default: all cores).",
)
@click.option(
    "--strict",
    is_flag=True,
    help="With --batch: stop at the first bad line (status 2) instead of leaving it out.",
)
@click.option(
    "--positions",
    type=Whole(1, MAX_BATCH),
    default=None,
    help="With --seed: solve this many deals (from derive_seed(SEED, i)) and summarise.",
)
@ASCII_OPTION
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
    strict: bool = False,
    positions: int | None = None,
    ray_address: str | None = None,
) -> None:
    """The double-dummy value of a play-phase position, and of every legal action.

    FILE is a deal record (as deal.to_json() writes it), or a match record with --deal N;
    its position after the recorded actions is solved, or its first lead when the deal is
    over. With --seed, the deal of that seed is solved from its first lead. With --batch,
    each line of the file is a deal record (or a position of the solver benchmark's set),
    solved the same way; a bad line is reported as FILE:LINE and the rest are solved
    (status 1), or with --strict the first bad line stops the run (status 2).
    """
    import time

    from ecarte.duel import action_values, solve

    if batch is not None:
        if file is not None or seed is not None:
            raise EcarteError("give --batch FILE.jsonl alone, without a FILE or --seed")
        solve_batch(batch, out, objective, threads, strict)
        return
    if out is not None or threads is not None or strict:
        raise EcarteError("--out, --threads and --strict go with --batch")
    if (file is None) == (seed is None):
        raise click.UsageError("give a deal record FILE or --seed N (one of them)")
    if positions is not None or ray_address is not None:
        if positions is None or seed is None:
            raise click.UsageError("--positions N (with --seed) solves many deals; --ray needs it")
        click.echo(solve_positions(seed, positions, dealer, objective, ray_address))
        return
    screen = console()
    if file is not None:
        record = load_record(file, "solve", (Deal, Match))
        if isinstance(record, Match):
            deals = record.deals
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
            deal = record
        deal, note = position_of(deal)
        if note:
            screen.print(f"{note}.")
    else:
        if deal_number is not None:
            raise click.UsageError("--deal goes with a match record FILE, not with --seed")
        deal = Deal(seed=seed, dealer=dealer)
        deal.apply("decline")
    player = deal.current_player
    assert player is not None
    started = time.perf_counter()
    solution = solve(deal, objective)
    elapsed = time.perf_counter() - started
    values = action_values(deal, objective)
    screen.print(
        f"Trump {suit_str(deal.trump)}, seat {player} to play, talon of {deal.talon_size}:"
    )
    # The talon on a line of its own, which fits 80 columns whole.
    screen.print(f"  {cards_text(deal.talon)}")
    for seat in (0, 1):
        screen.print(f"  seat {seat}: {cards_text(deal.hand(seat))}")
    if deal.lead is not None:
        screen.print(f"  led: {card_str(deal.lead)}")
    # Points are won or lost (signed); cards are a count.
    unit, shown = ("deal points", "{:+d}") if objective == "points" else ("cards", "{:d}")
    screen.print(
        f"Value for seat {player}: {shown.format(solution.value)} {unit} "
        f"({counted(solution.nodes, 'node')}, {elapsed * 1000:.2f} ms)"
    )
    table = Table(title="Every legal action")
    table.add_column("action")
    table.add_column(unit, justify="right")
    table.add_column("best", justify="center")
    best = set(solution.best_actions)
    for action, value in values:
        table.add_row(action_str(action), shown.format(value), "*" if action in best else "")
    screen.print(table)


def position_of(deal: Deal) -> tuple[Deal, str]:
    """The position ``solve`` solves for a recorded deal, and a note on it: the deal as it
    stands in its play phase, or its first lead when it is over ("the deal is over: solved
    from its first lead"). Any other phase raises ``EcarteError``. ``solve FILE`` and
    ``solve --batch`` both read records through this."""
    if deal.phase == "over":
        replay = Deal.from_deck(deal.deck, dealer=deal.dealer, rules=deal.rules)
        for action in deal.history:
            if replay.phase == "play":
                break
            replay.apply(action)
        return replay, "The deal is over: solved from its first lead"
    if deal.phase != "play":
        raise EcarteError(f"the position is in the {deal.phase} phase; solve needs the play phase")
    return deal, ""


def solve_positions(
    seed: int, positions: int, dealer: int, objective: str, address: str | None
) -> str:
    """``ecarte solve --seed S --positions N [--ray]``: solves the deals of seeds
    ``derive_seed(S, i)`` from their first lead and summarises them."""
    import time

    from ecarte import derive_seed
    from ecarte.distributed import chunks
    from ecarte.duel import SOLVE_SECONDS, solve_many
    from ecarte.progress import progress_bar, run_seconds

    def opening(i: int) -> Deal:
        deal = Deal(seed=derive_seed(seed, i), dealer=dealer)
        deal.apply("decline")
        return deal

    started = time.perf_counter()
    total = nodes = 0
    if address is not None:
        deals = [opening(i) for i in range(positions)]
        solutions = solve_many(deals, objective, backend=backend_of(address), progress=None)
        total, nodes = sum(s.value for s in solutions), sum(s.nodes for s in solutions)
    else:
        # In pieces, so that the deals in memory stay few and the bar moves from the start.
        seconds = run_seconds(SOLVE_SECONDS, positions)
        with progress_bar("Positions", positions, seconds=seconds) as bar:
            for piece in chunks(positions, SOLVE_PIECE):
                deals = [opening(i) for i in range(piece.start, piece.start + piece.n)]
                for solution in solve_many(deals, objective, on_progress=bar.running):
                    total += solution.value
                    nodes += solution.nodes
                bar(piece.n)
    elapsed = time.perf_counter() - started
    unit = "deal points" if objective == "points" else "cards"
    mean = total / positions
    return (
        f"{positions:,} positions from seed {seed}: mean value {mean:+.3f} {unit} for the "
        f"player to lead, {nodes:,} nodes, {elapsed:.2f} s"
    )


#: Positions per native call of a local ``solve --positions``: their deals are built, solved
#: and dropped a piece at a time.
SOLVE_PIECE = 10_000


def solve_batch(
    path: Path, out: Path | None, objective: str, threads: int | None, strict: bool
) -> None:
    """``ecarte solve --batch``: the results as JSON lines on stdout or in ``out``, with a
    progress bar on stderr; each bad line reported on stderr as ``FILE:LINE: what``."""
    import json
    import sys

    from ecarte.duel import solve_many_timed
    from ecarte.progress import progress_bar

    positions, problems = read_batch(path, strict)
    if not positions:
        if problems:
            for problem in problems[:-1]:
                click.echo(f"error: {problem}", err=True)
            fail(problems[-1])
        fail(f"{path} holds no positions (no JSON lines); solve --batch reads {BATCH_LINES}")
    with progress_bar("Solving", len(positions)) as bar:
        deals = [p.deal for p in positions]
        solved = solve_many_timed(deals, objective, threads, on_progress=bar.running)
        bar(len(positions))
    records = []
    for p, (solution, seconds) in zip(positions, solved, strict=True):
        record = {"line": p.line, **solution_record(solution, p.meta, seconds)}
        records.append(record | ({"note": p.note} if p.note else {}))
    text = "".join(json.dumps(r) + "\n" for r in records)
    if out is None:
        sys.stdout.write(text)
    else:
        write_output(out, text, "--out")
    for problem in problems:
        click.echo(f"error: {problem}", err=True)
    summary = counted(len(records), "position") + " solved"
    if out is not None:
        click.echo(f"{summary}, results in {out}", err=True)
    if problems:
        click.echo(f"{summary}; {counted(len(problems), 'bad line')} left out", err=True)
        sys.exit(1)


def solution_record(solution: Solution, meta: dict[str, Any], seconds: float) -> dict[str, Any]:
    """The output line of ``ecarte solve --batch`` for one position (a benchmark
    position's ``id`` kept)."""
    out: dict[str, Any] = {}
    if "id" in meta:
        out["id"] = meta["id"]
    out["value"] = solution.value
    out["best_actions"] = [str(a) for a in solution.best_actions]
    out["nodes"] = solution.nodes
    out["ms"] = round(seconds * 1e3, 4)
    return out


#: What a line of ``solve --batch`` holds.
BATCH_LINES = "JSON lines of deal records (or of positions of the solver benchmark's set)"


@dataclass(frozen=True)
class BatchPosition:
    """One good line of a batch: its number, the position to solve, the line's other
    fields (a benchmark position's id) and a note (a finished deal solved from its lead)."""

    line: int
    deal: Deal
    meta: dict[str, Any]
    note: str


def read_batch(path: Path, strict: bool) -> tuple[list[BatchPosition], list[str]]:
    """The positions of a batch file and its bad lines (``FILE:LINE: what``); with
    ``strict``, the first bad line raises instead. A file that is not UTF-8 text is refused
    as a whole."""
    try:
        text = path.read_bytes().decode("utf-8")
    except OSError as exc:
        fail(f"cannot read {path}: {exc.strerror or type(exc).__name__}")
    except UnicodeDecodeError:
        fail(f"{path} is not a text file (not UTF-8); solve --batch reads {BATCH_LINES}")
    positions: list[BatchPosition] = []
    problems: list[str] = []
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            positions.append(batch_position(number, line))
        except EcarteError as exc:
            if strict:
                fail(f"{path}:{number}: {exc}")
            problems.append(f"{path}:{number}: {exc}")
    return positions, problems


def batch_position(number: int, line: str) -> BatchPosition:
    """The position of line ``number`` of a batch; ``EcarteError`` saying what the line is
    when it holds none."""
    import json

    try:
        obj = json.loads(line)
    except json.JSONDecodeError as exc:
        raise EcarteError(f"not JSON ({exc.msg}, column {exc.colno})") from None
    except RecursionError:
        raise EcarteError("not JSON (nested too deeply)") from None
    if not isinstance(obj, dict):
        raise EcarteError(f"not a deal record (a JSON object), but {type(obj).__name__} JSON")
    record = obj.get("deal", obj)  # a position of the benchmark set holds its deal
    name = record.get("format") if isinstance(record, dict) else None
    known = record_formats().get(name) if isinstance(name, str) else None
    if known is not None and known.reader is not Deal:
        raise EcarteError(f"{known.description}, not a deal record; solve --batch reads deals")
    try:
        deal = Deal.from_json(json.dumps(record))
    except EcarteError:
        raise
    except (ValueError, TypeError, RecursionError) as exc:
        raise EcarteError(str(exc)) from None
    position, note = position_of(deal)
    return BatchPosition(number, position, obj, note)
