"""How long the language server takes to check Flapjacks again after an edit (goal: under 200 ms).

An edit of one card's rule text in games/flapjacks/jacks.yaml, held as the editor's
text, then the check `rulelang lsp` runs on it (``Checker.check``), and for scale
the CLI's full load (``load_game``: the same checks plus generating the game).
Prints the median over the edits of wall time and of this process's CPU time
(on a busy machine the CPU time is the steadier figure), and the share of each stage.

    PYTHONPATH=. python bench/lsp_recheck.py [EDITS]
"""
from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

from rulelang import load_game
from rulelang.lsp import diagnose, quick
from rulelang.lsp.diagnose import Checker

ROOT = Path(__file__).resolve().parent.parent
FRAGMENT = (ROOT / "games" / "flapjacks" / "jacks.yaml").resolve()


def timed(run) -> tuple[float, float]:
    wall, cpu = time.perf_counter(), time.process_time()
    run()
    return time.perf_counter() - wall, time.process_time() - cpu


def stage_times(checker: Checker) -> dict[str, float]:
    """CPU seconds of each stage of one check, by wrapping the stages' functions."""
    spent = {"load": 0.0, "schema": 0.0, "check": 0.0}
    from rulelang.spec import loader, schema
    wrapped = {"load": (loader, "load_document"), "schema": (schema, "validate_document"),
               "check": (diagnose, "check_compiles")}
    originals = {}
    for stage, (module, name) in wrapped.items():
        original = originals[stage] = getattr(module, name)

        def run(*args, _original=original, _stage=stage, **kwargs):
            start = time.process_time()
            try:
                return _original(*args, **kwargs)
            finally:
                spent[_stage] += time.process_time() - start
        setattr(module, name, run)
    try:
        checker.check(FRAGMENT)
    finally:
        for stage, (module, name) in wrapped.items():
            setattr(module, name, originals[stage])
    return spent


def main(edits: int = 21) -> int:
    text = FRAGMENT.read_text(encoding="utf-8")
    checker = Checker()
    checker.set_text(FRAGMENT, text)
    checker.check(FRAGMENT)                     # the first check parses everything once
    walls, cpus, stages = [], [], []
    for i in range(edits):
        checker.set_text(FRAGMENT, text.replace("target.lost_turns += 1", f"target.lost_turns += {i + 1}", 1))
        wall, cpu = timed(lambda: checker.check(FRAGMENT))
        walls.append(wall)
        cpus.append(cpu)
        checker.set_text(FRAGMENT, text.replace("target.lost_turns += 1", f"target.lost_turns += {i + 2}", 1))
        stages.append(stage_times(checker))
    full = [timed(lambda: load_game(ROOT / "games" / "flapjacks")) for _ in range(5)]
    print(f"re-check after an edit: median {statistics.median(walls) * 1000:.0f} ms wall, "
          f"{statistics.median(cpus) * 1000:.0f} ms CPU ({edits} edits)")
    print("  CPU by stage: " + ", ".join(f"{stage} {statistics.median(s[stage] for s in stages) * 1000:.0f} ms"
                                           for stage in ("load", "schema", "check")))
    print(f"load_game (the CLI's full load): median {statistics.median(w for w, _ in full) * 1000:.0f} ms wall, "
          f"{statistics.median(c for _, c in full) * 1000:.0f} ms CPU")
    print(f"kept: {len(quick._PARSES)} parsed texts, {len(quick._FILES)} loaded files")
    return 0


if __name__ == "__main__":
    sys.exit(main(*(int(a) for a in sys.argv[1:])))
