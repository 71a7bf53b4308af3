"""The analysis of deals played: ``ecarte analyse`` run as a subprocess, and
``duel.analyse`` against the solver and a brute-force minimax."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from ecarte import EcarteError, InvalidRecordError
from ecarte.bank import Table
from ecarte.duel import Action, Deal, Match, action_values, analyse, master_values
from ecarte.seeding import decision_seed
from test_cli import ecarte
from test_interrupt import BOUND, CLI, interrupt

#: Few worlds: the tests check what each value is, not how close it is to the truth.
WORLDS = "3"


def random_match(seed: int, target: int = 7) -> Match:
    """A match played to its end by uniformly random choices."""
    rng = random.Random(seed)
    game = Match(target=target, seed=seed)
    while not game.is_over():
        game.apply(rng.choice(game.legal_actions()))
    return game


def random_deal(seed: int, actions: int | None = None) -> Deal:
    """A deal played by uniformly random choices, to its end or for ``actions`` actions."""
    rng = random.Random(seed)
    deal = Deal(seed=seed, dealer=seed % 2)
    while deal.outcome() is None and (actions is None or len(deal.history) < actions):
        deal.apply(rng.choice(deal.legal_actions()))
    return deal


def analysed(path: Path, *args: str) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    proc = ecarte("analyse", str(path), "--json", "--worlds", WORLDS, *args)
    assert proc.returncode == 0, proc.stderr
    lines = [json.loads(line) for line in proc.stdout.splitlines()]
    return lines[:-1], lines[-1]


def positions(game: Match) -> dict[tuple[int, int], Deal]:
    """The position before each decision of a match, by (deal from 1, ply)."""
    found = {}
    for number, deal in enumerate(game.deals, 1):
        replay = Deal.from_deck(deal.deck, deal.dealer, deal.rules)
        for ply, action in enumerate(deal.history):
            found[number, ply] = replay.copy()
            replay.apply(action)
    return found


def points_for(deal: Deal, seat: int) -> int:
    """The deal's exact points for ``seat``, both sides seeing everything: every line
    searched to the end."""
    outcome = deal.outcome()
    if outcome is not None:
        return outcome.points if outcome.winner == seat else -outcome.points
    values = []
    for action in deal.legal_actions():
        child = deal.copy()
        child.apply(action)
        values.append(points_for(child, seat))
    return max(values) if deal.current_player == seat else min(values)


def action_minimax(deal: Deal, action: Action) -> int:
    mover = deal.current_player
    assert mover is not None
    child = deal.copy()
    child.apply(action)
    return points_for(child, mover)


@pytest.fixture(scope="module")
def matches(tmp_path_factory: pytest.TempPathFactory) -> list[tuple[Match, Path]]:
    found = []
    for seed in (11, 12):
        game = random_match(seed)
        path = tmp_path_factory.mktemp("records") / f"match{seed}.json"
        path.write_text(game.to_json())
        found.append((game, path))
    return found


def test_every_play_loss_is_the_solvers_over_many_random_deals(
    matches: list[tuple[Match, Path]],
) -> None:
    checked = 0
    for game, path in matches:
        decisions, summary = analysed(path)
        at = positions(game)
        assert len(decisions) == len(at)
        assert summary["deals"] == len(game.deals)
        for d in decisions:
            deal = at[d["deal"], d["ply"]]
            assert d["seat"] == deal.current_player
            assert d["legal"] == [str(a) for a in deal.legal_actions()]
            assert d["action"] == str(game.deals[d["deal"] - 1].history[d["ply"]])
            if d["phase"] != "play":
                assert d["values"] is None and d["loss"] is None
                continue
            exact = dict(action_values(deal))
            values = [exact[Action(a)] for a in d["legal"]]
            assert d["values"] == values
            assert d["loss"] == max(values) - exact[Action(d["action"])]
            checked += 1
    assert checked > 150, checked


def test_late_positions_agree_with_a_brute_force_minimax(
    matches: list[tuple[Match, Path]],
) -> None:
    game, path = matches[0]
    decisions, _ = analysed(path)
    at = positions(game)
    checked = 0
    for d in decisions:
        deal = at[d["deal"], d["ply"]]
        if d["phase"] != "play" or len(deal.hand(d["seat"])) > 3:
            continue
        brute = [action_minimax(deal, Action(a)) for a in d["legal"]]
        assert d["values"] == brute, (d["deal"], d["ply"])
        checked += 1
    assert checked > 30, checked


def test_values_under_the_mover_information_are_the_master_values(
    matches: list[tuple[Match, Path]],
) -> None:
    game, path = matches[1]
    decisions, summary = analysed(path, "--seed", "9")
    at = positions(game)
    exchange = [d for d in decisions if d["phase"] != "play"]
    assert {d["phase"] for d in exchange} >= {"proposal", "response"}
    for d in decisions[:: max(1, len(decisions) // 40)] + exchange:
        deal = at[d["deal"], d["ply"]]
        before = game.deals[: d["deal"] - 1]
        score = [0, 0]
        for earlier in before:
            outcome = earlier.outcome()
            assert outcome is not None
            score[outcome.winner] += outcome.points
        obs = deal.observation(d["seat"], (score[0], score[1]))
        master = master_values(obs, int(WORLDS), decision_seed(9, obs))
        assert d["values_info"] == [v for _, v in master]
        best = max(d["values_info"])
        taken = d["values_info"][d["legal"].index(d["action"])]
        assert d["loss_info"] == pytest.approx(best - taken, abs=0)
        assert d["best"] == d["legal"][d["values_info"].index(best)]
        assert len(d["values_info_se"]) == len(d["legal"])
        assert all(se >= 0 for se in d["values_info_se"])
        assert d["forced"] == (len(d["legal"]) == 1)
    assert [s["seat"] for s in summary["summary"]] == [0, 1]


def test_exchange_decisions_carry_loss_info(matches: list[tuple[Match, Path]]) -> None:
    decisions, _ = analysed(matches[0][1])
    exchange = [d for d in decisions if d["phase"] in ("proposal", "response", "discard")]
    assert exchange
    for d in exchange:
        assert isinstance(d["loss_info"], float) and d["loss_info"] >= 0
        assert len(d["values_info"]) == len(d["legal"])
    assert sorted(decisions[0]) == sorted(
        [
            "deal",
            "ply",
            "seat",
            "phase",
            "action",
            "legal",
            "values",
            "values_info",
            "values_info_se",
            "best",
            "loss",
            "loss_info",
            "forced",
        ]
    )


def test_the_summary_counts_each_seats_decisions(matches: list[tuple[Match, Path]]) -> None:
    decisions, summary = analysed(matches[0][1], "--threshold", "0.25")
    assert summary["threshold"] == 0.25
    for seat in (0, 1):
        mine = [d for d in decisions if d["seat"] == seat]
        choices = [d for d in mine if not d["forced"]]
        s = summary["summary"][seat]
        assert s["decisions"] == len(choices)
        assert s["forced"] == len(mine) - len(choices)
        assert s["mistakes"] == sum(d["loss_info"] >= 0.25 for d in choices)
        assert s["points_lost"] == pytest.approx(sum(d["loss_info"] for d in choices))
        perfect = sum(d["loss_info"] == 0 for d in choices)
        assert s["accuracy"] == pytest.approx(perfect / len(choices))
    # Random play makes mistakes: the test can fail.
    assert sum(s["mistakes"] for s in summary["summary"]) > 0


def test_the_same_seed_gives_the_same_analysis(tmp_path: Path) -> None:
    path = tmp_path / "deal.json"
    path.write_text(random_deal(5).to_json())
    first = ecarte("analyse", str(path), "--json", "--worlds", WORLDS, "--seed", "3")
    again = ecarte(
        "analyse", str(path), "--json", "--worlds", WORLDS, "--seed", "3", "--threads", "1"
    )
    other = ecarte("analyse", str(path), "--json", "--worlds", WORLDS, "--seed", "4")
    assert first.returncode == again.returncode == other.returncode == 0, first.stderr
    assert first.stdout == again.stdout
    assert first.stdout != other.stdout


def test_the_table_marks_mistakes_and_names_the_best(matches: list[tuple[Match, Path]]) -> None:
    proc = ecarte("analyse", str(matches[0][1]), "--worlds", WORLDS)
    assert proc.returncode == 0, proc.stderr
    text = proc.stdout
    assert "Deal 1, dealt by Seat 0" in text and "Summary" in text
    assert any(line.rstrip().endswith(" ?") for line in text.splitlines())
    assert "accuracy" in text and "best instead" in text


def test_an_unfinished_deal_is_analysed_up_to_its_last_action(tmp_path: Path) -> None:
    deal = random_deal(8, actions=9)
    assert deal.outcome() is None
    path = tmp_path / "unfinished.json"
    path.write_text(deal.to_json())
    decisions, summary = analysed(path)
    assert [d["ply"] for d in decisions] == list(range(9))
    assert summary["deals"] == 1
    proc = ecarte("analyse", str(path), "--worlds", WORLDS)
    assert proc.returncode == 0 and "unfinished" in proc.stdout


@pytest.mark.parametrize(
    "content",
    [
        "not json at all",
        '{"format": "ecarte.duel.deal", "version": 1}',
        "BANK",
        "\xff\xfe",
    ],
)
def test_bad_input_gets_one_line_and_status_2(tmp_path: Path, content: str) -> None:
    path = tmp_path / "bad.json"
    if content == "BANK":
        content = Table(["A", "B"], seed=1).to_json()
    path.write_bytes(content.encode("utf-8", "surrogateescape"))
    proc = ecarte("analyse", str(path))
    assert proc.returncode == 2, proc.stderr
    assert proc.stdout == "" and len(proc.stderr.strip().splitlines()) == 1
    assert proc.stderr.startswith("error: ")


@pytest.mark.parametrize(
    "option",
    [["--worlds", "0"], ["--threshold", "-1"], ["--threshold", "nan"], ["--seed", "-1"]],
)
def test_bad_options_get_one_line_and_status_2(tmp_path: Path, option: list[str]) -> None:
    path = tmp_path / "deal.json"
    path.write_text(random_deal(1).to_json())
    proc = ecarte("analyse", str(path), *option)
    assert proc.returncode == 2 and len(proc.stderr.strip().splitlines()) == 1, proc.stderr


def test_plot_draws_a_chart(tmp_path: Path, matches: list[tuple[Match, Path]]) -> None:
    chart = tmp_path / "values.png"
    proc = ecarte("analyse", str(matches[0][1]), "--worlds", "2", "--plot", str(chart))
    assert proc.returncode == 0, proc.stderr
    assert chart.read_bytes().startswith(b"\x89PNG")
    bad = ecarte("analyse", str(matches[0][1]), "--plot", str(tmp_path / "values.txt"))
    assert bad.returncode == 2 and "--plot" in bad.stderr


def test_the_python_api_takes_deals_matches_and_records() -> None:
    game = random_match(3, target=2)
    by_match = analyse(game, worlds=2, seed=1)
    by_text = analyse(game.to_json(), worlds=2, seed=1)
    assert by_match == by_text and by_match.seed == 1
    deal = game.deals[0]
    alone = analyse(deal, worlds=2, seed=1)
    assert len(alone.decisions) == len(deal.history)
    d = alone.decisions[0]
    assert repr(d).startswith("Decision(deal=1, ply=0, seat=")
    assert isinstance(d.action, Action) and d.action in d.legal
    assert analyse(deal, worlds=2).seed != analyse(deal, worlds=2).seed  # fresh seeds
    with pytest.raises(TypeError):
        analyse(3, worlds=2)  # type: ignore[arg-type]
    with pytest.raises(EcarteError):
        analyse(deal, worlds=0)
    with pytest.raises(EcarteError):
        analyse(deal, threshold=float("inf"))
    with pytest.raises(InvalidRecordError):
        analyse('{"format": "ecarte.duel.deal", "version": 1}')
    with pytest.raises(EcarteError, match="not a duel deal or match record"):
        analyse(Table(["A", "B"], seed=1).to_json())


def test_ctrl_c_ends_an_analysis_in_one_line(tmp_path: Path) -> None:
    path = tmp_path / "deal.json"
    path.write_text(random_deal(2).to_json())
    seconds, status, _out, err = interrupt(
        [*CLI, "analyse", str(path), "--worlds", "10000"], ready=True
    )
    assert status == 130, (status, err)
    assert err == "interrupted\n"
    assert seconds < BOUND, f"{seconds:.2f} s"
