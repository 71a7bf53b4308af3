"""Who may talk to ``ecarte serve``: only the pages it serves.

Every request, HTTP or WebSocket, must name an allowed host in ``Host``: ``127.0.0.1``,
``localhost`` or ``[::1]`` with the server's port, or a name given with
``--allowed-host``. A browser's ``Origin``, when sent, must be the same host (its page
came from this server). Anything else is refused with 403. This defeats DNS rebinding: a
page of another site whose name was pointed at this machine still sends its own name.
Every HTTP response, refusals and static files included, carries :data:`SECURITY_HEADERS`.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterable, MutableMapping
from typing import Any, Final

from ecarte._public import api_dir

__all__ = ["LOOPBACK_NAMES", "SECURITY_HEADERS", "AllowedHosts", "HostGuard", "split_host"]
__dir__ = api_dir(globals())

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
App = Callable[[Scope, Receive, Send], Awaitable[None]]

#: The names of this machine that no other site can take over.
LOOPBACK_NAMES: Final = ("127.0.0.1", "localhost", "[::1]")
#: The page may load only its own files and talk only to its own server; no other site
#: may frame it, read its files or share its window; every answer is checked afresh.
SECURITY_HEADERS: Final = {
    "content-security-policy": (
        "default-src 'self'; connect-src 'self'; img-src 'self' data:; "
        "style-src 'self'; script-src 'self'; frame-ancestors 'none'"
    ),
    "x-content-type-options": "nosniff",
    "x-frame-options": "DENY",
    "referrer-policy": "no-referrer",
    "cross-origin-opener-policy": "same-origin",
    "cross-origin-resource-policy": "same-origin",
    "cache-control": "no-cache",
}
_HEADERS: Final = [(k.encode(), v.encode()) for k, v in SECURITY_HEADERS.items()]


def split_host(text: str) -> tuple[str, int | None] | None:
    """``(name, port)`` of a ``Host`` value (``name``, ``name:port``, ``[v6]:port``), the
    name in lower case and the port ``None`` when absent; ``None`` when malformed."""
    text = text.strip().lower()
    if text.startswith("["):
        name, bracket, rest = text.partition("]")
        name += bracket
        if not bracket or (rest and not rest.startswith(":")):
            return None
        port = rest[1:] if rest else None
    else:
        name, colon, port_text = text.partition(":")
        port = port_text if colon else None
    if not name or name == "[]" or any(c in name for c in "/@?#\\ "):
        return None
    if port is None:
        return name, None
    if not port.isdigit() or not 0 < int(port) < 65536:
        return None
    return name, int(port)


class AllowedHosts:
    """The hosts a request may name: the loopback names with the server's port, and
    ``extra`` names, each ``name`` (with the server's port) or ``name:port`` (that port
    only, e.g. behind a reverse proxy). A ``Host`` without a port (a default port, which
    only a proxy or a server on port 80 sees) is allowed for every allowed name. A
    malformed name raises ``ValueError``."""

    def __init__(self, extra: Iterable[str] = ()) -> None:
        self.names: set[str] = set(LOOPBACK_NAMES)
        self.exact: set[tuple[str, int]] = set()
        for text in extra:
            parsed = split_host(text)
            if parsed is None:
                raise ValueError(f"not a host name: {text!r}")
            name, port = parsed
            if port is None:
                self.names.add(name)
            else:
                self.exact.add((name, port))

    def allows(self, host: str, origin: str | None, server_port: int | None) -> bool:
        """Whether a request with these ``Host`` and ``Origin`` headers, arriving on
        ``server_port``, comes from one of this server's pages (or from no page)."""
        parsed = split_host(host)
        if parsed is None:
            return False
        name, port = parsed
        if port is None:
            allowed = name in self.names or any(name == n for n, _ in self.exact)
        else:
            allowed = (name in self.names and port == server_port) or parsed in self.exact
        if not allowed:
            return False
        if origin is None:
            return True  # not a browser's cross-site request: browsers always send it
        scheme, sep, authority = origin.partition("://")
        return bool(sep) and scheme in ("http", "https") and authority.lower() == host.lower()


class HostGuard:
    """ASGI middleware: refuses (403) a request whose ``Host`` or ``Origin`` is not
    ``allowed``, and adds the security headers to every HTTP response."""

    def __init__(self, app: App, allowed: AllowedHosts) -> None:
        self.app = app
        self.allowed = allowed

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        headers = {k.decode("latin-1"): v.decode("latin-1") for k, v in scope["headers"]}
        server = scope.get("server")
        port = server[1] if server else None
        allowed = self.allowed.allows(headers.get("host", ""), headers.get("origin"), port)
        if scope["type"] == "websocket":
            if allowed:
                await self.app(scope, receive, send)
            else:  # closed before the handshake: the client gets 403
                await receive()
                await send({"type": "websocket.close", "code": 1008})
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                present = {k.lower() for k, _ in message.get("headers", [])}
                message["headers"] = [
                    *message.get("headers", []),
                    *[(k, v) for k, v in _HEADERS if k not in present],
                ]
            await send(message)

        if allowed:
            await self.app(scope, receive, send_with_headers)
            return
        body = b"403: this server answers only its own pages (see ecarte serve --allowed-host)\n"
        await send_with_headers(
            {
                "type": "http.response.start",
                "status": 403,
                "headers": [
                    (b"content-type", b"text/plain; charset=utf-8"),
                    (b"content-length", str(len(body)).encode()),
                ],
            }
        )
        await send_with_headers({"type": "http.response.body", "body": body})
