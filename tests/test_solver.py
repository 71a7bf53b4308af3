"""The double-dummy solver against a plain minimax written here over the `Deal` API.

CI runs a few hundred late positions (about 10 s); `ECARTE_SLOW=1` runs thousands more.
"""

from __future__ import annotations

import os
import random

import pytest
from ecarte import EcarteError
from ecarte.duel import Deal, action_values, solve, solve_many

SLOW = bool(os.environ.get("ECARTE_SLOW"))


def final_value(deal: Deal, me: int, objective: str) -> int:
    outcome = deal.outcome()
    assert outcome is not None
    if objective == "cards":
        return outcome.cards[me]
    return outcome.points if outcome.winner == me else -outcome.points


def minimax(deal: Deal, me: int, objective: str, memo: dict[tuple[object, ...], int]) -> int:
    """The value for `me` with both sides playing perfectly, by exhaustive search."""
    if deal.is_over():
        return final_value(deal, me, objective)
    tricks = deal.tricks
    key = (
        tuple(deal.hand(0)),
        tuple(deal.hand(1)),
        deal.lead,
        deal.current_player,
        deal.cards_taken,
        deal.tricks_taken,
        tricks[-1].winner if tricks else None,
    )
    if key in memo:
        return memo[key]
    values = []
    for action in deal.legal_actions():
        deal.apply(action)
        values.append(minimax(deal, me, objective, memo))
        deal.undo()
    value = max(values) if deal.current_player == me else min(values)
    memo[key] = value
    return value


def late_position(rng: random.Random) -> Deal:
    """9 to 11 exchanges with random discards, then random plays leaving 1 to 5 tricks,
    often stopping mid-trick."""
    deal = Deal(seed=rng.randrange(2**63), dealer=rng.randrange(2))
    exchanges = rng.choice([9, 10, 11, 11])
    while deal.phase != "play":
        legal = deal.legal_actions()
        names = {str(a) for a in legal}
        if "propose" in names:
            deal.apply("propose" if deal.exchanges < exchanges else "decline")
        elif "accept" in names:
            deal.apply("accept")
        else:
            deal.apply(rng.choice(legal))
    left = rng.randint(1, 4 if exchanges < 11 else 5)
    plays = 2 * max(0, deal.total_tricks - left) + rng.randrange(2)
    for _ in range(plays):
        if deal.is_over():
            break
        deal.apply(rng.choice(deal.legal_actions()))
    if deal.is_over():
        deal.undo()
    return deal


def check(deal: Deal, objective: str) -> None:
    me = deal.current_player
    assert me is not None
    expected = minimax(deal, me, objective, {})
    solution = solve(deal, objective=objective)
    assert solution.value == expected
    assert solution.nodes >= 0
    by_action = dict(action_values(deal, objective=objective))
    for action in deal.legal_actions():
        deal.apply(action)
        child = minimax(deal, me, objective, {})
        # The solver agrees on the child, from the child's mover's point of view.
        if not deal.is_over():
            child_solution = solve(deal, objective=objective)
            if objective == "points":
                sign = 1 if deal.current_player == me else -1
                assert sign * child_solution.value == child
        deal.undo()
        assert by_action[action] == child
        assert (action in solution.best_actions) == (child == expected)
    assert solution.best_actions, "a best action always exists"


@pytest.mark.parametrize("objective", ["points", "cards"])
def test_solver_matches_minimax(objective: str) -> None:
    rng = random.Random(2024 if objective == "points" else 7)
    for _ in range(20000 if SLOW else 1500):
        check(late_position(rng), objective)


def test_mid_trick_positions() -> None:
    rng = random.Random(99)
    checked = 0
    while checked < (5000 if SLOW else 400):
        deal = late_position(rng)
        if deal.lead is None:
            continue
        check(deal, "points")
        checked += 1


def test_traditional_order() -> None:
    from ecarte.duel import Rules

    rng = random.Random(5)
    for _ in range(400 if SLOW else 40):
        deal = Deal(seed=rng.randrange(2**63), rules=Rules(order="traditional"))
        while deal.phase != "play":
            legal = deal.legal_actions()
            names = {str(a) for a in legal}
            if "propose" in names:
                deal.apply("propose")
            elif "accept" in names:
                deal.apply("accept")
            else:
                deal.apply(legal[0])
        for _ in range(2 * rng.randint(0, 3)):
            deal.apply(rng.choice(deal.legal_actions()))
        check(deal, "points")


def test_solve_outside_play_raises() -> None:
    with pytest.raises(EcarteError, match="play-phase"):
        solve(Deal(seed=1))
    with pytest.raises(EcarteError, match="objective"):
        deal = Deal(seed=1)
        deal.apply("decline")
        solve(deal, objective="tricks")


def test_solve_many_matches_solve() -> None:
    deals = []
    for seed in range(12):
        deal = Deal(seed=seed)
        deal.apply("decline")
        deals.append(deal)
    assert solve_many(deals) == [solve(d) for d in deals]
    assert solve_many([]) == []


def test_full_opening_position_is_solved() -> None:
    deal = Deal(seed=42)
    deal.apply("decline")
    solution = solve(deal)
    assert solution.value in (-2, -1, 1, 2)
    for action in solution.best_actions:
        deal.apply(action)
        child = solve(deal)
        sign = 1 if deal.current_player == deal.elder else -1
        assert sign * child.value == solution.value
        deal.undo()
