"""The grandmaster and its learned opponent model: the self-play decisions it is trained
on, the agent in every face, its weights shipped without PyTorch, and the training
recipe in miniature."""

from __future__ import annotations

import json
import os
import struct
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from ecarte import EcarteError, GrandmasterAgent, arena, duel
from ecarte.duel import AGENT_SPECS, DEFAULT_GRANDMASTER_SAMPLES, Deal, parse_agent

ROOT = Path(__file__).resolve().parent.parent
#: The shipped weights' recipe and held-out figures, written by the training script.
TRAINING_REPORT = ROOT / "benches" / "grandmaster_training.json"


def test_the_spec_names_the_agent() -> None:
    assert {"grandmaster", "grandmaster:N"} <= set(AGENT_SPECS)
    assert parse_agent("grandmaster") == ("grandmaster", DEFAULT_GRANDMASTER_SAMPLES)
    assert parse_agent("grandmaster:8") == ("grandmaster", 8)
    assert duel.LEVELS["grandmaster"] == "grandmaster"
    agent = GrandmasterAgent(samples=6, seed=3)
    assert agent.spec == "grandmaster:6" and agent.seed == 3
    with pytest.raises(EcarteError, match="samples must be from 1"):
        GrandmasterAgent(samples=0)
    with pytest.raises(EcarteError, match="out of range"):
        parse_agent("grandmaster:0")


def test_it_plays_legal_and_reproducible_moves() -> None:
    deal = Deal(seed=12)
    while not deal.is_over():
        player = deal.current_player
        assert player is not None
        obs, legal = deal.observation(player), deal.legal_actions()
        action = GrandmasterAgent(samples=4, seed=9)(obs, legal)
        assert action in legal
        assert GrandmasterAgent(samples=4, seed=9)(obs, legal) == action
        deal.apply(action)


def test_a_match_in_the_arena() -> None:
    result = arena.play("grandmaster:4", "heuristic", matches=1, seed=5)
    assert result.pairs == 1 and result.deals > 0 and result.native


def test_self_play_decisions_are_columns_of_legal_choices() -> None:
    data = duel.self_play_decisions(2, 7, [("grandmaster:2", "expert:2"), ("pimc:2", "master:2")])
    rows = len(data["action"])
    assert rows > 50
    assert data["observation"].shape == (rows, duel.OBSERVATION_SIZE)
    assert data["observation"].dtype == np.float32
    assert data["mask"].shape == (rows, duel.NUM_ACTIONS) and data["mask"].dtype == bool
    # Every row is a choice, and the action taken is legal in it.
    assert (data["mask"].sum(axis=1) >= 2).all()
    assert data["mask"][np.arange(rows), data["action"]].all()
    assert set(np.unique(data["match"])) == {0, 1} and set(np.unique(data["seat"])) == {0, 1}
    # Every kind of decision is there, and each kind is what the tensor shows.
    kinds = np.asarray(duel.DECISION_KINDS)[data["kind"]]
    assert set(kinds) == {"exchange", "discard", "lead", "follow"}
    phase = data["observation"][:, 199:204].argmax(axis=1)
    led = data["observation"][:, 128:160].any(axis=1)
    assert ((kinds == "exchange") == (phase <= 1)).all()
    assert ((kinds == "discard") == (phase == 2)).all()
    assert ((kinds == "follow") == ((phase == 3) & led)).all()
    # The master's model is a probability of the action; its choice is legal or -1.
    assert (data["master_log_probability"] <= 0).all()
    choice = data["master_choice"]
    assert (choice >= -1).all()
    known = choice >= 0
    assert data["mask"][np.arange(rows)[known], choice[known]].all()


def test_self_play_decisions_do_not_depend_on_the_threads() -> None:
    pairs = [("expert:2", "pimc:2")]
    one = duel.self_play_decisions(3, 11, pairs, threads=1)
    two = duel.self_play_decisions(3, 11, pairs, threads=2)
    for name in one:
        np.testing.assert_array_equal(one[name], two[name])
    # Matches 1..2 of the run are the same matches, asked for by `start`: match i is
    # played by the pair (i % len(pairs)) of the run, wherever the call starts.
    pairs = [("expert:2", "pimc:2"), ("pimc:2", "heuristic")]
    whole = duel.self_play_decisions(3, 11, pairs, threads=2)
    later = duel.self_play_decisions(2, 11, pairs, start=1, threads=2)
    np.testing.assert_array_equal(later["action"], whole["action"][whole["match"] >= 1])
    np.testing.assert_array_equal(later["match"], whole["match"][whole["match"] >= 1])


@pytest.mark.parametrize(
    ("args", "error", "match"),
    [
        ((1, 1, []), EcarteError, "1 to 64 pairs"),
        ((1, 1, [("master",)]), EcarteError, "must be a pair"),
        ((1, 1, [("master", "oracle")]), EcarteError, "unknown agent"),
        ((1, 1, 5), EcarteError, "list of pairs"),
        ((-1, 1, [("master", "master")]), EcarteError, "matches"),
        ((5_001, 1, [("master", "master")]), EcarteError, "matches"),
        (("2", 1, [("master", "master")]), EcarteError, "matches must be a whole number"),
    ],
)
def test_self_play_decisions_refuse_bad_input(args: tuple, error: type, match: str) -> None:
    with pytest.raises(error, match=match):
        duel.self_play_decisions(*args)


def test_inference_spread_reports_the_effective_sample_size() -> None:
    deal = Deal(seed=4)
    first = deal.observation(deal.current_player or 0)
    # Nothing to read yet: the worlds are unweighted.
    assert duel.inference_spread(first, "grandmaster", 1) is None
    with pytest.raises(EcarteError, match="does not search"):
        duel.inference_spread(first, "heuristic", 1)
    seen, stages = 0, set()
    while not deal.is_over():
        player = deal.current_player
        assert player is not None
        obs = deal.observation(player)
        # The grandmaster's 9 worlds in the play while the talon lasts are 6 in the
        # exchange and the master's 5 once the talon is empty: 8 candidates a world.
        if obs.phase != "play":
            worlds = 6
        else:
            worlds = 9 if obs.talon_size > 0 else 5
        for spec, pool_size in (("master:5", 5 * 8), ("grandmaster:9", worlds * 8)):
            spread = duel.inference_spread(obs, spec, 1)
            if spread is not None:
                size, pool = spread
                assert pool == pool_size and 1 <= size <= pool + 1e-9
                seen += 1
                if spec.startswith("grandmaster"):
                    stages.add(worlds)
        legal = deal.legal_actions()
        deal.apply(legal[len(deal.history) % len(legal)])
    assert seen > 4 and len(stages) == 3


def test_the_weights_ship_without_pytorch() -> None:
    # The installed package plays the grandmaster with PyTorch made unimportable, and
    # importing ecarte and playing loads no torch.
    code = (
        "import sys; sys.modules['torch'] = None\n"
        "import ecarte\n"
        "from ecarte import arena\n"
        "r = arena.play('grandmaster:2', 'heuristic', matches=1, seed=3)\n"
        "assert r.deals > 0\n"
        "assert sys.modules['torch'] is None\n"
        "print('ok')\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert proc.returncode == 0 and proc.stdout.strip() == "ok", proc.stderr[-2000:]
    clean = subprocess.run(
        [sys.executable, "-c", "import ecarte, ecarte.duel, sys; print('torch' in sys.modules)"],
        capture_output=True,
        text=True,
    )
    assert clean.stdout.strip() == "False", clean.stderr


def test_the_training_recipe_runs_in_miniature(tmp_path: Path) -> None:
    pytest.importorskip("torch")
    weights, report = tmp_path / "w.weights", tmp_path / "r.json"
    proc = subprocess.run(
        [
            sys.executable, "examples/train_inference.py", "--matches", "2", "--held-out", "1",
            "--epochs", "1", "--hidden", "16", "--threads", "1", "--out", str(weights),
            "--report", str(report),
        ],
        capture_output=True, text=True, timeout=600, cwd=ROOT,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr[-3000:]
    blob = weights.read_bytes()
    magic, version, layers = struct.unpack("<4sII", blob[:12])
    assert (magic, version, layers) == (b"ECNN", 1, 2)
    assert struct.unpack("<II", blob[12:20]) == (duel.OBSERVATION_SIZE, 16)
    figures = json.loads(report.read_text())["held_out"]
    for kind in ("all", "exchange", "discard", "lead", "follow"):
        for model in ("network", "master"):
            assert 0 <= figures[kind][model]["accuracy"] <= 1
            assert figures[kind][model]["log_loss"] >= 0
    assert figures["all"]["decisions"] == sum(
        figures[k]["decisions"] for k in ("exchange", "discard", "lead", "follow")
    )


@pytest.mark.skipif(
    not os.environ.get("ECARTE_DEEP_TRAIN"),
    reason="the whole training recipe (about 8 minutes of 2 cores): ECARTE_DEEP_TRAIN=1",
)
def test_the_recipe_reproduces_the_shipped_figures(tmp_path: Path) -> None:
    pytest.importorskip("torch")
    shipped = json.loads(TRAINING_REPORT.read_text())
    recipe = shipped["recipe"]
    args = ["--matches", str(recipe["matches"]), "--held-out", str(recipe["held_out"])]
    args += ["--seed", str(recipe["seed"]), "--epochs", str(recipe["epochs"])]
    args += ["--hidden", *map(str, recipe["hidden"]), "--batch", str(recipe["batch"])]
    args += ["--lr", str(recipe["lr"]), "--report", str(tmp_path / "r.json")]
    args += ["--out", str(tmp_path / "w.weights")]
    proc = subprocess.run(
        [sys.executable, "examples/train_inference.py", *args],
        capture_output=True, text=True, timeout=3600, cwd=ROOT,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr[-3000:]
    again = json.loads((tmp_path / "r.json").read_text())["held_out"]
    for kind, row in shipped["held_out"].items():
        assert again[kind]["decisions"] == row["decisions"]
        net = again[kind]["network"]
        assert abs(net["accuracy"] - row["network"]["accuracy"]) < 0.01, kind
        assert abs(net["log_loss"] - row["network"]["log_loss"]) < 0.02, kind
