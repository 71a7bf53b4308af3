"""Property tests over many seeded random sessions: chips and cards are conserved, illegal
actions change nothing, and a replayed record gives the same ledger."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from typing import Any

from ecarte import EcarteError, TableError, bank
from ecarte.bank.session import play_session
from hypothesis import given, settings
from hypothesis import strategies as st

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
    if t.phase != "staking" or missing_obliged_stake(t):
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


def can_place_fixed(t: bank.Table, player: str, tableau: int) -> bool:
    view = t.punter_view()
    placed = any(s.player == player and s.tableau == tableau for s in view.stakes)
    return player != t.banker and not placed and view.free_chips(player) >= t.fixed_stake


def missing_obliged_stake(t: bank.Table) -> bool:
    """Whether reveal() must refuse: T2 or T3 bare while a punter could still cover it."""
    return t.obliged and any(
        not any(s.tableau == tab for s in t.stakes)
        and any(can_place_fixed(t, p, tab) for p in PLAYERS)
        for tab in (2, 3)
    )


def play(seed: int, mode: bank.Mode, deals: int) -> bank.Table:
    rng = random.Random(seed)
    obliged = mode == "banking" and seed % 3 != 0
    t = bank.Table(
        PLAYERS,
        banker=seed % 4,
        bank=30,
        fixed_stake=10,
        seed=seed,
        mode=mode,
        chips=120,
        obliged=obliged,
    )
    total = t.total_chips
    while t.deals_played < deals and t.phase != "over":
        try_illegal(t, rng)
        if t.phase == "ready":
            if t.deals_played and rng.random() < 0.3:
                punters = [p for p in PLAYERS if p != t.banker]
                try:
                    t.shuffle_rest(rng.choice(punters))
                except EcarteError:
                    pass  # e.g. already shuffled since the deal
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
            for tab in (2, 3):
                if t.obliged and not any(s.tableau == tab for s in t.stakes):
                    able = [p for p in PLAYERS if can_place_fixed(t, p, tab)]
                    if able:
                        t.stake(rng.choice(able), tab, 10)
            assert not missing_obliged_stake(t)
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
    again = bank.Table.from_json(t.to_json())
    assert again.ledger == t.ledger
    assert again.chips == t.chips and again.bank == t.bank
    for entry in t.ledger:
        assert sum(entry["chips"].values()) + entry["bank"] == t.total_chips


def test_after_a_restake_the_punters_may_shuffle() -> None:
    seen = 0
    for seed in range(60):
        t = play(seed, "banking", deals=12)
        actions = [a[0] for a in json.loads(t.to_json())["actions"]]
        for i, name in enumerate(actions[:-1]):
            if name == "restake_bank" and actions[i + 1] == "shuffle_rest":
                seen += 1
    assert seen > 0


class HiddenTable(bank.Table):
    """A table whose all-seeing view raises: the session must decide from the punter view."""

    @property
    def deal_in_play(self) -> bank.Deal | None:
        raise AssertionError("the session peeked at the face-down tableaux")


def test_the_session_stakes_from_the_punter_view_and_honours_the_obligation() -> None:
    t = HiddenTable(["P1", "P2", "P3", "P4"], bank=100, fixed_stake=10, chips=200, seed=4)
    history = play_session(t, 30, seed=4)
    assert len(history) == t.deals_played > 0
    ledger = t.ledger
    for k, deal in enumerate(json.loads(t.to_json())["deals"]):
        staked = {s["tableau"] for s in deal["stakes"]}
        fixed = [(s["player"], s["tableau"]) for s in deal["stakes"] if s["tableau"] in (2, 3)]
        assert len(fixed) == len(set(fixed)), "one fixed stake per punter per tableau"
        before = ledger[k]["chips"]
        if any(c >= 20 for p, c in before.items() if p != deal["banker"]):
            assert {2, 3} <= staked, deal["stakes"]
    assert bank.Table.from_json(t.to_json()).ledger == t.ledger


def test_open_mode_session_respects_free_chips() -> None:
    # Issue 10: `ecarte bank --mode open --chips 5 --stake 10 --players 3` crashed with
    # "'P2' has 5 free chips, cannot stake 10".
    for seed in range(20):
        t = bank.Table(["P1", "P2", "P3"], mode="open", fixed_stake=10, chips=5, seed=seed)
        play_session(t, 20, seed=seed)
        assert t.total_chips == 15
        for deal in json.loads(t.to_json())["deals"]:
            for s in deal["stakes"]:
                assert s["amount"] > 0


def test_a_refused_reveal_changes_nothing() -> None:
    t = bank.Table(PLAYERS, seed=2)
    t.deal()
    before = snapshot(t)
    try:
        t.reveal()
    except TableError:
        pass
    else:
        raise AssertionError("a deal with bare T2 and T3 was revealed")
    assert snapshot(t) == before
