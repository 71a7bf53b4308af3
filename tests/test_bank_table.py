"""The banking table: settlement rules, limits, the second bank, passing, run-outs, records."""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

import pytest
from ecarte import (
    EcarteError,
    InvalidRecordError,
    InvalidRulesError,
    InvalidStakeError,
    TableError,
    bank,
)
from ecarte._core import shoe_pack

# A rigged deal names only the trumps of each tableau (ranks); the rest is filled with
# non-trumps. T1 holds the king of trumps in most deals.
BANKER = "K"
PUNTER_WINS = "A"  # the ace takes the king: 0-1
BANKER_WINS = ""  # no trump: the king takes a trick alone: 1-0
EN_CARTE = "K"  # the kings cancel: 0-0
SUITS = "HSDC"
# Padding cards: never a rank the rigged trumps use.
FILLERS = [r + s for r in "345689TJ" for s in "CDHS"]


def order_for(deals: list[tuple[str, str, str, str]]) -> list[str]:
    """A 104-card shoe whose first deals are `deals` (trump ranks of T1..T4). Deal i turns up
    the seven of suit SUITS[i % 4]; tableaux are padded with non-trumps; the rest of the
    shoe follows in pack order."""
    left = Counter(str(c) for c in shoe_pack())
    top: list[str] = []

    def take(card: str) -> str:
        assert left[card] > 0, f"a rigged shoe uses {card} more than twice"
        left[card] -= 1
        return card

    for i, ranks in enumerate(deals):
        trump = SUITS[i % 4]
        cols = []
        for r in ranks:
            col = [take(x + trump) for x in r]
            while len(col) < 4:
                col.append(take(next(c for c in FILLERS if left[c] > 0 and c[1] != trump)))
            cols.append(col)
        top += [cols[t][k] for k in range(4) for t in range(4)]
        top.append(take("7" + trump))
    return top + [c for c, n in sorted(left.items()) for _ in range(n)]


def table(deals: list[tuple[str, str, str, str]], **kw: Any) -> bank.Table:
    # These rigged deals test settlement; the obligation to stake T2/T3 has its own tests.
    kw.setdefault("obliged", False)
    kw.setdefault("bank", 50)
    kw.setdefault("fixed_stake", 10)
    kw.setdefault("chips", 100)
    return bank.Table(["ann", "bob", "cy", "dee"], shoe=order_for(deals), **kw)


def test_settlement_order_is_t2_t3_t4_then_placing_order() -> None:
    t = table([(BANKER, PUNTER_WINS, BANKER_WINS, PUNTER_WINS)])
    t.deal()
    t.stake("dee", 4, 5)
    t.stake("cy", 3, 10)
    t.stake("bob", 4, 7)
    t.stake("bob", 2, 10)
    assert [r.outcome for r in t.reveal()] == ["punter", "banker", "punter"]
    s = t.settle()
    assert [(x.player, x.tableau) for x in s] == [("bob", 2), ("cy", 3), ("dee", 4), ("bob", 4)]
    assert [x.result for x in s] == ["won", "lost", "won", "won"]
    assert t.chips == {"ann": 50, "bob": 117, "cy": 90, "dee": 105}
    assert t.bank == 50 - 10 + 10 - 5 - 7


def test_losses_feed_the_bank_before_the_next_stake() -> None:
    # Bank 50: T3 loses 10 first, so the 50 on T4 is covered (50 < 60) and nothing breaks.
    t = table([(BANKER, BANKER_WINS, BANKER_WINS, PUNTER_WINS)])
    t.deal()
    t.stake("bob", 3, 10)
    t.stake("cy", 4, 50)
    t.reveal()
    s = t.settle()
    assert [x.result for x in s] == ["lost", "won"]
    assert (t.bank, t.phase) == (10, "ready")
    assert t.chips["cy"] == 150


def test_a_break_voids_later_stakes() -> None:
    t = table([(BANKER, PUNTER_WINS, BANKER_WINS, PUNTER_WINS)], bank=10)
    t.deal()
    t.stake("bob", 2, 10)
    t.stake("cy", 3, 10)
    t.stake("dee", 4, 10)
    t.reveal()
    s = t.settle()
    assert [(x.result, x.paid) for x in s] == [("won", 10), ("returned", 0), ("returned", 0)]
    assert (t.bank, t.phase) == (0, "broken")
    assert t.chips == {"ann": 90, "bob": 110, "cy": 100, "dee": 100}
    with pytest.raises(TableError, match="broken"):
        t.deal()


def test_a_win_above_the_bank_takes_only_the_bank() -> None:
    # The fixed stake 30 exceeds the bank 20: the winner takes the bank, 20, and breaks it.
    t = table([(BANKER, PUNTER_WINS, BANKER_WINS, PUNTER_WINS)], bank=20, fixed_stake=30)
    t.deal()
    t.stake("bob", 2, 30)
    t.reveal()
    assert [(x.result, x.paid) for x in t.settle()] == [("won", 20)]
    assert t.phase == "broken" and t.chips["bob"] == 120 and t.bank == 0


def test_en_carte_returns_the_stake() -> None:
    t = table([(BANKER, EN_CARTE, BANKER_WINS, "Q2")])  # KH vs QH 2H: 1-1
    t.deal()
    t.stake("bob", 2, 10)
    t.stake("dee", 4, 40)
    t.reveal()
    assert [x.result for x in t.settle()] == ["en_carte", "en_carte"]
    assert t.chips == {"ann": 50, "bob": 100, "cy": 100, "dee": 100} and t.bank == 50


def test_banking_mode_limits_and_bad_stakes_change_nothing() -> None:
    t = table([(BANKER, PUNTER_WINS, BANKER_WINS, PUNTER_WINS)])
    t.deal()
    t.stake("dee", 4, 30)
    before = (t.stakes, t.chips, t.bank, t.phase)
    bad: list[tuple[Any, Any, Any, type[EcarteError], str]] = [
        ("bob", 2, 11, InvalidStakeError, "fixed stake 10"),
        ("bob", 3, 5, InvalidStakeError, "fixed stake 10"),
        ("bob", 4, 21, InvalidStakeError, "at most the bank"),
        ("bob", 1, 10, InvalidStakeError, "T1"),
        ("bob", 5, 10, InvalidStakeError, "2, 3 or 4"),
        ("bob", 4, 0, InvalidStakeError, "positive"),
        ("bob", 4, -3, InvalidStakeError, "positive"),
        ("bob", 4, 2.5, InvalidStakeError, "whole"),
        ("bob", 4, 2.0, InvalidStakeError, "whole"),
        ("bob", 4, True, InvalidStakeError, "whole"),
        ("zed", 4, 5, TableError, "unknown player"),
        ("ann", 4, 5, TableError, "holds the bank"),
    ]
    for player, tab, amount, error, text in bad:
        with pytest.raises(error, match=text):
            t.stake(player, tab, amount)
        assert (t.stakes, t.chips, t.bank, t.phase) == before
    t.stake("bob", 4, 20)  # exactly up to the bank
    t.reveal()
    with pytest.raises(TableError, match="revealed"):
        t.stake("cy", 2, 10)
    with pytest.raises(TableError, match="revealed"):
        t.reveal()


def test_a_stake_beyond_the_players_chips_is_refused() -> None:
    t = table(
        [(BANKER, PUNTER_WINS, BANKER_WINS, PUNTER_WINS)],
        chips={"ann": 100, "bob": 15, "cy": 0, "dee": 9},
    )
    t.deal()
    t.stake("bob", 2, 10)
    with pytest.raises(InvalidStakeError, match="5 free chips"):
        t.stake("bob", 3, 10)
    with pytest.raises(InvalidStakeError, match="0 free chips"):
        t.stake("cy", 4, 1)


def test_open_mode_pays_without_limit() -> None:
    t = table([(BANKER, PUNTER_WINS, BANKER_WINS, PUNTER_WINS)], mode="open", chips=100)
    assert t.bank == 0
    t.deal()
    t.stake("bob", 2, 7)
    t.stake("cy", 3, 13)
    t.stake("dee", 4, 100)
    t.reveal()
    assert [x.result for x in t.settle()] == ["won", "lost", "won"]
    assert t.chips == {"ann": 100 - 7 + 13 - 100, "bob": 107, "cy": 87, "dee": 200}
    assert t.phase == "ready" and t.total_chips == 400


def _break(t: bank.Table) -> None:
    t.deal()
    t.stake("bob", 2, 10)
    t.reveal()
    t.settle()


def test_the_second_bank_and_the_responsible_bank() -> None:
    win = (BANKER, PUNTER_WINS, BANKER_WINS, BANKER_WINS)
    t = table([win, win, win, win], bank=10)
    _break(t)
    assert t.phase == "broken" and t.bank_number == 1
    with pytest.raises(TableError, match="second bank"):
        t.declare_responsible()
    with pytest.raises(InvalidStakeError, match="cannot stake a bank of 1000"):
        t.restake_bank(1000)
    assert t.restake_bank() == 10
    _break(t)
    assert t.phase == "broken" and t.bank_number == 2
    with pytest.raises(TableError, match="broken too"):
        t.restake_bank()
    t.declare_responsible()
    assert t.responsible and t.banker == "ann"
    t.deal()
    t.stake("bob", 2, 10)
    t.stake("cy", 4, 500 // 10)  # no bank limit on T4 for a responsible bank
    t.reveal()
    t.settle()
    assert t.phase == "ready" and t.chips["ann"] == 80 - 10 + 50
    assert t.total_chips == 400


def test_passing_the_bank_after_the_second_break() -> None:
    win = (BANKER, PUNTER_WINS, BANKER_WINS, BANKER_WINS)
    t = table([win, win, win], bank=10)
    _break(t)
    t.restake_bank()
    _break(t)
    assert t.pass_bank() == "bob"
    assert t.bank == 10 and t.chips["bob"] == 120 - 10 and t.chips["ann"] == 80
    assert t.bank_number == 1 and t.phase == "ready"
    with pytest.raises(TableError, match="holds the bank"):
        t.deal() and t.stake("bob", 2, 10)


def test_passing_the_bank_after_two_run_outs_and_the_run_out_count() -> None:
    t = bank.Table(["ann", "bob", "cy"], seed=5, obliged=False)
    seen: list[tuple[int, int, str]] = []
    for _ in range(13):
        t.deal()
        t.reveal()
        t.settle()
        seen.append((t.deals_played, t.run_outs, t.banker))
    # 104 = 6 x 17 + 2: the 7th and the 13th deal each run the shoe out.
    assert [r for _, r, _ in seen] == [0] * 6 + [1] * 6 + [2]
    assert [b for _, _, b in seen] == ["ann"] * 12 + ["bob"]
    assert t.banker_run_outs == 0 and t.chips["ann"] == 1000 and t.bank == 100


def test_shuffle_rest_rules() -> None:
    t = bank.Table(["ann", "bob"], seed=1, obliged=False)
    with pytest.raises(TableError, match="after a deal"):
        t.shuffle_rest("bob")
    t.deal()
    with pytest.raises(TableError, match="staking"):
        t.shuffle_rest("bob")
    t.reveal()
    t.settle()
    with pytest.raises(TableError, match="holds the bank"):
        t.shuffle_rest("ann")
    with pytest.raises(TableError, match="unknown player"):
        t.shuffle_rest("zed")
    discards = t.discards
    assert t.shuffle_rest("bob", seed=99) == 99
    assert t.discards == discards
    with pytest.raises(TableError, match="already shuffled"):
        t.shuffle_rest("bob")


def test_bad_configurations() -> None:
    for kw in (
        {"players": ["solo"]},
        {"players": ["a", "a"]},
        {"players": ["a", "b"], "mode": "closed"},
        {"players": ["a", "b"], "bank": 0},
        {"players": ["a", "b"], "banker": 2},
        {"players": ["a", "b"], "bank": 2000},
    ):
        with pytest.raises(InvalidRulesError):
            bank.Table(**kw)


def test_record_is_versioned_json_and_replays() -> None:
    t = table([(BANKER, PUNTER_WINS, BANKER_WINS, PUNTER_WINS)])
    t.deal()
    t.stake("bob", 2, 10)
    t.reveal()
    t.settle()
    t.shuffle_rest("cy")
    rec = json.loads(t.to_json())
    assert rec["format"] == "ecarte.bank.session" and rec["version"] == 1
    assert rec["deals"][0]["trump_card"] == "7H"
    assert rec["deals"][0]["tableaux"][0][0] == "KH"
    again = bank.Table.from_json(t.to_json())
    assert again.ledger == t.ledger and again.to_json() == t.to_json()
    rec["deals"][0]["settlements"][0]["paid"] = 999
    with pytest.raises(InvalidRecordError, match="differ"):
        bank.Table.from_json(json.dumps(rec))
    with pytest.raises(InvalidRecordError):
        bank.Table.from_json('{"format": "ecarte.bank.session", "version": 2}')
    with pytest.raises(InvalidRecordError):
        bank.Table.from_json("not json")


def table_state(t: bank.Table) -> tuple[Any, ...]:
    return (t.phase, t.stakes, t.chips, t.bank, t.remaining, t.discards, t.to_json())


def test_one_fixed_stake_per_punter_per_tableau() -> None:
    # Issue 10: one punter staked the "fixed" 10 on T2 nine times and drained a bank of 100.
    t = bank.Table(["ann", "bob", "cy"], bank=100, fixed_stake=10, chips=1000, seed=3)
    t.deal()
    t.stake("bob", 2, 10)
    before = table_state(t)
    for _ in range(8):
        with pytest.raises(InvalidStakeError, match="fixed stake on T2 already"):
            t.stake("bob", 2, 10)
        assert table_state(t) == before
    t.stake("bob", 3, 10)  # one on each of T2 and T3
    with pytest.raises(InvalidStakeError, match="T3 already"):
        t.stake("bob", 3, 10)
    t.stake("cy", 2, 10)  # another punter may place theirs
    t.stake("bob", 4, 30)  # T4 keeps its own limit: the bank
    t.stake("bob", 4, 20)
    assert [(s.player, s.tableau) for s in t.stakes] == [
        ("bob", 2),
        ("bob", 3),
        ("cy", 2),
        ("bob", 4),
        ("bob", 4),
    ]


def test_open_mode_has_no_fixed_stake_limit() -> None:
    t = bank.Table(["ann", "bob"], mode="open", chips=100, seed=3)
    assert not t.obliged
    t.deal()
    t.stake("bob", 2, 7)
    t.stake("bob", 2, 9)
    t.reveal()


def test_the_obligation_to_stake_t2_and_t3() -> None:
    t = bank.Table(["ann", "bob", "cy"], bank=100, fixed_stake=10, chips=100, seed=3)
    assert t.obliged and json.loads(t.to_json())["config"]["obliged"] is True
    t.deal()
    before = table_state(t)
    with pytest.raises(TableError, match="T2 needs its fixed stake of 10"):
        t.reveal()
    assert table_state(t) == before
    t.stake("bob", 2, 10)
    before = table_state(t)
    with pytest.raises(TableError, match=r"T3 needs its fixed stake.*\(bob or cy can place it\)"):
        t.reveal()
    assert table_state(t) == before
    t.stake("cy", 3, 10)
    t.stake("cy", 4, 50)
    assert len(t.reveal()) == 3
    t.settle()
    assert bank.Table.from_json(t.to_json()).ledger == t.ledger


def test_t4_takes_stakes_only_once_t2_and_t3_carry_theirs() -> None:
    # docs/rules.md, "Stake limits": the first and second punters are obliged, the last
    # stakes within the bank. Without the rule, bob could stake everything on T4 first.
    shoe = bank.Shoe(1).undealt
    chips = {"ann": 500, "bob": 30}
    t = bank.Table(["ann", "bob"], bank=200, fixed_stake=10, chips=chips, shoe=shoe)
    t.deal()
    before = table_state(t)
    with pytest.raises(InvalidStakeError, match=r"T4 takes stakes once T2 and T3.*T2 needs"):
        t.stake("bob", 4, 30)
    assert table_state(t) == before
    t.stake("bob", 2, 10)
    with pytest.raises(
        InvalidStakeError, match=r"T3 needs its fixed stake of 10.*\(bob can place it\)"
    ):
        t.stake("bob", 4, 20)
    t.stake("bob", 3, 10)
    t.stake("bob", 4, 10)  # now within the rule, and within the bank and bob's chips
    assert [s.tableau for s in t.stakes] == [2, 3, 4]
    # Nobody can afford the fixed stake: T4 is open at once (judged on free chips now).
    t = bank.Table(
        ["ann", "bob", "cy"], bank=50, fixed_stake=10, chips={"ann": 100, "bob": 9, "cy": 0}
    )
    t.deal()
    t.stake("bob", 4, 9)
    t.reveal()
    # Lifting the obligation lifts the order; open mode has no fixed stake at all.
    for kw in ({"obliged": False}, {"mode": "open"}):
        t = bank.Table(["ann", "bob"], chips=100, bank=50, seed=2, **kw)  # type: ignore[arg-type]
        t.deal()
        t.stake("bob", 4, 20)


def test_the_obligation_is_waived_when_no_punter_can_afford_it() -> None:
    chips = {"ann": 100, "bob": 15, "cy": 9}
    t = bank.Table(["ann", "bob", "cy"], bank=50, fixed_stake=10, chips=chips, seed=3)
    t.deal()
    t.stake("bob", 3, 10)  # bob has 5 free chips left, cy 9: nobody can cover T2
    t.reveal()
    t = bank.Table(
        ["ann", "bob", "cy"], bank=50, fixed_stake=10, chips={"ann": 100, "bob": 0, "cy": 0}, seed=3
    )
    t.deal()
    t.reveal()


def test_the_obligation_is_a_table_option() -> None:
    t = bank.Table(["ann", "bob"], obliged=False, seed=3)
    assert not t.obliged and json.loads(t.to_json())["config"]["obliged"] is False
    t.deal()
    t.reveal()
    assert bank.Table(["ann", "bob"], mode="open").obliged is False
    with pytest.raises(InvalidRulesError, match="banking mode"):
        bank.Table(["ann", "bob"], mode="open", obliged=True)
    with pytest.raises(InvalidRulesError, match="obliged"):
        bank.Table(["ann", "bob"], obliged=1)  # type: ignore[arg-type]


def test_the_punter_view_hides_the_tableaux_until_the_reveal() -> None:
    t = bank.Table(["ann", "bob", "cy"], seed=11)
    empty = t.punter_view()
    assert (empty.trump_card, empty.tableaux, empty.results, empty.phase) == (
        None,
        None,
        None,
        "ready",
    )
    view = t.deal()
    assert isinstance(view, bank.PunterView) and not isinstance(view, bank.Deal)
    deal = t.deal_in_play  # the dealer's all-seeing view, for tests
    assert deal is not None
    assert view.trump_card == deal.trump_card and view.phase == "staking"
    assert view.tableaux is None and view.results is None
    assert view.stakes == () and view.banker == "ann" and view.bank == 100
    t.stake("bob", 2, 10)
    t.stake("cy", 3, 10)
    view = t.punter_view()
    assert view.tableaux is None and view.stakes == tuple(t.stakes)
    assert view.free_chips("bob") == 990
    with pytest.raises(TypeError):
        view.chips["bob"] = 5  # type: ignore[index]
    results = t.reveal()
    shown = t.punter_view()
    assert shown.tableaux == tuple(tuple(x) for x in deal.tableaux)
    assert shown.results == tuple(results)
    t.settle()
    after = t.punter_view()
    assert after.tableaux == shown.tableaux and after.phase == "ready"
    assert t.deal().tableaux is None  # the next deal is face down again


def test_a_punter_may_shuffle_after_a_restake() -> None:
    # docs/rules.md, "Bank": the restake spares the banker a reshuffle; it does not take away
    # the punter's right to shuffle after the deal.
    win = (BANKER, PUNTER_WINS, BANKER_WINS, BANKER_WINS)
    t = table([win, win], bank=10)
    _break(t)
    with pytest.raises(TableError, match="broken"):
        t.shuffle_rest("bob")  # the banker decides first
    t.restake_bank()
    undealt = sorted(str(c) for c in t._shoe.undealt)
    assert t.shuffle_rest("bob", seed=5) == 5
    assert sorted(str(c) for c in t._shoe.undealt) == undealt
    with pytest.raises(TableError, match="already shuffled"):
        t.shuffle_rest("cy")
    again = bank.Table.from_json(t.to_json())
    assert again.to_json() == t.to_json()
