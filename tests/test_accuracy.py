"""Strength measured by accuracy: ``benches/accuracy.py`` run as a subprocess on the first
deals of the fixed decision set with a tiny judge. Its values are ``duel.analyse``'s
``values_info`` and its losses ``analyse``'s ``loss_info``, so the two mean the same."""

from __future__ import annotations

import gzip
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from ecarte.duel import AGENTS, LEVELS, Deal, analyse

ROOT = Path(__file__).parent.parent
SCRIPT = ROOT / "benches" / "accuracy.py"
FIXTURE = ROOT / "tests" / "data" / "decisions_v1.jsonl.gz"
WORLDS = 6


def first_deals(path: Path, count: int) -> Path:
    """A decision set of the fixture's first ``count`` deals."""
    with gzip.open(FIXTURE, "rt") as lines:
        head = [next(lines) for _ in range(count)]
    with gzip.open(path, "wt") as out:
        out.write("".join(head))
    return path


def run(*args: str) -> list[dict[str, Any]]:
    done = subprocess.run(
        [sys.executable, str(SCRIPT), "--judge-worlds", str(WORLDS), *args],
        capture_output=True,
        text=True,
        timeout=600,
        check=True,
    )
    assert "judged" in done.stderr
    return [json.loads(line) for line in done.stdout.splitlines()]


@pytest.fixture(scope="module")
def small_set(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return first_deals(tmp_path_factory.mktemp("accuracy") / "set.jsonl.gz", 2)


@pytest.fixture(scope="module")
def output(small_set: Path) -> list[dict[str, Any]]:
    return run("--set", str(small_set), "--seed", "3")


def test_every_registry_agent_is_judged_on_every_decision_with_a_choice(
    output: list[dict[str, Any]], small_set: Path
) -> None:
    specs = {info.name for info in AGENTS} | set(LEVELS.values())
    decisions = [r for r in output if "decision" in r]
    agents = [r for r in output if "agent" in r]
    summary = output[-1]
    assert {a["agent"] for a in agents} == specs
    for record in decisions:
        assert len(record["legal"]) > 1 and len(record["values"]) == len(record["legal"])
        assert set(record["agents"]) == specs
        best = max(record["values"])
        for choice in record["agents"].values():
            assert choice["action"] in record["legal"]
            taken = record["values"][record["legal"].index(choice["action"])]
            assert choice["loss"] == pytest.approx(best - taken) and choice["loss"] >= 0
    for a in agents:
        assert a["decisions"] == len(decisions) > 0
        assert 0 <= a["accuracy"] <= 1 and a["mean_loss"] >= 0 and a["cpu_seconds"] >= 0
        losses = [r["agents"][a["agent"]]["loss"] for r in decisions]
        assert a["accuracy"] == sum(loss <= summary["epsilon"] for loss in losses) / len(losses)
    assert summary["judge"] == f"master:{WORLDS}" and summary["decisions"] == len(decisions)
    assert summary["judge_seed"] == 4 and summary["judge_cpu_seconds"] > 0
    for key in ("spearman_accuracy", "spearman_mean_loss"):
        assert -1 <= summary[key] <= 1
    # Every agent is ranked against its points in the ladder of docs/agents.md.
    assert summary["ranked_agents"] == [a["agent"] for a in agents]
    ladder = {a["agent"]: a["ladder"] for a in agents}
    assert ladder["heuristic"] == 0 and ladder["random"] < 0 < ladder["master"]


def test_the_judge_values_as_analyse_does(output: list[dict[str, Any]], small_set: Path) -> None:
    """Each decision's values are ``analyse``'s ``values_info`` with the judge's seed, and the
    loss of the action played there is its ``loss_info``."""
    with gzip.open(small_set, "rt") as lines:
        records = [json.loads(line) for line in lines]
    plies: list[tuple[int, int]] = []
    analyses = []
    for number, record in enumerate(records):
        deal = Deal.from_deck(record["deck"].split(), dealer=record["dealer"])
        for action in record["actions"]:
            deal.apply(action)
        analyses.append(analyse(deal, worlds=WORLDS, seed=output[-1]["judge_seed"]))
        plies += [(number, ply) for ply in range(len(record["actions"]))]
    compared = 0
    for record in (r for r in output if "decision" in r):
        number, ply = plies[record["decision"]]
        d = analyses[number].deals[0].decisions[ply]
        assert [str(a) for a in d.legal] == record["legal"]
        assert list(d.values_info) == record["values"]
        played = record["values"][record["legal"].index(str(d.action))]
        assert max(record["values"]) - played == pytest.approx(d.loss_info)
        compared += 1
    assert compared == len(analyses[0].deals[0].decisions) + len(
        analyses[1].deals[0].decisions
    ) - sum(d.forced for a in analyses for d in a.deals[0].decisions)


def test_the_same_seed_gives_the_same_judgement(
    output: list[dict[str, Any]], small_set: Path
) -> None:
    again = run("--set", str(small_set), "--seed", "3", "--decisions", "7")
    decisions = [r for r in again if "decision" in r]
    assert len(decisions) == 7 == again[-1]["decisions"]
    first = {r["decision"]: r for r in output if "decision" in r}
    for record in decisions:
        assert record == first[record["decision"]]
    other = run("--set", str(small_set), "--seed", "4", "--decisions", "7")
    assert [r["decision"] for r in other[:7]] != [r["decision"] for r in decisions]


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["--decisions", "0"], "at least 1"),
        (["--judge-worlds", "10001"], "10000"),
        (["--agents", "random,nobody"], "nobody"),
        (["--set", "/no/such/set.jsonl.gz"], "set.jsonl.gz"),
    ],
)
def test_bad_arguments_are_refused_with_status_2(args: list[str], says: str) -> None:
    done = subprocess.run(
        [sys.executable, str(SCRIPT), *args], capture_output=True, text=True, timeout=600
    )
    assert done.returncode == 2 and says in done.stderr, done.stderr
    assert "Traceback" not in done.stderr and not done.stdout
