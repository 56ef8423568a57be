"""An event log holds enough to replay its game exactly."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

import rulelang
from rulelang.agents import RandomAgent, play_out
from rulelang.errors import RulelangError
from rulelang.sim import replay

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize("name, players", [("jacks_friends", 4), ("jacks_friends", 6), ("flapjacks", 3),
                                           ("flapjacks", 8)])
def test_a_log_replays_to_the_same_game(name, players):
    game = rulelang.load_game(ROOT / "games" / name)
    for seed in range(3):
        played = play_out(game.new_state(players, seed), RandomAgent(seed + 100))
        log = [json.loads(json.dumps(e)) for e in played.events]      # as read back from a JSON-lines file
        again = replay(game, log)
        assert again.events == played.events
        assert again.dumps() == played.dumps()


def test_a_log_must_start_at_the_start():
    game = rulelang.load_game(ROOT / "games" / "jacks_friends")
    events = play_out(game.new_state(3, 1), RandomAgent(1)).events
    with pytest.raises(RulelangError):
        replay(game, events[1:])
