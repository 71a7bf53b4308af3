"""The ``ecarte`` command: the click group :func:`main` and :func:`run`, the console script.

One module per command group: :mod:`~ecarte.cli.match`, :mod:`~ecarte.cli.play`,
:mod:`~ecarte.cli.replay`, :mod:`~ecarte.cli.analyse`, :mod:`~ecarte.cli.solve`,
:mod:`~ecarte.cli.simulate` (``simulate`` and ``arena``), :mod:`~ecarte.cli.bank` (``odds``
and ``bank``), :mod:`~ecarte.cli.bench`, :mod:`~ecarte.cli.engine` (the engine protocol on
stdio) and :mod:`~ecarte.cli.serve` (the web app); what they share (options, one-line
errors, records) is in :mod:`~ecarte.cli.common`.
"""

from __future__ import annotations

import os
import sys

import click

from ecarte import __version__
from ecarte._public import api_dir
from ecarte.cli.analyse import analyse_command
from ecarte.cli.bank import bank_command, odds_command
from ecarte.cli.bench import bench_command
from ecarte.cli.common import CommandInterrupted, EcarteGroup, OutputClosed
from ecarte.cli.engine import engine_command
from ecarte.cli.match import match_command
from ecarte.cli.play import play_command
from ecarte.cli.replay import replay_command
from ecarte.cli.serve import serve_command
from ecarte.cli.simulate import arena_command, simulate_command
from ecarte.cli.solve import solve_command
from ecarte.errors import EcarteError

__all__ = ["main", "run"]
__dir__ = api_dir(globals())


@click.group(
    cls=EcarteGroup,
    invoke_without_command=True,
    context_settings={"help_option_names": ["-h", "--help"]},
)
# The engine's own version (Cargo.toml's, compiled in), as `ecarte.__version__` and hello report.
@click.version_option(version=__version__, prog_name="ecarte")
@click.pass_context
def main(ctx: click.Context) -> None:
    """ecarte: a fast, faithful écarté engine. Run `ecarte COMMAND --help` for details."""
    if ctx.invoked_subcommand is None:  # a bare `ecarte`: the help, as --help shows it
        click.echo(ctx.get_help())


for _command in (
    match_command,
    play_command,
    solve_command,
    replay_command,
    analyse_command,
    simulate_command,
    odds_command,
    bank_command,
    bench_command,
    arena_command,
    engine_command,
    serve_command,
):
    main.add_command(_command)


#: The exit status after Ctrl-C: 128 + SIGINT, as a shell reports it.
INTERRUPTED_STATUS = 130


def run() -> None:
    """The console script: ``main`` with ecarte's exits. A bad input: one line
    ``error: ...``, status 2. Ctrl-C: one line ``interrupted``, status 130, no traceback.
    A reader that closes the output early (``| head``): a quiet end, status 0."""
    status: int | str | None = 0
    try:
        main(prog_name="ecarte")
    except SystemExit as end:
        status = end.code
    except EcarteError as exc:
        click.echo(f"error: {exc}", err=True)
        status = 2
    except (CommandInterrupted, KeyboardInterrupt):
        status = INTERRUPTED_STATUS
        try:
            click.echo("interrupted", err=True)
        except OSError:
            pass
    except OutputClosed:
        _discard_output()
        sys.exit(0)
    try:
        sys.stdout.flush()
    except BrokenPipeError:
        _discard_output()
        status = 0 if status != INTERRUPTED_STATUS else status
    sys.exit(status)


def _discard_output() -> None:
    """Points stdout at the null device: the reader has gone, and Python's final flush must
    not fail on the closed pipe."""
    null = os.open(os.devnull, os.O_WRONLY)
    os.dup2(null, sys.stdout.fileno())
    os.close(null)
