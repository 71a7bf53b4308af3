"""``ecarte serve`` over a real WebSocket: no hidden card and no secret reaches a client
(every message of whole games of every kind inspected, ``record`` and ``replay``
included), hostile messages change nothing, a seat can be rejoined."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip("starlette")
from ecarte import Card, duel
from ecarte.protocol import Session
from ecarte.protocol.games import BankTable, PlayDuel, WatchDuel
from ecarte.web.app import STATIC
from webserver import Seat, running_server
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

#: Fields that hold ids and tokens (random text), not game text.
OPAQUE = {"game", "seat_token"}


@pytest.fixture(scope="module")
def server() -> Iterator[tuple[str, Session]]:
    with running_server() as (url, session):
        yield url.replace("http", "ws") + "/ws", session


def strings(value: Any, key: str = "") -> Iterator[str]:
    if isinstance(value, dict):
        for k, v in value.items():
            if k not in OPAQUE:
                yield from strings(v, k)
    elif isinstance(value, list):
        for v in value:
            yield from strings(v, key)
    elif isinstance(value, str):
        yield value


def leaks(message: dict[str, Any], hidden: set[Card]) -> list[str]:
    """The hidden cards a message shows, as codes (``KD``, ``discard KD``) or in text
    (``K♦``)."""
    codes = {str(c) for c in hidden}
    found = []
    for text in strings(message):
        if text in codes or text.removeprefix("discard ") in codes:
            found.append(text)
        found += [c.pretty() for c in hidden if c.pretty() in text]
    return found


def duel_hidden(holder: PlayDuel, seen: set[Card]) -> set[Card]:
    """What the human's seat may not know now: the opponent's hand and discards, and
    the talon; less the turn-up (public, even in the opponent's hand) and the cards
    ``seen`` (a card drawn, then put back by an undo, was seen: ``ecarte play``'s undo)."""
    deal, opponent = holder.match.deal, 1 - holder.seat
    hidden = set(deal.hand(opponent)) | set(deal.discards(opponent)) | set(deal.talon)
    return hidden - seen - {deal.turn_up}


def own_cards(holder: PlayDuel) -> set[Card]:
    """The cards the seat's observation shows now: its own, and every card played."""
    obs = holder.match.observation(holder.seat)
    played = {c for trick in obs.tricks for c in trick.cards} | ({obs.lead} if obs.lead else set())
    return set(obs.hand) | set(obs.draws) | set(obs.discards) | played


@pytest.mark.parametrize("seed_seat", [0, 1, 2, 3])
def test_no_hidden_card_reaches_a_duel_client(server: tuple[str, Session], seed_seat: int) -> None:
    url, session = server
    seat_no = seed_seat % 2
    player = Seat(url)
    started = player("new", kind="match", opponent="heuristic", seat=seat_no, rules={"target": 1})
    holder = session.games[started["result"]["game"]]
    assert isinstance(holder, PlayDuel)
    game = started["result"]["game"]
    checked, named = 0, "7C"
    message = started
    seen: set[Card] = set()
    for step in range(200):
        assert not leaks(message, duel_hidden(holder, seen)), (step, message)
        seen |= own_cards(holder)
        checked += 1
        state = message["result"].get("state", message["result"])
        if state["over"]:
            break
        legal = state["legal"]
        choice = legal[step % len(legal)]
        if step == 5:  # a refused move and an undo are answered from the same view
            named = next(c for c in ("7C", "AS", "KD") if c not in legal)  # not legal now
            message = player("apply", game=game, action=named)  # echoed in the refusal
            assert message["error"]["type"] == "IllegalActionError"
            assert not leaks(message, duel_hidden(holder, seen | {Card(named)}))
            message = player("undo", game=game)
            assert not leaks(message, duel_hidden(holder, seen))
            message = player("observe", game=game)
            continue
        message = player("apply", game=game, action=choice)
    assert state["over"] and checked > 10
    # Once the deal is over only the opponent's discards stay hidden, in every message.
    final = set(holder.match.deal.discards(1 - seat_no))
    for message in player.received:
        assert not leaks(message, final - {Card(named)}), message


def seated_table(url: str, session: Session) -> tuple[Seat, Seat, Seat, str, BankTable]:
    """A table for ann and bob, opened by a host who holds no seat: the three connections,
    its id and the server's own table."""
    host, ann, bob = Seat(url), Seat(url), Seat(url)
    game = host("new", kind="table", players=["ann", "bob"], chips=200, bank=50)["result"]["game"]
    holder = session.games[game]
    assert isinstance(holder, BankTable)
    ann("join", game=game, player="ann")
    bob("join", game=game, player="bob")
    return host, ann, bob, game, holder


def test_no_hidden_card_reaches_a_bank_client(server: tuple[str, Session]) -> None:
    url, session = server
    host, ann, bob, game, holder = seated_table(url, session)
    for _ in range(6):
        ann("apply", game=game, action=["deal"])
        table = holder.table
        deal = table.deal_in_play
        assert deal is not None
        face_down = {c for t in deal.tableaux for c in t} - {deal.trump_card}
        bob("apply", game=game, action=["stake", "bob", 2, 10])
        bob("apply", game=game, action=["stake", "bob", 3, 10])
        bob("apply", game=game, action=["stake", "ann", 4, 10])  # refused: not bob's
        for seat in (ann, bob, host):
            seat.drain()
            for message in seat.received:
                assert not leaks(message, face_down), message
        ann("apply", game=game, action=["reveal"])
        ann("apply", game=game, action=["settle"])
        for seat in (ann, bob):
            seat.drain()
            seat.received.clear()  # revealed now: the next deal's cards are checked anew
        if table.phase == "broken":
            ann("apply", game=game, action=["pass_bank"])
            break
    assert table.deals_played >= 1


#: Fields that would carry what deals the cards to come.
SECRET_FIELDS = {"seed", "deck", "shoe", "talon"}
#: Cards in a row that show a secret order (a hand is five).
RUN = 6


def secrets_shown(message: Any, seeds: set[int], orders: list[list[str]]) -> list[str]:
    """What a message shows of the server's secrets: a seed (as a number or in text), a
    field that would carry one, or :data:`RUN` cards in a row of a secret order (a talon,
    a deck still to be played)."""
    runs = {tuple(order[i : i + RUN]) for order in orders for i in range(len(order) - RUN + 1)}
    found: list[str] = []

    def walk(value: Any) -> None:
        if isinstance(value, dict):
            found.extend(f"field {k}" for k in value if k in SECRET_FIELDS)
            for v in value.values():
                walk(v)
        elif isinstance(value, list):
            texts = [v if isinstance(v, str) else None for v in value]
            found.extend(
                f"cards {texts[i : i + RUN]}"
                for i in range(len(texts) - RUN + 1)
                if tuple(texts[i : i + RUN]) in runs
            )
            for v in value:
                walk(v)
        elif isinstance(value, int) and not isinstance(value, bool) and value in seeds:
            found.append(f"seed {value}")
        elif isinstance(value, str):
            found.extend(f"seed in {value[:40]!r}" for s in seeds if str(s) in value)

    walk(message)
    return found


def deal_secrets(deal: duel.Deal) -> tuple[set[int], list[list[str]]]:
    """A deal's seed, and its orders still hidden: the talon, and the whole deck until
    the first action (after it, the hands and the turn-up are the players')."""
    orders = [[str(c) for c in deal.talon]]
    if not deal.history:
        orders.append([str(c) for c in deal.deck])
    return {deal.seed} - {None}, orders


def test_no_secret_reaches_any_client_in_whole_games_of_every_kind(
    server: tuple[str, Session],
) -> None:
    url, session = server
    checked = 0

    def audit(message: dict[str, Any], seeds: set[int], orders: list[list[str]]) -> None:
        nonlocal checked
        assert not secrets_shown(message, seeds, orders), message
        checked += 1

    # A match against an agent, to 5 points: every answer, a hint and a refused record.
    player = Seat(url)
    started = player("new", kind="match", opponent="heuristic", rules={"target": 5})
    game = started["result"]["game"]
    holder = session.games[game]
    assert isinstance(holder, PlayDuel)
    message, state = started, started["result"]["state"]
    for step in range(2000):
        seeds, orders = deal_secrets(holder.match.deal)
        seeds.add(holder.match.seed)
        audit(message, seeds, orders)
        if state["over"]:
            break
        if step % 7 == 3:
            audit(player("go", game=game, level="easy"), seeds, orders)
            assert player("record", game=game)["error"]["type"] == "AccessError"
        message = player("apply", game=game, action=state["legal"][step % len(state["legal"])])
        state = message["result"]
    assert state["over"] and len(holder.match.deals) >= 2

    # A spectated match: the record only once it is over; then it and its replay.
    spectator = Seat(url)
    started = spectator("new", kind="match", agents=["heuristic", "random"], rules={"target": 3})
    game = started["result"]["game"]
    watched = session.games[game]
    assert isinstance(watched, WatchDuel)
    message = started
    while True:
        match = watched.match
        seeds = {match.seed} | {d.seed for d in match.deals if d.seed is not None}
        seeds, orders = (seeds, []) if match.is_over() else (seeds, deal_secrets(match.deal)[1])
        audit(message, seeds, orders)
        refused = spectator("record", game=game)
        if match.is_over():
            break
        audit(refused, seeds, orders)
        assert refused["error"]["type"] == "AccessError"
        message = spectator("advance", game=game)
    record = refused["result"]["record"]  # the match is over: nothing is left to deal
    audit(spectator("replay", record=record), seeds, [])

    # A table: every message of every seat over several deals, and a refused record.
    host, ann, bob, game, table = seated_table(url, session)
    for _ in range(4):
        ann("apply", game=game, action=["deal"])
        bob("apply", game=game, action=["stake", "bob", 2, 10])
        assert bob("record", game=game)["error"]["type"] == "AccessError"
        ann("apply", game=game, action=["reveal"])
        ann("apply", game=game, action=["settle"])
        if table.table.phase != "ready":
            break
    for seat in (host, ann, bob):
        seat.drain()
        for received in seat.received:
            audit(received, {table.table.seed}, [])
    assert checked > 50


def test_hostile_messages_get_an_error_and_change_nothing(server: tuple[str, Session]) -> None:
    url, session = server
    player = Seat(url)
    started = player("new", kind="match", opponent="random")["result"]
    game = started["game"]
    holder = session.games[game]
    assert isinstance(holder, PlayDuel)
    before = holder.match.to_json()
    for text in ["", "null", "{", "[" * 50_000, '{"id": 1}', '{"id": 1, "cmd": "apply"}',
                 json.dumps({"id": 2, "cmd": "apply", "game": game, "action": {"x": 1}}),
                 json.dumps({"id": 3, "cmd": "apply", "game": game, "action": "KX"}),
                 json.dumps({"id": 4, "cmd": "undo", "game": "nope"}),
                 json.dumps({"id": 5, "cmd": "new", "kind": "table", "players": ["a"] * 9}),
                 json.dumps({"id": 6, "cmd": "new", "kind": "table", "players": ["a", "a"]}),
                 json.dumps({"id": 7, "cmd": "go", "game": game, "time": -1})]:  # fmt: skip
        player.ws.send(text)
        reply = json.loads(player.ws.recv(timeout=10))
        assert reply["ok"] is False and reply["error"]["type"].endswith("Error"), reply
    player.ws.send(b"\x00binary")
    assert json.loads(player.ws.recv(timeout=10))["ok"] is False
    assert holder.match.to_json() == before
    assert player("observe", game=game)["ok"]


def test_an_over_long_message_closes_only_that_connection(server: tuple[str, Session]) -> None:
    url, _ = server
    big = Seat(url)
    # The server closes with 1009 (message too big): while the message is still being sent
    # (the send fails) or once it is in (the next receive does).
    with pytest.raises(ConnectionClosed) as closed:
        big.ws.send('{"id": 1, "cmd": "hello", "pad": "' + "x" * (1 << 21) + '"}')
        big.ws.recv(timeout=10)
    if closed.value.rcvd is not None:
        assert closed.value.rcvd.code == 1009
    assert Seat(url)("hello")["ok"]


def test_another_site_s_page_cannot_connect(server: tuple[str, Session]) -> None:
    url, _ = server
    with pytest.raises(Exception):  # noqa: B017  # the handshake is closed at once
        ws = connect(url, origin="http://evil.example")  # type: ignore[arg-type]
        ws.send('{"id": 1, "cmd": "hello"}')
        ws.recv(timeout=5)


def test_a_client_that_disconnects_rejoins_its_seat(server: tuple[str, Session]) -> None:
    url, _ = server
    first = Seat(url)
    started = first("new", kind="match", opponent="heuristic")["result"]
    state = first("apply", game=started["game"], action=started["state"]["legal"][0])["result"]
    first.ws.close()
    second = Seat(url)
    rejoined = second("join", game=started["game"], seat_token=started["seat_token"])
    assert rejoined["result"]["state"]["observation"] == state["observation"]
    wrong = second("join", game=started["game"], seat_token="x" * 32)
    assert wrong["error"]["type"] == "AccessError"


def test_ecarte_serve_prints_its_url_and_answers_with_the_app() -> None:
    import urllib.request

    from webserver import serve_process

    with serve_process() as (url, _):
        assert url.startswith("http://127.0.0.1:")  # loopback unless told otherwise
        with urllib.request.urlopen(url, timeout=10) as page:
            html = page.read().decode()
            assert "default-src 'self'" in page.headers["content-security-policy"]
        assert '<script type="module" src="/static/app.js">' in html
        assert "http" not in html  # nothing loads from the network: it works offline
        for asset in sorted(p.name for p in STATIC.glob("*.js")):
            with urllib.request.urlopen(f"{url}static/{asset}", timeout=10) as script:
                imports = re.findall(r'from "([^"]+)"', script.read().decode())
                assert all(i.startswith("./") for i in imports)  # only its own modules
        with connect(url.replace("http", "ws") + "ws") as ws:
            ws.send('{"id": 1, "cmd": "hello"}')
            assert json.loads(ws.recv(timeout=10))["result"]["open_games"] is False
