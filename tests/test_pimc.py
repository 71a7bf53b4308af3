"""The world sampler and the PIMC agent: consistency, spread, determinism, information."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from ecarte import Card, EcarteError
from ecarte.agents import make_agent
from ecarte.duel import Deal, sample_worlds
from ecarte.pimc import PimcAgent
from positions import random_positions


def chi2_critical(df: int, z: float = 3.09) -> float:
    """The chi-square quantile at p = 0.001 (z = 3.09), by the Wilson-Hilferty
    approximation: a sound sampler fails once in a thousand seeds; the seeds are fixed."""
    h = 2 / (9 * df)
    return float(df * (1 - h + z * h**0.5) ** 3)


def test_every_world_reproduces_the_observation() -> None:
    for i, deal in enumerate(random_positions(120, 1, max_actions=70)):
        for player in (0, 1):
            obs = deal.observation(player)
            worlds = sample_worlds(obs, 6, i)
            assert len(worlds) == 6
            for world in worlds:
                assert world.observation(player) == obs
                assert world.check_conservation()
            again = sample_worlds(obs, 6, i)
            assert [w.to_json() for w in again] == [w.to_json() for w in worlds]


def chi_square(counts: Counter[str], cells: list[str], expected: float) -> float:
    return sum((counts[c] - expected) ** 2 / expected for c in cells)


def test_unconstrained_opponent_hand_is_uniform() -> None:
    deal = Deal(seed=3, dealer=0)
    deal.apply("decline")
    elder = deal.elder
    obs = deal.observation(elder)
    known = {str(c) for c in obs.hand} | {str(obs.turn_up)}
    unknown = [str(c) for c in Deal(seed=0).deck if str(c) not in known]
    assert len(unknown) == 26
    n = 3000
    counts: Counter[str] = Counter()
    for world in sample_worlds(obs, n, 11):
        counts.update(str(c) for c in world.hand(1 - elder))
    assert set(counts) <= set(unknown)
    assert chi_square(counts, unknown, n * 5 / 26) < chi2_critical(25)


def test_void_inference_and_spread() -> None:
    """The dealer shows out of clubs without trumping: their other four dealt cards are
    then spread uniformly over the unknown hearts and diamonds (4/15 each)."""
    elder_hand = "7C 8C 9C TC AC".split()
    dealer_hand = "7D 8D 9D 7H 8H".split()
    turn_up = "7S"
    used = set(elder_hand + dealer_hand + [turn_up])
    rest = [str(c) for c in Deal(seed=0).deck if str(c) not in used]
    deck = elder_hand + dealer_hand + [turn_up] + sorted(rest)
    deal = Deal.from_deck([Card(c) for c in deck], dealer=0)
    deal.apply("decline")
    deal.apply("7C")
    deal.apply("9D")
    obs = deal.observation(deal.elder)
    allowed = [
        c
        for c in (f"{r}{s}" for s in "DH" for r in "789TJQKA")
        if c != "9D" and c not in {str(x) for x in obs.hand}
    ]
    assert len(allowed) >= 14
    n = 3000
    counts: Counter[str] = Counter()
    for world in sample_worlds(obs, n, 5):
        dealt = [str(c) for c in world.deck[5:10]]
        assert "9D" in dealt
        others = [c for c in dealt if c != "9D"]
        assert all(c[1] in "DH" for c in others), "no club or trump before the void"
        counts.update(others)
    assert chi_square(counts, allowed, n * 4 / len(allowed)) < chi2_critical(len(allowed) - 1)


def shared_observation_deals() -> tuple[Deal, Deal]:
    """Two deals with the same elder hand and turn-up but different hidden cards."""
    base = [str(c) for c in Deal(seed=8).deck]
    hidden = base[5:10] + base[11:]
    rng = random.Random(4)
    shuffled = hidden[:]
    rng.shuffle(shuffled)
    other = base[:5] + shuffled[:5] + [base[10]] + shuffled[5:]
    a = Deal.from_deck([Card(c) for c in base], dealer=0)
    b = Deal.from_deck([Card(c) for c in other], dealer=0)
    return a, b


def test_same_observation_same_action() -> None:
    a, b = shared_observation_deals()
    agent_a, agent_b = PimcAgent(samples=8, seed=3), PimcAgent(samples=8, seed=3)
    # The elder's proposal decision, then (after declining) the first lead.
    for step in range(2):
        elder = a.elder
        obs_a, obs_b = a.observation(elder), b.observation(elder)
        assert obs_a == obs_b
        assert a.hand(a.dealer) != b.hand(b.dealer)
        act_a = agent_a(obs_a, a.legal_actions())
        act_b = agent_b(obs_b, b.legal_actions())
        assert act_a == act_b
        if step == 0:
            a.apply("decline")
            b.apply("decline")


def test_pimc_is_deterministic_for_a_seed_and_plays_legal_actions() -> None:
    deal = Deal(seed=21)
    agents = (PimcAgent(samples=6, seed=1), PimcAgent(samples=6, seed=1))
    while not deal.is_over():
        player = deal.current_player
        assert player is not None
        obs = deal.observation(player)
        legal = deal.legal_actions()
        a, b = agents[0](obs, legal), agents[1](obs, legal)
        assert a == b and a in legal
        deal.apply(a)


def test_make_agent_knows_pimc() -> None:
    agent = make_agent("pimc", 5)
    assert isinstance(agent, PimcAgent) and agent.seed == 5
    with pytest.raises(EcarteError):
        PimcAgent(samples=0)
