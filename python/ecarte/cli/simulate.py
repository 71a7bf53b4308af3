"""Agents against agents in bulk: ``ecarte simulate`` (native deals or matches) and
``ecarte arena`` (duplicate matches with confidence intervals), locally or on Ray."""

from __future__ import annotations

from collections.abc import Mapping

import click
import numpy as np
from rich.table import Table

from ecarte import MAX_SAMPLES
from ecarte.cli.common import (
    AGENT,
    MAX_ARENA_MATCHES,
    MAX_SIMULATED,
    MAX_WORKERS,
    ORDER_OPTION,
    SEED,
    TARGET_OPTION,
    THREADS_OPTION,
    Whole,
    backend_of,
    console,
    fail,
    ray_option,
)
from ecarte.display import counted
from ecarte.duel import AGENT_SPECS, AGENTS, DEALS_PER_MATCH, Rules, parse_agent, simulate
from ecarte.stats import wilson_interval


def agents_help() -> str:
    """The built-in agents of the registry, one sentence each, for the commands' help."""
    rows = []
    for agent in AGENTS:
        if agent.searches:
            rows.append(
                f"{agent.name} or {agent.name}:N ({agent.description}; N from 1 to "
                f"{agent.max_worlds}, {agent.default_worlds} by default)"
            )
        else:
            rows.append(f"{agent.name} ({agent.description})")
    return "Built-in agents: " + "; ".join(rows) + "."


#: The search agents, for ``--samples``'s help.
SEARCH_AGENTS = ", ".join(agent.name for agent in AGENTS if agent.searches)


@click.command("simulate")
@click.option(
    "--deals",
    "n",
    type=Whole(1, MAX_SIMULATED),
    default=10_000,
    show_default=True,
    help="Number of deals (or matches with --matches).",
)
@click.option("--seed", type=SEED, default=1, show_default=True, help="Seed of the run's deals.")
@click.option(
    "--agents",
    nargs=2,
    type=AGENT,
    default=("random", "random"),
    show_default=True,
    help=f"The agents of seat 0 and seat 1: {', '.join(AGENT_SPECS)} (N worlds per "
    "decision); `ecarte arena --help` says what each is.",
)
@click.option("--matches", is_flag=True, help="Play whole matches instead of deals.")
@THREADS_OPTION
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

    from ecarte.distributed import chunks
    from ecarte.duel import simulate_item_seconds
    from ecarte.progress import progress_bar, run_seconds

    rules = Rules(order=order)
    tally = Tally(matches)
    if ray_address is not None:
        backend = backend_of(ray_address)  # the bar shows when stderr is a terminal
        tally.add(simulate(n, seed, agents, rules, matches, threads=threads, backend=backend))
    else:
        seconds = run_seconds(simulate_item_seconds(agents, matches), n, threads)
        with progress_bar("Matches" if matches else "Deals", n, seconds=seconds) as bar:
            for piece in chunks(n, PIECE):

                def played(deals: int, size: int = piece.n) -> None:
                    if matches:
                        estimate = min(deals / DEALS_PER_MATCH, 0.99 * size)
                        bar.running(estimate, f"{bar.noted + deals:,} deals", counted=False)
                    else:
                        bar.running(deals)

                run = simulate(
                    piece.n, seed, agents, rules, matches, piece.start, threads, on_progress=played
                )
                tally.add(run)
                if matches:
                    bar.noted += int(run["deals"].sum())
                bar(piece.n)
    console().print(simulation_table(tally, agents))


#: Deals (or matches) per native call of a local ``simulate``: their columns are summed
#: into a :class:`Tally` and dropped, so a billion deals need no more memory than this.
PIECE = 1_000_000


class Tally:
    """The sums behind the summary table, over the pieces of a run."""

    def __init__(self, matches: bool) -> None:
        self.matches = matches
        self.n = 0
        self.wins = [0, 0]
        self.points = [0, 0]  # deals: points won by each seat; matches: final scores
        self.voles = [0, 0]
        self.extra = 0  # deals: exchanges; matches: deals played

    def add(self, run: Mapping[str, np.ndarray]) -> None:
        winner = run["winner"]
        self.n += len(winner)
        for seat in (0, 1):
            won = winner == seat
            self.wins[seat] += int(won.sum())
            if self.matches:
                self.points[seat] += int(run["score"][:, seat].sum(dtype=np.int64))
            else:
                self.points[seat] += int(np.where(won, run["points"], 0).sum(dtype=np.int64))
                self.voles[seat] += int((won & (run["points"] == 2)).sum())
        self.extra += int(run["deals" if self.matches else "exchanges"].sum(dtype=np.int64))


def simulation_table(tally: Tally, agents: tuple[str, str]) -> Table:
    """Win rates with 95% intervals, mean points and more, per seat."""
    n = tally.n
    table = Table(title=counted(n, "match" if tally.matches else "deal"))
    table.add_column("")
    table.add_column(f"seat 0 ({agents[0]})", justify="right")
    table.add_column(f"seat 1 ({agents[1]})", justify="right")
    table.add_row("win rate", *(rate_text(w, n) for w in tally.wins))
    if tally.matches:
        table.add_row("mean final score", *(f"{p / n:.2f}" for p in tally.points))
        table.add_row("mean deals per match", f"{tally.extra / n:.2f}", "")
    else:
        table.add_row("points per deal", *(f"{p / n:.3f}" for p in tally.points))
        table.add_row("voles", *(f"{v / n:.2%}" for v in tally.voles))
        table.add_row("mean exchanges", f"{tally.extra / n:.2f}", "")
    return table


def rate_text(hits: int, n: int) -> str:
    low, high = wilson_interval(hits, n)
    return f"{hits / n:.1%} [{low:.1%}, {high:.1%}]"


@click.command(
    "arena",
    help="Duplicate matches between AGENT_A and AGENT_B, with 95% confidence intervals.\n\n"
    + agents_help(),
)
@click.argument("agent_a", type=AGENT)
@click.argument("agent_b", type=AGENT)
@click.option(
    "--matches",
    type=Whole(1, MAX_ARENA_MATCHES),
    default=100,
    show_default=True,
    help="Seeds; each is played twice with seats and cards swapped.",
)
@click.option("--seed", type=SEED, default=0, show_default=True, help="Seed of the run's deals.")
@click.option(
    "--workers",
    type=Whole(1, MAX_WORKERS),
    default=1,
    show_default=True,
    help="Processes playing seeds in parallel (agents that are not built in).",
)
@click.option(
    "--samples",
    type=Whole(1, MAX_SAMPLES),
    default=None,
    help=f"Worlds per decision of each search agent named without a count ({SEARCH_AGENTS}).",
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
    from ecarte.arena import ArenaInterrupted, play

    specs = with_samples((agent_a, agent_b), samples)
    try:
        result = play(
            *specs,
            matches=matches,
            seed=seed,
            workers=workers,
            rules=Rules(order=order, target=target),
            backend=backend_of(ray_address),
        )
    except ArenaInterrupted as stop:
        done = 0 if stop.partial is None else stop.partial.pairs
        if stop.partial is not None:
            click.echo(stop.partial.table())
        click.echo(f"partial result: {done} of {matches} seeds finished before Ctrl-C")
        raise
    click.echo(result.table())


def with_samples(specs: tuple[str, str], samples: int | None) -> tuple[str, str]:
    """The agent specs with ``--samples N`` given to each search agent named without a
    count (``pimc`` becomes ``pimc:N``); refused when no agent takes it or one names its
    own count, rather than silently ignored."""
    if samples is None:
        return specs
    searching = [parse_agent(spec)[1] is not None for spec in specs]
    if not any(searching):
        fail(f"--samples {samples}: neither {specs[0]} nor {specs[1]} samples worlds")
    for spec, search in zip(specs, searching, strict=True):
        if search and ":" in spec:
            fail(f"--samples {samples} and {spec} both give worlds per decision: give one")
    first, second = (
        f"{spec}:{samples}" if search else spec
        for spec, search in zip(specs, searching, strict=True)
    )
    return first, second
