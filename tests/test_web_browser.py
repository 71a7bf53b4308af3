"""The web app in a real browser: headless Chromium (Debian's ``chromium``) driven by
Playwright. A duel against ``heuristic`` played by clicking legal cards to the deal's
result, and a bank table shared by two browsers through staking, reveal and settlement.

``ECARTE_SCREENSHOTS=docs`` writes the README's screenshots there. Without a browser the
tests are skipped, except under CI (``CI`` set), where they fail."""

from __future__ import annotations

import os
import re
import shutil
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from ecarte import duel
from webserver import running_server

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
#: The engine's reasons an unplayable card in the hand can be refused with, as the page
#: shows them (suit symbols).
ILLEGAL_CARD = (
    r"you must follow [♣♦♥♠]|you have no [♣♦♥♠], so you must trump \([♣♦♥♠]\)"
    r"|trumps \([♣♦♥♠]\) may not be discarded while you hold a card of another suit"
)
pytest.importorskip("starlette")
if not os.environ.get("CI"):
    pytest.importorskip("playwright")
    if not Path(CHROMIUM).exists():
        pytest.skip("no chromium (apt-get install chromium)", allow_module_level=True)
from playwright.sync_api import Page, sync_playwright  # noqa: E402


@pytest.fixture(scope="module")
def app() -> Iterator[tuple[str, Any]]:
    with running_server() as (url, _), sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        try:
            yield url, browser
        finally:
            browser.close()


def shot(page: Page, name: str, tmp: Path) -> None:
    folder = Path(os.environ.get("ECARTE_SCREENSHOTS") or tmp)
    page.screenshot(path=str(folder / f"{name}.png"), full_page=True)


def until(page: Page, ready: Callable[[], bool], seconds: float = 15.0) -> None:
    """Polls ``ready`` (DOM reads through selectors, which the page's content security
    policy allows, unlike a function evaluated in the page) until it holds."""
    deadline = time.monotonic() + seconds
    while not ready():
        if time.monotonic() > deadline:
            raise AssertionError("the page did not get there in time")
        page.wait_for_timeout(50)


def rendered(page: Page, board: str, before: str | None) -> str:
    """Waits for ``board`` to be drawn again after version ``before``; the new version."""
    version: list[str | None] = [None]

    def redrawn() -> bool:
        version[0] = page.get_attribute(board, "data-version")
        return bool(version[0]) and version[0] != (before or "")

    until(page, redrawn)
    return str(version[0])


def test_a_whole_deal_against_heuristic_by_clicking_legal_cards(
    app: tuple[str, Any], tmp_path: Path
) -> None:
    url, browser = app
    page = browser.new_page(viewport={"width": 1200, "height": 860})
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(url + "/#/duel")
    page.select_option("#level", "easy")  # heuristic
    # The page's levels are the registry's, as the server's hello gives them.
    levels = page.eval_on_selector_all("#level option", "options => options.map(o => o.value)")
    assert levels == list(duel.LEVELS)
    page.fill("#target", "7")
    page.click("#start")
    version = rendered(page, "#board", None)
    # The opponent's cards, face down, as many as the observation says (4 to 6 at the start).
    assert 4 <= page.locator("#opponent-hand .card").count() <= 6
    shown_illegal = False
    for step in range(80):
        if page.locator("#result-banner").count():
            break
        legal = page.locator("#hand .card.legal")
        calls = page.locator("#board button[data-action]")
        if legal.count():
            if not shown_illegal and page.locator("#hand .card:not(.legal)").count():
                # An illegal card is refused with the engine's reason, and nothing changes.
                page.locator("#hand .card:not(.legal)").first.click()
                page.wait_for_selector(".message.error.shown")
                said = page.inner_text("#message")
                assert re.fullmatch(ILLEGAL_CARD, said), said
                assert "Error" not in said
                assert page.get_attribute("#board", "data-version") == version
                shown_illegal = True
            if step == 6:
                shot(page, "web-duel", tmp_path)
            legal.first.click()
        else:
            assert calls.count(), "neither a legal card nor a call to make"
            calls.first.click()
        version = rendered(page, "#board", version)
    banner = page.inner_text("#result-banner")
    assert "Deal 1" in banner and "point" in banner
    assert page.locator("#scores").inner_text().count("Score") == 1
    shot(page, "web-duel-result", tmp_path)
    assert not errors


def test_two_browsers_play_a_bank_deal_through_staking_reveal_and_settlement(
    app: tuple[str, Any], tmp_path: Path
) -> None:
    url, browser = app
    ann_ctx, bob_ctx = browser.new_context(), browser.new_context()
    ann, bob = ann_ctx.new_page(), bob_ctx.new_page()
    for page in (ann, bob):
        page.set_viewport_size({"width": 1200, "height": 900})
    ann.goto(url + "/#/bank")
    ann.fill("#players", "ann, bob")
    ann.click("#create-table")
    ann.wait_for_selector("#table-link")
    link = ann.inner_text("#table-link")
    assert len(link.rsplit("/", 1)[1]) >= 20  # an unguessable table id
    ann.click("button[data-join=ann]")
    ann.wait_for_selector("#you")
    bob.goto(link)
    bob.wait_for_selector("button[data-join=bob]")
    assert bob.locator("button[data-join=ann]").is_disabled()  # ann's seat is taken
    bob.click("button[data-join=bob]")
    bob.wait_for_selector("#you")

    ann.click("button[data-action=deal]")
    bob.wait_for_selector("button[data-stake='2']")
    # Staking: the tableaux face down in both browsers, only the trump card face up.
    for page in (ann, bob):
        page.wait_for_selector(".tableau .card.back")
        assert page.locator(".tableau .card.back").count() == 16
        assert page.locator(".tableau .card:not(.back)").count() == 0
    assert bob.locator("button[data-action=deal]").count() == 0  # only the banker deals
    # The controls are the server's legal actions: T4 and the reveal wait for T2 and T3.
    assert bob.locator("button[data-stake='4-amount']").count() == 0
    assert ann.locator("button[data-action=reveal]").count() == 0
    assert bob.inner_text("button[data-stake='2']") == "Stake 10 on T2"
    bob.click("button[data-stake='2']")
    bob.wait_for_selector("[data-tableau='2'] .count")
    bob.click("button[data-stake='3']")
    bob.wait_for_selector("[data-tableau='3'] .count")
    t4 = bob.locator("button[data-stake='4-amount']")
    assert t4.inner_text() == "Stake on T4 (1–100)"  # within the bank of 100
    assert bob.get_attribute("#stake-amount", "max") == "100"
    bob.fill("#stake-amount", "30")
    t4.click()
    bob.wait_for_selector("[data-tableau='4'] .count")
    assert bob.inner_text("button[data-stake='4-amount']") == "Stake on T4 (1–70)"
    shot(bob, "web-bank-staking", tmp_path)
    ann.wait_for_selector("[data-tableau='4'] .count")  # the banker sees bob's stakes
    ann.click("button[data-action=reveal]")
    for page in (ann, bob):
        page.wait_for_selector("#phase:text('revealed')")
        assert page.locator(".tableau .card.back").count() == 0
        assert page.locator(".tableau .badge").count() == 3
    ann.click("button[data-action=settle]")
    for page in (ann, bob):
        page.wait_for_selector("#phase:text('ready')")
        assert page.locator("#ledger tr").count() == 3  # a header, the start, deal 1
        chips = [int(t) for t in page.locator("#chips td:nth-child(2)").all_inner_texts()]
        assert sum(chips) + int(page.inner_text("#bank-amount")) == 2000
    assert bob.locator("#chip-chart polyline").count() == 2
    shot(ann, "web-bank-settled", tmp_path)
    ann_ctx.close()
    bob_ctx.close()


def test_watch_a_match_and_step_through_saved_records(app: tuple[str, Any], tmp_path: Path) -> None:
    from ecarte import bank

    url, browser = app
    page = browser.new_page(viewport={"width": 1200, "height": 900})
    page.goto(url + "/#/watch")
    page.select_option("#agent1", "heuristic")
    # Every built-in agent may be watched, by its name and at its levels.
    watchable = page.eval_on_selector_all("#agent0 option", "options => options.map(o => o.value)")
    assert set(watchable) == {a.name for a in duel.AGENTS} | set(duel.LEVELS.values())
    page.select_option("#speed", "200")
    page.click("text=Start")
    until(page, lambda: page.locator("#watch-board .cards .card").count() > 6)
    shot(page, "web-watch", tmp_path)
    page.wait_for_selector("#frame-result", timeout=30_000)  # the first deal played out

    match = duel.Match(seed=3, rules=duel.Rules(target=2))
    match.play(duel.BuiltinAgent("heuristic", 1), duel.BuiltinAgent("random", 2))
    table = bank.Table(["ann", "bob", "cy"], bank=50, chips=100, seed=7)
    table.deal()
    table.stake("bob", 2, 10)
    table.stake("cy", 3, 10)
    table.reveal()
    table.settle()
    for name, text, steps in (
        ("match", match.to_json(), sum(len(d.history) + 1 for d in match.deals) - 1),
        ("bank", table.to_json(), 5),
    ):
        record = tmp_path / f"{name}.json"
        record.write_text(text)
        page.goto(url + "/#/replay")
        page.set_input_files("#record-file", str(record))
        # The board of the record just opened (not the one shown before it).
        page.wait_for_selector(f"#replay-step:text-is('step 0 of {steps}')")
        page.wait_for_selector("#replay-board > *")
        page.click("#replay-next")
        assert page.inner_text("#replay-step") == f"step 1 of {steps}"
        page.click("#replay-last")
        assert page.inner_text("#replay-step") == f"step {steps} of {steps}"
        if name == "match":
            assert page.locator("#frame-result").count() == 1
            page.click("#replay-first")
            for _ in range(14):  # into the play of the first deal, for the screenshot
                page.click("#replay-next")
            assert page.inner_text("#replay-step") == f"step 14 of {steps}"
        else:
            assert page.locator(".tableau .badge").count() == 3
        shot(page, f"web-replay-{name}", tmp_path)


def test_a_seat_taken_back_in_a_second_tab_is_told_to_the_first(app: tuple[str, Any]) -> None:
    url, browser = app
    context = browser.new_context()  # one browser: the tabs share the saved seat tokens
    first = context.new_page()
    first.goto(url + "/#/bank")
    first.fill("#players", "ann, bob")
    first.click("#create-table")
    first.click("button[data-join=ann]")
    first.wait_for_selector("#you")
    second = context.new_page()
    second.goto(first.inner_text("#table-link"))
    second.wait_for_selector("#you:text('ann')")  # the saved token took the seat
    first.wait_for_selector("#seat-moved")
    assert "another tab" in first.inner_text("#seat-moved")
    first.click("#take-back")
    first.wait_for_selector("#you:text('ann')")
    second.wait_for_selector("#seat-moved")
    context.close()


def test_a_departure_is_shown_and_a_refused_connection_keeps_the_seat(
    app: tuple[str, Any],
) -> None:
    from webserver import Seat
    from websockets.exceptions import ConnectionClosed

    _, browser = app
    with running_server() as (url, _):
        ann_ctx, bob_ctx = browser.new_context(), browser.new_context()
        ann, bob = ann_ctx.new_page(), bob_ctx.new_page()
        ann.goto(url + "/#/bank")
        ann.fill("#players", "ann, bob")
        ann.click("#create-table")
        ann.click("button[data-join=ann]")
        ann.wait_for_selector("#you")
        link = ann.inner_text("#table-link")
        bob.goto(link)
        bob.click("button[data-join=bob]")
        bob.wait_for_selector("#you")
        ann.wait_for_selector("#presence:text('ann, bob')")
        bob.close()
        ann.wait_for_selector("#presence:text('bob (away)')")
        assert "bob left the table" in ann.inner_text("#message")
        # Every connection this address may open taken: bob's page is refused at once
        # (a transient failure), keeps its seat token, and takes the seat when it can.
        fillers = []
        while True:
            filler = Seat(url.replace("http", "ws") + "/ws")
            try:
                filler("hello")
            except ConnectionClosed:
                break
            fillers.append(filler)
        bob = bob_ctx.new_page()
        bob.goto(link)
        bob.wait_for_selector("#status:text('too many connections')")
        assert bob.locator("button[data-join=bob]").count() == 0
        for filler in fillers:
            filler.close()
        bob.wait_for_selector("#you:text('bob')", timeout=30_000)
        ann.wait_for_selector("#presence:text('ann, bob')")
        ann_ctx.close()
        bob_ctx.close()


def test_a_duel_and_a_watched_match_go_on_after_the_server_is_killed(
    app: tuple[str, Any], tmp_path: Path
) -> None:
    import signal
    import socket

    from webserver import serve_process

    _, browser = app
    db = str(tmp_path / "serve.sqlite3")
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = str(probe.getsockname()[1])
    player, watcher = browser.new_page(), browser.new_page()
    with serve_process("--port", port, db=db) as (url, server):
        player.goto(url + "#/duel")
        player.select_option("#level", "easy")
        player.click("#start")
        version = rendered(player, "#board", None)
        moves = player.locator("#hand .card.legal, #board button[data-action]")
        moves.first.click()
        version = rendered(player, "#board", version)
        hand = player.inner_text("#hand")
        watcher.goto(url + "#/watch")
        watcher.select_option("#agent1", "heuristic")
        watcher.fill("#watch-target", "30")
        watcher.click("text=Start")
        watcher.wait_for_selector(".scores span:text('Deal 1')")
        server.send_signal(signal.SIGKILL)
        server.wait(30)
    player.wait_for_selector("#status:text('reconnecting')")
    with serve_process("--port", port, db=db):
        # Each page reconnects by itself and takes its seat back with the token it kept.
        until(player, lambda: player.inner_text("#hand") == hand, seconds=60)
        version = str(player.get_attribute("#board", "data-version"))
        moves.first.click()
        rendered(player, "#board", version)
        watcher.wait_for_selector("#status:text-is('connected')", timeout=60_000)
        watcher.click("#next-deal")
        watcher.wait_for_selector(".scores span:text('Deal 2')", timeout=60_000)
