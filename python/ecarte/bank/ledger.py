"""What a banking table keeps and shows: stakes and settlements, the punters' view, the
actions a player may take, and the session record (its checked configuration, its deals and
its format)."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass
from typing import Any, Final, Literal, NamedTuple

from ecarte._core import Card, check_seed
from ecarte._core.bank import Deal, Resolution
from ecarte._public import api_dir
from ecarte.errors import InvalidRecordError, InvalidRulesError
from ecarte.records import dump_record, format_read_by, read_record

__all__ = [
    "PUNTER_TABLEAUX",
    "RECORD_FORMAT",
    "RECORD_VERSION",
    "Bounds",
    "LegalAction",
    "Mode",
    "Phase",
    "PunterView",
    "Settlement",
    "SettlementResult",
    "Stake",
    "check_replay",
    "deal_record",
    "listed",
    "read_session",
    "session_record",
    "table_config",
    "whole_number",
]
__dir__ = api_dir(globals())

Mode = Literal["banking", "open"]
Phase = Literal["ready", "staking", "revealed", "broken", "over"]
SettlementResult = Literal["won", "lost", "en_carte", "returned"]

RECORD_FORMAT: Final = format_read_by("ecarte.bank.Table")
RECORD_VERSION: Final = 1
PUNTER_TABLEAUX: Final = (2, 3, 4)


@dataclass(frozen=True)
class Stake:
    """A punter's stake on tableau 2, 3 or 4, in placing order."""

    player: str
    tableau: int
    amount: int


@dataclass(frozen=True)
class Settlement:
    """How one stake was settled: ``paid`` is the chips the punter gained (negative: lost)."""

    player: str
    tableau: int
    amount: int
    result: SettlementResult
    paid: int


@dataclass(frozen=True)
class PunterView:
    """What a punter may know: the trump card and the stakes while the tableaux lie face
    down, and the tableaux and results once they are revealed (the duel's observations are
    the analogue). ``chips`` and ``stakes`` are public at the table."""

    phase: Phase
    banker: str
    bank: int
    mode: Mode
    fixed_stake: int
    responsible: bool
    chips: Mapping[str, int]
    stakes: tuple[Stake, ...]
    trump_card: Card | None
    discards: tuple[Card, ...]
    """Cards of earlier deals seen face up and not yet shuffled back (for the odds)."""
    tableaux: tuple[tuple[Card, ...], ...] | None
    """T1-T4, only once revealed (``None`` while face down or before the first deal)."""
    results: tuple[Resolution, ...] | None
    """T2-T4 against T1, only once revealed."""

    def free_chips(self, player: str) -> int:
        """``player``'s chips not yet committed to a stake of this deal."""
        return self.chips[player] - sum(s.amount for s in self.stakes if s.player == player)


class Bounds(NamedTuple):
    """What the last argument of a legal action may be: ``argument`` names it (``amount``,
    ``seed``), a whole number from ``min`` to ``max``. An ``optional`` one may be left out:
    the table then takes ``default`` (a restake: the bank size) or its own seeded choice (a
    shuffle's seed, which it does not show)."""

    argument: str
    min: int
    max: int
    optional: bool = False
    default: int | None = None


class LegalAction(NamedTuple):
    """An action a player may take now (:meth:`Table.legal_actions`). ``action`` is its
    record form without the last argument (``("stake", "bob", 4)``, ``("deal",)``);
    ``bounds``, when there is one more, says what it may be. ``obliged`` marks a fixed stake
    on T2 or T3 that the table waits for before it takes a stake on T4 or the reveal."""

    name: str
    player: str
    action: tuple[str | int, ...]
    tableau: int | None = None
    bounds: Bounds | None = None
    obliged: bool = False


def listed(names: Sequence[str], last: str = "and") -> str:
    """Names as a sentence writes them: ``ann``, ``ann and bob``, ``ann, bob and cy``."""
    return f" {last} ".join(filter(None, (", ".join(names[:-1]), *names[-1:])))


def whole_number(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def table_config(
    players: Sequence[str],
    banker: int,
    bank: int,
    mode: Mode,
    fixed_stake: int,
    seed: int,
    chips: int | Mapping[str, int],
    obliged: bool | None,
) -> dict[str, Any]:
    """The configuration of a new table as its record holds it (``obliged`` decided, the
    chips per player), once every argument is checked; raises ``InvalidRulesError``."""
    names = list(players)
    if not all(isinstance(p, str) and p for p in names):
        raise InvalidRulesError("a player's name is non-empty text")
    if len(names) < 2:
        raise InvalidRulesError(f"a table needs at least two players, got {len(names)}")
    if twice := sorted({p for p in names if names.count(p) > 1}):
        verb = "is" if len(twice) == 1 else "are"
        raise InvalidRulesError(f"player names must be unique: {listed(twice)} {verb} taken twice")
    if mode not in ("banking", "open"):
        raise InvalidRulesError(f"mode must be 'banking' or 'open', got {mode!r}")
    if not whole_number(banker) or not 0 <= banker < len(names):
        raise InvalidRulesError(f"banker must be a seat index 0-{len(names) - 1}, got {banker!r}")
    for label, value in (("bank", bank), ("fixed_stake", fixed_stake)):
        if not whole_number(value) or value <= 0:
            raise InvalidRulesError(f"{label} must be a positive whole number, got {value!r}")
    check_seed(seed)
    if obliged is None:
        obliged = mode == "banking"
    if not isinstance(obliged, bool):
        raise InvalidRulesError(f"obliged must be True, False or None, got {obliged!r}")
    if obliged and mode != "banking":
        raise InvalidRulesError("obliged stakes need banking mode: open mode has no fixed stake")
    if isinstance(chips, Mapping):
        start = {p: chips.get(p) for p in names}
    else:
        start = {p: chips for p in names}
    for p, c in start.items():
        if not whole_number(c) or c < 0:  # type: ignore[operator]
            raise InvalidRulesError(f"the chips of {p} must be a whole number >= 0, got {c!r}")
    return {
        "players": names,
        "banker": banker,
        "bank": bank,
        "mode": mode,
        "fixed_stake": fixed_stake,
        "seed": seed,
        "chips": start,
        "obliged": obliged,
    }


def deal_record(
    number: int,
    banker: str,
    deal: Deal,
    results: Sequence[Resolution],
    stakes: Sequence[Stake],
    settlements: Sequence[Settlement],
    broken: bool,
    run_outs: int,
) -> dict[str, Any]:
    """The record of settled deal ``number``: its cards, stakes, results and settlements."""
    return {
        "deal": number,
        "banker": banker,
        "tableaux": [[str(c) for c in t] for t in deal.tableaux],
        "trump_card": str(deal.trump_card),
        "stakes": [asdict(s) for s in stakes],
        "results": [
            {"tableau": t, **json.loads(r.to_json())}
            for t, r in zip(PUNTER_TABLEAUX, results, strict=False)
        ],
        "settlements": [asdict(s) for s in settlements],
        "bank_broken": broken,
        "run_outs": run_outs,
    }


def session_record(config: Mapping[str, Any], actions: Sequence[Any], deals: Sequence[Any]) -> str:
    """The JSON text of a session record (``Table.to_json``)."""
    fields = {"config": config, "actions": actions, "deals": deals}
    return dump_record(RECORD_FORMAT, RECORD_VERSION, fields)


def read_session(text: object) -> dict[str, Any]:
    """The session record in ``text`` (JSON of this format and version with a ``config``
    object, an ``actions`` list and a ``deals`` list), before any replay; raises
    ``InvalidRecordError``."""
    fields = {"config": dict, "actions": list, "deals": list}
    return read_record(text, RECORD_FORMAT, RECORD_VERSION, fields)


def check_replay(record: Mapping[str, Any], replayed: Mapping[str, Any]) -> None:
    """Refuses a record whose replay (``replayed``, the replayed table's record) differs."""
    if replayed["deals"] != record["deals"]:
        raise InvalidRecordError("the replayed deals differ from the recorded ones")
    if replayed != record:
        raise InvalidRecordError("the record holds unknown or altered fields")
