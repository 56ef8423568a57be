"""A small game played twice from one seed: answered in place by an agent, and through stored decisions.

The speed-ups' harness (``helpers/speedups.py``, ``tests/equivalence/test_speedups.py``) plays the games of
games/ and the examples so; this is for the little games tests write to pin one behaviour.
"""
from __future__ import annotations

import rulelang
from rulelang.agents import RandomAgent, play_out

from . import ROOT


def pending_loop(game: rulelang.Game, players: int, seed: int) -> rulelang.State:
    """The game through stored decisions (the frames' way: answering in place off), ``RandomAgent(seed)``
    picking for every seat."""
    return play_out(game.new_state(players, seed), RandomAgent(seed), in_place=False)


def both_ways(game: rulelang.Game, players: int, seed: int) -> rulelang.State:
    """The game played in place by ``RandomAgent(seed)``, checked equal to the game through stored decisions
    (the same event log, the same saved state); the state played in place."""
    in_place = play_out(game.new_state(players, seed), RandomAgent(seed))
    framed = pending_loop(game, players, seed)
    assert in_place.events == framed.events, (players, seed)
    assert in_place.dumps() == framed.dumps(), (players, seed)
    return in_place


def load(folder: str, mods: tuple) -> rulelang.Game:
    return rulelang.load_game(ROOT / folder, mods=[ROOT / m for m in mods])
