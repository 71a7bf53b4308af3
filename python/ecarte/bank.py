"""The Russian banking écarté (docs/rules.md, "Bank"; docs/bank.md).

The engine (resolution, exact odds, simulation, the shoe) is Rust, re-exported here under
clean names; :class:`Table` runs the game flow, the chips and the records in Python.

Phase machine of a :class:`Table`::

    "ready" --deal()--> "staking" --reveal()--> "revealed" --settle()--> "ready"
                                                                 \\--> "broken" (bank broken)
    "broken" --restake_bank()--> "ready"        (first break of this banker only)
    "broken" --declare_responsible()--> "ready" (second break only)
    "broken" --pass_bank()--> "ready"
    "over": no player can hold the bank; nothing more is legal.

Between deals ("ready") a punter may ``shuffle_rest`` once, also after a restake (RULES.md,
"The shoe across deals": the restake only spares the banker a reshuffle).

During staking the tableaux are face down: punters see :meth:`Table.punter_view` (the trump
card and the stakes), which :meth:`Table.deal` returns.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass
from types import MappingProxyType
from typing import Any, Final, Literal

from ecarte._core import Card, Suit
from ecarte._core.bank import (
    CHUNK,
    MAX_DEALS,
    Deal,
    Odds,
    Resolution,
    Shoe,
    deal_from_shoe,
    resolve,
)
from ecarte._core.bank import odds as _native_odds
from ecarte._core.bank import simulate as _native_simulate
from ecarte.distributed import Backend, dispatch, ray_backend
from ecarte.errors import (
    EcarteError,
    InvalidCardError,
    InvalidRecordError,
    InvalidRulesError,
    InvalidShoeError,
    InvalidStakeError,
    TableError,
)
from ecarte.results import SimulationResult
from ecarte.seeding import resolve_seed
from ecarte.stats import wilson_interval

__all__ = [
    "CHUNK",
    "MAX_DEALS",
    "OUTCOMES",
    "Card",
    "Deal",
    "EcarteError",
    "InvalidShoeError",
    "InvalidStakeError",
    "Odds",
    "PunterView",
    "Resolution",
    "Settlement",
    "Shoe",
    "SimulationResult",
    "Stake",
    "Suit",
    "Table",
    "TableError",
    "deal_from_shoe",
    "odds",
    "resolve",
    "simulate",
]

Mode = Literal["banking", "open"]
Phase = Literal["ready", "staking", "revealed", "broken", "over"]
SettlementResult = Literal["won", "lost", "en_carte", "returned"]

RECORD_FORMAT: Final = "ecarte.bank.session"
RECORD_VERSION: Final = 1
PUNTER_TABLEAUX: Final = (2, 3, 4)
_MASK64: Final = (1 << 64) - 1


OUTCOMES: Final = ("banker", "en_carte", "punter")


#: Measured single-thread CPU seconds per simulated deal (docs/scale.md, "Chunk sizing").
SIMULATED_DEAL_SECONDS: Final = 3e-7


def simulate(
    n: int,
    seed: int | None = None,
    shoe: Iterable[Card | str] | None = None,
    start: int = 0,
    threads: int | None = None,
    backend: Backend = "local",
    progress: bool | None = False,
) -> SimulationResult:
    """Simulates ``n`` whole deals (T2, T3 and T4 each against T1) from a freshly shuffled
    ``shoe`` (the cards left; the full 104-card shoe by default), in parallel with the GIL
    released; the result is the same for any ``threads``.

    Deals are drawn in chunks of ``CHUNK`` (4096), chunk ``k`` from its own ChaCha8 stream
    ``k`` of ``seed``; ``start`` (a multiple of ``CHUNK``) offsets the chunks, so a long run
    split at chunk boundaries adds up to the same counts. ``seed=None`` draws a fresh seed,
    kept in the result. ``n`` is at most ``MAX_DEALS`` per call.

    Columns: ``counts``, a ``(3, 3)`` uint64 array indexed ``[tableau - 2, outcome]``, and
    ``joint``, ``(3, 3, 3)`` indexed ``[T2, T3, T4]``; outcomes 0 banker, 1 en carte,
    2 punter. A bank run's columns are count tables, not per-deal rows: a billion deals fit.
    The summary holds, per tableau (2, 3, 4) and outcome name, the ``counts``,
    ``probabilities`` and 95% Wilson ``intervals``.

    ``backend="ray"`` (or a ``RayBackend``) runs whole chunks of ``CHUNK`` deals as Ray
    tasks and adds their counts: the same result (docs/scale.md); ``n`` may then exceed
    ``MAX_DEALS`` and ``progress`` shows a bar that advances as chunks complete.
    """
    seed = resolve_seed(seed)
    # Tasks are shipped the shoe as a list; a local run hands it over as given.
    cards = shoe if shoe is None or ray_backend(backend) is None else list(shoe)
    parts = dispatch(
        backend,
        _simulate_chunk,
        n,
        SIMULATED_DEAL_SECONDS,
        (start, seed, cards),
        local=lambda: _native_simulate(n, seed, cards, start, threads),
        check=lambda: _native_simulate(0, seed, cards, start, threads),
        align=CHUNK,
        limit=MAX_DEALS,
        label="Deals",
        progress=progress,
        seed=seed,
    )
    counts, joint = parts[0]
    for part_counts, part_joint in parts[1:]:  # integer counts: exact in any order
        counts, joint = counts + part_counts, joint + part_joint
    total = int(n)
    per_tableau = {
        t + 2: {name: int(counts[t, o]) for o, name in enumerate(OUTCOMES)} for t in range(3)
    }
    summary = {
        "counts": per_tableau,
        "probabilities": {
            t: {o: k / total if total else 0.0 for o, k in row.items()}
            for t, row in per_tableau.items()
        },
        "intervals": {
            t: {o: wilson_interval(k, total) for o, k in row.items()}
            for t, row in per_tableau.items()
        },
    }
    return SimulationResult(
        n=total, seed=seed, columns={"counts": counts, "joint": joint}, summary=summary
    )


def _simulate_chunk(
    start: int, n: int, offset: int, seed: int, cards: list[Card | str] | None
) -> tuple[Any, Any]:
    """Deals ``offset + start`` onwards, ``n`` of them: the count tables of one Ray task."""
    counts, joint = _native_simulate(n, seed, cards, offset + start, None)
    return counts, joint


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


def odds(
    trump: Suit | Card | str | None = None,
    removed: Iterable[Card | str] | None = None,
    shoe: Iterable[Card | str] | None = None,
    *,
    trump_card: Card | str | None = None,
) -> Odds:
    """Exact odds of one punter tableau against the banker's.

    The cards left are ``shoe`` (default: the full 104-card shoe) minus ``removed`` minus
    the turned-up card. Give the turn-up as ``trump_card="QH"`` (or as ``trump`` itself, a
    ``Card`` or card text such as ``"QH"``): its suit is trump and it leaves the shoe, as in
    play. A bare suit (``"H"``, ``Suit.Hearts``) removes nothing more: the cards left are
    exactly ``shoe`` minus ``removed``, so put the turn-up in ``removed`` (or leave it out of
    ``shoe``) for a state that occurs in play.
    """
    if trump_card is None:
        if trump is None:
            raise InvalidCardError("odds needs the turned-up card (trump_card=) or a trump suit")
        return _native_odds(trump, removed, shoe)
    if trump is not None:
        raise InvalidCardError("give the turned-up card as trump or as trump_card, not both")
    if isinstance(trump_card, str):
        trump_card = Card(trump_card)
    if not isinstance(trump_card, Card):
        raise InvalidCardError(
            f"trump_card must be a Card or card text such as 'QH', got {trump_card!r}"
        )
    return _native_odds(trump_card, removed, shoe)


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


def _whole(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _derived_seed(seed: int, deals: int) -> int:
    """The seed of a punter's shuffle when none is given: a fixed mix of the table seed and
    the number of deals played (SplitMix64's increment), so a session is reproducible."""
    return (seed + 0x9E3779B97F4A7C15 * (deals + 1)) & _MASK64


class Table:
    """A banking-écarté table: players in seat order, one banker, the shoe and the chips.

    Every player starts with ``chips`` (one number for all, or a mapping name -> chips).
    In ``"banking"`` mode the banker moves ``bank`` chips from their own into the bank;
    stakes on T2 and T3 must be exactly ``fixed_stake`` and the stakes on T4 may total up to
    the bank. In ``"open"`` mode there is no bank: punters stake any positive whole amount on
    T2-T4 and the banker pays from their own chips without limit (chips may go negative).
    The shoe is shuffled with ``seed``, or given exactly as ``shoe`` (104 cards, top first).
    Chips are conserved: the sum of all players' chips plus the bank never changes.
    """

    def __init__(
        self,
        players: Sequence[str],
        banker: int = 0,
        bank: int = 100,
        mode: Mode = "banking",
        fixed_stake: int = 10,
        seed: int = 0,
        chips: int | Mapping[str, int] = 1000,
        shoe: Sequence[Card | str] | None = None,
        obliged: bool | None = None,
    ) -> None:
        names = list(players)
        if len(names) < 2 or not all(isinstance(p, str) and p for p in names):
            raise InvalidRulesError(f"players must be at least two non-empty names, got {names!r}")
        if len(set(names)) != len(names):
            raise InvalidRulesError(f"player names must be unique, got {names!r}")
        if mode not in ("banking", "open"):
            raise InvalidRulesError(f"mode must be 'banking' or 'open', got {mode!r}")
        if not _whole(banker) or not 0 <= banker < len(names):
            raise InvalidRulesError(
                f"banker must be a seat index 0-{len(names) - 1}, got {banker!r}"
            )
        for label, value in (("bank", bank), ("fixed_stake", fixed_stake)):
            if not _whole(value) or value <= 0:
                raise InvalidRulesError(f"{label} must be a positive whole number, got {value!r}")
        if not _whole(seed) or not 0 <= seed <= _MASK64:
            raise InvalidRulesError(f"seed must be a whole number 0 to 2**64-1, got {seed!r}")
        if obliged is None:
            obliged = mode == "banking"
        if not isinstance(obliged, bool):
            raise InvalidRulesError(f"obliged must be True, False or None, got {obliged!r}")
        if obliged and mode != "banking":
            raise InvalidRulesError(
                "obliged stakes need banking mode: open mode has no fixed stake"
            )
        if isinstance(chips, Mapping):
            start = {p: chips.get(p) for p in names}
        else:
            start = {p: chips for p in names}
        for p, c in start.items():
            if not _whole(c) or c < 0:  # type: ignore[operator]
                raise InvalidRulesError(f"chips of {p!r} must be a whole number >= 0, got {c!r}")
        self._players: list[str] = names
        self._mode: Mode = mode
        self._bank_size = bank
        self._fixed_stake = fixed_stake
        self._seed = seed
        self._obliged = obliged
        self._config: dict[str, Any] = {
            "players": names,
            "banker": banker,
            "bank": bank,
            "mode": mode,
            "fixed_stake": fixed_stake,
            "seed": seed,
            "chips": dict(start),
            "obliged": obliged,
        }
        self._chips: dict[str, int] = {p: int(c) for p, c in start.items()}  # type: ignore[arg-type]
        if shoe is None:
            self._shoe = Shoe(seed)
        else:
            self._shoe = Shoe.from_order(list(shoe), seed)
            self._config["shoe"] = [str(c) for c in self._shoe.undealt]
        self._bank = 0
        self._banker = banker
        self._bank_number = 1
        self._responsible = False
        self._tenure_start_run_outs = 0
        self._phase: Phase = "ready"
        self._deal: Deal | None = None
        self._revealed = False
        self._stakes: list[Stake] = []
        self._settlements: list[Settlement] = []
        self._deals_played = 0
        self._shuffled_since_deal = False
        self._actions: list[list[Any]] = []
        self._deal_records: list[dict[str, Any]] = []
        self._ledger: list[dict[str, Any]] = []
        if mode == "banking":
            self._fund_bank(self._players[banker], bank, strict=True)
        self._ledger.append(self._ledger_entry())

    # ----------------------------------------------------------------- views
    @property
    def players(self) -> list[str]:
        return list(self._players)

    @property
    def banker(self) -> str:
        return self._players[self._banker]

    @property
    def bank_size(self) -> int:
        """The bank the banker stakes at first and after a pass."""
        return self._bank_size

    @property
    def fixed_stake(self) -> int:
        """The stake on T2 and T3 in banking mode."""
        return self._fixed_stake

    @property
    def mode(self) -> Mode:
        return self._mode

    @property
    def obliged(self) -> bool:
        """Whether T2 and T3 must each carry a fixed stake before the reveal (banking mode's
        default; waived for a tableau when no punter can afford the stake)."""
        return self._obliged

    @property
    def phase(self) -> Phase:
        return self._phase

    @property
    def bank(self) -> int:
        """Chips in the bank (always 0 in open mode and for a responsible bank)."""
        return self._bank

    @property
    def bank_number(self) -> int:
        """1 for the banker's first bank, 2 after a restake."""
        return self._bank_number

    @property
    def responsible(self) -> bool:
        """True once the banker has declared the bank responsible (unlimited liability)."""
        return self._responsible

    @property
    def chips(self) -> dict[str, int]:
        return dict(self._chips)

    @property
    def total_chips(self) -> int:
        """Players' chips plus the bank: constant for the whole session."""
        return sum(self._chips.values()) + self._bank

    @property
    def deal_in_play(self) -> Deal | None:
        """The current deal (``None`` before the first), face-down tableaux included: the
        dealer's all-seeing view, for tools and tests. Players use :meth:`punter_view`."""
        return self._deal

    def punter_view(self) -> PunterView:
        """What every punter may know now: the trump card, the stakes, the chips and the
        bank; the tableaux and results only after the reveal."""
        deal = self._deal if self._revealed else None
        return PunterView(
            phase=self._phase,
            banker=self.banker,
            bank=self._bank,
            mode=self._mode,
            fixed_stake=self._fixed_stake,
            responsible=self._responsible,
            chips=MappingProxyType(dict(self._chips)),
            stakes=tuple(self._stakes),
            trump_card=None if self._deal is None else self._deal.trump_card,
            discards=tuple(self._shoe.discards),
            tableaux=None if deal is None else tuple(tuple(t) for t in deal.tableaux),
            results=None if deal is None else tuple(deal.results()),
        )

    @property
    def trump_card(self) -> Card | None:
        return None if self._deal is None else self._deal.trump_card

    @property
    def stakes(self) -> list[Stake]:
        return list(self._stakes)

    @property
    def settlements(self) -> list[Settlement]:
        """The settlements of the last settled deal."""
        return list(self._settlements)

    @property
    def deals_played(self) -> int:
        return self._deals_played

    @property
    def run_outs(self) -> int:
        """How many times the shoe has run out in the whole session."""
        return self._shoe.run_outs

    @property
    def banker_run_outs(self) -> int:
        """Run-outs since the current banker took the bank (two pass the bank)."""
        return self._shoe.run_outs - self._tenure_start_run_outs

    @property
    def remaining(self) -> int:
        """Undealt cards in the shoe."""
        return self._shoe.remaining

    @property
    def discards(self) -> list[Card]:
        return self._shoe.discards

    @property
    def on_table(self) -> list[Card]:
        """The cards of the current or last deal (they go to the discard pile at the next deal)."""
        return self._shoe.on_table

    @property
    def ledger(self) -> list[dict[str, Any]]:
        """Chips and bank after each deal: entry 0 is the start, entry k after deal k."""
        return copy.deepcopy(self._ledger)

    # -------------------------------------------------------------- actions
    def deal(self) -> PunterView:
        """Deals the next hand face down and turns up the trump card; staking opens.
        Returns the punters' view (the tableaux stay hidden until :meth:`reveal`)."""
        self._require("ready", "deal")
        deal = self._shoe.deal()
        self._deal = deal
        self._stakes = []
        self._settlements = []
        self._shuffled_since_deal = False
        self._revealed = False
        self._phase = "staking"
        self._actions.append(["deal"])
        return self.punter_view()

    def stake(self, player: str, tableau: int, amount: int) -> Stake:
        """Places ``amount`` chips of ``player`` on tableau 2, 3 or 4."""
        self._require("staking", "stake")
        self._check_player(player)
        if player == self.banker:
            raise TableError(f"{player!r} holds the bank and cannot stake")
        if not _whole(tableau) or tableau not in (1, *PUNTER_TABLEAUX):
            raise InvalidStakeError(f"tableau must be 2, 3 or 4, got {tableau!r}")
        if tableau == 1:
            raise InvalidStakeError("T1 is the banker's tableau: stake on 2, 3 or 4")
        if not _whole(amount):
            raise InvalidStakeError(f"a stake is a whole number of chips, got {amount!r}")
        if amount <= 0:
            raise InvalidStakeError(f"a stake must be positive, got {amount}")
        if self._mode == "banking" and tableau in (2, 3) and amount != self._fixed_stake:
            raise InvalidStakeError(
                f"banking mode: the stake on T{tableau} is the fixed stake "
                f"{self._fixed_stake}, got {amount}"
            )
        if self._mode == "banking" and tableau in (2, 3) and self._has_fixed_stake(player, tableau):
            raise InvalidStakeError(
                f"banking mode: {player!r} has placed the fixed stake on T{tableau} already "
                "(one per punter)"
            )
        if self._mode == "banking" and tableau == 4 and not self._responsible:
            on_t4 = sum(s.amount for s in self._stakes if s.tableau == 4)
            if on_t4 + amount > self._bank:
                raise InvalidStakeError(
                    f"banking mode: stakes on T4 may total at most the bank ({self._bank}); "
                    f"{on_t4} already staked, got {amount}"
                )
        free = self._free(player)
        if amount > free:
            raise InvalidStakeError(f"{player!r} has {free} free chips, cannot stake {amount}")
        placed = Stake(player, tableau, amount)
        self._stakes.append(placed)
        self._actions.append(["stake", player, tableau, amount])
        return placed

    def reveal(self) -> list[Resolution]:
        """Ends staking and turns the tableaux up: T2, T3, T4 each against T1. With
        ``obliged`` (banking mode's default), refused while T2 or T3 lacks its fixed stake
        and some punter could still place it."""
        self._require("staking", "reveal")
        if self._obliged:
            for tableau in (2, 3):
                if any(s.tableau == tableau for s in self._stakes):
                    continue
                able = [p for p in self._players if self._can_place_fixed(p, tableau)]
                if able:
                    raise TableError(
                        f"reveal: T{tableau} needs its fixed stake of {self._fixed_stake} first "
                        f"(the punters are obliged to stake it; {', '.join(map(repr, able))} can)"
                    )
        self._phase = "revealed"
        self._revealed = True
        self._actions.append(["reveal"])
        return self._current_deal().results()

    def settle(self) -> list[Settlement]:
        """Settles every stake: T2, then T3, then T4, each tableau in placing order."""
        self._require("revealed", "settle")
        deal = self._current_deal()
        results = deal.results()
        limited = self._mode == "banking" and not self._responsible
        banker = self.banker
        broken = False
        settlements: list[Settlement] = []
        for stake in sorted(self._stakes, key=lambda s: s.tableau):  # stable: placing order
            outcome = results[stake.tableau - 2].outcome
            if broken:
                result: SettlementResult = "returned"
                paid = 0
            elif outcome == "en_carte":
                result, paid = "en_carte", 0
            elif outcome == "banker":
                result, paid = "lost", -stake.amount
                if limited:
                    self._bank += stake.amount
                else:
                    self._chips[banker] += stake.amount
            else:
                result = "won"
                if limited and stake.amount >= self._bank:
                    paid, self._bank, broken = self._bank, 0, True
                elif limited:
                    paid = stake.amount
                    self._bank -= stake.amount
                else:
                    paid = stake.amount
                    self._chips[banker] -= stake.amount
            self._chips[stake.player] += paid
            settlements.append(Settlement(stake.player, stake.tableau, stake.amount, result, paid))
        self._settlements = settlements
        self._deals_played += 1
        self._actions.append(["settle"])
        record = self._deal_record(deal, results, settlements, broken)
        passed = False
        if self.banker_run_outs >= 2:
            self._pass_bank()  # docs/rules.md: after the shoe has run out twice
            passed = True
        elif broken:
            self._phase = "broken"
        else:
            self._phase = "ready"
        record["bank_passed"] = passed
        record["ledger"] = self._ledger_entry()
        self._deal_records.append(record)
        self._ledger.append(self._ledger_entry())
        return list(settlements)

    def shuffle_rest(self, player: str, seed: int | None = None) -> int:
        """A punter's right after a deal: shuffles the undealt rest of the shoe (the discard
        pile stays aside). Returns the seed used (derived from the table seed if ``None``)."""
        self._require("ready", "shuffle_rest")
        self._check_player(player)
        if player == self.banker:
            raise TableError(f"{player!r} holds the bank: only a punter may shuffle")
        if self._deals_played == 0:
            raise TableError("shuffle_rest: the shoe may be shuffled only after a deal")
        if self._shuffled_since_deal:
            raise TableError("shuffle_rest: the shoe was already shuffled since the last deal")
        if seed is None:
            seed = _derived_seed(self._seed, self._deals_played)
        if not _whole(seed) or not 0 <= seed <= _MASK64:
            raise TableError(f"seed must be a whole number 0 to 2**64-1, got {seed!r}")
        self._shoe.shuffle_rest(seed)
        self._shuffled_since_deal = True
        self._actions.append(["shuffle_rest", player, seed])
        return seed

    def restake_bank(self, amount: int | None = None) -> int:
        """After the first break, the banker stakes a second bank (default: the original
        bank size) without gathering and reshuffling the cards; a punter may still shuffle
        the rest before the next deal. Returns the new bank."""
        self._require("broken", "restake_bank")
        if self._bank_number != 1:
            raise TableError(
                "restake_bank: the second bank is broken too; declare_responsible() or pass_bank()"
            )
        amount = self._bank_size if amount is None else amount
        banker = self.banker
        if not _whole(amount) or amount <= 0:
            raise InvalidStakeError(f"a bank is a positive whole number of chips, got {amount!r}")
        if amount > self._chips[banker]:
            raise InvalidStakeError(
                f"{banker!r} has {self._chips[banker]} chips, cannot stake a bank of {amount}"
            )
        self._fund_bank(banker, amount, strict=True)
        self._bank_number = 2
        self._phase = "ready"
        self._actions.append(["restake_bank", amount])
        return amount

    def declare_responsible(self) -> None:
        """After the second break, the banker keeps the bank with unlimited liability: wins
        are paid from the banker's own chips (which may go negative); T2/T3 keep the fixed
        stake and T4 has no limit."""
        self._require("broken", "declare_responsible")
        if self._bank_number != 2:
            raise TableError(
                "declare_responsible: only after the second bank is broken; restake_bank() first"
            )
        self._responsible = True
        self._phase = "ready"
        self._actions.append(["declare_responsible"])

    def pass_bank(self) -> str:
        """After a break, the banker gives up the bank to the next player in seat order.
        Returns the new banker."""
        self._require("broken", "pass_bank")
        self._pass_bank()
        self._actions.append(["pass_bank"])
        return self.banker

    # ------------------------------------------------------------- records
    def record(self) -> dict[str, Any]:
        """The session as a small versioned JSON-ready record: the configuration, every
        action in order and, per deal, the cards, stakes, settlements and ledger."""
        record: dict[str, Any] = json.loads(
            json.dumps(
                {
                    "format": RECORD_FORMAT,
                    "version": RECORD_VERSION,
                    "config": self._config,
                    "actions": self._actions,
                    "deals": self._deal_records,
                }
            )
        )
        return record

    def to_json(self) -> str:
        return json.dumps(self.record(), separators=(",", ":"))

    @classmethod
    def from_json(cls, text: str) -> Table:
        """Rebuilds a session from :meth:`to_json`, replaying every action and checking
        every deal. The record must be exactly what ``to_json`` writes: anything else
        (bad JSON, other types, unknown or altered fields) raises ``InvalidRecordError``."""
        if not isinstance(text, str):
            raise InvalidRecordError(f"a table record is JSON text, got {type(text).__name__}")
        try:
            data = json.loads(text)
        except (ValueError, RecursionError) as e:
            raise InvalidRecordError(f"not a JSON record: {e}") from None
        if not isinstance(data, dict):
            raise InvalidRecordError("a table record is a JSON object")
        version = data.get("version")
        if (
            data.get("format") != RECORD_FORMAT
            or type(version) is not int
            or version != RECORD_VERSION
        ):
            raise InvalidRecordError(
                f"expected format {RECORD_FORMAT!r} version {RECORD_VERSION}, "
                f"got {data.get('format')!r} version {version!r}"
            )
        config = data.get("config")
        actions = data.get("actions")
        if not isinstance(config, dict) or not isinstance(actions, list):
            raise InvalidRecordError("a record needs a 'config' object and an 'actions' list")
        try:
            table = cls(**config)
            for action in actions:
                table._apply(action)
            again = json.loads(table.to_json())
        except InvalidRecordError:
            raise
        except Exception as e:  # any failure to replay is a bad record
            raise InvalidRecordError(f"the record does not replay: {e}") from None
        if table._deal_records != data.get("deals"):
            raise InvalidRecordError("the replayed deals differ from the recorded ones")
        if again != data:
            raise InvalidRecordError("the record holds unknown or altered fields")
        return table

    @classmethod
    def replay(cls, record: str | Mapping[str, Any]) -> Table:
        """:meth:`from_json`, also taking the record as a mapping (:meth:`record`)."""
        if isinstance(record, Mapping):
            try:
                record = json.dumps(dict(record))
            except (TypeError, ValueError) as e:
                raise InvalidRecordError(f"not a JSON record: {e}") from None
        return cls.from_json(record)

    def __reduce__(self) -> tuple[Any, tuple[str]]:
        return (Table.from_json, (self.to_json(),))

    # ------------------------------------------------------------ internals
    def _apply(self, action: object) -> None:
        if not isinstance(action, list) or not action or not isinstance(action[0], str):
            raise InvalidRecordError(f"malformed action {action!r}")
        name, args = action[0], action[1:]
        methods: dict[str, Callable[..., object]] = {
            "deal": self.deal,
            "stake": self.stake,
            "reveal": self.reveal,
            "settle": self.settle,
            "shuffle_rest": self.shuffle_rest,
            "restake_bank": self.restake_bank,
            "declare_responsible": self.declare_responsible,
            "pass_bank": self.pass_bank,
        }
        if name not in methods:
            raise InvalidRecordError(f"unknown action {name!r}")
        methods[name](*args)

    def _require(self, phase: Phase, action: str) -> None:
        if self._phase == phase:
            return
        hints = {
            "ready": "deal() next",
            "staking": "stake() or reveal() next",
            "revealed": "settle() next",
            "broken": (
                "the bank is broken: restake_bank(), declare_responsible() or pass_bank() next"
            ),
            "over": "no player can hold the bank; the session is over",
        }
        raise TableError(f"{action}: not allowed in phase {self._phase!r} ({hints[self._phase]})")

    def _check_player(self, player: object) -> None:
        if not isinstance(player, str) or player not in self._players:
            raise TableError(f"unknown player {player!r}; players are {self._players!r}")

    def _free(self, player: str) -> int:
        return self._chips[player] - sum(s.amount for s in self._stakes if s.player == player)

    def _has_fixed_stake(self, player: str, tableau: int) -> bool:
        return any(s.player == player and s.tableau == tableau for s in self._stakes)

    def _can_place_fixed(self, player: str, tableau: int) -> bool:
        """Whether ``player`` could still place the fixed stake on ``tableau`` now."""
        return (
            player != self.banker
            and not self._has_fixed_stake(player, tableau)
            and self._free(player) >= self._fixed_stake
        )

    def _current_deal(self) -> Deal:
        if self._deal is None:  # unreachable through the phase machine
            raise TableError("no deal in play")
        return self._deal

    def _fund_bank(self, banker: str, amount: int, strict: bool) -> None:
        if amount > self._chips[banker]:
            if strict:
                raise InvalidRulesError(
                    f"{banker!r} has {self._chips[banker]} chips, cannot fund a bank of {amount}"
                )
            amount = self._chips[banker]
        self._chips[banker] -= amount
        self._bank += amount

    def _pass_bank(self) -> None:
        """The bank's chips go back to the old banker; the next player in seat order with
        chips takes the bank and funds it (the bank size, or all their chips if fewer)."""
        self._chips[self.banker] += self._bank
        self._bank = 0
        self._bank_number = 1
        self._responsible = False
        self._tenure_start_run_outs = self._shoe.run_outs
        n = len(self._players)
        for step in range(1, n + 1):
            seat = (self._banker + step) % n
            if self._mode == "open" or self._chips[self._players[seat]] > 0:
                self._banker = seat
                if self._mode == "banking":
                    self._fund_bank(self.banker, self._bank_size, strict=False)
                self._phase = "ready"
                return
        self._phase = "over"

    def _ledger_entry(self) -> dict[str, Any]:
        return {
            "deal": self._deals_played,
            "banker": self.banker,
            "bank": self._bank,
            "chips": dict(self._chips),
        }

    def _deal_record(
        self,
        deal: Deal,
        results: Sequence[Resolution],
        settlements: Sequence[Settlement],
        broken: bool,
    ) -> dict[str, Any]:
        return {
            "deal": self._deals_played,
            "banker": self.banker,
            "tableaux": [[str(c) for c in t] for t in deal.tableaux],
            "trump_card": str(deal.trump_card),
            "stakes": [asdict(s) for s in self._stakes],
            "results": [
                {
                    "tableau": t,
                    "banker_tricks": r.banker_tricks,
                    "punter_tricks": r.punter_tricks,
                    "outcome": r.outcome,
                }
                for t, r in zip(PUNTER_TABLEAUX, results, strict=False)
            ],
            "settlements": [asdict(s) for s in settlements],
            "bank_broken": broken,
            "run_outs": self._shoe.run_outs,
        }

    def __repr__(self) -> str:
        return (
            f"Table(players={self._players!r}, banker={self.banker!r}, mode={self._mode!r}, "
            f"bank={self._bank}, phase={self._phase!r}, deals_played={self._deals_played})"
        )
