"""``ecarte engine``: the engine protocol (docs/protocol.md) on standard input and output."""

from __future__ import annotations

import click


@click.command("engine")
def engine_command() -> None:
    """Speak the engine protocol: one JSON request a line on stdin, one response a line on
    stdout (docs/protocol.md). Ends at end of input or on {"id": 1, "cmd": "quit"}."""
    from ecarte.protocol.stdio import serve_stdio

    serve_stdio()
