"""The banking game on the command line: ``ecarte odds`` (exact odds of a tableau) and
``ecarte bank`` (a simulated session and its ledger, or the Monte Carlo of many deals)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click
from rich.table import Table

from ecarte.cli.common import (
    MAX_BANK_DEALS,
    SEED,
    backend_of,
    check_output_path,
    fail,
    ray_option,
    write_output,
)

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


@click.command("odds")
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


@click.command("bank")
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
        if simulated is None:
            raise click.UsageError("--ray runs the Monte Carlo of --simulate N")
        click.echo(simulated_outcomes(simulated, seed, ray_address))
        return
    from rich.console import Console

    from ecarte import bank
    from ecarte.bank.session import play_session

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


def simulated_outcomes(n: int, seed: int, address: str | None) -> str:
    """``ecarte bank --simulate N [--ray]``: the outcome frequencies of ``n`` deals."""
    from ecarte.bank import simulate

    result = simulate(n, seed, backend=backend_of(address), progress=None)
    lines = [f"{n} simulated deals, seed {seed}: outcome rates with 95% intervals"]
    for tableau, counts in result.summary["intervals"].items():
        rates = result.summary["probabilities"][tableau]
        cells = ", ".join(
            f"{name} {rates[name]:.4f} [{low:.4f}, {high:.4f}]"
            for name, (low, high) in counts.items()
        )
        lines.append(f"T{tableau}: {cells}")
    return "\n".join(lines)
