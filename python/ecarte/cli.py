"""The ``ecarte`` command."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import click
import numpy as np
from rich.table import Table

from ecarte.errors import EcarteError
from ecarte.agents import make_agent
from ecarte.display import deal_report
from ecarte.duel import AGENT_SPECS, Deal, Match, Rules, parse_agent, simulate
from ecarte.stats import wilson_interval

class AgentSpec(click.ParamType):  # type: ignore[type-arg]  # generic only in click >= 8.2
    """An agent spec, read by the one native grammar (``ecarte.duel.AGENT_SPECS``)."""

    name = "agent"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> str:
        try:
            parse_agent(value)
        except ValueError:
            self.fail(f"unknown agent {value!r}: choose {AGENT_SPECS}", param, ctx)
        return str(value)


AGENT = AgentSpec()


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="ecarte")
def main() -> None:
    """ecarte: a fast, faithful écarté engine. Run `ecarte COMMAND --help` for details."""


@main.command("match")
@click.option("--seed", type=int, default=1, show_default=True, help="Seed of the match's deals.")
@click.option(
    "--agents",
    nargs=2,
    type=AGENT,
    default=("pimc", "pimc"),
    show_default=True,
    help="The agents in seat 0 and seat 1.",
)
@click.option("--target", type=click.IntRange(1, 100), default=7, show_default=True,
              help="Points that win the match.")
@click.option("--order", type=click.Choice(["ecarte", "traditional"]), default="ecarte",
              show_default=True, help="Rank order.")
@click.option("--first-dealer", type=click.IntRange(0, 1), default=0, show_default=True)
@click.option("--out", type=click.Path(dir_okay=False, path_type=Path),
              help="Save the match record (JSON) to this file.")
@click.option("--quiet", is_flag=True, help="Print only the result.")
def match_command(
    seed: int,
    agents: tuple[str, str],
    target: int,
    order: str,
    first_dealer: int,
    out: Path | None,
    quiet: bool,
) -> None:
    """Play a whole match between two built-in agents and print it deal by deal."""
    names = [f"{agents[0].capitalize()}-0", f"{agents[1].capitalize()}-1"]
    match = Match(seed=seed, first_dealer=first_dealer, rules=Rules(order=order, target=target))
    players = (make_agent(agents[0], seed * 2), make_agent(agents[1], seed * 2 + 1))
    if not quiet:
        click.echo(f"Match to {target}, seed {seed}: {names[0]} v {names[1]} ({order} order)")

    def show(deal: Deal, m: Match) -> None:
        if quiet:
            return
        click.echo(f"\nDeal {m.deals.index(deal) + 1}")
        for line in deal_report(deal, names):
            click.echo(line)
        click.echo(f"  Score: {names[0]} {m.score[0]}, {names[1]} {m.score[1]}")

    result = match.play(*players, on_deal=show)
    click.echo(
        f"\n{names[result.winner]} wins the match {result.score[0]}-{result.score[1]} "
        f"in {len(result.outcomes)} deals."
    )
    if out is not None:
        out.write_text(match.to_json())
        click.echo(f"Record saved to {out}")


#: ``ecarte play --level``: the agent each level plays (see docs/agents.md).
LEVELS = {"easy": "heuristic", "medium": "pimc:8", "hard": "pimc", "expert": "expert"}
#: The strongest level answering within about half a second per move on two cores.
DEFAULT_LEVEL = "expert"


@main.command("play")
@click.option("--level", type=click.Choice(list(LEVELS)), default=DEFAULT_LEVEL,
              show_default=True,
              help="Opponent strength: easy (heuristic), medium (pimc:8), hard (pimc, 24 "
                   "worlds), expert (expert: PIMC with inference).")
@click.option("--opponent", type=AGENT, default=None,
              help="A built-in agent to play against instead of a level.")
@click.option("--seed", type=int, default=None, help="Seed of the match (random if omitted).")
@click.option("--order", type=click.Choice(["ecarte", "traditional"]), default="ecarte",
              show_default=True, help="Rank order.")
@click.option("--target", type=click.IntRange(1, 100), default=7, show_default=True,
              help="Points that win the match.")
@click.option("--seat", type=click.IntRange(0, 1), default=0, show_default=True,
              help="Your seat; seat 0 deals first.")
@click.option("--save", "save_path", type=click.Path(dir_okay=False, path_type=Path),
              help="Save the match record here at the end without asking.")
def play_command(
    level: str,
    opponent: str | None,
    seed: int | None,
    order: str,
    target: int,
    seat: int,
    save_path: Path | None,
) -> None:
    """Play a match against a built-in agent in the terminal.

    Type a card (QH, q♥, 10s), propose/decline/accept/refuse, discard 7C, or a number from
    the list of legal moves. Also: help, hint, undo, quit.
    """
    from rich.console import Console

    from ecarte.play import Game

    opponent = opponent or LEVELS[level]
    console = Console(highlight=False)
    match = Match(seed=seed, rules=Rules(order=order, target=target))
    game = Game(
        match,
        make_agent(opponent, match.seed + 1),
        seat=seat,
        hint_agent=lambda: make_agent(HINT_AGENT, match.seed + 2),
    )
    console.print(f"ecarte: you play {opponent}, match to {target}, seed {match.seed}. "
                  "Type help for the commands.")
    redraw = True
    while True:
        if redraw:
            console.print(game.screen())
        if match.is_over():
            break
        try:
            line = click.prompt("", prompt_suffix="> ", default="", show_default=False)
        except (EOFError, click.Abort):
            line = "quit"
        reply = game.handle(line)
        if reply.message:
            console.print(reply.message)
        if reply.quit:
            break
        redraw = reply.redraw
    _offer_save(match, save_path)


#: The strongest agent gives the hints.
HINT_AGENT = "expert"


def _offer_save(match: Match, save_path: Path | None) -> None:
    if save_path is None:
        try:
            answer = click.prompt("Save the match record to (Enter to skip)", default="",
                                  show_default=False)
        except (EOFError, click.Abort):
            answer = ""
        if not answer.strip():
            return
        save_path = Path(answer.strip())
    save_path.write_text(match.to_json())
    click.echo(f"Record saved to {save_path}")


@main.command("solve")
@click.argument("file", required=False, type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--seed", type=int, default=None,
              help="Solve the deal of this seed instead, played with no exchange.")
@click.option("--dealer", type=click.IntRange(0, 1), default=0, show_default=True,
              help="The dealer, with --seed.")
@click.option("--objective", type=click.Choice(["points", "cards"]), default="points",
              show_default=True, help="Deal points, or the most cards the player can take.")
def solve_command(file: Path | None, seed: int | None, dealer: int, objective: str) -> None:
    """The double-dummy value of a play-phase position, and of every legal action.

    FILE is a deal record (``deal.to_json()``); its position after the recorded actions is
    solved. With --seed, the deal of that seed is solved from its first lead.
    """
    import time

    from rich.console import Console

    from ecarte.duel import action_values, solve

    if (file is None) == (seed is None):
        raise click.UsageError("give a deal record FILE or --seed N (one of them)")
    if file is not None:
        deal = Deal.from_json(file.read_text())
    else:
        deal = Deal(seed=seed, dealer=dealer)
        deal.apply("decline")
    if deal.phase != "play":
        raise EcarteError(f"the position is in the {deal.phase} phase; solve needs the play phase")
    player = deal.current_player
    assert player is not None
    started = time.perf_counter()
    solution = solve(deal, objective)
    elapsed = time.perf_counter() - started
    values = action_values(deal, objective)
    console = Console(highlight=False)
    console.print(f"Trump {deal.trump.symbol}, talon {deal.talon_size} "
                  f"({' '.join(c.pretty() for c in deal.talon)}), seat {player} to play")
    for seat in (0, 1):
        console.print(f"  seat {seat}: {' '.join(c.pretty() for c in deal.hand(seat))}")
    if deal.lead is not None:
        console.print(f"  led: {deal.lead.pretty()}")
    unit = "deal points" if objective == "points" else "cards"
    console.print(f"Value for seat {player}: {solution.value:+d} {unit} "
                  f"({solution.nodes} nodes, {elapsed * 1000:.2f} ms)")
    table = Table(title="Every legal action")
    table.add_column("action")
    table.add_column(unit, justify="right")
    table.add_column("best", justify="center")
    best = set(solution.best_actions)
    for action, value in values:
        table.add_row(str(action), f"{value:+d}", "*" if action in best else "")
    console.print(table)


@main.command("replay")
@click.argument("file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--step", is_flag=True, help="Show one line at a time; Enter for the next.")
def replay_command(file: Path, step: bool) -> None:
    """Show a saved duel deal or match record, all at once or step by step."""
    text = file.read_text()
    try:
        kind = json.loads(text).get("format")
    except (json.JSONDecodeError, AttributeError):
        raise EcarteError(f"{file} is not a JSON record") from None
    names = ["Seat 0", "Seat 1"]
    lines: list[str] = []
    if kind == "ecarte.duel.deal":
        lines = deal_report(Deal.from_json(text), names)
    elif kind == "ecarte.duel.match":
        match = Match.from_json(text)
        lines.append(f"Match to {match.target}, seed {match.seed}")
        score = [0, 0]
        for i, deal in enumerate(match.deals, 1):
            lines.append(f"Deal {i}")
            lines += deal_report(deal, names)
            outcome = deal.outcome()
            if outcome is not None:
                score[outcome.winner] += outcome.points
                lines.append(f"  Score: {names[0]} {score[0]}, {names[1]} {score[1]}")
        if match.winner is not None:
            lines.append(f"{names[match.winner]} wins the match {score[0]}-{score[1]}.")
    else:
        raise EcarteError(f"{file}: unknown record format {kind!r}")
    for line in lines:
        click.echo(line)
        if step:
            answer = click.prompt("", prompt_suffix="(Enter: next, q: quit) ", default="",
                                  show_default=False)
            if answer.strip().lower() == "q":
                break


@main.command("simulate")
@click.option("--deals", "n", type=click.IntRange(1), default=10_000, show_default=True,
              help="Number of deals (or matches with --matches).")
@click.option("--seed", type=int, default=1, show_default=True)
@click.option("--agents", nargs=2, type=AGENT,
              default=("random", "random"), show_default=True, help="Seat 0 and seat 1.")
@click.option("--matches", is_flag=True, help="Play whole matches instead of deals.")
@click.option("--threads", type=click.IntRange(1), default=None,
              help="Worker threads (default: all cores); results do not depend on it.")
@click.option("--order", type=click.Choice(["ecarte", "traditional"]), default="ecarte",
              show_default=True)
def simulate_command(
    n: int, seed: int, agents: tuple[str, str], matches: bool, threads: int | None, order: str
) -> None:
    """Simulate many deals or matches natively and summarise them."""
    from rich.console import Console

    from ecarte.progress import progress_bar

    rules = Rules(order=order)
    chunk = max(1, min(n, 20_000 if not matches else 500))
    parts: list[dict[str, np.ndarray]] = []
    with progress_bar("Simulating", n) as advance:
        for start in range(0, n, chunk):
            size = min(chunk, n - start)
            parts.append(dict(simulate(size, seed, agents, rules, matches, start, threads)))
            advance(size)
    result = {k: np.concatenate([p[k] for p in parts]) for k in parts[0]}
    Console(highlight=False).print(simulation_table(result, agents, matches))


def simulation_table(result: dict[str, np.ndarray], agents: tuple[str, str], matches: bool) -> Table:
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


@main.command("odds")
@click.option("--trump", required=True, help="Trump suit (C, D, H, S or a symbol) or the turn-up card.")
@click.option("--seen", default="", help="Cards already seen, comma-separated, e.g. 5H,KS.")
def odds_command(trump: str, seen: str) -> None:
    """Exact odds of one punter tableau against the banker's, from the shoe minus the seen
    cards (and the turn-up, if given as a card)."""
    from rich.console import Console

    from ecarte import bank

    removed = [c.strip() for c in seen.split(",") if c.strip()]
    odds = bank.odds(trump, removed=removed)
    table = Table(title=f"Bank odds, trump {trump.strip()}, {odds.cards_left} cards left")
    table.add_column("outcome")
    table.add_column("probability", justify="right")
    table.add_column("exact", justify="right")
    for name in ("banker", "en_carte", "punter"):
        table.add_row(name.replace("_", " "), f"{getattr(odds, name):.4%}", str(odds.exact[name]))
    scores = Table(title="Trick scores (banker-punter)")
    scores.add_column("score")
    scores.add_column("probability", justify="right")
    for (b, p), prob in sorted(odds.scores.items()):
        scores.add_row(f"{b}-{p}", f"{prob:.4%}")
    console = Console(highlight=False)
    console.print(table)
    console.print(scores)


@main.command("bank")
@click.option("--players", type=click.IntRange(2, 20), default=4, show_default=True)
@click.option("--bank", "bank_size", type=click.IntRange(1), default=100, show_default=True)
@click.option("--stake", type=click.IntRange(1), default=10, show_default=True,
              help="The fixed stake on T2 and T3.")
@click.option("--chips", type=click.IntRange(1), default=1000, show_default=True,
              help="Each player's chips at the start.")
@click.option("--deals", type=click.IntRange(1), default=50, show_default=True)
@click.option("--mode", type=click.Choice(["banking", "open"]), default="banking", show_default=True)
@click.option("--seed", type=int, default=1, show_default=True)
@click.option("--plot", type=click.Path(dir_okay=False, path_type=Path),
              help="Draw each player's chips over the deals to a PNG (needs matplotlib).")
@click.option("--out", type=click.Path(dir_okay=False, path_type=Path),
              help="Save the session record (JSON).")
def bank_command(
    players: int, bank_size: int, stake: int, chips: int, deals: int, mode: str, seed: int,
    plot: Path | None, out: Path | None,
) -> None:
    """Simulate a banking session and print its ledger."""
    from rich.console import Console

    from ecarte import bank
    from ecarte.bank_session import play_session

    names = [f"P{i + 1}" for i in range(players)]
    table = bank.Table(names, bank=bank_size, fixed_stake=stake, chips=chips, mode=mode, seed=seed)  # type: ignore[arg-type]
    history = play_session(table, deals, seed)
    ledger = Table(title=f"Banking session, seed {seed}")
    ledger.add_column("deal", justify="right")
    ledger.add_column("banker")
    ledger.add_column("bank", justify="right")
    for name in names:
        ledger.add_column(name, justify="right")
    ledger.add_column("event")
    for entry in history:
        ledger.add_row(str(entry.deal), entry.banker, str(entry.bank),
                       *(str(entry.chips[p]) for p in names), entry.event)
    Console(highlight=False).print(ledger)
    click.echo(f"Chips + bank: {table.total_chips} (start {players * chips})")
    if out is not None:
        out.write_text(table.to_json())
        click.echo(f"Record saved to {out}")
    if plot is not None:
        plot_bankrolls(history, names, plot)
        click.echo(f"Chart saved to {plot}")


def plot_bankrolls(history: list[Any], names: list[str], path: Path) -> None:
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise click.UsageError("--plot needs matplotlib: pip install 'ecarte[plot]'") from None
    fig, ax = plt.subplots(figsize=(8, 4.5))
    deals = [e.deal for e in history]
    for name in names:
        ax.plot(deals, [e.chips[name] for e in history], label=name)
    ax.set_xlabel("deal")
    ax.set_ylabel("chips")
    ax.set_title("Bankrolls over the session")
    ax.legend()
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


@main.command("bench")
@click.option("--full", is_flag=True, help="Longer runs, steadier figures.")
def bench_command(full: bool) -> None:
    """Time ecarte against the pure-Python reference (and OpenSpiel, when installed), side by
    side in one run, and print the ratios."""
    import platform

    from ecarte.bench import format_table, run_benchmarks

    click.echo(f"python {platform.python_version()} on {platform.machine()}, "
               f"{'full' if full else 'quick'} run")
    click.echo(format_table(run_benchmarks(full=full)))


@main.command("arena")
@click.argument("agent_a", type=AGENT)
@click.argument("agent_b", type=AGENT)
@click.option("--matches", type=click.IntRange(1), default=100, show_default=True,
              help="Seeds; each is played twice with seats and cards swapped.")
@click.option("--seed", type=int, default=0, show_default=True)
@click.option("--workers", type=click.IntRange(1), default=1, show_default=True,
              help="Processes playing seeds in parallel.")
@click.option("--samples", type=click.IntRange(1), default=None,
              help="Worlds per PIMC decision (default: the agent's default).")
@click.option("--target", type=click.IntRange(1, 100), default=7, show_default=True)
@click.option("--order", type=click.Choice(["ecarte", "traditional"]), default="ecarte",
              show_default=True)
def arena_command(
    agent_a: str,
    agent_b: str,
    matches: int,
    seed: int,
    workers: int,
    samples: int | None,
    target: int,
    order: str,
) -> None:
    """Duplicate matches between AGENT_A and AGENT_B, with 95% confidence intervals."""
    from ecarte.arena import play

    def spec(name: str) -> str:
        return f"pimc:{samples}" if name == "pimc" and samples else name

    result = play(spec(agent_a), spec(agent_b), matches=matches, seed=seed, workers=workers,
                  rules=Rules(order=order, target=target), progress=True)
    click.echo(result.table())


def run() -> None:
    try:
        main()
    except EcarteError as exc:
        click.echo(f"error: {exc}", err=True)
        sys.exit(2)
