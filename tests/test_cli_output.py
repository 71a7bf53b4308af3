"""What the `ecarte` command prints, as a person reads it: the bare command, pipes that
close early, progress bars, and the text of match, replay, bank and bench."""

from __future__ import annotations

import functools
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from cli_support import ECARTE, run_ecarte
from ecarte.duel import Deal, Match

ecarte = functools.partial(run_ecarte, timeout=300, input="")


def test_the_bare_command_shows_the_formatted_help() -> None:
    bare, helped = ecarte(), ecarte("--help")
    assert bare.returncode == 0 and bare.stderr == ""
    assert bare.stdout == helped.stdout
    lines = bare.stdout.splitlines()
    assert lines[0].startswith("Usage: ecarte") and "Commands:" in lines
    assert any(line.strip().startswith("arena") for line in lines)


@pytest.fixture(scope="module")
def match_record(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("records") / "match.json"
    args = ["--seed", "2", "--agents", "heuristic", "random", "--quiet", "--out", str(out)]
    assert ecarte("match", *args).returncode == 0
    return out


@pytest.mark.parametrize(
    "args",
    [
        ["match", "--seed", "1", "--agents", "heuristic", "random"],
        ["replay", "MATCH"],
        ["bank", "--deals", "200"],
        ["simulate", "--deals", "1000"],
    ],
    ids=lambda a: a[0],
)
def test_a_reader_that_stops_early_ends_the_command_quietly(
    args: list[str], match_record: Path
) -> None:
    argv = [*ECARTE, *(str(match_record) if a == "MATCH" else a for a in args)]
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.close()  # the reader goes away before the first line: the next write fails
    err = proc.stderr.read()
    assert proc.wait(timeout=120) == 0
    assert err == ""


def test_head_takes_the_first_line_of_a_match() -> None:
    shell = "set -o pipefail; {} match --seed 1 | head -1".format(
        " ".join(f"'{a}'" for a in ECARTE)
    )
    proc = subprocess.run(
        ["bash", "-c", shell], capture_output=True, text=True, timeout=300, check=False
    )
    assert proc.returncode == 0 and proc.stderr == ""
    assert proc.stdout.startswith("Match to 7, seed 1")


def test_progress_bars_stay_off_a_redirected_stderr(tmp_path: Path) -> None:
    batch = tmp_path / "batch.jsonl"
    deal = Deal(seed=1)
    deal.apply("decline")
    batch.write_text(deal.to_json() + "\n")
    for args in (
        ["arena", "heuristic", "random", "--matches", "50"],
        ["simulate", "--deals", "100000"],
        ["bank", "--simulate", "100000"],
        ["bench", "solver", "--positions", "24"],
        ["solve", "--batch", str(batch)],
    ):
        proc = ecarte(*args)
        assert proc.returncode == 0, (args, proc.stderr)
        assert proc.stderr == "", args


def test_the_arena_bar_moves_within_a_second_on_a_terminal() -> None:
    import time

    import pexpect

    child = pexpect.spawn(
        sys.executable,
        [*ECARTE[1:], "arena", "pimc", "heuristic", "--matches", "200"],
        dimensions=(24, 160),
        encoding="utf-8",
        timeout=60,
    )
    child.expect("Seeds")
    seen: list[tuple[float, int]] = []
    started = time.perf_counter()
    while time.perf_counter() - started < 4.0:
        try:
            child.expect(r"([\d,]+) deals", timeout=4.0)
        except pexpect.TIMEOUT:
            break
        seen.append((time.perf_counter() - started, int(child.match.group(1).replace(",", ""))))
    child.sendintr()
    child.expect(pexpect.EOF)
    child.close()
    counts = sorted({count for _, count in seen})
    assert len(counts) >= 3, seen  # the bar counts the deals of the matches under way
    first_move = min(t for t, count in seen if count > 0)
    assert first_move < 1.5, seen
    assert child.exitstatus == 130
    assert re.search(r"interrupted", child.before or "")


def test_match_shows_the_talon_draws_the_winner_first_and_plurals(tmp_path: Path) -> None:
    proc = ecarte("match", "--seed", "3", "--agents", "heuristic", "random", "--target", "1")
    assert proc.returncode == 0
    lines = proc.stdout.splitlines()
    tricks = [i for i, line in enumerate(lines) if line.strip().startswith("trick")]
    draws = [line for line in lines if line.strip().startswith("draws:")]
    # Both draws after every trick while the talon lasts: 11 pairs with no exchange.
    assert len(draws) == 11 and all(lines[i + 1].strip().startswith("draws:") for i in tricks[:11])
    assert all(", " in line and line.count("-") >= 1 for line in draws)
    assert lines[-1] == "Heuristic-0 wins the match 1-0 in 1 deal."
    assert "wins the deal, 1 point: " in proc.stdout and "1 points" not in proc.stdout
    quiet = ecarte("match", "--seed", "3", "--agents", "random", "heuristic", "--quiet")
    assert not quiet.stdout.startswith("\n") and len(quiet.stdout.splitlines()) == 1
    winner_score, loser_score = re.search(r"wins the match (\d+)-(\d+)", quiet.stdout).groups()
    assert int(winner_score) >= 7 > int(loser_score)
    assert re.search(r"Random-0 wins|Heuristic-1 wins", quiet.stdout)


def test_cards_are_shown_one_way_with_an_ascii_option(tmp_path: Path) -> None:
    symbols = re.compile("[♣♦♥♠]")
    for args in (
        ["match", "--seed", "3", "--agents", "heuristic", "random", "--target", "1"],
        ["solve", "--seed", "2"],
        ["odds", "--trump", "7H", "--seen", "5H"],
    ):
        shown, plain = ecarte(*args), ecarte(*args, "--ascii")
        assert shown.returncode == plain.returncode == 0
        assert symbols.search(shown.stdout) and not symbols.search(plain.stdout), args
    solved = ecarte("solve", "--seed", "2").stdout
    table = solved[solved.index("Every legal action") :]
    assert symbols.search(table), "the action table shows cards as the hands do"
    cards = ecarte("solve", "--seed", "2", "--objective", "cards").stdout
    assert re.search(r"Value for seat \d: \d+ cards", cards) and "+2" not in cards


def test_replay_uses_the_records_names_and_steps_a_trick_at_a_time(match_record: Path) -> None:
    proc = ecarte("replay", str(match_record))
    assert proc.returncode == 0
    text = proc.stdout
    assert text.startswith("Match to 7, seed 2: Heuristic-0 v Random-1")
    assert "Seat 0" not in text and "\n\nDeal 2\n" in text
    steps = ecarte("replay", str(match_record), "--step", input="\n" * 1000)
    prompts = steps.stdout.count("(Enter: next, q: quit)")
    tricks = text.count("  trick ")
    calls = len(re.findall(r"(proposes|declines: play)$", text, re.MULTILINE))
    deals = text.count("\nDeal ")
    # One prompt after each step but the last: the heading, each deal's opening, each
    # exchange call (proposal or decline) and each trick.
    assert prompts == 1 + deals + calls + tricks - 1, (prompts, deals, calls, tricks)
    assert steps.stdout.replace("(Enter: next, q: quit) ", "") == text


def test_replay_says_when_a_deal_is_unfinished(tmp_path: Path) -> None:
    match = Match(seed=4)
    match.apply("propose")
    record = tmp_path / "unfinished.json"
    record.write_text(match.to_json())
    proc = ecarte("replay", str(record))
    assert proc.returncode == 0
    assert "(unfinished: the record ends here)" in proc.stdout
    assert proc.stdout.strip().endswith("The match is unfinished: Seat 0 0, Seat 1 0.")


def test_bank_ledger_shows_outcomes_and_events_and_spells_en_carte_one_way() -> None:
    args = ["bank", "--deals", "40", "--players", "3", "--bank", "20", "--stake", "5"]
    proc = ecarte(*args, "--chips", "100")
    assert proc.returncode == 0
    header = next(line for line in proc.stdout.splitlines() if "banker" in line)
    assert all(column in header for column in ("T2", "T3", "T4", "bank", "P3"))
    events = [line for line in proc.stdout.splitlines() if line.startswith("* deal ")]
    assert events and all(
        re.search(rf"│ +{line.split()[2][:-1]}\* │", proc.stdout) for line in events
    )
    assert "en carte" in proc.stdout and "en_carte" not in proc.stdout
    assert "bank broken" in proc.stdout and "restakes" in proc.stdout
    simulated = ecarte("bank", "--simulate", "10000").stdout
    assert "en carte" in simulated and "en_carte" not in simulated
    odds = ecarte("odds", "--trump", "7H").stdout
    assert "en carte" in odds and "en_carte" not in odds


def test_the_bankroll_chart_draws_the_bank_too(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    chart = tmp_path / "chips.svg"
    proc = ecarte("bank", "--deals", "20", "--plot", str(chart))
    assert proc.returncode == 0, proc.stderr
    svg = chart.read_text()
    assert all(name in svg for name in ("P1", "P4", "bank"))


def test_bench_names_no_project_internals_and_explains_its_budgets() -> None:
    proc = ecarte("bench")
    assert proc.returncode == 0
    assert not re.search(r"issue \d", proc.stdout, re.IGNORECASE)
    assert "of the budget" in proc.stdout and "should fit in 1 GiB" in proc.stdout


def test_replay_shows_a_bank_session_step_by_step(tmp_path: Path) -> None:
    from ecarte import bank

    table = bank.Table(["ann", "bob", "cy"], bank=50, fixed_stake=10, chips=100, seed=7)
    table.deal()
    table.stake("bob", 2, 10)
    table.stake("cy", 3, 10)
    table.stake("cy", 4, 25)
    table.reveal()
    table.settle()
    table.shuffle_rest("bob")
    record = tmp_path / "session.json"
    record.write_text(table.to_json())
    proc = ecarte("replay", "--ascii", str(record))
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert lines[0] == "Banking session, seed 7, banking mode, fixed stake 10: ann, bob, cy"
    assert "Deal 1: ann banks 50, trump card 5D" in lines
    assert "  cy stakes 25 on T4" in lines and "  bob shuffles the rest of the shoe" in lines
    assert "  T4 2C JH 9C 9C: banker 2-0" in lines
    assert "  settled: ann 50, bob 90, cy 65; bank 95" in lines
    assert lines[-1] == "After 1 deal: ann 50, bob 90, cy 65; bank 95."
    # One step per action: the opening, then deal, three stakes, reveal, settle, shuffle; a
    # prompt between two steps.
    steps = ecarte("replay", "--step", str(record), input="\n" * 20)
    assert steps.stdout.count("(Enter: next, q: quit)") == 7
    tampered = json.loads(table.to_json())
    tampered["deals"][0]["settlements"][0]["paid"] = 999
    record.write_text(json.dumps(tampered))
    proc = ecarte("replay", str(record))
    assert proc.returncode == 2 and proc.stderr.startswith(f"error: {record}: ")
    assert "differ" in proc.stderr


def ledger_cells(text: str) -> dict[tuple[str, str], str]:
    """The cells of the ledger tables in ``text``, by deal and column header."""
    cells: dict[tuple[str, str], str] = {}
    headers: list[str] = []
    for line in text.splitlines():
        if line.startswith("┃"):
            headers = [c.strip() for c in line.strip("┃").split("┃")]
        elif line.startswith("│"):
            row = dict(zip(headers, (c.strip() for c in line.strip("│").split("│")), strict=True))
            for header, value in row.items():
                cells[row["deal"].rstrip("*"), header] = value
    return cells


def bank_output(args: list[str], terminal: bool) -> str:
    """What ``ecarte bank`` prints in an 80-column terminal, or into a pipe."""
    import os

    import pexpect

    env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES")}
    if not terminal:
        proc = subprocess.run(
            [*ECARTE, "bank", *args], capture_output=True, text=True, env=env, check=True
        )
        return proc.stdout
    child = pexpect.spawn(
        sys.executable,
        [*ECARTE[1:], "bank", *args],
        dimensions=(24, 80),
        env={**env, "TERM": "xterm"},
        encoding="utf-8",
        timeout=120,
    )
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    return re.sub(r"\x1b\[[0-9;]*m", "", child.before.replace("\r\n", "\n"))


@pytest.mark.parametrize("players", [2, 4, 8, 20])
@pytest.mark.parametrize("terminal", [True, False], ids=["pty", "pipe"])
def test_the_bank_ledger_shows_every_figure_whole_in_80_columns(
    players: int, terminal: bool
) -> None:
    from ecarte import bank
    from ecarte.bank.session import play_session
    from rich.cells import cell_len

    out = bank_output(["--deals", "5", "--players", str(players)], terminal)
    assert "…" not in out and "..." not in out
    assert max(cell_len(line) for line in out.splitlines()) <= 80
    names = [f"P{i + 1}" for i in range(players)]
    history = play_session(bank.Table(names, seed=1), 5, 1)
    cells = ledger_cells(out)
    for entry in history:
        deal = str(entry.deal)
        assert cells[deal, "banker"] == entry.banker and cells[deal, "bank"] == str(entry.bank)
        assert all(cells[deal, p] == str(entry.chips[p]) for p in names)
    if players > 2:  # the outcomes in letters, and what they mean
        assert "B the banker wins, E en carte, P the punter wins" in out
