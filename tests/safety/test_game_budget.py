"""A whole game is bounded: its work (`game_budget`) and the events its log keeps (`event_limit`).

`step_budget` bounds the work between two decisions and `turn: limit` the turns, but a game may stay
within both and still play for hours, or fill memory with events, by doing a great deal between every
pair of decisions. The two hostile games below (issue 29) stop within seconds with the default budgets,
with an error at the rule where the game ran out, in every way a game is played: frames (`run`, `replay`,
the adapters), decisions answered in place (`validate`, the lab), with or without its history.
"""
from __future__ import annotations

import time
from pathlib import Path

import pytest

import rulelang
from rulelang.agents import RandomAgent, play_out
from rulelang.cli import main
from rulelang.engine.speedups import ALL_ON
from rulelang.errors import RuleError, RulelangError
from rulelang.model.spec import EVENT_LIMIT, GAME_BUDGET

from helpers.valid_game import VALID
from helpers.valid_game import derive as derive_valid
from helpers.valid_game import line_of as line_in

ENDLESS = ("limit: 60", "limit: 100000")
#: Well under the default budget between two decisions, over and over: 98,000 units a turn.
HARD_WORK = "for each i in range(0, 49000):\n  x = i\nme chooses n from 0 to 1"
#: A decision inside `while true`, each pass changing counters 99,000 times: a million events in ten passes.
CHATTY = "while true:\n  me chooses n from 0 to 1\n  for each i in range(0, 33000):\n    me.coin += 1\n" \
         "    me.bet = i\n    me.bet = 0"
#: What the default budgets must take at most, on a loaded machine (a few seconds on a quiet one).
SECONDS = 60
#: Each hostile game is played under the default budget (seconds of play: the slow tier) and under a small
#: one the spec sets (the fast tier): the same rules stop it the same way, at a limit of either size.
BUDGETS = [pytest.param(None, id="default", marks=pytest.mark.slow), pytest.param(500_000, id="set")]
EVENT_LIMITS = [pytest.param(None, id="default", marks=pytest.mark.slow), pytest.param(20_000, id="set")]


def derive(tmp_path: Path, effect: str, *changes: tuple[str, str]) -> Path:
    """The tiny valid game's folder with its first step's effect replaced, and each (old, new) made once."""
    return derive_valid(tmp_path, *changes, effect=effect).parent


def line_of(folder: Path, text: str) -> int:
    return line_in(folder / "game.yaml", text)


def setting(key: str, value: int | None) -> tuple[tuple[str, str], ...]:
    """The change to the tiny game that sets the top-level ``key`` to ``value``; none keeps the default."""
    return () if value is None else (("turn:", f"{key}: {value}\n\nturn:"),)


def out_of_work(budget: int | None) -> str:
    """The start of the error of a game that ran out of ``budget`` (the default when None)."""
    return f"the game ran out of its {budget or GAME_BUDGET:,} steps of work"


def played(game, way: str):
    """Play seed 3 with random agents as `way` does; the RuleError it stops with (its ``state`` the game as
    far as it went), and the seconds it took."""
    started = time.perf_counter()
    state = None
    with pytest.raises(RuleError) as caught:
        if way == "frames":             # run, replay, the adapters: every decision through the run loop
            state = game.new_state(2, seed=3)
        else:                           # validate's smoke games, and the lab (play_new) without the history
            state = game.new_state(2, seed=3, before_first_turn=True, history=way != "lab")
        play_out(state, RandomAgent(3))
    if state is not None:               # else the error holds the state its setup reached
        caught.value.state = state
    return caught.value, time.perf_counter() - started


WAYS = ["frames", "in place", "lab"]


@pytest.mark.parametrize("budget", BUDGETS)
@pytest.mark.parametrize("way", WAYS)
def test_a_game_that_works_hard_between_every_decision_runs_out_of_its_budget(tmp_path: Path, way: str,
                                                                               budget: int | None) -> None:
    folder = derive(tmp_path, HARD_WORK, ENDLESS, *setting("game_budget", budget))
    error, took = played(rulelang.load_game(folder), way)
    assert error.message.startswith(out_of_work(budget))
    assert error.span.line == line_of(folder, "for each i in range(0, 49000)")    # where the work is done
    assert "game_budget" in error.hint and "seed 3" in error.hint
    assert took < SECONDS


@pytest.mark.parametrize("budget", BUDGETS)
def test_the_game_runs_out_at_the_same_turn_however_it_is_played(tmp_path: Path, budget: int | None) -> None:
    """Both run loops count the same work, and so does a game started from a kept start."""
    game = rulelang.load_game(derive(tmp_path, HARD_WORK, ENDLESS, *setting("game_budget", budget)))
    turns = {way: played(game, way)[0].state.turn for way in ["frames", "in place"]}
    assert turns["frames"] == turns["in place"] == (budget or GAME_BUDGET) // 98_000 + 1


@pytest.mark.parametrize("limit", EVENT_LIMITS)
@pytest.mark.parametrize("way", ["frames", "in place"])
def test_a_decision_in_an_endless_loop_that_changes_counters_stops_at_the_event_limit(tmp_path: Path, way: str,
                                                                                      limit: int | None) -> None:
    folder = derive(tmp_path, CHATTY, *setting("event_limit", limit))
    error, took = played(rulelang.load_game(folder), way)
    kept = limit or EVENT_LIMIT
    assert error.message.startswith(f"the game's log holds more than its limit of {kept:,} events")
    assert error.span.line == line_of(folder, "me chooses n from 0 to 1")      # the decision it was found at
    assert "event_limit" in error.hint
    assert kept < len(error.state.log) <= kept + 100_000     # one pass past the limit at most
    assert took < SECONDS


@pytest.mark.parametrize("budget", BUDGETS)
def test_without_its_history_the_same_game_keeps_few_events_and_runs_out_of_work_instead(
        tmp_path: Path, budget: int | None) -> None:
    """The lab keeps no record of each change: the log stays small, and the work still ends the game."""
    error, _ = played(rulelang.load_game(derive(tmp_path, CHATTY, *setting("game_budget", budget))), "lab")
    assert error.message.startswith(out_of_work(budget))
    assert len(error.state.log) < 1000


def test_a_game_may_set_its_own_budgets_within_their_bounds(tmp_path: Path) -> None:
    folder = derive(tmp_path, HARD_WORK, ENDLESS, ("turn:", "game_budget: 500000\nevent_limit: 2000\n\nturn:"))
    game = rulelang.load_game(folder)
    assert (game.game_budget, game.event_limit) == (500_000, 2000)
    error, _ = played(game, "frames")
    assert error.message.startswith("the game ran out of its 500,000 steps of work")
    assert error.state.turn == 6


@pytest.mark.parametrize("key, value", [("game_budget", 10), ("game_budget", 10 ** 9), ("event_limit", 0),
                                        ("event_limit", 10 ** 8)])
def test_budgets_out_of_bounds_are_located_spec_errors(tmp_path: Path, key: str, value: int) -> None:
    folder = derive(tmp_path, "pass", ("turn:", f"{key}: {value}\n\nturn:"))
    with pytest.raises(RulelangError) as caught:
        rulelang.load_game(folder)
    assert key in caught.value.format() and caught.value.span.line == line_of(folder, f"{key}:")


def test_the_events_a_game_may_keep_are_counted_at_each_decision(tmp_path: Path) -> None:
    folder = derive(tmp_path, "draw 1 from deck to me.hand", ENDLESS, ("turn:", "event_limit: 1000\n\nturn:"),
                    ("pot.coin >= 8", "pot.coin >= 8000"))
    error, _ = played(rulelang.load_game(folder), "in place")
    assert error.message.startswith("the game's log holds more than its limit of 1,000 events")
    assert error.span.line == line_of(folder, "me chooses n from 0 to me.coin")


def test_a_copy_goes_on_with_the_budget_its_game_has_left(tmp_path: Path) -> None:
    game = rulelang.load_game(derive(tmp_path, HARD_WORK, ENDLESS))
    state = game.new_state(2, seed=5)
    before = state.reserve
    for _ in range(3):
        state.apply_index(0)
    copy = state.copy()
    assert (copy.allowed, copy.reserve) == (state.allowed, state.reserve)
    assert before - state.reserve >= 98_000           # a turn of hard work at least


def test_a_start_kept_in_memory_has_spent_what_its_setup_spent() -> None:
    """Kuhn poker's deal draws little, so its starts are kept (starts.py): a kept start has the budget left
    that the setup played afresh leaves, or one game would run out where the same game kept would not."""
    path = Path(__file__).resolve().parents[2] / "examples" / "kuhn_poker"
    game = rulelang.load_game(path)
    afresh = rulelang.load_game(path, speedups=ALL_ON.without("kept_starts"))    # every start played afresh
    fresh = [(s.allowed, s.reserve) for s in (afresh.new_state(2, seed) for seed in range(6))]
    kept = [(s.allowed, s.reserve) for s in (game.new_state(2, seed) for seed in range(6) for _ in range(2))]
    assert kept[1::2] == kept[::2] == fresh
    assert all(reserve < GAME_BUDGET - game.step_budget for _, reserve in fresh)


def test_recursion_that_branches_stops_at_the_step_budget_when_played_in_place_too(tmp_path: Path) -> None:
    """A procedure calling itself twice has no loop to charge: each call is a unit of work in both run loops."""
    fib = ("  pay:\n", "  fib:\n    params: {n: int}\n    effect: |\n      if n > 1:\n        fib(n - 1)\n"
                       "        fib(n - 2)\n  pay:\n")
    folder = derive(tmp_path, "fib(30)", fib)
    game = rulelang.load_game(folder)
    for way in ["frames", "in place"]:
        error, took = played(game, way)
        assert error.message.startswith("the rules ran 100,000 steps without a decision"), way
        assert took < SECONDS


# --- the commands --------------------------------------------------------------------------------

def cli(args: list[str], capsys) -> tuple[int, str, str]:
    capsys.readouterr()
    code = main(args)
    out, err = capsys.readouterr()
    assert "Traceback" not in err
    return code, out, err


def test_run_stops_at_the_game_budget_with_a_located_error_and_keeps_the_log(tmp_path: Path, capsys) -> None:
    folder = derive(tmp_path, HARD_WORK, ENDLESS, ("turn:", "game_budget: 300000\n\nturn:"))
    log = tmp_path / "game.jsonl"
    code, _, err = cli(["run", str(folder), "--players", "2", "--log", str(log), "--quiet"], capsys)
    assert code == 1
    line = line_of(folder, "for each i in range(0, 49000)")
    assert err.startswith(f"{folder}/game.yaml:{line}:9: error: the game ran out of its 300,000 steps of work")
    assert "the event log up to the error" in err and log.read_text().count("\n") > 10


def test_validate_reports_the_game_budget_with_the_seed_to_replay(tmp_path: Path, capsys) -> None:
    folder = derive(tmp_path, HARD_WORK, ENDLESS, ("turn:", "game_budget: 300000\n\nturn:"))
    code, _, err = cli(["validate", "--games", "2", str(folder)], capsys)
    assert code == 1
    assert "the game ran out of its 300,000 steps of work" in err
    assert "replay it with: rulelang run" in err


def test_validate_stops_each_player_counts_games_at_its_time_limit_and_says_how_many_it_played(
        tmp_path: Path, capsys) -> None:
    """Games of 40,000 units a turn: slow, within every budget. The batch stops at the limit."""
    folder = derive(tmp_path, "draw 1 from deck to me.hand\nfor each i in range(0, 20000):\n  x = i")
    started = time.perf_counter()
    code, out, err = cli(["validate", "--games", "1000", "--time-limit", "0.2", str(folder)], capsys)
    took = time.perf_counter() - started
    assert code == 0
    assert "stopped at the time limit of 0.2s a player count" in out and "those of 2, 3 players" in out
    played_count = int(out.split(" of its 2000 random games")[0].rsplit(", ", 1)[1])
    assert 2 <= played_count < 100
    assert f"the random games stopped at the time limit ({played_count} of 2000 played)" in err
    assert took < SECONDS


@pytest.mark.parametrize("value", ["0", "-1", "nan", "inf", "soon"])
def test_a_time_limit_that_is_not_a_positive_number_of_seconds_is_a_usage_error(capsys, value: str) -> None:
    code, _, err = cli(["validate", "--time-limit", value, str(VALID)], capsys)
    assert code == 2 and "expected a number of seconds above 0" in err


def test_validate_within_its_time_limit_plays_every_game(capsys) -> None:
    code, out, err = cli(["validate", "--games", "3", str(VALID)], capsys)
    assert (code, err) == (0, "")
    assert "3 random games per player count" in out and "time limit" not in out


def test_simulate_reports_each_game_that_ran_out_of_its_budget(tmp_path: Path, capsys) -> None:
    folder = derive(tmp_path, HARD_WORK, ENDLESS, ("turn:", "game_budget: 300000\n\nturn:"))
    code, out, err = cli(["simulate", str(folder), "--players", "2", "--games", "2"], capsys)
    assert code == 1
    assert "0 finished, 2 failed" in out
    assert "error: the game ran out of its 300,000 steps of work" in err


def test_the_adapters_states_stop_at_the_game_budget(tmp_path: Path) -> None:
    """An OpenSpiel or PettingZoo game moves through SpecTable.apply: every decision through the run loop."""
    from rulelang.adapters.core import SpecTable

    folder = derive(tmp_path, HARD_WORK, ENDLESS, ("turn:", "game_budget: 300000\n\nturn:"))
    table = SpecTable(folder, 2)
    state = table.new_state(3)
    with pytest.raises(RuleError) as caught:
        for _ in range(1000):
            player = table.mover(state)
            table.apply(state, player, table.legal_actions(state, player)[0])
    assert caught.value.message.startswith("the game ran out of its 300,000 steps of work")
    assert caught.value.span.line == line_of(folder, "for each i in range(0, 49000)")
