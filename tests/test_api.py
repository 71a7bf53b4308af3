"""The consolidated API: one history, pickling, records, one agent grammar, light import."""

from __future__ import annotations

import json
import pickle
import subprocess
import sys

import ecarte
import numpy as np
import pytest
from ecarte import Card, EcarteError, InvalidRecordError, Rank, Suit, bank, duel
from ecarte.agents import HeuristicAgent, RandomAgent, make_agent
from ecarte.pimc import PimcAgent


def midway_deal(seed: int = 5, steps: int = 9) -> duel.Deal:
    deal = duel.Deal(seed=seed)
    for i in range(steps):
        legal = deal.legal_actions()
        deal.apply(legal[i % len(legal)])
    return deal


def value_objects() -> list[object]:
    deal = midway_deal()
    finished = midway_deal(7, 0)
    while not finished.is_over():
        finished.apply(finished.legal_actions()[-1])
    match = duel.Match(seed=3)
    for _ in range(12):
        match.apply(match.legal_actions()[0])
    played = duel.Match(seed=4, rules=duel.Rules(target=2))
    result = played.play(RandomAgent(1), RandomAgent(2))
    play_deal = midway_deal(11, 0)
    play_deal.apply("decline")
    return [
        Card("QH"),
        Suit.Hearts,
        Rank.Queen,
        duel.Action("discard 7C"),
        duel.Rules(order="traditional", max_exchanges=3, target=5),
        deal,
        duel.Deal(seed=9),
        deal.observation(0, (2, 3)),
        finished.outcome(),
        finished.tricks[0],
        duel.solve(play_deal),
        bank.resolve(["QH", "7C", "8C", "9C", "TC"], ["KH", "7D", "8D", "9D", "TD"], "H"),
        bank.deal_from_shoe(ecarte.shoe_pack()[:17]),
        bank.odds(trump_card="7H"),
        bank.simulate(5000, seed=2),
        match,
        result,
    ]


@pytest.mark.parametrize("value", value_objects(), ids=lambda v: type(v).__name__)
def test_every_value_class_pickles(value: object) -> None:
    again = pickle.loads(pickle.dumps(value))
    assert again == value
    assert type(again) is type(value)


def test_a_pickled_deal_keeps_its_seed_and_plays_on() -> None:
    deal = midway_deal()
    again = pickle.loads(pickle.dumps(deal))
    assert again.seed == deal.seed and again.history == deal.history
    action = deal.legal_actions()[0]
    deal.apply(action)
    again.apply(action)
    assert again == deal


def test_the_history_is_the_engine_log_with_the_players() -> None:
    deal = midway_deal(steps=14)
    replay = duel.Deal.from_deck(deal.deck, dealer=deal.dealer, rules=deal.rules)
    for player, action in deal.moves:
        assert replay.current_player == player
        replay.apply(action)
    assert replay == deal
    assert [a for _, a in deal.moves] == deal.history


@pytest.mark.parametrize("steps", [0, 1, 7, 40])
def test_vecenv_deal_round_trips_through_its_record_mid_deal(steps: int) -> None:
    env = duel.VecEnv(3, seed=4)
    for _ in range(steps):
        env.step(env.random_actions())
    for i in range(3):
        deal = env.deal(i)
        assert duel.Deal.from_json(deal.to_json()) == deal
        assert deal.history == [a for _, a in deal.moves]


def test_worlds_carry_their_history_and_undo() -> None:
    deal = midway_deal(steps=6)
    me = deal.current_player
    assert me is not None
    world = duel.sample_worlds(deal.observation(me), 1, 1)[0]
    assert world.history == deal.history
    world.undo()
    assert len(world.history) == len(deal.history) - 1


def test_rules_replace_and_records() -> None:
    rules = duel.Rules()
    changed = rules.replace(target=5, order="traditional")
    assert (changed.target, changed.order, changed.max_exchanges) == (5, "traditional", 11)
    assert rules.target == 7
    assert duel.Rules.from_json(changed.to_json()) == changed
    with pytest.raises(ecarte.InvalidRulesError):
        rules.replace(colour="red")
    with pytest.raises(ecarte.InvalidRulesError):
        rules.replace(target=0)
    with pytest.raises(ecarte.InvalidRulesError):
        rules.replace(max_exchanges=2**64)


def test_observation_round_trips_and_rejects_impossible_views() -> None:
    deal = midway_deal(steps=12)
    for player in (0, 1):
        obs = deal.observation(player, (1, 4))
        assert duel.Observation.from_json(obs.to_json()) == obs
    record = json.loads(deal.observation(0).to_json())
    record["hand"] = record["hand"][:-1]
    with pytest.raises(InvalidRecordError):
        duel.Observation.from_json(json.dumps(record))
    record = json.loads(deal.observation(0).to_json())
    record["extra"] = 1
    with pytest.raises(InvalidRecordError):
        duel.Observation.from_json(json.dumps(record))
    for junk in ["", "[]", "null", '{"player": 0}', "{" * 10_000]:
        with pytest.raises(InvalidRecordError):
            duel.Observation.from_json(junk)


def test_outcome_and_trick_records() -> None:
    deal = midway_deal(7, 0)
    while not deal.is_over():
        deal.apply(deal.legal_actions()[0])
    outcome = deal.outcome()
    assert outcome is not None
    assert duel.Outcome.from_json(outcome.to_json()) == outcome
    trick = deal.tricks[-1]
    assert duel.Trick.from_json(trick.to_json()) == trick
    bad = json.loads(outcome.to_json())
    bad["winner"] = 2
    with pytest.raises(InvalidRecordError):
        duel.Outcome.from_json(json.dumps(bad))


def test_one_agent_grammar() -> None:
    assert duel.parse_agent("pimc:8") == ("pimc", 8)
    assert duel.parse_agent("pimc") == ("pimc", duel.DEFAULT_PIMC_SAMPLES)
    assert duel.parse_agent("heuristic") == ("heuristic", None)
    agent = make_agent("pimc:8", seed=1)
    assert isinstance(agent, PimcAgent) and agent.samples == 8
    assert isinstance(make_agent("heuristic"), HeuristicAgent)
    for bad in ["pimc:0", "pimc:x", "pimc:²", "pimc:+5", "oracle", "", "random:2"]:
        assert not duel.is_native_agent(bad)
        with pytest.raises(EcarteError):
            make_agent(bad)
        with pytest.raises(EcarteError):
            duel.simulate(1, seed=1, agents=(bad, "random"))


def test_seed_none_means_a_fresh_recorded_seed_everywhere() -> None:
    for make in (duel.Deal, duel.Match, RandomAgent, PimcAgent):
        a, b = make(), make()  # type: ignore[operator]
        assert isinstance(a.seed, int) and a.seed != b.seed
    result = duel.simulate(5)
    assert duel.simulate(5, seed=result.seed) == result


def test_simulate_returns_columns_and_a_summary() -> None:
    result = duel.simulate(200, seed=3, agents=("heuristic", "random"))
    assert result.n == 200 and result["winner"].shape == (200,)
    low, high = result.summary["seat0_win_interval"]
    assert 0 <= low <= result.summary["seat0_win_rate"] <= high <= 1
    assert pickle.loads(pickle.dumps(result)) == result
    matches = duel.simulate(3, seed=3, matches=True)
    assert set(matches) == {"winner", "score", "deals", "deals_won"}


def test_import_is_light() -> None:
    code = (
        "import ecarte, sys; "
        "print([m for m in ('rich', 'click', 'multiprocessing', 'concurrent.futures', "
        "'ecarte.cli', 'ecarte.bench', 'ecarte.distributed', 'ray') if m in sys.modules])"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_public_names_match_the_native_ones() -> None:
    from ecarte._core import bank as native_bank
    from ecarte._core import duel as native_duel

    for name in ["Deal", "Rules", "Action", "Observation", "Match", "VecEnv", "Solution"]:
        cls = getattr(duel, name)
        assert cls is getattr(native_duel, name)
        assert (cls.__module__, cls.__name__) == ("ecarte.duel", name)
    for name in ["Deal", "Shoe", "Odds", "Resolution"]:
        assert getattr(bank, name) is getattr(native_bank, name)
    assert np.asarray(duel.Deal(seed=1).legal_action_mask()).dtype == np.bool_


def test_dir_lists_only_the_public_api() -> None:
    import ecarte

    assert dir(ecarte) == sorted(ecarte.__all__)
    assert not {"Any", "TYPE_CHECKING", "annotations", "importlib"} & set(dir(ecarte))


def test_agent_specs_are_a_tuple_of_the_forms_the_grammar_reads() -> None:
    assert isinstance(duel.AGENT_SPECS, tuple)
    assert all(isinstance(s, str) and " " not in s for s in duel.AGENT_SPECS)
    for form in duel.AGENT_SPECS:
        name, samples = duel.parse_agent(form.replace(":N", ":8"))
        assert name == form.split(":")[0] and (samples == 8) == form.endswith(":N")
    with pytest.raises(EcarteError, match="pimc:0 is out of range: pimc:N takes 1 to 10000"):
        duel.parse_agent("pimc:0")


def test_str_of_an_arena_result_is_its_table() -> None:
    from ecarte import arena

    result = arena.play("heuristic", "random", matches=2, seed=1)
    assert str(result) == result.table() and str(result).startswith("agents")


@pytest.mark.parametrize("cls", [duel.Deal, duel.Match])
def test_from_json_takes_text_only(cls: type[duel.Deal] | type[duel.Match]) -> None:
    for wrong in (None, 3, b"{}"):
        with pytest.raises(TypeError, match="JSON text"):
            cls.from_json(wrong)  # type: ignore[arg-type]
    record = (duel.Deal(seed=1) if cls is duel.Deal else duel.Match(seed=1)).to_json()
    with pytest.raises(InvalidRecordError, match="not valid Unicode"):
        cls.from_json(record[:-1] + "\udcff}")
