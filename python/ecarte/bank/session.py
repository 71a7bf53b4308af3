"""Simulated banking sessions: a simple, seeded staking policy played on a :class:`Table`."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ecarte._core import Stream
from ecarte.bank.ledger import PunterView
from ecarte.bank.table import Table
from ecarte.seeding import resolve_seed

__all__ = ["SessionDeal", "play_session"]


@dataclass(frozen=True)
class SessionDeal:
    """One deal of a session: who banked it, the outcomes of T2, T3 and T4 against T1
    (``"banker"``, ``"en_carte"``, ``"punter"``), the bank and every player's chips after
    it, and what happened to the bank (a break, a restake, a pass; "" for nothing)."""

    deal: int
    banker: str
    outcomes: tuple[str, ...]
    bank: int
    chips: dict[str, int]
    event: str


def play_session(
    table: Table,
    deals: int,
    seed: int | None = None,
    on_deal: Callable[[SessionDeal], None] | None = None,
) -> list[SessionDeal]:
    """Plays ``deals`` deals. The punters decide from :meth:`Table.punter_view` only (the
    trump card and the stakes; the tableaux are face down). When the table obliges fixed
    stakes on T2 and T3, they come first: the first punter in seat order after the banker
    who can afford a missing one places it. Then each punter, in seat order, stakes on one
    tableau chosen at random (the engine's ``Stream(seed)``; ``seed=None``: a fresh seed):
    the fixed stake on T2 or T3 (once each), or on T4 up to twice the fixed stake, within
    the bank in banking mode and always within the punter's free chips. After a first
    break the banker restakes the bank; after a second, the bank passes. Stops early when
    nobody can hold the bank."""
    rng = Stream(resolve_seed(seed))
    history: list[SessionDeal] = []
    for _ in range(deals):
        if table.phase == "over":
            break
        view = table.deal()
        banker = view.banker
        punters = _punters_in_seat_order(table.players, banker)
        if table.obliged:
            view = _place_obliged_stakes(table, view, punters)
        for player in punters:
            if view.free_chips(player) <= 0:
                continue
            tableau = rng.choice((2, 3, 4))
            amount = table_stake(view, player, tableau, rng)
            again = any(s.player == player and s.tableau == tableau for s in view.stakes)
            if amount > 0 and not (again and tableau in (2, 3)):
                table.stake(player, tableau, amount)
                view = table.punter_view()
        outcomes = tuple(r.outcome for r in table.reveal())
        table.settle()
        events = []
        if table.banker != banker:  # the shoe ran out twice: the bank passed
            events.append(f"shoe ran out twice; bank passes to {table.banker}")
        if table.phase == "broken":
            if table.bank_number == 1 and table.chips[table.banker] > 0:
                amount = table.restake_bank(min(table.chips[table.banker], table.bank_size))
                events.append(f"bank broken; {table.banker} restakes {amount}")
            else:
                events.append(f"bank broken; passes to {table.pass_bank()}")
        entry = SessionDeal(
            table.deals_played, banker, outcomes, table.bank, table.chips, "; ".join(events)
        )
        history.append(entry)
        if on_deal is not None:
            on_deal(entry)
    return history


def _punters_in_seat_order(players: list[str], banker: str) -> list[str]:
    i = players.index(banker)
    return players[i + 1 :] + players[:i]


def _place_obliged_stakes(table: Table, view: PunterView, punters: list[str]) -> PunterView:
    """The seed obliges the first and second punters to stake on T2 and T3: the first in
    seat order who can afford a missing fixed stake places it."""
    while (missing := view.missing_fixed_stake(punters)) is not None:
        tableau, able = missing
        table.stake(able[0], tableau, view.fixed_stake)
        view = table.punter_view()
    return view


def table_stake(view: PunterView, player: str, tableau: int, rng: Stream) -> int:
    """The policy's stake from what a punter may see: the fixed stake on T2/T3 (in open
    mode, any sum: the fixed stake or the free chips if fewer); on T4 up to twice the fixed
    stake, within the bank (banking mode) and the player's free chips. 0: no stake."""
    fixed = view.fixed_stake
    free = view.free_chips(player)
    if tableau in (2, 3):
        if view.mode == "open":
            return max(0, min(fixed, free))
        return fixed if free >= fixed else 0
    amount = 1 + rng.below(min(2 * fixed, 2**32 - 1))
    if view.mode == "banking" and not view.responsible:
        already = sum(s.amount for s in view.stakes if s.tableau == 4)
        amount = min(amount, view.bank - already)
    return max(0, min(amount, free))
