"""``replay``: every step of a saved record (a duel deal, a duel match or a bank session),
for a client that gave the record and so may see all of it."""

from __future__ import annotations

import json
from typing import Any, Final

from ecarte.bank import RECORD_FORMAT as BANK_FORMAT
from ecarte.duel import Deal, Match
from ecarte.errors import InvalidRecordError
from ecarte.protocol.views import deal_frames, match_frames, table_frames
from ecarte.protocol.wire import ProtocolError

__all__ = ["MAX_FRAMES", "replay"]

#: The most steps one replay answers with.
MAX_FRAMES: Final = 20_000
DEAL_FORMAT: Final = "ecarte.duel.deal"
MATCH_FORMAT: Final = "ecarte.duel.match"


def replay(text: str) -> dict[str, Any]:
    """The record's format and its frames (and a bank session's ledger); a record that
    does not load raises ``InvalidRecordError``."""
    try:
        data = json.loads(text)
    except (ValueError, RecursionError) as exc:
        raise InvalidRecordError(f"not a JSON record: {str(exc)[:120]}") from None
    kind = data.get("format") if isinstance(data, dict) else None
    result: dict[str, Any] = {"format": kind}
    if kind == DEAL_FORMAT:
        result["frames"] = deal_frames(Deal.from_json(text))
    elif kind == MATCH_FORMAT:
        match = Match.from_json(text)
        result["frames"] = match_frames(match)
        result["target"] = match.target
    elif kind == BANK_FORMAT:
        result["frames"], result["ledger"] = table_frames(text)
    else:
        raise InvalidRecordError(
            f"not an ecarte record: format {str(kind)[:40]!r}; replay reads "
            f"{DEAL_FORMAT!r}, {MATCH_FORMAT!r} or {BANK_FORMAT!r}"
        )
    if len(result["frames"]) > MAX_FRAMES:
        raise ProtocolError(f"the record has more than {MAX_FRAMES} steps")
    return result
