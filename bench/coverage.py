"""Time of `rulelang test --coverage`: wall and CPU seconds per game and number of workers.

Run: python bench/coverage.py [--workers 1 2] [--only flapjacks]
A measurement script, not a test. The machine's load average is printed too:
on a shared machine the wall time says little without it.
"""
from __future__ import annotations

import argparse
import os
import resource
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from rulelang.testing.coverage import run_coverage  # noqa: E402

GAMES = {"flapjacks": "games/flapjacks", "jacks_friends": "games/jacks_friends", "pig": "examples/pig"}


def cpu_seconds() -> float:
    """User + system time of this process and its finished workers."""
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--workers", type=int, nargs="+", default=[2])
    parser.add_argument("--only", choices=sorted(GAMES))
    args = parser.parse_args()
    os.chdir(ROOT)
    for name, path in GAMES.items():
        if args.only and name != args.only:
            continue
        for workers in args.workers:
            wall, cpu = time.perf_counter(), cpu_seconds()
            report = run_coverage(path, workers=workers)
            wall, cpu = time.perf_counter() - wall, cpu_seconds() - cpu
            print(f"{name}: {len(report.mutants)} mutants, {workers} workers: {wall:.1f} s wall, {cpu:.1f} s CPU, "
                  f"coverage {report.rate:.1f}% (load average {os.getloadavg()[0]:.1f})")


if __name__ == "__main__":
    main()
