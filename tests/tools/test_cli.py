"""The `rulelang` command when things go wrong: full disks, interrupts, crashes, bad paths.

- `run --log FILE` writes beside FILE and renames: an old log survives until the
  new one is complete; a full disk or an interrupt still lands the events written
  so far (whole lines) in FILE, and the play-by-play and summary still print.
- No path of the command prints a traceback, even on MemoryError or
  RecursionError (exit 3, one line); a closed pipe stays quiet.
- Missing paths are usage errors (exit 2) for every command; every path given
  is checked and reported; `test` says when it finds no scenario.
"""
from __future__ import annotations

import errno
import json
import os
import signal
import stat
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from unittest import mock

import pytest
from hypothesis import given
from hypothesis import strategies as st

import rulelang
import rulelang.agents
from rulelang.agents import RandomAgent, play_out
from rulelang.cli import main
from rulelang.logs import logfile
from rulelang.testing import scenario

from helpers.examples import examples
from helpers.games import shipped

ROOT = Path(__file__).resolve().parents[2]
GAME_DIR = ROOT / "games" / "jacks_friends"
#: What `rulelang test examples/pig` ends with: every Pig scenario passes.
PIG_PASSED = f"{len(scenario.load_scenarios(ROOT / 'examples' / 'pig' / 'scenarios' / 'pig.yaml'))} passed, 0 failed\n"
GAME_NAME = shipped("games/jacks_friends").name
RUN = ["run", str(GAME_DIR), "--players", "4", "--seed", "1"]


def cli(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    capsys.readouterr()
    code = main(args)
    out, err = capsys.readouterr()
    assert "Traceback" not in err
    return code, out, err


def subprocess_cli(code: str, **kwargs) -> subprocess.Popen:
    """A Python process that runs ``code`` (which may patch rulelang first) from the repository root."""
    return subprocess.Popen([sys.executable, "-c", code], cwd=ROOT, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, **kwargs)


def full_game_events() -> list[dict]:
    """The events `run` plays for RUN, played here without the command."""
    state = shipped("games/jacks_friends").new_state(4, 1)
    play_out(state, RandomAgent(1))
    return state.events


def log_events(path: Path) -> list[dict]:
    text = path.read_text(encoding="utf-8")
    assert text == "" or text.endswith("\n"), "the log ends with a whole line"
    return [json.loads(line) for line in text.splitlines()]


def leftovers(folder: Path, log: Path) -> list[str]:
    """Files in the log's folder other than the log: a private temporary file must not stay behind."""
    return sorted(p.name for p in folder.iterdir() if p != log)


# --- the log: written beside, renamed when complete ------------------------------------------------

def test_a_log_replaces_an_old_one_and_leaves_nothing_beside_it(tmp_path: Path, capsys) -> None:
    log = tmp_path / "game.jsonl"
    log.write_text("the old log\n", encoding="utf-8")
    code, out, err = cli([*RUN, "--quiet", "--log", str(log)], capsys)
    assert (code, err) == (0, "")
    assert log_events(log) == full_game_events()
    assert leftovers(tmp_path, log) == []


def test_an_old_log_is_untouched_while_the_game_is_played(tmp_path: Path, capsys, monkeypatch) -> None:
    log = tmp_path / "game.jsonl"
    log.write_text("the old log\n", encoding="utf-8")
    seen: list[str] = []

    class Peeking(RandomAgent):
        def choose_index(self, state, player, count):
            seen.append(log.read_text(encoding="utf-8"))
            return super().choose_index(state, player, count)

    monkeypatch.setattr(rulelang.agents, "RandomAgent", Peeking)
    code, _, _ = cli([*RUN, "--quiet", "--log", str(log)], capsys)
    assert code == 0 and seen
    assert set(seen) == {"the old log\n"}


def test_a_new_log_has_the_usual_permissions(tmp_path: Path, capsys) -> None:
    log = tmp_path / "game.jsonl"
    umask = os.umask(0o022)
    try:
        cli([*RUN, "--quiet", "--log", str(log)], capsys)
    finally:
        os.umask(umask)
    assert stat.S_IMODE(log.stat().st_mode) == 0o644


def test_a_log_through_a_link_updates_the_file_and_keeps_the_link(tmp_path: Path, capsys) -> None:
    real = tmp_path / "logs" / "real.jsonl"
    real.parent.mkdir()
    real.write_text("old\n", encoding="utf-8")
    link = tmp_path / "latest.jsonl"
    link.symlink_to(real)
    code, _, _ = cli([*RUN, "--quiet", "--log", str(link)], capsys)
    assert code == 0 and link.is_symlink()
    assert log_events(real) == full_game_events()


@pytest.mark.parametrize("where, words", [
    ("missing/game.jsonl", "No such file or directory"),
    (".", "it is a folder"),
])
def test_a_log_that_cannot_be_written_is_refused_before_playing(tmp_path: Path, capsys, where, words) -> None:
    code, out, err = cli([*RUN, "--log", str(tmp_path / where)], capsys)
    assert code == 2 and out == ""
    assert err == f"rulelang: error: cannot write the log {tmp_path / where}: {words}\n"


def test_a_read_only_log_is_refused_not_replaced(tmp_path: Path, capsys, monkeypatch) -> None:
    log = tmp_path / "kept.jsonl"
    log.write_text("keep me\n", encoding="utf-8")
    log.chmod(0o444)
    if os.geteuid() == 0:                   # root may write any file: pretend to be a user who may not
        monkeypatch.setattr(logfile.os, "access", lambda path, mode: False)
    code, out, err = cli([*RUN, "--log", str(log)], capsys)
    assert code == 2 and err == f"rulelang: error: cannot write the log {log}: it is not writable\n"
    assert log.read_text(encoding="utf-8") == "keep me\n"


def disk_full_after(budget: int):
    """A write that fills the disk after ``budget`` bytes, cutting the write that crosses it."""
    left = [budget]
    real_write = os.write

    def write(fd: int, data) -> int:
        if left[0] <= 0:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        done = real_write(fd, bytes(data[:left[0]]))
        left[0] -= done
        return done
    return write


def test_a_full_disk_keeps_the_whole_lines_written_and_prints_the_game(tmp_path: Path, capsys, monkeypatch) -> None:
    events = full_game_events()
    lines = [logfile.event_line(e) for e in events]
    budget = sum(len(line) for line in lines[:7]) + len(lines[7]) // 2     # the disk fills inside line 8
    monkeypatch.setattr(logfile, "_os_write", disk_full_after(budget))
    log = tmp_path / "game.jsonl"
    log.write_text("the old log\n", encoding="utf-8")
    code, out, err = cli([*RUN, "--json", "--log", str(log)], capsys)
    assert code == 1
    assert err == (f"rulelang: error: cannot write all of the log {log}: No space left on device; "
                   f"it holds the first 7 of the {len(events)} events\n")
    assert log_events(log) == events[:7]
    assert leftovers(tmp_path, log) == []
    printed = out.splitlines()
    assert printed[0].startswith(f"{GAME_NAME}: 4 players, seed 1")    # the play-by-play
    assert any(line.startswith("Game over on turn") for line in printed)
    assert json.loads(printed[-1])["events"] == len(events)             # and the summary, last


SMALL_EVENTS = [{"type": "step", "turn": turn, "step": "x" * (turn % 7)} for turn in range(40)]
SMALL_BYTES = sum(len(logfile.event_line(e)) for e in SMALL_EVENTS)


def short_writes(budget: int, chunk: int):
    """Writes of at most ``chunk`` bytes each, and a full disk after ``budget`` bytes."""
    full = disk_full_after(budget)
    return lambda fd, data: full(fd, data[:chunk])


@examples(150)
@given(budget=st.integers(0, SMALL_BYTES + 10), chunk=st.integers(1, 120))
def test_a_log_cut_anywhere_holds_exactly_the_whole_events_that_fit(budget: int, chunk: int) -> None:
    with tempfile.TemporaryDirectory() as folder:
        target = Path(folder) / "log.jsonl"
        target.write_text("old\n", encoding="utf-8")
        log = logfile.LogFile(str(target))
        with mock.patch.object(logfile, "_os_write", short_writes(budget, chunk)):
            try:
                written = log.save(SMALL_EVENTS)
            except logfile.LogIncomplete as error:
                written = error.written
        fit = 0
        while fit < len(SMALL_EVENTS) and sum(len(logfile.event_line(e)) for e in SMALL_EVENTS[:fit + 1]) <= budget:
            fit += 1
        assert written == fit
        assert log_events(target) == SMALL_EVENTS[:fit]
        assert leftovers(Path(folder), target) == []


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="no /dev/full on this system")
def test_a_log_on_dev_full_is_reported_and_the_game_still_printed(capsys) -> None:
    code, out, err = cli([*RUN, "--json", "--log", "/dev/full"], capsys)
    assert code == 1
    assert err.startswith("rulelang: error: cannot write all of the log /dev/full: No space left on device")
    assert json.loads(out.splitlines()[-1])["players"] == 4


def test_an_interrupt_keeps_the_log_and_play_by_play_so_far(tmp_path: Path, capsys, monkeypatch) -> None:
    calls = [0]

    class Interrupted(RandomAgent):
        def choose_index(self, state, player, count):
            calls[0] += 1
            if calls[0] == 6:
                raise KeyboardInterrupt
            return super().choose_index(state, player, count)

    monkeypatch.setattr(rulelang.agents, "RandomAgent", Interrupted)
    log = tmp_path / "game.jsonl"
    log.write_text("the old log\n", encoding="utf-8")
    code, out, err = cli([*RUN, "--json", "--log", str(log)], capsys)
    assert code == 130
    kept = log_events(log)
    assert 1 < len(kept) < len(full_game_events())
    assert kept == full_game_events()[:len(kept)]
    assert err == f"rulelang: interrupted; the event log up to the interrupt ({len(kept)} events) is in {log}\n"
    assert out.startswith(f"{GAME_NAME}: 4 players, seed 1") and "== Turn 1" in out
    assert "Game over" not in out and '"winners"' not in out       # no summary of a game not finished
    assert leftovers(tmp_path, log) == []


def test_an_interrupt_while_the_log_is_written_lands_the_lines_written(tmp_path: Path, capsys, monkeypatch) -> None:
    real_write = os.write
    calls = [0]

    def write(fd: int, data) -> int:
        calls[0] += 1
        if calls[0] == 5:
            raise KeyboardInterrupt
        return real_write(fd, data)

    monkeypatch.setattr(logfile, "_os_write", write)
    log = tmp_path / "game.jsonl"
    code, out, err = cli([*RUN, "--quiet", "--log", str(log)], capsys)
    assert code == 130 and err == "rulelang: interrupted\n"
    assert log_events(log) == full_game_events()[:4]
    assert leftovers(tmp_path, log) == []


@pytest.mark.subprocess
def test_sigint_to_the_command_keeps_the_log_without_a_traceback(tmp_path: Path) -> None:
    log = tmp_path / "game.jsonl"
    started = tmp_path / "started"
    # A shell without job control starts background jobs with SIGINT ignored, and a child inherits that:
    # the child takes Python's own handler back, as a command run from a terminal has it.
    child = subprocess_cli(
        "import signal, sys, time, pathlib, rulelang.agents as agents\n"
        "signal.signal(signal.SIGINT, signal.default_int_handler)\n"
        "class Slow(agents.RandomAgent):\n"
        "    def choose_index(self, state, player, count):\n"
        f"        pathlib.Path({str(started)!r}).touch()\n"
        "        time.sleep(0.2)\n"
        "        return super().choose_index(state, player, count)\n"
        "agents.RandomAgent = Slow\n"
        "from rulelang.cli import main\n"
        f"sys.exit(main({[*RUN, '--quiet', '--log', str(log)]!r}))\n")
    deadline = time.monotonic() + 60
    while not started.exists() and child.poll() is None and time.monotonic() < deadline:
        time.sleep(0.05)
    time.sleep(0.5)
    child.send_signal(signal.SIGINT)
    out, err = child.communicate(timeout=60)
    assert child.returncode == 130, err
    assert "Traceback" not in err
    kept = log_events(log)
    assert kept and kept == full_game_events()[:len(kept)]
    assert err == f"rulelang: interrupted; the event log up to the interrupt ({len(kept)} events) is in {log}\n"


# --- never a traceback --------------------------------------------------------------------------------

FAILURES = [MemoryError(), RecursionError("maximum recursion depth exceeded"), ValueError("a bug")]
SAID = {"MemoryError": "out of memory", "RecursionError": "Python's recursion limit was reached (RecursionError)",
        "ValueError": "ValueError: a bug"}


def raiser(error: BaseException):
    def fail(*args, **kwargs):
        raise error
    return fail


@pytest.mark.parametrize("error", FAILURES, ids=lambda e: type(e).__name__)
@pytest.mark.parametrize("command", [RUN, ["validate", "--games", "1", str(GAME_DIR)]], ids=["run", "validate"])
def test_a_crash_while_loading_is_one_line_and_exit_3(capsys, monkeypatch, command, error) -> None:
    monkeypatch.setattr(rulelang, "load_game", raiser(error))
    code, out, err = cli(command, capsys)
    assert code == 3 and out == ""
    prefix = f"{GAME_DIR}: " if command[0] == "validate" else ""
    assert err == (f"{prefix}rulelang: internal error: {SAID[type(error).__name__]} "
                   "(please report it with the command that caused it)\n")


@pytest.mark.parametrize("error", FAILURES, ids=lambda e: type(e).__name__)
def test_a_crash_while_testing_scenarios_is_one_line_and_exit_3(capsys, monkeypatch, error) -> None:
    monkeypatch.setattr(scenario, "run_scenario", raiser(error))
    code, out, err = cli(["test", str(ROOT / "examples" / "pig")], capsys)
    assert code == 3
    assert err.count("\n") == 1 and err.startswith("rulelang: internal error: ")


@pytest.mark.parametrize("error", FAILURES, ids=lambda e: type(e).__name__)
def test_a_crash_while_playing_keeps_the_log_and_exits_3(tmp_path: Path, capsys, monkeypatch, error) -> None:
    calls = [0]

    class Crashing(RandomAgent):
        def choose_index(self, state, player, count):
            calls[0] += 1
            if calls[0] == 4:
                raise error
            return super().choose_index(state, player, count)

    monkeypatch.setattr(rulelang.agents, "RandomAgent", Crashing)
    log = tmp_path / "game.jsonl"
    code, out, err = cli([*RUN, "--quiet", "--log", str(log)], capsys)
    kept = log_events(log)
    assert code == 3 and kept == full_game_events()[:len(kept)]
    assert err.splitlines() == [
        f"rulelang: internal error: {SAID[type(error).__name__]} (please report it with the command that caused it)",
        f"note: the event log up to it ({len(kept)} events) is in {log}"]


@pytest.mark.parametrize("error", FAILURES, ids=lambda e: type(e).__name__)
def test_a_crash_while_narrating_still_leaves_the_log(tmp_path: Path, capsys, monkeypatch, error) -> None:
    monkeypatch.setattr("rulelang.logs.narrate.Narrator.line", raiser(error))
    log = tmp_path / "game.jsonl"
    code, out, err = cli([*RUN, "--log", str(log)], capsys)
    assert code == 3 and err.count("\n") == 1 and "internal error" in err
    assert log_events(log) == full_game_events()


@pytest.mark.subprocess
def test_memory_error_in_a_real_process_is_one_line_and_nothing_at_exit() -> None:
    child = subprocess_cli("import sys, rulelang\n"
                           "def fail(*args):\n    raise MemoryError\n"
                           "rulelang.load_game = fail\n"
                           "from rulelang.cli import main\n"
                           f"sys.exit(main({RUN!r}))\n")
    out, err = child.communicate(timeout=60)
    assert child.returncode == 3 and out == ""
    assert err == "rulelang: internal error: out of memory (please report it with the command that caused it)\n"


@pytest.mark.subprocess
@pytest.mark.parametrize("args", [
    RUN,
    ["validate", "--games", "0", str(GAME_DIR)],
    ["test", str(ROOT / "examples" / "pig")],
], ids=["run", "validate", "test"])
def test_a_closed_pipe_is_quiet(args: list[str]) -> None:
    child = subprocess.Popen([sys.executable, "-m", "rulelang.cli", *args], cwd=ROOT,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    child.stdout.close()                     # the reader is gone before anything is printed
    err = child.stderr.read().decode()
    child.wait(timeout=60)
    assert err == ""
    assert child.returncode == 141


@pytest.mark.subprocess
@pytest.mark.skipif(not Path("/dev/full").exists(), reason="no /dev/full on this system")
def test_output_to_a_full_disk_is_one_line_and_the_log_still_lands(tmp_path: Path) -> None:
    log = tmp_path / "game.jsonl"
    with open("/dev/full", "w") as full:
        done = subprocess.run([sys.executable, "-m", "rulelang.cli", *RUN, "--log", str(log)], cwd=ROOT,
                              stdout=full, stderr=subprocess.PIPE, text=True, timeout=120)
    assert done.returncode == 1
    assert done.stderr == "rulelang: error: No space left on device\n"
    assert log_events(log) == full_game_events()


# --- paths and counts ---------------------------------------------------------------------------------

@pytest.mark.parametrize("command", [["run", "/nope", "--players", "2"], ["validate", "/nope"], ["test", "/nope"]],
                         ids=["run", "validate", "test"])
def test_a_missing_path_is_a_usage_error_for_every_command(capsys, command) -> None:
    code, out, err = cli(command, capsys)
    assert code == 2 and out == ""
    assert err == "rulelang: error: no such file or folder: /nope\n"


@pytest.mark.parametrize("command", [["run", "{}", "--players", "2"], ["validate", "{}"], ["test", "{}"],
                                     ["replay", "{}", "{}"]], ids=["run", "validate", "test", "replay"])
def test_a_path_that_is_a_link_loop_or_too_long_says_so(tmp_path: Path, capsys, command) -> None:
    loop = tmp_path / "loop"
    loop.symlink_to(loop)
    long = tmp_path / ("a" * 300)
    for path, words in ((loop, "is a link loop: following its links never reaches a file"),
                        (long, "has a name too long for a file (300 bytes; the limit is 255)")):
        code, out, err = cli([part.format(path) for part in command], capsys)
        assert code == 2 and out == ""
        assert err == f"rulelang: error: '{path}' {words}\n"


@pytest.mark.parametrize("value", ["-1", "-20", "x"])
def test_validate_refuses_a_negative_or_odd_number_of_games(capsys, value) -> None:
    code, out, err = cli(["validate", "--games", value, str(GAME_DIR)], capsys)
    assert code == 2 and out == ""
    assert err == f"rulelang: error: argument --games: expected a whole number of at least 0, got '{value}'\n"


def test_validate_checks_every_path_after_a_missing_one(capsys) -> None:
    code, out, err = cli(["validate", "--games", "0", "/nope", str(GAME_DIR), str(ROOT / "examples" / "pig")], capsys)
    assert code == 2
    assert err == "rulelang: error: no such file or folder: /nope\n"
    assert out.startswith(f"ok: {GAME_DIR} (") and f"ok: {ROOT / 'examples' / 'pig'} (" in out


def test_validate_checks_every_path_after_a_broken_one(tmp_path: Path, capsys) -> None:
    broken = tmp_path / "game.yaml"
    broken.write_text("game: [\n", encoding="utf-8")
    code, out, err = cli(["validate", "--games", "0", str(broken), str(GAME_DIR)], capsys)
    assert code == 1
    assert err.startswith(f"{broken}:") and out.startswith(f"ok: {GAME_DIR} (")


def test_test_runs_the_others_after_a_missing_path(capsys) -> None:
    code, out, err = cli(["test", "/nope", str(ROOT / "examples" / "pig")], capsys)
    assert code == 2 and err == "rulelang: error: no such file or folder: /nope\n"
    assert out.endswith(PIG_PASSED)


def test_test_of_a_game_file_runs_that_games_scenarios(capsys) -> None:
    code, out, err = cli(["test", str(ROOT / "examples" / "pig" / "game.yaml")], capsys)
    assert (code, err) == (0, "")
    assert out.startswith("PASS  ") and out.endswith(PIG_PASSED)


def test_test_of_a_folder_without_scenarios_says_so_and_fails(tmp_path: Path, capsys) -> None:
    code, out, err = cli(["test", str(tmp_path)], capsys)
    assert code == 1 and out == ""
    assert err.startswith(f"rulelang: error: no scenario file in {tmp_path} (")


def test_test_of_a_folder_without_scenarios_fails_even_beside_one_with_them(tmp_path: Path, capsys) -> None:
    code, out, err = cli(["test", str(tmp_path), str(ROOT / "examples" / "pig")], capsys)
    assert code == 1
    assert err.startswith(f"rulelang: error: no scenario file in {tmp_path} (")
    assert out.endswith(PIG_PASSED)


def test_test_of_a_file_that_is_not_a_scenario_says_what_it_expects(capsys) -> None:
    cards = ROOT / "tests" / "broken" / "_valid" / "cards.yaml"
    code, out, err = cli(["test", str(cards)], capsys)
    assert code == 1
    assert "error: this is not a scenario file: it has no 'scenario:' or 'scenarios:' key" in out
    assert "players" not in out


def test_test_reads_no_link_out_of_the_folder_and_follows_no_folder_loop(tmp_path: Path, capsys) -> None:
    secret = tmp_path / "secret.yaml"
    secret.write_text("password: hunter2\n", encoding="utf-8")
    folder = tmp_path / "mine" / "scenarios"
    folder.mkdir(parents=True)
    (folder / "leak.yaml").symlink_to(secret)
    (folder / "loop").symlink_to(folder.parent)
    pig = ROOT / "examples" / "pig" / "scenarios" / "pig.yaml"
    (folder / "pig.yaml").write_text(pig.read_text(encoding="utf-8").replace(
        "scenarios:", f"game: {(ROOT / 'examples' / 'pig').as_posix()}\nscenarios:", 1), encoding="utf-8")
    code, out, err = cli(["test", str(tmp_path / "mine"), "--game", str(ROOT / "examples" / "pig")], capsys)
    assert code == 1 and err == ""
    assert f"ERROR {folder / 'leak.yaml'}\n      error: a link to a file outside the folder given: not read" in out
    assert "hunter2" not in out and "password" not in out
    assert out.endswith(PIG_PASSED.replace("0 failed", "1 failed"))


def test_a_param_named_null_is_refused_before_run_writes_a_log(tmp_path: Path,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    """`null:` passed `validate` (JSON reads the key as 'null'), then `run --log` crashed and left an empty log."""
    game = tmp_path / "g"
    game.mkdir()
    pig = (ROOT / "examples" / "pig" / "game.yaml").read_text(encoding="utf-8")
    (game / "game.yaml").write_text(pig.replace("params:\n", "params:\n  null: {type: int, default: 1}\n"),
                                    encoding="utf-8")
    log = tmp_path / "game.log"
    for args in (["validate", str(game)], ["run", str(game), "--players", "2", "--log", str(log)]):
        code, _, err = cli(args, capsys)
        assert code == 1 and "game.yaml:12:3: error: the key 'null' reads as nothing" in err, err
    assert not log.exists()
