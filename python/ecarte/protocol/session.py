"""The engine protocol, once for every transport: a :class:`Session` holds games by id and
answers one request with one response (docs/protocol.md).

A :class:`Client` is one connection: the seats it holds in each game, and where events
for it go. A client that holds every seat of a game (``ecarte engine``'s own games) may
see everything in it; a client in one seat sees only that seat's view. A refused request
changes nothing.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Mapping
from typing import Any, Final

import ecarte
from ecarte._core import MAX_SAMPLES
from ecarte._public import api_dir
from ecarte.analysis import DEFAULT_ANALYSIS_THRESHOLD, DEFAULT_ANALYSIS_WORLDS
from ecarte.bank import Table
from ecarte.bank import odds as bank_odds
from ecarte.bank.table import MODES, TABLE_DEFAULTS
from ecarte.duel import (
    AGENT_SPECS,
    AGENTS,
    DEFAULT_LEVEL,
    LEVELS,
    BoundTest,
    Deal,
    GaveUp,
    Match,
    Rules,
    action_values,
    parse_agent,
    solve,
)
from ecarte.errors import EcarteError, IllegalActionError, InvalidRulesError, TableError
from ecarte.protocol.analysis import (
    MAX_ANALYSED_DEALS,
    AnalysisOptions,
    analysis,
    analysis_options,
    analysis_result,
)
from ecarte.protocol.bookkeeping import SPECTATOR, Bookkeeping, Departure
from ecarte.protocol.clients import ALL_SEATS, Client
from ecarte.protocol.games import BankTable, Holder, OpenDuel, PlayDuel, WatchDuel
from ecarte.protocol.replay import replay
from ecarte.protocol.store import Store, StoreError
from ecarte.protocol.thinking import think
from ecarte.protocol.views import card_faces
from ecarte.protocol.wire import (
    MAX_MESSAGE_BYTES,
    PROTOCOL,
    PROTOCOL_VERSION,
    AccessError,
    ProtocolError,
    Request,
    error_response,
    parse_message,
    to_line,
)
from ecarte.registry import game_kinds, record_formats
from ecarte.seeding import agent_seed

__all__ = ["ALL_SEATS", "Client", "Session"]
__dir__ = api_dir(globals())

#: The seats a client holds in a game: ``ALL_SEATS``, or some.
Grant = set[int] | None
#: The longest ``go`` limit, in seconds.
MAX_GO_SECONDS: Final = 60.0
#: Players at one table.
MAX_PLAYERS: Final = 8
MAX_CHIPS: Final = 10**9
RULE_FIELDS: Final = frozenset({"order", "allow_trump_discard", "max_exchanges", "target"})
#: Answers ``replay`` elsewhere: the record's text in; the result as JSON and the CPU
#: seconds it took out.
Replayer = Callable[[str], tuple[str, float]]
#: Answers ``analyse`` of a record elsewhere: the record's text and the options in; the
#: result as JSON (or the error refusing it) and the CPU seconds it took out.
Analyser = Callable[[str, AnalysisOptions], tuple["str | EcarteError", float]]


class Encoded(str):
    """A result already encoded as JSON (by a :data:`Replayer`)."""


def _fields(*names: str) -> frozenset[str]:
    return frozenset(names)


#: Each command's fields (besides ``id`` and ``cmd``).
COMMANDS: Final = {
    "hello": _fields(),
    "new": _fields(
        "kind", "seed", "dealer", "first_dealer", "rules", "deck", "record", "opponent", "seat",
        "agents", "players", "banker", "bank", "mode", "fixed_stake", "chips", "obliged",
    ),
    "join": _fields("game", "player", "seat_token"),
    "observe": _fields("game", "seat"),
    "legal": _fields("game", "seat"),
    "apply": _fields("game", "action", "seat"),
    "undo": _fields("game"),
    "go": _fields("game", "agent", "level", "time", "apply", "seed"),
    "advance": _fields("game"),
    "solve": _fields("game", "objective", "values", "bound", "max_nodes"),
    "odds": _fields("game", "trump_card", "seen"),
    "record": _fields("game"),
    "replay": _fields("record"),
    "analyse": _fields("game", "deal", "record", "worlds", "seed", "threshold"),
    "close": _fields("game"),
    "quit": _fields(),
}  # fmt: skip


class Session(Bookkeeping):
    """The games of one engine process or one web server, and the protocol's commands.

    ``open_games``: clients may create games whose every seat they hold (deals and matches
    without agents, from any seed, deck or record); a web server allows only games against
    agents, spectated matches and tables, with fresh seeds it never sends.

    Its games and clients are kept by :class:`~ecarte.protocol.bookkeeping.Bookkeeping`, within
    budgets: ``games_per_client`` live games per connection, ``games_per_address`` per
    peer (every connection from one address; by default ``max_games``) and ``max_games``
    in all. ``cpu_budget`` (seconds, seconds per second): each peer's CPU time, charged
    after each request (:class:`~ecarte.protocol.clients.CpuBudget`; a transport makes an
    overdrawn peer wait). ``max_worlds`` bounds the worlds of any agent.

    ``store``: where the games are kept across restarts
    (:class:`~ecarte.protocol.store.Store`): each game's recipe, seats and every step
    taken in it, each stored before its request is answered; :meth:`restore` brings them
    back."""

    def __init__(
        self,
        *,
        open_games: bool = True,
        max_games: int = 1000,
        games_per_client: int = 1000,
        games_per_address: int | None = None,
        max_worlds: int = MAX_SAMPLES,
        secret_ids: bool = False,
        cpu_budget: tuple[float, float] | None = None,
        store: Store | None = None,
    ) -> None:
        super().__init__(
            max_games=max_games,
            games_per_client=games_per_client,
            games_per_address=max_games if games_per_address is None else games_per_address,
            secret_ids=secret_ids,
            cpu_budget=cpu_budget,
            store=store,
        )
        self.open_games = open_games
        self.max_worlds = max_worlds
        #: Each variant's games of ``new`` (its kinds: ``ecarte.registry``).
        self._new_game: dict[str, Callable[[Request, str], tuple[Holder, Grant]]] = {
            "duel": self._new_duel,
            "bank": self._new_bank,
        }
        #: Where ``replay`` is answered (``None``: here, in the calling thread).
        self.replayer: Replayer | None = None
        #: Where ``analyse`` of a record is answered (``None``: here, in the calling thread).
        self.analyser: Analyser | None = None
        #: While stored games are made again: their recipes carry the seeds they were dealt.
        self._restoring = False

    # ------------------------------------------------------------------ entry points
    def __repr__(self) -> str:
        return f"<Session games={len(self._entries)} open_games={self.open_games}>"

    def handle_line(self, client: Client, line: str | bytes) -> str:
        """One request line in, one response line out."""
        return self._respond(client, line)[1]

    def handle(self, client: Client, message: str | bytes | Mapping[str, Any]) -> dict[str, Any]:
        """Answers one request (a JSON line, or the decoded object); never raises."""
        response = self._respond(client, message)[0]
        if isinstance(response.get("result"), Encoded):
            response["result"] = json.loads(response["result"])
        return response

    def _respond(
        self, client: Client, message: str | bytes | Mapping[str, Any]
    ) -> tuple[dict[str, Any], str]:
        """The response and its line; the CPU time it took is charged to the peer."""
        began = time.thread_time()
        response = self._answer(client, message)
        result = response.get("result")
        if isinstance(result, Encoded):
            line = f'{{"id":{json.dumps(response["id"])},"ok":true,"result":{result}}}'
        else:
            line = to_line(response)
        if response["ok"] and len(line) > 8 * MAX_MESSAGE_BYTES:
            response = error_response(
                ProtocolError("the answer would be longer than 8 MiB"), response["id"]
            )
            line = to_line(response)
        if client.peer.cpu is not None:
            client.peer.cpu.charge(time.thread_time() - began)
        return response, line

    def _answer(self, client: Client, message: str | bytes | Mapping[str, Any]) -> dict[str, Any]:
        ident: object = None
        try:
            if isinstance(message, Mapping):
                request = parse_message(json.dumps(dict(message)))
            else:
                request = parse_message(message)
            ident = request.id
            allowed = COMMANDS.get(request.cmd)
            if allowed is None:
                raise ProtocolError(
                    f"unknown command {str(request.cmd)[:40]!r}; commands: {', '.join(COMMANDS)}"
                )
            request.check_fields(allowed)
            result = getattr(self, f"_cmd_{request.cmd}")(client, request)
            return {"id": ident, "ok": True, "result": result}
        except EcarteError as exc:
            return error_response(exc, ident)
        except (TypeError, ValueError, OverflowError, KeyError, RecursionError) as exc:
            return error_response(ProtocolError(f"bad request: {str(exc)[:200]}"), ident)
        except Exception as exc:  # a bug: report it, keep serving
            return error_response(EcarteError(f"internal error: {type(exc).__name__}"), ident)

    def restore(self) -> tuple[int, list[str]]:
        """Brings back every game of the store (before any client connects): each made
        again from its recipe and its steps taken again, in order, through the code that
        took them, its seats held by their stored tokens. The games restored, and a line
        for each game that could not be (left in the store, untouched)."""
        if self.store is None:
            return 0, []
        restored, failed = 0, []
        self._restoring = True
        try:
            for stored in self.store.load():
                try:
                    request = Request({"cmd": "new", **stored.recipe})
                    holder, _ = self._build(request)
                    for step in stored.steps:
                        self._do(holder, step)
                except Exception as exc:  # one bad game keeps no other back
                    failed.append(f"game {stored.game} not restored: {exc}")
                    continue
                times = (stored.created, stored.used)
                self._restored(stored.game, holder, stored.owner, times, stored.tokens)
                restored += 1
        finally:
            self._restoring = False
        return restored, failed

    def disconnect(self, client: Client) -> None:
        """Forgets a closed connection: its seats stay for a rejoin with their tokens, and
        the other seats at its tables are told it left."""
        self._announce(self._release(client))

    # ------------------------------------------------------------------ helpers
    def _holder(self, client: Client, request: Request) -> tuple[str, Holder, int | None]:
        """The game a request names, and the client's seat in it (``None``: every seat, or
        a seat the request may name)."""
        game = request.text("game", limit=64)
        with self._lock:
            entry = self._entries.get(game)
            if entry is None or game not in client.grants:
                raise ProtocolError(f"no game {game!r} here (or not joined)")
            entry.used = time.time()
            holder, grant = entry.holder, client.grants[game]
        if request.cmd in ("observe", "legal", "apply") and request.has("seat"):
            seat = request.integer("seat", 0, holder.seats - 1)
            if grant is not ALL_SEATS and seat not in grant:
                raise AccessError(f"you do not hold seat {seat} of this game")
            return game, holder, seat
        if grant is ALL_SEATS:
            return game, holder, None
        return game, holder, min(grant)

    def _require_all(self, client: Client, game: str, what: str) -> None:
        if client.grants.get(game, set()) is not ALL_SEATS:
            raise AccessError(f"{what} shows hidden cards: only a client holding every seat")

    def _announce(self, departures: list[Departure]) -> None:
        """Tells the other seats of each game that a seat's player left."""
        for game, entry, seat in departures:
            with entry.holder.lock:
                names = entry.holder.seat_names()
                self._broadcast(game, entry.holder, None, "left", seat=seat, player=names[seat])

    def _state(self, game: str, holder: Holder, seat: int | None) -> dict[str, Any]:
        view = holder.view(seat)
        view["game"] = game
        if isinstance(holder, BankTable):
            with self._lock:
                entry = self._entries.get(game)
                view["seated"] = sorted(entry.tokens) if entry else []
                view["connected"] = sorted(entry.seated) if entry else []
        return view

    def _broadcast(
        self,
        game: str,
        holder: Holder,
        source: Client | None,
        event: str = "update",
        **fields: Any,
    ) -> None:
        """Tells every other seated client of a game its new view (called under the game's
        lock, so that the views are of one state)."""
        with self._lock:
            entry = self._entries.get(game)
            seated = entry.seated.items() if entry is not None else ()
            others = [(s, c) for s, c in seated if c is not source]
        for seat, other in others:
            if other.notify is not None:
                state = self._state(game, holder, seat)
                other.notify({"event": event, "game": game, **fields, "state": state})

    def _spec(self, request: Request, name: str, default: str) -> str:
        return self._check_spec(request.text(name, default, limit=32))

    def _seed(self, request: Request) -> int | None:
        if request.has("seed") and not self.open_games and not self._restoring:
            raise AccessError("this server deals with seeds of its own (a seed shows the cards)")
        return request.seed() if request.has("seed") else None

    # ------------------------------------------------------------------ commands
    def _cmd_hello(self, client: Client, request: Request) -> dict[str, Any]:
        return {
            "protocol": PROTOCOL,
            "version": PROTOCOL_VERSION,
            "engine": ecarte.__version__,
            "commands": list(COMMANDS),
            "agents": AGENT_SPECS,
            "levels": dict(LEVELS),
            "default_level": DEFAULT_LEVEL,
            "rules": json.loads(Rules().to_json()),
            "builtin_agents": [
                {
                    "name": agent.name,
                    "searches": agent.searches,
                    "default_worlds": agent.default_worlds,
                    "max_worlds": agent.max_worlds,
                    "levels": dict(agent.levels),
                    "description": agent.description,
                }
                for agent in AGENTS
            ],
            "limits": {
                "message_bytes": MAX_MESSAGE_BYTES,
                "games": self.max_games,
                "games_per_client": self.games_per_client,
                "games_per_address": self.games_per_address,
                "worlds": self.max_worlds,
                "go_seconds": MAX_GO_SECONDS,
                "players": MAX_PLAYERS,
                "analysed_deals": None if self.open_games else MAX_ANALYSED_DEALS,
            },
            "analysis": {
                "worlds": min(DEFAULT_ANALYSIS_WORLDS, self.max_worlds),
                "threshold": DEFAULT_ANALYSIS_THRESHOLD,
            },
            "open_games": self.open_games,
            "kinds": {kind: variant.name for kind, variant in game_kinds().items()},
            "records": {
                name: {"variant": f.variant, "description": f.description, "replay": bool(f.replay)}
                for name, f in record_formats().items()
            },
            "table": {"defaults": dict(TABLE_DEFAULTS), "modes": list(MODES)},
            **card_faces(),
        }

    def _build(self, request: Request) -> tuple[Holder, Grant]:
        """The game a ``new`` request makes, and the seats its client is granted."""
        kind = request.text("kind", limit=8)
        kinds = game_kinds()
        if kind not in kinds:
            raise ProtocolError(
                f"new: kind must be one of {', '.join(map(repr, kinds))}, got {kind!r}"
            )
        return self._new_game[kinds[kind].name](request, kind)

    def _do(self, holder: Holder, step: Mapping[str, Any]) -> Any:
        """Takes one step in a game (under its lock): ``{"do": "apply", "seat", "action"}``,
        ``{"do": "undo", "seat"}`` or ``{"do": "advance"}``; what it returns. Every step a
        client takes goes through here, and so does every stored step when the game is
        made again."""
        what = step["do"]
        if what == "apply":
            holder.apply(step["seat"], step["action"])
            return None
        if what == "undo":
            return holder.undo(step["seat"])
        if what == "advance" and isinstance(holder, WatchDuel):
            return holder.advance()
        raise ProtocolError(f"no such step: {what!r}")

    def _take(self, game: str, holder: Holder, step: dict[str, Any]) -> Any:
        """:meth:`_do`, then the step stored (durably, before any answer), with whether it
        finished the game; finished games beyond the store's count are dropped. A step
        that cannot be stored is refused, and the game let go until a restart."""
        done = self._do(holder, step)
        if self.store is not None:
            try:
                pruned = self.store.step(game, step, holder.is_over())
            except StoreError:
                # The game here is a step ahead of its file: it is let go, and the file's
                # state (the last one acknowledged) comes back when the server restarts.
                with self._lock:
                    self._drop(game, delete=False)
                raise
            if pruned:
                with self._lock:
                    for old in pruned:
                        self._drop(old)
        return done

    def _cmd_new(self, client: Client, request: Request) -> dict[str, Any]:
        holder, grant = self._build(request)
        recipe = dict(request.fields)
        if (seed := holder.seed()) is not None:
            recipe["seed"] = seed  # kept, never sent: it deals every card to come
        game, token = self._add(client, holder, grant, recipe)
        if isinstance(holder, WatchDuel) and not self.open_games:
            token = self._spectator_token(game)
        seat = min(grant) if grant else None
        result = {"game": game, "state": self._state(game, holder, seat)}
        if token is not None:
            result["seat_token"] = token
        return result

    def _new_duel(self, request: Request, kind: str) -> tuple[Holder, Grant]:
        rules = _rules(request.obj("rules")) if request.has("rules") else None
        seed = self._seed(request)
        agents = request.texts("agents", 2) if request.has("agents") else None
        opponent = request.has("opponent")
        if (agents or opponent) and kind != "match":
            raise ProtocolError("new: agents play matches (kind 'match')")
        if request.has("record") or request.has("deck"):
            if not self.open_games:
                raise AccessError("this server replays records with the 'replay' command")
            if request.has("record") and request.has("deck"):
                raise ProtocolError("new: give a record or a deck, not both")
            if request.has("record"):
                text = request.record()
                return OpenDuel(
                    Deal.from_json(text) if kind == "deal" else Match.from_json(text)
                ), None
            if kind != "deal":
                raise ProtocolError("new: a deck lays out one deal (kind 'deal')")
            dealer = request.optional_integer("dealer", 0, 1)
            return OpenDuel(Deal.from_deck(request.texts("deck", 32), dealer, rules)), None
        if kind == "deal":
            if not self.open_games:
                raise AccessError("this server plays matches against agents: give an opponent")
            return OpenDuel(Deal(seed, request.optional_integer("dealer", 0, 1), rules)), None
        first = request.optional_integer("first_dealer", 0, 1)
        match = Match(None, first, seed, rules)
        if agents is not None:
            if opponent or len(agents) != 2:
                raise ProtocolError("new: agents names the two seats' agents; or give an opponent")
            specs = (self._check_spec(agents[0]), self._check_spec(agents[1]))
            return WatchDuel(match, specs), None
        if opponent:
            seat = request.integer("seat", 0, 1, default=0) if request.has("seat") else 0
            return PlayDuel(match, self._spec(request, "opponent", DEFAULT_LEVEL), seat), {seat}
        if not self.open_games:
            raise AccessError("this server plays matches against agents: give an opponent")
        return OpenDuel(match), None

    def _check_spec(self, spec: str) -> str:
        spec = LEVELS.get(spec, spec)
        _, worlds = parse_agent(spec)
        if worlds is not None and worlds > self.max_worlds:
            raise ProtocolError(f"{spec}: this server allows at most {self.max_worlds} worlds")
        return spec

    def _new_bank(self, request: Request, kind: str) -> tuple[Holder, Grant]:
        # On a shared table the creator holds no seat: the players join by its id.
        return self._new_table(request), ALL_SEATS if self.open_games else set()

    def _new_table(self, request: Request) -> BankTable:
        if request.has("record"):
            if not self.open_games:
                raise AccessError("this server replays records with the 'replay' command")
            return BankTable(Table.from_json(request.record()))
        players = request.texts("players", MAX_PLAYERS)
        if any(len(p) > 24 for p in players):
            raise InvalidRulesError("player names are at most 24 characters")
        chips: Any = None
        if request.has("chips"):
            raw = request.fields["chips"]
            chips = request.integer("chips", 0, MAX_CHIPS) if not isinstance(raw, dict) else raw
            if isinstance(chips, dict) and not all(
                isinstance(v, int) and not isinstance(v, bool) and 0 <= v <= MAX_CHIPS
                for v in chips.values()
            ):
                raise InvalidRulesError(f"chips are whole numbers from 0 to {MAX_CHIPS}")
        shoe = None
        if request.has("shoe"):
            if not self.open_games:
                raise AccessError("this server shuffles its own shoe")
            shoe = request.texts("shoe", 104)
        # A setting left out is the table's own default (TABLE_DEFAULTS, sent in hello).
        settings: dict[str, Any] = {}
        if request.has("chips"):
            settings["chips"] = chips
        if request.has("mode"):
            settings["mode"] = request.text("mode", limit=8)  # the table checks it
        if request.has("obliged"):
            settings["obliged"] = request.flag("obliged", False)
        if request.has("banker"):
            settings["banker"] = request.integer("banker", 0, MAX_PLAYERS - 1)
        if request.has("bank"):
            settings["bank"] = request.integer("bank", 1, MAX_CHIPS)
        if request.has("fixed_stake"):
            settings["fixed_stake"] = request.integer("fixed_stake", 1, MAX_CHIPS)
        return BankTable(Table(players, seed=self._seed(request), shoe=shoe, **settings))

    def _cmd_join(self, client: Client, request: Request) -> dict[str, Any]:
        game = request.text("game", limit=64)
        with self._lock:
            entry = self._entries.get(game)
            if entry is None or not isinstance(entry.holder, (BankTable, PlayDuel, WatchDuel)):
                raise ProtocolError(f"no game {game!r} here to join")
            holder, tokens = entry.holder, entry.tokens
            token = ""
            if request.has("seat_token"):
                token = request.text("seat_token", limit=64)
                opened = self._opened(entry, token)
                if opened is None:
                    raise AccessError("that seat token opens no seat of this game")
                if opened == SPECTATOR:
                    client.grants[game] = ALL_SEATS
                    entry.clients.add(client)
                    entry.used = time.time()
                    state = self._state(game, holder, None)
                    return {"game": game, "seat": None, "seat_token": token, "state": state}
                seat = opened
            elif not isinstance(holder, BankTable):
                raise AccessError(
                    "a game against an agent or a spectated match is rejoined with its token"
                )
            elif not request.has("player"):  # the lobby: who sits where
                return {
                    "game": game,
                    "players": holder.table.players,
                    "seated": sorted(tokens),
                }
            else:
                player = request.text("player", limit=24)
                if player not in holder.table.players:
                    raise TableError(f"no player {player!r}: {holder.table.players}")
                seat = holder.table.players.index(player)
                if seat in tokens:
                    raise AccessError(f"{player!r} is taken: rejoin with its seat token")
                if client.grants.get(game):
                    raise AccessError("one seat per client at a table")
            token = self._seat(client, game, entry, seat, token)
            entry.used = time.time()
        with holder.lock:
            self._broadcast(game, holder, client)
        return {
            "game": game,
            "seat": seat,
            "seat_token": token,
            "state": self._state(game, holder, seat),
        }

    def _cmd_observe(self, client: Client, request: Request) -> dict[str, Any]:
        game, holder, seat = self._holder(client, request)
        with holder.lock:
            return self._state(game, holder, seat)

    def _cmd_legal(self, client: Client, request: Request) -> dict[str, Any]:
        _, holder, seat = self._holder(client, request)
        with holder.lock:
            legal = holder.legal(seat)
            result: dict[str, Any] = {"legal": [a if isinstance(a, str) else str(a) for a in legal]}
            if isinstance(holder, BankTable):
                result["legal_actions"] = holder.legal_actions(seat)
        return result

    def _cmd_apply(self, client: Client, request: Request) -> dict[str, Any]:
        game, holder, seat = self._holder(client, request)
        if "action" not in request.fields:
            raise ProtocolError("apply: the field 'action' is required")
        with holder.lock:
            self._take(
                game, holder, {"do": "apply", "seat": seat, "action": request.fields["action"]}
            )
            state = self._state(game, holder, seat)
            self._broadcast(game, holder, client)
        return state

    def _cmd_undo(self, client: Client, request: Request) -> dict[str, Any]:
        game, holder, seat = self._holder(client, request)
        with holder.lock:
            undone = self._take(game, holder, {"do": "undo", "seat": seat})
            state = self._state(game, holder, seat)
            self._broadcast(game, holder, client)
        return {"undone": undone, "state": state}

    def _cmd_go(self, client: Client, request: Request) -> dict[str, Any]:
        game, holder, seat = self._holder(client, request)
        if request.has("agent") and request.has("level"):
            raise ProtocolError("go: give an agent or a level, not both")
        spec = self._spec(request, "level" if request.has("level") else "agent", DEFAULT_LEVEL)
        limit = request.number("time", 0.0, MAX_GO_SECONDS) if request.has("time") else None
        apply = request.flag("apply", False)
        with holder.lock:
            if isinstance(holder, PlayDuel):
                match, mover = holder.match, holder.seat
                if match.current_player != mover:
                    raise IllegalActionError("go: it is not your turn")
                default_seed = agent_seed(match.seed, 2)
                observation, legal = match.observation(mover), match.legal_actions()
            elif isinstance(holder, OpenDuel):
                mover_or_none = holder.game.current_player
                if mover_or_none is None:
                    raise IllegalActionError("go: the game is over")
                mover = mover_or_none
                default_seed = agent_seed(holder.deal.seed or 0, mover)
                if isinstance(holder.game, Match):
                    default_seed = agent_seed(holder.game.seed, mover)
                observation, legal = holder.game.observation(mover), holder.game.legal_actions()
            else:
                raise ProtocolError(f"go: a {holder.kind} game has no move to think about")
            seed = request.seed() if request.has("seed") else default_seed
            thought = think(observation, legal, spec, seed, limit)
            result: dict[str, Any] = {
                "action": str(thought.action),
                "agent": thought.agent,
                "seconds": round(thought.seconds, 6),
            }
            if apply:
                self._take(
                    game, holder, {"do": "apply", "seat": seat, "action": str(thought.action)}
                )
                result["state"] = self._state(game, holder, seat)
        return result

    def _cmd_advance(self, client: Client, request: Request) -> dict[str, Any]:
        game, holder, _ = self._holder(client, request)
        if not isinstance(holder, WatchDuel):
            raise ProtocolError("advance: only a match between agents advances by itself")
        with holder.lock:
            return {"game": game, **self._take(game, holder, {"do": "advance"})}

    def _cmd_solve(self, client: Client, request: Request) -> dict[str, Any]:
        game, holder, _ = self._holder(client, request)
        self._require_all(client, game, "solve")
        if not isinstance(holder, OpenDuel):
            raise ProtocolError("solve: a duel deal or match")
        objective = request.text("objective", "points", limit=8)
        bound = request.optional_integer("bound", -(2**31), 2**31 - 1)
        max_nodes = request.optional_integer("max_nodes", 0, 2**64 - 1)
        values = request.flag("values", False)
        if values and (bound is not None or max_nodes is not None):
            raise ProtocolError("solve: values goes without bound and max_nodes")
        with holder.lock:
            deal = holder.deal
            answer = solve(deal, objective, bound=bound, max_nodes=max_nodes)
            result: dict[str, Any]
            if isinstance(answer, GaveUp):
                result = {"gave_up": True, "nodes": answer.nodes, "max_nodes": answer.max_nodes}
            elif isinstance(answer, BoundTest):
                result = {"bound": answer.bound, "at_least": answer.at_least, "nodes": answer.nodes}
            else:
                result = {
                    "value": answer.value,
                    "best_actions": [str(a) for a in answer.best_actions],
                    "nodes": answer.nodes,
                }
            if values:
                result["values"] = {str(a): v for a, v in action_values(deal, objective)}
        return result

    def _cmd_odds(self, client: Client, request: Request) -> dict[str, Any]:
        if request.has("game"):
            if request.has("trump_card") or request.has("seen"):
                raise ProtocolError("odds: a game or a trump_card (and seen), not both")
            _, holder, _ = self._holder(client, request)
            if not isinstance(holder, BankTable):
                raise ProtocolError("odds: a bank table")
            with holder.lock:
                view = holder.table.punter_view()
            if view.trump_card is None:
                raise TableError("odds: no deal yet, so no trump card")
            trump, seen = view.trump_card, [str(c) for c in view.discards]
        else:
            trump = request.text("trump_card", limit=8)  # type: ignore[assignment]
            seen = request.texts("seen", 104) if request.has("seen") else []
        odds = bank_odds(trump_card=trump, removed=seen)
        return {
            "trump_card": str(trump),
            "banker": odds.banker,
            "en_carte": odds.en_carte,
            "punter": odds.punter,
            "exact": {k: f"{v.numerator}/{v.denominator}" for k, v in odds.exact.items()},
            "cards_left": odds.cards_left,
        }

    def _cmd_record(self, client: Client, request: Request) -> dict[str, Any]:
        game, holder, _ = self._holder(client, request)
        self._require_all(client, game, "the record")
        if not isinstance(holder, (OpenDuel, WatchDuel, BankTable)):
            raise AccessError("the record of a game against an agent shows its cards")
        with holder.lock:
            if isinstance(holder, WatchDuel) and not self.open_games and not holder.match.is_over():
                # The record holds the seed, which deals every card still to come.
                raise AccessError("a spectated match's record is given once the match is over")
            return {"record": holder.record()}

    def _cmd_replay(self, client: Client, request: Request) -> dict[str, Any] | Encoded:
        if self.replayer is None:
            return replay(request.record())
        encoded, seconds = self.replayer(request.record())
        self._charge(client, seconds)
        return Encoded(encoded)

    def _cmd_analyse(self, client: Client, request: Request) -> dict[str, Any] | Encoded:
        if request.has("game") == request.has("record"):
            raise ProtocolError("analyse: a game or a record, one of them")
        if request.has("record"):
            if request.has("deal"):
                raise ProtocolError("analyse: deal picks a deal of a game, not of a record")
            return self._analyse_record(client, request)
        game, holder, _ = self._holder(client, request)
        if isinstance(holder, OpenDuel):
            self._require_all(client, game, "analyse")
        elif not isinstance(holder, (PlayDuel, WatchDuel)):
            raise ProtocolError("analyse: a duel deal or match")
        number = None
        with holder.lock:
            played = holder.game if isinstance(holder, OpenDuel) else holder.match
            if request.has("deal"):
                deals = played.deals if isinstance(played, Match) else [played]
                number = request.integer("deal", 1, len(deals))
                target = deals[number - 1].to_json()
            else:
                target = played.to_json()
        # A seat facing an agent, or a spectator, sees a deal's hidden cards once it is
        # over: only the finished deals are analysed for them.
        finished = not isinstance(holder, OpenDuel)
        # A server runs it on one thread and charges the client its time.
        threads = None if self.open_games else 1
        start = time.perf_counter()
        try:
            result = analysis(
                request, target, finished=finished, max_worlds=self.max_worlds, threads=threads
            )
        finally:
            if not self.open_games:
                self._charge(client, time.perf_counter() - start)
        if number is not None:  # the deal's number in its game, not in its own record
            for decision in result["decisions"]:
                decision["deal"] = number
        return result

    def _analyse_record(self, client: Client, request: Request) -> dict[str, Any] | Encoded:
        """The analysis of the record the client sent, every deal of it (the client has
        seen them all). A server takes records of at most :data:`MAX_ANALYSED_DEALS` deals,
        analyses them as it replays records (in its worker, on one thread) and charges the
        client the CPU time, a refused record's included."""
        text = request.record()
        options = analysis_options(request, self.max_worlds)
        if self.open_games:
            return analysis_result(text, options, finished=False, threads=None)
        if self.analyser is None:
            start = time.perf_counter()
            try:
                return analysis_result(
                    text, options, finished=False, threads=1, max_deals=MAX_ANALYSED_DEALS
                )
            finally:
                self._charge(client, time.perf_counter() - start)
        answer, seconds = self.analyser(text, options)
        self._charge(client, seconds)
        if isinstance(answer, EcarteError):
            raise answer
        return Encoded(answer)

    def _charge(self, client: Client, seconds: float) -> None:
        if client.peer.cpu is not None:
            client.peer.cpu.charge(seconds)

    def _cmd_close(self, client: Client, request: Request) -> dict[str, Any]:
        game, holder, _ = self._holder(client, request)
        departures: list[Departure] = []
        with self._lock:
            if client.grants.get(game) is ALL_SEATS or isinstance(holder, PlayDuel):
                self._drop(game)
            else:
                departures = self._leave(client, game, self._entries[game])
                client.grants.pop(game, None)
        self._announce(departures)
        return {"closed": game}

    def _cmd_quit(self, client: Client, request: Request) -> dict[str, Any]:
        return {"bye": True}


def _rules(options: dict[str, Any]) -> Rules:
    unknown = sorted(set(options) - RULE_FIELDS)
    if unknown:
        raise InvalidRulesError(f"unknown rule {unknown[0]!r}; rules: {sorted(RULE_FIELDS)}")
    try:
        return Rules(**options)
    except TypeError as exc:
        raise InvalidRulesError(f"bad rules: {exc}") from None
