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
    """One deal of a session: who banked, the bank and every player's chips after it."""

    deal: int
    banker: str
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
    trump card and the stakes; the tableaux are face down). Each punter, in seat order
    after the banker, stakes on one tableau chosen at random (the engine's ``Stream(seed)``;
    ``seed=None``: a fresh seed): the
    fixed stake on T2 or T3, or on T4 up to twice the fixed stake, within the bank in
    banking mode and always within the punter's free chips. When the table obliges fixed
    stakes on T2 and T3 and one is missing, the first punter in seat order who can afford
    it places it. After a first break the banker restakes the bank; after a second, the
    bank passes. Stops early when nobody can hold the bank."""
    rng = Stream(resolve_seed(seed))
    history: list[SessionDeal] = []
    for _ in range(deals):
        if table.phase == "over":
            break
        view = table.deal()
        punters = _punters_in_seat_order(table.players, view.banker)
        for player in punters:
            if view.free_chips(player) <= 0:
                continue
            tableau = rng.choice((2, 3, 4))
            amount = table_stake(view, player, tableau, rng)
            if amount > 0:
                table.stake(player, tableau, amount)
                view = table.punter_view()
        if table.obliged:
            view = _place_obliged_stakes(table, view, punters)
        table.reveal()
        table.settle()
        event = ""
        if table.phase == "broken":
            if table.bank_number == 1 and table.chips[table.banker] > 0:
                amount = table.restake_bank(min(table.chips[table.banker], table.bank_size))
                event = f"bank broken; {table.banker} restakes {amount}"
            else:
                event = f"bank broken; passes to {table.pass_bank()}"
        entry = SessionDeal(table.deals_played, table.banker, table.bank, table.chips, event)
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
    for tableau in (2, 3):
        if any(s.tableau == tableau for s in view.stakes):
            continue
        for player in punters:
            placed = any(s.player == player and s.tableau == tableau for s in view.stakes)
            if not placed and view.free_chips(player) >= view.fixed_stake:
                table.stake(player, tableau, view.fixed_stake)
                view = table.punter_view()
                break
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
