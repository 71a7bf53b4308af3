"""The duel's registration: the two-player game, the replays of its records, its runs'
summary and the protocol's ``deal`` and ``match`` games."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy.typing as npt

from ecarte._public import api_dir
from ecarte.duel import Deal, Match, summarize
from ecarte.errors import InvalidRecordError
from ecarte.registry import Variant

__all__ = ["VARIANT"]
__dir__ = api_dir(globals())

NAME = "duel"


def _replay_deal(text: str) -> dict[str, Any]:
    from ecarte.protocol.views import deal_frames

    return {"frames": deal_frames(Deal.from_json(text))}


def _replay_match(text: str) -> dict[str, Any]:
    from ecarte.protocol.views import match_frames

    match = Match.from_json(text)
    players = None if match.players is None else list(match.players)
    return {"frames": match_frames(match), "target": match.target, "players": players}


def _run_summary(n: int, columns: Mapping[str, npt.NDArray[Any]]) -> dict[str, Any]:
    """A duel run's summary: its columns have a row for each of its ``n`` deals or matches."""
    if any(column.shape[:1] != (n,) for column in columns.values()):
        raise InvalidRecordError(f"a duel run's columns have a row for each of its {n} items")
    return summarize(columns)


VARIANT = Variant(
    name=NAME,
    description="the two-player game",
    replays={Deal.RECORD_FORMAT: _replay_deal, Match.RECORD_FORMAT: _replay_match},
    run_columns=frozenset({"winner"}),
    summary=_run_summary,
    game_kinds=("deal", "match"),
)
