"""Where the time of loading a game goes: imports, reading, the schema, the model, its checks, compiling.

Run: python bench/load_split.py [--repeat N] [GAME_FOLDER ...]   (both games by default)
A measurement script, not a test: CPU time (``process_time``, steadier than the wall clock on the shared
machines here), the median of N loads in one process after a cold import of the pipeline.
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

clock = time.process_time
started = clock()
from rulelang.check_decls import check_declarations  # noqa: E402
from rulelang.compiler import compile_game  # noqa: E402
from rulelang.loader import load_document  # noqa: E402
from rulelang.model_build import build_spec, symbols_of  # noqa: E402
from rulelang.schema import validate_document  # noqa: E402
IMPORTS = clock() - started


def split(folder: Path, repeat: int) -> dict[str, float]:
    """Median CPU milliseconds of each stage of loading the game in ``folder``."""
    times: dict[str, list[float]] = {"read": [], "schema": [], "model": [], "declaration checks": [],
                                     "compile (all, model included)": []}
    for _ in range(repeat):
        a = clock()
        doc = load_document(folder)
        b = clock()
        validate_document(doc)
        c = clock()
        spec = build_spec(doc)
        symbols_of(spec)
        d = clock()
        check_declarations(spec, doc, None)
        e = clock()
        compile_game(doc)
        f = clock()
        for key, value in zip(times, (b - a, c - b, d - c, e - d, f - e)):
            times[key].append(value * 1000)
    return {key: statistics.median(values) for key, values in times.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="*", default=["games/flapjacks", "games/jacks_friends"])
    parser.add_argument("--repeat", type=int, default=20)
    args = parser.parse_args()
    print(f"imports of the pipeline: {IMPORTS * 1000:.0f} ms CPU")
    for game in args.games:
        figures = split(ROOT / game, args.repeat)
        print(f"{game}: " + ", ".join(f"{key} {value:.2f} ms" for key, value in figures.items()))


if __name__ == "__main__":
    main()
