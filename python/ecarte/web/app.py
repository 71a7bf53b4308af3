"""The ASGI app of ``ecarte serve`` (Starlette), and :func:`serve`, which runs it (uvicorn)."""

from __future__ import annotations

import asyncio
import socket
import threading
import webbrowser
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

from ecarte.errors import EcarteError
from ecarte.protocol.session import Client, Session
from ecarte.protocol.wire import MAX_MESSAGE_BYTES, ProtocolError, error_response, to_line

if TYPE_CHECKING:
    from starlette.applications import Starlette
    from starlette.websockets import WebSocket

__all__ = ["MAX_CONNECTIONS", "WEB_LIMITS", "create_app", "serve", "web_session"]

STATIC = Path(__file__).with_name("static")
#: Open WebSocket connections at once.
MAX_CONNECTIONS: Final = 1024
#: The web server's session: games against agents, spectated matches and shared tables
#: only, seeds of its own, and bounds on games and search.
WEB_LIMITS: Final = {
    "open_games": False,
    "max_games": 512,
    "games_per_client": 8,
    "max_worlds": 100,
    "secret_ids": True,
}
#: The page may load only its own files and talk only to its own server.
SECURITY_HEADERS: Final = {
    "content-security-policy": (
        "default-src 'self'; connect-src 'self'; img-src 'self' data:; "
        "style-src 'self'; script-src 'self'; frame-ancestors 'none'"
    ),
    "x-content-type-options": "nosniff",
    "referrer-policy": "no-referrer",
}


def _need_web() -> None:
    try:
        import starlette  # noqa: F401
        import uvicorn  # noqa: F401
    except ImportError:
        raise EcarteError("ecarte serve needs the web extra: pip install 'ecarte[web]'") from None


def web_session() -> Session:
    return Session(**WEB_LIMITS)  # type: ignore[arg-type]


def create_app(session: Session | None = None) -> Starlette:
    """The app: the page at ``/``, its files at ``/static``, the protocol at ``/ws``."""
    _need_web()
    from starlette.applications import Starlette
    from starlette.responses import FileResponse
    from starlette.routing import Mount, Route, WebSocketRoute
    from starlette.staticfiles import StaticFiles

    held = session if session is not None else web_session()
    connections = {"open": 0}

    async def index(request: Any) -> FileResponse:
        return FileResponse(STATIC / "index.html", headers=SECURITY_HEADERS)

    async def endpoint(websocket: WebSocket) -> None:
        origin = websocket.headers.get("origin")
        host = websocket.headers.get("host", "")
        if origin is not None and origin.split("://", 1)[-1] != host:
            await websocket.close(code=1008)  # another site's page: refused
            return
        if connections["open"] >= MAX_CONNECTIONS:
            await websocket.close(code=1013)
            return
        connections["open"] += 1
        try:
            await _converse(websocket, held)
        finally:
            connections["open"] -= 1

    app = Starlette(
        routes=[
            Route("/", index),
            WebSocketRoute("/ws", endpoint),
            Mount("/static", StaticFiles(directory=STATIC), name="static"),
        ]
    )
    app.state.session = held
    return app


async def _converse(websocket: WebSocket, session: Session) -> None:
    """One connection: each request answered in order; events from other seats sent as
    they come. Text frames only, each at most the protocol's message size."""
    from starlette.concurrency import run_in_threadpool
    from starlette.websockets import WebSocketDisconnect

    await websocket.accept()
    loop = asyncio.get_running_loop()
    outbox: asyncio.Queue[str | None] = asyncio.Queue()

    def notify(event: dict[str, Any]) -> None:  # from a worker thread
        loop.call_soon_threadsafe(outbox.put_nowait, to_line(event))

    async def sender() -> None:
        while (line := await outbox.get()) is not None:
            await websocket.send_text(line)

    client = Client(notify)
    sending = asyncio.create_task(sender())
    try:
        while True:
            message = await websocket.receive()
            if message["type"] == "websocket.disconnect":
                break
            text = message.get("text")
            if text is None:
                reply = error_response(ProtocolError("send text frames of JSON"))
            elif len(text) > MAX_MESSAGE_BYTES:
                reply = error_response(ProtocolError("the message is too long"))
            else:
                reply = await run_in_threadpool(session.handle, client, text)
            await outbox.put(to_line(reply))
    except WebSocketDisconnect:
        pass
    finally:
        session.disconnect(client)
        await outbox.put(None)
        await asyncio.gather(sending, return_exceptions=True)


def serve(host: str = "127.0.0.1", port: int = 8000, *, open_browser: bool = False) -> None:
    """Runs the app until Ctrl-C; prints its URL, and opens it in a browser only when
    asked. ``port=0`` takes a free port (the printed URL names it)."""
    _need_web()
    import click
    import uvicorn

    app = create_app()
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
    except OSError as exc:
        raise EcarteError(f"cannot listen on {host}:{port}: {exc.strerror}") from None
    sock.listen(2048)  # before the URL is printed: a client may connect at once
    bound = sock.getsockname()[1]
    shown = f"[{host}]" if family == socket.AF_INET6 else host
    url = f"http://{shown}:{bound}/"
    click.echo(f"ecarte: the web app is at {url} (Ctrl-C stops it)", err=False)
    config = uvicorn.Config(app, ws_max_size=MAX_MESSAGE_BYTES, log_level="warning", lifespan="off")
    server = uvicorn.Server(config)
    if open_browser:
        threading.Timer(0.5, webbrowser.open, (url,)).start()
    server.run(sockets=[sock])
