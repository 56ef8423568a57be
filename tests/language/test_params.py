"""`params:`: declared settings of a game instance, checked, folded into the rules, recorded in logs."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

import rulelang
from rulelang import ParamError
from rulelang.agents import RandomAgent, play_out
from rulelang.cli import main as cli_main
from rulelang.model.params import parse_assignments, resolve
from rulelang.testing.scenario import load_scenarios, run_scenario

from helpers.examples import examples

ROOT = Path(__file__).resolve().parents[2]
PIG = ROOT / "examples" / "pig"
FLAPJACKS = ROOT / "games" / "flapjacks"

_PIGS: dict[int, rulelang.Game] = {}


def pig(goal: int) -> rulelang.Game:
    if goal not in _PIGS:
        _PIGS[goal] = rulelang.load_game(PIG, params={"goal": goal})
    return _PIGS[goal]


def test_a_param_takes_its_default_when_none_is_given():
    assert rulelang.load_game(PIG).params == {"goal": 100}


@examples(15)
@given(goal=st.integers(1, 40), seed=st.integers(0, 10_000))
def test_the_goal_param_decides_when_pig_ends(goal, seed):
    state = play_out(pig(goal).new_state(2, seed), RandomAgent(seed))
    banked = [state.counter(p, "banked") for p in range(2)]
    winner = state.winners[0]
    assert banked[winner] >= goal
    assert banked[1 - winner] < goal          # the game ended as soon as one player reached the goal


@pytest.mark.parametrize("given, words", [
    ({"gaol": 5}, ["no param 'gaol'", "did you mean 'goal'?"]),
    ({"goal": 0}, ["param 'goal'", "from 1 to 10000", "not 0"]),
    ({"goal": 10001}, ["from 1 to 10000"]),
    ({"goal": "ten"}, ["whole number", "'ten'"]),
    ({"goal": True}, ["whole number", "True"]),
    ({"goal": "²"}, ["whole number", "'²'"]),            # str.isdigit takes it, int() does not
    ({"goal": "+-5"}, ["whole number", "'+-5'"]),
    ({"goal": "--5"}, ["whole number", "'--5'"]),
    ({"goal": "1" * 31}, ["whole number"]),
])
def test_a_refused_value_names_the_param_and_its_bounds(given, words):
    with pytest.raises(ParamError) as refused:
        rulelang.load_game(PIG, params=given)
    for word in words:
        assert word in str(refused.value)


def test_a_bool_param_reads_true_and_false_from_text():
    declared = {"fast": {"type": "bool", "default": False}}
    assert resolve(declared, {"fast": "true"}) == {"fast": True}
    assert resolve(declared, {}) == {"fast": False}
    with pytest.raises(ParamError, match="true or false"):
        resolve(declared, {"fast": "1"})


def test_assignments_need_a_name_and_an_equals_sign():
    assert parse_assignments(["a=1", "b = 2"]) == {"a": "1", "b": " 2"}
    for bad in (["a"], ["=3"], ["a=1", "a=2"]):
        with pytest.raises(ParamError):
            parse_assignments(bad)


def bool_game(tmp_path: Path) -> Path:
    """A tiny game whose end depends on a bool param: with `short`, it ends after one turn."""
    (tmp_path / "game.yaml").write_text("""\
game: Short or long
players: {min: 2, max: 2}
params:
  short: {type: bool, default: false}
turn:
  order: seat
  steps:
    - name: wait
      effect: check end
end:
  - name: done
    when: short or turn >= 5
    winner: players
""")
    return tmp_path


def test_a_bool_param_is_a_condition_in_rule_texts(tmp_path):
    folder = bool_game(tmp_path)
    short = play_out(rulelang.load_game(folder, params={"short": True}).new_state(2, 0), RandomAgent(0))
    long = play_out(rulelang.load_game(folder).new_state(2, 0), RandomAgent(0))
    assert short.turn < long.turn


def test_only_a_game_with_params_records_them_in_its_started_event():
    assert pig(7).new_state(2, 1).events[0]["params"] == {"goal": 7}
    assert "params" not in rulelang.load_game(FLAPJACKS).new_state(3, 1).events[0]


def run_cli(args: list[str], capsys) -> tuple[int, str, str]:
    code = cli_main(args)
    out, err = capsys.readouterr()
    return code, out, err


def test_run_takes_param_and_replay_reads_it_from_the_log(tmp_path, capsys):
    log = tmp_path / "game.log"
    code, out, _ = run_cli(["run", str(PIG), "--players", "2", "--seed", "4", "--param", "goal=12", "--quiet",
                            "--json", "--log", str(log)], capsys)
    assert code == 0
    assert json.loads(log.read_text().splitlines()[0])["params"] == {"goal": 12}
    assert run_cli(["replay", str(PIG), str(log)], capsys)[0] == 0
    forged = log.read_text()          # a log that says another goal replays with it, so the end differs
    forged = forged.replace('"params":{"goal":12}', '"params":{"goal":500}', 1)
    log.write_text(forged)
    assert run_cli(["replay", str(PIG), str(log)], capsys)[0] == 1


@pytest.mark.parametrize("command", [
    ["run", str(PIG), "--players", "2"], ["validate", str(PIG), "--games", "1"],
    ["simulate", str(PIG), "--players", "2", "--games", "2"], ["play", str(PIG), "--players", "2"],
    ["sweep", str(PIG), "--players", "2", "--games", "2", "--vary", "players.max=5,6"],
])
def test_a_refused_param_is_a_usage_error_on_every_command(command, capsys):
    code, _, err = run_cli(command + ["--param", "goal=0"], capsys)
    assert code == 2
    assert "param 'goal' must be a whole number from 1 to 10000, not 0" in err


@pytest.mark.subprocess
def test_simulate_plays_with_the_param_given(capsys):
    def mean_turns(goal: int) -> float:
        code, out, _ = run_cli(["simulate", str(PIG), "--players", "2", "--games", "20", "--param", f"goal={goal}",
                                "--workers", "2", "--json"], capsys)
        assert code == 0
        return json.loads(out.splitlines()[-1])["turns"]["mean"]
    assert mean_turns(1) * 5 < mean_turns(100)     # a goal of 1 is met by the first hold


def test_a_scenario_sets_params_and_a_refused_one_is_located(tmp_path):
    file = tmp_path / "scenarios" / "s.yaml"
    file.parent.mkdir()
    file.write_text(f"game: {PIG}\nscenario: a goal out of bounds\nplayers: 2\nparams: {{goal: -1}}\n")
    result = run_scenario(load_scenarios(file)[0])
    assert result.error is not None and "s.yaml:4:" in result.error and "param 'goal'" in result.error


def test_test_param_sets_every_scenario_under_its_own_params(capsys):
    assert run_cli(["test", str(PIG)], capsys)[0] == 0
    code, out, _ = run_cli(["test", str(PIG), "--param", "goal=5"], capsys)
    assert code == 1                                  # 9 banked now ends the first scenario's game
    assert "PASS  examples/pig/scenarios/pig.yaml: With a goal of 10" in out.replace(str(ROOT) + "/", "")


def test_a_saved_state_is_loaded_only_into_a_game_with_its_params():
    state = pig(7).new_state(2, 1)
    saved = json.loads(state.dumps())
    assert rulelang.State.from_json(pig(7), saved).events[0]["params"] == {"goal": 7}
    with pytest.raises(rulelang.RulelangError, match="params"):
        rulelang.State.from_json(pig(100), saved)


def test_a_log_whose_params_the_game_refuses_is_a_usage_error(tmp_path, capsys):
    log = tmp_path / "game.log"
    assert run_cli(["run", str(PIG), "--players", "2", "--quiet", "--log", str(log)], capsys)[0] == 0
    log.write_text(log.read_text().replace('"params":{"goal":100}', '"params":{"goal":0}', 1))
    code, _, err = run_cli(["replay", str(PIG), str(log)], capsys)
    assert code == 2 and "game.log" in err and "param 'goal' must be a whole number from 1 to 10000" in err


@pytest.mark.parametrize("value", ["²", "+-5", "٣"])
def test_a_value_that_is_no_ascii_number_is_a_usage_error_on_the_command_line_and_in_a_log(value, tmp_path, capsys):
    """These were internal errors: str.isdigit takes '²' and '٣', and one stripped sign left '-5' to int()."""
    code, _, err = run_cli(["run", str(PIG), "--players", "2", "--param", f"goal={value}"], capsys)
    assert code == 2 and f"param 'goal' must be a whole number from 1 to 10000, not '{value}'" in err
    log = tmp_path / "game.log"
    assert run_cli(["run", str(PIG), "--players", "2", "--quiet", "--log", str(log)], capsys)[0] == 0
    log.write_text(log.read_text().replace('"params":{"goal":100}', json.dumps({"params": {"goal": value}})[1:-1], 1))
    code, _, err = run_cli(["replay", str(PIG), str(log)], capsys)
    assert code == 2 and "game.log" in err and "param 'goal' must be a whole number" in err


def test_a_signed_number_in_text_still_reads():
    assert rulelang.load_game(PIG, params={"goal": " +12 "}).params == {"goal": 12}


@examples(300)
@given(st.text(max_size=40) | st.sampled_from(["²", "³", "٣", "𝟘", "+-5", "-+5", "--5", "++5", "1_000", " 7 "]))
def test_any_text_for_an_int_param_is_a_value_or_a_param_error(text):
    """Whatever text a command line, a log or a scenario gives, the answer is a value within bounds or a
    ParamError (never an internal error); a value read is the ASCII number the text writes."""
    declared = {"goal": {"type": "int", "default": 5, "min": -1000, "max": 1000}}
    try:
        value = resolve(declared, {"goal": text})["goal"]
    except ParamError:
        return
    assert -1000 <= value <= 1000 and text.strip().lstrip("+-").isascii()
    assert int(text.strip()) == value
