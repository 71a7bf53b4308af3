"""What every command of the ``ecarte`` command line shares: its options and argument types,
its one-line errors (status 2), output files, saved records and the ``--ray`` option."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, NoReturn

import click

from ecarte.agents import Agent, make_agent
from ecarte.distributed import Backend, RayBackend
from ecarte.duel import AGENT_SPECS, Deal, Match, parse_agent
from ecarte.errors import EcarteError
from ecarte.records import no_constant

#: A trained model named as an agent: a file saved by stable-baselines3 (``model.save``).
MODEL_SUFFIX = ".zip"


class AgentSpecType(click.ParamType):  # type: ignore[type-arg]  # generic only in click >= 8.2
    """The click type of an agent spec, read by the one native grammar
    (``ecarte.duel.AGENT_SPECS``), or of a model file saved by stable-baselines3 (``*.zip``,
    played by ``ecarte.sb3.PolicyAgent``)."""

    name = "agent"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> str:
        if str(value).endswith(MODEL_SUFFIX):
            if not Path(value).is_file():
                self.fail(f"no model file {value!r}", param, ctx)
            return str(value)
        try:
            parse_agent(value)
        except ValueError:
            self.fail(
                f"unknown agent {value!r}: choose {AGENT_SPECS}, or a model file (*.zip)",
                param,
                ctx,
            )
        return str(value)


def make_cli_agent(spec: str, seed: int) -> Agent:
    """The agent an ``AgentSpecType`` value names: a built-in agent, or a saved model's agent."""
    if not spec.endswith(MODEL_SUFFIX):
        return make_agent(spec, seed)
    try:
        from ecarte.sb3 import PolicyAgent
    except ImportError as exc:
        raise OneLineError(str(exc)) from None
    return PolicyAgent.load(spec, seed=seed)


def agent_name(spec: str) -> str:
    """How the command line names an agent: its spec, or a model file's stem."""
    return Path(spec).stem if spec.endswith(MODEL_SUFFIX) else spec


AGENT = AgentSpecType()

#: Options several commands share, defined once.
ORDER_OPTION = click.option(
    "--order",
    type=click.Choice(["ecarte", "traditional"]),
    default="ecarte",
    show_default=True,
    help="Rank order.",
)
TARGET_OPTION = click.option(
    "--target",
    type=click.IntRange(1, 100),
    default=7,
    show_default=True,
    help="Points that win the match.",
)

#: Every ``--seed``: a whole number from 0 to 2**64 - 1, checked before any work.
SEED = click.IntRange(0, 2**64 - 1)

#: What a bad input raises; the command reports it in one line and exits with status 2.
USER_ERRORS = (EcarteError, ValueError, OSError, UnicodeError, OverflowError, RecursionError)

#: Upper bounds of the CLI's sizes, so that a typo cannot start a machine-filling run: worker
#: threads (the engine's own ``MAX_THREADS``), worker processes (``arena --workers``) and
#: worlds per PIMC decision (``arena --samples``).
MAX_WORKERS = 64
MAX_SAMPLES = 10_000
#: ... and of the run lengths: deals of ``simulate``, seeds of ``arena``, deals of ``bank``.
MAX_SIMULATED = 10**9
MAX_ARENA_MATCHES = 10**6
MAX_BANK_DEALS = 10**6

DEAL_FORMAT = "ecarte.duel.deal"
MATCH_FORMAT = "ecarte.duel.match"
RECORD_KINDS = {
    DEAL_FORMAT: "a duel deal record",
    MATCH_FORMAT: "a duel match record",
    "ecarte.bank.session": "a banking session record",
}


class OneLineError(click.ClickException):
    """A bad input: ``error: ...`` in one line on stderr, status 2."""

    exit_code = 2

    def show(self, file: Any = None) -> None:
        click.echo(f"error: {self.format_message()}", err=True)


def one_line(text: object) -> str:
    return " ".join(str(text).split())


def _usage_error(exc: click.UsageError) -> OneLineError:
    hint = f" (see '{exc.ctx.command_path} --help')" if exc.ctx is not None else ""
    return OneLineError(one_line(exc.format_message()) + hint)


class EcarteGroup(click.Group):
    """Reports every bad input, click's own usage errors included, in one line with status
    2, never with a traceback."""

    def make_context(self, *args: Any, **kwargs: Any) -> click.Context:
        try:
            return super().make_context(*args, **kwargs)
        except click.UsageError as exc:
            raise _usage_error(exc) from None

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except click.UsageError as exc:
            raise _usage_error(exc) from None
        except BrokenPipeError:
            raise
        except UnicodeEncodeError as exc:
            # A command-line argument that was not UTF-8 reaches Python as lone surrogates.
            raise OneLineError(
                f"an argument is not valid UTF-8 text ({exc.object[exc.start : exc.end]!r})"
            ) from None
        except USER_ERRORS as exc:
            raise OneLineError(one_line(exc) or type(exc).__name__) from None


def fail(message: str) -> NoReturn:
    raise OneLineError(message)


def check_output_path(path: Path, option: str, suffixes: tuple[str, ...] | None = None) -> None:
    """Refuses, before any work is done, an output file that cannot be written: its
    directory is missing or not writable, it is a directory, or (with ``suffixes``) its
    extension is not one of them. A file that does not exist yet is not left behind."""
    if suffixes is not None and path.suffix.lower() not in suffixes:
        fail(f"{option} {path}: the file name must end in one of {', '.join(suffixes)}")
    parent = path.parent
    if path.is_dir():
        fail(f"{option} {path}: is a directory, not a file")
    if not parent.is_dir():
        what = "is not a directory" if parent.exists() else "does not exist"
        fail(f"{option} {path}: the directory {parent} {what}")
    existed = path.exists()
    try:
        with path.open("a"):
            pass
    except OSError as exc:
        fail(f"{option} {path}: cannot write there ({exc.strerror or type(exc).__name__})")
    if not existed:
        path.unlink(missing_ok=True)


def write_output(path: Path, text: str, option: str) -> None:
    try:
        path.write_text(text, encoding="utf-8")
    except OSError as exc:
        fail(f"{option} {path}: cannot write there ({exc.strerror or type(exc).__name__})")


def read_record(file: Path, command: str, accepted: tuple[str, ...]) -> tuple[str, str]:
    """The text of the ecarte record in ``file`` and its format, which must be one of
    ``accepted``; anything else (unreadable, not UTF-8 text, not JSON, not a record, another
    kind of record) is refused in one line that says what the file is."""
    wanted = " or ".join(f"{RECORD_KINDS[k]} (format {k!r})" for k in accepted)
    try:
        data = file.read_bytes()
    except OSError as exc:
        fail(f"cannot read {file}: {exc.strerror or type(exc).__name__}")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        fail(f"{file} is not a text file (not UTF-8); {command} reads {wanted}")
    try:
        record = json.loads(text, parse_constant=no_constant)
    except (ValueError, RecursionError):
        fail(f"{file} is not a JSON record; {command} reads {wanted}")
    kind = record.get("format") if isinstance(record, dict) else None
    if not isinstance(kind, str):
        fail(
            f'{file} is JSON but not an ecarte record (no "format" field); {command} reads {wanted}'
        )
    if kind not in accepted:
        what = RECORD_KINDS.get(kind, f"unknown record format {kind!r}")
        fail(f"{file}: {what}; {command} reads {wanted}")
    return text, kind


def parse_deal(file: Path, text: str) -> Deal:
    try:
        return Deal.from_json(text)
    except (ValueError, TypeError, OverflowError, RecursionError) as exc:
        fail(f"{file}: not a valid deal record: {one_line(exc)}")


def parse_match(file: Path, text: str) -> Match:
    try:
        return Match.from_json(text)
    except (ValueError, TypeError, OverflowError, RecursionError) as exc:
        fail(f"{file}: not a valid match record: {one_line(exc)}")


def ray_option(f: Any) -> Any:
    """``--ray [ADDRESS]``: run on Ray (docs/scale.md); no address: RAY_ADDRESS or local."""
    return click.option(
        "--ray",
        "ray_address",
        is_flag=False,
        flag_value="",
        default=None,
        metavar="[ADDRESS]",
        help="Run on a Ray cluster (ADDRESS, e.g. auto; default RAY_ADDRESS or a local one).",
    )(f)


def backend_of(address: str | None) -> Backend:
    """The backend of ``--ray [ADDRESS]`` (``None``: not given; ``""``: no address)."""
    return "local" if address is None else RayBackend(address=address or None)
