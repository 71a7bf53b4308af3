"""The command line's messages in the user's language: batch solving's report of bad
lines, option names in errors, the range each option accepts, and no Rust or Python
internals (type names, parser positions, repeated prefixes) in what a person reads."""

from __future__ import annotations

import functools
import json
import re
import subprocess
import sys
from pathlib import Path

import click
import pytest
from cli_support import run_ecarte
from ecarte import HeuristicAgent, RandomAgent, duel
from ecarte.cli import main

#: What a person should never read: Rust types, number kinds, Python classes, parser
#: positions, tracebacks.
INTERNALS = re.compile(
    r"\b[ui](8|16|32|64|size)\b|floating point|expected a (Suit|Card)|<class|Traceback"
    r"|PanicException|line \d+ column \d+"
)


ecarte = functools.partial(run_ecarte, timeout=300)


def finished_deal(seed: int) -> duel.Deal:
    deal, agent = duel.Deal(seed=seed), RandomAgent(seed)
    while not deal.is_over():
        deal.apply(agent(deal.observation(deal.current_player), deal.legal_actions()))
    return deal


def play_phase_deal(seed: int) -> duel.Deal:
    deal = duel.Deal(seed=seed)
    deal.apply("decline")
    return deal


def test_a_batch_reports_each_bad_line_and_solves_the_rest(tmp_path: Path) -> None:
    good = play_phase_deal(1)
    tampered = json.loads(good.to_json())
    tampered["actions"] = ["decline", "7C"]  # 7C is not in the elder's hand
    match = duel.Match(seed=2, target=1)
    match.play(HeuristicAgent(), HeuristicAgent())
    lines = [
        good.to_json(),
        json.dumps(tampered),
        "{not json",
        match.to_json(),
        duel.Deal(seed=4).to_json(),  # still in the exchange
        finished_deal(5).to_json(),
        json.dumps({**json.loads(good.to_json()), "dealer": 10**30}),
        "[1, 2]",
    ]
    batch = tmp_path / "mixed.jsonl"
    batch.write_text("\n".join(lines) + "\n")
    proc = ecarte("solve", "--batch", str(batch))
    assert proc.returncode == 1
    results = [json.loads(line) for line in proc.stdout.splitlines()]
    assert [r["line"] for r in results] == [1, 6]
    assert results[0]["value"] == duel.solve(good).value
    errors = proc.stderr.splitlines()
    expected = {
        2: "invalid deal record: action 2: illegal action 7C",
        3: "not JSON (",
        4: "a duel match record, not a deal record",
        5: "the position is in the proposal phase; solve needs the play phase",
        7: "invalid deal record: dealer: expected a whole number from 0 to 255, got 1e30",
        8: "not a deal record (a JSON object), but list JSON",
    }
    for (line, text), error in zip(expected.items(), errors, strict=False):
        assert error.startswith(f"error: {batch}:{line}: {text}"), error
    assert errors[-1] == "2 positions solved; 6 bad lines left out"
    assert not INTERNALS.search(proc.stderr), proc.stderr
    strict = ecarte("solve", "--batch", str(batch), "--strict")
    assert strict.returncode == 2 and strict.stdout == ""
    assert strict.stderr == f"error: {batch}:2: {errors[0].split(': ', 2)[2]}\n"


def test_solve_and_a_batch_treat_a_finished_deal_alike(tmp_path: Path) -> None:
    deal = finished_deal(5)
    single = tmp_path / "over.json"
    single.write_text(deal.to_json())
    batch = tmp_path / "over.jsonl"
    batch.write_text(deal.to_json() + "\n")
    one, many = ecarte("solve", str(single)), ecarte("solve", "--batch", str(batch))
    assert one.returncode == many.returncode == 0
    note = "The deal is over: solved from its first lead"
    assert one.stdout.startswith(note + ".")
    (result,) = [json.loads(line) for line in many.stdout.splitlines()]
    assert result["note"] == note
    assert f"Value for seat {1 - deal.dealer}: {result['value']:+d} deal points" in one.stdout


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"", "holds no positions (no JSON lines)"),
        (b"\n  \n", "holds no positions (no JSON lines)"),
        (b"\xe9\xe9\n", "is not a text file (not UTF-8)"),
    ],
)
def test_a_batch_without_positions_says_why(tmp_path: Path, content: bytes, message: str) -> None:
    batch = tmp_path / "batch.jsonl"
    batch.write_bytes(content)
    proc = ecarte("solve", "--batch", str(batch))
    assert proc.returncode == 2
    assert proc.stderr.startswith(f"error: {batch} {message}"), proc.stderr
    assert len(proc.stderr.splitlines()) == 1 and "codec" not in proc.stderr


def test_record_errors_count_from_one_and_say_it_once(tmp_path: Path) -> None:
    match = duel.Match(seed=2, target=2)
    match.play(HeuristicAgent(), RandomAgent(1))
    record = json.loads(match.to_json())
    record["deals"][1]["actions"][0] = "accept"  # the elder cannot accept
    bad = tmp_path / "match.json"
    bad.write_text(json.dumps(record))
    proc = ecarte("replay", str(bad))
    assert proc.returncode == 2
    assert proc.stderr.startswith(f"error: {bad}: invalid match record: deal 2, action 1: ")
    assert proc.stderr.count("invalid") == 1 and "not a valid" not in proc.stderr
    record = json.loads(match.to_json())
    record["seed"] = 10**30
    bad.write_text(json.dumps(record))
    proc = ecarte("replay", str(bad))
    assert proc.stderr.startswith(
        f"error: {bad}: invalid match record: seed: expected a whole number from 0 to "
        "2**64 - 1, got 1e30, a number too large"
    )
    assert not INTERNALS.search(proc.stderr)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["bank", "--simulate", "0"], "--simulate must be a whole number from 1 to 1,000,000,000"),
        (["match", "--seed", str(10**30)], "--seed must be a whole number from 0 to 2**64 - 1"),
        (["simulate", "--deals", "x"], "--deals must be a whole number from 1 to"),
        (["match", "--out", ""], "--out: the path is empty"),
        (["arena", "pimc:0", "random"], "AGENT_A: pimc:0 is out of range: pimc:N takes 1 to"),
        (["arena", "oracle", "random"], 'AGENT_A: unknown agent "oracle"'),
        (["arena", "pimc:8", "random", "--samples", "5"], "--samples 5 and pimc:8 both give"),
        (["arena", "heuristic", "random", "--samples", "5"], "--samples 5: neither heuristic"),
        (["arena", "pimc", "random", "--samples", "10001"], "--samples must be a whole number"),
        (["odds", "--trump", "XX"], "--trump XX: give the turned-up card (e.g. 7H) or the trump"),
        (["odds", "--trump", "7H", "--seen", "ZZ"], '--seen: invalid card "ZZ"'),
        (["bank", "--bank", "2000", "--chips", "100"], "--bank 2000 is more than --chips 100"),
    ],
)
def test_errors_name_the_option_in_plain_words(args: list[str], message: str) -> None:
    proc = ecarte(*args)
    assert proc.returncode == 2
    assert proc.stderr.startswith(f"error: {message}"), proc.stderr
    assert len(proc.stderr.splitlines()) == 1
    assert not INTERNALS.search(proc.stderr), proc.stderr


def test_the_arena_names_each_agents_worlds() -> None:
    proc = ecarte("arena", "pimc", "expert", "--samples", "3", "--matches", "1", "--target", "1")
    assert proc.returncode == 0, proc.stderr
    assert "pimc:3 v expert:3" in proc.stdout and "(1 seed, seats swapped)" in proc.stdout
    default = ecarte("arena", "pimc:2", "heuristic", "--matches", "1", "--target", "1")
    assert "pimc:2 v heuristic" in default.stdout


def test_ray_auto_without_a_cluster_gives_ecartes_hint() -> None:
    pytest.importorskip("ray")
    # Ray's own answer when no cluster runs here (another may run on a shared machine).
    no_cluster = (
        "import ray\n"
        "def init(*args, **kwargs):\n"
        "    raise ConnectionError('Could not find any running Ray instance. Please specify "
        "the one to connect to by setting `--address` flag or `RAY_ADDRESS` environment "
        "variable.')\n"
        "ray.init, ray.is_initialized = init, lambda: False\n"
        "from ecarte.cli import run; run()\n"
    )
    proc = subprocess.run(
        [sys.executable, "-c", no_cluster, "simulate", "--deals", "10", "--ray", "auto"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 2
    assert proc.stderr.startswith("error: cannot connect to Ray at auto: no Ray cluster")
    assert "ray start --head" in proc.stderr and "--address" not in proc.stderr


def commands() -> list[tuple[str, click.Command]]:
    found = []

    def walk(command: click.Command, path: str) -> None:
        found.append((path, command))
        if isinstance(command, click.Group):
            for name, sub in command.commands.items():
                walk(sub, f"{path} {name}")

    walk(main, "ecarte")
    return found


@pytest.mark.parametrize(("path", "command"), commands(), ids=[p for p, _ in commands()])
def test_every_option_has_help_and_its_real_range(path: str, command: click.Command) -> None:
    ctx = click.Context(command, info_name=path)
    text = command.get_help(ctx)
    assert not re.search(r"``|:(func|class|mod|meth):|^\s*\.\. ", text, re.MULTILINE), text
    for param in command.params:
        if isinstance(param, click.Option):
            assert param.help, f"{path} {param.opts[0]} has no help"
            if isinstance(param.type, click.IntRange):
                assert param.type.max is not None or param.opts[0] in UNBOUNDED, param.opts


#: Options whose values the engine takes without an upper bound (chips are whole numbers).
UNBOUNDED = {"--bank", "--stake", "--chips", "--deal"}


def test_solve_help_reads_as_plain_text() -> None:
    proc = ecarte("solve", "--help")
    assert "deal.to_json()" in proc.stdout and "``" not in proc.stdout
