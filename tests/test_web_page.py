"""The page as a newcomer meets it, in a real browser (headless Chromium, as in
test_web_browser.py): on a phone (390 and 360 px wide) and a desktop no screen scrolls
sideways; the defaults and the controls' states come from the engine; cards are written
one way, as the engine writes them; a message stays on its own screen; a replay names the
record's players.

``ECARTE_SCREENSHOTS=docs`` writes the phone screenshots of docs/web.md there."""

from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from ecarte import bank, duel
from ecarte.bank.table import MODES, TABLE_DEFAULTS, Table
from test_web_browser import app, rendered, shot, until

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

__all__ = ["app"]  # the browser and server, shared with test_web_browser.py

#: A card written as a code (``TH``, ``7C``) where a person reads it, or a ten as ``T``.
RAW_CARD = re.compile(r"\b[2-9TJQKA][CDHS]\b|\bT[♣♦♥♠]")
PHONES = (390, 360)
EIGHT = ["annabelle", "bartholomew", "cyprian", "dorothea", "evangeline", "ferdinand",
         "gwendolyn", "hieronymus"]  # fmt: skip


def width_fits(page: Page, what: str) -> None:
    """The document is no wider than the viewport: nothing scrolls sideways."""
    scroll, inner = page.eval_on_selector("html", "(html) => [html.scrollWidth, window.innerWidth]")
    assert scroll <= inner, f"{what}: the page is {scroll} px wide in a {inner} px viewport"


def play_some(page: Page, moves: int, check: Any = None) -> None:
    """Plays up to ``moves`` decisions of the duel on screen by clicking the first legal
    card or call, calling ``check()`` after each."""
    version = page.get_attribute("#board", "data-version")
    for _ in range(moves):
        if page.locator("#result-banner").count():
            return
        legal = page.locator("#hand .card.legal")
        if legal.count():
            legal.first.click()
        else:
            page.locator("#board button[data-action]").first.click()
        version = rendered(page, "#board", version)
        if check is not None:
            check()


def records(tmp: Path) -> tuple[Path, Path]:
    """A match record with its players' names, and an eight-player bank session."""
    match = duel.Match(seed=5, rules=duel.Rules(target=3))
    match.play(duel.BuiltinAgent("heuristic", 1), duel.BuiltinAgent("random", 2))
    match.players = ("annabelle", "bartholomew")
    table = bank.Table(EIGHT, bank=10**6, chips=10**9, seed=7)
    for _ in range(2):
        table.deal()
        table.stake(EIGHT[1], 2, 10)
        table.stake(EIGHT[2], 3, 10)
        table.stake(EIGHT[3], 4, 999_999)
        table.reveal()
        table.settle()
    paths = tmp / "match.json", tmp / "bank.json"
    paths[0].write_text(match.to_json())
    paths[1].write_text(table.to_json())
    return paths


@pytest.mark.parametrize("width", [*PHONES, 1200])
def test_no_screen_scrolls_sideways(app: tuple[str, Browser], tmp_path: Path, width: int) -> None:
    url, browser = app
    context = browser.new_context(viewport={"width": width, "height": 800})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    phone = "web-phone-" if width == 390 else None

    def screen(name: str) -> None:
        width_fits(page, name)
        if phone:
            shot(page, phone + name, tmp_path)

    page.goto(url + "/#/")
    page.wait_for_selector("#tile-duel")
    screen("home")

    page.goto(url + "/#/duel")
    page.select_option("#level", "easy")
    page.click("#start")
    rendered(page, "#board", None)
    play_some(page, 6, lambda: width_fits(page, "a duel"))
    screen("duel")
    play_some(page, 80, lambda: width_fits(page, "a duel"))  # to the deal's result
    assert page.locator("#result-banner").count()

    page.goto(url + "/#/watch")
    page.select_option("#agent0", "heuristic")
    page.select_option("#agent1", "random")
    page.select_option("#speed", "200")
    page.click("text=Start")
    until(page, lambda: page.locator("#watch-board .cards .card").count() > 6)
    page.wait_for_timeout(1000)  # into the play
    screen("watch")

    match, session = records(tmp_path)
    for name, record in (("replay", match), ("replay-bank", session)):
        page.goto(url + "/#/replay")
        page.set_input_files("#record-file", str(record))
        page.wait_for_selector("#replay-board > *")
        for _ in range(12):
            page.click("#replay-next")
            width_fits(page, name)
        screen(name)
        page.click("#replay-last")
        width_fits(page, name)

    page.goto(url + "/#/bank")
    page.wait_for_selector("#create-table")
    width_fits(page, "the bank's form")
    page.fill("#players", ", ".join(EIGHT))
    page.fill("#chips", str(10**9))
    page.fill("#bank", str(10**6))
    page.click("#create-table")
    page.click(f"button[data-join={EIGHT[0]}]")
    page.wait_for_selector("#you")
    page.click("button[data-action=deal]")
    page.wait_for_selector(".tableau .card.back")
    screen("bank")
    # The odds name the trump card as people read it.
    page.click("#odds")
    page.wait_for_selector("#message:has-text('Odds')")
    trump = page.get_attribute(".trump-card", "title")
    said = page.inner_text("#message")
    assert f"with {trump} turned up" in said and not RAW_CARD.search(said), said
    assert not errors
    context.close()


def test_the_defaults_are_the_engine_s(app: tuple[str, Browser]) -> None:
    url, browser = app
    page = browser.new_page(viewport={"width": 390, "height": 800})
    page.goto(url + "/#/")
    tile = page.inner_text("#tile-duel")
    levels = list(duel.LEVELS)
    assert f"from {levels[0]} to {levels[-1]}" in tile and "master" in tile
    page.goto(url + "/#/duel")
    page.wait_for_selector("#level option", state="attached")
    assert page.eval_on_selector("#level", "(s) => s.value") == duel.DEFAULT_LEVEL == "expert"
    assert page.input_value("#target") == str(duel.Rules().target)
    page.goto(url + "/#/watch")
    page.wait_for_selector("#agent0 option", state="attached")
    assert page.input_value("#watch-target") == str(duel.Rules().target)
    page.goto(url + "/#/bank")
    page.wait_for_selector("#mode option", state="attached")
    table = Table(["ann", "bob"], seed=1)
    assert page.input_value("#bank") == str(table.bank)
    assert page.input_value("#chips") == str(table.chips["bob"])  # ann's hold the bank
    assert page.input_value("#fixed") == str(TABLE_DEFAULTS["fixed_stake"])
    assert page.eval_on_selector("#mode", "(s) => s.value") == table.mode
    assert page.eval_on_selector_all("#mode option", "(o) => o.map((x) => x.value)") == list(MODES)
    page.close()


def test_undo_is_enabled_only_with_a_move_to_take_back(app: tuple[str, Browser]) -> None:
    url, browser = app
    page = browser.new_page(viewport={"width": 390, "height": 800})
    page.goto(url + "/#/duel")
    page.select_option("#level", "easy")
    page.click("#start")
    version = rendered(page, "#board", None)
    assert page.locator("#undo").is_disabled()  # the match has just started
    play_some(page, 1)
    if page.locator("#result-banner").count():
        pytest.skip("the deal ended on the first move")  # the next deal: nothing to undo
    assert page.locator("#undo").is_enabled()
    version = page.get_attribute("#board", "data-version")
    page.click("#undo")
    rendered(page, "#board", version)
    assert page.locator("#undo").is_disabled()
    assert page.inner_text("#message") == "Move taken back."
    page.close()


def test_cards_are_written_one_way_in_cards_log_and_messages(app: tuple[str, Browser]) -> None:
    url, browser = app
    page = browser.new_page(viewport={"width": 390, "height": 800})
    page.goto(url + "/#/duel")
    page.select_option("#level", "easy")
    page.click("#start")
    rendered(page, "#board", None)
    messages: list[str] = []
    corners: set[str] = set()

    def look() -> None:
        for text in page.locator("#board .card:not(.back) .corner").all_inner_texts():
            corners.add(text.split()[0])
        if page.locator(".message.shown").count():
            messages.append(page.inner_text("#message"))

    for _ in range(3):
        # A card the engine refuses, then a hint: both said with the cards as people read them.
        refused = page.locator("#hand .card:not(.legal)")
        if refused.count() and page.locator("#hand .card.legal").count():
            refused.first.click()
            page.wait_for_selector(".message.error.shown")
            look()
        if page.locator("#hint").is_enabled():
            page.click("#hint")
            page.wait_for_selector("#message:has-text('Hint')", timeout=30_000)
            look()
        play_some(page, 4, look)
    log = page.inner_text("#log")
    assert log and not RAW_CARD.search(log), log
    assert corners and "T" not in corners and corners <= {"7", "8", "9", "10", "J", "Q", "K", "A"}
    assert any(m.startswith("Hint") for m in messages)
    for said in messages:
        assert not RAW_CARD.search(said), said
        assert "Error" not in said, said  # never an error's class name
    page.close()


def test_next_deal_waits_for_start_and_stops_at_the_match_s_end(
    app: tuple[str, Browser],
) -> None:
    url, browser = app
    page = browser.new_page(viewport={"width": 390, "height": 800})
    page.goto(url + "/#/watch")
    page.wait_for_selector("#agent0 option", state="attached")
    assert page.locator("#next-deal").is_disabled()
    page.select_option("#agent0", "heuristic")
    page.select_option("#agent1", "random")
    page.fill("#watch-target", "3")  # a deal scores at most 2: the match goes on after it
    page.click("text=Start")
    page.wait_for_selector("#watch-board .card")
    until(page, lambda: page.locator("#next-deal").is_enabled())
    for _ in range(10):
        if page.locator("#next-deal").is_disabled():
            break
        page.click("#next-deal")
        page.wait_for_timeout(200)
    until(page, lambda: "wins the match" in page.inner_text(".scores"))
    assert page.locator("#next-deal").is_disabled()
    page.close()


def test_a_message_stays_on_the_screen_that_showed_it(
    app: tuple[str, Browser], tmp_path: Path
) -> None:
    url, browser = app
    page = browser.new_page(viewport={"width": 390, "height": 800})
    page.goto(url + "/#/replay")
    bad = tmp_path / "bad.json"
    bad.write_text("{}")
    page.set_input_files("#record-file", str(bad))
    page.wait_for_selector(".message.error.shown")
    said = page.inner_text("#message")
    assert "Error" not in said and "record" in said
    page.goto(url + "/#/bank")
    page.wait_for_selector("#create-table")
    assert page.locator(".message.shown").count() == 0
    page.close()


def test_a_replay_names_the_record_s_players(app: tuple[str, Browser], tmp_path: Path) -> None:
    url, browser = app
    page = browser.new_page(viewport={"width": 390, "height": 800})
    match, _ = records(tmp_path)
    page.goto(url + "/#/replay")
    page.set_input_files("#record-file", str(match))
    page.wait_for_selector("#replay-score")
    assert "Score: annabelle 0 – bartholomew 0" in page.inner_text("#replay-score")
    board = page.inner_text("#replay-board")
    assert "annabelle" in board and "bartholomew" in board and "seat 0" not in board
    page.click("#replay-last")
    result = page.inner_text("#frame-result")
    assert re.match(r"(annabelle|bartholomew) wins the deal", result), result
    page.close()
