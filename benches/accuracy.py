"""Strength measured by accuracy (docs/agents.md, "The ladder"): each built-in agent's
choices on the fixed decision set, judged by a deep reference.

    RAYON_NUM_THREADS=1 nice -n 10 python benches/accuracy.py \\
      [--judge-worlds W] [--decisions N] [--seed S] [--agents SPEC,...] [--set PATH]

The judge values every legal action of a decision under the mover's information exactly
as ``duel.analyse`` does: ``master_values`` over W worlds (400 by default), seeded by
``decision_seed(S + 1, observation)``; each agent is made for each decision with the seed
``decision_seed(S, observation)``, so the judge never shares an agent's worlds and a
decision's judgement does not depend on the sample it is in. Each decision's values are
computed once and every agent's choice is read against them. As in ``duel.analyse``, an
action's ``loss_info`` is the highest value minus its own, only decisions with a choice
(more than one legal action) count, and a decision is accurate when its ``loss_info`` is 0
(:data:`EPSILON` absorbs float rounding only; values that differ do so by far more).

The agents are the registry's (``duel.AGENTS``, at their default worlds) and the specs of
the levels (``duel.LEVELS``), weakest first, unless ``--agents`` names others. With
``--decisions N`` a seeded sample of N of the set's decisions with a choice is judged, in
the set's order. Output: JSON lines on stdout, one per decision (the judge's values and
each agent's action and loss), then one per agent (accuracy, mean loss, CPU seconds), then
a summary (the judge, its worlds and seed, the decisions, the judge's CPU seconds and
Spearman's rank correlation of accuracy and of mean loss with the arena ladder of
docs/agents.md). Progress goes to stderr.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import re
import sys
import time
from pathlib import Path
from typing import Any

from decision_set import Decision, load
from ecarte.agents import make_agent
from ecarte.duel import AGENTS, LEVELS, decision_seed, master_values

ROOT = Path(__file__).resolve().parent.parent
SET = ROOT / "tests" / "data" / "decisions_v1.jsonl.gz"
LADDER = ROOT / "docs" / "agents.md"
JUDGE = "master"
EPSILON = 1e-9


def default_specs() -> list[str]:
    """The registry's agents, then any level's spec not among them, weakest first as the
    arena ladder orders them (a level's worlds place it after its agent's fewer-worlds
    default otherwise)."""
    specs = [info.name for info in AGENTS]
    for spec in LEVELS.values():
        if spec not in specs:
            name = spec.split(":")[0]
            specs.insert(specs.index(name) if name in specs else len(specs), spec)
    return specs


def ladder_points(path: Path) -> dict[str, float]:
    """Points per deal against the heuristic of each agent of the arena ladder: the first
    table under the page's "The ladder" heading."""
    points: dict[str, float] = {}
    row = re.compile(r"^\| `([a-z]+(?::\d+)?)`[^|]*\| ([+−-]?\d+(?:\.\d+)?)")
    section = path.read_text(encoding="utf-8").split("## The ladder", 1)[-1]
    table = section.split("\n|", 1)[-1].split("\n\n", 1)[0]
    for line in ("|" + table).splitlines():
        if found := row.match(line):
            spec, value = found.groups()
            points[spec] = float(value.replace("−", "-"))
    return points


def ranks(values: list[float]) -> list[float]:
    """Ranks from 1, ties given their mean rank."""
    order = sorted(range(len(values)), key=lambda i: values[i])
    out = [0.0] * len(values)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and values[order[j + 1]] == values[order[i]]:
            j += 1
        for k in range(i, j + 1):
            out[order[k]] = (i + j) / 2 + 1
        i = j + 1
    return out


def spearman(xs: list[float], ys: list[float]) -> float | None:
    """Spearman's rank correlation (Pearson's on the ranks); None when undefined."""
    if len(xs) < 2:
        return None
    rx, ry = ranks(xs), ranks(ys)
    mx, my = sum(rx) / len(rx), sum(ry) / len(ry)
    cov = sum((a - mx) * (b - my) for a, b in zip(rx, ry, strict=True))
    var = math.sqrt(sum((a - mx) ** 2 for a in rx) * sum((b - my) ** 2 for b in ry))
    return cov / var if var else None


def chosen_decisions(path: Path, count: int | None, seed: int) -> list[tuple[int, Decision]]:
    """The set's decisions with a choice, each with its index in the whole set; a seeded
    sample of ``count`` of them, in the set's order."""
    every = [(i, d) for i, d in enumerate(load(path)) if len(d.legal) > 1]
    if count is None or count >= len(every):
        return every
    picked = sorted(random.Random(seed).sample(range(len(every)), count))
    return [every[i] for i in picked]


def emit(record: dict[str, Any]) -> None:
    print(json.dumps(record, separators=(",", ":")), flush=True)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument(
        "--judge-worlds", type=int, default=400, metavar="W", help="the judge's worlds (400)"
    )
    parser.add_argument(
        "--decisions", type=int, metavar="N", help="a seeded sample of N decisions (all)"
    )
    parser.add_argument("--seed", type=int, default=1, metavar="S", help="the seed (1)")
    parser.add_argument("--agents", metavar="SPEC,...", help="the agents (the registry's)")
    parser.add_argument("--set", type=Path, default=SET, metavar="PATH", help="a decision set")
    args = parser.parse_args(argv)
    if args.judge_worlds < 1 or (args.decisions is not None and args.decisions < 1):
        parser.error("--judge-worlds and --decisions must be at least 1")
    specs = args.agents.split(",") if args.agents else default_specs()
    judge_seed = args.seed + 1
    try:
        for spec in [*specs, f"{JUDGE}:{args.judge_worlds}"]:
            make_agent(spec, args.seed)
        decisions = chosen_decisions(args.set, args.decisions, args.seed)
    except (ValueError, OSError) as e:
        parser.error(str(e))

    losses: dict[str, list[float]] = {spec: [] for spec in specs}
    agent_cpu = dict.fromkeys(specs, 0.0)
    judge_cpu = 0.0
    step = max(1, len(decisions) // 20)
    for n, (index, d) in enumerate(decisions, 1):
        start = time.process_time()
        values = dict(
            master_values(
                d.observation, args.judge_worlds, decision_seed(judge_seed, d.observation)
            )
        )
        judge_cpu += time.process_time() - start
        best = max(values.values())
        record: dict[str, Any] = {
            "decision": index,
            "phase": d.phase,
            "legal": [str(a) for a in d.legal],
            "values": [values[a] for a in d.legal],
            "agents": {},
        }
        # Each agent is seeded per decision, so that an agent that draws from a stream
        # (random) chooses the same on a decision whatever sample it is judged in.
        agent_seed = decision_seed(args.seed, d.observation)
        for spec in specs:
            start = time.process_time()
            action = make_agent(spec, agent_seed)(d.observation, d.legal)
            agent_cpu[spec] += time.process_time() - start
            loss = best - values[action]
            losses[spec].append(loss)
            record["agents"][spec] = {"action": str(action), "loss": loss}
        emit(record)
        if n % step == 0 or n == len(decisions):
            print(
                f"judged {n}/{len(decisions)} decisions, judge {judge_cpu:.1f} s CPU",
                file=sys.stderr,
                flush=True,
            )

    ladder = ladder_points(LADDER)
    summaries = []
    for spec in specs:
        own = losses[spec]
        summary = {
            "agent": spec,
            "decisions": len(own),
            "accuracy": sum(loss <= EPSILON for loss in own) / len(own) if own else None,
            "mean_loss": sum(own) / len(own) if own else None,
            "cpu_seconds": agent_cpu[spec],
            "ladder": ladder.get(spec),
        }
        summaries.append(summary)
        emit(summary)
    ranked = [s for s in summaries if s["ladder"] is not None and s["accuracy"] is not None]
    points = [s["ladder"] for s in ranked]
    emit(
        {
            "judge": f"{JUDGE}:{args.judge_worlds}",
            "judge_seed": judge_seed,
            "agent_seed": args.seed,
            "decisions": len(decisions),
            "set": args.set.name,
            "judge_cpu_seconds": judge_cpu,
            "epsilon": EPSILON,
            "ranked_agents": [s["agent"] for s in ranked],
            "spearman_accuracy": spearman([s["accuracy"] for s in ranked], points),
            "spearman_mean_loss": spearman([-s["mean_loss"] for s in ranked], points),
        }
    )


if __name__ == "__main__":
    try:
        main()
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        sys.exit(130)
