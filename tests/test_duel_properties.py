"""Hypothesis properties of the duel over random seeds, rules and random legal play."""

from __future__ import annotations

import ecarte
import numpy as np
from ecarte import IllegalActionError
from ecarte.duel import NUM_ACTIONS, Action, Deal, Rules
from hypothesis import given
from hypothesis import strategies as st

rules_strategy = st.builds(
    Rules,
    order=st.sampled_from(["ecarte", "traditional"]),
    allow_trump_discard=st.booleans(),
    max_exchanges=st.integers(0, 11),
)


def location_count(deal: Deal) -> int:
    """Cards in hands, talon, discards, played: must always be the 32-card pack."""
    played = [c for t in deal.tricks for c in t.cards] + ([deal.lead] if deal.lead else [])
    places = deal.hand(0) + deal.hand(1) + deal.talon + deal.discards(0) + deal.discards(1) + played
    assert sorted(places) == sorted(ecarte.duel_pack())
    return len(places)


@given(
    seed=st.integers(0, 2**64 - 1),
    rules=rules_strategy,
    dealer=st.integers(0, 1),
    choices=st.lists(st.integers(0, 10**6), min_size=60, max_size=60),
)
def test_random_play_invariants(seed: int, rules: Rules, dealer: int, choices: list[int]) -> None:
    deal = Deal(seed=seed, dealer=dealer, rules=rules)
    states = [deal.copy()]
    step = 0
    while not deal.is_over():
        legal = deal.legal_actions()
        assert legal, "a legal action exists until the end"
        assert location_count(deal) == 32
        assert deal.check_conservation()
        # Every action outside the legal set is rejected with nothing changed.
        legal_ids = {a.id for a in legal}
        before = deal.copy()
        for illegal_id in (i for i in range(0, NUM_ACTIONS, 7) if i not in legal_ids):
            try:
                deal.apply(illegal_id)
            except IllegalActionError:
                pass
            else:
                raise AssertionError(f"illegal {Action.from_id(illegal_id)} accepted")
            assert deal == before
        deal.apply(legal[choices[step % len(choices)] % len(legal)])
        step += 1
        states.append(deal.copy())
    assert deal.outcome() is not None
    assert location_count(deal) == 32
    # JSON round trip replays to the identical state.
    assert Deal.from_json(deal.to_json()) == deal
    # Undo walks back through every state.
    for expected in reversed(states[:-1]):
        deal.undo()
        assert deal == expected
    assert deal.history == []


@given(seed=st.integers(0, 2**64 - 1), steps=st.integers(0, 40))
def test_observation_of_both_seats_is_consistent(seed: int, steps: int) -> None:
    deal = Deal(seed=seed)
    rng = ecarte.RandomAgent(seed % 1000)
    for _ in range(steps):
        if deal.is_over():
            break
        deal.apply(rng(deal.observation(0), deal.legal_actions()))
    for p in (0, 1):
        obs = deal.observation(p)
        t = deal.observation_tensor(p)
        assert obs.hand == deal.hand(p)
        assert obs.discards == deal.discards(p)
        assert int(t[:32].sum()) == len(obs.hand)
        assert int(t[32:64].sum()) == len(obs.discards)
        assert np.isclose(t[206], deal.talon_size / 22)
        assert obs.tricks == deal.tricks
