"""A fuzz of the `ecarte` command: random arguments and random files for every
command. Whatever the input, the command never shows a traceback; a bad input gets one line
on stderr (``error: ...``) and status 2, a good one status 0.

Most cases run in process through click's ``CliRunner``, for speed; a few run the real
command in a subprocess. The Hypothesis profile decides the depth: ``fast`` by default,
``slow`` with ``ECARTE_SLOW=1`` (see ``conftest.py``).
"""

from __future__ import annotations

import functools
import json
import os
import subprocess
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

import pytest
from cli_support import run_ecarte
from click.testing import CliRunner, Result
from ecarte import EcarteError, RandomAgent, derive_seed
from ecarte.agents import agent_seed
from ecarte.cli import main
from ecarte.duel import Deal, Match
from hypothesis import given
from hypothesis import strategies as st

# -- files ---------------------------------------------------------------------------------

DEEP = 100_000


def _played_deal(seed: int, actions: int | None = None) -> Deal:
    deal = Deal(seed=seed)
    deal.apply("decline")
    while not deal.is_over() and (actions is None or actions > 0):
        deal.apply(deal.legal_actions()[0])
        actions = None if actions is None else actions - 1
    return deal


def _finished_match() -> Match:
    match = Match(seed=5)
    while not match.is_over():
        match.apply(match.legal_actions()[0])
    return match


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Input files by name: the good ones start with ``good``."""
    root = tmp_path_factory.mktemp("fuzz")
    match = _finished_match()
    deal_record = json.loads(_played_deal(3, 3).to_json())
    match_record = json.loads(match.to_json())
    from ecarte import bank

    table = bank.Table(["A", "B", "C"], seed=1)
    contents: dict[str, bytes | str] = {
        "png": b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\xff",
        "bytes": b"\x00\xff",
        "latin1": '{"format": "ecarte.duel.deal", "x": "\xe9"}'.encode("latin-1"),
        "empty": b"",
        "five": "5",
        "list": "[]",
        "null": "null",
        "string": '"abc"',
        "nan": "NaN",
        "deep_list": "[" * DEEP + "]" * DEEP,
        "deep_object": '{"a":' * DEEP + "1" + "}" * DEEP,
        "deep_format": '{"format": ' + "[" * 5000 + "]" * 5000 + "}",
        "deep_deal": json.dumps({**deal_record, "actions": 0})[:-1]
        + ', "x": '
        + "[" * 3000
        + "]" * 3000
        + "}",
        "no_format": '{"a": 1}',
        "format_number": '{"format": 5}',
        "chess": '{"format": "chess"}',
        "bank_record": table.to_json(),
        "bank_bad_action": table.to_json().replace('"actions":[]', '"actions":[["fly"]]'),
        "huge_int": '{"format": "ecarte.duel.match", "seed": ' + "9" * 5000 + "}",
        "match_deals_5": json.dumps({**match_record, "deals": 5}),
        "match_deals_null": json.dumps({**match_record, "deals": None}),
        "match_seed_inf": json.dumps(match_record).replace(
            f'"seed": {match.seed}', '"seed": Infinity'
        ),
        "match_seed_big": json.dumps({**match_record, "seed": 2**70}),
        "match_seed_neg": json.dumps({**match_record, "seed": -1}),
        "match_version_true": json.dumps({**match_record, "version": True}),
        "deal_unknown_key": json.dumps({**deal_record, "extra": 1}),
        "deal_bad_card": json.dumps({**deal_record, "deck": ["ZZ"] * 32}),
        "deal_dealer_big": json.dumps({**deal_record, "dealer": 2**64}),
        "deal_actions_bad": json.dumps({**deal_record, "actions": ["nonsense"]}),
        "deal_actions_illegal": json.dumps({**deal_record, "actions": ["accept"]}),
        "fresh_deal": Deal(seed=1).to_json(),
        "good_deal": _played_deal(3, 3).to_json(),
        "good_finished_deal": _played_deal(4).to_json(),
        "good_match": match.to_json(),
    }
    paths = {}
    for name, content in contents.items():
        path = root / f"{name}.json"
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content, encoding="utf-8")
        paths[name] = path
    paths["directory"] = root
    paths["missing"] = root / "missing.json"
    return paths


#: Where an output file cannot go: a missing directory, a regular file as the directory, a
#: directory itself, a place nothing can be created in.
def bad_outputs(files: dict[str, Path]) -> list[str]:
    return [
        "/nonexistent/dir/out.json",
        str(files["five"] / "out.json"),
        str(files["directory"]),
        "/proc/ecarte-out.json",
        "",
    ]


# -- running -------------------------------------------------------------------------------

runner = CliRunner()


def invoke(args: Sequence[str], stdin: str = "quit\n\n") -> Result:
    # Random arguments may name an output file: it lands in a scratch folder, not the checkout.
    here = os.getcwd()
    with tempfile.TemporaryDirectory() as scratch:
        os.chdir(scratch)
        try:
            return runner.invoke(main, list(args), input=stdin, catch_exceptions=True)
        finally:
            os.chdir(here)


def check(result: Result, args: Sequence[str], expect: int | None) -> None:
    """No traceback and no escaped exception; status 2 with one ``error:`` line on stderr
    for a bad input, 0 for a good one, one of the two when ``expect`` is None."""
    context = f"args={list(args)!r}\nstdout={result.stdout[-2000:]!r}\nstderr={result.stderr!r}"
    exc = result.exception
    assert exc is None or isinstance(exc, SystemExit), f"{exc!r} escaped\n{context}"
    assert "Traceback" not in result.output, context
    assert result.exit_code in ((0, 2) if expect is None else (expect,)), context
    if result.exit_code == 2:
        lines = result.stderr.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("error: "), context


# -- records -------------------------------------------------------------------------------


REPLAY_GOOD = {"good_deal", "good_finished_deal", "good_match", "fresh_deal", "bank_record"}

#: Tampered records: ``replay`` refuses each with status 2 (checked below); every other
#: command must at least show no traceback for them.
TAMPERED_ACCEPTED = {"match_version_true"}


def replay_expectation(name: str) -> int | None:
    if name in TAMPERED_ACCEPTED:
        return None
    return 0 if name in REPLAY_GOOD else 2


def test_replay_every_file(files: dict[str, Path]) -> None:
    for name, path in files.items():
        for args, stdin in (
            (["replay", str(path)], "quit"),
            (["replay", "--step", str(path)], ""),
        ):
            check(invoke(args, stdin), args, replay_expectation(name))


def test_replay_refuses_every_tampered_record(files: dict[str, Path]) -> None:
    for name in sorted(TAMPERED_ACCEPTED):
        args = ["replay", str(files[name])]
        check(invoke(args), args, 2)


def test_solve_every_file(files: dict[str, Path]) -> None:
    for name, path in files.items():
        for extra, good in (
            ([], name in ("good_deal", "good_finished_deal")),
            (
                ["--deal", "1"],
                name in ("good_deal", "good_finished_deal", "good_match"),
            ),
            (["--deal", "999"], False),
            (["--deal", "0"], False),
            (["--seed", "1"], False),
        ):
            args = ["solve", str(path), *extra]
            tampered = name in TAMPERED_ACCEPTED and extra == ["--deal", "1"]
            check(invoke(args), args, None if tampered else 0 if good else 2)


def test_record_messages_say_what_the_file_is(files: dict[str, Path]) -> None:
    result = invoke(["replay", str(files["png"])])
    assert "is not a text file" in result.stderr
    result = invoke(["replay", str(files["no_format"])])
    assert "not an ecarte record" in result.stderr and "ecarte.duel.match" in result.stderr
    assert "None" not in result.stderr
    result = invoke(["solve", str(files["good_match"])])
    assert "is a match record of" in result.stderr and "--deal N" in result.stderr
    assert "serde" not in result.stderr and "unknown field" not in result.stderr
    result = invoke(["solve", str(files["bank_record"])])
    assert "a banking session record" in result.stderr
    result = invoke(["solve", str(files["good_match"]), "--deal", "2"])
    assert result.exit_code == 0 and "Value for seat" in result.stdout
    assert "solved from its first lead" in result.stdout


# -- output paths --------------------------------------------------------------------------


def test_bad_output_paths_are_refused_before_the_work(files: dict[str, Path]) -> None:
    # Each of these runs for minutes if it starts: the path must be refused first.
    slow = {
        "match": ["match", "--agents", "pimc", "pimc", "--target", "100"],
        "bank": ["bank", "--deals", str(10**6)],
    }
    for path in bad_outputs(files):
        for args in (
            [*slow["match"], "--out", path],
            [*slow["bank"], "--out", path],
            [*slow["bank"], "--plot", path],
            ["play", "--save", path],
        ):
            start = time.perf_counter()
            result = invoke(args)
            check(result, args, 2)
            assert time.perf_counter() - start < 10, args
    assert not Path("/proc/ecarte-out.json").exists()


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
def test_a_write_that_fails_after_the_run_is_one_line() -> None:
    # /dev/full opens, so the check before the run passes; the write itself fails.
    args = ["match", "--agents", "random", "random", "--quiet", "--out", "/dev/full"]
    result = invoke(args)
    check(result, args, 2)
    assert "cannot write" in result.stderr


def test_plot_formats(tmp_path: Path) -> None:
    for name in ("chart.txt", "chart", "chart.json", "chart.PNG.exe"):
        args = ["bank", "--deals", str(10**6), "--plot", str(tmp_path / name)]
        result = invoke(args)
        check(result, args, 2)
        assert ".png" in result.stderr
        assert not (tmp_path / name).exists()
    for name in ("chart.png", "chart.svg", "chart.PDF"):
        args = [
            "bank",
            "--deals",
            "2",
            "--players",
            "2",
            "--plot",
            str(tmp_path / name),
        ]
        check(invoke(args), args, 0)
        assert (tmp_path / name).stat().st_size > 0


def test_good_output_paths(tmp_path: Path) -> None:
    out = tmp_path / "m.json"
    args = ["match", "--agents", "random", "random", "--quiet", "--out", str(out)]
    check(invoke(args), args, 0)
    assert Match.from_json(out.read_text()).is_over()
    # An existing file is overwritten.
    args = ["match", "--agents", "heuristic", "random", "--quiet", "--out", str(out)]
    check(invoke(args), args, 0)
    args = ["bank", "--deals", "2", "--out", str(tmp_path / "s.json")]
    check(invoke(args), args, 0)


# -- seeds ---------------------------------------------------------------------------------

SEED_COMMANDS = [
    ["match", "--agents", "random", "heuristic", "--quiet", "--target", "1"],
    ["match", "--agents", "pimc", "random", "--quiet", "--target", "1"],
    ["simulate", "--deals", "2"],
    ["bank", "--deals", "2", "--players", "2"],
    ["arena", "heuristic", "random", "--matches", "1"],
    ["solve"],
    ["play", "--opponent", "pimc"],
]


@pytest.mark.parametrize("seed", [0, 1, 2**32, 2**63 - 1, 2**63, 2**64 - 2, 2**64 - 1])
def test_every_seed_in_range_works(seed: int) -> None:
    for command in SEED_COMMANDS:
        args = [*command, "--seed", str(seed)]
        check(invoke(args), args, 0)


@pytest.mark.parametrize("seed", ["-1", str(2**64), str(2**70), "1.5", "x", "", "-0x1"])
def test_every_seed_out_of_range_is_refused(seed: str) -> None:
    for command in SEED_COMMANDS:
        args = [*command, "--seed", seed]
        result = invoke(args)
        check(result, args, 2)
        assert "--seed" in result.stderr


def test_agents_are_seeded_by_agent_seed(tmp_path: Path) -> None:
    seed = 2**64 - 1
    out = tmp_path / "m.json"
    args = ["match", "--seed", str(seed), "--agents", "random", "random", "--quiet"]
    check(invoke([*args, "--out", str(out)]), args, 0)
    match = Match(seed=seed)
    match.players = ("Random-0", "Random-1")  # the command keeps the names in the record
    match.play(RandomAgent(agent_seed(seed, 0)), RandomAgent(agent_seed(seed, 1)))
    assert Match.from_json(out.read_text()) == match and out.read_text() == match.to_json()


def test_agent_seed() -> None:
    seeds = {agent_seed(s, seat) for s in (0, 1, 2**63, 2**64 - 1) for seat in (0, 1, 2)}
    assert len(seeds) == 12 and all(0 <= s < 2**64 for s in seeds)
    # Never the seed of one of the match's deals.
    assert agent_seed(7, 0) not in {derive_seed(7, i) for i in range(1000)}
    for bad_seed in (-1, 2**64):
        with pytest.raises(EcarteError):
            agent_seed(bad_seed, 0)
    with pytest.raises(EcarteError):
        agent_seed(1, -1)


def test_seed_error_shows_the_number_given() -> None:
    result = invoke(["match", "--seed", str(2**64)])
    assert str(2**64) in result.stderr and str(2**65 + 1) not in result.stderr


# -- random arguments ----------------------------------------------------------------------

#: Every command with the options it takes; argument lists are drawn from these and from
#: junk. Work sizes stay small or out of range, so that no drawn run is long.
COMMANDS: dict[str, dict[str, int]] = {
    "match": {
        "--seed": 1,
        "--agents": 2,
        "--target": 1,
        "--order": 1,
        "--first-dealer": 1,
        "--out": 1,
        "--quiet": 0,
    },
    "play": {
        "--opponent": 1,
        "--seed": 1,
        "--order": 1,
        "--target": 1,
        "--seat": 1,
        "--save": 1,
    },
    "solve": {"--seed": 1, "--deal": 1, "--dealer": 1, "--objective": 1},
    "replay": {"--step": 0},
    "simulate": {
        "--deals": 1,
        "--seed": 1,
        "--agents": 2,
        "--matches": 0,
        "--threads": 1,
        "--order": 1,
    },
    "odds": {"--trump": 1, "--seen": 1},
    "bank": {
        "--players": 1,
        "--bank": 1,
        "--stake": 1,
        "--chips": 1,
        "--deals": 1,
        "--mode": 1,
        "--seed": 1,
        "--plot": 1,
        "--out": 1,
    },
    "arena": {
        "--matches": 1,
        "--seed": 1,
        "--workers": 1,
        "--samples": 1,
        "--target": 1,
        "--order": 1,
    },
    "bench": {},
}

#: Prepended to every drawn argument list (a drawn option given later wins): cheap agents.
PREFIX = {
    "match": ["--agents", "random", "heuristic", "--quiet"],
    "play": ["--opponent", "random"],
    "simulate": ["--deals", "3"],
    "bank": ["--deals", "3"],
    "arena": ["--matches", "2"],
}

NUMBERS = [
    "0",
    "1",
    "2",
    "3",
    "-1",
    "-0",
    "07",
    "1.5",
    "1e3",
    "nan",
    "inf",
    "0x10",
    str(2**31),
    str(2**32 + 1),
    str(2**63 - 1),
    str(2**63),
    str(2**64 - 1),
    str(2**64),
    str(-(2**63)),
    str(10**30),
    "9" * 400,
]
WORDS = [
    "",
    " ",
    "x",
    "random",
    "heuristic",
    "oracle",
    "ecarte",
    "traditional",
    "points",
    "cards",
    "banking",
    "open",
    "H",
    "♥",
    "QH,KS",
    "5H,XX",
    "QH,QH",
    "ZZ",
    "--",
    "-",
    "--help",
    "-h",
    "--version",
    "\u00e9",
    "\udcff",
    "a" * 300,
    "pimc:0",
    "pimc:²",
]
#: Values of the options that set the length of a run: small or out of range only.
SIZES = ["0", "1", "2", "-1", "x", "1.5", str(2**31), str(2**64), str(10**30)]
SIZE_OPTIONS = {
    "--deals",
    "--matches",
    "--samples",
    "--workers",
    "--threads",
    "--target",
}
AGENT_WORDS = ["random", "heuristic", "oracle", "", "RANDOM"]


@st.composite
def argv(draw: st.DrawFn, files: dict[str, Path]) -> list[str]:
    command = draw(st.sampled_from(sorted(COMMANDS)))
    options = COMMANDS[command]
    paths = [str(p) for p in files.values()] + bad_outputs(files)
    value = st.one_of(
        st.sampled_from(NUMBERS),
        st.sampled_from(WORDS),
        st.sampled_from(paths),
        st.text(max_size=8),
    )
    tokens: list[str] = [*PREFIX.get(command, [])]
    for _ in range(draw(st.integers(0, 6))):
        kind = draw(st.integers(0, 9))
        if kind < 6 and options:
            option = draw(st.sampled_from(sorted(options)))
            tokens.append(option)
            for _ in range(options[option]):
                if option in SIZE_OPTIONS:
                    tokens.append(draw(st.sampled_from(SIZES)))
                elif option in ("--agents", "--opponent"):
                    tokens.append(draw(st.sampled_from(AGENT_WORDS)))
                else:
                    tokens.append(draw(value))
        elif kind < 8:
            tokens.append(draw(st.sampled_from(AGENT_WORDS[:3] + paths)))
        else:
            tokens.append(draw(value))
    if command == "bench" and not any(t.startswith("-") for t in tokens):
        tokens.append("--bogus")  # a real benchmark run takes minutes
    return [command, *tokens]


def test_random_arguments(files: dict[str, Path]) -> None:
    @given(argv(files))
    def run(args: list[str]) -> None:
        check(invoke(args), args, None)

    run()


@given(st.lists(st.text(max_size=12), max_size=6))
def test_random_text_as_arguments(tokens: list[str]) -> None:
    args = [t for t in tokens if t not in ("bench", "play")]
    if args and args[0] in COMMANDS:
        args = [args[0], *PREFIX.get(args[0], []), *args[1:]]
    check(invoke(args), args, None)


@given(
    st.sampled_from(sorted(COMMANDS)),
    st.sampled_from(sorted(SIZE_OPTIONS)),
    st.sampled_from(["0", "-1", str(2**64), "x", "1.5", str(10**30)]),
)
def test_bad_sizes_exit_2(command: str, option: str, value: str) -> None:
    if option not in COMMANDS[command]:
        return
    args = [command, *PREFIX.get(command, []), option, value]
    if command == "arena":
        args.insert(1, "random")
        args.insert(1, "random")
    check(invoke(args), args, 2)


@given(st.binary(max_size=200))
def test_random_bytes_as_a_record(tmp_path_factory: pytest.TempPathFactory, data: bytes) -> None:
    path = tmp_path_factory.mktemp("bytes") / "record.json"
    path.write_bytes(data)
    for command in ("replay", "solve"):
        args = [command, str(path)]
        check(invoke(args), args, 2)


record_value = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=5),
    lambda children: (
        st.lists(children, max_size=3) | st.dictionaries(st.text(max_size=5), children, max_size=3)
    ),
    max_leaves=10,
)


@given(
    st.sampled_from(["ecarte.duel.deal", "ecarte.duel.match", "ecarte.bank.session", None]),
    st.dictionaries(
        st.sampled_from(
            [
                "version",
                "deck",
                "dealer",
                "rules",
                "actions",
                "seed",
                "first_dealer",
                "deals",
                "target",
                "x",
            ]
        ),
        record_value,
        max_size=6,
    ),
)
def test_random_json_records(
    tmp_path_factory: pytest.TempPathFactory,
    kind: str | None,
    fields: dict[str, object],
) -> None:
    record = dict(fields)
    if kind is not None:
        record["format"] = kind
    path = tmp_path_factory.mktemp("json") / "record.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    for args in (
        ["replay", str(path)],
        ["solve", str(path)],
        ["solve", str(path), "--deal", "1"],
    ):
        check(invoke(args), args, 2)


# -- the real command ----------------------------------------------------------------------


ecarte = functools.partial(run_ecarte, timeout=120, stdin=subprocess.DEVNULL)


def test_subprocess_bad_inputs_one_line_status_2(files: dict[str, Path]) -> None:
    for args in (
        ["replay", str(files["png"])],
        ["solve", str(files["bytes"])],
        ["replay", str(files["no_format"])],
        ["solve", str(files["good_match"])],
        ["replay", str(files["deep_list"])],
        ["match", "--seed", str(2**64), "--quiet"],
        ["match", "--quiet", "--out", "/nonexistent/dir/m.json"],
        ["bank", "--plot", "chart.txt"],
        ["bank", "--out", "/nonexistent/dir/s.json"],
        ["arena", "pimc", "heuristic", "--matches", "0"],
        ["nonsense"],
    ):
        proc = ecarte(*args)
        assert proc.returncode == 2, (args, proc.stderr)
        assert "Traceback" not in proc.stderr + proc.stdout, args
        lines = proc.stderr.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("error: "), (args, proc.stderr)


def test_subprocess_big_seed_and_undecodable_argument(tmp_path: Path) -> None:
    proc = ecarte(
        "match",
        "--seed",
        str(2**63),
        "--quiet",
        "--agents",
        "pimc",
        "random",
        "--target",
        "1",
    )
    assert proc.returncode == 0, proc.stderr
    assert "wins the match" in proc.stdout
    # A file name that is not UTF-8 reaches Python as a lone surrogate.
    proc = run_ecarte("replay", b"\xff.json", timeout=60, cwd=tmp_path)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr, proc.stderr
    for args in (
        ["odds", "--trump", b"\xff"],
        ["odds", "--trump", "H", "--seen", b"Q\xff"],
    ):
        proc = run_ecarte(*args, timeout=60)
        assert proc.returncode == 2, proc.stderr
        lines = proc.stderr.strip().splitlines()
        # Refused by the CLI (UTF-8) or by the engine (Unicode): either way one line.
        assert len(lines) == 1, proc.stderr
        assert "not valid UTF-8" in lines[0] or "not valid Unicode" in lines[0], proc.stderr


@pytest.mark.parametrize("matches", [1, 2, 3])
def test_arena_rates_print_within_zero_and_one(matches: int) -> None:
    import re

    args = ["arena", "heuristic", "random", "--matches", str(matches), "--seed", "3"]
    result = invoke(args)
    check(result, args, 0)
    rates = re.findall(r"win rate of heuristic\s+([-\d.]+) \[([-\d.]+), ([-\d.]+)\]", result.stdout)
    assert len(rates) == 2, result.stdout
    for mean, low, high in rates:
        assert 0.0 <= float(low) <= float(mean) <= float(high) <= 1.0, result.stdout
    assert "inf" not in result.stdout
