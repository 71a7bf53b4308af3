"""A second language: a Node.js script (standard library only) plays a whole duel deal
through ``ecarte engine``, and the deal it reports is the API's deal."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest
from cli_support import ECARTE
from ecarte import duel

SCRIPT = Path(__file__).parents[1] / "examples" / "node" / "play_deal.mjs"
NODE = shutil.which("node")


@pytest.mark.skipif(NODE is None, reason="Node.js is not installed")
@pytest.mark.parametrize("seed", [1, 29])
def test_a_node_client_plays_a_whole_deal_through_ecarte_engine(seed: int) -> None:
    engine = [*ECARTE, "engine"]
    proc = subprocess.run(
        [str(NODE), str(SCRIPT), str(seed), "--", *engine],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    report = json.loads(proc.stdout)
    deal = duel.Deal(seed=seed, dealer=0)
    heuristic = duel.BuiltinAgent("heuristic", 0)
    for action in report["actions"]:
        expected = (
            heuristic(deal.observation(0), deal.legal_actions())
            if deal.current_player == 0
            else deal.legal_actions()[0]
        )
        assert action == str(expected)
        deal.apply(action)
    assert deal.is_over()
    assert report["outcome"]["winner"] == deal.outcome().winner  # type: ignore[union-attr]
    assert duel.Deal.from_json(json.dumps(report["record"])) == deal
