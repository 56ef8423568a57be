"""Counts in words (issue 31): one helper, ``printable.counted``, says "1 player" and "2 players" wherever a
count is printed to people, so no line says "1 players", "1 games" or "1 mods"."""
from __future__ import annotations

from pathlib import Path

import pytest

from rulelang import load_game
from rulelang.agents import RandomAgent
from rulelang.agents.play import Table
from rulelang.lab.report import heading
from rulelang.lab.simulate import seat_agents
from rulelang.lab.sweep_report import verdict
from rulelang.logs.narrate import narrate
from rulelang.printable import counted
from rulelang.rulebook.book import make_book
from rulelang.rulebook.checked import load_checked

ROOT = Path(__file__).resolve().parents[2]


def test_one_thing_is_singular_and_any_other_count_plural() -> None:
    assert counted(1, "player") == "1 player"
    assert counted(2, "player") == "2 players"
    assert counted(0, "mod") == "0 mods"
    assert counted(1, "entry", "entries") == "1 entry"
    assert counted(3, "copy", "copies") == "3 copies"
    assert counted(12000, "game", grouped=True) == "12,000 games"


def test_the_play_by_play_of_a_one_player_game_says_one_player() -> None:
    game = load_game(ROOT / "examples" / "pig")
    started = {"type": "started", "turn": 0, "game": "Solo", "players": 1, "seed": 3, "roles": ["player"],
               "first": "P1"}
    assert narrate(game, started) == "Solo: 1 player, seed 3 (P1 player); P1 starts"


def test_the_simulate_heading_says_one_game_and_one_player() -> None:
    summary = {"game": "Pig", "games": 1, "players": 1, "seed": 0, "agents": ["random"], "completed": 1,
               "errors": {"count": 0}}
    assert heading(summary) == "Pig: 1 game, 1 player, seed 0, agents random; 1 finished"


def test_a_sweep_of_one_setting_says_one_setting() -> None:
    assert verdict([], [object()], "first_player", None) == "1 setting played; no --target given"


def test_agents_that_do_not_fit_the_seats_are_counted_in_words() -> None:
    with pytest.raises(ValueError) as raised:
        seat_agents("random,greedy", 3)
    assert str(raised.value) == "--agents names 2 agents for 3 players; give one, or one per seat"
    game = load_game(ROOT / "examples" / "pig")
    with pytest.raises(ValueError) as raised:
        Table(game.new_state(2, 0), [RandomAgent(0)])
    assert str(raised.value) == "1 agent for 2 players"


def test_the_rulebook_of_a_game_for_one_count_of_players_says_it_once() -> None:
    book = make_book(load_checked(ROOT / "examples" / "goofspiel"))       # players: {min: 2, max: 2}
    assert book.players == "2 players"
    assert book.sections[0].intro[0] == "2 players."                      # not "2 to 2 players."
