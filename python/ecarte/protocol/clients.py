"""Who holds what in a session: a :class:`Client` is one connection, a :class:`Peer` every
connection from one address. A session's budgets count live games per connection and per
peer, and a peer's CPU time; a peer outlives its connections, so reconnecting resets
neither. Everything here but the connections themselves is plain data (keys, counts,
hashes), so that a session can store it."""

from __future__ import annotations

import hashlib
import ipaddress
import secrets
import threading
import time
from collections.abc import Callable
from typing import Any, Final

from ecarte._public import api_dir

__all__ = [
    "ALL_SEATS",
    "LOCAL",
    "Client",
    "CpuBudget",
    "Notify",
    "Peer",
    "hash_token",
    "new_token",
    "peer_key",
]
__dir__ = api_dir(globals())

#: A client's grant for a game whose every seat it holds.
ALL_SEATS: Final = None
#: Where a client's events go (a transport's sender).
Notify = Callable[[dict[str, Any]], None]
#: The peer of a client without an address (``ecarte engine``'s pipe, a test's session).
LOCAL: Final = "local"


def peer_key(address: str | None) -> str:
    """The peer an address belongs to: an IPv4 address itself, an IPv6 address's /64
    network (one host commonly holds a whole /64), :data:`LOCAL` without an address."""
    if not address:
        return LOCAL
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return address[:64]
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.IPv6Network((ip, 64), strict=False))
    return str(ip)


def new_token() -> str:
    """A fresh seat token (32 random characters)."""
    return secrets.token_urlsafe(24)


def hash_token(token: str) -> str:
    """What a session keeps of a seat token: its SHA-256, so that a stored session opens
    no seat."""
    return hashlib.sha256(token.encode()).hexdigest()


class CpuBudget:
    """A peer's CPU time as a token bucket: at most ``seconds`` saved up, refilled at
    ``per_second``. Work is charged after it ran, so the level may fall below zero; the
    peer's next request then waits until it is back to zero."""

    def __init__(self, seconds: float, per_second: float) -> None:
        self.seconds = seconds
        self.per_second = per_second
        self._level = seconds
        self._stamp = time.monotonic()
        self._lock = threading.Lock()

    def _refill(self) -> float:
        now = time.monotonic()
        self._level = min(self.seconds, self._level + (now - self._stamp) * self.per_second)
        self._stamp = now
        return self._level

    def charge(self, used: float) -> None:
        with self._lock:
            self._refill()
            self._level -= used

    def wait(self) -> float:
        """Seconds until the budget is no longer overdrawn (0: now)."""
        with self._lock:
            level = self._refill()
        return 0.0 if level >= 0 else -level / self.per_second

    def full(self) -> bool:
        with self._lock:
            return self._refill() >= self.seconds


class Peer:
    """Every connection from one address: the live games they created (by id), how many
    connections are open, and the CPU budget they share (``None``: unbounded)."""

    def __init__(self, key: str, cpu: CpuBudget | None = None) -> None:
        self.key = key
        self.games: set[str] = set()
        self.connections = 0
        self.cpu = cpu

    def idle(self) -> bool:
        """Nothing to remember: no connection, no live game, no CPU time owed."""
        return not self.connections and not self.games and (self.cpu is None or self.cpu.full())


class Client:
    """One connection: the seats it holds by game (``ALL_SEATS`` for every seat), the live
    games it created, its peer, and the callable that takes its events (``None``: it takes
    none). A client made without a peer is a peer of its own."""

    def __init__(
        self,
        notify: Notify | None = None,
        peer: Peer | None = None,
    ) -> None:
        self.grants: dict[str, set[int] | None] = {}
        self.games: set[str] = set()
        self.notify = notify
        self.peer = peer if peer is not None else Peer(LOCAL)
        self.closed = False

    def __repr__(self) -> str:
        return f"<Client peer={self.peer.key} games={len(self.games)} closed={self.closed}>"
