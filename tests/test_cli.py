"""The `ecarte` command, run as a subprocess."""

from __future__ import annotations

import functools
from pathlib import Path

from cli_support import run_ecarte
from ecarte.duel import Match

ecarte = functools.partial(run_ecarte, timeout=120)


def test_match_prints_the_match(tmp_path: Path) -> None:
    out = tmp_path / "match.json"
    proc = ecarte("match", "--seed", "1", "--out", str(out))
    assert proc.returncode == 0, proc.stderr
    text = proc.stdout
    assert "Deal 1" in text and "Trump" in text
    assert any(symbol in text for symbol in "♣♦♥♠")
    assert "trick  1:" in text and "Score:" in text
    assert "wins the match" in text
    match = Match.from_json(out.read_text())
    assert match.is_over()
    final = text.strip().splitlines()[-2]
    assert f"{max(match.score)}-" in final or f"-{max(match.score)}" in final


def test_match_is_reproducible() -> None:
    a = ecarte("match", "--seed", "4", "--quiet", "--agents", "heuristic", "random")
    b = ecarte("match", "--seed", "4", "--quiet", "--agents", "heuristic", "random")
    assert a.returncode == 0 and a.stdout == b.stdout


def test_bad_arguments_exit_2() -> None:
    for args in (
        ["match", "--target", "0"],
        ["match", "--agents", "oracle", "random"],
        ["match", "--seed", "x"],
        ["nonsense"],
    ):
        proc = ecarte(*args)
        assert proc.returncode == 2, args
        assert "Error" in proc.stderr or "error" in proc.stderr


def test_help_lists_commands() -> None:
    proc = ecarte("--help")
    assert proc.returncode == 0 and "match" in proc.stdout


def test_replay_match_and_deal(tmp_path: Path) -> None:
    out = tmp_path / "match.json"
    assert (
        ecarte(
            "match",
            "--seed",
            "2",
            "--target",
            "2",
            "--quiet",
            "--agents",
            "heuristic",
            "random",
            "--out",
            str(out),
        ).returncode
        == 0
    )
    proc = ecarte("replay", str(out))
    assert proc.returncode == 0, proc.stderr
    assert "Deal 1" in proc.stdout and "wins the match" in proc.stdout
    deal_file = tmp_path / "deal.json"
    deal_file.write_text(Match.from_json(out.read_text()).deals[0].to_json())
    proc = ecarte("replay", str(deal_file))
    assert proc.returncode == 0 and "trick  1:" in proc.stdout
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "chess"}')
    proc = ecarte("replay", str(bad))
    assert proc.returncode == 2 and "unknown record format" in proc.stderr
    assert ecarte("replay", str(tmp_path / "missing.json")).returncode == 2


def test_simulate_command() -> None:
    proc = ecarte(
        "simulate", "--deals", "3000", "--agents", "heuristic", "random", "--threads", "1"
    )
    assert proc.returncode == 0, proc.stderr
    assert "3000 deals" in proc.stdout and "win rate" in proc.stdout
    again = ecarte("simulate", "--deals", "3000", "--agents", "heuristic", "random")
    assert again.stdout == proc.stdout
    proc = ecarte("simulate", "--deals", "20", "--matches")
    assert proc.returncode == 0 and "20 matches" in proc.stdout
    assert ecarte("simulate", "--deals", "0").returncode == 2


def test_odds_command() -> None:
    proc = ecarte("odds", "--trump", "H", "--seen", "5H,KS")
    assert proc.returncode == 0, proc.stderr
    assert "102 cards left" in proc.stdout and "en carte" in proc.stdout and "0-0" in proc.stdout
    assert "no turn-up removed" in proc.stdout
    proc = ecarte("odds", "--trump", "7H", "--seen", "5H,KS")
    assert proc.returncode == 0, proc.stderr
    assert (
        "less the turn-up 7♥, less 2 seen cards" in proc.stdout and "101 cards left" in proc.stdout
    )
    proc = ecarte("odds", "--trump", "H", "--seen", "5H,XX")
    assert proc.returncode == 2 and "XX" in proc.stderr
    assert ecarte("odds").returncode == 2


def test_bank_command(tmp_path: Path) -> None:
    chart = tmp_path / "bank.png"
    record = tmp_path / "session.json"
    proc = ecarte(
        "bank", "--players", "3", "--deals", "6", "--plot", str(chart), "--out", str(record)
    )
    assert proc.returncode == 0, proc.stderr
    assert "Banking session" in proc.stdout and "Chips + bank: 3000 (start 3000)" in proc.stdout
    assert chart.read_bytes()[:4] == b"\x89PNG"
    from ecarte import bank

    table = bank.Table.from_json(record.read_text())
    assert table.deals_played == 6
    assert ecarte("bank", "--players", "1").returncode == 2


def test_bank_command_open_mode_with_few_chips() -> None:
    # Issue 10: the session staked the fixed 10 from 5 free chips and crashed.
    proc = ecarte("bank", "--mode", "open", "--chips", "5", "--stake", "10", "--players", "3")
    assert proc.returncode == 0, proc.stderr
    assert "Chips + bank: 15 (start 15)" in proc.stdout


def test_solve_command(tmp_path: Path) -> None:
    proc = ecarte("solve", "--seed", "3")
    assert proc.returncode == 0, proc.stderr
    assert "Value for seat 1:" in proc.stdout and "Every legal action" in proc.stdout
    from ecarte.duel import Deal, solve

    deal = Deal(seed=3)
    deal.apply("decline")
    assert f"{solve(deal).value:+d} deal points" in proc.stdout
    for _ in range(5):
        deal.apply(deal.legal_actions()[0])
    record = tmp_path / "deal.json"
    record.write_text(deal.to_json())
    proc = ecarte("solve", str(record), "--objective", "cards")
    assert proc.returncode == 0 and "led:" in proc.stdout and "cards" in proc.stdout
    assert ecarte("solve").returncode == 2
    fresh = tmp_path / "fresh.json"
    fresh.write_text(Deal(seed=1).to_json())
    proc = ecarte("solve", str(fresh))
    assert proc.returncode == 2 and "play phase" in proc.stderr


def test_arena_command() -> None:
    proc = ecarte("arena", "heuristic", "random", "--matches", "10", "--seed", "2")
    assert proc.returncode == 0, proc.stderr
    assert "match win rate of heuristic" in proc.stdout and "[" in proc.stdout
    assert ecarte("arena", "heuristic", "oracle").returncode == 2
    assert ecarte("arena", "heuristic", "random", "--matches", "0").returncode == 2


def test_bench_command() -> None:
    proc = ecarte("bench")
    assert proc.returncode == 0, proc.stderr
    assert "quick run" in proc.stdout and "speed-up" in proc.stdout
    assert "random deal, native batch simulate" in proc.stdout


def test_replay_step_by_step(tmp_path: Path) -> None:
    deal = Match(seed=3).deals[0]
    while not deal.is_over():
        deal.apply(deal.legal_actions()[0])
    record = tmp_path / "deal.json"
    record.write_text(deal.to_json())
    proc = run_ecarte("replay", str(record), "--step", input="\n\nq\n", timeout=60)
    assert proc.returncode == 0, proc.stderr
    from ecarte.display import deal_steps

    steps = deal_steps(deal, ["Seat 0", "Seat 1"])
    # Enter, Enter, q: three steps shown (the deal, an exchange or a trick each), then the
    # replay stops.
    shown = proc.stdout.replace("(Enter: next, q: quit) ", "")
    assert shown == "".join(line + "\n" for step in steps[:3] for line in step)
    assert proc.stdout.count("(Enter: next, q: quit)") == 3
