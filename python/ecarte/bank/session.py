"""Simulated banking sessions: a simple, seeded staking policy played on a :class:`Table`."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ecarte._core import Stream
from ecarte._public import api_dir
from ecarte.bank.ledger import PunterView
from ecarte.bank.table import Table
from ecarte.seeding import resolve_seed

__all__ = ["SessionDeal", "play_session"]
__dir__ = api_dir(globals())


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
    """Plays ``deals`` deals. The punters decide from what they may know: the punters'
    view (the trump card and the stakes; the tableaux are face down) and the table's
    :meth:`~Table.legal_actions` with their bounds. When the table waits for fixed stakes
    on T2 and T3, they come first: the first punter in seat order after the banker who may
    place a missing one does. Then each punter with free chips, in seat order, picks one
    tableau at random (the engine's ``Stream(seed)``; ``seed=None``: a fresh seed) and
    stakes there, if the table takes a stake from them: the fixed stake on T2 or T3 (or the
    most allowed if that is less), on T4 a random amount up to twice the fixed stake (or
    the most allowed). After a first break the banker restakes the bank; after a second,
    the bank passes. Stops early when nobody can hold the bank."""
    rng = Stream(resolve_seed(seed))
    history: list[SessionDeal] = []
    for _ in range(deals):
        if table.phase == "over":
            break
        view = table.deal()
        banker = view.banker
        punters = _punters_in_seat_order(table.players, banker)
        view = _place_obliged_stakes(table, view, punters)
        for player in punters:
            if view.free_chips(player) <= 0:
                continue
            tableau = rng.choice((2, 3, 4))
            wanted = view.fixed_stake
            if tableau == 4:
                wanted = 1 + rng.below(min(2 * wanted, 2**32 - 1))
            for legal in table.legal_actions(player):
                if legal.tableau == tableau and legal.bounds is not None:
                    amount = min(wanted, legal.bounds.max)
                    if amount >= legal.bounds.min:
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
    """The seed obliges the first and second punters to stake on T2 and T3: while the table
    waits for such a stake (the banker may not reveal yet), the first punter in seat order
    who may place one places it, on T2 if T2 waits too (a punter who may stake the one may
    stake the other)."""
    while not any(a.name == "reveal" for a in table.legal_actions(table.banker)):
        first = next(a for p in punters for a in table.legal_actions(p) if a.obliged)
        table.apply([*first.action, table.fixed_stake])
        view = table.punter_view()
    return view
