"""The analysis of deals already played: :func:`analyse` and its typed results.

The engine does the work (``rust/src/analysis.rs``, docs/analysis.md): for every decision,
each legal action's double-dummy value (play phase) and its value under the mover's
information (the master's worlds), and what the action taken lost by each. This module
reads the engine's result into frozen dataclasses and shapes the JSON lines of
``ecarte analyse --json``.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal

from ecarte._core.duel import (
    DEFAULT_ANALYSIS_THRESHOLD,
    DEFAULT_ANALYSIS_WORLDS,
    Action,
    Deal,
    Match,
    Outcome,
    analyse_json,
    analysis_size,
)
from ecarte._public import api_dir
from ecarte.seeding import resolve_seed

__all__ = [
    "DEFAULT_ANALYSIS_THRESHOLD",
    "DEFAULT_ANALYSIS_WORLDS",
    "Analysis",
    "DealAnalysis",
    "Decision",
    "SeatSummary",
    "analyse",
    "analysis_size",
]
__dir__ = api_dir(globals())

#: The phases a decision is taken in.
DecisionPhase = Literal["proposal", "response", "discard", "play"]


@dataclass(frozen=True)
class Decision:
    """One decision with its analysis. The value lists follow ``legal`` (action-id order);
    values are deal points for the mover (seat ``seat``)."""

    deal: int
    """The deal's number in the record, from 1."""
    ply: int
    """The index of the action in the deal's action list, from 0."""
    seat: int
    phase: DecisionPhase
    action: Action
    legal: tuple[Action, ...]
    values: tuple[int, ...] | None
    """Each legal action's double-dummy value; ``None`` outside the play phase."""
    values_info: tuple[float, ...]
    """Each legal action's mean value over the worlds of the mover's information."""
    values_info_se: tuple[float, ...]
    """The standard errors of ``values_info``."""
    best: Action
    """The action with the highest ``values_info`` (ties to the lowest action id)."""
    loss: int | None
    """The best double-dummy value minus the action's; ``None`` outside the play phase."""
    loss_info: float
    """The highest ``values_info`` minus the action's."""
    forced: bool
    """Whether the action was the only legal one."""

    def is_mistake(self, threshold: float = DEFAULT_ANALYSIS_THRESHOLD) -> bool:
        """Whether this is a mistake: a choice whose ``loss_info`` reaches ``threshold``."""
        return not self.forced and self.loss_info >= threshold

    def value_info(self, action: Action) -> float:
        """``action``'s value under the mover's information (``action`` legal here)."""
        return self.values_info[self.legal.index(action)]

    def to_dict(self) -> dict[str, Any]:
        """The JSON object of ``ecarte analyse --json``: actions as text."""
        return {
            "deal": self.deal,
            "ply": self.ply,
            "seat": self.seat,
            "phase": self.phase,
            "action": str(self.action),
            "legal": [str(a) for a in self.legal],
            "values": None if self.values is None else list(self.values),
            "values_info": list(self.values_info),
            "values_info_se": list(self.values_info_se),
            "best": str(self.best),
            "loss": self.loss,
            "loss_info": self.loss_info,
            "forced": self.forced,
        }

    @classmethod
    def _of(cls, raw: dict[str, Any]) -> Decision:
        values = raw["values"]
        return cls(
            deal=raw["deal"],
            ply=raw["ply"],
            seat=raw["seat"],
            phase=raw["phase"],
            action=Action(raw["action"]),
            legal=tuple(Action(a) for a in raw["legal"]),
            values=None if values is None else tuple(values),
            values_info=tuple(raw["values_info"]),
            values_info_se=tuple(raw["values_info_se"]),
            best=Action(raw["best"]),
            loss=raw["loss"],
            loss_info=raw["loss_info"],
            forced=raw["forced"],
        )


@dataclass(frozen=True)
class DealAnalysis:
    """One deal's decisions, in the order they were taken."""

    deal: int
    """The deal's number in the record, from 1."""
    dealer: int
    outcome: Outcome | None
    """The outcome; ``None`` for an unfinished deal, analysed up to its last action."""
    decisions: tuple[Decision, ...]


@dataclass(frozen=True)
class SeatSummary:
    """One seat's decisions summed up; forced decisions are counted apart (no choice)."""

    seat: int
    decisions: int
    """The decisions with a choice (more than one legal action)."""
    forced: int
    mistakes: int
    """Decisions with a choice whose ``loss_info`` reaches the threshold."""
    points_lost: float
    """The sum of ``loss_info`` over the decisions with a choice."""
    accuracy: float | None
    """The share of the decisions with a choice whose ``loss_info`` is 0; ``None``
    without any."""

    def to_dict(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "decisions": self.decisions,
            "forced": self.forced,
            "mistakes": self.mistakes,
            "points_lost": self.points_lost,
            "accuracy": self.accuracy,
        }


@dataclass(frozen=True)
class Analysis:
    """The analysis of a deal or a match: its deals and a summary per seat."""

    worlds: int
    seed: int
    threshold: float
    deals: tuple[DealAnalysis, ...]
    summary: tuple[SeatSummary, SeatSummary]

    @property
    def decisions(self) -> tuple[Decision, ...]:
        """Every decision, deal after deal."""
        return tuple(d for deal in self.deals for d in deal.decisions)

    def summary_dict(self) -> dict[str, Any]:
        """The summary object of ``ecarte analyse --json`` (written after the decisions)."""
        return {
            "summary": [s.to_dict() for s in self.summary],
            "deals": len(self.deals),
            "worlds": self.worlds,
            "seed": self.seed,
            "threshold": self.threshold,
        }

    def json_lines(self) -> list[str]:
        """One JSON object per decision, then the summary object."""
        lines = [json.dumps(d.to_dict()) for d in self.decisions]
        return [*lines, json.dumps(self.summary_dict())]

    @classmethod
    def _of(cls, raw: dict[str, Any]) -> Analysis:
        deals = tuple(
            DealAnalysis(
                deal=d["deal"],
                dealer=d["dealer"],
                outcome=None
                if d["outcome"] is None
                else Outcome.from_json(json.dumps(d["outcome"])),
                decisions=tuple(Decision._of(x) for x in d["decisions"]),
            )
            for d in raw["deals"]
        )
        first, second = (SeatSummary(**s) for s in raw["summary"])
        return cls(
            worlds=raw["worlds"],
            seed=raw["seed"],
            threshold=raw["threshold"],
            deals=deals,
            summary=(first, second),
        )


def analyse(
    target: Deal | Match | str,
    *,
    worlds: int = DEFAULT_ANALYSIS_WORLDS,
    seed: int | None = None,
    threshold: float = DEFAULT_ANALYSIS_THRESHOLD,
    threads: int | None = None,
    on_progress: Callable[[int], object] | None = None,
    finished: bool = False,
) -> Analysis:
    """Analyses every decision of a :class:`Deal`, a :class:`Match` or the JSON text of a
    deal or match record, finished or not (an unfinished deal up to its last action; with
    ``finished=True``, the finished deals only).

    For each decision: each legal action's double-dummy value (play phase; ``None``
    otherwise) and its mean value over ``worlds`` worlds consistent with what the mover
    knew, chosen and solved as the ``master`` agent does, with standard errors; the loss of
    the action taken by each measure. A summary per seat counts the mistakes (choices whose
    ``loss_info`` reaches ``threshold`` points), the points lost and the accuracy.

    The same ``seed`` gives the same result on any number of ``threads`` (``None``: all
    cores); ``seed=None`` draws a fresh one, kept in the result. The decisions run in
    parallel with the GIL released; ``on_progress(decisions)`` is told how many are done a
    few times a second (the total is :func:`analysis_size`), and Ctrl-C stops the run.

    Raises :class:`~ecarte.errors.InvalidRecordError` for a record that does not load,
    :class:`~ecarte.errors.EcarteError` for other bad input (another kind of record, an
    option out of range), ``TypeError`` for an argument of the wrong type."""
    raw = analyse_json(
        target,
        worlds=worlds,
        seed=resolve_seed(seed),
        threshold=threshold,
        threads=threads,
        on_progress=on_progress,
        finished=finished,
    )
    return Analysis._of(json.loads(raw))
