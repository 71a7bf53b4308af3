"""`ecarte play`: the game logic directly, and the real command through a pseudo-terminal."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pexpect
import pytest

from ecarte import RandomAgent
from ecarte.duel import Action, Match, Rules
from ecarte.play import Game, parse_move


def test_parse_move_forms() -> None:
    legal = [Action("discard 7C"), Action("discard QH")]
    assert parse_move("2", legal) == Action("discard QH")
    assert parse_move("q♥", legal) == Action("discard QH")
    assert parse_move("discard 7c", legal) == Action("discard 7C")
    for bad in ["3", "0", "KS", "nonsense", "propose"]:
        with pytest.raises(ValueError):
            parse_move(bad, legal)


def test_game_plays_a_whole_match_and_undo() -> None:
    match = Match(seed=4, rules=Rules(target=2))
    game = Game(match, RandomAgent(1), seat=1)
    me = RandomAgent(2)
    assert "Legal:" in game.handle("KZ").message
    undone = False
    while not match.is_over():
        assert game.human_to_move()
        action = me(match.observation(1), match.legal_actions())
        before = match.deal.copy()
        assert game.handle(str(action)).message == ""
        if not undone and not match.is_over() and before_deal(match, before) is not None:
            assert game.handle("undo").message == "Move taken back."
            assert match.deal == before
            undone = True
            game.handle(str(action))
    assert undone
    assert "over" in game.handle("propose").message
    assert game.handle("quit").quit


def before_deal(match: Match, before: object) -> object:
    """The current deal if ``before`` is an earlier state of it (same deck), else None."""
    return match.deal if match.deal.deck == getattr(before, "deck", None) else None


def spawn(*args: str) -> pexpect.spawn:
    env = dict(os.environ, NO_COLOR="1", COLUMNS="120", TERM="xterm")
    return pexpect.spawn(
        sys.executable, ["-c", "from ecarte.cli import run; run()", "play", *args],
        env=env, encoding="utf-8", timeout=60, dimensions=(50, 120),
    )


def test_play_through_a_pseudo_terminal(tmp_path: Path) -> None:
    child = spawn("--seed", "3", "--opponent", "random", "--target", "1")
    child.expect("> ")
    screen = child.before
    for part in ("Trump", "Talon:", "Score:", "Your hand:", "Tricks:", "Current trick:", "Your move:"):
        assert part in screen, part
    # An unparseable and an illegal move: a one-line explanation and the legal choices.
    child.sendline("XYZ")
    child.expect("cannot read 'XYZ'. Legal: ")
    child.expect("> ")
    child.sendline("hint")
    child.expect("Hint: ")
    child.expect("> ")
    # Play by number until the match (to 1 point) ends; undo once along the way.
    child.sendline("1")
    child.expect("> ")
    child.sendline("undo")
    child.expect("Move taken back|Nothing to undo")
    moves = 0
    while True:
        index = child.expect(["> ", "Save the match record"])
        if index == 1:
            assert "win the match" in child.before or "wins the match" in child.before
            break
        child.sendline("1")
        moves += 1
        assert moves < 200
    out = tmp_path / "m.json"
    child.sendline(str(out))
    child.expect("Record saved")
    child.expect(pexpect.EOF)
    assert Match.from_json(out.read_text()).is_over()


def test_play_quit() -> None:
    child = spawn("--seed", "5")
    child.expect("> ")
    child.sendline("quit")
    child.expect("Bye.")
    child.expect("Save the match record")
    child.sendline("")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


def test_play_level_names_its_agent() -> None:
    child = spawn("--seed", "5", "--level", "easy")
    child.expect("you play heuristic")
    child.expect("> ")
    child.sendline("quit")
    child.expect("Save the match record")
    child.sendline("")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    helped = spawn("--help")
    helped.expect(pexpect.EOF)
    for level in ("easy", "medium", "hard", "expert"):
        assert level in helped.before
