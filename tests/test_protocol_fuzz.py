"""The engine protocol under hostile input, as ``tests/fuzz_api.py`` fuzzes the API:
random and mutated requests against live games. Every answer is a well-formed response
(never an exception, never an internal error), and a refused request changes no game."""

from __future__ import annotations

import copy
import json
import os
import random
from collections.abc import Callable
from typing import Any

import ecarte.errors
from ecarte.protocol import COMMANDS, Client, Session
from ecarte.protocol.games import BankTable, OpenDuel, PlayDuel, WatchDuel
from ecarte.web.app import web_session
from fuzz_api import HOSTILE, JSON_HOSTILE

DEEP = bool(os.environ.get("ECARTE_SLOW"))
ERROR_TYPES = {*ecarte.errors.__all__, "ProtocolError", "AccessError"}


def snapshot(session: Session) -> dict[str, Any]:
    """Every game's whole state."""
    state: dict[str, Any] = {}
    for game, holder in session.games.items():
        if isinstance(holder, OpenDuel):
            state[game] = holder.game.to_json()
        elif isinstance(holder, PlayDuel):
            state[game] = (holder.match.to_json(), list(holder.game.log))
        elif isinstance(holder, WatchDuel):
            state[game] = (holder.match.to_json(), holder.played)
        elif isinstance(holder, BankTable):
            state[game] = holder.table.to_json()
    return state


def valid_requests(games: dict[str, str]) -> list[dict[str, Any]]:
    """Well-formed requests for every command, to mutate."""
    deal, match, table, play = games["deal"], games["match"], games["table"], games["play"]
    return [
        {"cmd": "hello"},
        {"cmd": "new", "kind": "deal", "seed": 3, "rules": {"target": 5}},
        {"cmd": "new", "kind": "match", "opponent": "heuristic", "seat": 1},
        {"cmd": "new", "kind": "table", "players": ["a", "b"], "bank": 10, "chips": 50},
        {"cmd": "join", "game": table, "player": "b"},
        {"cmd": "observe", "game": deal, "seat": 1},
        {"cmd": "legal", "game": match},
        {"cmd": "apply", "game": deal, "action": "propose"},
        {"cmd": "apply", "game": play, "action": "decline"},
        {"cmd": "apply", "game": table, "action": ["stake", "b", 2, 10]},
        {"cmd": "undo", "game": match},
        {"cmd": "go", "game": deal, "agent": "pimc:2", "time": 0.01},
        {"cmd": "solve", "game": deal, "objective": "cards"},
        {"cmd": "solve", "game": deal, "bound": 1, "max_nodes": 50},
        {"cmd": "odds", "trump_card": "7H", "seen": ["KS"]},
        {"cmd": "record", "game": table},
        {"cmd": "replay", "record": {"format": "ecarte.duel.deal"}},
        {"cmd": "analyse", "game": match, "worlds": 2, "seed": 1, "threshold": 0.5},
        {"cmd": "close", "game": "g999"},
    ]


def mutate(request: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    out = copy.deepcopy(request)
    choice = rng.random()
    keys = sorted(out)
    if choice < 0.35:
        out[rng.choice(keys)] = rng.choice([*JSON_HOSTILE, -(2**70), "g1", ["deal"], {"a": []}])
    elif choice < 0.5:
        del out[rng.choice(keys)]
    elif choice < 0.6:
        out["x" * rng.randint(1, 3)] = 1
    elif choice < 0.75:
        out["cmd"] = rng.choice(list(COMMANDS))
    else:
        key = rng.choice(keys)
        value = out[key]
        if isinstance(value, list) and value:
            value[rng.randrange(len(value))] = rng.choice(JSON_HOSTILE)
        elif isinstance(value, dict) and value:
            value[rng.choice(sorted(value))] = rng.choice(JSON_HOSTILE)
        else:
            out[key] = rng.choice(JSON_HOSTILE)
    return out


def start(session: Session, client: Client) -> dict[str, str]:
    def new(**fields: Any) -> str:
        response = session.handle(client, {"id": 0, "cmd": "new", **fields})
        assert response["ok"], response
        return str(response["result"]["game"])

    games = {"play": new(kind="match", opponent="random")}
    if session.open_games:
        games["deal"] = new(kind="deal", seed=1)
        games["match"] = new(kind="match", seed=2)
        games["table"] = new(kind="table", players=["a", "b"], seed=3)
        session.handle(
            client, {"id": 0, "cmd": "apply", "game": games["table"], "action": ["deal"]}
        )
    else:
        games["table"] = new(kind="table", players=["a", "b"])
        session.handle(client, {"id": 0, "cmd": "join", "game": games["table"], "player": "a"})
        games["deal"] = games["match"] = games["play"]
    return games


def check(response: Any, ident: Any) -> None:
    assert isinstance(response, dict) and set(response) >= {"id", "ok"}, response
    json.dumps(response)  # always serialisable
    if not response["ok"]:
        error = response["error"]
        assert error["type"] in ERROR_TYPES, response
        assert not error["message"].startswith("internal error"), response


def run(make: Callable[[], Session], cases: int, seed: int) -> int:
    session, client = make(), Client()
    games = start(session, client)
    rng = random.Random(seed)
    requests = valid_requests(games)
    refused = 0
    lines: list[Any] = [*HOSTILE[17:], "{}", "[]", '{"id": 1}', '{"id": {}, "cmd": "x"}']
    lines.append('{"id": 1, "cmd": "new", "kind": "deal", "seed": 1e999}')
    lines.append('{"id": 1, "cmd": "new", "kind": "deal", "seed": ' + "9" * 5000 + "}")
    for line in lines:
        if isinstance(line, (str, bytes)):
            before = snapshot(session)
            check(session.handle(client, line), None)
            assert snapshot(session) == before
    for case in range(cases):
        request = mutate(rng.choice(requests), rng)
        request["id"] = case
        before = snapshot(session)
        response = session.handle(client, request)
        check(response, case)
        if not response["ok"]:
            refused += 1
            assert snapshot(session) == before, (request, response)
        if len(session.games) > 50:  # keep the state small: a fresh session now and then
            session = make()
            client = Client()
            games = start(session, client)
            requests = valid_requests(games)
    return refused


def test_hostile_requests_never_crash_the_engine_nor_change_a_game() -> None:
    cases = 20_000 if DEEP else 1_500
    assert run(Session, cases, seed=5) > cases // 3


def test_hostile_requests_never_crash_the_web_session_nor_change_a_game() -> None:
    cases = 20_000 if DEEP else 1_000
    assert run(web_session, cases, seed=6) > cases // 3
