"""``ecarte serve``: the web app (docs/protocol.md over a WebSocket; needs ``ecarte[web]``)."""

from __future__ import annotations

import click


@click.command("serve")
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on.")
@click.option(
    "--port", type=click.IntRange(0, 65535), default=8000, show_default=True, help="Port."
)
@click.option("--open", "open_browser", is_flag=True, help="Open the app in a web browser.")
def serve_command(host: str, port: int, open_browser: bool) -> None:
    """Serve the web app: play a duel against any built-in level, watch agents, replay
    records, and banking tables for several people (one seat per browser)."""
    from ecarte.web import serve

    serve(host, port, open_browser=open_browser)
