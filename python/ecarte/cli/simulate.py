"""Agents against agents in bulk: ``ecarte simulate`` (native deals or matches) and
``ecarte arena`` (duplicate matches with confidence intervals), locally or on Ray."""

from __future__ import annotations

import click
import numpy as np
from rich.table import Table

from ecarte import MAX_THREADS
from ecarte.cli.common import (
    AGENT,
    MAX_ARENA_MATCHES,
    MAX_SAMPLES,
    MAX_SIMULATED,
    MAX_WORKERS,
    ORDER_OPTION,
    SEED,
    TARGET_OPTION,
    backend_of,
    ray_option,
)
from ecarte.duel import Rules, simulate
from ecarte.stats import wilson_interval


@click.command("simulate")
@click.option(
    "--deals",
    "n",
    type=click.IntRange(1, MAX_SIMULATED),
    default=10_000,
    show_default=True,
    help="Number of deals (or matches with --matches).",
)
@click.option("--seed", type=SEED, default=1, show_default=True)
@click.option(
    "--agents",
    nargs=2,
    type=AGENT,
    default=("random", "random"),
    show_default=True,
    help="Seat 0 and seat 1.",
)
@click.option("--matches", is_flag=True, help="Play whole matches instead of deals.")
@click.option(
    "--threads",
    type=click.IntRange(1, MAX_THREADS),
    default=None,
    help="Worker threads (default: all cores); results do not depend on it.",
)
@ORDER_OPTION
@ray_option
def simulate_command(
    n: int,
    seed: int,
    agents: tuple[str, str],
    matches: bool,
    threads: int | None,
    order: str,
    ray_address: str | None,
) -> None:
    """Simulate many deals or matches natively and summarise them."""
    from rich.console import Console

    from ecarte.progress import progress_bar

    rules = Rules(order=order)
    if ray_address is not None:
        backend = backend_of(ray_address)  # the bar shows when stderr is a terminal
        ran = simulate(
            n, seed, agents, rules, matches, threads=threads, backend=backend, progress=None
        )
        Console(highlight=False).print(simulation_table(dict(ran), agents, matches))
        return
    chunk = max(1, min(n, 20_000 if not matches else 500))
    parts: list[dict[str, np.ndarray]] = []
    with progress_bar("Simulating", n) as advance:
        for start in range(0, n, chunk):
            size = min(chunk, n - start)
            parts.append(dict(simulate(size, seed, agents, rules, matches, start, threads)))
            advance(size)
    result = {k: np.concatenate([p[k] for p in parts]) for k in parts[0]}
    Console(highlight=False).print(simulation_table(result, agents, matches))


def simulation_table(
    result: dict[str, np.ndarray], agents: tuple[str, str], matches: bool
) -> Table:
    """Win rates with 95% intervals, mean points and more, per seat."""
    n = len(result["winner"])
    table = Table(title=f"{n} {'matches' if matches else 'deals'}")
    table.add_column("")
    table.add_column(f"seat 0 ({agents[0]})", justify="right")
    table.add_column(f"seat 1 ({agents[1]})", justify="right")
    wins = [(result["winner"] == s) for s in (0, 1)]
    table.add_row("win rate", *(rate_text(w) for w in wins))
    if matches:
        table.add_row("mean final score", *(f"{result['score'][:, s].mean():.2f}" for s in (0, 1)))
        table.add_row("mean deals per match", f"{result['deals'].mean():.2f}", "")
    else:
        points = [np.where(w, result["points"], 0) for w in wins]
        table.add_row("points per deal", *(f"{p.mean():.3f}" for p in points))
        table.add_row("voles", *(f"{(w & (result['points'] == 2)).mean():.2%}" for w in wins))
        table.add_row("mean exchanges", f"{result['exchanges'].mean():.2f}", "")
    return table


def rate_text(hits: np.ndarray) -> str:
    low, high = wilson_interval(int(hits.sum()), len(hits))
    return f"{hits.mean():.1%} [{low:.1%}, {high:.1%}]"


@click.command("arena")
@click.argument("agent_a", type=AGENT)
@click.argument("agent_b", type=AGENT)
@click.option(
    "--matches",
    type=click.IntRange(1, MAX_ARENA_MATCHES),
    default=100,
    show_default=True,
    help="Seeds; each is played twice with seats and cards swapped.",
)
@click.option("--seed", type=SEED, default=0, show_default=True)
@click.option(
    "--workers",
    type=click.IntRange(1, MAX_WORKERS),
    default=1,
    show_default=True,
    help="Processes playing seeds in parallel.",
)
@click.option(
    "--samples",
    type=click.IntRange(1, MAX_SAMPLES),
    default=None,
    help="Worlds per PIMC decision (default: the agent's default).",
)
@TARGET_OPTION
@ORDER_OPTION
@ray_option
def arena_command(
    agent_a: str,
    agent_b: str,
    matches: int,
    seed: int,
    workers: int,
    samples: int | None,
    target: int,
    order: str,
    ray_address: str | None,
) -> None:
    """Duplicate matches between AGENT_A and AGENT_B, with 95% confidence intervals."""
    from ecarte.arena import play

    def spec(name: str) -> str:
        return f"pimc:{samples}" if name == "pimc" and samples else name

    result = play(
        spec(agent_a),
        spec(agent_b),
        matches=matches,
        seed=seed,
        workers=workers,
        rules=Rules(order=order, target=target),
        progress=True,
        backend=backend_of(ray_address),
    )
    click.echo(result.table())
