"""The games a session holds and who holds them: each game's owner (the peer whose budget
it counts in), its seats and their tokens (stored hashed), the connections in them, and
the rules that keep the budgets (docs/protocol.md, "Limits").

Budgets count live games, never every game a client made: ``games_per_client`` per
connection and ``games_per_address`` per peer (every connection from one address). A
connection at its cap is refused; an address at its cap has its least recently used game
that no open connection holds closed to make room (never a table where someone sits),
else ``new`` is refused. ``max_games`` bounds the games held: when full, the least
recently used game that nobody holds or sits in and that has been idle for
:data:`PROTECTED_SECONDS` is dropped, else ``new`` is refused and says the server is full.
So no client can take another's table or seat, nor more than its address's share.

Everything kept is plain data (ids, keys, times, token hashes) besides the connections
themselves, and with a :class:`~ecarte.protocol.store.Store` it is stored as it changes: a
game made, a seat's token, a game dropped (the session stores each step taken in a game).
"""

from __future__ import annotations

import itertools
import secrets
import threading
import time
from dataclasses import dataclass, field
from typing import Any, Final

from ecarte._public import api_dir
from ecarte.protocol.clients import (
    ALL_SEATS,
    Client,
    CpuBudget,
    Notify,
    Peer,
    hash_token,
    new_token,
    peer_key,
)
from ecarte.protocol.games import BankTable, Holder
from ecarte.protocol.store import Store
from ecarte.protocol.wire import ProtocolError

__all__ = ["PROTECTED_SECONDS", "SPECTATOR", "Bookkeeping", "Departure", "Entry"]
__dir__ = api_dir(globals())

#: A game used within this many seconds is never evicted to make room for another's.
PROTECTED_SECONDS: Final = 3600.0
#: Where a spectated match keeps its spectator's token among its seats' tokens (a
#: spectator holds no seat).
SPECTATOR: Final = -1


@dataclass(eq=False)
class Entry:
    """A game the session holds, and who holds it: the peer that created it (whose budget
    it counts in) and the connection that did, when it was created and last used, each
    taken seat's token (hashed), the connection in each seat now, and every connection
    with a grant to it."""

    holder: Holder
    owner: Peer
    creator: Client
    created: float
    used: float
    tokens: dict[int, str] = field(default_factory=dict)
    seated: dict[int, Client] = field(default_factory=dict)
    clients: set[Client] = field(default_factory=set)

    def shared(self) -> bool:
        """A table where someone has taken a seat: other people's game too."""
        return isinstance(self.holder, BankTable) and bool(self.tokens)


#: A seat whose player left: (game, its entry, the seat).
Departure = tuple[str, Entry, int]


class Bookkeeping:
    """The games held, their seats and clients, and the budgets (see the module). The
    session's commands build on it."""

    def __init__(
        self,
        *,
        max_games: int,
        games_per_client: int,
        games_per_address: int,
        secret_ids: bool,
        cpu_budget: tuple[float, float] | None,
        store: Store | None = None,
    ) -> None:
        self.max_games = max_games
        self.games_per_client = games_per_client
        self.games_per_address = games_per_address
        self.secret_ids = secret_ids
        self.cpu_budget = cpu_budget
        #: Where the games are kept across restarts (``None``: nowhere).
        self.store = store
        self._entries: dict[str, Entry] = {}
        self._peers: dict[str, Peer] = {}
        self._counter = itertools.count(1)
        self._lock = threading.RLock()

    @property
    def games(self) -> dict[str, Holder]:
        """The games held, by id."""
        with self._lock:
            return {game: entry.holder for game, entry in self._entries.items()}

    @property
    def peers(self) -> dict[str, Peer]:
        """The peers known, by key: each with live games, open connections or CPU owed."""
        with self._lock:
            return dict(self._peers)

    def connect(self, address: str | None = None, notify: Notify | None = None) -> Client:
        """A new connection from ``address`` (an IP address; ``None``: a local pipe). Its
        peer (and so its budgets) is that of every other connection from the address."""
        with self._lock:
            peer = self._peer(peer_key(address))
            peer.connections += 1
        return Client(notify, peer)

    def _peer(self, key: str) -> Peer:
        """The peer of ``key``, made if new (forgetting the idle ones)."""
        peer = self._peers.get(key)
        if peer is None:
            for idle in [k for k, p in self._peers.items() if p.idle()]:
                del self._peers[idle]
            budget = None if self.cpu_budget is None else CpuBudget(*self.cpu_budget)
            peer = self._peers[key] = Peer(key, budget)
        return peer

    def _release(self, client: Client) -> list[Departure]:
        """Forgets a closed connection (once): its seats stay taken, for their tokens; the
        seats it left."""
        with self._lock:
            if client.closed:
                return []
            client.closed = True
            departures = [
                seat
                for game in list(client.grants)
                if game in self._entries
                for seat in self._leave(client, game, self._entries[game])
            ]
            client.grants.clear()
            client.peer.connections = max(0, client.peer.connections - 1)
        return departures

    def _add(
        self, client: Client, holder: Holder, grant: set[int] | None, recipe: dict[str, Any]
    ) -> tuple[str, str | None]:
        """Holds a new game for ``client``, made by ``recipe`` (the fields of its ``new``
        request, and its seed): its id, and the seat token of the seat it was given (if
        any)."""
        with self._lock:
            self._make_room(client)
            game = self._new_id()
            now = time.time()
            if self.store is not None:
                self.store.create(game, recipe, client.peer.key, now)
            entry = self._entries[game] = Entry(holder, client.peer, client, now, now)
            client.games.add(game)
            client.peer.games.add(game)
            token = None
            if grant is ALL_SEATS:
                client.grants[game] = ALL_SEATS
                entry.clients.add(client)
            elif grant:
                token = self._seat(client, game, entry, min(grant))
            return game, token

    def _new_id(self) -> str:
        while True:
            game = secrets.token_urlsafe(16) if self.secret_ids else f"g{next(self._counter)}"
            if game not in self._entries:  # restored games hold ids of an earlier run
                return game

    def _restored(
        self,
        game: str,
        holder: Holder,
        owner: str,
        times: tuple[float, float],
        tokens: dict[int, str],
    ) -> None:
        """Holds a game brought back from the store: its owner's, its seats taken by their
        stored tokens, no connection in it yet."""
        with self._lock:
            peer = self._peer(owner)
            creator = Client(None, peer)
            creator.closed = True
            entry = Entry(holder, peer, creator, *times, tokens=dict(tokens))
            self._entries[game] = entry
            creator.games.add(game)
            peer.games.add(game)

    def _make_room(self, client: Client) -> None:
        """Makes room for one more game of ``client`` within its budgets and the server's
        (see the module), or refuses."""
        if len(client.games) >= self.games_per_client:
            raise ProtocolError(
                f"a connection holds at most {self.games_per_client} live games: close one"
            )
        if len(client.peer.games) >= self.games_per_address:
            abandoned = [
                (entry.used, game)
                for game in client.peer.games
                if not (entry := self._entries[game]).clients and not entry.shared()
            ]
            if not abandoned:
                raise ProtocolError(
                    f"your address holds {self.games_per_address} live games, the most one "
                    "address may hold, and each is in use: close one"
                )
            self._drop(min(abandoned)[1])
        if len(self._entries) >= self.max_games:
            now = time.time()
            idle = [
                (entry.used, game)
                for game, entry in self._entries.items()
                if not entry.clients and not entry.tokens and now - entry.used >= PROTECTED_SECONDS
            ]
            if not idle:
                raise ProtocolError(
                    f"the server is full: it holds {self.max_games} games, its limit, and "
                    "every one is in use; try again later"
                )
            self._drop(min(idle)[1])

    def _drop(self, game: str, *, delete: bool = True) -> None:
        """Lets a game go, deleting it from the store too unless ``delete`` is false."""
        entry = self._entries.pop(game, None)
        if entry is None:
            return
        if self.store is not None and delete:
            self.store.drop(game)
        entry.owner.games.discard(game)
        entry.creator.games.discard(game)
        for other in entry.clients:
            other.grants.pop(game, None)

    def _seat(self, client: Client, game: str, entry: Entry, seat: int, token: str = "") -> str:
        """Seats ``client`` (and only it) at ``seat``, moving it from any other seat of the
        game; the connection that held the seat is told it moved. The seat's token: the
        one it was opened with, else a new one (stored before the seat is taken)."""
        if not token:
            token = new_token()
            digest = hash_token(token)
            if self.store is not None:
                self.store.seat(game, seat, digest)
            entry.tokens[seat] = digest
        previous = entry.seated.get(seat)
        if previous is not None and previous is not client:
            previous.grants.pop(game, None)
            entry.clients.discard(previous)
            if previous.notify is not None:
                previous.notify({"event": "moved", "game": game, "seat": seat})
        for other in [s for s, c in entry.seated.items() if c is client and s != seat]:
            del entry.seated[other]
        entry.seated[seat] = client
        entry.clients.add(client)
        client.grants[game] = {seat}
        return token

    def _spectator_token(self, game: str) -> str:
        """A token that gives a spectated match back to its spectator on another
        connection, or after a restart."""
        token = new_token()
        digest = hash_token(token)
        with self._lock:
            if self.store is not None:
                self.store.seat(game, SPECTATOR, digest)
            self._entries[game].tokens[SPECTATOR] = digest
        return token

    def _opened(self, entry: Entry, token: str) -> int | None:
        """The seat of ``entry`` that ``token`` opens, if any."""
        digest = hash_token(token)
        found = [s for s, h in entry.tokens.items() if secrets.compare_digest(h, digest)]
        return found[0] if found else None

    def _leave(self, client: Client, game: str, entry: Entry) -> list[Departure]:
        """Takes ``client`` out of a game (its seats stay taken, for their tokens); the
        seats it left."""
        entry.clients.discard(client)
        left = [seat for seat, holder in entry.seated.items() if holder is client]
        for seat in left:
            del entry.seated[seat]
        return [(game, entry, seat) for seat in left]
