"""Simulated banking sessions: a simple, seeded staking policy played on a :class:`Table`."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

from ecarte.bank import Table

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
    seed: int = 0,
    on_deal: Callable[[SessionDeal], None] | None = None,
) -> list[SessionDeal]:
    """Plays ``deals`` deals. Each punter stakes on one tableau, chosen at random
    (``random.Random(seed)``): the fixed stake on T2 or T3, or on T4 up to twice the fixed
    stake, capped by the bank in banking mode. After a first break the banker restakes the
    bank; after a second, the bank passes. Stops early when nobody can hold the bank."""
    rng = random.Random(seed)
    history: list[SessionDeal] = []
    for _ in range(deals):
        if table.phase == "over":
            break
        table.deal()
        for player in table.players:
            if player == table.banker or table.chips[player] <= 0:
                continue
            tableau = rng.choice((2, 3, 4))
            amount = table_stake(table, player, tableau, rng)
            if amount > 0:
                table.stake(player, tableau, amount)
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


def table_stake(table: Table, player: str, tableau: int, rng: random.Random) -> int:
    """The policy's stake: the fixed stake on T2/T3; on T4 up to twice it, within the bank
    (banking mode) and the player's free chips."""
    fixed = table.fixed_stake
    free = table.chips[player] - sum(s.amount for s in table.stakes if s.player == player)
    if tableau in (2, 3):
        return fixed if (free >= fixed or table.mode == "open") else 0
    amount = rng.randint(1, 2 * fixed)
    if table.mode == "banking" and not table.responsible:
        already = sum(s.amount for s in table.stakes if s.tableau == 4)
        amount = min(amount, table.bank - already)
    return max(0, min(amount, free))
