"""The banking game on the command line: ``ecarte odds`` (exact odds of a tableau),
``ecarte bank`` (a simulated session and its ledger, or the Monte Carlo of many deals) and
the steps of a saved session for ``ecarte replay``."""

from __future__ import annotations

import textwrap
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click
from rich.cells import cell_len
from rich.console import Console, JustifyMethod
from rich.table import Table

from ecarte._core import Card, Suit
from ecarte.bank import MAX_DEALS
from ecarte.cli.common import (
    ASCII_OPTION,
    MAX_BANK_DEALS,
    OUTPUT,
    PLOT_SUFFIXES,
    SEED,
    Whole,
    backend_of,
    check_output_path,
    console,
    fail,
    pyplot,
    ray_option,
    save_chart,
    write_output,
)
from ecarte.display import card_str, cards_text, counted, suit_str

if TYPE_CHECKING:
    from ecarte.bank.session import SessionDeal


@click.command("odds")
@click.option(
    "--trump",
    required=True,
    help=(
        "The turned-up card (e.g. 7H; it leaves the shoe), or a bare suit (C, D, H, S or a symbol)."
    ),
)
@click.option("--seen", default="", help="Cards already seen, comma-separated, e.g. 5H,KS.")
@ASCII_OPTION
def odds_command(trump: str, seen: str) -> None:
    """Exact odds of one punter tableau against the banker's, from the 104-card shoe minus
    the turn-up (when --trump is a card) and the seen cards."""

    removed = [c.strip() for c in seen.split(",") if c.strip()]
    odds = odds_of(trump, removed)
    # A bare suit removes no turn-up, a state play never meets: say which shoe was used.
    turn_up = len(trump.strip()) > 1
    shown = card_str(Card(trump.strip())) if turn_up else suit_str(Suit.parse(trump.strip()))
    shoe = (
        f"the 104-card shoe less the turn-up {shown}"
        if turn_up
        else "the 104-card shoe with no turn-up removed (give the turned-up card, e.g. --trump 7H)"
    )
    seen_cards = f", less {counted(len(removed), 'seen card')}" if removed else ""
    click.echo(f"Shoe: {shoe}{seen_cards}")
    table = Table(title=f"Bank odds, trump {shown}, {odds.cards_left} cards left")
    table.add_column("outcome")
    table.add_column("probability", justify="right")
    table.add_column("exact", justify="right")
    for name in ("banker", "en_carte", "punter"):
        table.add_row(outcome_text(name), f"{getattr(odds, name):.4%}", str(odds.exact[name]))
    scores = Table(title="Trick scores (banker-punter)")
    scores.add_column("score")
    scores.add_column("probability", justify="right")
    for (b, p), prob in sorted(odds.scores.items()):
        scores.add_row(f"{b}-{p}", f"{prob:.4%}")
    screen = console()
    screen.print(table)
    screen.print(scores)


def odds_of(trump: str, removed: list[str]) -> Any:
    """``bank.odds`` for ``--trump`` and ``--seen``, its errors naming the option at fault."""
    from ecarte import bank
    from ecarte.errors import EcarteError

    try:
        return bank.odds(trump, removed=removed)
    except EcarteError as exc:
        if not trump.isprintable():  # not Unicode text: the engine's own message says so
            raise
        try:
            bank.odds(trump)
        except EcarteError:
            fail(
                f"--trump {trump}: give the turned-up card (e.g. 7H) or the trump suit "
                "(C, D, H, S or ♣ ♦ ♥ ♠)"
            )
        fail(f"--seen: {exc}")


@click.command("bank")
@click.option(
    "--players", type=Whole(2, 20), default=4, show_default=True, help="Players at the table."
)
@click.option(
    "--bank",
    "bank_size",
    type=Whole(1),
    default=100,
    show_default=True,
    help="The bank the banker stakes (banking mode), at most --chips.",
)
@click.option(
    "--stake",
    type=Whole(1),
    default=10,
    show_default=True,
    help="The fixed stake on T2 and T3.",
)
@click.option(
    "--chips",
    type=Whole(1),
    default=1000,
    show_default=True,
    help="Each player's chips at the start.",
)
@click.option(
    "--deals",
    type=Whole(1, MAX_BANK_DEALS),
    default=50,
    show_default=True,
    help="Deals of the session (fewer if nobody can hold the bank).",
)
@click.option(
    "--mode",
    type=click.Choice(["banking", "open"]),
    default="banking",
    show_default=True,
    help="banking: fixed stakes on T2 and T3, a bank that can break; open: any stakes, "
    "paid by the banker without limit.",
)
@click.option(
    "--seed", type=SEED, default=1, show_default=True, help="Seed of the shoe and the stakes."
)
@click.option(
    "--plot",
    type=OUTPUT,
    help="Draw each player's chips over the deals to a chart: .png, .pdf, .svg and "
    "more by the file name (needs matplotlib).",
)
@click.option("--out", type=OUTPUT, help="Save the session record (JSON) to this file.")
@click.option(
    "--simulate",
    "simulated",
    type=Whole(1, MAX_DEALS),
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
        if simulated is None:
            raise click.UsageError("--ray runs the Monte Carlo of --simulate N")
        click.echo(simulated_outcomes(simulated, seed, ray_address))
        return

    from ecarte import bank
    from ecarte.bank.session import play_session

    if mode == "banking" and bank_size > chips:
        fail(f"--bank {bank_size} is more than --chips {chips}: the banker funds the bank")
    if out is not None:
        check_output_path(out, "--out")
    if plot is not None:
        check_output_path(plot, "--plot", PLOT_SUFFIXES)
        pyplot()
    names = [f"P{i + 1}" for i in range(players)]
    table = bank.Table(names, bank=bank_size, fixed_stake=stake, chips=chips, mode=mode, seed=seed)  # type: ignore[arg-type]
    history = play_session(table, deals, seed)
    screen = console()
    for line in ledger_lines(history, names, seed, screen):
        screen.print(line) if isinstance(line, Table) else click.echo(line)
    for entry in history:  # below the table, which they would make too wide
        if entry.event:
            click.echo(wrapped(f"* deal {entry.deal}: {entry.event}", screen.width))
    click.echo(f"Chips + bank: {table.total_chips} (start {players * chips})")
    if out is not None:
        write_output(out, table.to_json(), "--out")
        click.echo(f"Record saved to {out}")
    if plot is not None:
        plot_bankrolls(history, names, plot)
        click.echo(f"Chart saved to {plot}")


#: The outcome of a tableau in one letter, when the ledger is too wide for the words.
OUTCOME_LETTERS = {"banker": "B", "en_carte": "E", "punter": "P"}


#: What the letters of the outcome columns mean.
OUTCOME_KEY = "T2-T4 against T1: B the banker wins, E en carte, P the punter wins"

#: A column of the ledger: its header, its alignment and its cells.
Column = tuple[str, JustifyMethod, list[str]]


def ledger_lines(
    history: Sequence[SessionDeal], names: list[str], seed: int, screen: Console
) -> list[str | Table]:
    """The session's ledger as it fits the screen's width, every figure whole: one table
    with the outcomes in words, else in letters (with a key), else with the players' chips
    split over several tables, else (on a very narrow screen) a line per deal."""
    width = screen.width
    title = wrapped(f"Banking session, seed {seed}: chips after each deal", width)
    deal: Column = ("deal", "right", [f"{e.deal}{'*' if e.event else ''}" for e in history])
    banker: Column = ("banker", "left", [e.banker for e in history])
    bank: Column = ("bank", "right", [str(e.bank) for e in history])
    chips: list[Column] = [(p, "right", [str(e.chips[p]) for e in history]) for p in names]
    for spell in (outcome_text, OUTCOME_LETTERS.__getitem__):
        outcomes: list[Column] = [
            (f"T{t}", "left", [spell(e.outcomes[t - 2]) for e in history]) for t in (2, 3, 4)
        ]
        first = [deal, banker, *outcomes, bank]
        key = [] if spell is outcome_text else [wrapped(OUTCOME_KEY, width)]
        if _table_width([*first, *chips]) <= width:
            return [title, _ledger_table([*first, *chips]), *key]
    if all(_table_width([*first, player]) <= width for player in chips):
        tables: list[str | Table] = [title]
        columns = first
        for player in chips:
            if _table_width([*columns, player]) > width:
                tables.append(_ledger_table(columns))
                columns = [deal]
            columns = [*columns, player]
        return [*tables, _ledger_table(columns), *key]
    lines: list[str | Table] = [title]
    for k, entry in enumerate(history):
        words = [f"T{t} {outcome_text(o)}" for t, o in zip((2, 3, 4), entry.outcomes, strict=True)]
        figures = [f"{name} {cells[k]}" for name, _, cells in (banker, bank, *chips)]
        lines.append(wrapped(f"deal {deal[2][k]}: " + ", ".join([*words, *figures]), width))
    return lines


def _table_width(columns: list[Column]) -> int:
    """The width of :func:`_ledger_table` of ``columns``: each column its widest cell,
    padded by a space each side, between borders."""
    widths = (max(map(cell_len, [header, *cells])) for header, _, cells in columns)
    return sum(w + 3 for w in widths) + 1


def _ledger_table(columns: list[Column]) -> Table:
    table = Table()
    for header, justify, _ in columns:
        table.add_column(header, justify=justify, no_wrap=True)
    for row in zip(*(cells for _, _, cells in columns), strict=True):
        table.add_row(*row)
    return table


def wrapped(text: str, width: int) -> str:
    """``text`` broken between words to ``width`` columns (a long word stays whole)."""
    return textwrap.fill(
        text, max(width, 20), subsequent_indent="  ", break_long_words=False, break_on_hyphens=False
    )


def outcome_text(outcome: str) -> str:
    """A tableau's outcome as the command line spells it: banker, en carte, punter."""
    return outcome.replace("_", " ")


def plot_bankrolls(history: list[Any], names: list[str], path: Path) -> None:
    plt = pyplot()
    fig, ax = plt.subplots(figsize=(8, 4.5))
    deals = [e.deal for e in history]
    for name in names:
        ax.plot(deals, [e.chips[name] for e in history], label=name)
    ax.plot(deals, [e.bank for e in history], label="bank", linestyle="--", color="black")
    ax.set_xlabel("deal")
    ax.set_ylabel("chips")
    ax.set_title("Chips of each player and the bank over the session")
    ax.legend()
    save_chart(fig, path)


def simulated_outcomes(n: int, seed: int, address: str | None) -> str:
    """``ecarte bank --simulate N [--ray]``: the outcome frequencies of ``n`` deals."""
    from ecarte.bank import simulate
    from ecarte.bank.native import SIMULATED_DEAL_SECONDS
    from ecarte.progress import progress_bar, run_seconds

    if address is not None:
        result = simulate(n, seed, backend=backend_of(address), progress=None)
    else:
        seconds = run_seconds(SIMULATED_DEAL_SECONDS, n)
        with progress_bar("Deals", n, seconds=seconds) as bar:
            result = simulate(n, seed, on_progress=bar.running)
    lines = [f"{n:,} simulated deals, seed {seed}: outcome rates with 95% intervals"]
    for tableau, counts in result.summary["intervals"].items():
        rates = result.summary["probabilities"][tableau]
        cells = ", ".join(
            f"{outcome_text(name)} {rates[name]:.4f} [{low:.4f}, {high:.4f}]"
            for name, (low, high) in counts.items()
        )
        lines.append(f"T{tableau}: {cells}")
    return "\n".join(lines)


def session_steps_text(text: str) -> list[list[str]]:
    """A bank session record as steps of text, one per action, from the punters' view
    after it (:func:`ecarte.bank.session_steps`: the record replayed once, and checked)."""
    from ecarte.bank import session_steps

    table, steps = session_steps(text)
    mode = "banking mode" if table.mode == "banking" else "open mode"
    lines = [
        [
            f"Banking session, seed {table.seed}, {mode}, fixed stake {table.fixed_stake}: "
            f"{', '.join(table.players)}"
        ]
    ]
    deals = 0
    before = steps[0].view
    for step in steps[1:]:
        action, view = step.action or [""], step.view
        name = action[0]
        if name == "deal":
            deals += 1
            trump = "" if view.trump_card is None else card_str(view.trump_card)
            lines.append(["", f"Deal {deals}: {view.banker} banks {view.bank}, trump card {trump}"])
        elif name == "stake":
            lines.append([f"  {action[1]} stakes {action[3]} on T{action[2]}"])
        elif name == "reveal":
            lines.append([f"  T1 {cards_text(view.tableaux[0])}" if view.tableaux else "  T1"])
            for tableau, (cards, result) in enumerate(
                zip((view.tableaux or ())[1:], view.results or (), strict=False), 2
            ):
                lines[-1].append(
                    f"  T{tableau} {cards_text(cards)}: {outcome_text(result.outcome)} "
                    f"{result.banker_tricks}-{result.punter_tricks}"
                )
        elif name == "settle":
            chips = ", ".join(f"{p} {c}" for p, c in view.chips.items())
            lines.append([f"  settled: {chips}; bank {view.bank}"])
            if view.phase == "broken":
                lines[-1].append("  the bank is broken")
            elif view.banker != before.banker:
                lines[-1].append(f"  the shoe ran out twice: the bank passes to {view.banker}")
        elif name == "shuffle_rest":
            lines.append([f"  {action[1]} shuffles the rest of the shoe"])
        elif name == "restake_bank":
            lines.append([f"  {view.banker} restakes a bank of {view.bank}"])
        elif name == "declare_responsible":
            lines.append([f"  {view.banker} declares the bank responsible"])
        elif name == "pass_bank":
            banker = (
                f"the bank passes to {view.banker}" if view.phase != "over" else "nobody can bank"
            )
            lines.append([f"  {before.banker} gives up the bank: {banker}"])
        before = view
    ledger = table.ledger[-1]
    chips = ", ".join(f"{p} {c}" for p, c in ledger["chips"].items())
    lines[-1] += [
        "",
        f"After {counted(table.deals_played, 'deal')}: {chips}; bank {ledger['bank']}.",
    ]
    return lines
