"""``ecarte serve``: the web app (docs/protocol.md over a WebSocket; needs ``ecarte[web]``)."""

from __future__ import annotations

import click

from ecarte.cli.common import Whole
from ecarte.protocol.store import DEFAULT_KEEP, MAX_GAMES, MEMORY


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
@click.option(
    "--db",
    metavar="PATH",
    help="The SQLite file that keeps the games across restarts [default: "
    f"$XDG_DATA_HOME/ecarte/serve.sqlite3, else ~/.local/share/ecarte/serve.sqlite3]; "
    f"{MEMORY} keeps nothing.",
)
@click.option(
    "--keep",
    type=Whole(0, MAX_GAMES),
    default=DEFAULT_KEEP,
    show_default=True,
    help="Finished games kept, up to the games the server holds (the oldest go first; "
    "live games always stay).",
)
@click.option("--open", "open_browser", is_flag=True, help="Open the app in a web browser.")
def serve_command(
    host: str,
    port: int,
    allowed_hosts: tuple[str, ...],
    db: str | None,
    keep: int,
    open_browser: bool,
) -> None:
    """Serve the web app: play a duel against any built-in level, watch agents, replay
    records, and banking tables for several people (one seat per browser). Only pages
    reached by a loopback name or an --allowed-host may use it. Every game is kept in
    --db, so a restart loses no table."""
    from ecarte.web import serve

    serve(host, port, open_browser=open_browser, allowed_hosts=allowed_hosts, db=db, keep=keep)
