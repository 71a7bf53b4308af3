"""`ecarte play`: the game logic directly, and the real command through a pseudo-terminal."""

from __future__ import annotations

import os
from pathlib import Path

import pexpect
import pytest
from cli_support import ECARTE
from ecarte import HeuristicAgent, IllegalActionError, RandomAgent
from ecarte.display import use_ascii
from ecarte.duel import Action, Deal, Match, Rules
from ecarte.play import Game, parse_move, result_banner
from ecarte.terminal import game_screen, table_text


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
    banners = 0
    while not match.is_over():
        if game.pending_banner:
            # Between deals the game waits; any line but quit goes on to the next deal.
            assert game.handle("").redraw and not game.pending_banner
            continue
        assert game.human_to_move()
        action = me(match.observation(1), match.legal_actions())
        before = match.deal.copy()
        reply = game.handle(str(action))
        assert reply.message == ""
        if reply.banner:
            banners += 1
            assert reply.banner.startswith(("You win the deal", "The opponent wins the deal"))
            assert "on cards" in reply.banner or "vole" in reply.banner
            assert game.pending_banner or match.is_over()
        if not undone and not match.is_over() and before_deal(match, before) is not None:
            assert game.handle("undo").message == "Move taken back."
            assert match.deal == before
            undone = True
            game.handle(str(action))
    assert undone
    assert banners == len(match.deals) >= 2
    assert "over" in game.handle("propose").message
    assert game.handle("quit").quit


def why(deal: Deal, text: str) -> str:
    """The reason given to the player to move for the illegal move ``text``."""
    player = deal.current_player
    assert player is not None
    legal = deal.legal_actions()
    with pytest.raises(ValueError) as info:
        parse_move(text, legal, deal.observation(player))
    # The engine's reason, as the deal itself refuses the move.
    with pytest.raises(IllegalActionError) as refused:
        deal.check(text, player)
    assert refused.value.reason is not None
    assert str(info.value) == refused.value.reason.text("symbols")
    return str(info.value)


def test_illegal_moves_are_explained() -> None:
    # Seed 1, seat 0 deals; trump ♠. Elder (seat 1): 9♣ A♣ 7♦ 8♠ T♠; dealer: 8♣ 9♥ A♥ 9♠ A♠.
    deal = Deal(seed=1, dealer=0)
    assert deal.trump.symbol == "♠"
    assert why(deal, "accept") == "there is no proposal to answer: propose or decline"
    assert why(deal, "9C") == "the exchange comes first: propose or decline"
    assert why(deal, "discard 9C") == "discards come after an accepted proposal"
    proposed = deal.copy()
    proposed.apply("propose")
    assert why(proposed, "propose") == (
        "the dealer never proposes: accept or refuse the opponent's proposal"
    )
    proposed.apply("accept")
    assert why(proposed, "discard 8S").startswith("trumps (♠) may not be discarded")
    assert why(proposed, "discard KH") == "you hold no K♥"
    assert why(proposed, "decline").startswith("discard a card first")
    follow = deal.copy()
    follow.apply("decline")
    assert why(follow, "propose") == "the exchange is over: play a card"
    assert why(follow, "QH") == "you hold no Q♥"
    follow.apply("9C")
    assert why(follow, "9H") == "you must follow ♣"
    trump = deal.copy()
    trump.apply("decline")
    trump.apply("7D")
    assert why(trump, "9H") == "you have no ♦, so you must trump (♠)"
    # Without the observation, the old generic line.
    with pytest.raises(ValueError, match="is not legal now"):
        parse_move("9H", trump.legal_actions())
    # The cards are written as the terminal shows them: the ten as 10, ASCII with --ascii.
    assert why(follow, "TH") == "you hold no 10♥"
    use_ascii(True)
    try:
        with pytest.raises(ValueError, match=r"^you have no D, so you must trump \(S\)$"):
            parse_move("9H", trump.legal_actions(), trump.observation(0))
        with pytest.raises(ValueError, match=r"^you hold no 10H$"):
            parse_move("TH", follow.legal_actions(), follow.observation(0))
    finally:
        use_ascii(False)


def finished(kind: str) -> Deal:
    """A deal played out at random that ends in a vole, on equal cards, or on more cards."""
    for seed in range(10_000):
        deal = Deal(seed=seed, dealer=seed % 2)
        agent = RandomAgent(seed)
        while not deal.is_over():
            player = deal.current_player
            assert player is not None
            deal.apply(agent(deal.observation(player), deal.legal_actions()))
        outcome = deal.outcome()
        assert outcome is not None
        equal = outcome.cards[0] == outcome.cards[1]
        if {"vole": outcome.vole, "equal": equal, "more": not equal and not outcome.vole}[kind]:
            return deal
    raise AssertionError(kind)


def test_result_banner_says_why_the_deal_was_won() -> None:
    vole = finished("vole")
    outcome = vole.outcome()
    assert outcome is not None
    n = outcome.tricks[outcome.winner]
    score = (2, 0) if outcome.winner == 0 else (0, 2)
    text = result_banner(vole, outcome.winner, score, 7)
    assert text == (
        f"You win the deal, 2 points: you took all {n} tricks: a vole scores 2. "
        "Score: you 2, opponent 0 (to 7)."
    )
    equal = finished("equal")
    outcome = equal.outcome()
    assert outcome is not None
    c = outcome.cards[0]
    last = equal.tricks[-1].winner
    assert last == outcome.winner
    text = result_banner(equal, 1 - last, (1, 0) if last == 0 else (0, 1), 7)
    assert text.startswith(
        f"The opponent wins the deal, 1 point: {c}-{c} on cards: the last trick decides, "
        "and the opponent took it."
    )
    assert "Score: you 0, opponent 1 (to 7)." in text
    more = finished("more")
    outcome = more.outcome()
    assert outcome is not None
    won, lost = outcome.cards[outcome.winner], outcome.cards[1 - outcome.winner]
    assert won > lost
    banner = result_banner(more, outcome.winner, (1, 1), 7)
    assert banner.startswith(f"You win the deal, 1 point: {won}-{lost} on cards: more cards win.")


def test_the_game_announces_draws_and_waits_between_deals() -> None:
    match = Match(seed=4, rules=Rules(target=3))
    game = Game(match, RandomAgent(1), seat=0)
    me = RandomAgent(2)
    drawn: list[str] = []
    while not game.pending_banner:
        before = len(match.observation(0).draws)
        game.handle(str(me(match.observation(0), match.legal_actions())))
        if game.pending_banner:
            break
        new = match.observation(0).draws[before:]
        if new:
            drawn.append(" ".join(c.pretty() for c in new))
            assert f"You draw {drawn[-1]}" in game.log
    assert drawn, "the human drew from the talon"
    # The finished deal stays on the table, with its result, until the player goes on.
    assert len(match.deals) == 2 and game.shown_index == 0
    assert not game.human_to_move() or match.deal.history == []
    assert game.log[-1].endswith("the deal, 1 point.") or game.log[-1].endswith("2 points.")
    game.next_deal()
    assert game.shown_index == 1 and not game.pending_banner
    assert game.human_to_move()


def before_deal(match: Match, before: object) -> object:
    """The current deal if ``before`` is an earlier state of it (same deck), else None."""
    return match.deal if match.deal.deck == getattr(before, "deck", None) else None


def spawn(*args: str) -> pexpect.spawn:
    env = dict(os.environ, NO_COLOR="1", COLUMNS="120", TERM="xterm")
    return pexpect.spawn(
        ECARTE[0],
        [*ECARTE[1:], "play", *args],
        env=env,
        encoding="utf-8",
        timeout=60,
        dimensions=(50, 120),
    )


def quit_without_saving(child: pexpect.spawn, command: str = "quit") -> None:
    """Quits at the prompt, declines to save, and expects a clean exit."""
    child.sendline(command)
    child.expect("Bye.")
    child.expect("Save the match record")
    child.sendline("")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


def test_play_through_a_pseudo_terminal(tmp_path: Path) -> None:
    child = spawn("--seed", "4", "--opponent", "random", "--target", "2")
    child.expect("> ")
    screen = child.before
    for part in (
        "Trump",
        "Talon:",
        "Score:",
        "Your hand:",
        "Tricks:",
        "Current trick:",
        "Your move:",
    ):
        assert part in screen, part
    # Seed 4: the opponent is the elder and proposes; you deal.
    assert "Opponent: propose" in screen and "1) accept  2) refuse" in screen
    # An unparseable and an illegal move: a one-line explanation and the legal choices.
    child.sendline("XYZ")
    child.expect("cannot read 'XYZ'. Legal: ")
    child.expect("> ")
    child.sendline("propose")
    child.expect("the dealer never proposes: accept or refuse the opponent's proposal. Legal: ")
    child.expect("> ")
    child.sendline("discard 7C")
    child.expect("discards come after an accepted proposal")
    child.expect("> ")
    child.sendline("hint")
    child.expect("Hint: ")
    child.expect("> ")
    # Accept: you draw a card, and the table says which.
    child.sendline("1")
    child.expect("> ")
    assert "You draw " in child.before
    child.sendline("undo")
    child.expect("Move taken back|Nothing to undo")
    # Play by number until the match (to 2 points) ends; every deal ends with a banner
    # that says why it was won, and the game waits for Enter before the next deal.
    moves = pauses = 0
    while True:
        index = child.expect(["> ", r"\(Enter: next deal, q: quit\) ", "Save the match record"])
        if index == 1:
            banner = child.before
            assert "Deal " in banner and " result" in banner
            assert "wins the deal" in banner or "win the deal" in banner
            assert "on cards" in banner or "a vole scores 2" in banner
            assert "Press Enter" not in banner  # the prompt is the one line that asks
            pauses += 1
            child.sendline("")
            continue
        if index == 2:
            assert "win the match" in child.before or "wins the match" in child.before
            assert " result" in child.before
            break
        child.sendline("1")
        moves += 1
        assert moves < 400
    assert pauses >= 1
    out = tmp_path / "m.json"
    child.sendline(str(out))
    child.expect("Record saved")
    child.expect(pexpect.EOF)
    match = Match.from_json(out.read_text())
    assert match.is_over() and len(match.deals) == pauses + 1


def test_play_a_call_after_the_exchange_is_explained() -> None:
    # Seed 3, seat 1: you are the elder. Decline, then try to propose during play.
    child = spawn("--seed", "3", "--opponent", "random", "--seat", "1")
    child.expect("> ")
    child.sendline("decline")
    child.expect("> ")
    screen = child.before
    assert "Your move:" in screen
    child.sendline("propose")
    child.expect("the exchange is over: play a card. Legal: ")
    child.expect("> ")
    child.sendline("quit")
    child.expect("Save the match record")
    child.sendline("")
    child.expect(pexpect.EOF)


def test_play_quit_between_deals() -> None:
    child = spawn("--seed", "3", "--opponent", "random", "--target", "5")
    for _ in range(400):
        if child.expect(["> ", r"\(Enter: next deal, q: quit\) "]) == 1:
            break
        child.sendline("1")
    else:
        raise AssertionError("no deal ended")
    quit_without_saving(child, "q")


def test_play_refuses_an_unwritable_save_path_before_playing(tmp_path: Path) -> None:
    child = spawn("--seed", "3", "--save", str(tmp_path / "missing" / "m.json"))
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 2
    assert "error: --save" in child.before and "does not exist" in child.before
    assert "Traceback" not in child.before


def test_play_quit() -> None:
    child = spawn("--seed", "5")
    child.expect("> ")
    quit_without_saving(child)


def test_play_level_names_its_agent() -> None:
    child = spawn("--seed", "5", "--level", "easy")
    child.expect("you play against heuristic")
    child.expect("> ")
    quit_without_saving(child)
    helped = spawn("--help")
    helped.expect(pexpect.EOF)
    for level in ("easy", "medium", "hard", "expert", "master", "grandmaster"):
        assert level in helped.before


def test_undo_takes_back_what_the_log_showed() -> None:
    # The human (the elder, seat 1) proposes, the heuristic accepts, the human draws: undo
    # puts the card back on the talon, and the log must not show it any more.
    for seed in range(50):
        match = Match(seed=seed)
        game = Game(match, HeuristicAgent(), seat=1)
        game.handle("propose")
        drawn = [line for line in game.log if line.startswith("You draw ")]
        if drawn:
            break
    else:
        pytest.fail("the heuristic never accepted a proposal")
    card = drawn[0].removeprefix("You draw ").split()[0]
    assert game.handle("undo").message == "Move taken back."
    assert match.deal.phase == "proposal"
    assert not any(card in line for line in game.log), game.log
    assert game.log == ["You take back your last move."]
    assert card not in table_text(game_screen(game))
