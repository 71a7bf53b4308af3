"""The ASGI app of ``ecarte serve`` (Starlette), and :func:`serve`, which runs it (uvicorn)."""

from __future__ import annotations

import socket
import threading
import webbrowser
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

from ecarte._install import install_hint
from ecarte._public import api_dir
from ecarte.errors import EcarteError
from ecarte.protocol.session import Session
from ecarte.protocol.store import DEFAULT_KEEP, MAX_GAMES, Store, default_path
from ecarte.protocol.wire import MAX_MESSAGE_BYTES
from ecarte.web.conversation import Scheduler, converse
from ecarte.web.guard import AllowedHosts, HostGuard
from ecarte.web.worker import ReplayWorker

if TYPE_CHECKING:
    import uvicorn
    from starlette.applications import Starlette
    from starlette.websockets import WebSocket

__all__ = [
    "MAX_CONNECTIONS",
    "MAX_GAMES",
    "USER_TIMEOUT_SECONDS",
    "WEB_LIMITS",
    "create_app",
    "listening_socket",
    "serve",
    "uvicorn_server",
    "web_session",
]
__dir__ = api_dir(globals())

STATIC = Path(__file__).with_name("static")
#: Open WebSocket connections at once.
MAX_CONNECTIONS: Final = 1024
#: The web server's session: games against agents, spectated matches and shared tables
#: only, seeds of its own, and bounds on games, search and each address's CPU time (30 s
#: saved up at most, refilled at half a core).
WEB_LIMITS: Final = {
    "open_games": False,
    "max_games": MAX_GAMES,
    "games_per_client": 8,
    "games_per_address": 64,
    "max_worlds": 100,
    "secret_ids": True,
    "cpu_budget": (30.0, 0.5),
}
#: Answers the ``replay`` requests of every app of this process (:mod:`ecarte.web.worker`).
REPLAY_WORKER: Final = ReplayWorker()
#: Answers ``analyse`` of a record, in a worker of its own: an analysis takes seconds, and
#: the replays do not queue behind it.
ANALYSIS_WORKER: Final = ReplayWorker()
#: A connection whose client takes none of what it is sent for this long is dropped by
#: the operating system (Linux's TCP_USER_TIMEOUT), and its memory freed.
USER_TIMEOUT_SECONDS: Final = 30


def _need_web() -> None:
    try:
        import starlette  # noqa: F401
        import uvicorn  # noqa: F401
    except ImportError:
        raise EcarteError(f"ecarte serve needs the web extra: {install_hint('web')}") from None


def web_session(store: Store | None = None) -> Session:
    """A session with the web server's limits, keeping its games in ``store``."""
    return Session(**WEB_LIMITS, store=store)  # type: ignore[arg-type]


def create_app(session: Session | None = None, *, allowed_hosts: Iterable[str] = ()) -> Starlette:
    """The app: the page at ``/``, its files at ``/static``, the protocol at ``/ws``; only
    for requests naming a loopback host or one of ``allowed_hosts``
    (:mod:`ecarte.web.guard`; a malformed one raises ``ValueError``)."""
    _need_web()
    from starlette.applications import Starlette
    from starlette.middleware import Middleware
    from starlette.responses import FileResponse
    from starlette.routing import Mount, Route, WebSocketRoute
    from starlette.staticfiles import StaticFiles

    allowed = AllowedHosts(allowed_hosts)
    held = session if session is not None else web_session()
    if held.replayer is None:
        held.replayer = REPLAY_WORKER
    if held.analyser is None:
        held.analyser = ANALYSIS_WORKER.analyse
    scheduler = Scheduler()
    connections = {"open": 0}

    async def index(request: Any) -> FileResponse:
        return FileResponse(STATIC / "index.html")

    async def endpoint(websocket: WebSocket) -> None:
        if connections["open"] >= MAX_CONNECTIONS:
            await websocket.accept()
            await websocket.close(1013, "the server has too many connections: try later")
            return
        connections["open"] += 1
        try:
            await converse(websocket, held, scheduler)
        finally:
            connections["open"] -= 1

    app = Starlette(
        routes=[
            Route("/", index),
            WebSocketRoute("/ws", endpoint),
            Mount("/static", StaticFiles(directory=STATIC), name="static"),
        ],
        middleware=[Middleware(HostGuard, allowed=allowed)],
    )
    app.state.session = held
    return app


def listening_socket(host: str, port: int) -> socket.socket:
    """A socket listening on ``host:port`` (``port`` 0: a free one), whose connections
    the operating system drops when their client stops reading
    (:data:`USER_TIMEOUT_SECONDS`)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    if hasattr(socket, "TCP_USER_TIMEOUT"):  # Linux; accepted connections inherit it
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_USER_TIMEOUT, USER_TIMEOUT_SECONDS * 1000)
    try:
        sock.bind((host, port))
    except OSError as exc:
        sock.close()
        raise EcarteError(f"cannot listen on {host}:{port}: {exc.strerror}") from None
    sock.listen(2048)  # before the URL is printed: a client may connect at once
    return sock


def uvicorn_server(app: Starlette) -> uvicorn.Server:
    """The uvicorn server that runs ``app``: frames up to the protocol's message size, and
    uncompressed (compressing a long answer would hold the event loop, and every client
    waits on it)."""
    import uvicorn

    config = uvicorn.Config(
        app,
        ws_max_size=MAX_MESSAGE_BYTES,
        ws_per_message_deflate=False,
        log_level="warning",
        lifespan="off",
    )
    return uvicorn.Server(config)


def serve(
    host: str = "127.0.0.1",
    port: int = 8000,
    *,
    open_browser: bool = False,
    allowed_hosts: Iterable[str] = (),
    db: str | None = None,
    keep: int = DEFAULT_KEEP,
) -> None:
    """Runs the app until Ctrl-C; prints its URL, and opens it in a browser only when
    asked. ``port=0`` takes a free port (the printed URL names it). Requests must name a
    loopback host, the address listened on (unless it is every address) or one of
    ``allowed_hosts``. The games are kept in the database ``db`` (default:
    :func:`~ecarte.protocol.store.default_path`; ``":memory:"``: nowhere), with ``keep``
    finished games, and those it holds are restored first."""
    _need_web()
    allowed = list(allowed_hosts)
    if host not in ("0.0.0.0", "::", ""):
        allowed.append(f"[{host}]" if ":" in host else host)
    try:
        AllowedHosts(allowed)
    except ValueError as exc:
        raise EcarteError(f"--allowed-host: {exc}") from None
    if keep > MAX_GAMES:  # the finished games kept are games it holds
        raise EcarteError(f"--keep: at most {MAX_GAMES}, the games it holds")
    store = Store(default_path() if db is None else db, keep)
    try:
        _serve(host, port, store, allowed, open_browser)
    finally:
        store.close()


def _serve(host: str, port: int, store: Store, allowed: list[str], open_browser: bool) -> None:
    import click

    session = web_session(store)
    restored, failed = session.restore()
    for line in failed:
        click.echo(f"ecarte: {line}", err=True)
    if restored:
        games = "1 game" if restored == 1 else f"{restored} games"
        click.echo(f"ecarte: {games} restored from {store.path}", err=True)
    app = create_app(session, allowed_hosts=allowed)
    sock = listening_socket(host, port)
    bound = sock.getsockname()[1]
    shown = f"[{host}]" if sock.family == socket.AF_INET6 else host
    url = f"http://{shown}:{bound}/"
    click.echo(f"ecarte: the web app is at {url} (Ctrl-C stops it)", err=False)
    if host in ("0.0.0.0", "::") and not allowed:
        click.echo(
            "ecarte: other machines reach it only by the names given with --allowed-host",
            err=True,
        )
    server = uvicorn_server(app)
    if open_browser:
        threading.Timer(0.5, webbrowser.open, (url,)).start()
    server.run(sockets=[sock])
