"""The step API's fast paths: interned actions, ``legal_action_ids`` and
``apply`` on ids and ``Action`` objects keep the general path's results and errors."""

from __future__ import annotations

import random

import pytest
from ecarte import IllegalActionError, InvalidActionError
from ecarte.duel import Action, Deal


def test_legal_actions_are_interned_and_match_the_ids() -> None:
    rng = random.Random(4)
    for seed in range(30):
        deal = Deal(seed=seed)
        while not deal.is_over():
            actions = deal.legal_actions()
            again = deal.legal_actions()
            assert all(a is b for a, b in zip(actions, again, strict=True))
            assert deal.legal_action_ids() == [a.id for a in actions]
            assert actions == sorted(actions, key=lambda a: a.id)
            assert all(a is Action.from_id(a.id) or a == Action.from_id(a.id) for a in actions)
            deal.apply(rng.choice(actions))
        assert deal.legal_actions() == [] and deal.legal_action_ids() == []


@pytest.mark.parametrize("form", ["action", "id", "text", "subclass-int"])
def test_every_form_applies_the_same(form: str) -> None:
    rng = random.Random(5)
    a, b = Deal(seed=9), Deal(seed=9)
    while not a.is_over():
        action = rng.choice(a.legal_actions())
        given: object = {
            "action": action,
            "id": action.id,
            "text": str(action),
            "subclass-int": type("MyInt", (int,), {})(action.id),
        }[form]
        a.apply(given)
        b.apply(Action.parse(str(action)))
        assert a == b and a.history == b.history


def test_refusals_keep_their_errors_and_change_nothing() -> None:
    deal = Deal(seed=3)
    deal.apply("decline")
    before = deal.copy()
    legal = set(deal.legal_action_ids())
    illegal_id = next(i for i in range(32) if i not in legal)
    with pytest.raises(IllegalActionError, match="legal actions"):
        deal.apply(illegal_id)
    with pytest.raises(IllegalActionError, match="legal actions"):
        deal.apply(Action.from_id(illegal_id))
    with pytest.raises(IllegalActionError):
        deal.apply(Action("propose"))
    for bad in (68, -1, 2**64, 2**200, 1.0, None, "nonsense", b"QH", [0]):
        with pytest.raises(InvalidActionError, match="legal actions"):
            deal.apply(bad)
    assert deal == before and deal.history == before.history


def test_a_bool_is_no_action_id() -> None:
    """``True`` is an ``int`` subclass, but not an id: the fast path must not take it."""
    deal = Deal(seed=3)
    deal.apply("decline")
    before = deal.copy()
    for flag in (False, True):
        with pytest.raises(InvalidActionError):
            deal.apply(flag)
    assert deal == before
