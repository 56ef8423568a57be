"""Every seed plays the same game as when the fingerprints were recorded (see tests/golden/record.py).

The fingerprints cover the decisions offered (players, option ids and labels, in order) and the
event log byte for byte, for both games, the examples and the mods, at every legal player count.
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from golden import record

GOLDEN = Path(__file__).parents[1] / "golden"
RECORDED = json.loads((GOLDEN / "logs.json").read_text())


@pytest.fixture(scope="module")
def games() -> dict:
    return {}


def _game(cache: dict, name: str):
    if name not in cache:
        folder, mods = record.GAMES[name]
        cache[name] = record.load_game(record.ROOT / folder, mods=[record.ROOT / m for m in mods])
    return cache[name]


@pytest.mark.parametrize("name", sorted(RECORDED))
def test_every_recorded_game_is_played_the_same(games: dict, name: str) -> None:
    game = _game(games, name)
    differing = [(players, seed) for players, prints in RECORDED[name].items()
                 for seed, expected in enumerate(prints)
                 if record.fingerprint(game, int(players), seed) != expected]
    assert not differing, f"{name}: these (players, seed) now play differently: {differing}"


def test_the_fingerprints_cover_both_games_at_every_count() -> None:
    assert set(RECORDED["flapjacks"]) == {str(p) for p in range(2, 9)}
    assert set(RECORDED["jacks_friends"]) == {str(p) for p in range(2, 7)}
    assert all(len(prints) == record.SEEDS for table in RECORDED.values() for prints in table.values())


def test_a_changed_choice_changes_the_fingerprint() -> None:
    game = _game({}, "pig")
    assert record.fingerprint(game, 2, 0) != record.fingerprint(game, 2, 1)
