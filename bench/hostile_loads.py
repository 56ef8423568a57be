"""How long the loader takes to refuse (or load) the largest specs its limits let through.

Run: python bench/hostile_loads.py
A measurement script, not a test: it builds each hostile folder in a temporary
folder and prints the wall and CPU time of ``load_document`` on it (best of three).
The limits (``rulelang.spec.loader.MAX_*``) are chosen so each stays around a second.
"""
from __future__ import annotations

import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from rulelang.errors import RulelangError  # noqa: E402
from rulelang.spec import loader  # noqa: E402


def many_values(count: int) -> str:
    return "".join(f"- {i}\n" for i in range(count))


def includes(folder: Path, count: int, body: Callable[[int], str]) -> None:
    names = [f"part{i}.yaml" for i in range(count)]
    (folder / "game.yaml").write_text("game: x\ninclude: [" + ", ".join(names) + "]\n")
    for i, name in enumerate(names):
        (folder / name).write_text(body(i))


def forty_big_includes(folder: Path) -> None:
    text = many_values(95_000)
    includes(folder, 40, lambda i: f"list{i}:\n" + text)


def values_just_under_the_limit(folder: Path) -> None:
    (folder / "game.yaml").write_text("game: x\nlist:\n" + many_values(loader.MAX_NODES // 2 - 10))


def bytes_of_comment(folder: Path) -> None:
    (folder / "game.yaml").write_text("#" * (loader.MAX_SPEC_BYTES - 20) + "\ngame: x\n")


def one_long_string(folder: Path) -> None:
    (folder / "game.yaml").write_text("game: '" + "x" * (loader.MAX_SPEC_BYTES - 20) + "'\n")


def blank_lines(folder: Path) -> None:
    (folder / "game.yaml").write_text("\n" * (loader.MAX_LINES - 10) + "game: x\n")


def too_many_lines(folder: Path) -> None:
    (folder / "game.yaml").write_text("\n" * (loader.MAX_SPEC_BYTES - 20) + "game: x\n")


def most_files(folder: Path) -> None:
    includes(folder, loader.MAX_FILES, lambda i: f"k{i}: {i}\n")


CASES = [forty_big_includes, values_just_under_the_limit, bytes_of_comment, one_long_string, blank_lines,
         too_many_lines, most_files]


def measure(build: Callable[[Path], None]) -> tuple[float, float, str]:
    best = (float("inf"), float("inf"), "")
    for _ in range(3):
        with tempfile.TemporaryDirectory() as tmp:
            folder = Path(tmp)
            build(folder)
            wall, cpu = time.perf_counter(), time.process_time()
            try:
                loader.load_document(folder)
                outcome = "loaded"
            except RulelangError as error:
                outcome = "refused: " + error.message[:70]
            took = (time.perf_counter() - wall, time.process_time() - cpu, outcome)
        best = min(best, took)
    return best


def main() -> None:
    print(f"limits: {loader.MAX_SPEC_BYTES:,} bytes, {loader.MAX_LINES:,} lines, {loader.MAX_NODES:,} values, "
          f"{loader.MAX_ALIASES:,} aliases, "
          f"{loader.MAX_FILES} files for a whole spec")
    for build in CASES:
        wall, cpu, outcome = measure(build)
        print(f"{build.__name__:28} wall {wall:5.2f}s  cpu {cpu:5.2f}s  {outcome}")


if __name__ == "__main__":
    main()
