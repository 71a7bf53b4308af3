"""``ecarte serve``: the web app (docs/protocol.md over a WebSocket; needs ``ecarte[web]``)."""

from __future__ import annotations

import click

from ecarte.cli.common import Whole


@click.command("serve")
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on.")
@click.option(
    "--port",
    type=Whole(0, 65535),
    default=8000,
    show_default=True,
    help="Port (0: any free port).",
)
@click.option(
    "--allowed-host",
    "allowed_hosts",
    multiple=True,
    metavar="NAME",
    help="A name the pages may be reached by, besides 127.0.0.1, localhost and [::1] "
    "(repeatable; NAME:PORT for another port, e.g. behind a proxy): for a LAN served "
    "with --host 0.0.0.0.",
)
@click.option("--open", "open_browser", is_flag=True, help="Open the app in a web browser.")
def serve_command(host: str, port: int, allowed_hosts: tuple[str, ...], open_browser: bool) -> None:
    """Serve the web app: play a duel against any built-in level, watch agents, replay
    records, and banking tables for several people (one seat per browser). Only pages
    reached by a loopback name or an --allowed-host may use it."""
    from ecarte.web import serve

    serve(host, port, open_browser=open_browser, allowed_hosts=allowed_hosts)
