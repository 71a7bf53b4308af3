"""The table's legal actions are exactly what its actions accept; its one history replays
for the record, for undo and for every step of a session."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from ecarte import EcarteError, TableError, bank
from ecarte.protocol.games import BankTable
from hypothesis import given, settings
from hypothesis import strategies as st

PLAYERS = ["ann", "bob", "cy", "dee"]


def accepted(t: bank.Table, action: list[Any]) -> bool:
    """Whether the table takes ``action``; taken back at once, or refused with nothing
    changed."""
    before = t.to_json()
    try:
        t.apply(action)
    except EcarteError:
        assert t.to_json() == before, action
        return False
    assert t.undo()[: len(action)] == action
    assert t.to_json() == before, action
    return True


def listed(legal: list[bank.LegalAction], action: list[Any]) -> bool:
    """Whether ``legal`` offers ``action``: its form, and a last argument within bounds."""
    for a in legal:
        n = len(a.action)
        if list(a.action) != action[:n]:
            continue
        rest = action[n:]
        if a.bounds is None:
            return not rest
        if not rest:
            return a.bounds.optional
        return len(rest) == 1 and a.bounds.min <= rest[0] <= a.bounds.max
    return False


def candidates(t: bank.Table, legal: list[bank.LegalAction]) -> list[list[Any]]:
    """Actions to try now: every name for every player, amounts at and beyond each bound."""
    tries: list[list[Any]] = [[name] for name in bank.ACTIONS]
    amounts = {1, t.fixed_stake, t.bank_size + 1}
    for a in legal:
        if a.bounds is not None and a.bounds.argument == "amount":
            amounts |= {a.bounds.min - 1, a.bounds.min, a.bounds.max, a.bounds.max + 1}
    for player in t.players:
        tries += [["shuffle_rest", player], ["shuffle_rest", player, 5]]
        tries += [["stake", player, tableau, x] for tableau in (2, 3, 4) for x in amounts]
    return [*tries, *(["restake_bank", x] for x in amounts)]


def legal_walk(seed: int, mode: bank.Mode, actions: int) -> tuple[bank.Table, list[str]]:
    """A session played by random legal actions, each checked against every candidate;
    the records after each action."""
    rng = random.Random(seed)
    t = bank.Table(
        PLAYERS[: 2 + seed % 3],
        banker=seed % 2,
        bank=20,
        fixed_stake=10,
        chips=rng.choice([25, 60, 200]),
        mode=mode,
        seed=seed,
        obliged=None if seed % 4 else False,
    )
    records = [t.to_json()]
    for _ in range(actions):
        legal = t.legal_actions()
        for action in candidates(t, legal):
            assert accepted(t, action) == listed(legal, action), (action, legal)
        for player in t.players:
            assert t.legal_actions(player) == [a for a in legal if a.player == player]
        # A stake is obliged when T2 or T3 lacks its fixed stake: the reveal waits for it.
        for a in legal:
            staked = any(s.tableau == a.tableau for s in t.stakes)
            assert a.obliged == (t.obliged and a.tableau in (2, 3) and not staked)
        if t.phase == "staking":
            assert any(a.obliged for a in legal) != any(a.name == "reveal" for a in legal)
        if not legal:
            assert t.phase == "over"
            break
        pick = rng.choice(legal)
        value = [] if pick.bounds is None else [rng.randint(pick.bounds.min, pick.bounds.max)]
        t.apply([*pick.action, *(value if pick.name != "shuffle_rest" else [])])
        records.append(t.to_json())
    return t, records


@settings(max_examples=10, deadline=None)
@given(st.integers(0, 2**32), st.sampled_from(["banking", "open"]))
def test_the_legal_actions_are_exactly_what_the_table_accepts(seed: int, mode: bank.Mode) -> None:
    t, records = legal_walk(seed, mode, actions=30)
    # One history: undo walks back through every record the session wrote.
    for record in reversed(records[:-1]):
        t.undo()
        assert t.to_json() == record
    with pytest.raises(TableError, match="nothing to undo"):
        t.undo()


def test_a_punters_bounds_follow_the_fixed_stake_the_bank_and_the_free_chips() -> None:
    t = bank.Table(["ann", "bob", "cy"], bank=50, fixed_stake=10, chips=100, seed=7)
    t.deal()
    stakes = {(a.player, a.tableau): a for a in t.legal_actions() if a.name == "stake"}
    assert set(stakes) == {("bob", 2), ("bob", 3), ("cy", 2), ("cy", 3)}  # T4 waits
    assert all(a.obliged and a.bounds == bank.Bounds("amount", 10, 10) for a in stakes.values())
    assert [a.name for a in t.legal_actions("ann")] == []  # the reveal waits too
    t.stake("bob", 2, 10)
    t.stake("cy", 3, 10)
    t.stake("cy", 4, 30)
    bob = {a.tableau: a for a in t.legal_actions("bob")}
    assert set(bob) == {3, 4} and bob[4].bounds == bank.Bounds("amount", 1, 20)
    assert bob[4].action == ("stake", "bob", 4) and not bob[4].obliged
    assert [a.name for a in t.legal_actions("ann")] == ["reveal"]


def test_a_restake_and_a_shuffle_show_their_bounds() -> None:
    t = bank.Table(["ann", "bob"], bank=100, fixed_stake=10, chips=1000, seed=3)
    while t.phase != "broken":
        t.apply(["deal"] if t.phase == "ready" else ["settle"])
        if t.phase == "staking":
            t.stake("bob", 2, 10)
            t.stake("bob", 3, 10)
            t.stake("bob", 4, t.legal_actions("bob")[0].bounds.max)  # type: ignore[union-attr]
            t.reveal()
    restake = [a for a in t.legal_actions() if a.name == "restake_bank"]
    assert restake[0].bounds == bank.Bounds("amount", 1, t.chips["ann"], True, 100)
    t.restake_bank()
    shuffle = t.legal_actions("bob")
    assert shuffle[0].action == ("shuffle_rest", "bob")
    assert shuffle[0].bounds == bank.Bounds("seed", 0, 2**64 - 1, optional=True)


def test_refusals_name_players_as_a_sentence_does() -> None:
    t = bank.Table(["ann", "bob", "cy"], bank=50, fixed_stake=10, chips=100, seed=7)
    with pytest.raises(TableError) as refused:
        t.stake("bob", 2, 10)
    assert str(refused.value) == "stake: not allowed in phase ready (deal next)"
    t.deal()
    with pytest.raises(TableError) as refused:
        t.reveal()
    message = str(refused.value)
    assert message.endswith("(bob or cy can place it)") and "'" not in message
    with pytest.raises(TableError) as refused:
        t.stake("zed", 2, 10)
    assert "the players are ann, bob and cy" in str(refused.value)
    assert "[" not in str(refused.value)
    with pytest.raises(bank.EcarteError) as refused:
        bank.Table(["ann", "ann", "bob"])
    assert str(refused.value) == "player names must be unique: ann is taken twice"


def test_session_steps_replay_a_record_once_and_check_it() -> None:
    t = bank.Table(["ann", "bob", "cy"], bank=50, chips=100, seed=7)
    for action in (["deal"], ["stake", "bob", 2, 10], ["stake", "cy", 3, 10], ["reveal"]):
        t.apply(action)
    t.settle()
    replayed, steps = bank.session_steps(t.to_json())
    assert replayed.to_json() == t.to_json()
    assert [s.action for s in steps] == [None, *json.loads(t.to_json())["actions"]]
    assert steps[1].view.tableaux is None and steps[4].view.tableaux is not None
    assert steps[-1].view == t.punter_view()
    calls = []
    original = bank.Table.apply

    def counted(self: bank.Table, action: object) -> object:
        calls.append(action)
        return original(self, action)

    bank.Table.apply = counted  # type: ignore[method-assign]
    try:
        bank.session_steps(t.to_json())
    finally:
        bank.Table.apply = original  # type: ignore[method-assign]
    assert len(calls) == 5  # each action replayed once
    tampered = json.loads(t.to_json())
    tampered["deals"][0]["settlements"][0]["paid"] = 999
    with pytest.raises(bank.EcarteError, match="differ"):
        bank.session_steps(json.dumps(tampered))


def test_the_protocol_table_reads_the_phase_machine_and_the_legal_actions() -> None:
    table = BankTable(bank.Table(["ann", "bob"], bank=50, chips=100, seed=7))
    table.apply(None, ["deal"])
    assert table.legal(None) == [
        name for name, rule in bank.ACTION_RULES.items() if rule.phase == "staking"
    ]
    assert table.legal(0) == ["reveal"] and table.legal(1) == ["stake"]
    view = table.view(1)
    assert view["legal_actions"] == [
        {
            "name": "stake",
            "player": "bob",
            "action": ["stake", "bob", tableau],
            "tableau": tableau,
            "bounds": {
                "argument": "amount",
                "min": 10,
                "max": 10,
                "optional": False,
                "default": None,
            },
            "obliged": True,
        }
        for tableau in (2, 3)
    ]
    assert view["legal_actions"] == table.legal_actions(1)
    assert table.view(0)["legal_actions"] == []  # the reveal waits for T2 and T3
    table.apply(None, ["stake", "bob", 2, 10])
    assert json.loads(table.undo(None)) == ["stake", "bob", 2, 10]
    assert table.table.stakes == []
