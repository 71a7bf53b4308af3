"""The banking table (:class:`Table`): the game flow, the chips and the records in Python,
over the native shoe and resolution.

:data:`ACTION_RULES` is the phase machine: which phase takes each action and who takes it.
Each action checks its own conditions besides (the stake limits, the obligation, the bank
number), and :meth:`Table.legal_actions` lists exactly what those checks accept, with the
bounds of each amount. During staking the tableaux are face down: punters see
:meth:`Table.punter_view` (the trump card and the stakes), which :meth:`Table.deal` returns.
The table's one history is its list of actions: its record, :meth:`Table.undo` and
:func:`session_steps` replay it.
"""

from __future__ import annotations

import copy
import functools
import inspect
import json
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, Final, Literal, NamedTuple, get_args

from ecarte._core import Card, check_seed, punter_shuffle_seed
from ecarte._core.bank import Deal, Resolution, Shoe
from ecarte._public import api_dir
from ecarte.bank.ledger import (
    PUNTER_TABLEAUX,
    Bounds,
    LegalAction,
    Mode,
    Phase,
    PunterView,
    Settlement,
    SettlementResult,
    Stake,
    check_replay,
    deal_record,
    listed,
    read_session,
    session_record,
    table_config,
    whole_number,
)
from ecarte.errors import (
    EcarteError,
    InvalidRecordError,
    InvalidRulesError,
    InvalidStakeError,
    TableError,
)
from ecarte.seeding import MAX_SEED, fresh_seed

__all__ = ["ACTIONS", "ACTION_RULES", "ActionRule", "Step", "Table", "session_steps"]
__dir__ = api_dir(globals())


class ActionRule(NamedTuple):
    """When an action is taken: in ``phase``, by the banker or by the punter it names."""

    phase: Phase
    by: Literal["banker", "punter"]


#: The phase machine: for each action, as a record names it (:meth:`Table.apply`), the phase
#: that takes it and who takes it. A deal opens staking, the reveal ends it; a settlement
#: goes back to "ready", or to "broken" when the bank broke; a restake, a responsible bank
#: or a pass (which may leave no banker: "over") ends a break (docs/bank.md).
ACTION_RULES: Final[Mapping[str, ActionRule]] = MappingProxyType(
    {
        "deal": ActionRule("ready", "banker"),
        "stake": ActionRule("staking", "punter"),
        "reveal": ActionRule("staking", "banker"),
        "settle": ActionRule("revealed", "banker"),
        "shuffle_rest": ActionRule("ready", "punter"),
        "restake_bank": ActionRule("broken", "banker"),
        "declare_responsible": ActionRule("broken", "banker"),
        "pass_bank": ActionRule("broken", "banker"),
    }
)
#: The table's actions, as a record names them.
ACTIONS: Final = tuple(ACTION_RULES)


@dataclass(frozen=True)
class Step:
    """One step of a session: the ``action`` taken (``None``: the table as it opened) and the
    punters' ``view`` after it."""

    action: list[Any] | None
    view: PunterView


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
        # This deal's stakes summed by player (their committed chips) and by tableau.
        self._committed: dict[str, int] = {}
        self._on_tableau: dict[int, int] = {}
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
    def legal_actions(self, player: str | None = None) -> list[LegalAction]:
        """Every action ``player`` may take now (``None``: every player's, in seat order),
        each with the bounds of its last argument: a stake names its tableau and the
        amounts from the least to the most the table takes there; a restake, the bank
        from 1 to the banker's chips. The action methods accept exactly these."""
        if player is not None:
            self._check_player(player)
        banker, found = self.banker, []
        for name, rule in ACTION_RULES.items():
            if rule.phase == self._phase:
                for who in self._players if player is None else [player]:
                    if (who == banker) == (rule.by == "banker"):
                        found += self._legal(name, who)
        return found

    def deal(self) -> PunterView:
        """Deals the next hand face down and turns up the trump card; staking opens.
        Returns the punters' view (the tableaux stay hidden until :meth:`reveal`)."""
        self._require("deal")
        deal = self._shoe.deal()
        self._deal = deal
        self._stakes = []
        self._committed, self._on_tableau = {}, {}
        self._settlements = []
        self._shuffled_since_deal = False
        self._revealed = False
        self._phase = "staking"
        self._actions.append(["deal"])
        return self.punter_view()

    def stake(self, player: str, tableau: int, amount: int) -> Stake:
        """Places ``amount`` chips of ``player`` on tableau 2, 3 or 4, within the bounds
        that :meth:`legal_actions` shows. With ``obliged``, T4 takes stakes only once T2
        and T3 each carry a fixed stake, or no punter can afford one now."""
        self._require("stake")
        self._check_player(player)
        if player == self.banker:
            raise TableError(f"{player} holds the bank and cannot stake")
        if not whole_number(tableau) or tableau not in (1, *PUNTER_TABLEAUX):
            raise InvalidStakeError(f"tableau must be 2, 3 or 4, got {tableau!r}")
        if tableau == 1:
            raise InvalidStakeError("T1 is the banker's tableau: stake on 2, 3 or 4")
        if not whole_number(amount):
            raise InvalidStakeError(f"a stake is a whole number of chips, got {amount!r}")
        if amount <= 0:
            raise InvalidStakeError(f"a stake must be positive, got {amount}")
        low, high, refusal = self._stake_limits(player, tableau)
        if not low <= amount <= high:
            raise InvalidStakeError(refusal(amount))
        placed = Stake(player, tableau, amount)
        self._stakes.append(placed)
        self._committed[player] = self._committed.get(player, 0) + amount
        self._on_tableau[tableau] = self._on_tableau.get(tableau, 0) + amount
        self._actions.append(["stake", player, tableau, amount])
        return placed

    def reveal(self) -> list[Resolution]:
        """Ends staking and turns the tableaux up: T2, T3, T4 each against T1. With
        ``obliged`` (banking mode's default), refused while T2 or T3 lacks its fixed stake
        and some punter could still place it (as a stake on T4 is)."""
        self._check_reveal()
        self._phase = "revealed"
        self._revealed = True
        self._actions.append(["reveal"])
        return self._current_deal().results()

    def settle(self) -> list[Settlement]:
        """Settles every stake: T2, then T3, then T4, each tableau in placing order."""
        self._require("settle")
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
        self._check_shuffle(player)
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
        high = self._restake_limit()
        amount = self._bank_size if amount is None else amount
        if not whole_number(amount) or amount <= 0:
            raise InvalidStakeError(f"a bank is a positive whole number of chips, got {amount!r}")
        if amount > high:
            raise InvalidStakeError(
                f"{self.banker} has {high} chips, cannot stake a bank of {amount}"
            )
        self._fund_bank(self.banker, amount, strict=True)
        self._bank_number = 2
        self._phase = "ready"
        self._actions.append(["restake_bank", amount])
        return amount

    def declare_responsible(self) -> None:
        """After the second break, the banker keeps the bank with unlimited liability: wins
        are paid from the banker's own chips (which may go negative); T2/T3 keep the fixed
        stake and T4 has no limit."""
        self._check_responsible()
        self._responsible = True
        self._phase = "ready"
        self._actions.append(["declare_responsible"])

    def pass_bank(self) -> str:
        """After a break, the banker gives up the bank to the next player in seat order.
        Returns the new banker."""
        self._require("pass_bank")
        self._pass_bank()
        self._actions.append(["pass_bank"])
        return self.banker

    def apply(self, action: object) -> object:
        """Takes one action in the record's form, e.g. ``["stake", "bob", 2, 10]``: a method
        name above and its arguments. ``TableError`` for one that names none."""
        name, arguments = _parts(action)
        try:
            _signature(name).bind(self, *arguments)
        except TypeError as e:
            raise TableError(f"{name}: {e}") from None
        method: Callable[..., object] = getattr(self, name)
        return method(*arguments)

    def player_of(self, action: object) -> str:
        """Who takes ``action`` (the record's form): the banker for the banker's actions,
        the punter it names for a stake or a shuffle. ``TableError`` for no action."""
        name, arguments = _parts(action)
        if ACTION_RULES[name].by == "banker":
            return self.banker
        who = arguments[0] if arguments else None
        self._check_player(who)
        return str(who)

    def undo(self) -> list[Any]:
        """Takes back the last action: the table becomes its history replayed without it.
        Returns that action in the record's form; ``TableError`` when there is none."""
        if not self._actions:
            raise TableError("nothing to undo: no action taken yet")
        last = self._actions[-1]
        self.__dict__.update(vars(_replayed(type(self), self._config, self._actions[:-1])))
        return copy.deepcopy(last)

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
        return _loaded(cls, text, None)

    def __reduce__(self) -> tuple[Any, tuple[str]]:
        return (Table.from_json, (self.to_json(),))

    # ------------------------------------------------------------ internals
    def _legal(self, name: str, player: str) -> list[LegalAction]:
        """``name`` as ``player`` may take it now (phase and seat checked): none, one, or a
        stake per open tableau."""
        try:
            if name == "stake":
                return [s for t in PUNTER_TABLEAUX if (s := self._legal_stake(player, t))]
            if name == "shuffle_rest":
                self._check_shuffle(player)
                seed = Bounds("seed", 0, MAX_SEED, optional=True)
                return [LegalAction(name, player, (name, player), bounds=seed)]
            if name == "restake_bank":
                high = self._restake_limit()
                fits = self._bank_size <= high
                amount = Bounds("amount", 1, high, fits, self._bank_size if fits else None)
                return [LegalAction(name, player, (name,), bounds=amount)]
            if name == "reveal":
                self._check_reveal()
            elif name == "declare_responsible":
                self._check_responsible()
        except EcarteError:
            return []
        return [LegalAction(name, player, (name,))]

    def _legal_stake(self, player: str, tableau: int) -> LegalAction | None:
        """A stake on ``tableau`` as punter ``player`` may place it now, if any."""
        low, high, _ = self._stake_limits(player, tableau)
        if low > high:
            return None
        return LegalAction(
            "stake",
            player,
            ("stake", player, tableau),
            tableau=tableau,
            bounds=Bounds("amount", low, high),
            obliged=self._obliged and tableau in (2, 3) and not self._staked(tableau),
        )

    def _stake_limits(self, player: str, tableau: int) -> tuple[int, int, Callable[[int], str]]:
        """The stake limits, defined once: the least and the most punter ``player`` may
        stake on tableau 2, 3 or 4 now (the least above the most: no stake there), and why
        an amount outside them is refused (written only when a refusal is raised)."""
        free, fixed, bank = self._free(player), self._fixed_stake, self._bank
        fixed_only = self._mode == "banking" and tableau != 4
        again = fixed_only and any(
            s.player == player and s.tableau == tableau for s in self._stakes
        )
        awaited = self._awaited_tableau() if tableau == 4 and self._obliged else None
        limited = tableau == 4 and self._mode == "banking" and not self._responsible
        on_t4 = self._on_tableau.get(4, 0)
        by_bank = limited and bank - on_t4 < free  # the bank, not the chips, sets the most

        def refusal(amount: int) -> str:
            if again:
                return (
                    f"banking mode: {player} has placed the fixed stake on T{tableau} already "
                    "(one per punter)"
                )
            if fixed_only and free >= fixed:
                return (
                    f"banking mode: the stake on T{tableau} is the fixed stake {fixed}, "
                    f"got {amount}"
                )
            if awaited:
                return f"banking mode: T4 takes stakes once {self._awaiting(awaited)}"
            if by_bank:
                return (
                    f"banking mode: stakes on T4 may total at most the bank ({bank}); "
                    f"{on_t4} already staked, got {amount}"
                )
            return f"{player} has {free} free chips, cannot stake {amount}"

        if again or awaited or (fixed_only and free < fixed):
            return 1, 0, refusal
        if fixed_only:
            return fixed, fixed, refusal
        return 1, bank - on_t4 if by_bank else free, refusal

    def _check_reveal(self) -> None:
        self._require("reveal")
        if self._obliged and (awaited := self._awaited_tableau()):
            raise TableError(f"reveal: only once {self._awaiting(awaited)}")

    def _check_shuffle(self, player: str) -> None:
        self._require("shuffle_rest")
        self._check_player(player)
        if player == self.banker:
            raise TableError(f"{player} holds the bank: only a punter may shuffle")
        if self._deals_played == 0:
            raise TableError("shuffle_rest: the shoe may be shuffled only after a deal")
        if self._shuffled_since_deal:
            raise TableError("shuffle_rest: the shoe was already shuffled since the last deal")

    def _restake_limit(self) -> int:
        """The largest bank the banker may restake (the smallest is 1)."""
        self._require("restake_bank")
        if self._bank_number != 1:
            raise TableError(
                "restake_bank: the second bank is broken too; declare_responsible() or pass_bank()"
            )
        chips = self._chips[self.banker]
        if chips < 1:
            raise InvalidStakeError(f"{self.banker} has {chips} chips, cannot stake a bank")
        return chips

    def _check_responsible(self) -> None:
        self._require("declare_responsible")
        if self._bank_number != 2:
            raise TableError(
                "declare_responsible: only after the second bank is broken; restake_bank() first"
            )

    def _require(self, action: str) -> None:
        """Refuses ``action`` outside its phase, naming what the table takes now."""
        if ACTION_RULES[action].phase == self._phase:
            return
        names = list(dict.fromkeys(a.name for a in self.legal_actions()))
        hint = f"{listed(names, 'or')} next" if names else "no player can hold the bank"
        raise TableError(f"{action}: not allowed in phase {self._phase} ({hint})")

    def _check_player(self, player: object) -> None:
        if not isinstance(player, str) or player not in self._players:
            raise TableError(
                f"unknown player {_shown(player)}; the players are {listed(self._players)}"
            )

    def _punters(self) -> list[str]:
        return [p for p in self._players if p != self.banker]

    def _free(self, player: str) -> int:
        return self._chips[player] - self._committed.get(player, 0)

    def _staked(self, tableau: int) -> bool:
        return tableau in self._on_tableau

    def _awaited_tableau(self) -> int | None:
        """The obligation (docs/rules.md, "Stake limits"): the first of T2 and T3 that
        lacks its fixed stake while some punter may place one; T4 and the reveal wait."""
        for tableau in (2, 3):
            if not self._staked(tableau) and any(self._able(tableau)):
                return tableau
        return None

    def _awaiting(self, tableau: int) -> str:
        able = listed(list(self._able(tableau)), "or")
        return (
            f"T2 and T3 carry their fixed stake: T{tableau} needs its fixed stake of "
            f"{self._fixed_stake} first ({able} can place it)"
        )

    def _able(self, tableau: int) -> Iterator[str]:
        """The punters who may stake on ``tableau`` now."""
        for punter in self._punters():
            low, high, _ = self._stake_limits(punter, tableau)
            if low <= high:
                yield punter

    def _current_deal(self) -> Deal:
        if self._deal is None:  # unreachable through the phase machine
            raise TableError("no deal in play")
        return self._deal

    def _fund_bank(self, banker: str, amount: int, strict: bool) -> None:
        if amount > self._chips[banker]:
            if strict:
                raise InvalidRulesError(
                    f"{banker} has {self._chips[banker]} chips, cannot fund a bank of {amount}"
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


#: The modes a table plays (``"open"``: any player may bank).
MODES: Final[tuple[str, ...]] = get_args(Mode)

#: What a table is opened with when a setting is not given: ``Table``'s own defaults, read
#: from its signature so that the protocol and the page show the same.
TABLE_DEFAULTS: Final[Mapping[str, object]] = MappingProxyType(
    {
        name: parameter.default
        for name, parameter in inspect.signature(Table).parameters.items()
        if name in ("banker", "bank", "mode", "fixed_stake", "chips")
    }
)


def session_steps(text: str) -> tuple[Table, list[Step]]:
    """A session record replayed once, as :meth:`Table.from_json` replays and checks it:
    the table it ends at, and every step (the table as it opened, then each action) as
    the punters saw it, the tableaux shown once revealed."""
    steps: list[Step] = []
    table = _loaded(Table, text, lambda action, t: steps.append(Step(action, t.punter_view())))
    return table, steps


@functools.cache
def _signature(name: str) -> inspect.Signature:
    """The signature of the table's action ``name``, which its arguments must fit."""
    return inspect.signature(getattr(Table, name))


def _parts(action: object) -> tuple[str, list[Any]]:
    """The name and the arguments of an action in the record's form."""
    if not isinstance(action, list) or not action or action[0] not in ACTION_RULES:
        raise TableError(
            f"an action is [name, *arguments], its name one of {', '.join(ACTIONS)}; "
            f"got {_shown(action)}"
        )
    return str(action[0]), action[1:]


def _replayed(
    cls: type[Table],
    config: Mapping[str, Any],
    actions: Sequence[Any],
    each: Callable[[list[Any] | None, Table], None] | None = None,
) -> Table:
    """The one replay of a history: a table of ``config`` after ``actions``, ``each``
    called with the table as it opened and after every action."""
    table = cls(**config)
    if each is not None:
        each(None, table)
    for action in actions:
        table.apply(action)
        if each is not None:
            each(action, table)
    return table


def _loaded(
    cls: type[Table], text: str, each: Callable[[list[Any] | None, Table], None] | None
) -> Table:
    """The table a session record holds, replayed and checked against the record."""
    record = read_session(text)
    try:
        table = _replayed(cls, record["config"], record["actions"], each)
    except InvalidRecordError:
        raise
    except Exception as e:  # any failure to replay is a bad record
        raise InvalidRecordError(f"the record does not replay: {e}") from None
    check_replay(record, json.loads(table.to_json()))
    return table


def _shown(value: object) -> str:
    """A value from the caller in a refusal: as JSON writes it, cut short."""
    try:
        text = json.dumps(value)
    except (TypeError, ValueError, RecursionError):
        text = type(value).__name__
    return text if len(text) <= 60 else text[:57] + "..."
