"""A long duplicate arena run that survives interruption: the arena's own native chunks,
each saved as it ends, then `arena.play`'s figures computed from the saved chunks.

    python benches/arena_resumable.py A B SEEDS SEED DIR            # play (resumes)
    python benches/arena_resumable.py A B SEEDS SEED DIR summary    # arena.play's result

Playing runs `arena._native_chunk(start, n, ...)` over the chunk boundaries `arena.play`
uses locally (`arena.LOCAL_NATIVE_CHUNK` seeds each) and pickles each chunk's result in
DIR, skipping chunks already saved. The summary calls `arena.play(A, B, matches=SEEDS,
seed=SEED)` with `_native_chunk` answered from DIR, so the figures are exactly
`arena.play`'s, and prints the sum of the chunks' wall times. Both agents must be native
specs (`ecarte.duel.is_native_agent`). BENCHMARKS.md's expert matches were run this way.
"""

from __future__ import annotations

import pickle
import sys
import time
from pathlib import Path
from typing import Any

from ecarte import arena
from ecarte.distributed import chunks
from ecarte.duel import Rules


def chunk_path(folder: Path, start: int) -> Path:
    return folder / f"chunk_{start:05d}.pkl"


def play(a: str, b: str, seeds: int, seed: int, folder: Path) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    for c in chunks(seeds, arena.LOCAL_NATIVE_CHUNK):
        path = chunk_path(folder, c.start)
        if path.exists():
            continue
        began = time.time()
        result = arena._native_chunk(c.start, c.n, a, b, seed, Rules())
        record = {"n": c.n, "a": a, "b": b, "seed": seed, "result": result}
        record["seconds"] = time.time() - began
        partial = path.with_suffix(".tmp")
        partial.write_bytes(pickle.dumps(record))
        partial.replace(path)
        print(f"seeds {c.start}..{c.start + c.n - 1}: {record['seconds']:.0f} s", flush=True)


def summary(a: str, b: str, seeds: int, seed: int, folder: Path) -> None:
    wall = 0.0

    def saved(start: int, n: int, agent_a: str, agent_b: str, s: int, rules: Rules) -> Any:
        nonlocal wall
        record = pickle.loads(chunk_path(folder, start).read_bytes())
        if (record["n"], record["a"], record["b"], record["seed"]) != (n, agent_a, agent_b, s):
            raise SystemExit(f"{chunk_path(folder, start)} is from another run")
        wall += record["seconds"]
        return record["result"]

    arena._native_chunk = saved  # type: ignore[assignment]
    print(arena.play(a, b, matches=seeds, seed=seed, progress=False))
    print(f"wall time, sum of chunks: {wall:.0f} s")


if __name__ == "__main__":
    args = sys.argv[1:]
    a, b, seeds, seed, folder = args[0], args[1], int(args[2]), int(args[3]), Path(args[4])
    (summary if args[5:] == ["summary"] else play)(a, b, seeds, seed, folder)
