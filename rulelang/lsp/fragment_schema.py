"""The schema an include fragment names: the game schema without its required keys.

A fragment (a file that ``game.yaml`` includes: the cards, a deck, the turn) holds
some of a game's keys and none of ``game:`` or ``players:``, so an editor checking
it against ``game.schema.json`` flags it (``'game' is a required property``).
``schemas/fragment.schema.json`` is made from the game schema by this module, so
the two cannot drift: ``python -m rulelang.lsp.fragment_schema`` writes it again,
and a test fails while the file and the game schema disagree.
"""
from __future__ import annotations

import copy
import json
import sys
from pathlib import Path

from rulelang.spec.schema import SCHEMA_DIR

FRAGMENT_FILE = "fragment.schema.json"


def fragment_schema(game: dict) -> dict:
    """The game schema with no top-level key required, under its own id and title."""
    fragment = copy.deepcopy(game)
    fragment.pop("required", None)
    fragment["$id"] = fragment["$id"].replace("game.schema.json", FRAGMENT_FILE)
    fragment["title"] = "game spec fragment"
    fragment["description"] = ("A file that a game's game.yaml includes: any of a game's keys, none required "
                               "(made from game.schema.json by rulelang/lsp/fragment_schema.py; do not edit).")
    return fragment


def fragment_text(folder: Path = SCHEMA_DIR) -> str:
    """The text ``schemas/fragment.schema.json`` must hold, from ``schemas/game.schema.json``."""
    game = json.loads((folder / "game.schema.json").read_text(encoding="utf-8"))
    return json.dumps(fragment_schema(game), indent=2, ensure_ascii=False) + "\n"


def main() -> int:
    target = SCHEMA_DIR / FRAGMENT_FILE
    target.write_text(fragment_text(), encoding="utf-8")
    print(f"wrote {target}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
