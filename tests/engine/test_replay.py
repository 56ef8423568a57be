"""An event log holds enough to replay its game exactly."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given
from hypothesis import strategies as st

from rulelang.agents import RandomAgent, play_out
from rulelang.cli import main as cli_main
from rulelang.errors import RulelangError
from rulelang.logs.eventlog import LogError, parse_log
from rulelang.logs.replay import replay, verify_log
from rulelang.spec.inputs import canonical

from helpers.commands import command
from helpers.examples import examples
from helpers.games import shipped

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("name, players", [("jacks_friends", 4), ("jacks_friends", 6), ("flapjacks", 3),
                                           ("flapjacks", 8)])
def test_a_log_replays_to_the_same_game(name, players):
    game = shipped(f"games/{name}")
    for seed in range(3):
        played = play_out(game.new_state(players, seed), RandomAgent(seed + 100))
        log = [json.loads(json.dumps(e)) for e in played.events]      # as read back from a JSON-lines file
        again = replay(game, log)
        assert again.events == played.events
        assert again.dumps() == played.dumps()


def test_a_log_must_start_at_the_start():
    game = shipped("games/jacks_friends")
    events = play_out(game.new_state(3, 1), RandomAgent(1)).events
    with pytest.raises(RulelangError):
        replay(game, events[1:])


# --- a log is untrusted: verify_log and `rulelang replay` compare every event with the game's ------------

JACKS = shipped("games/jacks_friends")
FLAP = shipped("games/flapjacks")


def logged(game, players: int, seed: int) -> list[dict]:
    """The events of a random game, as read back from a JSON-lines file."""
    played = play_out(game.new_state(players, seed), RandomAgent(seed))
    return [json.loads(json.dumps(e)) for e in played.events]


def log_text(events: list[dict]) -> str:
    return "".join(canonical(e) + "\n" for e in events)


def first_index(events: list[dict], kind: str) -> int:
    return next(i for i, e in enumerate(events) if e["type"] == kind)


def test_a_true_log_matches_and_says_how_the_game_ended():
    events = logged(FLAP, 3, 7)
    check = verify_log(FLAP, events)
    assert check.ok and check.state.over and check.line is None
    assert canonical(check.state.events) == canonical(events)
    assert replay(FLAP, events).dumps() == check.state.dumps()


def test_forged_winners_are_the_last_line_that_differs():
    events = logged(JACKS, 4, 3)
    real = events[-1]["winners"]
    events[-1]["winners"] = [p for p in ["P1", "P2", "P3", "P4"] if p not in real][:1]
    check = verify_log(JACKS, events)
    assert not check.ok and check.line == len(events)
    assert check.expected["winners"] == real and check.found == events[-1]
    with pytest.raises(RulelangError):
        replay(JACKS, events)


def test_a_forged_move_is_found_at_its_line():
    events = logged(FLAP, 3, 2)
    k = first_index(events, "moved")
    events[k]["to"] = "cut:P1" if events[k]["to"] != "cut:P1" else "cut:P2"
    check = verify_log(FLAP, events)
    assert (check.ok, check.line) == (False, k + 1)
    assert check.found["to"] != check.expected["to"]


def test_a_changed_start_is_found():
    events = logged(JACKS, 4, 5)
    changed = [dict(events[0], roles=list(reversed(events[0]["roles"]))), dict(events[0], game="Another game"),
               dict(events[0], first="P4" if events[0]["first"] != "P4" else "P3")]
    for start in changed:
        if start == events[0]:
            continue
        check = verify_log(JACKS, [start] + events[1:])
        assert (check.ok, check.line) == (False, 1), start
    rolled = logged(FLAP, 3, 5)            # a game of chance: another seed shuffles and rolls otherwise
    reseeded = verify_log(FLAP, [dict(rolled[0], seed=rolled[0]["seed"] + 1)] + rolled[1:])
    assert not reseeded.ok


def test_a_forged_choice_or_an_extra_line_or_a_cut_is_found():
    events = logged(FLAP, 2, 4)
    k = first_index(events, "chose")
    choice = events[k]
    state = FLAP.new_state(2, events[0]["seed"])
    others = [o for o in state.legal(int(choice["player"][1:]) - 1) if o != choice["option"]]
    forged = events[:k] + [dict(choice, option=others[0])] + events[k + 1:]
    assert not verify_log(FLAP, forged).ok
    assert verify_log(FLAP, events + [events[-1]]).line == len(events) + 1
    assert verify_log(FLAP, events[:-1]).line == len(events)
    cut = verify_log(FLAP, events[:k])
    assert (cut.line, cut.found) == (k + 1, None) and "waits for a decision" in cut.reason
    assert verify_log(FLAP, events[:k], partial=True).ok
    illegal = events[:k] + [dict(choice, option="no-such-option")] + events[k + 1:]
    assert verify_log(FLAP, illegal).line == k + 1


def test_the_python_api_refuses_values_that_are_not_events():
    events = logged(JACKS, 3, 1)
    assert verify_log(JACKS, []).line == 1
    assert verify_log(JACKS, {"type": "started"}).line == 1
    assert verify_log(JACKS, events[1:]).line == 1
    assert verify_log(JACKS, events[:3] + ["junk"] + events[4:]).line == 4
    assert verify_log(JACKS, [dict(events[0], players=99)] + events[1:]).line == 1
    typed = [dict(e) for e in events]
    k = first_index(typed, "turn")
    typed[k]["turn"] = True if typed[k]["turn"] == 1 else typed[k]["turn"]   # true == 1 in Python, not in JSON
    if typed[k]["turn"] is True:
        assert not verify_log(JACKS, typed).ok


# --- the command ----------------------------------------------------------------------

def cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "rulelang.cli", *args], cwd=ROOT, capture_output=True,
                          text=True, timeout=120)


def test_replay_command_exits_0_on_a_true_log(tmp_path):
    log = tmp_path / "game.jsonl"
    done = command("run", "games/flapjacks", "--players", "3", "--seed", "9", "--quiet", "--log", str(log))
    assert done.returncode == 0, done.stderr
    done = command("replay", "games/flapjacks", str(log))
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith(f"ok: {log} matches its replay")


def test_replay_command_names_the_first_line_that_differs(tmp_path):
    events = logged(JACKS, 4, 2)
    k = first_index(events, "step")
    del events[k]                                     # a line gone: the game's step is where the log goes on
    log = tmp_path / "cut.jsonl"
    log.write_text(log_text(events), encoding="utf-8")
    done = command("replay", "games/jacks_friends", str(log))
    assert done.returncode == 1
    assert done.stderr.startswith(f"{log}:{k + 1}:1: error: the log differs from the replayed game")
    assert "note: expected: {" in done.stderr and "note: found:    {" in done.stderr
    assert "Traceback" not in done.stderr


def _bad_logs(tmp_path, events):
    good = log_text(events).splitlines(keepends=True)
    cases = {
        "notjson": (good[0] + '{"type": "turn", "turn": \n', 2, 26),
        "unknown": (good[0] + '{"type": "teleported", "turn": 1}\n', 2, 1),
        "wrongtype": (good[0] + '{"type": "turn", "turn": "one"}\n', 2, 1),
        "nostart": ("".join(good[1:]), 1, 1),
        "empty": ("", 1, 1),
        "blank": (good[0] + "\n" + "".join(good[1:]), 2, 1),
        "twice": (good[0] + '{"type": "turn", "turn": 1, "turn": 2}\n', 2, 1),
        "nan": (good[0] + '{"type": "turn", "turn": NaN}\n', 2, 1),
        "deep": (good[0] + "[" * 50_000 + "\n", 2, 1),
        "long": (good[0] + '{"type": "turn", "turn": 1, "x": "' + "a" * (1 << 20) + '"}\n', 2, (1 << 20) + 1),
        "bignumber": (good[0] + '{"type": "turn", "turn": ' + "9" * 5000 + "}\n", 2, 1),
    }
    for name, (text, line, col) in cases.items():
        path = tmp_path / f"{name}.jsonl"
        path.write_text(text, encoding="utf-8")
        yield name, path, line, col
    binary = tmp_path / "binary.jsonl"
    binary.write_bytes(good[0].encode() + b'{"type": "tu\xff\xfern"}\n')
    yield "binary", binary, 2, 13
    nul = tmp_path / "nul.jsonl"
    nul.write_bytes(good[0].encode() + b"\x00\n")
    yield "nul", nul, 2, 1


@pytest.mark.subprocess
def test_a_malformed_log_is_a_located_error(tmp_path, capsys):
    events = logged(JACKS, 3, 1)
    for name, path, line, col in _bad_logs(tmp_path, events):
        code = cli_main(["replay", str(ROOT / "games" / "jacks_friends"), str(path)])
        err = capsys.readouterr().err
        assert code == 1, (name, err)
        assert err.startswith(f"{path}:{line}:{col}: error: "), (name, err[:300])
        assert "Traceback" not in err and len(err) < 3000, name
    done = cli("replay", "games/jacks_friends", str(tmp_path / "binary.jsonl"))      # and from the shell
    assert done.returncode == 1 and done.stderr.startswith(f"{tmp_path / 'binary.jsonl'}:2:13: error: ")


@pytest.mark.subprocess
def test_a_log_that_is_not_a_regular_file_is_refused_at_once(tmp_path):
    fifo = tmp_path / "fifo.jsonl"
    os.mkfifo(fifo)
    for path in (fifo, tmp_path, Path("/dev/zero")):
        if not path.exists():
            continue
        done = cli("replay", "games/jacks_friends", str(path))
        said = "is a folder, not a file" if path.is_dir() else "is not a regular file"
        assert done.returncode == 1 and said in done.stderr, done.stderr
        assert done.stderr.startswith(f"{path}:1:1: error: ")
    done = cli("replay", "games/jacks_friends", str(tmp_path / "missing.jsonl"))
    assert done.returncode == 2 and "no such file" in done.stderr


# --- random damage to a real log: found, or harmless -----------------------------------

REAL = logged(JACKS, 4, 11)
REAL_TEXT = log_text(REAL).encode("utf-8")
LINES = REAL_TEXT.splitlines(keepends=True)


def _damage(data, how: str) -> bytes:
    """One random change to the log's bytes or lines."""
    if how == "byte":
        i = data.draw(st.integers(0, len(REAL_TEXT) - 1))
        return REAL_TEXT[:i] + bytes([data.draw(st.integers(0, 255))]) + REAL_TEXT[i + 1:]
    if how == "cut":
        return REAL_TEXT[:data.draw(st.integers(0, len(REAL_TEXT) - 1))]
    if how == "insert":
        i = data.draw(st.integers(0, len(REAL_TEXT)))
        return REAL_TEXT[:i] + data.draw(st.binary(min_size=1, max_size=8)) + REAL_TEXT[i:]
    lines = list(LINES)
    i = data.draw(st.integers(0, len(lines) - 1))
    j = data.draw(st.integers(0, len(lines) - 1))
    if how == "drop":
        del lines[i]
    elif how == "repeat":
        lines.insert(j, lines[i])
    elif how == "swap":
        lines[i], lines[j] = lines[j], lines[i]
    else:                                               # change one value of one event
        event = json.loads(lines[i])
        key = data.draw(st.sampled_from(sorted(event)))
        event[key] = data.draw(st.one_of(st.none(), st.booleans(), st.integers(-2, 40), st.text(max_size=6),
                                          st.sampled_from(["P1", "P2", "P3", "P4", "P5"]), st.lists(st.integers(0, 4))))
        lines[i] = (json.dumps(event) + "\n").encode("utf-8")
    return b"".join(lines)


@examples(200, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), how=st.sampled_from(["byte", "cut", "insert", "drop", "repeat", "swap", "value"]))
def test_random_damage_to_a_log_is_found_or_changes_nothing(data, how):
    damaged = _damage(data, how)
    try:
        events = parse_log(damaged, "game.jsonl")
    except LogError as error:
        assert error.span is not None and error.span.file == "game.jsonl" and error.span.line >= 1
        return
    check = verify_log(JACKS, events)
    if check.ok:
        # Either JSON does not see the change (spacing, key order), or the damaged log is itself the
        # true log of another game: a seed that changes no draw of this game, say. Then a fresh
        # replay of its start and choices must give exactly its events.
        if [canonical(e) for e in events] != [canonical(e) for e in REAL]:
            assert [canonical(e) for e in replay(JACKS, events).events] == [canonical(e) for e in events]
    else:
        assert 1 <= check.line <= len(events) + 1
