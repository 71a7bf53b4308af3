"""``ecarte analyse``: every decision of a saved deal or match, with what each action was
worth and what the action taken lost (docs/analysis.md)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from pathlib import Path

import click

from ecarte import MAX_SAMPLES
from ecarte.analysis import (
    DEFAULT_ANALYSIS_THRESHOLD,
    DEFAULT_ANALYSIS_WORLDS,
    Analysis,
    DealAnalysis,
    Decision,
    analyse,
    analysis_size,
)
from ecarte.cli.common import (
    ASCII_OPTION,
    OUTPUT,
    PLOT_SUFFIXES,
    SEED,
    THREADS_OPTION,
    Whole,
    check_output_path,
    load_record,
    pyplot,
    save_chart,
)
from ecarte.display import action_str, counted
from ecarte.duel import Deal, Match

#: The names of the seats when the record has none.
SEATS = ("Seat 0", "Seat 1")

#: How a mistake is marked in the table (as chess annotates one).
MISTAKE_MARK = "?"


class Points(click.ParamType):  # type: ignore[type-arg]  # generic only in click >= 8.2
    """A number of deal points of at least 0 (``--threshold``)."""

    name = "points"

    def convert(
        self, value: object, param: click.Parameter | None, ctx: click.Context | None
    ) -> float:
        try:
            number = float(str(value))
        except ValueError:
            number = math.nan
        if not (math.isfinite(number) and number >= 0):
            self.fail(f"must be a number of points of at least 0, got {value}", param, ctx)
        return number


@click.command("analyse")
@click.argument("file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option(
    "--worlds",
    type=Whole(1, MAX_SAMPLES),
    default=DEFAULT_ANALYSIS_WORLDS,
    show_default=True,
    help="Worlds sampled per decision for the values under the mover's information.",
)
@click.option("--seed", type=SEED, default=1, show_default=True, help="Seed of the sampled worlds.")
@click.option(
    "--threshold",
    type=Points(),
    default=DEFAULT_ANALYSIS_THRESHOLD,
    show_default=True,
    help="The loss in points (under the mover's information) that makes a mistake.",
)
@THREADS_OPTION
@click.option(
    "--json", "as_json", is_flag=True, help="One JSON object per decision, then a summary."
)
@click.option(
    "--plot",
    type=OUTPUT,
    help="Draw seat 0's value through each deal, mistakes marked: .png, .pdf, .svg and "
    "more by the file name (needs matplotlib).",
)
@ASCII_OPTION
def analyse_command(
    file: Path,
    worlds: int,
    seed: int,
    threshold: float,
    threads: int | None,
    as_json: bool,
    plot: Path | None,
) -> None:
    """Analyse every decision of a saved duel deal or match record: each legal action's
    double-dummy value (play phase) and its value under the mover's information, the loss
    of the action taken, the mistakes and a summary per seat. An unfinished deal is
    analysed up to its last action."""
    from ecarte.progress import progress_bar

    if plot is not None:
        check_output_path(plot, "--plot", PLOT_SUFFIXES)
        pyplot()
    record = load_record(file, "analyse", (Deal, Match))
    names = (record.players if isinstance(record, Match) else None) or SEATS
    with progress_bar("Decisions", analysis_size(record)) as bar:
        result = analyse(
            record,
            worlds=worlds,
            seed=seed,
            threshold=threshold,
            threads=threads,
            on_progress=bar.running,
        )
    if as_json:
        for line in result.json_lines():
            click.echo(line)
    else:
        for line in analysis_lines(result, names):
            click.echo(line)
    if plot is not None:
        plot_values(result, names, plot)
        click.echo(f"Chart saved to {plot}", err=as_json)


def signed(value: float) -> str:
    """A value in points with its sign, to two places: ``+0.25``, ``-1.00``."""
    return f"{value:+.2f}"


def decision_cells(d: Decision, threshold: float) -> list[str]:
    """One row of a deal's table."""
    taken = d.value_info(d.action)
    se = d.values_info_se[d.legal.index(d.action)]
    better = d.best != d.action and d.loss_info > 0
    return [
        str(d.ply),
        str(d.seat),
        d.phase,
        action_str(d.action) + (" (forced)" if d.forced else ""),
        f"{signed(taken)} ±{se:.2f}",
        f"{action_str(d.best)} {signed(d.value_info(d.best))}" if better else "",
        f"{d.loss_info:.2f}",
        "" if d.loss is None else str(d.loss),
        MISTAKE_MARK if d.is_mistake(threshold) else "",
    ]


#: The table's header: what each column shows.
HEADER = ["ply", "seat", "phase", "action", "value", "best instead", "loss", "dd loss", ""]


def table_lines(rows: Sequence[Sequence[str]], right: set[int]) -> list[str]:
    """Rows in columns as wide as their widest cell (numbers never cut), the columns in
    ``right`` right-aligned."""
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    return [
        "  ".join(
            cell.rjust(w) if i in right else cell.ljust(w)
            for i, (cell, w) in enumerate(zip(row, widths, strict=True))
        ).rstrip()
        for row in rows
    ]


def deal_heading(deal: DealAnalysis, names: Sequence[str]) -> str:
    outcome = deal.outcome
    if outcome is None:
        ending = "unfinished, analysed up to its last action"
    else:
        ending = f"{names[outcome.winner]} wins {counted(outcome.points, 'point')}"
    return f"Deal {deal.deal}, dealt by {names[deal.dealer]}: {ending}"


def analysis_lines(result: Analysis, names: Sequence[str]) -> list[str]:
    """The readable analysis: each deal's table, then the summary per seat."""
    lines = [
        "Values in deal points for the player to move, under their information "
        f"({result.worlds} worlds a decision, seed {result.seed}).",
        f"{MISTAKE_MARK} marks a loss of {result.threshold:g} point or more; dd loss: the "
        "loss double-dummy (play only).",
        f"Seats: 0 is {names[0]}, 1 is {names[1]}.",
    ]
    for deal in result.deals:
        lines += ["", deal_heading(deal, names)]
        rows = [HEADER] + [decision_cells(d, result.threshold) for d in deal.decisions]
        lines += table_lines(rows, {0, 1, 6, 7})
    lines += ["", "Summary (decisions with a choice; forced ones apart)"]
    rows = [["seat", "decisions", "forced", "mistakes", "points lost", "accuracy"]]
    for s in result.summary:
        accuracy = "-" if s.accuracy is None else f"{100 * s.accuracy:.1f}%"
        rows.append(
            [
                names[s.seat],
                str(s.decisions),
                str(s.forced),
                str(s.mistakes),
                f"{s.points_lost:.2f}",
                accuracy,
            ]
        )
    lines += table_lines(rows, {1, 2, 3, 4, 5})
    return lines


def seat0_values(deal: DealAnalysis) -> tuple[list[float], list[float | None]]:
    """The value of the action taken at each decision for seat 0: under the mover's
    information, and double-dummy (``None`` outside the play phase)."""
    info: list[float] = []
    exact: list[float | None] = []
    for d in deal.decisions:
        sign = 1 if d.seat == 0 else -1
        info.append(sign * d.value_info(d.action))
        exact.append(None if d.values is None else sign * d.values[d.legal.index(d.action)])
    return info, exact


def plot_values(result: Analysis, names: Sequence[str], path: Path) -> None:
    """Seat 0's value through each deal, deal after deal, as a chess site draws its
    evaluation graph: the taken action's value under the mover's information (a line) and
    double-dummy (dots, play phase), each mistake marked in its seat's colour."""
    plt = pyplot()
    fig, ax = plt.subplots(figsize=(max(8.0, 0.12 * len(result.decisions)), 4.5))
    start = 0
    colours = ("tab:red", "tab:blue")
    marked = [False, False]
    for deal in result.deals:
        info, exact = seat0_values(deal)
        xs = list(range(start, start + len(info)))
        ax.plot(xs, info, color="black", linewidth=1.2, label="_" if start else "value (info)")
        dd = [(x, v) for x, v in zip(xs, exact, strict=True) if v is not None]
        if dd:
            ax.scatter(
                [x for x, _ in dd],
                [v for _, v in dd],
                s=8,
                color="grey",
                label="_" if start else "double-dummy",
            )
        for x, v, d in zip(xs, info, deal.decisions, strict=True):
            if d.is_mistake(result.threshold):
                label = "_" if marked[d.seat] else f"mistake by {names[d.seat]}"
                marked[d.seat] = True
                ax.scatter([x], [v], s=40, color=colours[d.seat], zorder=3, label=label)
        if start:
            ax.axvline(start - 0.5, color="lightgrey", linewidth=0.8)
        ax.text(start, 2.15, f"deal {deal.deal}", fontsize=7)
        start += len(info)
    ax.axhline(0, color="lightgrey", linewidth=0.8)
    ax.set_ylim(-2.3, 2.4)
    ax.set_xlabel("decision")
    ax.set_ylabel(f"points for {names[0]}")
    ax.set_title("Value of each action taken, for seat 0")
    ax.legend(loc="lower left", fontsize=8)
    save_chart(fig, path)
