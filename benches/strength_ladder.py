"""The strength ladder: each row's duplicate deals against one common opponent, with
the row's time per decision.

    python benches/strength_ladder.py ROW [deals] [seed] [opponent]

Plays deals ``seed + i`` (i < deals, dealer ``i % 2``) twice, the row in seat 0 and then
in seat 1, against ``opponent`` (default ``heuristic``), and prints the row's mean signed
points per deal over the pairs with a 95% interval, and the mean and p90 seconds of its
decisions, in CPU time of the process (all its threads: the solver's pool too) and in wall
time. On a shared machine the CPU figures are the load-independent ones. ROW is an agent
spec (``ecarte.duel.AGENT_SPECS``), ``ismcts`` or ``ismcts:SIMS`` (OpenSpiel's ISMCTS
bot, ``ecarte.openspiel.ISMCTSAgent``; needs ``open_spiel``), ``ceiling`` or
``ceiling:PART``.

``ceiling`` is a **benchmark-only cheating player**: it sees the whole deal (the
opponent's hand and the talon order). In the play phase it plays a move of best exact
double-dummy value; an exchange option is applied, the rest of the exchange phase played by
the heuristic for both seats, and the play phase solved, all in the one true world (PIMC
with the real deal as its only world). It bounds what any fair player could gain; it is
not an agent spec and never will be.

``ceiling:PART`` cheats in one part of the deal only and plays the rest as the ``master``
does, to show where the hidden cards cost a fair player most:

- ``exchange``: the ceiling's exchange decisions;
- ``talon``: the ceiling's play while the talon lasts (it sees the opponent's hand and the
  talon's order);
- ``end``: the ceiling's play once the talon is empty (then the opponent's hand is all
  that is hidden);
- ``hand``: while the talon lasts, it sees the opponent's hand and discards but not the
  talon's order: each move's double-dummy value is averaged over ``HAND_WORLDS`` orders of
  the undrawn talon drawn at random (seeded), everything else as it is. Averaging over
  worlds, it shares the search agents' strategy fusion.
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from collections.abc import Callable

from ecarte.agents import make_agent
from ecarte.duel import Action, Deal, Observation, action_values, heuristic_action, solve
from ecarte.stats import mean_interval

Chooser = Callable[[Deal, Observation, list[Action]], Action]

#: The parts of a deal that ``ceiling:PART`` cheats in.
CEILING_PARTS = ("exchange", "talon", "end", "hand")
#: The talon orders that ``ceiling:hand`` averages over.
HAND_WORLDS = 16


def ceiling_value(deal: Deal, action: Action, me: int) -> float:
    """`me`'s exact points after `action` in the true world: the rest of the exchange
    phase by the heuristic for both seats, the play phase double-dummy."""
    child = deal.copy()
    child.apply(action)
    while not child.is_over() and child.phase != "play":
        player = child.current_player
        assert player is not None
        child.apply(heuristic_action(child.observation(player), child.legal_actions()))
    if child.is_over():
        outcome = child.outcome()
        assert outcome is not None
        return float(outcome.points if outcome.winner == me else -outcome.points)
    value = float(solve(child).value)
    return value if child.current_player == me else -value


def ceiling(deal: Deal, obs: Observation, legal: list[Action]) -> Action:
    """The cheating double-dummy choice (benchmark only: it reads the hidden cards)."""
    if len(legal) == 1:
        return legal[0]
    if deal.phase == "play":
        return best_of({a: float(v) for a, v in action_values(deal)})
    return best_of({a: ceiling_value(deal, a, obs.player) for a in legal})


def best_of(values: dict[Action, float]) -> Action:
    """The action of highest value; ties to the lowest action id, as the native agents
    break them."""
    best = max(values.values())
    return min(a for a, v in values.items() if v == best)


def hand_worlds(deal: Deal, rng: random.Random) -> list[Deal]:
    """``HAND_WORLDS`` copies of ``deal`` with the undrawn talon cards (all but the
    turn-up, drawn last) in a random order: the hands, discards, cards drawn and history
    kept as they are."""
    hidden = deal.talon[:-1]
    deck = list(deal.deck)
    # The hidden cards trade places among their own places in the deck.
    places = [deck.index(card) for card in hidden]
    worlds = []
    for _ in range(HAND_WORLDS):
        order = list(hidden)
        rng.shuffle(order)
        for place, card in zip(places, order, strict=True):
            deck[place] = card
        world = Deal.from_deck(deck, dealer=deal.dealer, rules=deal.rules)
        for action in deal.history:
            world.apply(action)
        worlds.append(world)
    return worlds


def hand_ceiling(deal: Deal, rng: random.Random) -> Action:
    """The move of best mean double-dummy value over the worlds of :func:`hand_worlds`."""
    sums: dict[Action, float] = {}
    for world in hand_worlds(deal, rng):
        for action, value in action_values(world):
            sums[action] = sums.get(action, 0.0) + float(value)
    return best_of(sums)


def part_ceiling(part: str, seed: int) -> Chooser:
    """``ceiling:PART``: the ceiling in ``part`` of the deal, the master elsewhere."""
    if part not in CEILING_PARTS:
        raise SystemExit(f"ceiling:{part}: the parts are {', '.join(CEILING_PARTS)}")
    master = make_agent("master", seed)
    rng = random.Random(seed)

    def choose(deal: Deal, obs: Observation, legal: list[Action]) -> Action:
        playing = deal.phase == "play"
        talon = obs.talon_size > 0
        if len(legal) > 1:
            if part == "hand" and playing and talon:
                return hand_ceiling(deal, rng)
            cheats = {
                "exchange": not playing,
                "talon": playing and talon,
                "end": playing and not talon,
            }
            if cheats.get(part, False):
                return ceiling(deal, obs, legal)
        return master(obs, legal)

    return choose


def chooser(spec: str, seed: int) -> Chooser:
    """The row's choice function: it gets the deal only to let the ceiling cheat."""
    if spec == "ceiling":
        return ceiling
    if spec.startswith("ceiling:"):
        return part_ceiling(spec.split(":", 1)[1], seed)
    if spec.split(":")[0] == "ismcts":
        from ecarte.openspiel import ISMCTSAgent

        sims = int(spec.split(":")[1]) if ":" in spec else 100
        bot = ISMCTSAgent(simulations=sims, seed=seed)
        return lambda deal, obs, legal: bot(obs, legal)
    agent = make_agent(spec, seed)
    return lambda deal, obs, legal: agent(obs, legal)


def signed_points(deal: Deal, seat: int) -> int:
    outcome = deal.outcome()
    assert outcome is not None
    return outcome.points if outcome.winner == seat else -outcome.points


def p90(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[int(0.9 * (len(ordered) - 1))]


def main(row: str, deals: int = 100, seed: int = 5000, opponent: str = "heuristic") -> None:
    choose_row = chooser(row, 1)
    choose_opp = chooser(opponent, 2)
    wall: list[float] = []
    cpu: list[float] = []
    edges: list[float] = []
    start_time = time.time()
    for i in range(deals):
        edge = 0.0
        for row_seat in (0, 1):
            deal = Deal(seed=seed + i, dealer=i % 2)
            while not deal.is_over():
                player = deal.current_player
                assert player is not None
                obs, legal = deal.observation(player), deal.legal_actions()
                if player == row_seat:
                    t0, c0 = time.perf_counter(), time.process_time()
                    action = choose_row(deal, obs, legal)
                    wall.append(time.perf_counter() - t0)
                    cpu.append(time.process_time() - c0)
                else:
                    action = choose_opp(deal, obs, legal)
                deal.apply(action)
            edge += signed_points(deal, row_seat) / 2
        edges.append(edge)
        if (i + 1) % 25 == 0 or i + 1 == deals:
            mean, low, high = mean_interval(edges)
            half = (high - low) / 2
            print(
                f"{row} v {opponent}, deals {seed}..{seed + i}: {mean:+.3f} ± {half:.3f} "
                f"points per deal; {len(cpu)} decisions, CPU mean {statistics.fmean(cpu):.4f} s "
                f"p90 {p90(cpu):.4f} s, wall mean {statistics.fmean(wall):.4f} s "
                f"p90 {p90(wall):.4f} s; {time.time() - start_time:.0f} s",
                flush=True,
            )


if __name__ == "__main__":
    args = sys.argv[1:]
    main(args[0], *(int(x) for x in args[1:3]), *args[3:4])
