"""The world sampler never fails on a legal observation, stays exact under
constraints, and refuses huge counts with a typed error.

The property test plays deals under every ``Rules`` (``max_exchanges`` 0 to 11, trump
discards allowed or not) with random, heuristic, odd-but-legal and cheating players, and
samples from every position of both seats. The fast profile checks 10,000 positions;
``ECARTE_SLOW=1`` checks 100,000.
"""

from __future__ import annotations

import os
import random
from collections import Counter
from collections.abc import Callable

import pytest
from ecarte import Card, EcarteError
from ecarte.agents import HeuristicAgent, RandomAgent
from ecarte.duel import Action, Deal, Rules, pimc_values, sample_worlds, solve
from ecarte.pimc import PimcAgent

DEEP = os.environ.get("ECARTE_SLOW") == "1"

ISSUE_POSITION = (
    '{"format":"ecarte.duel.deal","version":1,"deck":["8D","QH","TS","7S","TD","9D","7H",'
    '"TC","JS","8C","AC","JH","9H","QS","AH","KC","AD","QD","7C","KH","KS","9S","JC","7D",'
    '"8H","KD","AS","8S","QC","TH","JD","9C"],"dealer":1,"rules":{"order":"ecarte",'
    '"allow_trump_discard":false,"max_exchanges":11,"target":7},"actions":["propose",'
    '"accept","discard 8D","discard 7H","propose","accept","discard TD","discard 9D",'
    '"propose","accept","discard 7S","discard 9H","propose","accept","discard TS",'
    '"discard AD","decline","JH","AH","QH","7C","8C","JC","KC","TC","QD","8H","KH","QC",'
    '"TH"]}'
)


def chi2_critical(df: int, z: float = 3.09) -> float:
    """The chi-square quantile at p = 0.001 (Wilson-Hilferty)."""
    h = 2 / (9 * df)
    return float(df * (1 - h + z * h**0.5) ** 3)


def check(deal: Deal, player: int, n: int, seed: int) -> None:
    obs = deal.observation(player)
    worlds = sample_worlds(obs, n, seed)
    assert len(worlds) == n
    for world in worlds:
        assert world.observation(player) == obs


def test_no_exchanges_dealer_view_after_the_lead() -> None:
    for seed in range(60):
        deal = Deal(seed=seed, dealer=seed % 2, rules=Rules(max_exchanges=0))
        deal.apply(deal.legal_actions()[seed % len(deal.legal_actions())])
        check(deal, deal.dealer, 2, seed)


def test_issue_position_and_pimc_agent() -> None:
    deal = Deal.from_json(ISSUE_POSITION)
    assert deal.current_player == 0
    for seed in range(4):
        check(deal, 0, 24, seed)
    obs = deal.observation(0)
    assert PimcAgent(samples=24, seed=1)(obs, deal.legal_actions()) in deal.legal_actions()


def test_huge_counts_are_typed_errors() -> None:
    obs = Deal(seed=1).observation(0)
    for n in (2**60, 2**63, 2**64 - 1):
        with pytest.raises(EcarteError):
            sample_worlds(obs, n, 1)
        with pytest.raises(EcarteError):
            pimc_values(obs, n, 1)
    with pytest.raises(EcarteError):
        PimcAgent(samples=2**60)(obs, Deal(seed=1).legal_actions())


def test_same_seed_same_worlds() -> None:
    obs = Deal.from_json(ISSUE_POSITION).observation(0)
    first = [w.to_json() for w in sample_worlds(obs, 12, 5)]
    assert first == [w.to_json() for w in sample_worlds(obs, 12, 5)]
    assert first != [w.to_json() for w in sample_worlds(obs, 12, 6)]


def test_constrained_spread_matches_the_exact_odds() -> None:
    """No exchanges; spades trump. The dealer shows out of clubs without trumping on the
    first trick, then draws. Exactly: the played 9D sits in each of the dealer's five places
    with odds 1/5, the other dealt cards are hearts and diamonds, and the drawn card is
    uniform over the unseen cards the dealt ones left, so a club or spade is drawn with odds
    1/20 and a heart or diamond with (m - 4) / (20 m), m the unseen hearts and diamonds."""
    elder = "7C 8C 9C TC AC".split()
    dealer = "7D 8D 9D 7H 8H".split()
    used = set(elder + dealer + ["7S"])
    rest = [str(c) for c in Deal(seed=0).deck if str(c) not in used]
    deck = elder + dealer + ["7S"] + sorted(rest)
    deal = Deal.from_deck([Card(c) for c in deck], dealer=0, rules=Rules(max_exchanges=0))
    deal.apply("7C")
    deal.apply("9D")
    obs = deal.observation(deal.elder)
    seen = {str(c) for c in obs.initial_hand} | {str(c) for c in obs.draws} | {"7S", "9D"}
    unseen = [str(c) for c in Deal(seed=0).deck if str(c) not in seen]
    assert len(unseen) == 24
    m = sum(1 for c in unseen if c[1] in "DH")
    n = 4000
    place: Counter[int] = Counter()
    drawn: Counter[str] = Counter()
    # The dealer (seat 0) drew talon card 1, at deck position 12.
    assert obs.talon_drawers[:2] == [1, 0]
    for world in sample_worlds(obs, n, 9):
        cards = [str(c) for c in world.deck]
        place[cards[5:10].index("9D")] += 1
        assert all(c[1] in "DH" for c in cards[5:10])
        drawn[cards[12]] += 1

    def odds(c: str) -> float:
        return (m - 4) / (20 * m) if c[1] in "DH" else 1 / 20

    stat = sum((place[i] - n / 5) ** 2 / (n / 5) for i in range(5))
    assert stat < chi2_critical(4)
    assert set(drawn) <= set(unseen)
    assert abs(sum(odds(c) for c in unseen) - 1) < 1e-12
    stat = sum((drawn[c] - n * odds(c)) ** 2 / (n * odds(c)) for c in unseen)
    assert stat < chi2_critical(len(unseen) - 1)


# -- the property test -------------------------------------------------------------------

Chooser = Callable[[Deal, random.Random], Action]


def odd_player(deal: Deal, rng: random.Random) -> Action:
    """Legal but unusual: always exchanges, throws trumps and high cards, plays low
    non-trumps (showing voids in trumps)."""
    legal = deal.legal_actions()
    names = [str(a) for a in legal]
    for always in ("propose", "accept"):
        if always in names:
            return legal[names.index(always)]
    trump = deal.trump

    def key(a: Action) -> tuple[bool, int]:
        card = a.card
        if card is None:
            return (False, 0)
        return (card.suit == trump, "789TAJQK".index(str(card)[0]))

    if deal.phase == "discard":
        return max(legal, key=key)
    return min(legal, key=key)


def cheater(deal: Deal, rng: random.Random) -> Action:
    """Sees every card: solves the play exactly once the talon is short, and exchanges
    while the next talon card is a trump."""
    legal = deal.legal_actions()
    if deal.phase == "play" and deal.talon_size <= 8:
        return rng.choice(solve(deal).best_actions)
    talon = deal.talon
    next_trump = bool(talon) and talon[0].suit == deal.trump
    names = [str(a) for a in legal]
    if "propose" in names:
        return legal[names.index("propose" if next_trump else "decline")]
    if "accept" in names:
        return legal[names.index("refuse" if next_trump else "accept")]
    player = deal.current_player
    assert player is not None
    return HeuristicAgent()(deal.observation(player), legal)


def viewer(make: Callable[[int], object]) -> Chooser:
    def choose(deal: Deal, rng: random.Random) -> Action:
        agent = make(rng.randrange(2**32))
        player = deal.current_player
        assert player is not None
        return agent(deal.observation(player), deal.legal_actions())  # type: ignore[operator]

    return choose


PLAYERS: list[Chooser] = [
    viewer(RandomAgent),
    viewer(HeuristicAgent),
    odd_player,
    cheater,
]


def test_never_fails_on_positions_of_legal_deals() -> None:
    target = 100_000 if DEEP else 10_000
    rng = random.Random(2024)
    checked = 0
    failures: list[str] = []
    i = 0
    while checked < target:
        rules = Rules(max_exchanges=i % 12, allow_trump_discard=(i // 12) % 2 == 1)
        seats = (rng.choice(PLAYERS), rng.choice(PLAYERS))
        deal = Deal(seed=rng.randrange(2**63), dealer=i % 2, rules=rules)
        i += 1
        while not deal.is_over():
            for player in (0, 1):
                obs = deal.observation(player)
                try:
                    worlds = sample_worlds(obs, 1, checked)
                    assert worlds[0].observation(player) == obs
                except EcarteError as e:
                    failures.append(f"{e}: player {player} of {deal.to_json()}")
                checked += 1
            mover = deal.current_player
            assert mover is not None
            deal.apply(seats[mover](deal, rng))
    assert i >= 24, "every rule set is covered"
    assert failures == []
