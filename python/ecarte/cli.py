"""The ``ecarte`` command."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any, NoReturn

import click
import numpy as np
from rich.table import Table

from ecarte._core import MAX_THREADS
from ecarte.agents import make_agent
from ecarte.display import deal_report
from ecarte.duel import AGENT_SPECS, Deal, Match, Rules, parse_agent, simulate
from ecarte.errors import EcarteError
from ecarte.seeding import agent_seed
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

#: Options several commands share, defined once.
ORDER_OPTION = click.option(
    "--order",
    type=click.Choice(["ecarte", "traditional"]),
    default="ecarte",
    show_default=True,
    help="Rank order.",
)
TARGET_OPTION = click.option(
    "--target",
    type=click.IntRange(1, 100),
    default=7,
    show_default=True,
    help="Points that win the match.",
)

#: Every ``--seed``: a whole number from 0 to 2**64 - 1, checked before any work.
SEED = click.IntRange(0, 2**64 - 1)

#: What a bad input raises; the command reports it in one line and exits with status 2.
USER_ERRORS = (EcarteError, ValueError, OSError, UnicodeError, OverflowError, RecursionError)

#: Upper bounds of the CLI's sizes, so that a typo cannot start a machine-filling run: worker
#: threads (the engine's own ``MAX_THREADS``), worker processes (``arena --workers``) and
#: worlds per PIMC decision (``arena --samples``).
MAX_WORKERS = 64
MAX_SAMPLES = 10_000
#: ... and of the run lengths: deals of ``simulate``, seeds of ``arena``, deals of ``bank``.
MAX_SIMULATED = 10**9
MAX_ARENA_MATCHES = 10**6
MAX_BANK_DEALS = 10**6

#: The chart formats ``--plot`` writes (by file name extension).
PLOT_SUFFIXES = (
    ".png",
    ".pdf",
    ".svg",
    ".svgz",
    ".eps",
    ".ps",
    ".jpg",
    ".jpeg",
    ".tif",
    ".tiff",
    ".webp",
)

DEAL_FORMAT = "ecarte.duel.deal"
MATCH_FORMAT = "ecarte.duel.match"
RECORD_KINDS = {
    DEAL_FORMAT: "a duel deal record",
    MATCH_FORMAT: "a duel match record",
    "ecarte.bank.session": "a banking session record",
}


class OneLineError(click.ClickException):
    """A bad input: ``error: ...`` in one line on stderr, status 2."""

    exit_code = 2

    def show(self, file: Any = None) -> None:
        click.echo(f"error: {self.format_message()}", err=True)


def one_line(text: object) -> str:
    return " ".join(str(text).split())


def _usage_error(exc: click.UsageError) -> OneLineError:
    hint = f" (see '{exc.ctx.command_path} --help')" if exc.ctx is not None else ""
    return OneLineError(one_line(exc.format_message()) + hint)


class EcarteGroup(click.Group):
    """Reports every bad input, click's own usage errors included, in one line with status
    2, never with a traceback."""

    def make_context(self, *args: Any, **kwargs: Any) -> click.Context:
        try:
            return super().make_context(*args, **kwargs)
        except click.UsageError as exc:
            raise _usage_error(exc) from None

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except click.UsageError as exc:
            raise _usage_error(exc) from None
        except BrokenPipeError:
            raise
        except UnicodeEncodeError as exc:
            # A command-line argument that was not UTF-8 reaches Python as lone surrogates.
            raise OneLineError(
                f"an argument is not valid UTF-8 text ({exc.object[exc.start : exc.end]!r})"
            ) from None
        except USER_ERRORS as exc:
            raise OneLineError(one_line(exc) or type(exc).__name__) from None


def fail(message: str) -> NoReturn:
    raise OneLineError(message)


def check_output_path(path: Path, option: str, suffixes: tuple[str, ...] | None = None) -> None:
    """Refuses, before any work is done, an output file that cannot be written: its
    directory is missing or not writable, it is a directory, or (with ``suffixes``) its
    extension is not one of them. A file that does not exist yet is not left behind."""
    if suffixes is not None and path.suffix.lower() not in suffixes:
        fail(f"{option} {path}: the file name must end in one of {', '.join(suffixes)}")
    parent = path.parent
    if path.is_dir():
        fail(f"{option} {path}: is a directory, not a file")
    if not parent.is_dir():
        what = "is not a directory" if parent.exists() else "does not exist"
        fail(f"{option} {path}: the directory {parent} {what}")
    existed = path.exists()
    try:
        with path.open("a"):
            pass
    except OSError as exc:
        fail(f"{option} {path}: cannot write there ({exc.strerror or type(exc).__name__})")
    if not existed:
        path.unlink(missing_ok=True)


def write_output(path: Path, text: str, option: str) -> None:
    try:
        path.write_text(text, encoding="utf-8")
    except OSError as exc:
        fail(f"{option} {path}: cannot write there ({exc.strerror or type(exc).__name__})")


def _no_constant(name: str) -> NoReturn:
    raise ValueError(f"{name} is not a number a record holds")


def read_record(file: Path, command: str, accepted: tuple[str, ...]) -> tuple[str, str]:
    """The text of the ecarte record in ``file`` and its format, which must be one of
    ``accepted``; anything else (unreadable, not UTF-8 text, not JSON, not a record, another
    kind of record) is refused in one line that says what the file is."""
    wanted = " or ".join(f"{RECORD_KINDS[k]} (format {k!r})" for k in accepted)
    try:
        data = file.read_bytes()
    except OSError as exc:
        fail(f"cannot read {file}: {exc.strerror or type(exc).__name__}")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        fail(f"{file} is not a text file (not UTF-8); {command} reads {wanted}")
    try:
        record = json.loads(text, parse_constant=_no_constant)
    except (ValueError, RecursionError):
        fail(f"{file} is not a JSON record; {command} reads {wanted}")
    kind = record.get("format") if isinstance(record, dict) else None
    if not isinstance(kind, str):
        fail(
            f'{file} is JSON but not an ecarte record (no "format" field); {command} reads {wanted}'
        )
    if kind not in accepted:
        what = RECORD_KINDS.get(kind, f"unknown record format {kind!r}")
        fail(f"{file}: {what}; {command} reads {wanted}")
    return text, kind


def parse_deal(file: Path, text: str) -> Deal:
    try:
        return Deal.from_json(text)
    except (ValueError, TypeError, OverflowError, RecursionError) as exc:
        fail(f"{file}: not a valid deal record: {one_line(exc)}")


def parse_match(file: Path, text: str) -> Match:
    try:
        return Match.from_json(text)
    except (ValueError, TypeError, OverflowError, RecursionError) as exc:
        fail(f"{file}: not a valid match record: {one_line(exc)}")


def ray_option(f: Any) -> Any:
    """``--ray [ADDRESS]``: run on Ray (docs/scale.md); no address: RAY_ADDRESS or local."""
    return click.option(
        "--ray",
        "ray_address",
        is_flag=False,
        flag_value="",
        default=None,
        metavar="[ADDRESS]",
        help="Run on a Ray cluster (ADDRESS, e.g. auto; default RAY_ADDRESS or a local one).",
    )(f)


@click.group(cls=EcarteGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="ecarte")
def main() -> None:
    """ecarte: a fast, faithful écarté engine. Run `ecarte COMMAND --help` for details."""


@main.command("match")
@click.option(
    "--seed",
    type=SEED,
    default=1,
    show_default=True,
    help="Seed of the match's deals (0 to 2**64 - 1).",
)
@click.option(
    "--agents",
    nargs=2,
    type=AGENT,
    default=("pimc", "pimc"),
    show_default=True,
    help="The agents in seat 0 and seat 1.",
)
@TARGET_OPTION
@ORDER_OPTION
@click.option("--first-dealer", type=click.IntRange(0, 1), default=0, show_default=True)
@click.option(
    "--out",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Save the match record (JSON) to this file.",
)
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
    if out is not None:
        check_output_path(out, "--out")
    names = [f"{agents[0].capitalize()}-0", f"{agents[1].capitalize()}-1"]
    match = Match(seed=seed, first_dealer=first_dealer, rules=Rules(order=order, target=target))
    players = (
        make_agent(agents[0], agent_seed(seed, 0)),
        make_agent(agents[1], agent_seed(seed, 1)),
    )
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
        write_output(out, match.to_json(), "--out")
        click.echo(f"Record saved to {out}")


#: ``ecarte play --level``: the agent each level plays (see docs/agents.md).
LEVELS = {
    "easy": "heuristic",
    "medium": "pimc:8",
    "hard": "pimc",
    "expert": "expert",
    "master": "master",
}
#: The strongest level answering within about half a second per move on two cores.
DEFAULT_LEVEL = "expert"


@main.command("play")
@click.option(
    "--level",
    type=click.Choice(list(LEVELS)),
    default=DEFAULT_LEVEL,
    show_default=True,
    help="Opponent strength: easy (heuristic), medium (pimc:8), hard (pimc, 24 worlds), "
    "expert (expert: PIMC with draws by seat and inference), master (master: the expert's "
    "search, inferring from the opponent's plays too).",
)
@click.option(
    "--opponent",
    type=AGENT,
    default=None,
    help="A built-in agent to play against instead of a level.",
)
@click.option(
    "--seed", type=SEED, default=None, help="Seed of the match, 0 to 2**64 - 1 (random if omitted)."
)
@ORDER_OPTION
@TARGET_OPTION
@click.option(
    "--seat",
    type=click.IntRange(0, 1),
    default=0,
    show_default=True,
    help="Your seat; seat 0 deals first.",
)
@click.option(
    "--save",
    "save_path",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Save the match record here at the end without asking.",
)
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

    if save_path is not None:
        check_output_path(save_path, "--save")
    opponent = opponent or LEVELS[level]
    console = Console(highlight=False)
    match = Match(seed=seed, rules=Rules(order=order, target=target))
    game = Game(
        match,
        make_agent(opponent, agent_seed(match.seed, 1 - seat)),
        seat=seat,
        hint_agent=lambda: make_agent(HINT_AGENT, agent_seed(match.seed, 2)),
    )
    console.print(
        f"ecarte: you play {opponent}, match to {target}, seed {match.seed}. "
        "Type help for the commands."
    )
    redraw = True
    while True:
        if redraw:
            console.print(game.screen())
        if match.is_over():
            break
        if game.pending_banner:
            # A deal has just ended: its result stays on screen until the player goes on.
            try:
                answer = click.prompt(
                    "", prompt_suffix="(Enter: next deal, q: quit) ", default="", show_default=False
                )
            except (EOFError, click.Abort):
                answer = "quit"
            if answer.strip().lower() in ("q", "quit", "exit"):
                console.print("Bye.")
                break
            game.next_deal()
            redraw = True
            continue
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
            answer = click.prompt(
                "Save the match record to (Enter to skip)", default="", show_default=False
            )
        except (EOFError, click.Abort):
            answer = ""
        if not answer.strip():
            return
        save_path = Path(answer.strip())
    try:
        save_path.write_text(match.to_json(), encoding="utf-8")
    except OSError as exc:
        # Too late to refuse: say so, and let the player try another name.
        click.echo(
            f"error: cannot write {save_path}: {exc.strerror or type(exc).__name__}", err=True
        )
        _offer_save(match, None)
        return
    click.echo(f"Record saved to {save_path}")


@main.command("solve")
@click.argument(
    "file", required=False, type=click.Path(exists=True, dir_okay=False, path_type=Path)
)
@click.option(
    "--seed",
    type=SEED,
    default=None,
    help="Solve the deal of this seed instead, played with no exchange.",
)
@click.option(
    "--deal",
    "deal_number",
    type=click.IntRange(1),
    default=None,
    help="With a match record FILE: solve its deal N (1 is the first).",
)
@click.option(
    "--dealer",
    type=click.IntRange(0, 1),
    default=0,
    show_default=True,
    help="The dealer, with --seed.",
)
@click.option(
    "--objective",
    type=click.Choice(["points", "cards"]),
    default="points",
    show_default=True,
    help="Deal points, or the most cards the player can take.",
)
@click.option(
    "--batch",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    help="Solve every position of a JSON-lines file of deal records, in parallel, "
    "and write one JSON line of results each.",
)
@click.option(
    "--out",
    type=click.Path(dir_okay=False, path_type=Path),
    help="With --batch: write the results here instead of stdout.",
)
@click.option(
    "--threads",
    type=click.IntRange(1, MAX_THREADS),
    default=None,
    help="With --batch: worker threads (default: all cores).",
)
@click.option(
    "--positions",
    type=click.IntRange(1),
    default=None,
    help="With --seed: solve this many deals (from derive_seed(SEED, i)) and summarise.",
)
@ray_option
def solve_command(
    file: Path | None,
    seed: int | None,
    deal_number: int | None,
    dealer: int,
    objective: str,
    batch: Path | None,
    out: Path | None,
    threads: int | None,
    positions: int | None = None,
    ray_address: str | None = None,
) -> None:
    """The double-dummy value of a play-phase position, and of every legal action.

    FILE is a deal record (``deal.to_json()``), or a match record with --deal N; its position
    after the recorded actions is solved, or its first lead when the deal is over. With
    --seed, the deal of that seed is solved from its first lead. With --batch, each line of
    the file is a deal record (or a position of the solver benchmark's set).
    """
    import time

    from rich.console import Console

    from ecarte.duel import action_values, solve

    if batch is not None:
        if file is not None or seed is not None:
            raise EcarteError("give --batch FILE.jsonl alone, without a FILE or --seed")
        from ecarte.solverbench import solve_batch_command

        solve_batch_command(batch, out, objective, threads)
        return
    if out is not None or threads is not None:
        raise EcarteError("--out and --threads go with --batch")
    if (file is None) == (seed is None):
        raise click.UsageError("give a deal record FILE or --seed N (one of them)")
    if positions is not None or ray_address is not None:
        from ecarte.distributed import cli_solve

        if positions is None or seed is None:
            raise click.UsageError("--positions N (with --seed) solves many deals; --ray needs it")
        click.echo(cli_solve(seed, positions, dealer, objective, ray_address))
        return
    console = Console(highlight=False)
    if file is not None:
        text, kind = read_record(file, "solve", (DEAL_FORMAT, MATCH_FORMAT))
        if kind == MATCH_FORMAT:
            deals = parse_match(file, text).deals
            if deal_number is None or deal_number > len(deals):
                problem = "" if deal_number is None else f", it has no deal {deal_number}"
                fail(
                    f"{file} is a match record of {len(deals)} deal{'s' * (len(deals) != 1)}"
                    f"{problem}: choose one with --deal N (1 to {len(deals)})"
                )
            deal = deals[deal_number - 1]
        else:
            if deal_number not in (None, 1):
                fail(f"{file} is a deal record: --deal is for match records")
            deal = parse_deal(file, text)
        if deal.phase == "over":
            deal = first_lead(deal)
            console.print("The deal is over: solving it from its first lead.")
    else:
        if deal_number is not None:
            raise click.UsageError("--deal goes with a match record FILE, not with --seed")
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
    console.print(
        f"Trump {deal.trump.symbol}, talon {deal.talon_size} "
        f"({' '.join(c.pretty() for c in deal.talon)}), seat {player} to play"
    )
    for seat in (0, 1):
        console.print(f"  seat {seat}: {' '.join(c.pretty() for c in deal.hand(seat))}")
    if deal.lead is not None:
        console.print(f"  led: {deal.lead.pretty()}")
    unit = "deal points" if objective == "points" else "cards"
    console.print(
        f"Value for seat {player}: {solution.value:+d} {unit} "
        f"({solution.nodes} nodes, {elapsed * 1000:.2f} ms)"
    )
    table = Table(title="Every legal action")
    table.add_column("action")
    table.add_column(unit, justify="right")
    table.add_column("best", justify="center")
    best = set(solution.best_actions)
    for action, value in values:
        table.add_row(str(action), f"{value:+d}", "*" if action in best else "")
    console.print(table)


def first_lead(deal: Deal) -> Deal:
    """``deal`` replayed to the start of its play phase."""
    replay = Deal.from_deck(deal.deck, dealer=deal.dealer, rules=deal.rules)
    for action in deal.history:
        if replay.phase == "play":
            break
        replay.apply(action)
    return replay


@main.command("replay")
@click.argument("file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--step", is_flag=True, help="Show one line at a time; Enter for the next.")
def replay_command(file: Path, step: bool) -> None:
    """Show a saved duel deal or match record, all at once or step by step."""
    text, kind = read_record(file, "replay", (DEAL_FORMAT, MATCH_FORMAT))
    names = ["Seat 0", "Seat 1"]
    lines: list[str] = []
    if kind == DEAL_FORMAT:
        lines = deal_report(parse_deal(file, text), names)
    else:
        match = parse_match(file, text)
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
    for line in lines:
        click.echo(line)
        if step:
            try:
                answer = click.prompt(
                    "", prompt_suffix="(Enter: next, q: quit) ", default="", show_default=False
                )
            except (EOFError, click.Abort):
                break
            if answer.strip().lower() == "q":
                break


@main.command("simulate")
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
        from ecarte.distributed import cli_backend

        backend = cli_backend(ray_address)  # the bar shows when stderr is a terminal
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


@main.command("odds")
@click.option(
    "--trump",
    required=True,
    help=(
        "The turned-up card (e.g. 7H; it leaves the shoe), or a bare suit (C, D, H, S or a symbol)."
    ),
)
@click.option("--seen", default="", help="Cards already seen, comma-separated, e.g. 5H,KS.")
def odds_command(trump: str, seen: str) -> None:
    """Exact odds of one punter tableau against the banker's, from the 104-card shoe minus
    the turn-up (when --trump is a card) and the seen cards."""
    from rich.console import Console

    from ecarte import bank

    removed = [c.strip() for c in seen.split(",") if c.strip()]
    odds = bank.odds(trump, removed=removed)
    # A bare suit removes no turn-up, a state play never meets: say which shoe was used.
    turn_up = len(trump.strip()) > 1
    shoe = (
        f"the 104-card shoe less the turn-up {trump.strip()}"
        if turn_up
        else "the 104-card shoe with no turn-up removed (give the turned-up card, e.g. --trump 7H)"
    )
    click.echo(f"Shoe: {shoe}" + (f", less {len(removed)} seen card(s)" if removed else ""))
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
@click.option(
    "--stake",
    type=click.IntRange(1),
    default=10,
    show_default=True,
    help="The fixed stake on T2 and T3.",
)
@click.option(
    "--chips",
    type=click.IntRange(1),
    default=1000,
    show_default=True,
    help="Each player's chips at the start.",
)
@click.option("--deals", type=click.IntRange(1, MAX_BANK_DEALS), default=50, show_default=True)
@click.option(
    "--mode", type=click.Choice(["banking", "open"]), default="banking", show_default=True
)
@click.option("--seed", type=SEED, default=1, show_default=True)
@click.option(
    "--plot",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Draw each player's chips over the deals to a chart: .png, .pdf, .svg and "
    "more by the file name (needs matplotlib).",
)
@click.option(
    "--out", type=click.Path(dir_okay=False, path_type=Path), help="Save the session record (JSON)."
)
@click.option(
    "--simulate",
    "simulated",
    type=click.IntRange(1),
    default=None,
    help="Instead: the outcomes of this many simulated deals (Monte Carlo).",
)
@ray_option
def bank_command(
    players: int,
    bank_size: int,
    stake: int,
    chips: int,
    deals: int,
    mode: str,
    seed: int,
    plot: Path | None,
    out: Path | None,
    simulated: int | None = None,
    ray_address: str | None = None,
) -> None:
    """Simulate a banking session and print its ledger (or, with --simulate N, the
    outcome frequencies of N deals)."""
    if simulated is not None or ray_address is not None:
        from ecarte.distributed import cli_bank

        if simulated is None:
            raise click.UsageError("--ray runs the Monte Carlo of --simulate N")
        click.echo(cli_bank(simulated, seed, ray_address))
        return
    from rich.console import Console

    from ecarte import bank
    from ecarte.bank_session import play_session

    if out is not None:
        check_output_path(out, "--out")
    if plot is not None:
        check_output_path(plot, "--plot", PLOT_SUFFIXES)
        _pyplot()
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
        ledger.add_row(
            str(entry.deal),
            entry.banker,
            str(entry.bank),
            *(str(entry.chips[p]) for p in names),
            entry.event,
        )
    Console(highlight=False).print(ledger)
    click.echo(f"Chips + bank: {table.total_chips} (start {players * chips})")
    if out is not None:
        write_output(out, table.to_json(), "--out")
        click.echo(f"Record saved to {out}")
    if plot is not None:
        plot_bankrolls(history, names, plot)
        click.echo(f"Chart saved to {plot}")


def _pyplot() -> Any:
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        fail("--plot needs matplotlib: pip install 'ecarte[plot]'")
    return plt


def plot_bankrolls(history: list[Any], names: list[str], path: Path) -> None:
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(8, 4.5))
    deals = [e.deal for e in history]
    for name in names:
        ax.plot(deals, [e.chips[name] for e in history], label=name)
    ax.set_xlabel("deal")
    ax.set_ylabel("chips")
    ax.set_title("Bankrolls over the session")
    ax.legend()
    fig.tight_layout()
    try:
        fig.savefig(path)
    except OSError as exc:
        fail(f"--plot {path}: cannot write there ({exc.strerror or type(exc).__name__})")
    finally:
        plt.close(fig)


@main.group("bench", invoke_without_command=True)
@click.option("--full", is_flag=True, help="Longer runs, steadier figures.")
@click.pass_context
def bench_command(ctx: click.Context, full: bool) -> None:
    """Time ecarte against the pure-Python reference (and OpenSpiel, when installed), side by
    side in one run, and print the ratios. `ecarte bench solver` times the solver."""
    if ctx.invoked_subcommand is not None:
        return
    import platform

    from ecarte.bench import format_table, run_benchmarks

    click.echo(
        f"python {platform.python_version()} on {platform.machine()}, "
        f"{'full' if full else 'quick'} run"
    )
    click.echo(format_table(run_benchmarks(full=full)))


@bench_command.command("solver")
@click.option(
    "--positions",
    type=click.IntRange(1),
    default=None,
    help="Solve the first N positions of the set (default: all 1,200).",
)
@click.option(
    "--threads",
    type=click.IntRange(1),
    default=1,
    show_default=True,
    help="Positions solved at once; each time is that of one solve on one thread.",
)
def bench_solver_command(positions: int | None, threads: int) -> None:
    """Time the double-dummy solver on the position set shipped with ecarte
    (solver_positions_v1: 100 opening positions for each of 0 to 11 exchanges), check every
    value, and print median, p90 and max time and nodes per exchange count."""
    from ecarte.solverbench import bench_solver_command as run_bench_solver

    run_bench_solver(positions, threads)


@main.command("arena")
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
    from ecarte.distributed import cli_backend

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
        backend=cli_backend(ray_address),
    )
    click.echo(result.table())


def run() -> None:
    try:
        main()
    except EcarteError as exc:
        click.echo(f"error: {exc}", err=True)
        sys.exit(2)
