"""The engine holds no game: every game word lives in games/."""
from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
ENGINE_FILES = sorted((ROOT / "rulelang").rglob("*.py")) + [ROOT / "rulelang" / "lang" / "grammar.lark"]

# Words of the two games that no general engine would ever need.
FIXED_WORDS = r"sasquatch|flapjack|lumberjack|\baxes?\b|titanium|\bchops?\b|debunk|paperwork|\bgiants?\b|" \
              r"townsfolk|hen ?house|kitchen|garden|village|\beggs?\b|\bmeats?\b|vegg|beans"


def game_names() -> set[str]:
    """Ids of cards, locations, counters, roles and zones declared by the games."""
    names: set[str] = set()
    for file in (ROOT / "games").glob("*/*.yaml"):
        data = yaml.safe_load(file.read_text(encoding="utf-8")) or {}
        for key in ("locations", "counters", "vars", "tables"):
            names.update((data.get(key) or {}).keys())
        names.update(r["name"] for r in data.get("roles") or [])
        names.update(c["id"] for c in data.get("cards") or [])
        names.update(c["name"].lower() for c in data.get("cards") or [])
    # Generic words a game may also use as names are not game words.
    return {n for n in names if len(n) > 3} - {"hand", "play", "deck", "cut", "tree", "turn", "turns_left",
                                                  "setup", "catches", "house", "skips", "caught", "score",
                                                  "lost_turns", "aside", "discard"}


def engine_text() -> list[tuple[Path, int, str]]:
    lines = []
    for file in ENGINE_FILES:
        for number, line in enumerate(file.read_text(encoding="utf-8").splitlines(), 1):
            lines.append((file, number, line))
    return lines


def test_engine_names_no_fixed_game_words():
    pattern = re.compile(FIXED_WORDS, re.IGNORECASE)
    hits = [f"{f.name}:{n}: {line.strip()}" for f, n, line in engine_text() if pattern.search(line)]
    assert hits == []


@pytest.mark.slow
def test_engine_names_no_declared_game_names():
    names = game_names()
    assert len(names) > 10, "the games declare their cards and places"
    hits = []
    for file, number, line in engine_text():
        text = line.lower()
        for name in names:
            if re.search(rf"\b{re.escape(name)}\b", text):
                hits.append(f"{file.name}:{number}: {name}")
    assert hits == []
