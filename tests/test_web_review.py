"""The Review in a real browser (headless Chromium, as in test_web_browser.py): after a
deal of a duel against ``random``, and from Replay for a saved match record. The
timeline marks the mistakes, the value graph draws seat 0's value with them, a chosen
decision lists its legal actions with the engine's values, and on a phone (390 px)
nothing scrolls sideways. The worlds are few (8) so that the analyses are quick.

``ECARTE_SCREENSHOTS=docs`` writes the phone screenshot of docs/web.md there."""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from ecarte import duel
from ecarte.protocol.replay import replay
from test_web_browser import app, until
from test_web_page import width_fits

if TYPE_CHECKING:
    from playwright.sync_api import Browser, BrowserContext, Page

__all__ = ["app"]  # the browser and server, shared with test_web_browser.py

WORLDS = 8
PHONE = 390


def phone(browser: Browser, width: int = PHONE) -> tuple[BrowserContext, Page, list[str]]:
    """A phone-sized page whose Review asks for few worlds (the page remembers a
    person's choice), and the page's script errors."""
    context = browser.new_context(viewport={"width": width, "height": 800})
    context.add_init_script(f"localStorage.setItem('ecarte.review.worlds', '{WORLDS}')")
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    return context, page, errors


def reviewed(page: Page) -> None:
    """Waits for the Review's analysis to be drawn."""
    until(page, lambda: page.locator("#review-timeline").count() > 0, 60)


def ended_deal(page: Page) -> int:
    """The number of the deal whose result is on screen (0: none)."""
    if not page.locator("#result-banner").count():
        return 0
    return int(page.inner_text("#result-banner b").split()[1].rstrip(":"))


def test_a_deal_against_random_reviewed_with_a_mistake_marked(
    app: tuple[str, Browser], tmp_path: Path
) -> None:
    url, browser = app
    context, page, errors = phone(browser)
    page.goto(url + "/#/duel")
    page.fill("#spec", "random")
    page.fill("#target", "30")
    page.click("#start")
    page.wait_for_selector("#hand")
    marked = False
    deal = 0
    # Random's moves, and ours (the last legal card, often the weakest), lose points often;
    # a few deals are played until a Review shows a mistake.
    for _ in range(8):
        for _ in range(60):
            if ended_deal(page) > deal:
                break
            before = page.get_attribute("#board", "data-version")
            legal = page.locator("#hand .card.legal")
            if legal.count():
                legal.last.click()
            else:
                calls = page.locator("#board button[data-action]")
                if not calls.count():  # the opponent is thinking
                    page.wait_for_timeout(50)
                    continue
                calls.first.click()
            until(page, lambda b=before: page.get_attribute("#board", "data-version") != b)
        assert ended_deal(page) > deal
        deal = ended_deal(page)
        page.click("#review-open")
        reviewed(page)
        assert page.input_value("#review-worlds") == str(WORLDS)
        assert page.inner_text("#review h2") == f"Review of deal {deal}"
        # Every decision of the deal is in the timeline, each seat's summary above it.
        chips = page.locator("#review-timeline .decision")
        assert chips.count() >= 2
        assert {c.get_attribute("data-deal") for c in chips.all()} == {str(deal)}
        summary = page.inner_text("#review-summary")
        assert "You:" in summary and "Opponent (random):" in summary
        # The graph has a point for every decision.
        points = page.locator("#review-graph circle")
        assert points.count() == chips.count()
        width_fits(page, "the Review of a duel deal")
        mistakes = page.locator("#review-timeline .decision.mistake")
        if mistakes.count():
            # A mistake: marked in the timeline and in the graph, chosen first, and its
            # legal actions listed with the best one named.
            assert page.locator("#review-graph circle.mistake").count() == mistakes.count()
            assert "?" in mistakes.first.inner_text()
            assert "selected" in (mistakes.first.get_attribute("class") or "")
            verdict = page.inner_text("#review-verdict")
            assert "a mistake" in verdict and "best:" in verdict
            rows = page.locator("#review-values tr")
            assert rows.count() >= 3  # the heading and two actions at least
            assert page.locator("#review-values tr.best").count() == 1
            assert page.locator("#review-values tr.taken").count() == 1
            folder = Path(os.environ.get("ECARTE_SCREENSHOTS") or tmp_path)
            page.locator("#review").screenshot(path=str(folder / "web-phone-review.png"))
            marked = True
            break
        # The next deal's first move closes the Review.
        page.click("#review-close")
    assert marked, "no mistake in eight deals against random"
    assert not errors
    context.close()


@pytest.mark.parametrize("width", [PHONE, 360])
def test_a_saved_match_reviewed_from_replay(
    app: tuple[str, Browser], tmp_path: Path, width: int
) -> None:
    url, browser = app
    match = duel.Match(seed=5, rules=duel.Rules(target=3))
    match.play(duel.BuiltinAgent("heuristic", 1), duel.BuiltinAgent("random", 2))
    match.players = ("annabelle", "bartholomew")
    path = tmp_path / "match.json"
    path.write_text(match.to_json())
    expected = duel.analyse(match, worlds=WORLDS, seed=1)
    context, page, errors = phone(browser, width)
    page.goto(url + "/#/replay")
    assert page.is_disabled("#replay-review")
    page.set_input_files("#record-file", str(path))
    page.wait_for_selector("#replay-score")
    page.click("#replay-review")
    reviewed(page)
    # A line per deal, a chip per decision, as the engine analysed them.
    assert page.locator("#review-timeline .timeline").count() == len(expected.deals)
    chips = page.locator("#review-timeline .decision")
    assert chips.count() == len(expected.decisions)
    mistakes = [d for d in expected.decisions if d.is_mistake(expected.threshold) and not d.forced]
    assert page.locator("#review-timeline .decision.mistake").count() == len(mistakes)
    assert page.locator("#review-graph circle").count() == len(expected.decisions)
    summary = page.inner_text("#review-summary")
    assert "annabelle:" in summary and "bartholomew:" in summary
    # A decision chosen: its legal actions with the engine's values, the best one named.
    last = len(expected.decisions) - 1
    chips.nth(last).click()
    decision = expected.decisions[last]
    # The board steps to the position the move was chosen in.
    frames = replay(match.to_json())["frames"]
    start = next(i for i, f in enumerate(frames) if f["deal_number"] == decision.deal)
    assert frames[start + decision.ply + 1]["action"] == str(decision.action)
    step = start + decision.ply
    assert page.inner_text("#replay-step") == f"step {step} of {len(frames) - 1}"
    rows = page.locator("#review-values tr")
    assert rows.count() == 1 + len(decision.legal)
    best = page.inner_text("#review-values tr.best")
    assert "best" in best
    assert f"{decision.values_info[decision.legal.index(decision.best)]:+.2f}".lstrip("+-") in best
    width_fits(page, "the Review of a saved match")
    # A bank session has no moves to review.
    session = tmp_path / "bank.json"
    from ecarte import bank

    table = bank.Table(["a", "b"], bank=100, chips=100, seed=3)
    session.write_text(table.to_json())
    page.set_input_files("#record-file", str(session))
    until(page, lambda: page.locator("#review").count() == 0)
    assert page.is_disabled("#replay-review")
    assert not errors
    context.close()
