"""The one agent registry (``duel.AGENTS``, ``rust/src/play/registry.rs``): every face that
names, makes, costs or times a built-in agent reads it, so none can miss one."""

from __future__ import annotations

import pickle
import subprocess
import sys
import time
from typing import Any

import pytest
from cli_support import run_ecarte
from ecarte import arena, duel
from ecarte.agents import (
    BuiltinAgent,
    ExpertAgent,
    GrandmasterAgent,
    MasterAgent,
    PimcAgent,
    RandomAgent,
    make_agent,
)
from ecarte.errors import EcarteError
from ecarte.protocol import Client, Session

SEARCH_AGENTS = [agent for agent in duel.AGENTS if agent.searches]


def test_the_registry_is_the_grammar_and_the_levels() -> None:
    assert [a.name for a in duel.AGENTS] == [
        "random",
        "heuristic",
        "pimc",
        "expert",
        "master",
        "grandmaster",
    ]
    assert duel.AGENT_SPECS == tuple(form for a in duel.AGENTS for form in a.specs)
    assert dict(duel.LEVELS) == {level: spec for a in duel.AGENTS for level, spec in a.levels}
    assert list(duel.LEVELS) == ["easy", "medium", "hard", "expert", "master", "grandmaster"]
    with pytest.raises(TypeError):
        duel.LEVELS["easy"] = "random"  # type: ignore[index]
    for agent in duel.AGENTS:
        assert duel.AgentInfo.of(agent.name) == agent and agent.description
        assert pickle.loads(pickle.dumps(agent)) == agent
        assert (agent.default_worlds is not None) == agent.searches
        assert (agent.max_worlds is not None) == agent.searches
        assert duel.parse_agent(agent.name) == (agent.name, agent.default_worlds)
        if agent.searches:
            assert duel.AgentInfo.of(f"{agent.name}:3") == agent
            assert duel.parse_agent(f"{agent.name}:3") == (agent.name, 3)
            with pytest.raises(EcarteError, match=f"1 to {agent.max_worlds}"):
                duel.parse_agent(f"{agent.name}:{agent.max_worlds + 1}")
        else:
            with pytest.raises(EcarteError, match="unknown agent"):
                duel.parse_agent(f"{agent.name}:3")
    with pytest.raises(EcarteError) as unknown:
        duel.AgentInfo.of("oracle")
    assert all(form in str(unknown.value) for form in duel.AGENT_SPECS)


def test_make_agent_makes_every_agent_of_the_registry() -> None:
    classes: dict[str, type[BuiltinAgent]] = {"random": RandomAgent, "pimc": PimcAgent}
    classes |= {"expert": ExpertAgent, "master": MasterAgent, "grandmaster": GrandmasterAgent}
    for agent in duel.AGENTS:
        made = make_agent(agent.name, 5)
        assert type(made) is classes.get(agent.name, type(made))
        assert isinstance(made, BuiltinAgent) and made.seed == 5
        assert made.samples == agent.default_worlds
        if agent.searches:
            assert make_agent(f"{agent.name}:7", 5).spec == f"{agent.name}:7"
    assert repr(PimcAgent(seed=1)) == "PimcAgent(samples=24, seed=1)"
    assert MasterAgent(samples=3, seed=2).spec == "master:3"
    with pytest.raises(EcarteError, match="samples must be from 1"):
        ExpertAgent(samples=0)


def test_the_package_exports_every_agent_class_on_first_use() -> None:
    """``ecarte.MasterAgent`` and the others: every agent class of ``ecarte.agents`` (the
    class each agent of the registry is made as), and only those, loaded on first use."""
    import ecarte
    from ecarte import agents

    classes = {type(make_agent(agent.name, 1)).__name__ for agent in duel.AGENTS}
    defined = {
        name
        for name in agents.__all__
        if isinstance(cls := getattr(agents, name), type)
        and issubclass(cls, BuiltinAgent)
        and cls is not BuiltinAgent
    }
    assert {name for name in ecarte.__all__ if name.endswith("Agent")} == defined == classes
    for name in classes:
        assert getattr(ecarte, name) is getattr(agents, name)
    code = (
        "import sys, ecarte\n"
        "print('ecarte.agents' in sys.modules)\n"
        "ecarte.MasterAgent\n"
        "print('ecarte.agents' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["False", "True"]


def test_chunk_costs_come_from_the_registry_for_every_agent() -> None:
    for agent in duel.AGENTS:
        spec = agent.name
        worlds = agent.default_worlds or 1
        expected = 2 * agent.deal_seconds * worlds * duel.DEALS_PER_MATCH
        assert duel.simulate_item_seconds((spec, spec), True) == pytest.approx(expected)
        # The local native arena sizes its pieces from it: no agent lacks a cost.
        work = arena._native_work(spec, "heuristic", 4, 1, duel.Rules())
        assert work.seconds() > 0 and work.local == "timed"


def go(session: Session, client: Client, **fields: Any) -> tuple[dict[str, Any], float]:
    started = time.perf_counter()
    response = session.handle(client, {"id": 1, "cmd": "go", **fields})
    assert response["ok"], response
    return response["result"], time.perf_counter() - started


@pytest.mark.parametrize("agent", SEARCH_AGENTS, ids=lambda a: a.name)
def test_go_within_a_time_limit_holds_for_every_search_agent(agent: duel.AgentInfo) -> None:
    session, client = Session(), Client()
    game = session.handle(client, {"id": 0, "cmd": "new", "kind": "deal", "seed": 3})
    limits = [0.01, 0.1] if agent.name == "master" else [0.01]
    for limit in limits:
        thought, took = go(
            session, client, game=game["result"]["game"], agent=f"{agent.name}:2000", time=limit
        )
        assert took <= 2 * limit + 0.05, (limit, took, thought)
        assert thought["agent"] == "heuristic" or thought["agent"].startswith(f"{agent.name}:")


def test_hello_gives_the_registry() -> None:
    hello = Session().handle(Client(), {"id": 1, "cmd": "hello"})["result"]
    assert hello["levels"] == dict(duel.LEVELS)
    assert [a["name"] for a in hello["builtin_agents"]] == [a.name for a in duel.AGENTS]
    for shown, agent in zip(hello["builtin_agents"], duel.AGENTS, strict=True):
        assert shown["levels"] == dict(agent.levels)
        assert (shown["default_worlds"], shown["max_worlds"]) == (
            agent.default_worlds,
            agent.max_worlds,
        )


def test_the_command_line_lists_every_agent_and_level() -> None:
    def help_of(*command: str) -> str:
        return run_ecarte(*command, "--help", timeout=None, check=True).stdout

    arena_help = " ".join(help_of("arena").split())
    for agent in duel.AGENTS:
        assert f"{agent.name} (" in arena_help or f"{agent.name} or {agent.name}:N" in arena_help
    play_help = help_of("play")
    assert "[" + "|".join(duel.LEVELS) + "]" in play_help


def test_arena_takes_an_agent_a_factory_or_a_spec() -> None:
    by_spec = arena.play("random", "heuristic", matches=3, seed=4, progress=False)
    by_agent = arena.play(RandomAgent(seed=3), "heuristic", matches=3, seed=4, progress=False)
    assert by_agent.native and by_agent.deal_win_rate == by_spec.deal_win_rate
    by_factory = arena.play(RandomAgent, "heuristic", matches=3, seed=4, progress=False)
    assert not by_factory.native and by_factory.deal_win_rate == by_spec.deal_win_rate

    def first_legal(observation: duel.Observation, legal: list[duel.Action]) -> duel.Action:
        return legal[0]

    plain = arena.play(first_legal, "random", matches=2, seed=4, progress=False)
    assert plain.agent_a == "first_legal" and plain.pairs == 2
    for bad in (5, None, object()):
        with pytest.raises(TypeError, match=r"an agent spec .* an agent .* an agent factory"):
            arena.play(bad, "heuristic", matches=1)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="takes neither"):
        arena.play(lambda a, b, c: None, "heuristic", matches=1)
    with pytest.raises(EcarteError, match="unknown agent"):
        arena.play("oracle", "heuristic", matches=1)
