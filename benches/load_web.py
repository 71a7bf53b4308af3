"""Load test of ``ecarte serve`` on loopback: many simultaneous duel games against
``heuristic`` over WebSockets, the latency of every move (request to response).

    nice -n 19 python benches/load_web.py --games 200 --pace 0.5 --deals 7 --seconds 60
    nice -n 19 python benches/load_web.py --games 200 --deals 7 --seconds 60

The server runs in its own process (``ecarte serve --port 0``); the clients share one
asyncio loop in this one. Each game is one connection from a loopback address of its own
(``127.0.1.1``, ``127.0.1.2``, ...: a player per address, as on a LAN, so that the
server's per-address budgets apply to each alone). Every game is a match to ``--deals``
points, followed by another until the run ends; a client waits ``--pace`` seconds before
each move (0.5: a person's pace; 0: as fast as the server answers, its saturation). The
run stops after ``--seconds``, or each client after ``--max-moves`` moves: the loops are
bounded in count and time. Prints one JSON line: games, moves, p50/p90/p99/max latency in
milliseconds, moves per second, the wall time, and the CPU time per move of the server
and of this client (from ``/proc``). ``--server-path DIR`` runs the server from another
source tree (``PYTHONPATH=DIR``), to compare builds.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import statistics
import sys
import time
from pathlib import Path

from websockets.asyncio.client import connect

sys.path.insert(0, str(Path(__file__).parents[1] / "tests"))
from webserver import serve_process  # the tests' own way to start the server


def address(index: int) -> str:
    """The loopback address of client ``index``: 127.0.1.1, 127.0.1.2, ... 127.0.2.0, ..."""
    number = 256 + index + 1
    return f"127.0.{number // 256}.{number % 256}"


async def play(
    url: str,
    index: int,
    target: int,
    pace: float,
    max_moves: int,
    deadline: float,
    latencies: list[float],
) -> int:
    async with connect(url, max_size=None, local_addr=(address(index), 0)) as ws:
        ident = 0

        async def request(cmd: str, **fields: object) -> dict[str, object]:
            nonlocal ident
            ident += 1
            await ws.send(json.dumps({"id": ident, "cmd": cmd, **fields}))
            while True:
                answer = json.loads(await ws.recv())
                if answer.get("id") == ident:
                    if not answer["ok"]:
                        raise RuntimeError(answer["error"])
                    return answer["result"]  # type: ignore[no-any-return]

        moves = 0
        await asyncio.sleep(random.Random(index).uniform(0, pace))  # people start apart
        while moves < max_moves and time.perf_counter() < deadline:
            started = await request(
                "new", kind="match", opponent="heuristic", rules={"target": target}
            )
            game, state = started["game"], started["state"]
            while not state["over"] and moves < max_moves:  # type: ignore[index]
                if pace:
                    await asyncio.sleep(pace)
                if time.perf_counter() >= deadline:
                    break
                action = state["legal"][0]  # type: ignore[index]
                began = time.perf_counter()
                state = await request("apply", game=game, action=action)
                latencies.append(time.perf_counter() - began)
                moves += 1
            await request("close", game=game)
        return moves


async def run(
    url: str, games: int, target: int, pace: float, max_moves: int, seconds: float
) -> dict[str, object]:
    latencies: list[float] = []
    began = time.perf_counter()
    deadline = began + seconds
    tasks = [
        asyncio.create_task(play(url, i, target, pace, max_moves, deadline, latencies))
        for i in range(games)
    ]
    done, pending = await asyncio.wait(tasks, timeout=seconds + 30)
    for task in pending:
        task.cancel()
    failures = [t.exception() for t in done if t.exception() is not None]
    if failures:
        print("first failure:", repr(failures[0])[:300], file=sys.stderr)
    wall = time.perf_counter() - began
    ordered = sorted(latencies)

    def pct(p: float) -> float:
        return round(1000 * ordered[min(len(ordered) - 1, int(p * len(ordered)))], 2)

    return {
        "games": games,
        "pace_s": pace,
        "finished": len(done) - len(failures),
        "failures": len(failures) + len(pending),
        "moves": len(latencies),
        "p50_ms": pct(0.50),
        "p90_ms": pct(0.90),
        "p99_ms": pct(0.99),
        "max_ms": round(1000 * ordered[-1], 2),
        "mean_ms": round(1000 * statistics.fmean(ordered), 2),
        "wall_s": round(wall, 2),
        "moves_per_s": round(len(latencies) / wall, 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--deals", type=int, default=1, help="the match target")
    parser.add_argument("--pace", type=float, default=0.0, help="seconds before each move")
    parser.add_argument("--max-moves", type=int, default=10_000)
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--server-path", help="PYTHONPATH of the server (another build)")
    parser.add_argument(
        "--db", default=":memory:", help="the server's --db ('': a build without one)"
    )
    args = parser.parse_args()
    with serve_process(python_path=args.server_path, db=args.db or None) as (url, server):
        socket = url.replace("http", "ws") + "ws"
        server_cpu, client_cpu = cpu_seconds(server.pid), time.process_time()
        result = asyncio.run(
            run(socket, args.games, args.deals, args.pace, args.max_moves, args.seconds)
        )
        moves = max(1, int(result["moves"]))  # type: ignore[call-overload]
        result["server_cpu_ms_per_move"] = round(
            1000 * (cpu_seconds(server.pid) - server_cpu) / moves, 3
        )
        result["client_cpu_ms_per_move"] = round(
            1000 * (time.process_time() - client_cpu) / moves, 3
        )
    print(json.dumps(result))


def cpu_seconds(pid: int) -> float:
    """The CPU time (user and system) a process has used, from ``/proc``."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


if __name__ == "__main__":
    main()
