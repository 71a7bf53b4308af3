"""What every command of the ``ecarte`` command line shares: its options and argument types,
its one-line errors (status 2), output files, saved records and the ``--ray`` option."""

from __future__ import annotations

import contextlib
import os
import re
import select
import signal
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, NoReturn, TypeVar

import click
from rich.console import Console

from ecarte import MAX_THREADS
from ecarte.agents import Agent, make_agent
from ecarte.distributed import Backend, RayBackend
from ecarte.duel import parse_agent
from ecarte.errors import EcarteError, InvalidRecordError, InvalidSeedError
from ecarte.registry import RecordFormat, record_formats, sniff
from ecarte.seeding import check_seed

T = TypeVar("T")


class AgentSpecType(click.ParamType):  # type: ignore[type-arg]  # generic only in click >= 8.2
    """The click type of an agent spec, read by the one native grammar
    (``ecarte.duel.AGENT_SPECS``)."""

    name = "agent"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> str:
        try:
            parse_agent(value)
        except ValueError as exc:  # an unknown name, or a world count out of range
            self.fail(str(exc), param, ctx)
        return str(value)


AGENT = AgentSpecType()

#: A trained model named as an agent: a file saved by stable-baselines3 (``model.save``).
MODEL_SUFFIX = ".zip"


class PlayerType(AgentSpecType):
    """The click type of an agent that plays through Python: an agent spec, or a model file
    saved by stable-baselines3 (``*.zip``, played by ``ecarte.sb3.PolicyAgent``)."""

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> str:
        if str(value).endswith(MODEL_SUFFIX):
            if not Path(value).is_file():
                self.fail(f"no model file {value!r}", param, ctx)
            return str(value)
        return super().convert(value, param, ctx)


PLAYER = PlayerType()


def make_player(spec: str, seed: int) -> Agent:
    """The agent a ``PLAYER`` names: a built-in agent, or a saved model's agent."""
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


def number_text(n: int) -> str:
    """A bound as a person writes it: ``2**64 - 1``, ``1,000,000``, ``20``."""
    if n == 2**64 - 1:
        return "2**64 - 1"
    return f"{n:,}" if n >= 10_000 else str(n)


class Whole(click.IntRange):
    """A whole number from ``low`` to ``high`` (no bound above when ``high`` is None). Help
    shows the range it accepts ("1 to 1,000,000,000"); a bad value is refused as
    ``--option must be a whole number from 1 to 1,000,000,000, got 0``."""

    def __init__(self, low: int, high: int | None = None) -> None:
        super().__init__(low, high)

    def _describe_range(self) -> str:
        low = number_text(int(self.min or 0))
        return f"at least {low}" if self.max is None else f"{low} to {number_text(int(self.max))}"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> int:
        number = value if isinstance(value, int) and not isinstance(value, bool) else None
        if number is None and isinstance(value, str) and value.strip().lstrip("+-").isdigit():
            number = int(value)
        low, high = int(self.min or 0), self.max
        if number is None or number < low or (high is not None and number > high):
            which = f"from {self._describe_range()}" if high is not None else "at least " + str(low)
            shown = value if isinstance(value, int) or str(value).isdigit() else repr(value)
            self.fail(f"must be a whole number {which}, got {shown}", param, ctx)
        return number


class OutputFile(click.Path):
    """A file to write (``--out``, ``--save``, ``--plot``): a path, not empty."""

    def __init__(self) -> None:
        super().__init__(dir_okay=False, path_type=Path)

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        if isinstance(value, str) and not value.strip():
            self.fail("the path is empty: give a file name", param, ctx)
        return super().convert(value, param, ctx)


OUTPUT = OutputFile()

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
    type=Whole(1, 100),
    default=7,
    show_default=True,
    help="Points that win the match.",
)

#: ``--threads``: worker threads of a native run whose results do not depend on them.
THREADS_OPTION = click.option(
    "--threads",
    type=Whole(1, MAX_THREADS),
    default=None,
    help="Worker threads (default: all cores); results do not depend on it.",
)


def _ascii(ctx: click.Context, param: click.Parameter, value: bool) -> None:
    from ecarte.display import use_ascii

    use_ascii(value)


#: ``--ascii``: cards as QH rather than Q♥, for terminals without the suit symbols.
ASCII_OPTION = click.option(
    "--ascii",
    is_flag=True,
    expose_value=False,
    callback=_ascii,
    help="Show cards in ASCII (QH) instead of with suit symbols (Q♥).",
)


class Seed(Whole):
    """Every ``--seed``: the text read as a whole number and checked, before any work, by
    the one check of every seed (``ecarte.seeding.check_seed``); help shows its range."""

    def __init__(self) -> None:
        super().__init__(0, 2**64 - 1)

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> int:
        number = value
        if isinstance(value, str) and re.fullmatch(r"\s*[+-]?\d+\s*", value):
            with contextlib.suppress(ValueError):  # more digits than Python reads
                number = int(value)
        try:
            return check_seed(number)
        except (TypeError, InvalidSeedError) as exc:
            self.fail(str(exc).removeprefix("seed "), param, ctx)


SEED = Seed()

#: What a bad input raises; the command reports it in one line and exits with status 2.
USER_ERRORS = (EcarteError, ValueError, OSError, UnicodeError, OverflowError, RecursionError)

#: Upper bounds of the CLI's sizes, so that a typo cannot start a machine-filling run: worker
#: threads (the engine's own ``MAX_THREADS``), worker processes (``arena --workers``);
#: worlds per search decision are the engine's one limit, ``ecarte.MAX_SAMPLES``.
MAX_WORKERS = 64
#: ... and of the run lengths: deals of ``simulate``, seeds of ``arena``, deals of ``bank``.
MAX_SIMULATED = 10**9
MAX_ARENA_MATCHES = 10**6
MAX_BANK_DEALS = 10**6


class CommandInterrupted(Exception):
    """Ctrl-C during a command: the console script says ``interrupted`` and exits with
    status 130 (click would print ``Aborted!`` and exit with 1)."""


class OutputClosed(Exception):
    """The reader of the output went away (``ecarte match | head -1``): the console script
    ends quietly (click would exit with status 1)."""


def ask(prompt: str) -> str | None:
    """The line a person types at ``prompt``, the one way every command reads an answer:
    ``None`` at the end of the input (Ctrl-D, or a redirected stdin that ran out). Ctrl-C
    at the prompt is Ctrl-C everywhere: :class:`CommandInterrupted` (``interrupted``, status
    130), never an answer."""
    try:
        click.echo(prompt, nl=False)
        _wait_for_input()
        return input()
    except EOFError:
        click.echo()  # the prompt's line ends before whatever comes next
        return None
    except KeyboardInterrupt:
        click.echo(err=True)
        raise CommandInterrupted from None


def _wait_for_input() -> None:
    """Waits until stdin has a line to read, or a signal comes. A Ctrl-C that arrives just
    before the read starts would otherwise wait, unseen, in a blocked read: the signal's
    wake-up byte ends the wait, and its ``KeyboardInterrupt`` is raised."""
    if os.name != "posix" or not can_ask():
        return
    wake, wake_write = os.pipe()
    os.set_blocking(wake_write, False)
    try:
        previous = signal.set_wakeup_fd(wake_write, warn_on_full_buffer=False)
    except ValueError:  # not the main thread: no signal reaches this wait
        os.close(wake)
        os.close(wake_write)
        return
    try:
        while True:
            ready, _, _ = select.select([sys.stdin, wake], [], [])
            if sys.stdin in ready:
                return
            os.read(wake, 64)  # a signal without a Python handler (a resize): wait on
    finally:
        signal.set_wakeup_fd(previous)
        os.close(wake)
        os.close(wake_write)


def can_ask() -> bool:
    """Whether a person can answer a question: stdin is a terminal. A command offers what
    waits for an answer (saving an unfinished game) only then."""
    try:
        return sys.stdin is not None and sys.stdin.isatty()
    except ValueError:  # a closed stdin
        return False


def console() -> Console:
    """The console a command prints through (rich, no highlighting); a reader that goes
    away ends the command quietly (:class:`OutputClosed`), not with rich's status 1."""
    return _Console(highlight=False)


class _Console(Console):
    def on_broken_pipe(self) -> None:
        raise OutputClosed


class OneLineError(click.ClickException):
    """A bad input: ``error: ...`` in one line on stderr, status 2."""

    exit_code = 2

    def show(self, file: Any = None) -> None:
        click.echo(f"error: {self.format_message()}", err=True)


def one_line(text: object) -> str:
    return " ".join(str(text).split())


def _usage_error(exc: click.UsageError) -> OneLineError:
    """One line that names the option: ``--deals must be a whole number from ...``."""
    hint = f" (see '{exc.ctx.command_path} --help')" if exc.ctx is not None else ""
    message = exc.format_message()
    param = getattr(exc, "param", None)
    if isinstance(exc, click.BadParameter) and not isinstance(exc, click.MissingParameter):
        if param is not None:
            name = param.opts[0] if isinstance(param, click.Option) else param.human_readable_name
            joint = " " if exc.message.startswith("must ") else ": "
            message = f"{name}{joint}{exc.message}"
    return OneLineError(one_line(message) + hint)


#: A summary's length limit in ``ecarte --help``: longer than any first sentence, so that
#: none is cut.
WHOLE_SUMMARY = 10_000


class EcarteGroup(click.Group):
    """Reports every bad input, click's own usage errors included, in one line with status
    2, never with a traceback; turns Ctrl-C and a closed output into the console script's
    own exits (:class:`CommandInterrupted`, :class:`OutputClosed`)."""

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """The commands, each with the first sentence of its help whole, wrapped to the
        width rather than cut with ``...``."""
        rows = []
        for name in self.list_commands(ctx):
            command = self.get_command(ctx, name)
            if command is not None and not command.hidden:
                rows.append((name, command.get_short_help_str(limit=WHOLE_SUMMARY)))
        if rows:
            with formatter.section("Commands"):
                formatter.write_dl(rows)

    def make_context(self, *args: Any, **kwargs: Any) -> click.Context:
        try:
            return super().make_context(*args, **kwargs)
        except click.UsageError as exc:
            raise _usage_error(exc) from None
        except KeyboardInterrupt:
            raise CommandInterrupted from None

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except click.UsageError as exc:
            raise _usage_error(exc) from None
        except KeyboardInterrupt:
            raise CommandInterrupted from None
        except BrokenPipeError:
            raise OutputClosed from None
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


def load_record(file: Path, command: str, readers: tuple[type, ...]) -> Any:
    """The object the ecarte record in ``file`` holds, read by its format's reader
    (``ecarte.registry``), which must be one of ``readers``; anything else (unreadable, not
    UTF-8 text, not JSON, not a record, another kind of record, a record that does not
    load) is refused in one line that says what the file is."""
    found, text = record_text(file, command, readers)
    return checked(file, lambda: found.read(text))


def record_text(file: Path, command: str, readers: tuple[type, ...]) -> tuple[RecordFormat, str]:
    """The format and the text of the ecarte record in ``file``, a format that one of
    ``readers`` reads; anything else is refused in one line, as :func:`load_record` says."""
    wanted = " or ".join(
        f"{f.description} (format {f.format!r})"
        for f in record_formats().values()
        if f.reader in readers
    )
    try:
        data = file.read_bytes()
    except OSError as exc:
        fail(f"cannot read {file}: {exc.strerror or type(exc).__name__}")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        fail(f"{file} is not a text file (not UTF-8); {command} reads {wanted}")
    try:
        found = sniff(text)
    except InvalidRecordError as exc:
        fail(f"{file}: {exc}; {command} reads {wanted}")
    if found.reader not in readers:
        fail(f"{file}: {found.description}; {command} reads {wanted}")
    return found, text


def checked(file: Path, read: Callable[[], T]) -> T:
    """What ``read()`` gives from the record in ``file``; a record that does not load is
    refused in one line ("FILE: invalid deal record: what is wrong")."""
    try:
        return read()
    except ValueError as exc:
        fail(f"{file}: {one_line(exc)}")


#: The chart formats ``--plot`` writes (by file name extension).
PLOT_SUFFIXES = (
    ".png",
    ".pdf",
    ".svg",
    ".svgz",
    ".eps",
    ".ps",
    ".jpg",
    ".jpeg",
    ".tif",
    ".tiff",
    ".webp",
)


def pyplot() -> Any:
    """matplotlib's pyplot for ``--plot``, drawing to files; loaded only when a chart is
    asked for, and a missing matplotlib refused in one line naming the extra."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        from ecarte._install import install_hint

        fail(f"--plot needs matplotlib: {install_hint('plot')}")
    return plt


def save_chart(fig: Any, path: Path) -> None:
    """Writes a ``--plot`` chart to ``path`` and closes it; a path that cannot be written
    is refused in one line."""
    fig.tight_layout()
    try:
        fig.savefig(path)
    except OSError as exc:
        fail(f"--plot {path}: cannot write there ({exc.strerror or type(exc).__name__})")
    finally:
        pyplot().close(fig)


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
