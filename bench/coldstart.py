"""Where a cold `rulelang validate --games 0` spends its time: imports, load, schema, parse+check, compile, codegen.

Run: python bench/coldstart.py [GAME ...]   (default: both games; best of 5 fresh processes each)
This is a measurement script, not a test: it prints figures for the notes.

Each figure comes from a fresh Python process, as a designer's command would run: the grammar
comes from the private cache (rulelang/cache.py) when it is there, as it is after the first run.
Code generation is the difference between compiling with generated Python and with closures only.
"""
from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

PROBE = r"""
import json, sys, time
t0 = time.perf_counter()
import rulelang
from rulelang.loader import load_document
from rulelang.schema import validate_document
from rulelang.compiler import GameCompiler, compile_game
import rulelang.cli
t1 = time.perf_counter()
doc = load_document(sys.argv[1])
t2 = time.perf_counter()
validate_document(doc)
t3 = time.perf_counter()
spent = {}
generate = GameCompiler.generate
def timed(self, jobs):
    start = time.perf_counter()
    generate(self, jobs)
    spent["generate"] = time.perf_counter() - start
GameCompiler.generate = timed
compile_game(doc)
t4 = time.perf_counter()
with_python = spent["generate"]
compile_game(doc, python=False)
closures_only = spent["generate"]
print(json.dumps({"imports": t1 - t0, "load": t2 - t1, "schema": t3 - t2,
                  "parse+check": (t4 - t3) - with_python, "compile": closures_only,
                  "codegen": max(0.0, with_python - closures_only), "total": t4 - t0}))
"""


def one_run(game: Path) -> dict:
    done = subprocess.run([sys.executable, "-c", PROBE, str(game)], cwd=ROOT, capture_output=True, text=True,
                          check=True)
    return json.loads(done.stdout)


def whole_command(game: Path) -> float:
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "rulelang.cli", "validate", "--games", "0", str(game)], cwd=ROOT,
                   check=True, stdout=subprocess.DEVNULL)
    return time.perf_counter() - start


def main() -> None:
    games = [Path(a) for a in sys.argv[1:]] or [ROOT / "games" / "flapjacks", ROOT / "games" / "jacks_friends"]
    for game in games:
        runs = [one_run(game) for _ in range(5)]
        best = min(runs, key=lambda r: r["total"])
        parts = "  ".join(f"{k} {v * 1000:.0f} ms" for k, v in best.items() if k != "total")
        command = min(whole_command(game) for _ in range(3))
        print(f"{game.name}: {parts}  | in-process total {best['total'] * 1000:.0f} ms; "
              f"`rulelang validate --games 0` {command:.2f} s wall (best of 3)")


if __name__ == "__main__":
    main()
