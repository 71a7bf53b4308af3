"""``duel.solve(bound=, max_nodes=)``: a bound test answers as the exact value does, a node
budget gives up within itself and with a clear result, and the engine protocol's ``solve``
offers both."""

from __future__ import annotations

import pytest
from ecarte import Stream, duel
from ecarte.bench.positions import opening_position
from ecarte.errors import EcarteError
from ecarte.protocol import Client, Session
from hypothesis import given, settings
from hypothesis import strategies as st


def play_position(seed: int, exchanges: int, plays: int, order: str) -> duel.Deal:
    """The deal of ``seed`` after up to ``exchanges`` exchanges and ``plays`` cards played,
    discards and plays drawn from the seed's stream."""
    pick = Stream(seed)
    deal = opening_position(seed, seed % 2, exchanges, pick, duel.Rules(order=order))
    for _ in range(plays):
        if deal.is_over():
            break
        deal.apply(pick.choice(deal.legal_actions()))
    return deal


positions = st.builds(
    play_position,
    seed=st.integers(0, 2**63 - 1),
    exchanges=st.integers(0, 11),
    plays=st.integers(0, 9),
    order=st.sampled_from(["ecarte", "traditional"]),
).filter(lambda d: not d.is_over())


@settings(max_examples=150, deadline=None)
@given(deal=positions, objective=st.sampled_from(["points", "cards"]))
def test_a_bound_test_agrees_with_the_value(deal: duel.Deal, objective: str) -> None:
    value = duel.solve(deal, objective).value
    for bound in range(-3, 34):
        test = duel.solve(deal, objective, bound=bound)
        assert isinstance(test, duel.BoundTest)
        assert (test.bound, test.at_least) == (bound, value >= bound), (bound, value)
    # Bounds no result can fail or reach need no search.
    assert duel.solve(deal, objective, bound=-(2**31)).nodes == 0
    assert not duel.solve(deal, objective, bound=2**31 - 1).at_least


@settings(max_examples=60, deadline=None)
@given(deal=positions, objective=st.sampled_from(["points", "cards"]))
def test_a_node_budget_gives_up_within_it(deal: duel.Deal, objective: str) -> None:
    full = duel.solve(deal, objective)
    assert duel.solve(deal, objective, max_nodes=full.nodes) == full
    assert duel.solve(deal, objective, max_nodes=2**64 - 1) == full
    for budget in {0, full.nodes // 2, full.nodes - 1}:
        if not 0 <= budget < full.nodes:
            continue
        gave_up = duel.solve(deal, objective, max_nodes=budget)
        assert isinstance(gave_up, duel.GaveUp), (budget, full.nodes)
        assert gave_up.max_nodes == budget and gave_up.nodes <= budget
        # Nothing of the abandoned search is left behind.
        assert duel.solve(deal, objective) == full
    test = duel.solve(deal, objective, bound=1)
    if test.nodes:
        short = duel.solve(deal, objective, bound=1, max_nodes=test.nodes - 1)
        assert isinstance(short, duel.GaveUp) and short.nodes < test.nodes
        assert duel.solve(deal, objective, bound=1, max_nodes=test.nodes) == test


def test_the_results_read_clearly() -> None:
    deal = play_position(5, 2, 0, "ecarte")
    full = duel.solve(deal)
    assert repr(duel.solve(deal, bound=1)).startswith("BoundTest(bound=1, at_least=")
    assert repr(duel.solve(deal, max_nodes=0)) == "GaveUp(nodes=0, max_nodes=0)"
    assert duel.solve(deal, max_nodes=None) == full and duel.solve(deal, bound=None) == full


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"max_nodes": -1}, "max_nodes"),
        ({"max_nodes": 2**64}, "max_nodes"),
        ({"max_nodes": True}, "max_nodes"),
        ({"bound": 2**31}, "bound"),
        ({"bound": "1"}, "bound"),
        ({"bound": 1.0}, "bound"),
    ],
)
def test_bad_limits_are_refused(kwargs: dict[str, object], message: str) -> None:
    deal = play_position(5, 2, 0, "ecarte")
    with pytest.raises(EcarteError, match=message):
        duel.solve(deal, **kwargs)  # type: ignore[call-overload]


def test_outside_the_play_phase_every_form_is_refused() -> None:
    deal = duel.Deal(seed=1)
    for kwargs in ({}, {"bound": 1}, {"max_nodes": 10}):
        with pytest.raises(EcarteError, match="play-phase"):
            duel.solve(deal, **kwargs)  # type: ignore[call-overload]


def test_the_protocol_solve_takes_a_bound_and_a_budget() -> None:
    session, client = Session(), Client()
    count = iter(range(1, 100))

    def ask(**fields: object) -> dict[str, object]:
        return session.handle(client, {"id": next(count), **fields})  # type: ignore[no-any-return]

    game = ask(cmd="new", kind="deal", seed=3)["result"]["game"]  # type: ignore[index]
    ask(cmd="apply", game=game, action="decline")
    reference = duel.Deal(seed=3)
    reference.apply("decline")
    full = duel.solve(reference)
    test = ask(cmd="solve", game=game, bound=2)
    expected = duel.solve(reference, bound=2)
    assert test["result"] == {"bound": 2, "at_least": expected.at_least, "nodes": expected.nodes}
    gave_up = ask(cmd="solve", game=game, max_nodes=full.nodes - 1)["result"]
    assert gave_up["gave_up"] is True and gave_up["max_nodes"] == full.nodes - 1  # type: ignore[index]
    assert 0 < gave_up["nodes"] <= full.nodes - 1  # type: ignore[index]
    whole = ask(cmd="solve", game=game, max_nodes=full.nodes)["result"]
    assert whole == {
        "value": full.value,
        "best_actions": [str(a) for a in full.best_actions],
        "nodes": full.nodes,
    }
    for bad in ({"max_nodes": -1}, {"bound": "x"}, {"bound": 1, "values": True}):
        refused = ask(cmd="solve", game=game, **bad)
        assert not refused["ok"] and refused["error"]["type"] == "ProtocolError"  # type: ignore[index]
