"""Load test of ``ecarte serve`` on loopback: many simultaneous duel games against
``heuristic`` over WebSockets, the latency of every move (request to response).

    nice -n 19 python benches/load_web.py --games 200 --deals 1

The server runs in its own process (``ecarte serve --port 0``); the clients share one
asyncio loop here. Every game is a match to ``--deals`` points (at least that many deals
are played unless one ends early... a match to 1 is one deal); each client stops after
``--max-moves`` moves and the whole run after ``--seconds``: the loops are bounded in count
and time. Prints one JSON line: games, moves, p50/p90/p99/max latency in milliseconds,
and the wall time.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import time
from pathlib import Path

from websockets.asyncio.client import connect

sys.path.insert(0, str(Path(__file__).parents[1] / "tests"))
from webserver import serve_process  # the tests' own way to start the server


async def play(url: str, target: int, max_moves: int, latencies: list[float]) -> int:
    async with connect(url, max_size=None) as ws:
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

        started = await request("new", kind="match", opponent="heuristic", rules={"target": target})
        game, state = started["game"], started["state"]
        moves = 0
        while not state["over"] and moves < max_moves:  # type: ignore[index]
            action = state["legal"][0]  # type: ignore[index]
            began = time.perf_counter()
            state = await request("apply", game=game, action=action)
            latencies.append(time.perf_counter() - began)
            moves += 1
        await request("close", game=game)
        return moves


async def run(
    url: str, games: int, target: int, max_moves: int, seconds: float
) -> dict[str, object]:
    latencies: list[float] = []
    began = time.perf_counter()
    tasks = [asyncio.create_task(play(url, target, max_moves, latencies)) for _ in range(games)]
    done, pending = await asyncio.wait(tasks, timeout=seconds)
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
    parser.add_argument("--max-moves", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=300.0)
    args = parser.parse_args()
    with serve_process() as url:
        socket = url.replace("http", "ws") + "ws"
        result = asyncio.run(run(socket, args.games, args.deals, args.max_moves, args.seconds))
    print(json.dumps(result))


if __name__ == "__main__":
    main()
