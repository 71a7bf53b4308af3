"""Two attacks on ``ecarte serve``, the server in its own process, each
loopback address ``127.x.y.z`` another client to it:

- ``replay``: an honest player (127.0.0.1) moves against ``heuristic``, one move every
  ``--pace`` seconds, first alone, then while ``--replayers`` connections from 127.0.0.2
  replay a long match record (``--target`` points, about 60 KB) over and over. Prints the
  latencies of the player's moves in both phases (p50, p90, max, in ms).
- ``unread``: a client sends 30 ``replay`` requests of that record and never reads.
  Samples the server's resident memory (``/proc/PID/status``) every 0.5 s for
  ``--seconds``, then reads what it was sent; ``--rounds`` such attacks one after the
  other (from 127.0.0.3, 127.0.0.4, ...). Prints the memory before, and for each round
  its peak and last sample, the answers received and the close code.

    nice -n 19 python benches/web_attack.py replay
    nice -n 19 python benches/web_attack.py unread

``--server-path DIR`` runs the server from another source tree (``PYTHONPATH=DIR``), to
compare builds. Prints one JSON line.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import threading
import time
from pathlib import Path

from ecarte import duel
from websockets.asyncio.client import connect

sys.path.insert(0, str(Path(__file__).parents[1] / "tests"))
from webserver import Unread, serve_process  # the tests' own server and raw client


def long_record(target: int) -> str:
    match = duel.Match(seed=5, rules=duel.Rules(target=target))
    match.play(duel.BuiltinAgent("heuristic", 1), duel.BuiltinAgent("heuristic", 2))
    return match.to_json()


def rss_mib(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError("no VmRSS")


async def request(ws: object, ident: int, cmd: str, **fields: object) -> dict[str, object]:
    await ws.send(json.dumps({"id": ident, "cmd": cmd, **fields}))  # type: ignore[attr-defined]
    while True:
        answer = json.loads(await ws.recv())  # type: ignore[attr-defined]
        if answer.get("id") == ident:
            return answer  # type: ignore[no-any-return]


async def honest_moves(url: str, moves: int, pace: float) -> list[float]:
    """The latencies of ``moves`` moves against heuristic, one every ``pace`` seconds."""
    latencies: list[float] = []
    async with connect(url, max_size=None, local_addr=("127.0.0.1", 0)) as ws:
        ident = 1
        started = await request(ws, ident, "new", kind="match", opponent="heuristic")
        game, state = started["result"]["game"], started["result"]["state"]  # type: ignore[index]
        while len(latencies) < moves:
            if state["over"]:  # type: ignore[index]
                ident += 1
                started = await request(ws, ident, "new", kind="match", opponent="heuristic")
                game, state = started["result"]["game"], started["result"]["state"]  # type: ignore[index]
            await asyncio.sleep(pace)
            ident += 1
            began = time.perf_counter()
            answer = await request(ws, ident, "apply", game=game, action=state["legal"][0])  # type: ignore[index]
            latencies.append(time.perf_counter() - began)
            state = answer["result"]
    return latencies


async def replayer(url: str, record: str, stop: asyncio.Event, done: list[int]) -> None:
    async with connect(url, max_size=None, local_addr=("127.0.0.2", 0)) as ws:
        ident = 0
        while not stop.is_set():
            ident += 1
            answer = await request(ws, ident, "replay", record=record)
            done.append(bool(answer["ok"]))


def summary(latencies: list[float]) -> dict[str, float]:
    ordered = sorted(latencies)
    return {
        "p50_ms": round(1000 * statistics.median(ordered), 1),
        "p90_ms": round(1000 * ordered[int(0.9 * len(ordered))], 1),
        "max_ms": round(1000 * ordered[-1], 1),
    }


async def replay_attack(url: str, args: argparse.Namespace) -> dict[str, object]:
    record = long_record(args.target)
    alone = await honest_moves(url, args.moves, args.pace)
    stop, done = asyncio.Event(), []
    attackers = [
        asyncio.create_task(replayer(url, record, stop, done)) for _ in range(args.replayers)
    ]
    await asyncio.sleep(2)  # the replays under way
    attacked = await honest_moves(url, args.moves, args.pace)
    stop.set()
    await asyncio.wait(attackers, timeout=120)
    return {
        "record_bytes": len(record),
        "replayers": args.replayers,
        "replays_answered": sum(done),
        "alone": summary(alone),
        "during_replays": summary(attacked),
    }


def unread_attack(url: str, pid: int, args: argparse.Namespace) -> dict[str, object]:
    """``--rounds`` attacks one after the other, each by a new client of its own."""
    record = long_record(args.target)
    request_text = json.dumps({"id": 1, "cmd": "replay", "record": record})
    before = rss_mib(pid)
    rounds = []
    for round_number in range(args.rounds):
        hostile = Unread(url, source=f"127.0.0.{3 + round_number}")
        sent = [0]

        def send_all(client: Unread = hostile, count: list[int] = sent) -> None:
            while count[0] < 30 and client.send(request_text):
                count[0] += 1

        threading.Thread(target=send_all, daemon=True).start()
        samples = []
        began = time.monotonic()
        while time.monotonic() - began < args.seconds:
            samples.append(rss_mib(pid))
            time.sleep(0.5)
        answers, code = hostile.read_all(120)
        rounds.append(
            {
                "requests_sent": sent[0],
                "rss_peak_mib": round(max(samples), 1),
                "rss_last_mib": round(samples[-1], 1),
                "answers_received": answers,
                "close_code": code,
            }
        )
    return {"record_bytes": len(record), "rss_before_mib": round(before, 1), "rounds": rounds}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("attack", choices=["replay", "unread"])
    parser.add_argument("--replayers", type=int, default=8)
    parser.add_argument("--moves", type=int, default=40)
    parser.add_argument("--pace", type=float, default=0.2)
    parser.add_argument("--target", type=int, default=60, help="the record's match target")
    parser.add_argument("--seconds", type=float, default=25.0, help="of each unread attack")
    parser.add_argument("--rounds", type=int, default=1, help="unread attacks in a row")
    parser.add_argument("--server-path", help="PYTHONPATH of the server (another build)")
    parser.add_argument(
        "--db", default=":memory:", help="the server's --db ('': a build without one)"
    )
    args = parser.parse_args()
    with serve_process(python_path=args.server_path, db=args.db or None) as (url, process):
        socket = url.replace("http", "ws") + "ws"
        if args.attack == "replay":
            result = asyncio.run(replay_attack(socket, args))
        else:
            result = unread_attack(socket, process.pid, args)
    print(json.dumps({"attack": args.attack, **result}))


if __name__ == "__main__":
    main()
