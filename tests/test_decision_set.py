"""The search agents decide as they did: every decision of the fixed decision set
(``tests/data/decisions_v1.jsonl.gz``, recorded at ``25f6f57`` by ``python
benches/decision_set.py make``) gives the recorded values, exactly, for PIMC's and the
expert's evaluators, so the same actions. A fast subset runs by default, the whole set of
3,586 decisions with ``ECARTE_SLOW=1``."""

from __future__ import annotations

import importlib.util
import os
import sys
from pathlib import Path
from types import ModuleType

from ecarte.duel import BuiltinAgent, expert_values, pimc_values

ROOT = Path(__file__).parent.parent
FIXTURE = ROOT / "tests" / "data" / "decisions_v1.jsonl.gz"


def load_decision_set() -> ModuleType:
    path = ROOT / "benches" / "decision_set.py"
    spec = importlib.util.spec_from_file_location("decision_set", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["decision_set"] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def test_the_recorded_decisions_are_decided_the_same() -> None:
    decision_set = load_decision_set()
    every = 1 if os.environ.get("ECARTE_SLOW") else 12
    checked = {"exchange": 0, "play": 0}
    for d in decision_set.load(FIXTURE, every):
        for name, evaluate in (("pimc", pimc_values), ("expert", expert_values)):
            now = [(a.id, v) for a, v in evaluate(d.observation, decision_set.SAMPLES, d.seed)]
            recorded = getattr(d, name)
            assert now == recorded, f"{name} at seed {d.seed}"
            assert decision_set.chosen(now) == decision_set.chosen(recorded)
        checked[d.phase] += 1
    assert checked["exchange"] >= (600 if every == 1 else 40)
    assert checked["play"] >= (2900 if every == 1 else 200)


def test_the_agents_choose_the_best_of_their_values() -> None:
    """An agent searches for its choice alone, ruling out actions that its worlds prove
    worse (``docs/agents.md``): at every decision of the set (every 12th by default) each
    search agent plays the best of the values that ``BuiltinAgent.values`` gives, ties to
    the lowest action id."""
    decision_set = load_decision_set()
    every = 1 if os.environ.get("ECARTE_SLOW") else 12
    agents = [BuiltinAgent(spec, 5) for spec in ("pimc", "expert", "master")]
    decided = 0
    for d in decision_set.load(FIXTURE, every):
        for agent in agents:
            values = [(a.id, v) for a, v in agent.values(d.observation)]
            assert agent(d.observation, d.legal).id == decision_set.chosen(values), agent.spec
        decided += 1
    assert decided >= (3500 if every == 1 else 290)
