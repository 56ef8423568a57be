"""A declared `score` is each player's score: in states, views, the end event, run --json and the play-by-play."""
from __future__ import annotations

import json
from pathlib import Path

import rulelang
from rulelang.agents import RandomAgent, play_out

from helpers.commands import command

ROOT = Path(__file__).resolve().parents[2]
POINTS = {"norway_pine": 4, "river_birch": 5, "cottonwood": 6, "red_oak": 7, "silver_maple": 8,
          "american_elm": 8, "mighty_oak": 12}          # docs/rulings.md, the Tree deck


def test_scores_are_the_cut_piles_and_end_the_log():
    game = rulelang.load_game(ROOT / "games" / "flapjacks")
    state = play_out(game.new_state(3, seed=5), RandomAgent(5))
    expected = [sum(POINTS[c] for c in state.zone("cut", p)) for p in range(3)]
    assert state.scores() == expected
    assert state.view(0)["scores"] == expected
    assert state.events[-1]["type"] == "ended" and state.events[-1]["scores"] == expected
    assert max(expected) >= 21


def test_a_game_without_a_score_has_none():
    game = rulelang.load_game(ROOT / "games" / "jacks_friends")
    state = game.new_state(3, seed=1)
    assert state.scores() is None and state.view(None)["scores"] is None


def test_run_shows_the_scores():
    done = command("run", "games/flapjacks", "--players", "2", "--seed", "3", "--json")
    assert done.returncode == 0, done.stderr
    out = done.stdout
    summary = json.loads(out.splitlines()[-1])
    assert len(summary["scores"]) == 2 and max(summary["scores"]) >= 21
    assert "== Turn 2: " in out and "(scores: P1 " in out
