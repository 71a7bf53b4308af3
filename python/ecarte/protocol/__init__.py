"""The engine protocol (docs/protocol.md): JSON requests and responses over any transport.

:class:`Session` holds the games and answers requests; ``ecarte engine`` speaks it over
standard input and output (:mod:`ecarte.protocol.stdio`), ``ecarte serve`` over a WebSocket
(:mod:`ecarte.web`).
"""

from __future__ import annotations

from ecarte._public import api_dir
from ecarte.protocol.session import ALL_SEATS, COMMANDS, Client, Session
from ecarte.protocol.wire import (
    MAX_MESSAGE_BYTES,
    PROTOCOL,
    PROTOCOL_VERSION,
    AccessError,
    ProtocolError,
)

__all__ = [
    "ALL_SEATS",
    "COMMANDS",
    "MAX_MESSAGE_BYTES",
    "PROTOCOL",
    "PROTOCOL_VERSION",
    "AccessError",
    "Client",
    "ProtocolError",
    "Session",
]
__dir__ = api_dir(globals())
