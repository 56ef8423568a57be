"""The tiny valid game of tests/broken/_valid, changed in place for one test: the base of many hostile specs."""
from __future__ import annotations

import shutil
from pathlib import Path

VALID = Path(__file__).resolve().parents[1] / "broken" / "_valid"
#: The first step's effect in the valid game, the line a derived game replaces.
DRAW = "      effect: draw 1 from deck to me.hand"


def derive(tmp_path: Path, *changes: tuple[str, str], effect: str | None = None) -> Path:
    """The valid game (its game.yaml) with its first step's effect replaced, and each (old, new) made once."""
    folder = tmp_path / "game"
    shutil.copytree(VALID, folder)
    spec = folder / "game.yaml"
    text = spec.read_text(encoding="utf-8")
    if effect is not None:
        body = effect.strip("\n").replace("\n", "\n        ")
        text = text.replace(DRAW, f"      effect: |\n        {body}")
    for old, new in changes:
        assert old in text, old
        text = text.replace(old, new, 1)
    spec.write_text(text, encoding="utf-8")
    return spec


def line_of(spec: Path, text: str) -> int:
    """The number of the first line of ``spec`` holding ``text`` (where an error should point)."""
    return next(i for i, line in enumerate(spec.read_text(encoding="utf-8").splitlines(), 1) if text in line)
