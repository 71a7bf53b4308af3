"""The wire format of the engine protocol (docs/protocol.md): reading one request, checking
its fields, and writing one response or error. Nothing here knows a game: a refusal's
reason is the engine's (``ecarte.duel.Reason``)."""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from typing import Any, Final

from ecarte._public import api_dir
from ecarte.duel import Reason
from ecarte.errors import EcarteError
from ecarte.seeding import check_seed

__all__ = [
    "MAX_ID_LENGTH",
    "MAX_MESSAGE_BYTES",
    "PROTOCOL",
    "PROTOCOL_VERSION",
    "AccessError",
    "ProtocolError",
    "Request",
    "error_response",
    "parse_message",
    "to_line",
]
__dir__ = api_dir(globals())

PROTOCOL: Final = "ecarte-engine"
PROTOCOL_VERSION: Final = 1
#: The largest request or response line, in bytes (a long bank session's record fits).
MAX_MESSAGE_BYTES: Final = 1 << 20
MAX_ID_LENGTH: Final = 64
#: Strings a request may hold (names, cards, actions), apart from records.
MAX_TEXT: Final = 256


class ProtocolError(EcarteError):
    """A request that is not a protocol message: not JSON, not an object, an unknown command
    or game, a missing, unknown or mistyped field, or a limit exceeded. ``ident`` is the
    request's id when it could be read."""

    def __init__(self, message: str, ident: object = None) -> None:
        super().__init__(message)
        self.ident = ident


class AccessError(EcarteError):
    """A request for a seat the client does not hold, or for what its seats may not see."""


class Request:
    """One checked request: its ``id``, its command and its other fields, read by type."""

    def __init__(self, message: Mapping[str, Any]) -> None:
        self.id = message.get("id")
        cmd = message.get("cmd")
        self.cmd: str = cmd if isinstance(cmd, str) else ""
        self.fields = {k: v for k, v in message.items() if k not in ("id", "cmd")}

    def check_fields(self, allowed: frozenset[str]) -> None:
        unknown = sorted(set(self.fields) - allowed)
        if unknown:
            expected = ", ".join(sorted(allowed)) or "none"
            raise ProtocolError(f"{self.cmd}: unknown field {unknown[0]!r} (fields: {expected})")

    def has(self, name: str) -> bool:
        return self.fields.get(name) is not None

    def text(self, name: str, default: str | None = None, limit: int = MAX_TEXT) -> str:
        value = self._get(name, default)
        if not isinstance(value, str):
            raise ProtocolError(f"{self.cmd}: {name} must be a string, got {_kind(value)}")
        if len(value) > limit:
            raise ProtocolError(f"{self.cmd}: {name} is longer than {limit} characters")
        return value

    def integer(self, name: str, low: int, high: int, default: int | None = None) -> int:
        value = self._get(name, default)
        if isinstance(value, bool) or not isinstance(value, int):
            raise ProtocolError(f"{self.cmd}: {name} must be a whole number, got {_kind(value)}")
        if not low <= value <= high:
            raise ProtocolError(f"{self.cmd}: {name} must be from {low} to {high}, got {value}")
        return value

    def optional_integer(self, name: str, low: int, high: int) -> int | None:
        return self.integer(name, low, high) if self.has(name) else None

    def seed(self, name: str = "seed") -> int:
        """A seed, checked as every seed is (``check_seed``): one that is no whole number is
        a ``ProtocolError``, one out of range an ``InvalidSeedError``."""
        try:
            return check_seed(self._get(name, None))
        except TypeError as exc:
            raise ProtocolError(f"{self.cmd}: {exc}") from None

    def number(self, name: str, low: float, high: float) -> float:
        value = self._get(name, None)
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise ProtocolError(f"{self.cmd}: {name} must be a number, got {_kind(value)}")
        if not (math.isfinite(value) and low < value <= high):
            raise ProtocolError(f"{self.cmd}: {name} must be above {low} and at most {high}")
        return float(value)

    def flag(self, name: str, default: bool) -> bool:
        value = self._get(name, default)
        if not isinstance(value, bool):
            raise ProtocolError(f"{self.cmd}: {name} must be true or false, got {_kind(value)}")
        return value

    def texts(self, name: str, most: int) -> list[str]:
        value = self._get(name, None)
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise ProtocolError(f"{self.cmd}: {name} must be a list of strings")
        if len(value) > most or any(len(v) > MAX_TEXT for v in value):
            raise ProtocolError(f"{self.cmd}: {name} holds more than {most} items or long ones")
        return list(value)

    def obj(self, name: str) -> dict[str, Any]:
        value = self._get(name, None)
        if not isinstance(value, dict):
            raise ProtocolError(f"{self.cmd}: {name} must be an object, got {_kind(value)}")
        return value

    def record(self, name: str = "record") -> str:
        """A record, given as its JSON text or as the JSON object itself."""
        value = self._get(name, None)
        if isinstance(value, dict):
            return json.dumps(value)
        if isinstance(value, str):
            return value
        raise ProtocolError(f"{self.cmd}: {name} must be a record object or its JSON text")

    def _get(self, name: str, default: Any) -> Any:
        value = self.fields.get(name)
        if value is None:
            if default is None:
                raise ProtocolError(f"{self.cmd}: the field {name!r} is required")
            return default
        return value


def _kind(value: object) -> str:
    return {dict: "an object", list: "a list", str: "a string", bool: "a boolean"}.get(
        type(value), "a number" if isinstance(value, (int, float)) else "null"
    )


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def parse_message(line: str | bytes) -> Request:
    """The request in one line of JSON; ``ProtocolError`` for anything that is not a JSON
    object with an ``id`` (a string or whole number) and a ``cmd`` string."""
    if len(line) > MAX_MESSAGE_BYTES:
        raise ProtocolError(f"the message is longer than {MAX_MESSAGE_BYTES} bytes")
    try:
        message = json.loads(line, parse_constant=_no_constant)
    except (ValueError, RecursionError) as exc:  # also bad UTF-8 and over-long integers
        raise ProtocolError(f"not a JSON message: {str(exc)[:120]}") from None
    if not isinstance(message, dict):
        raise ProtocolError("a request is a JSON object with an id and a cmd")
    request = Request(message)
    ident = request.id
    valid_id = (isinstance(ident, str) and len(ident) <= MAX_ID_LENGTH) or (
        isinstance(ident, int) and not isinstance(ident, bool) and abs(ident) < 2**53
    )
    if not valid_id:
        raise ProtocolError(
            f"id must be a string of at most {MAX_ID_LENGTH} characters or a whole number"
        )
    if not isinstance(message.get("cmd"), str):
        raise ProtocolError("cmd must be a string naming a command", ident)
    return request


def error_response(error: Exception, ident: object = None) -> dict[str, Any]:
    """The response for a refused request: the API's error class and its message, and for
    an action the engine refused, its ``reason``: the code, the cards and suit involved (as
    codes) and the sentence with suit symbols."""
    if isinstance(error, ProtocolError) and error.ident is not None:
        ident = error.ident
    kind = type(error).__name__ if isinstance(error, EcarteError) else "EcarteError"
    body: dict[str, Any] = {"type": kind, "message": str(error)[:2000]}
    reason = getattr(error, "reason", None) if isinstance(error, EcarteError) else None
    if isinstance(reason, Reason):
        body["reason"] = {
            "code": reason.code,
            "cards": [str(card) for card in reason.cards],
            "suit": None if reason.suit is None else str(reason.suit),
            "text": reason.text("symbols"),
        }
    return {"id": ident, "ok": False, "error": body}


def to_line(response: Mapping[str, Any]) -> str:
    """One response as a line of JSON (ASCII, so any transport can carry it)."""
    return json.dumps(response, separators=(",", ":"))
