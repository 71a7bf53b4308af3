"""A real ``ecarte serve`` app on a free loopback port, in a thread, for the web tests;
and its clients: a WebSocket from any loopback address (each ``127.x.y.z`` is another
peer to the server) naming any host, as an attacker's would."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any
from urllib.parse import urlsplit

from cli_support import ECARTE
from ecarte.protocol import Session
from ecarte.web.app import create_app, listening_socket, uvicorn_server, web_session
from websockets.sync.client import ClientConnection, connect


def ws_connect(
    url: str, *, source: str = "127.0.0.1", host: str | None = None, origin: str | None = None
) -> ClientConnection:
    """A WebSocket to ``url`` (``ws://127.0.0.1:P/ws``) from the loopback address
    ``source``, sending ``host`` as its ``Host`` (default: the URL's) and ``origin``."""
    parts = urlsplit(url)
    assert parts.hostname is not None and parts.port is not None
    sock = socket.create_connection((parts.hostname, parts.port), 10, (source, 0))
    named = url if host is None else url.replace(parts.netloc, host, 1)
    return connect(named, sock=sock, origin=origin, max_size=None).__enter__()  # type: ignore[arg-type]


class Unread:
    """A WebSocket client on a raw socket that sends requests and reads nothing until
    told to (its receive buffer small, so that the server's sends block at once)."""

    def __init__(self, url: str, source: str = "127.0.0.1") -> None:
        from websockets.client import ClientProtocol
        from websockets.protocol import State
        from websockets.uri import parse_uri

        parts = urlsplit(url)
        assert parts.hostname is not None and parts.port is not None
        self.sock = socket.socket()
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        self.sock.bind((source, 0))
        self.sock.connect((parts.hostname, parts.port))
        self.sock.settimeout(10)
        self.protocol = ClientProtocol(parse_uri(url), max_size=None)
        self.protocol.send_request(self.protocol.connect())
        self._flush()
        while self.protocol.state is not State.OPEN:
            self.protocol.receive_data(self.sock.recv(4096))
            assert self.protocol.handshake_exc is None, self.protocol.handshake_exc
        self.protocol.events_received()  # the handshake's response

    def _flush(self) -> None:
        self.sock.sendall(b"".join(self.protocol.data_to_send()))

    def send(self, text: str) -> bool:
        """Sends a request; ``False`` when the server stopped taking them."""
        self.protocol.send_text(text.encode())
        try:
            self._flush()
        except (TimeoutError, OSError):
            return False
        return True

    def read_all(self, seconds: float = 60) -> tuple[int, int | None]:
        """Reads until the server closes: ``(text messages received, close code)``."""
        from websockets.frames import Opcode

        texts, code = 0, None
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            data = self.sock.recv(1 << 20)
            if not data:
                break
            self.protocol.receive_data(data)
            for frame in self.protocol.events_received():
                if frame.opcode is Opcode.TEXT:
                    texts += 1
                elif frame.opcode is Opcode.CLOSE and self.protocol.close_rcvd is not None:
                    code = self.protocol.close_rcvd.code
            try:
                self._flush()  # the close frame's answer
            except OSError:
                break
            if code is not None:
                break
        self.sock.close()
        return texts, code


class Seat:
    """A connection that keeps every message the server sent it."""

    def __init__(self, url: str, source: str = "127.0.0.1") -> None:
        self.ws = ws_connect(url, source=source)
        self.received: list[dict[str, Any]] = []
        self.count = 0

    def __call__(self, cmd: str, **fields: Any) -> dict[str, Any]:
        self.count += 1
        self.ws.send(json.dumps({"id": self.count, "cmd": cmd, **fields}))
        while True:
            message = json.loads(self.ws.recv(timeout=30))
            self.received.append(message)
            if message.get("id") == self.count:
                return message

    def drain(self, wait: float = 0.3) -> list[dict[str, Any]]:
        """The events that arrived since the last request."""
        events = []
        while True:
            try:
                events.append(json.loads(self.ws.recv(timeout=wait)))
            except TimeoutError:
                break
        self.received += events
        return events

    def close(self) -> None:
        self.ws.close()


@contextmanager
def running_server(
    session: Session | None = None, allowed_hosts: tuple[str, ...] = ()
) -> Iterator[tuple[str, Session]]:
    """``(base URL, session)`` of a server that stops when the block ends."""
    held = session if session is not None else web_session()
    sock = listening_socket("127.0.0.1", 0)
    port = sock.getsockname()[1]
    server = uvicorn_server(create_app(held, allowed_hosts=allowed_hosts))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started:
        if time.monotonic() > deadline:
            raise RuntimeError("the server did not start")
        time.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{port}", held
    finally:
        server.should_exit = True
        thread.join(10)


@contextmanager
def serve_process(
    *args: str, db: str | None = ":memory:", python_path: str | None = None
) -> Iterator[tuple[str, subprocess.Popen[str]]]:
    """``ecarte serve --port 0 --db DB ARGS`` in a child process, as a user starts it: the
    URL it prints, and the process (stopped when the block ends). ``db``: the database
    (by default none, so that no test writes to the user's data folder; ``None``: no
    ``--db``, for a build without one). ``python_path``:
    run the server from another source tree (``PYTHONPATH``), to compare builds."""
    env = dict(os.environ, PYTHONPATH=python_path) if python_path else None
    command = [*ECARTE, "serve", "--port", "0"]
    server = subprocess.Popen(
        [*command, *(["--db", db] if db is not None else []), *args],
        stdout=subprocess.PIPE,
        text=True,
        env=env,
    )
    try:
        assert server.stdout is not None
        line = server.stdout.readline()
        if " at " not in line:
            raise RuntimeError(f"the server did not start (status {server.wait(10)})")
        yield line.split(" at ", 1)[1].split()[0], server
    finally:
        server.terminate()
        server.wait(10)
