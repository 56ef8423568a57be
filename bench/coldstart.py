"""Where a cold `rulelang validate --games 0` spends its time: imports, read, schema, model, checks, compile, codegen.

Run: python bench/coldstart.py [GAME ...]   (default: both games; best of 5 fresh processes each)
This is a measurement script, not a test: it prints figures for the notes.

Each figure comes from a fresh Python process, as a designer's command would run: the parser
comes from the grammar's shipped tables (rulelang/lang/grammar_tables.py).
A game that has not changed since the last run skips the schema (its verdict is remembered in the
private cache folder, rulelang/spec/cache.py, and jsonschema is not imported); an edited one is checked, and both are printed.
Code generation is the difference between compiling with generated Python and with closures only;
``model`` and ``declarations`` are timed on their own, and ``parse+check`` is the rest of compiling
(the rule texts parsed and checked; it builds the model and checks the declarations again, so those
two are taken out of it).
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
clock = time.perf_counter
marks = [clock()]
import rulelang
import rulelang.cli
from rulelang.check.decls import check_declarations
from rulelang.compiler import GameCompiler, compile_game
from rulelang.spec.loader import load_document
from rulelang.model.build import build_spec, symbols_of
from rulelang.spec.schema import validate_document
marks.append(clock())                       # imports
doc = load_document(sys.argv[1])
marks.append(clock())                       # read
validate_document(doc, remember=sys.argv[2] == "remember")
marks.append(clock())                       # schema (with jsonschema's import when it checks)
spec = build_spec(doc)
symbols_of(spec)
marks.append(clock())                       # model (compile_game builds it again)
check_declarations(spec, doc, None)
marks.append(clock())                       # declarations (checked again by compile_game too)
spent = {}
generate = GameCompiler.generate
def timed(self, jobs):
    start = clock()
    generate(self, jobs)
    spent["generate"] = clock() - start
GameCompiler.generate = timed
compile_game(doc)
marks.append(clock())                       # the whole compile
with_python = spent["generate"]
compile_game(doc, python=False)
closures_only = spent["generate"]
imports, read, schema, model, declarations, compiled = (b - a for a, b in zip(marks, marks[1:]))
print(json.dumps({"imports": imports, "read": read, "schema": schema, "model": model,
                  "declarations": declarations,
                  "parse+check": max(0.0, compiled - with_python - model - declarations),
                  "compile": closures_only, "codegen": max(0.0, with_python - closures_only),
                  "total": imports + read + schema + compiled}))
"""


def one_run(game: Path, schema: str) -> dict:
    done = subprocess.run([sys.executable, "-c", PROBE, str(game), schema], cwd=ROOT, capture_output=True,
                          text=True, check=True)
    return json.loads(done.stdout)


def whole_command(game: Path) -> float:
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "rulelang.cli", "validate", "--games", "0", str(game)], cwd=ROOT,
                   check=True, stdout=subprocess.DEVNULL)
    return time.perf_counter() - start


def main() -> None:
    games = [Path(a) for a in sys.argv[1:]] or [ROOT / "games" / "flapjacks", ROOT / "games" / "jacks_friends"]
    for game in games:
        whole_command(game)                 # the game's schema verdict is remembered from here on
        for schema, when in (("remember", "unchanged since the last run"), ("check", "edited")):
            runs = [one_run(game, schema) for _ in range(5)]
            best = min(runs, key=lambda r: r["total"])
            parts = "  ".join(f"{k} {v * 1000:.0f} ms" for k, v in best.items() if k != "total")
            print(f"{game.name} ({when}): {parts}  | in-process total {best['total'] * 1000:.0f} ms")
        command = min(whole_command(game) for _ in range(3))
        print(f"{game.name}: `rulelang validate --games 0` {command:.2f} s wall (best of 3, unchanged)")


if __name__ == "__main__":
    main()
