"""``replay``: every step of a saved record whose format has a replay (a duel deal, a duel
match, a bank session: ``ecarte.registry``), for a client that gave the record and so may
see all of it."""

from __future__ import annotations

from typing import Any, Final

from ecarte._public import api_dir
from ecarte.errors import InvalidRecordError
from ecarte.protocol.wire import ProtocolError
from ecarte.registry import record_formats, sniff

__all__ = ["MAX_FRAMES", "replay"]
__dir__ = api_dir(globals())

#: The most steps one replay answers with.
MAX_FRAMES: Final = 20_000


def replay(text: str) -> dict[str, Any]:
    """The record's format and its frames (and what its variant adds: a match's target, a
    session's ledger); a record that does not load raises ``InvalidRecordError``."""
    try:
        found = sniff(text)
        if found.replay is None:
            raise InvalidRecordError(f"{found.description} has no steps to replay")
    except InvalidRecordError as exc:
        replayable = [
            f"{f.description} ({name!r})" for name, f in record_formats().items() if f.replay
        ]
        raise InvalidRecordError(f"{exc}; replay reads {', '.join(replayable)}") from None
    result: dict[str, Any] = {"format": found.format, **found.replay(text)}
    if len(result["frames"]) > MAX_FRAMES:
        raise ProtocolError(f"the record has more than {MAX_FRAMES} steps")
    return result
