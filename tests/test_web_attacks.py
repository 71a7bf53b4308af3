"""``ecarte serve`` as an attacker meets it, over real sockets: another site's page
(DNS rebinding), a flood of games from one address, many connections, a client that
never reads, and the headers of every response. Each loopback address ``127.x.y.z`` is
another peer to the server."""

from __future__ import annotations

import http.client
import json
import os
import signal
import statistics
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from cli_support import run_ecarte

pytest.importorskip("starlette")
from ecarte import duel
from ecarte.protocol import Session
from ecarte.protocol.games import BankTable
from ecarte.web.app import web_session
from webserver import Seat, Unread, running_server, ws_connect
from websockets.exceptions import ConnectionClosed, InvalidStatus

ATTACKER = "127.0.0.2"


@pytest.fixture(scope="module")
def server() -> Iterator[tuple[str, Session]]:
    with running_server(allowed_hosts=("cards.lan", "proxy.lan:443")) as (url, session):
        yield url, session


def ws_url(url: str) -> str:
    return url.replace("http", "ws") + "/ws"


def get(url: str, path: str, host: str | None = None, origin: str | None = None) -> Any:
    """The response to ``GET path``, naming ``host`` (default: the URL's)."""
    port = int(url.rsplit(":", 1)[1])
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    headers = {"Host": host or f"127.0.0.1:{port}"}
    if origin:
        headers["Origin"] = origin
    conn.request("GET", path, headers=headers)
    response = conn.getresponse()
    response.read()
    conn.close()
    return response


def test_a_page_of_another_site_rebound_to_this_machine_is_refused(
    server: tuple[str, Session],
) -> None:
    url, _ = server
    port = url.rsplit(":", 1)[1]
    evil = f"evil.example:{port}"
    with pytest.raises(InvalidStatus) as refused:
        ws_connect(ws_url(url), host=evil, origin=f"http://{evil}")
    assert refused.value.response.status_code == 403
    with pytest.raises(InvalidStatus):  # no Origin (not a browser) does not help
        ws_connect(ws_url(url), host=evil)
    for path in ("/", "/static/app.js", "/nowhere"):
        assert get(url, path, host=evil).status == 403
    # A loopback name with another port, or a page of another port, is another site.
    assert get(url, "/", host="localhost:1").status == 403
    with pytest.raises(InvalidStatus):
        ws_connect(ws_url(url), origin=f"http://127.0.0.1:{int(port) + 1}")
    with pytest.raises(InvalidStatus):
        ws_connect(ws_url(url), origin="null")


def test_the_loopback_names_and_the_allowed_hosts_are_served(server: tuple[str, Session]) -> None:
    url, _ = server
    port = url.rsplit(":", 1)[1]
    for host in (f"127.0.0.1:{port}", f"localhost:{port}", f"[::1]:{port}", f"cards.lan:{port}"):
        assert get(url, "/", host=host).status == 200
        with ws_connect(ws_url(url), host=host, origin=f"http://{host}") as ws:
            ws.send('{"id": 1, "cmd": "hello"}')
            assert json.loads(ws.recv(timeout=10))["ok"]
    assert get(url, "/", host="proxy.lan").status == 200  # a proxy's default port
    assert get(url, "/", host="proxy.lan:443").status == 200
    assert get(url, "/", host=f"proxy.lan:{port}").status == 403  # that name on 443 only
    assert get(url, "/", host="cards.lan:1").status == 403


def test_a_malformed_allowed_host_is_refused_at_start() -> None:
    hosts = ["--allowed-host", "cards.lan", "--allowed-host", "evil/path"]
    done = run_ecarte("serve", "--port", "0", *hosts, timeout=60)
    assert done.returncode == 2 and not done.stdout
    assert done.stderr == "error: --allowed-host: not a host name: 'evil/path'\n"


def test_every_response_carries_the_security_headers(server: tuple[str, Session]) -> None:
    url, _ = server
    port = url.rsplit(":", 1)[1]
    for path, host in [
        ("/", None),
        ("/static/app.js", None),
        ("/static/style.css", None),
        ("/static/nothing.js", None),
        ("/", f"evil.example:{port}"),
    ]:
        response = get(url, path, host=host)
        assert response.getheader("x-content-type-options") == "nosniff", path
        assert response.getheader("cache-control") == "no-cache", path
        assert "default-src 'self'" in response.getheader("content-security-policy"), path
        assert "frame-ancestors 'none'" in response.getheader("content-security-policy")
        assert response.getheader("x-frame-options") == "DENY"


def play_a_deal(seat: Seat) -> None:
    started = seat("new", kind="match", opponent="random", rules={"target": 1})["result"]
    game, state = started["game"], started["state"]
    while state["legal"]:
        state = seat("apply", game=game, action=state["legal"][0])["result"]


def test_a_live_table_outlasts_a_flood_of_games_from_another_address() -> None:
    with running_server() as (url, session):
        ann, bob = Seat(ws_url(url)), Seat(ws_url(url))
        game = ann("new", kind="table", players=["ann", "bob"])["result"]["game"]
        tokens = [ann("join", game=game, player="ann"), bob("join", game=game, player="bob")]
        ann("apply", game=game, action=["deal"])
        bob("apply", game=game, action=["stake", "bob", 2, 10])
        ann.close()
        bob.close()  # both asleep
        time.sleep(0.2)
        created = 0
        for _ in range(70):  # 8 games a connection, 70 reconnections: 560 games
            flood = Seat(ws_url(url), source=ATTACKER)
            for _ in range(8):
                answer = flood("new", kind="match", agents=["random", "random"])
                created += answer["ok"]
            flood.close()
        for token in tokens:
            back = Seat(ws_url(url))("join", game=game, seat_token=token["result"]["seat_token"])
            assert back["ok"], back
            assert back["result"]["state"]["stakes"][0]["player"] == "bob"
        assert created == 560  # each address replaces its own abandoned games
        assert len(session.games) <= 1 + 64


def test_many_connections_from_one_address_leave_room_for_another() -> None:
    with running_server() as (url, _):
        hostile = [Seat(ws_url(url), source=ATTACKER) for _ in range(64)]
        refused = 0
        for seat in hostile:
            for _ in range(8):
                answer = seat("new", kind="match", opponent="random")
                refused += not answer["ok"]
        other = Seat(ws_url(url))
        table = other("new", kind="table", players=["ann", "bob"])
        assert table["ok"], table
        assert other("join", game=table["result"]["game"], player="ann")["ok"]
        assert refused == 64 * 8 - 64  # one address holds 64 live games
        assert "your address holds 64 live games" in answer["error"]["message"]
        with pytest.raises(ConnectionClosed) as closed:  # a 65th connection
            extra = ws_connect(ws_url(url), source=ATTACKER)
            extra.recv(timeout=10)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1013
        for seat in hostile:
            seat.close()


def test_a_full_server_says_so_and_never_evicts_a_seat_or_a_young_game() -> None:
    session = web_session()
    session.max_games = 3
    with running_server(session) as (url, _):
        player = Seat(ws_url(url))
        player("new", kind="match", opponent="random")
        watcher = Seat(ws_url(url), source="127.0.0.3")
        watcher("new", kind="match", agents=["random", "random"])
        watcher.close()  # a spectated match nobody holds, but less than an hour old
        Seat(ws_url(url), source="127.0.0.4")("new", kind="table", players=["a", "b"])
        refused = Seat(ws_url(url), source=ATTACKER)("new", kind="match", opponent="random")
        assert refused["error"]["type"] == "ProtocolError"
        assert "the server is full" in refused["error"]["message"]
        assert len(session.games) == 3


def test_a_client_that_never_reads_is_closed_and_others_are_served() -> None:
    match = duel.Match(rules=duel.Rules(target=40))
    match.play(duel.BuiltinAgent("heuristic", 1), duel.BuiltinAgent("heuristic", 2))
    request = json.dumps({"id": 1, "cmd": "replay", "record": match.to_json()})
    with running_server() as (url, session):
        hostile = Unread(ws_url(url), source=ATTACKER)
        sent = 0
        while sent < 30 and hostile.send(request):
            sent += 1
        assert Seat(ws_url(url))("hello")["ok"]  # another client is served meanwhile
        deadline = time.monotonic() + 120
        while session.peers[ATTACKER].connections:  # until the server gives up on it
            assert time.monotonic() < deadline
            time.sleep(0.1)
        answers, code = hostile.read_all()
        assert code == 1008
        assert answers < sent  # cut off before all its answers were computed


def test_an_honest_move_keeps_its_latency_while_eight_connections_replay() -> None:
    match = duel.Match(rules=duel.Rules(target=40))
    match.play(duel.BuiltinAgent("heuristic", 1), duel.BuiltinAgent("heuristic", 2))
    request = json.dumps({"id": 1, "cmd": "replay", "record": match.to_json()})
    answered: list[bool] = []
    with running_server() as (url, _):
        replayers = [ws_connect(ws_url(url), source=ATTACKER) for _ in range(8)]

        def replay_over_and_over(ws: Any) -> None:
            try:
                while True:
                    ws.send(request)
                    answered.append(json.loads(ws.recv(timeout=120))["ok"])
            except (ConnectionClosed, OSError, TimeoutError):
                pass

        threads = [threading.Thread(target=replay_over_and_over, args=(ws,)) for ws in replayers]
        for thread in threads:
            thread.start()
        deadline = time.monotonic() + 120
        while len(answered) < 4:  # the replays under way
            assert time.monotonic() < deadline
            time.sleep(0.1)
        player = Seat(ws_url(url))
        started = player("new", kind="match", opponent="heuristic", rules={"target": 100})
        game, state = started["result"]["game"], started["result"]["state"]
        latencies, before = [], len(answered)
        for _ in range(12):
            time.sleep(0.1)
            began = time.perf_counter()
            state = player("apply", game=game, action=state["legal"][0])["result"]
            latencies.append(time.perf_counter() - began)
        while len(answered) == before:  # replays went on meanwhile
            assert time.monotonic() < deadline
            time.sleep(0.1)
        for ws in replayers:
            ws.close()
        for thread in threads:
            thread.join(30)
        assert all(answered)
        assert statistics.median(latencies) < 0.25, latencies


def stat_fields(process: Path) -> list[str]:
    """A process's ``/proc/PID/stat`` after its name: state, parent, ... (none if gone)."""
    try:
        return (process / "stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return []


def children_of(pid: int) -> list[Path]:
    """The ``/proc`` directories of a process's children (Linux)."""
    return [p for p in Path("/proc").glob("[0-9]*") if stat_fields(p)[1:2] == [str(pid)]]


def running(process: Path) -> bool:
    return stat_fields(process)[:1] not in ([], ["Z"])  # a zombie has ended


def test_a_record_too_long_to_analyse_is_refused_in_the_worker_and_charged() -> None:
    from ecarte.protocol.analysis import MAX_ANALYSED_DEALS
    from ecarte.web.app import WEB_LIMITS

    long = duel.Match(seed=4, rules=duel.Rules(target=100))
    long.play(duel.BuiltinAgent("random", 1), duel.BuiltinAgent("random", 2))
    assert len(long.deals) > MAX_ANALYSED_DEALS
    short = duel.Match(seed=4, rules=duel.Rules(target=2))
    short.play(duel.BuiltinAgent("random", 1), duel.BuiltinAgent("random", 2))
    # A budget that the refusal alone overdraws, refilled slowly.
    session = Session(**{**WEB_LIMITS, "cpu_budget": (1e-6, 1e-3)})  # type: ignore[arg-type]
    with running_server(session) as (url, held):
        attacker = Seat(ws_url(url), source=ATTACKER)
        refused = attacker("analyse", record=long.to_json(), worlds=100)
        assert not refused["ok"] and refused["error"]["type"] == "ProtocolError"
        assert f"at most {MAX_ANALYSED_DEALS}" in refused["error"]["message"]
        cpu = held.peers[ATTACKER].cpu
        assert cpu is not None and cpu.wait() > 0  # charged, though refused
        # Another address is served meanwhile, its record analysed as the API does.
        honest = Seat(ws_url(url))
        answer = honest("analyse", record=short.to_json(), worlds=2, seed=9)
        assert answer["ok"], answer
        expected = duel.analyse(short, worlds=2, seed=9)
        assert answer["result"]["decisions"] == [d.to_dict() for d in expected.decisions]
        attacker.close()
        honest.close()


def test_the_replay_worker_ends_with_the_server_however_it_ends() -> None:
    from webserver import serve_process

    record = duel.Match(rules=duel.Rules(target=2)).to_json()
    for how in (signal.SIGTERM, signal.SIGKILL):
        with serve_process() as (url, server):
            with ws_connect(url.replace("http", "ws") + "ws") as ws:
                ws.send(json.dumps({"id": 1, "cmd": "replay", "record": record}))
                assert json.loads(ws.recv(timeout=60))["ok"]
                analyse = {"id": 2, "cmd": "analyse", "record": record, "worlds": 1}
                ws.send(json.dumps(analyse))
                assert json.loads(ws.recv(timeout=60))["ok"]
            children = children_of(server.pid)
            # The replay and analysis workers (and multiprocessing's resource tracker).
            assert len(children) >= 3
            server.send_signal(how)
            server.wait(30)
            deadline = time.monotonic() + 10
            while any(running(child) for child in children):
                assert time.monotonic() < deadline, f"a worker outlived the server ({how.name})"
                time.sleep(0.1)


def test_departures_and_a_seat_taken_by_another_tab_are_told() -> None:
    with running_server() as (url, _):
        ann, bob = Seat(ws_url(url)), Seat(ws_url(url))
        game = ann("new", kind="table", players=["ann", "bob"])["result"]["game"]
        ann("join", game=game, player="ann")
        token = bob("join", game=game, player="bob")["result"]["seat_token"]
        ann.drain()
        second_tab = Seat(ws_url(url))
        rejoined = second_tab("join", game=game, seat_token=token)["result"]
        assert rejoined["state"]["connected"] == [0, 1]
        moved = bob.drain()
        assert {"event": "moved", "game": game, "seat": 1} in moved
        second_tab.close()
        left = [e for e in ann.drain(1.0) if e["event"] == "left"]
        assert len(left) == 1 and left[0]["seat"] == 1 and left[0]["player"] == "bob"
        assert left[0]["state"]["connected"] == [0] and left[0]["state"]["seated"] == [0, 1]
        assert ann("observe", game=game)["result"]["connected"] == [0]
        bob_again = Seat(ws_url(url))
        assert bob_again("join", game=game, seat_token=token)["ok"]  # the seat stayed
        assert bob_again("close", game=game)["ok"]  # gives up the seat
        assert [e["player"] for e in ann.drain(1.0) if e["event"] == "left"] == ["bob"]


def test_budgets_follow_the_address_across_reconnections() -> None:
    session = Session(max_games=100, games_per_client=8, games_per_address=20, cpu_budget=(1, 1))
    first = session.connect("127.0.0.9")
    session.handle(first, {"id": 1, "cmd": "new", "kind": "deal"})
    session.disconnect(first)
    again = session.connect("127.0.0.9")
    assert again.peer is first.peer and len(again.peer.games) == 1
    assert session.connect("::ffff:127.0.0.9").peer is again.peer
    assert session.connect("2001:db8::1").peer is session.connect("2001:db8::2").peer  # a /64
    assert session.connect("127.0.0.10").peer is not again.peer
    for _ in range(8):  # the first connection's game counts for the address, not for it
        assert session.handle(again, {"id": 1, "cmd": "new", "kind": "deal"})["ok"]
    refused = session.handle(again, {"id": 2, "cmd": "new", "kind": "deal"})
    assert "a connection holds at most 8 live games" in refused["error"]["message"]
    assert again.peer.cpu is not None
    again.peer.cpu.charge(3.0)  # an expensive request: the peer's next one waits
    session.disconnect(again)
    assert session.connect("127.0.0.9").peer.cpu.wait() > 1.0  # type: ignore[union-attr]


def test_a_table_creator_holds_no_seat_and_the_table_counts_in_its_budget() -> None:
    session = web_session()
    host = session.connect("127.0.0.5")
    game = session.handle(host, {"id": 1, "cmd": "new", "kind": "table", "players": ["a", "b"]})
    holder = session.games[game["result"]["game"]]
    assert isinstance(holder, BankTable) and host.peer.games == {game["result"]["game"]}


LOAD = pytest.mark.skipif(
    not os.environ.get("ECARTE_WEB_LOAD"), reason="a long run: ECARTE_WEB_LOAD=1 (docs/testing.md)"
)
BENCHES = Path(__file__).parents[1] / "benches"


def bench(*args: str) -> dict[str, Any]:
    """The JSON line a bench script prints (the server in a process of its own)."""
    done = subprocess.run(
        [sys.executable, str(BENCHES / args[0]), *args[1:]],
        capture_output=True,
        text=True,
        timeout=900,
        check=True,
    )
    result: dict[str, Any] = json.loads(done.stdout.splitlines()[-1])
    return result


@LOAD
def test_the_server_s_memory_stays_flat_while_clients_never_read() -> None:
    result = bench("web_attack.py", "unread", "--rounds", "3", "--seconds", "15")
    rounds = result["rounds"]
    assert all(r["close_code"] == 1008 for r in rounds), rounds
    assert all(r["rss_peak_mib"] < result["rss_before_mib"] + 64 for r in rounds), result
    assert rounds[-1]["rss_peak_mib"] < rounds[0]["rss_peak_mib"] + 16, result


@LOAD
def test_200_games_at_a_person_s_pace_answer_within_50_ms() -> None:
    result = bench("load_web.py", "--games", "200", "--pace", "0.5", "--deals", "7")
    assert result["failures"] == 0 and result["moves"] > 10_000, result
    assert result["p99_ms"] <= 50, result
