"""A real ``ecarte serve`` app on a free loopback port, in a thread, for the web tests."""

from __future__ import annotations

import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

from ecarte.protocol import Session
from ecarte.web.app import create_app, web_session


@contextmanager
def running_server(session: Session | None = None) -> Iterator[tuple[str, Session]]:
    """``(base URL, session)`` of a server that stops when the block ends."""
    import uvicorn
    from ecarte.protocol.wire import MAX_MESSAGE_BYTES

    held = session if session is not None else web_session()
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    config = uvicorn.Config(
        create_app(held), ws_max_size=MAX_MESSAGE_BYTES, log_level="warning", lifespan="off"
    )
    server = uvicorn.Server(config)
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
def serve_process() -> Iterator[str]:
    """``ecarte serve --port 0`` in a child process, as a user starts it: the URL it
    prints. The process is stopped when the block ends."""
    server = subprocess.Popen(
        [sys.executable, "-c", "from ecarte.cli import run; run()", "serve", "--port", "0"],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert server.stdout is not None
        yield server.stdout.readline().split(" at ", 1)[1].split()[0]
    finally:
        server.terminate()
        server.wait(10)
