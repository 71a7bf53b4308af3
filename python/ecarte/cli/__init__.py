"""The ``ecarte`` command: the click group :func:`main` and :func:`run`, the console script.

One module per command group: :mod:`~ecarte.cli.match`, :mod:`~ecarte.cli.play`,
:mod:`~ecarte.cli.replay`, :mod:`~ecarte.cli.solve`, :mod:`~ecarte.cli.simulate` (``simulate``
and ``arena``), :mod:`~ecarte.cli.bank` (``odds`` and ``bank``), :mod:`~ecarte.cli.bench`,
:mod:`~ecarte.cli.engine` (the engine protocol on stdio) and :mod:`~ecarte.cli.serve` (the
web app); what they share (options, one-line errors, records) is in
:mod:`~ecarte.cli.common`.
"""

from __future__ import annotations

import sys

import click

from ecarte.cli.bank import bank_command, odds_command
from ecarte.cli.bench import bench_command
from ecarte.cli.common import EcarteGroup
from ecarte.cli.engine import engine_command
from ecarte.cli.match import match_command
from ecarte.cli.play import play_command
from ecarte.cli.replay import replay_command
from ecarte.cli.serve import serve_command
from ecarte.cli.simulate import arena_command, simulate_command
from ecarte.cli.solve import solve_command
from ecarte.errors import EcarteError

__all__ = ["main", "run"]


@click.group(cls=EcarteGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="ecarte")
def main() -> None:
    """ecarte: a fast, faithful écarté engine. Run `ecarte COMMAND --help` for details."""


for _command in (
    match_command,
    play_command,
    solve_command,
    replay_command,
    simulate_command,
    odds_command,
    bank_command,
    bench_command,
    arena_command,
    engine_command,
    serve_command,
):
    main.add_command(_command)


def run() -> None:
    try:
        main()
    except EcarteError as exc:
        click.echo(f"error: {exc}", err=True)
        sys.exit(2)
