"""The solver benchmark that ships with the package, and batch solving.

``solver_positions_v2.jsonl`` (in ``ecarte/data``) is a fixed, versioned set of
double-dummy positions, in the spirit of the standard deal lists of bridge solvers: one
JSON object a line, each with the deal record of the position (``Deal.to_json``), its exact
value for the player to move and every best action. ``benches/make_solver_positions.py``
regenerates it with :func:`make_positions`; a new set gets a new version number, and the old
file stays as it was.

The set: 100 positions for each exchange count from 0 to 11 (1,200 in all, line ``i`` has
``i % 12`` exchanges), each the opening lead of a deal of its own seed. The seeds come from
the engine's stream of :data:`SEED` (``Stream(SEED)``, see docs/api.md, "Seeds"), so they
overlap neither the seeds 0..99 of ``benches/solver_positions.py`` nor the small seeds of
the tests; discards are drawn from the same stream; dealers alternate. Version 1 drew from
a SplitMix64 generator of its own; version 2 is the same set drawn from the engine's one
generator.

``ecarte bench solver`` times the solver on it (:mod:`ecarte.bench.solver`) and checks every
value; ``ecarte solve --batch`` solves a file of records as it does
(``duel.solve_many_timed``).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

from ecarte._core import Stream
from ecarte._public import api_dir
from ecarte.duel import Deal, Rules, Solution, solve_many_timed
from ecarte.errors import EcarteError

__all__ = [
    "FORMAT",
    "POSITIONS_FILE",
    "SEED",
    "VERSION",
    "Position",
    "load_positions",
    "make_positions",
    "parse_record",
    "position_record",
]
__dir__ = api_dir(globals())

FORMAT = "ecarte.solver.position"
VERSION = 2
POSITIONS_FILE = f"solver_positions_v{VERSION}.jsonl"
SEED = 0x5EED_EC_A27E_0001
PER_EXCHANGE = 100
MAX_EXCHANGES = 11


@dataclass(frozen=True)
class Position:
    """One position of the set: the deal (at its opening lead) and its exact result."""

    id: int
    exchanges: int
    deal: Deal
    value: int
    best_actions: tuple[str, ...]
    objective: str = "points"


def opening_position(
    seed: int, dealer: int, exchanges: int, rng: Stream, rules: Rules | None = None
) -> Deal:
    """The deal of ``seed`` (under ``rules``, the default ones if None) after ``exchanges``
    exchanges (every proposal accepted, random discards), at its first lead."""
    deal = Deal(seed=seed, dealer=dealer, rules=rules)
    while deal.phase != "play":
        names = [str(a) for a in deal.legal_actions()]
        if "propose" in names:
            deal.apply("propose" if deal.exchanges < exchanges else "decline")
        elif "accept" in names:
            deal.apply("accept")
        else:
            legal = deal.legal_actions()
            deal.apply(legal[rng.below(len(legal))])
    return deal


def make_positions(count: int | None = None) -> list[dict[str, Any]]:
    """The records of the shipped set (its first ``count`` lines), solved afresh."""
    total = PER_EXCHANGE * (MAX_EXCHANGES + 1)
    count = total if count is None else min(count, total)
    rng = Stream(SEED)
    deals = []
    for i in range(count):
        seed = rng.next_u64() >> 1  # below 2**63: a seed every API takes
        deals.append(opening_position(seed, i % 2, i % (MAX_EXCHANGES + 1), rng))
    solved = solve_many_timed(deals)
    return [
        position_record(i, deal, solution)
        for i, (deal, (solution, _)) in enumerate(zip(deals, solved, strict=False))
    ]


def position_record(i: int, deal: Deal, solution: Solution) -> dict[str, Any]:
    """The JSON object of one position of the set."""
    return {
        "format": FORMAT,
        "version": VERSION,
        "id": i,
        "exchanges": deal.exchanges,
        "objective": "points",
        "value": solution.value,
        "best_actions": [str(a) for a in solution.best_actions],
        "deal": json.loads(deal.to_json()),
    }


def default_path() -> Path:
    """Where the shipped set is, inside the installed package."""
    return Path(str(resources.files("ecarte") / "data" / POSITIONS_FILE))


def parse_record(obj: Any, where: str) -> tuple[Deal, dict[str, Any]]:
    """The deal of one JSON line: a position of the set (``"deal"`` holds the record) or
    a bare deal record. Raises ``EcarteError`` naming ``where`` when it is neither."""
    if not isinstance(obj, dict):
        raise EcarteError(f"{where}: expected a JSON object")
    record = obj.get("deal", obj)
    try:
        deal = Deal.from_json(json.dumps(record))
    except EcarteError as exc:
        raise EcarteError(f"{where}: {exc}") from None
    if deal.phase != "play":
        raise EcarteError(
            f"{where}: the position is in the {deal.phase} phase; the solver needs the play phase"
        )
    return deal, obj


def read_lines(path: Path) -> Iterator[tuple[int, Any]]:
    """``(line number, parsed JSON)`` for each non-blank line of a JSON-lines file."""
    with path.open(encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            if not line.strip():
                continue
            try:
                yield n, json.loads(line)
            except json.JSONDecodeError as exc:
                raise EcarteError(f"{path}:{n}: not JSON ({exc.msg})") from None


def load_positions(path: Path | None = None, limit: int | None = None) -> list[Position]:
    """The positions of the set (the shipped one by default), the first ``limit`` of them."""
    path = default_path() if path is None else path
    out: list[Position] = []
    for n, obj in read_lines(path):
        if limit is not None and len(out) >= limit:
            break
        deal, meta = parse_record(obj, f"{path}:{n}")
        try:
            out.append(
                Position(
                    id=int(meta["id"]),
                    exchanges=int(meta["exchanges"]),
                    deal=deal,
                    value=int(meta["value"]),
                    best_actions=tuple(meta["best_actions"]),
                    objective=str(meta.get("objective", "points")),
                )
            )
        except (KeyError, TypeError, ValueError):
            raise EcarteError(f"{path}:{n}: not a solver position record") from None
    return out
