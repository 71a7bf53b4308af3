"""Regenerates the solver benchmark's position set shipped in the package,
``python/ecarte/data/solver_positions_v2.jsonl`` (see ``ecarte.bench.positions``).

Deterministic: the same file on every run and platform (the seeds and discards come from
the engine's ``Stream``, the values from the exact solver). ``tests/test_solverbench.py``
checks that the shipped file matches a regeneration of its first lines, and that the
solver still finds every value. Run: ``python benches/make_solver_positions.py [--check]``.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from ecarte.bench.positions import POSITIONS_FILE, make_positions

OUT = Path(__file__).resolve().parent.parent / "python" / "ecarte" / "data" / POSITIONS_FILE


def render() -> str:
    return "".join(json.dumps(r, separators=(",", ":")) + "\n" for r in make_positions())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--check",
        action="store_true",
        help="Compare with the file instead of writing it; exit 1 if they differ.",
    )
    args = parser.parse_args()
    text = render()
    if args.check:
        same = OUT.exists() and OUT.read_text(encoding="utf-8") == text
        print(f"{OUT}: {'up to date' if same else 'DIFFERS from a regeneration'}")
        sys.exit(0 if same else 1)
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(text, encoding="utf-8")
    print(f"wrote {text.count(chr(10))} positions to {OUT}")


if __name__ == "__main__":
    main()
