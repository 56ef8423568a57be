"""Terminal play tells each human the game exactly as `rulelang run --as` tells it to that player.

tests/whispers reveals P1's opening hand to P2, asks secret bids, keeps a variable its owner alone
sees (`mine`) and one nobody sees (`sealed`), and puts cards away face down in a vault.
"""
from __future__ import annotations

import io
import re
from pathlib import Path

import pytest

import rulelang
import rulelang.agents
from rulelang.agents import RandomAgent, play_out
from rulelang.cli import main as cli_main
from rulelang.cli.play import Table

WHISPERS = str(Path(__file__).parents[1] / "whispers")
PLAYERS = 3


class Recorder:
    """Plays as `rulelang run` does (one RandomAgent for every seat) and notes each choice."""

    def __init__(self, seed: int):
        self.inner = RandomAgent(seed)
        self.choices: list[tuple[int, int]] = []

    def choose_index(self, seat, player: int, count: int) -> int:
        k = self.inner.choose_index(seat, player, count)
        self.choices.append((player, k))
        return k


class Scripted:
    """A bot that makes the choices it is given, in order."""

    def __init__(self, picks: list[int]):
        self.picks = iter(picks)

    def choose_index(self, seat, player: int, count: int) -> int:
        return next(self.picks)


class Watched(Table):
    """The terminal table, with the play-by-play lines it says kept apart from the views and prompts."""

    news: list[str]
    telling = False

    def show_events(self, *args, **kwargs) -> None:
        self.telling = True
        try:
            super().show_events(*args, **kwargs)
        finally:
            self.telling = False

    def say(self, text: str = "") -> None:
        if self.telling:
            self.news.extend(text.split("\n"))
        super().say(text)


def run_choices(game: rulelang.Game, seed: int) -> tuple[list[tuple[int, int]], list[dict]]:
    """The choices `rulelang run --seed S` makes, and its full log."""
    recorder = Recorder(seed)
    state = play_out(game.new_state(PLAYERS, seed), recorder)
    assert state.over
    return recorder.choices, state.events


def at_the_terminal(game: rulelang.Game, seed: int, human: int, monkeypatch) -> tuple[Watched, str]:
    """The same game played at the terminal: the human at ``human`` types run's choices, bots make the rest."""
    choices, events = run_choices(game, seed)
    per_seat = {seat: [k for p, k in choices if p == seat] for seat in range(PLAYERS)}
    names = [f"bot{seat}" if seat != human else "human" for seat in range(PLAYERS)]
    monkeypatch.setattr(rulelang.agents, "make_agent", lambda name, seed_: Scripted(per_seat[names.index(name)]))
    given = io.StringIO("".join(f"{k + 1}\n" for k in per_seat[human]))
    shown = io.StringIO()
    table = Watched(game, names, seed, given, shown)
    table.news = []
    table.play()
    assert table.state.events == events                 # the very game `run` plays
    return table, shown.getvalue()


def run_as(seed: int, human: int, capsys) -> list[str]:
    assert cli_main(["run", WHISPERS, "--players", str(PLAYERS), "--seed", str(seed), "--as", f"P{human + 1}"]) == 0
    return capsys.readouterr().out.rstrip("\n").split("\n")


@pytest.fixture(scope="module")
def whispers() -> rulelang.Game:
    return rulelang.load_game(WHISPERS)


@pytest.mark.parametrize("seed", [2, 5])
@pytest.mark.parametrize("human", [0, 1, 2])
def test_the_terminal_tells_a_human_what_run_as_tells_that_player(whispers, seed, human, monkeypatch, capsys):
    table, _ = at_the_terminal(whispers, seed, human, monkeypatch)
    told = table.news
    assert told == run_as(seed, human, capsys)
    assert any(re.fullmatch(r"  P\d chooses \?", line) for line in told)      # others' card choices are hidden


def test_the_player_shown_a_hand_sees_it_in_the_view_and_follows_its_cards(whispers, monkeypatch):
    table, out = at_the_terminal(whispers, 2, 1, monkeypatch)
    shown = next(line for line in table.news if line.startswith("  shown to P2:"))
    assert "P1's hand" in shown
    assert "  shown to you in P1's hand: " in out                  # the view lists them beside the count
    assert re.search(r"^  (Gem|Rock) moves: P1's hand -> vault$", "\n".join(table.news), re.M)


def test_a_human_never_sees_a_hidden_card_a_secret_or_a_variable_not_theirs(whispers, monkeypatch):
    """P3 is shown nothing: every card they hear named is in their own hand or on the public pile."""
    table, out = at_the_terminal(whispers, 5, 2, monkeypatch)
    names = ("Gem", "Rock", "gem", "rock")
    named = [line for line in table.news if any(name in line for name in names)]
    assert named
    for line in named:
        assert "P3" in line or line.endswith("to pile") or "-> pile" in line, line
    assert re.search(r"^  P[12] draws a card to their hand$", "\n".join(table.news), re.M)
    assert re.search(r"^  a card moves: P[12]'s hand -> vault$", "\n".join(table.news), re.M)
    assert "sealed" not in out
    assert not re.search(r"P[12]'s mine|P[12] player[^\n]*mine", out)
    assert re.search(r"P3's mine: \d", out)                            # their own, told as it changes
    full = "\n".join(line for e in table.state.events if (line := _bid(e)))
    assert "P1 bid" in full                                            # the secrets were there to hide


def _bid(event: dict) -> str | None:
    if event["type"] == "chose" and event.get("secret"):
        return f"{event['player']} bid {event['option']}"
    return None
