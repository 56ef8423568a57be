"""`rulelang play`: driven as a person would, through its input, and read off its output."""
from __future__ import annotations

import io
import re
import shutil
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest

from rulelang.cli.play import CLEAR, Table, seat_players
from rulelang.engine.views import Account

from helpers.commands import command
from helpers.games import shipped

ROOT = Path(__file__).resolve().parents[2]
JF = str(ROOT / "games" / "jacks_friends")
FLAPJACKS = str(ROOT / "games" / "flapjacks")


def play(*args: str, given: str) -> subprocess.CompletedProcess:
    """The command run in this process, its input given as typed: what the table says does not depend on the
    process (the program itself is played by ``play_program``, in a pipe and in a real terminal, below)."""
    return command("play", *args, given=given)


def play_program(*args: str, given: str, timeout: float = 120) -> subprocess.CompletedProcess:
    """The command as a program, its input piped in."""
    return subprocess.run([sys.executable, "-m", "rulelang.cli", "play", *args], input=given, cwd=ROOT,
                          capture_output=True, text=True, timeout=timeout)


def screens(out: str) -> list[str]:
    """The output as the screens people saw: split where it was cleared."""
    return out.split(CLEAR)


@pytest.mark.subprocess
def test_a_human_plays_a_whole_game_against_bots():
    done = play_program(JF, "--players", "3", "--seat", "2=human", "--seed", "4", given="1\n" * 200)
    assert done.returncode == 0, done.stderr
    assert "Game over on turn" in done.stdout
    assert "P2, choose secretly:" in done.stdout and "  1. Hen House" in done.stdout
    assert CLEAR not in done.stdout                   # one human: nothing to hide from anyone


def test_bad_answers_are_asked_again():
    done = play(JF, "--players", "3", "--seat", "2=human", given="x\n0\n5\n\n2\nq\n")
    assert done.returncode == 0, done.stderr
    assert done.stdout.count("Please type a number from 1 to 4, or q to quit.") == 4
    assert "you chose: Kitchen" in done.stdout


@pytest.mark.parametrize("given", ["q\n", "", "1\n"])
def test_q_and_the_end_of_input_stop_cleanly(given):
    done = play(JF, "--players", "3", "--seat", "2=human", given=given)
    assert done.returncode == 0 and done.stderr == ""
    assert done.stdout.rstrip().endswith("Game stopped; nothing was saved.")


def test_hot_seat_hides_every_other_hand(tmp_path):
    """Two humans share the screen: each screen shows its own hand by name, every other hand as a count."""
    done = play(FLAPJACKS, "--players", "3", "--seat", "1=human", "--seat", "2=human", "--seed", "2",
                given="1\n" * 600)
    assert done.returncode == 0, done.stderr
    game = shipped("games/flapjacks")
    names = {card.name for card in game.cards}
    turns = [s for s in screens(done.stdout) if "you are P" in s]
    assert {re.search(r"you are (P\d)", s).group(1) for s in turns} == {"P1", "P2"}
    for screen in turns:
        me = re.search(r"you are (P\d)", screen).group(1)
        for seat, shown in re.findall(r"^  (P\d)'s hand: (.*)$", screen, re.M):
            if seat != me:
                assert re.fullmatch(r"\d+ cards? face down|empty", shown), (me, seat, shown)
        for seat, card in re.findall(r"^  (P\d) draws (.+) to their hand$", screen, re.M):
            assert seat == me or card == "a card", (me, seat, card)
            assert seat != me or card in names


def test_the_screen_is_cleared_and_handed_over_between_humans():
    done = play(FLAPJACKS, "--players", "3", "--seat", "1=human", "--seat", "2=human", "--seed", "2",
                given="1\n" * 600)
    parts = screens(done.stdout)
    for before, prompt, after in zip(parts, parts[1:], parts[2:]):
        if "you are P1" in before and "you are P2" in after:
            assert prompt.startswith("P2's turn to choose. Pass the screen to P2 and press Enter")
            break
    else:
        pytest.fail("no hand-over from P1 to P2")


def test_secret_choices_are_asked_of_each_human_with_the_screen_cleared_between():
    done = play(JF, "--players", "3", "--seat", "2=human", "--seat", "3=human", "--seed", "1",
                given="1\n2\n" * 100)
    assert done.returncode == 0, done.stderr
    parts = screens(done.stdout)
    asked = [i for i, s in enumerate(parts) if "choose secretly" in s]
    assert len(asked) >= 2
    for i in asked:
        me = re.search(r"you are (P\d)", parts[i]).group(1)
        assert parts[i - 1].startswith(f"{me}'s turn to choose")
        assert parts[i].count("you chose:") == 1          # only this human's own choice is on this screen
    first_round = [re.search(r"you are (P\d)", parts[i]).group(1) for i in asked[:2]]
    assert first_round == ["P2", "P3"]


def test_a_card_moving_out_of_sight_is_not_named():
    """Terminal play tells events through a player's `views.Account`."""
    game = shipped("games/flapjacks")
    state = game.new_state(3, 1)
    draw = next(e for e in state.events if e["type"] == "moved" and e["to"] == "hand:P2")
    assert Account(game, 1).tell(draw) == draw
    assert Account(game, 0).tell(draw)["card"] == "a card"
    assert Account(game, None).tell(draw)["card"] == "a card"
    public = {"type": "moved", "card": "x", "from": "hand:P2", "to": "jack_discard"}
    assert Account(game, 0).tell(public) == public


def test_seats_are_checked():
    assert seat_players(["2=human", "3=first"], ("random",) * 3) == ["random", "human", "first"]
    for bad, words in [("4=human", "seats are 1 to 3"), ("2=humna", "did you mean 'human'?"), ("two=human", "N=human")]:
        with pytest.raises(ValueError, match=words):
            seat_players([bad], ("random",) * 3)


def test_a_bad_seat_is_a_usage_error():
    done = play(JF, "--players", "3", "--seat", "9=human", given="")
    assert done.returncode == 2 and "seats are 1 to 3" in done.stderr and done.stdout == ""


def test_the_table_in_process_shows_the_view_of_the_human_only():
    game = shipped("games/flapjacks")
    shown = io.StringIO()
    table = Table(game, ["human", "random", "random"], 3, io.StringIO("1\n" * 3 + "q\n"), shown)
    with pytest.raises(Exception) as stopped:
        table.play()
    assert type(stopped.value).__name__ == "Quit"
    text = shown.getvalue()
    assert "you are P1" in text and "you are P2" not in text
    hand = table.state.view(0)["zones"]["hand:P1"]
    assert all(card in {c.id for c in game.cards} for card in hand)


@pytest.mark.subprocess
@pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")
def test_played_in_a_real_terminal_under_tmux(tmp_path):
    """Keys typed into a terminal: the prompt, an answer, a wrong answer, then q."""
    session = f"rulelang-play-{uuid.uuid4().hex[:8]}"
    command = f"cd {ROOT} && {sys.executable} -m rulelang.cli play {JF} --players 3 --seat 2=human --seed 4; " \
              f"echo EXIT=$?; sleep 30"
    subprocess.run(["tmux", "new-session", "-d", "-s", session, "-x", "120", "-y", "50", command], check=True)
    try:
        assert _wait_for(session, "Your choice (1-4, q to quit):")
        subprocess.run(["tmux", "send-keys", "-t", session, "7", "Enter"], check=True)
        assert _wait_for(session, "Please type a number from 1 to 4")
        subprocess.run(["tmux", "send-keys", "-t", session, "3", "Enter"], check=True)
        assert _wait_for(session, "you chose: Garden")
        subprocess.run(["tmux", "send-keys", "-t", session, "q", "Enter"], check=True)
        assert _wait_for(session, "EXIT=0")
        assert "Game stopped; nothing was saved." in _pane(session)
    finally:
        subprocess.run(["tmux", "kill-session", "-t", session], capture_output=True)


def _pane(session: str) -> str:
    return subprocess.run(["tmux", "capture-pane", "-p", "-t", session, "-S", "-200"], capture_output=True,
                          text=True).stdout


def _wait_for(session: str, text: str, seconds: float = 60) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if text in _pane(session):
            return True
        time.sleep(0.2)
    return False


def test_without_humans_the_bots_play_it_out_in_public():
    done = play(FLAPJACKS, "--players", "3", "--seed", "5", given="")
    assert done.returncode == 0, done.stderr
    assert "Game over on turn" in done.stdout and CLEAR not in done.stdout
    assert re.search(r"P\d draws a card to their hand", done.stdout)
    assert not re.search(r"P\d draws (?!a card)[^\n]* to their hand", done.stdout)


def test_bots_that_search_play_at_the_terminal_from_their_seat():
    """Greedy and MCTS bots take a seat, not the state (they once failed here: choose(state, player))."""
    done = play(JF, "--players", "3", "--seat", "2=human", "--agents", "greedy:samples=1,random,mcts:iterations=2",
                "--seed", "3", given="1\n" * 200)
    assert done.returncode == 0, done.stderr
    assert "Game over on turn" in done.stdout and "internal error" not in done.stdout + done.stderr


def test_an_answer_in_digits_that_are_not_ascii_is_asked_again():
    """'²'.isdigit() is true and int('²') fails: the answer was an internal error."""
    done = play(JF, "--players", "3", "--seat", "2=human", given="²\n٣\n2\nq\n")
    assert done.returncode == 0, done.stderr
    assert done.stdout.count("Please type a number from 1 to 4, or q to quit.") == 2
    assert "you chose: Kitchen" in done.stdout
