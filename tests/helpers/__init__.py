"""What several test files share: the checkout's paths, small games, and the ways of playing them.

Test files import from here (``from helpers import ROOT``, ``from helpers.tiny_games import make``),
never from one another: a test module is pytest's to collect, not a library. ``tests/`` is on the
import path through ``pythonpath`` in pyproject.toml, so ``helpers`` and the data folders' scripts
(``golden.record``) import the same way from every area folder.
"""
from __future__ import annotations

from pathlib import Path

#: The checkout's root (the folder holding pyproject.toml).
ROOT = Path(__file__).resolve().parents[2]
#: The tests folder, where the data folders (broken, broken_mods, golden, trees, whispers) live.
TESTS = ROOT / "tests"
#: The tiny valid game that each broken spec changes in one place.
VALID = TESTS / "broken" / "_valid"
