"""``ecarte serve`` keeps its games in SQLite (docs/protocol.md, "Persistence"), tested as
an operator meets a crash: the real server in a process of its own, killed with SIGKILL
while a duel against an agent, a spectated match and a bank table are played
(``ECARTE_KILLS`` times, default 8), then started again on the same file. Every seat
rejoins with its token to the state it last had acknowledged, and play goes on. A kill
while a request is in flight may keep that request's step (it was written, not yet
answered) or not: the stored steps are counted to tell which, and never fall below the
acknowledged ones.
"""

from __future__ import annotations

import json
import os
import random
import signal
import sqlite3
import subprocess
import threading
from contextlib import suppress
from pathlib import Path
from typing import Any

import pytest
from cli_support import ECARTE, run_ecarte

pytest.importorskip("starlette")
pytest.importorskip("websockets")

from webserver import Seat, serve_process
from websockets.exceptions import ConnectionClosed

#: Times the server is killed in the scripted sessions.
KILLS = int(os.environ.get("ECARTE_KILLS", "8"))
#: What a connection to a killed server raises.
GONE = (ConnectionClosed, OSError, TimeoutError)
#: The fields of a table's view that every seat sees alike.
PERSONAL = ("you", "legal", "legal_actions", "connected")


def ws_url(url: str) -> str:
    return url.replace("http", "ws") + "ws"


def serve(*args: str) -> subprocess.CompletedProcess[str]:
    return run_ecarte("serve", "--port", "0", *args, timeout=60)


def shared(view: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in view.items() if k not in PERSONAL}


def stored_steps(db: Path, game: str) -> list[dict[str, Any]]:
    """The steps of ``game`` in the server's file, read as an operator would."""
    connection = sqlite3.connect(db)
    try:
        query = "SELECT step FROM steps WHERE game = ? ORDER BY number"
        return [json.loads(row[0]) for row in connection.execute(query, (game,))]
    finally:
        connection.close()


class Scripted:
    """A duel against ``heuristic``, a spectated match and a table for ann (the banker)
    and bob, played one request at a time: the tokens, and for each game the state last
    acknowledged and the actions acknowledged."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.games: dict[str, str] = {}
        self.tokens: dict[str, str] = {}
        self.acked: dict[str, dict[str, Any]] = {}
        #: Each game's acknowledged actions, in order (``None``: an advance).
        self.actions: dict[str, list[Any]] = {"duel": [], "watch": [], "table": []}
        #: The game of the request in flight, and its action (``None``: an advance).
        self.inflight: str | None = None
        self.sent: Any = None
        self.seats: dict[str, Seat] = {}

    def connect(self, url: str) -> None:
        self.seats = {name: Seat(ws_url(url)) for name in ("duel", "watch", "ann", "bob")}

    def close(self) -> None:
        for seat in self.seats.values():
            with suppress(*GONE):
                seat.close()

    def start(self) -> None:
        made = self.seats["duel"]("new", kind="match", opponent="heuristic", rules={"target": 12})
        self.games["duel"], self.tokens["duel"] = (
            made["result"]["game"],
            made["result"]["seat_token"],
        )
        self.acked["duel"] = made["result"]["state"]
        agents = ["heuristic", "random"]
        made = self.seats["watch"]("new", kind="match", agents=agents, rules={"target": 30})
        self.games["watch"], self.tokens["watch"] = (
            made["result"]["game"],
            made["result"]["seat_token"],
        )
        self.acked["watch"] = made["result"]["state"]
        self.new_table()

    def new_table(self) -> None:
        """A table for ann (the banker) and bob, both seated."""
        table = self.seats["ann"]("new", kind="table", players=["ann", "bob"], bank=200)
        self.games["table"] = table["result"]["game"]
        self.actions["table"] = []
        for name in ("ann", "bob"):
            joined = self.seats[name]("join", game=self.games["table"], player=name)["result"]
            self.tokens[name] = joined["seat_token"]
            self.acked["table"] = joined["state"]

    def rejoin(self) -> dict[str, dict[str, Any]]:
        """Each seat back with its token: the state each is given."""
        states = {}
        for name in ("duel", "watch", "ann", "bob"):
            game = self.games["table" if name in ("ann", "bob") else name]
            answer = self.seats[name]("join", game=game, seat_token=self.tokens[name])
            assert answer["ok"], answer
            states[name] = answer["result"]["state"]
        return states

    def check(self, db: Path, states: dict[str, dict[str, Any]]) -> None:
        """The states after a restart are the acknowledged ones (or, where a request was in
        flight and its step was stored, the states after it)."""
        for game in ("duel", "watch", "table"):
            steps = stored_steps(db, self.games[game])
            acked = len(self.actions[game])
            late = self.inflight == game and len(steps) == acked + 1
            assert len(steps) == acked or late, (game, len(steps), acked)
            if late:  # the step in flight, whole
                assert steps[-1].get("action") == self.sent, (steps[-1], self.sent)
                self.actions[game].append(self.sent)
            assert [step.get("action") for step in steps] == self.actions[game]
            views = [states["ann"], states["bob"]] if game == "table" else [states[game]]
            if late:  # answered by no one: the stored step is the state now
                assert shared(views[0]) != shared(self.acked[game])
                self.acked[game] = views[-1]
            elif game == "duel":
                assert views[0] == self.acked["duel"]
            elif game == "watch":  # the view, without the frames of the deal last played
                assert views[0] == {k: self.acked["watch"][k] for k in views[0]}
            else:
                for view in views:
                    assert shared(view) == shared(self.acked["table"])
        self.inflight = None

    def play(self, steps: int) -> None:
        for _ in range(steps):
            self.step(self.rng.choice(("duel", "watch", "table")))

    def step(self, game: str) -> None:
        if game == "duel":
            legal = self.acked["duel"]["legal"]
            if legal:
                self.act("duel", "duel", self.rng.choice(legal))
            return
        if game == "watch":
            if not self.acked["watch"]["over"]:
                self.act("watch", "watch", None)
            return
        move = self.table_move()
        if move is not None:
            self.act("table", *move)

    def table_move(self) -> tuple[str, list[Any]] | None:
        """The next table action: bob's first legal one (his stakes), else ann's (she
        deals, reveals, settles and decides), never a shuffle of the rest."""
        for name in ("bob", "ann"):
            seat_view = self.seats[name]("observe", game=self.games["table"])["result"]
            for legal in seat_view["legal_actions"]:
                action, bounds = list(legal["action"]), legal["bounds"]
                if action[0] == "shuffle_rest":
                    continue
                if bounds is not None and not bounds["optional"]:
                    action.append(min(bounds["max"], max(bounds["min"], 10)))
                return name, action
        return None  # the session is over

    def act(self, game: str, name: str, action: Any) -> None:
        """``action`` applied by seat ``name`` (``None``: the next deal of a spectated
        match)."""
        self.inflight, self.sent = game, action
        if action is None:
            answer = self.seats[name]("advance", game=self.games[game])
        else:
            answer = self.seats[name]("apply", game=self.games[game], action=action)
        self.inflight = None
        if answer["ok"]:
            self.actions[game].append(action)
            self.acked[game] = answer["result"]


#: Table steps, at most, to reach three settled deals and a stake.
SET_UP_STEPS = 2000


def kill(server: subprocess.Popen[str]) -> None:
    server.send_signal(signal.SIGKILL)
    server.wait(30)


def test_kill_9_at_any_point_loses_no_acknowledged_step(tmp_path: Path) -> None:
    db = tmp_path / "serve.sqlite3"
    script = Scripted(seed=35)
    with serve_process(db=str(db)) as (url, server):
        script.connect(url)
        script.start()
        # Three settled deals and bob's stake on the table when the server dies. The server
        # shuffles with seeds of its own, so a session may end first, or bob run out of
        # chips to stake: then a new table.
        for _ in range(SET_UP_STEPS):
            table = script.acked["table"]
            if table["deals_played"] >= 3 and table["phase"] == "staking" and table["stakes"]:
                break
            if table["deals_played"] > 12 or script.table_move() is None:
                script.new_table()
            else:
                script.step("table")
        else:
            pytest.fail(f"no table reached three deals and a stake in {SET_UP_STEPS} steps")
        script.play(3)
        script.close()
        kill(server)
    rng = random.Random(9)
    for kills in range(KILLS + 1):
        with serve_process(db=str(db)) as (url, server):
            script.connect(url)
            states = script.rejoin()
            script.check(db, states)
            if kills == 0:
                assert states["bob"]["deals_played"] >= 3 and states["bob"]["stakes"]
                assert states["ann"]["ledger"] == script.acked["table"]["ledger"]
            if kills == KILLS:  # the last restart: play goes on
                for game in ("duel", "watch", "table"):
                    before, state = len(script.actions[game]), script.acked[game]
                    for _ in range(3):
                        script.step(game)
                    over = state.get("over") or state.get("phase") == "over"
                    assert len(script.actions[game]) > before or over, game
                break
            if kills % 2 == 0:  # between two requests
                script.play(rng.randint(1, 6))
                kill(server)
            else:  # while requests are in flight, a write among them
                killer = threading.Timer(
                    rng.uniform(0.0, 0.4), server.send_signal, [signal.SIGKILL]
                )
                killer.start()
                with suppress(*GONE):
                    while True:
                        script.play(1)
                killer.join()
                server.wait(30)
            script.close()


def finish_a_match(seat: Seat) -> tuple[str, str]:
    """A match against ``random`` to one point, played to its end: its id and token."""
    made = seat("new", kind="match", opponent="random", rules={"target": 1})["result"]
    state = made["state"]
    while state["legal"]:
        state = seat("apply", game=made["game"], action=state["legal"][0])["result"]
    assert state["over"]
    return made["game"], made["seat_token"]


def test_keep_bounds_the_finished_games_and_never_a_live_one(tmp_path: Path) -> None:
    db = str(tmp_path / "serve.sqlite3")
    with serve_process("--keep", "2", db=db) as (url, server):
        seat = Seat(ws_url(url))
        live = seat("new", kind="match", opponent="random")["result"]
        table = seat("new", kind="table", players=["ann", "bob"])["result"]["game"]
        ann = seat("join", game=table, player="ann")["result"]["seat_token"]
        finished = [finish_a_match(seat) for _ in range(4)]
        seat.close()
        kill(server)
    with serve_process("--keep", "2", db=db) as (url, _):
        seat = Seat(ws_url(url))
        assert seat("join", game=live["game"], seat_token=live["seat_token"])["ok"]
        assert seat("join", game=table, seat_token=ann)["ok"]
        kept = [seat("join", game=g, seat_token=t) for g, t in finished]
        assert [answer["ok"] for answer in kept] == [False, False, True, True]
        assert "no game" in kept[0]["error"]["message"]
        assert kept[3]["result"]["state"]["over"]


@pytest.mark.parametrize("keep", ["-1", "513", "many"])
def test_a_keep_out_of_range_is_refused(keep: str) -> None:
    done = serve("--db", ":memory:", "--keep", keep)
    assert done.returncode == 2 and not done.stdout
    assert len(done.stderr.splitlines()) == 1 and "--keep" in done.stderr


def test_two_servers_never_share_a_database(tmp_path: Path) -> None:
    db = str(tmp_path / "serve.sqlite3")
    with serve_process(db=db):
        done = serve("--db", db)
        assert done.returncode == 2 and not done.stdout
        assert (
            done.stderr
            == f"error: {db}: in use by another ecarte serve (give each server its own --db)\n"
        )
    with serve_process(db=db):  # free again once the first has stopped
        pass


def write(path: Path, *statements: str) -> None:
    """Runs ``statements`` on the SQLite file ``path``, as another program would."""
    connection = sqlite3.connect(path)
    for statement in statements:
        connection.execute(statement)
    connection.commit()
    connection.close()


def foreign_files(folder: Path) -> dict[str, tuple[Path, str]]:
    """Files that are no database of this ecarte's: each with what its one line says."""
    text = folder / "notes.txt"
    text.write_text("not a database\n" * 20)
    other = folder / "other.sqlite3"
    write(other, "CREATE TABLE people (name TEXT)", "INSERT INTO people VALUES ('ann')")
    other_app = folder / "other_app.sqlite3"
    write(other_app, "PRAGMA application_id = 1234", "CREATE TABLE t (x)")
    newer = folder / "newer.sqlite3"
    with serve_process(db=str(newer)):
        pass
    write(newer, "PRAGMA user_version = 99")
    damaged = folder / "damaged.sqlite3"
    with serve_process(db=str(damaged)) as (url, _):
        seat = Seat(ws_url(url))
        for _ in range(3):
            finish_a_match(seat)
        seat.close()
    data = bytearray(damaged.read_bytes())
    data[100:] = bytes(len(data) - 100)  # every page but the header's zeroed
    damaged.write_bytes(bytes(data))
    return {
        "text": (text, "not an ecarte serve database (not an SQLite file)"),
        "other": (other, "not an ecarte serve database (another program's)"),
        "other_app": (other_app, "not an ecarte serve database (another program's)"),
        "newer": (newer, "written by a newer ecarte (schema 99; this one reads 1)"),
        "damaged": (damaged, "not a usable database"),
    }


def test_a_foreign_or_damaged_file_is_refused_in_one_line_and_left_untouched(
    tmp_path: Path,
) -> None:
    for name, (path, says) in foreign_files(tmp_path).items():
        before = path.read_bytes()
        done = serve("--db", str(path))
        assert done.returncode == 2 and not done.stdout, name
        assert len(done.stderr.splitlines()) == 1, (name, done.stderr)
        assert done.stderr.startswith(f"error: {path}: ") and says in done.stderr, name
        assert "Traceback" not in done.stderr
        assert path.read_bytes() == before, name


def test_the_default_database_is_in_the_users_data_folder_and_only_theirs(tmp_path: Path) -> None:
    env = dict(os.environ, XDG_DATA_HOME=str(tmp_path))
    command = [*ECARTE, "serve", "--port", "0"]
    server = subprocess.Popen(command, stdout=subprocess.PIPE, text=True, env=env)
    try:
        assert server.stdout is not None
        assert "the web app is at" in server.stdout.readline()
        made = tmp_path / "ecarte" / "serve.sqlite3"
        assert made.is_file()
        assert made.stat().st_mode & 0o777 == 0o600  # it holds the seeds: its owner's alone
    finally:
        server.terminate()
        server.wait(10)


def test_an_action_that_cannot_be_stored_is_refused_and_the_file_keeps_the_last_answered(
    tmp_path: Path,
) -> None:
    from ecarte.protocol.store import Store
    from ecarte.web.app import web_session

    db = tmp_path / "serve.sqlite3"
    store = Store(db)
    session = web_session(store)
    client = session.connect("127.0.0.1")
    made = session.handle(client, {"id": 1, "cmd": "new", "kind": "match", "opponent": "random"})
    game, token = made["result"]["game"], made["result"]["seat_token"]
    move = {"id": 2, "cmd": "apply", "game": game, "action": made["result"]["state"]["legal"][0]}
    acked = session.handle(client, move)["result"]
    store._db.execute("PRAGMA query_only = ON")  # the disk takes no more writes
    move = {"id": 3, "cmd": "apply", "game": game, "action": acked["legal"][0]}
    refused = session.handle(client, move)
    assert (
        refused["error"]["type"] == "StoreError" and "cannot write" in refused["error"]["message"]
    )
    observed = session.handle(client, {"id": 4, "cmd": "observe", "game": game})
    assert "no game" in observed["error"]["message"]  # let go: never a state the file lacks
    store.close()
    again = web_session(Store(db))
    assert again.restore() == (1, [])
    join = {"id": 1, "cmd": "join", "game": game, "seat_token": token}
    assert again.handle(again.connect("127.0.0.1"), join)["result"]["state"] == acked
