"""The banking table (:class:`Table`): the game flow, the chips and the records in Python,
over the native shoe and resolution.

Phase machine of a :class:`Table`::

    "ready" --deal()--> "staking" --reveal()--> "revealed" --settle()--> "ready"
                                                                 \\--> "broken" (bank broken)
    "broken" --restake_bank()--> "ready"        (first break of this banker only)
    "broken" --declare_responsible()--> "ready" (second break only)
    "broken" --pass_bank()--> "ready"
    "over": no player can hold the bank; nothing more is legal.

Between deals ("ready") a punter may ``shuffle_rest`` once, also after a restake
(docs/rules.md, "The shoe across deals": the restake only spares the banker a reshuffle).

During staking the tableaux are face down: punters see :meth:`Table.punter_view` (the trump
card and the stakes), which :meth:`Table.deal` returns.
"""

from __future__ import annotations

import copy
import inspect
import json
from collections.abc import Callable, Mapping, Sequence
from types import MappingProxyType
from typing import Any

from ecarte._core import Card, check_seed, punter_shuffle_seed
from ecarte._core.bank import Deal, Resolution, Shoe
from ecarte.bank.ledger import (
    PUNTER_TABLEAUX,
    Mode,
    Phase,
    PunterView,
    Settlement,
    SettlementResult,
    Stake,
    check_replay,
    deal_record,
    read_session,
    session_record,
    session_text,
    table_config,
    whole_number,
)
from ecarte.errors import InvalidRecordError, InvalidRulesError, InvalidStakeError, TableError
from ecarte.seeding import fresh_seed

__all__ = ["ACTIONS", "Table"]

#: The table's actions, as a record names them (:meth:`Table.apply`).
ACTIONS = (
    "deal", "stake", "reveal", "settle", "shuffle_rest", "restake_bank",
    "declare_responsible", "pass_bank",
)  # fmt: skip


class Table:
    """A banking-écarté table: players in seat order, one banker, the shoe and the chips.

    Every player starts with ``chips`` (one number for all, or a mapping name -> chips).
    In ``"banking"`` mode the banker moves ``bank`` chips from their own into the bank;
    stakes on T2 and T3 must be exactly ``fixed_stake`` and the stakes on T4 may total up to
    the bank. In ``"open"`` mode there is no bank: punters stake any positive whole amount on
    T2-T4 and the banker pays from their own chips without limit (chips may go negative).
    The shoe is shuffled with ``seed`` (``None``: a fresh seed, kept in ``.seed``), or given
    exactly as ``shoe`` (104 cards, top first); the seed also drives the shoe's run-out
    reshuffles and the punters' shuffles that name no seed (docs/api.md, "Seeds").
    Chips are conserved: the sum of all players' chips plus the bank never changes.
    """

    def __init__(
        self,
        players: Sequence[str],
        banker: int = 0,
        bank: int = 100,
        mode: Mode = "banking",
        fixed_stake: int = 10,
        seed: int | None = None,
        chips: int | Mapping[str, int] = 1000,
        shoe: Sequence[Card | str] | None = None,
        obliged: bool | None = None,
    ) -> None:
        if seed is None:
            seed = fresh_seed()
        config = table_config(players, banker, bank, mode, fixed_stake, seed, chips, obliged)
        self._players: list[str] = config["players"]
        self._mode: Mode = mode
        self._bank_size = bank
        self._fixed_stake = fixed_stake
        self._seed = seed
        self._obliged: bool = config["obliged"]
        self._config = config
        self._chips: dict[str, int] = {p: int(c) for p, c in config["chips"].items()}
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
    def seed(self) -> int:
        """The table's seed: the shoe's shuffle and every later shuffle derive from it."""
        return self._seed

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
        """Places ``amount`` chips of ``player`` on tableau 2, 3 or 4. With ``obliged``, T4
        takes stakes only once T2 and T3 each carry a fixed stake, or no punter can afford
        one now."""
        self._require("staking", "stake")
        self._check_player(player)
        if player == self.banker:
            raise TableError(f"{player!r} holds the bank and cannot stake")
        if not whole_number(tableau) or tableau not in (1, *PUNTER_TABLEAUX):
            raise InvalidStakeError(f"tableau must be 2, 3 or 4, got {tableau!r}")
        if tableau == 1:
            raise InvalidStakeError("T1 is the banker's tableau: stake on 2, 3 or 4")
        if not whole_number(amount):
            raise InvalidStakeError(f"a stake is a whole number of chips, got {amount!r}")
        if amount <= 0:
            raise InvalidStakeError(f"a stake must be positive, got {amount}")
        if self._mode == "banking" and tableau in (2, 3) and amount != self._fixed_stake:
            raise InvalidStakeError(
                f"banking mode: the stake on T{tableau} is the fixed stake "
                f"{self._fixed_stake}, got {amount}"
            )
        again = any(s.player == player and s.tableau == tableau for s in self._stakes)
        if self._mode == "banking" and tableau in (2, 3) and again:
            raise InvalidStakeError(
                f"banking mode: {player!r} has placed the fixed stake on T{tableau} already "
                "(one per punter)"
            )
        if tableau == 4 and self._obliged and (waiting := self._unmet_obligation()):
            raise InvalidStakeError(f"banking mode: T4 takes stakes once {waiting}")
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
        and some punter could still place it (as a stake on T4 is)."""
        self._require("staking", "reveal")
        if self._obliged and (waiting := self._unmet_obligation()):
            raise TableError(f"reveal: only once {waiting}")
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
        record = deal_record(
            self._deals_played,
            self.banker,
            deal,
            results,
            self._stakes,
            settlements,
            broken,
            self._shoe.run_outs,
        )
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
        pile stays aside). Returns the seed used: with ``None``, the table's own punter-shuffle
        stream (``punter_shuffle_seed(table seed, deals played)``), so a session replays
        from the table's seed."""
        self._require("ready", "shuffle_rest")
        self._check_player(player)
        if player == self.banker:
            raise TableError(f"{player!r} holds the bank: only a punter may shuffle")
        if self._deals_played == 0:
            raise TableError("shuffle_rest: the shoe may be shuffled only after a deal")
        if self._shuffled_since_deal:
            raise TableError("shuffle_rest: the shoe was already shuffled since the last deal")
        if seed is None:
            seed = punter_shuffle_seed(self._seed, self._deals_played)
        seed = check_seed(seed)
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
        if not whole_number(amount) or amount <= 0:
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
    def to_json(self) -> str:
        """The session as a small versioned JSON record: the configuration, every action
        in order and, per deal, the cards, stakes, settlements and ledger."""
        return session_record(self._config, self._actions, self._deal_records)

    @classmethod
    def from_json(cls, text: str) -> Table:
        """Rebuilds a session from :meth:`to_json`, replaying every action and checking
        every deal. The record must be exactly what ``to_json`` writes: anything else
        (bad JSON, other types, unknown or altered fields) raises ``InvalidRecordError``."""
        record = read_session(text)
        try:
            table = cls(**record["config"])
            for action in record["actions"]:
                table.apply(action)
        except InvalidRecordError:
            raise
        except Exception as e:  # any failure to replay is a bad record
            raise InvalidRecordError(f"the record does not replay: {e}") from None
        check_replay(record, json.loads(table.to_json()))
        return table

    def record(self) -> dict[str, Any]:
        """The record of :meth:`to_json` as a dict (an alias kept for earlier code)."""
        record: dict[str, Any] = json.loads(self.to_json())
        return record

    @classmethod
    def replay(cls, record: str | Mapping[str, Any]) -> Table:
        """:meth:`from_json` (an alias kept for earlier code), also taking the record as a
        mapping (:meth:`record`)."""
        return cls.from_json(record if isinstance(record, str) else session_text(record))

    def __reduce__(self) -> tuple[Any, tuple[str]]:
        return (Table.from_json, (self.to_json(),))

    def apply(self, action: object) -> object:
        """Takes one action in the record's form, e.g. ``["stake", "bob", 2, 10]``: a method
        name above and its arguments. ``TableError`` for one that names none."""
        if not isinstance(action, list) or not action or action[0] not in ACTIONS:
            raise TableError(f"an action is [name, *arguments], name one of {ACTIONS}: {action!r}")
        method: Callable[..., object] = getattr(self, action[0])
        try:
            inspect.signature(method).bind(*action[1:])
        except TypeError as e:
            raise TableError(f"{action[0]}: {e}") from None
        return method(*action[1:])

    # ------------------------------------------------------------ internals
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

    def _unmet_obligation(self) -> str:
        """Why staking must go on ("" if it need not): :meth:`PunterView.missing_fixed_stake`."""
        missing = self.punter_view().missing_fixed_stake(self._players)
        if missing is None:
            return ""
        tableau, able = missing
        return (
            f"T2 and T3 carry their fixed stake: T{tableau} needs its fixed stake of "
            f"{self._fixed_stake} first ({', '.join(map(repr, able))} can place it)"
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

    def __repr__(self) -> str:
        return (
            f"Table(players={self._players!r}, banker={self.banker!r}, mode={self._mode!r}, "
            f"bank={self._bank}, phase={self._phase!r}, deals_played={self._deals_played})"
        )
