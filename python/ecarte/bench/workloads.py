"""The workloads that ``ecarte bench`` times, shared with the pytest-benchmark suite in
``benches/``: random playouts on the engine, the reference and OpenSpiel, mid-game states
and tableau pairs."""

from __future__ import annotations

import functools
import random
from collections.abc import Callable
from typing import Any

import ecarte
from ecarte.bench import reference as ref

__all__ = [
    "PLAYOUT_GAMES",
    "TENSOR_GAMES",
    "mid_game_states",
    "native_playout",
    "native_playout_ids",
    "openspiel_mid_state",
    "openspiel_playout",
    "openspiel_tensor_fns",
    "reference_playout",
    "resolution_inputs",
]


def native_playout(deal: Any, rng: random.Random) -> int:
    """One deal to the end by random legal actions through the Python step API."""
    steps = 0
    while not deal.is_over():
        deal.apply(rng.choice(deal.legal_actions()))
        steps += 1
    return steps


def native_playout_ids(deal: Any, rng: random.Random) -> int:
    """:func:`native_playout` with action ids (``legal_action_ids``), as OpenSpiel's loop."""
    steps = 0
    while not deal.is_over():
        deal.apply(rng.choice(deal.legal_action_ids()))
        steps += 1
    return steps


def reference_playout(deal: ref.RefDeal, rng: random.Random) -> int:
    steps = 0
    while deal.phase != "over":
        deal.apply(rng.choice(deal.legal_actions()))
        steps += 1
    return steps


def mid_game_states(count: int, seed: int = 1) -> tuple[list[Any], list[ref.RefDeal]]:
    """The same ``count`` unfinished states on the engine and the reference, reached by
    random play from seeded deals (every phase occurs)."""
    rng = random.Random(seed)
    natives: list[Any] = []
    models: list[ref.RefDeal] = []
    while len(natives) < count:
        deal = ecarte.duel.Deal(seed=rng.getrandbits(32), dealer=rng.randint(0, 1))
        model = ref.RefDeal([ref.card_index(str(c)) for c in deal.deck], deal.dealer)
        for _ in range(rng.randint(0, 40)):
            if deal.is_over():
                break
            action = rng.choice(deal.legal_actions()).id
            deal.apply(action)
            model.apply(action)
        if not deal.is_over():
            natives.append(deal)
            models.append(model)
    return natives, models


def resolution_inputs(count: int, seed: int = 2) -> list[tuple[list[str], list[str], str]]:
    """Random tableau pairs from the shoe, half of them trump-heavy."""
    rng = random.Random(seed)
    shoe = ref.shoe()
    out = []
    for _ in range(count):
        trump = rng.choice("CDHS")
        pool = shoe if rng.random() < 0.5 else [c for c in shoe if c[1] == trump] * 2 + shoe
        drawn = rng.sample(pool, 8)
        out.append((drawn[:4], drawn[4:], trump))
    return out


def openspiel_playout(game: Any, rng: random.Random) -> int:
    """A random playout of an OpenSpiel game through the same Python loop; returns the
    number of actions applied, chance outcomes included. Chance outcomes are uniform in the
    games compared, so one ``rng.choice`` over them samples them exactly."""
    state = game.new_initial_state()
    steps = 0
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(rng.choice(state.chance_outcomes())[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
        steps += 1
    return steps


def openspiel_mid_state(game: Any, rng: random.Random, moves: int) -> Any:
    state = game.new_initial_state()
    for _ in range(moves):
        if state.is_terminal():
            break
        if state.is_chance_node():
            state.apply_action(rng.choice(state.chance_outcomes())[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    return state


PLAYOUT_GAMES = ("euchre", "hearts", "skat")
# (game, tensor kind): euchre and hearts only have an information-state tensor; bridge and
# skat (3 players, the 32-card pack) have an observation tensor like ecarte's.
TENSOR_GAMES = (
    ("euchre", "information_state"),
    ("hearts", "information_state"),
    ("bridge", "observation"),
    ("skat", "observation"),
)


def openspiel_tensor_fns(
    pyspiel: Any, name: str, kind: str, seed: int = 3
) -> tuple[Callable[[], object], Callable[[], object]]:
    """For a mid-game state of OpenSpiel game ``name``: the list form
    (``state.observation_tensor(p)`` or ``information_state_tensor(p)``) and the buffer form
    (``make_observation(...)``, ``set_from``, then the NumPy ``tensor``)."""
    from open_spiel.python.observation import (  # type: ignore[import-untyped, import-not-found, unused-ignore]
        make_observation,
    )

    game = pyspiel.load_game(name)
    state = openspiel_mid_state(game, random.Random(seed), 30)
    player = max(state.current_player(), 0)
    list_form = functools.partial(getattr(state, f"{kind}_tensor"), player)
    observer = make_observation(
        game, pyspiel.IIGObservationType(perfect_recall=kind == "information_state")
    )

    def buffer_form() -> object:
        observer.set_from(state, player)
        return observer.tensor

    return list_form, buffer_form
