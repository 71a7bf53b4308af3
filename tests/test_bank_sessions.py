"""Property tests over many seeded random sessions: chips and cards are conserved, illegal
actions change nothing, and a replayed record gives the same ledger."""

from __future__ import annotations

import random
from typing import Any, Callable

from hypothesis import given, settings
from hypothesis import strategies as st

from ecarte import EcarteError, bank

PLAYERS = ["ann", "bob", "cy", "dee"]


def snapshot(t: bank.Table) -> tuple[Any, ...]:
    return (t.phase, t.chips, t.bank, t.stakes, t.banker, t.remaining, len(t.discards), t.ledger)


def try_illegal(t: bank.Table, rng: random.Random) -> None:
    """An action that is illegal now must raise an EcarteError and leave the table as it was."""
    before = snapshot(t)
    bad_amount: Any = rng.choice([0, -1, 1.5])
    attempts: list[Callable[[], object]] = [
        lambda: t.stake("nobody", 2, 10),
        lambda: t.stake(rng.choice(PLAYERS), 1, 10),
        lambda: t.stake(rng.choice(PLAYERS), 4, bad_amount),
    ]
    if t.phase != "ready":
        attempts.append(t.deal)
    if t.phase != "staking":
        attempts.append(t.reveal)
    if t.phase != "revealed":
        attempts.append(t.settle)
    if t.phase != "broken":
        attempts += [t.pass_bank, t.restake_bank, t.declare_responsible]
    action = rng.choice(attempts)
    try:
        action()
    except EcarteError:
        pass
    else:
        raise AssertionError("an illegal action was accepted")
    assert snapshot(t) == before


def play(seed: int, mode: bank.Mode, deals: int) -> bank.Table:
    rng = random.Random(seed)
    t = bank.Table(PLAYERS, banker=seed % 4, bank=30, fixed_stake=10, seed=seed, mode=mode, chips=120)
    total = t.total_chips
    while t.deals_played < deals and t.phase != "over":
        try_illegal(t, rng)
        if t.phase == "ready":
            if t.deals_played and rng.random() < 0.3:
                punters = [p for p in PLAYERS if p != t.banker]
                try:
                    t.shuffle_rest(rng.choice(punters))
                except EcarteError:
                    pass  # e.g. right after a restake
            t.deal()
        elif t.phase == "staking":
            for _ in range(rng.randint(0, 5)):
                player = rng.choice(PLAYERS)
                tableau = rng.choice([2, 3, 4])
                amount = 10 if mode == "banking" and tableau != 4 else rng.randint(1, 40)
                try:
                    t.stake(player, tableau, amount)
                except EcarteError:
                    pass  # over a limit, the banker, too few chips: refused, nothing changed
            t.reveal()
        elif t.phase == "revealed":
            t.settle()
        elif t.phase == "broken":
            choice = rng.random()
            if t.bank_number == 1 and choice < 0.6 and t.chips[t.banker] > 0:
                t.restake_bank(min(30, t.chips[t.banker]))
            elif t.bank_number == 2 and choice < 0.3:
                t.declare_responsible()
            else:
                t.pass_bank()
        assert t.total_chips == total
        assert t.remaining + len(t.discards) + len(t.on_table) == 104
    return t


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32), st.sampled_from(["banking", "open"]))
def test_sessions_conserve_chips_and_cards_and_replay(seed: int, mode: bank.Mode) -> None:
    t = play(seed, mode, deals=25)
    again = bank.Table.replay(t.to_json())
    assert again.ledger == t.ledger
    assert again.chips == t.chips and again.bank == t.bank
    for entry in t.ledger:
        assert sum(entry["chips"].values()) + entry["bank"] == t.total_chips
