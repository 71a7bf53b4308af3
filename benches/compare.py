"""Side-by-side comparisons without pytest: ecarte against the pure-Python reference and,
when installed, OpenSpiel, measured in one run, printed as a table of ratios.

    python benches/compare.py          # quick (a few seconds)
    python benches/compare.py --full   # longer runs, steadier figures

Features not built yet print "n/a (not built)". The logic is ``ecarte.bench.harness``.
"""

from __future__ import annotations

import argparse
import platform
import sys

from ecarte.bench.harness import format_table, run_benchmarks


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--full", action="store_true", help="longer runs, steadier figures")
    args = parser.parse_args(argv)
    rows = run_benchmarks(full=args.full)
    print(
        f"python {platform.python_version()} on {platform.machine()}, "
        f"{'full' if args.full else 'quick'} run"
    )
    print(format_table(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
