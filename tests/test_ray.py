"""The Ray backend: identical results to local runs, retries after a dead worker, errors that
name the chunk and seed. One local Ray instance with two CPUs for the module."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest

ray = pytest.importorskip("ray")

from ecarte import EcarteError, bank, duel  # noqa: E402
from ecarte.agents import HeuristicAgent, make_agent  # noqa: E402
from ecarte.arena import ArenaResult, play  # noqa: E402
from ecarte.distributed import RayBackend, chunk_size, chunks  # noqa: E402
from ecarte.duel import Action, Deal, Observation  # noqa: E402


@pytest.fixture(scope="session")
def cluster() -> Iterator[None]:
    started = not ray.is_initialized()
    if started:
        # A new local instance, even if a stale cluster file names another.
        ray.init(
            address="local",
            num_cpus=2,
            include_dashboard=False,
            logging_level="ERROR",
            log_to_driver=False,
        )
    # The agents below live in this test module, which the workers cannot import.
    ray.cloudpickle.register_pickle_by_value(sys.modules[__name__])
    yield
    if started:
        ray.shutdown()


def on_ray(chunk: int | None = None, **options: Any) -> RayBackend:
    return RayBackend(chunk_size=chunk, **options)


# -- chunking -------------------------------------------------------------------------------


def test_chunks_cover_every_index_once() -> None:
    for total, size, align in [(10, 3, 1), (10, 10, 1), (1, 5, 1), (9000, 100, 4096), (0, 2, 1)]:
        pieces = chunks(total, size, align)
        assert [c.index for c in pieces] == list(range(len(pieces)))
        assert [i for c in pieces for i in range(c.start, c.start + c.n)] == list(range(total))
        assert all(c.start % align == 0 for c in pieces)


def test_chunk_size_balances_and_bounds_overhead() -> None:
    assert chunk_size(1000, 1.0, 2) == 125  # slow items: four chunks per CPU
    assert chunk_size(10**6, 1e-6, 64) == 75_000  # fast items: 75 ms of work per task
    assert chunk_size(10, 1e-6, 64) == 10
    assert chunk_size(10**6, 1e-7, 2, align=4096) % 4096 == 0


# -- identical results -----------------------------------------------------------------------


@pytest.mark.parametrize("seed", [1, 7, 2**64 - 1])
@pytest.mark.parametrize("chunk", [None, 7, 40])
def test_simulate_deals(cluster: None, seed: int, chunk: int | None) -> None:
    agents = ("heuristic", "random")
    local = duel.simulate(60, seed, agents, start=5)
    assert duel.simulate(60, seed, agents, start=5, backend=on_ray(chunk)) == local


@pytest.mark.parametrize("chunk", [1, 3])
def test_simulate_pimc_deals_and_matches(cluster: None, chunk: int) -> None:
    agents = ("pimc:4", "heuristic")
    rules = duel.Rules(target=2)
    for matches, n in ((False, 4), (True, 2)):
        local = duel.simulate(n, 11, agents, rules, matches=matches)
        remote = duel.simulate(n, 11, agents, rules, matches=matches, backend=on_ray(chunk))
        assert remote == local


def test_simulate_matches_by_name(cluster: None) -> None:
    local = duel.simulate(20, 3, ("random", "heuristic"), matches=True)
    assert duel.simulate(20, 3, ("random", "heuristic"), matches=True, backend="ray") == local


@pytest.mark.parametrize("seed", [0, 5])
@pytest.mark.parametrize("chunk", [None, 4096, 8192])
def test_bank_simulate(cluster: None, seed: int, chunk: int | None) -> None:
    n = 3 * 4096 + 100
    local = bank.simulate(n, seed)
    remote = bank.simulate(n, seed, backend=on_ray(chunk))
    assert remote == local
    assert remote.summary == local.summary


def test_bank_simulate_with_a_shoe_and_odd_chunk(cluster: None) -> None:
    shoe = [str(c) for c in bank.Shoe(3).undealt[:60]]
    local = bank.simulate(5000, 9, shoe)
    assert bank.simulate(5000, 9, shoe, backend=on_ray(5000)) == local  # rounded up to 8192


def positions(count: int) -> list[Deal]:
    deals = []
    for i in range(count):
        deal = Deal(seed=100 + i, dealer=i % 2)
        deal.apply("decline")
        for _ in range(i % 3):  # some positions mid-play
            deal.apply(deal.legal_actions()[0])
        deals.append(deal)
    return deals


@pytest.mark.parametrize("chunk", [None, 1, 5])
@pytest.mark.parametrize("objective", [None, "cards"])
def test_solve_many(cluster: None, chunk: int | None, objective: str | None) -> None:
    deals = positions(12)
    local = duel.solve_many(deals, objective)
    assert duel.solve_many(deals, objective, backend=on_ray(chunk)) == local
    timed = duel.solve_many_timed(deals, objective, backend=on_ray(chunk))
    assert [solution for solution, _ in timed] == local
    assert all(seconds >= 0 for _, seconds in timed)


def same_rates(a: ArenaResult, b: ArenaResult) -> bool:
    keep = ("pairs", "deals", "match_win_rate", "deal_win_rate", "points_per_deal", "native")
    return all(getattr(a, k) == getattr(b, k) for k in keep)


@pytest.mark.parametrize("chunk", [None, 4])
def test_arena_native(cluster: None, chunk: int | None) -> None:
    local = play("heuristic", "random", matches=30, seed=2)
    remote = play("heuristic", "random", matches=30, seed=2, backend=on_ray(chunk))
    assert remote.native and same_rates(remote, local)


def test_arena_native_pimc(cluster: None) -> None:
    rules = duel.Rules(target=2)
    local = play("pimc:4", "heuristic", matches=2, seed=5, rules=rules)
    remote = play("pimc:4", "heuristic", matches=2, seed=5, rules=rules, backend=on_ray(1))
    assert remote.native and same_rates(remote, local)


@pytest.mark.parametrize("seed", [0, 9])
def test_arena_python_agents(cluster: None, seed: int) -> None:
    local = play(HeuristicAgent, "random", matches=5, seed=seed)
    remote = play(HeuristicAgent, "random", matches=5, seed=seed, backend=on_ray(2))
    assert not remote.native and same_rates(remote, local)
    assert sum(remote.decision_seconds) > 0


# -- faults ----------------------------------------------------------------------------------


class KillOnce:
    """An agent factory whose first build, anywhere, kills its worker process."""

    def __init__(self, marker: Path, spec: str) -> None:
        self.marker, self.spec = marker, spec

    def __call__(self, seed: int) -> Any:
        if not self.marker.exists():
            self.marker.write_text("killed")
            os.kill(os.getpid(), signal.SIGKILL)
        return make_agent(self.spec, seed)


def test_a_killed_worker_is_retried_with_the_same_result(cluster: None, tmp_path: Path) -> None:
    marker = tmp_path / "killed"
    remote = play(KillOnce(marker, "heuristic"), "random", matches=4, seed=4, backend=on_ray(2))
    assert marker.exists()
    local = play("heuristic", "random", matches=4, seed=4, native=False)
    assert same_rates(remote, local)


def test_a_dead_worker_without_retries_is_an_error(cluster: None, tmp_path: Path) -> None:
    # Both chunks run at once, so either may be the one that builds the agent first and dies.
    with pytest.raises(
        EcarteError, match=r"chunk (0 \(items 0-1\)|1 \(items 2-3\)) of the run with seed 4"
    ):
        play(
            KillOnce(tmp_path / "killed", "heuristic"),
            "random",
            matches=4,
            seed=4,
            backend=on_ray(2, max_retries=0),
        )


class Failing:
    """Raises when it plays in match index ``index``'s seed."""

    def __init__(self, bad_seed: int) -> None:
        self.bad_seed = bad_seed

    def __call__(self, seed: int) -> Any:
        inner = make_agent("random", seed)
        bad = seed == self.bad_seed

        def act(observation: Observation, legal: Sequence[Action]) -> Action:
            if bad:
                raise RuntimeError("the agent broke")
            return inner(observation, legal)

        return act


def test_an_agent_exception_names_the_chunk_and_seed(cluster: None) -> None:
    from ecarte._core import derive_seed
    from ecarte.seeding import agent_seed

    bad = agent_seed(derive_seed(13, 3), 0)  # seed index 3: chunk 1 of chunks of 2
    with pytest.raises(EcarteError) as error:
        play(Failing(bad), "random", matches=6, seed=13, backend=on_ray(2))
    message = str(error.value)
    assert "chunk 1 (items 2-3)" in message and "seed 13" in message
    assert "RuntimeError: the agent broke" in message and "\n" not in message


# -- set-up ----------------------------------------------------------------------------------


def test_without_ray_the_error_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)
    with pytest.raises(
        EcarteError,
        match=r"needs Ray: pip install 'ecarte\[ray\]' \(in a checkout of ecarte: "
        r"pip install '\.\[ray\]'\)",
    ):
        duel.simulate(10, 1, backend="ray")
    with pytest.raises(EcarteError, match="backend must be"):
        duel.simulate(10, 1, backend="cluster")  # type: ignore[arg-type]


def test_import_does_not_load_ray() -> None:
    code = (
        "import ecarte, ecarte.duel, ecarte.bank, ecarte.arena, ecarte.distributed, sys; "
        "print('ray' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_cli_ray_option(cluster: None) -> None:
    from click.testing import CliRunner
    from ecarte.cli import main

    runner = CliRunner()
    local = runner.invoke(main, ["simulate", "--deals", "300", "--seed", "4"])
    remote = runner.invoke(main, ["simulate", "--deals", "300", "--seed", "4", "--ray"])
    assert remote.exit_code == 0, remote.output
    assert remote.output == local.output


def test_bank_ray_run_with_a_start_and_beyond_one_call(cluster: None) -> None:
    local = bank.simulate(3 * 4096, 2, start=8192)
    assert bank.simulate(3 * 4096, 2, start=8192, backend=on_ray(4096)) == local
    with pytest.raises(EcarteError, match="multiple of"):
        bank.simulate(10, 2, start=100, backend="ray")


def test_an_unreachable_address_fails_fast_in_one_line() -> None:
    from ecarte.distributed import _check_reachable

    with pytest.raises(EcarteError, match=r"^cannot connect to Ray at 127\.0\.0\.1:1: [^\n]+$"):
        _check_reachable("127.0.0.1:1", timeout=2.0)
    _check_reachable("auto")  # left to Ray
