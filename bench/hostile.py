"""How fast rulelang refuses hostile input: the figures the tests only bound loosely.

Run: python bench/hostile.py
The tests (tests/language/test_loader.py, tests/safety/test_sandbox.py) assert only that each
refusal ends well before a hang (HANG_SECONDS), so a busy machine cannot make
them fail; this script prints the real CPU time of each, for the notes.
"""
from __future__ import annotations

import shutil
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import rulelang  # noqa: E402
from rulelang.agents import RandomAgent, play_out  # noqa: E402
from rulelang.errors import RulelangError  # noqa: E402
from rulelang.spec import loader  # noqa: E402

VALID = ROOT / "tests" / "broken" / "_valid"


def laughs(levels: int = 9) -> str:
    """An alias bomb: each level lists the one before nine times."""
    lines = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    for before, name in zip("abcdefghijklmnop", "bcdefghijklmnopq"[: levels - 1]):
        lines.append(f"{name}: &{name} [" + ",".join([f"*{before}"] * 9) + "]")
    return "\n".join(lines) + "\n"


def refusing_file(text: str | bytes) -> Callable[[Path], None]:
    """A measurement: write ``text`` as a game.yaml and load it (it must be refused)."""
    def measure(folder: Path) -> None:
        path = folder / "game.yaml"
        if isinstance(text, bytes):
            path.write_bytes(text)
        else:
            path.write_text(text, encoding="utf-8")
        try:
            loader.load_document(path)
        except RulelangError:
            return
        raise SystemExit(f"not refused: {text[:40]!r}")
    return measure


def runaway_triggers(folder: Path) -> None:
    """Two triggers that move one card back and forth: stopped by the step budget."""
    game = folder / "game"
    shutil.copytree(VALID, game)
    spec = game / "game.yaml"
    text = spec.read_text(encoding="utf-8")
    text = text.replace("  hand: {owner: player, visibility: owner}\n",
                        "  hand: {owner: player, visibility: owner}\n  left: {owner: table, visibility: public}\n"
                        "  right: {owner: table, visibility: public}\n\ntriggers:\n  - name: to the right\n"
                        "    on: enter left\n    effect: move card to right\n  - name: to the left\n"
                        "    on: enter right\n    effect: move card to left\n", 1)
    spec.write_text(text.replace("    p.coin = 3\n", "    p.coin = 3\n  draw 1 from deck to left\n", 1),
                    encoding="utf-8")
    loaded = rulelang.load_game(game)
    try:
        play_out(loaded.new_state(2, seed=1), RandomAgent(1))
    except RulelangError:
        return
    raise SystemExit("the bouncing triggers were not stopped")


CASES: dict[str, Callable[[Path], None]] = {
    "billion laughs (9 levels)": refusing_file(laughs()),
    "nesting 10,000 deep": refusing_file("a: " + "[" * 10_000 + "1" + "]" * 10_000 + "\n"),
    "file over the size limit": refusing_file(b"#" * (loader.MAX_FILE_BYTES + 1)),
    "runaway triggers (100,000 steps)": runaway_triggers,
}


def main() -> None:
    for name, measure in CASES.items():
        with tempfile.TemporaryDirectory() as folder:
            started = time.process_time()
            measure(Path(folder))
            took = time.process_time() - started
        print(f"{name:36} {took * 1000:8.1f} ms CPU")


if __name__ == "__main__":
    main()
