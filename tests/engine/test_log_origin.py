"""A modded game's log says what it was played with, and every command suggested to replay one names its mods.

The `started` event of a game with mods records each mod (its name and the SHA-256 of its files) and the
SHA-256 of the game's own files; a game without mods records neither, so its logs are what they were.
`replay` of a log with other mods, other versions of them or other files of the game says so in words.
"""
from __future__ import annotations

import json
import shlex
import shutil
from pathlib import Path

import pytest

import rulelang
from rulelang.cli import main
from rulelang.logs.eventlog import event_problem
from rulelang.logs.replay import verify_log
from rulelang.testing.smoke import play_random

ROOT = Path(__file__).resolve().parents[2]
VALID = ROOT / "tests" / "broken" / "_valid"
GOOFSPIEL = ROOT / "examples" / "goofspiel"
#: A step that divides by zero on turn 3: every random game fails there.
DIVIDE = """mod: Divided
game: Gem Hunt
insert_steps:
  - after: Bet
    steps:
      - name: Divide
        effect: me.bet = 6 // (3 - turn)
"""
QUIET = """mod: Quiet
game: Gem Hunt
set:
  turn.limit: 50
"""


def cli(args: list[str], capsys) -> tuple[int, str, str]:
    capsys.readouterr()
    code = main([str(a) for a in args])
    out, err = capsys.readouterr()
    assert "Traceback" not in err
    return code, out, err


def write_mod(folder: Path, text: str) -> Path:
    folder.mkdir(parents=True)
    (folder / "mod.yaml").write_text(text, encoding="utf-8")
    return folder


@pytest.fixture
def quiet(tmp_path: Path) -> Path:
    return write_mod(tmp_path / "quiet mod", QUIET)


def logged(tmp_path: Path, capsys, *mods: Path) -> Path:
    log = tmp_path / "game.jsonl"
    cli(["run", VALID, "--players", "2", "--seed", "4", "--log", log, "--quiet",
         *[arg for mod in mods for arg in ("--mod", mod)]], capsys)
    return log


def started(log: Path) -> dict:
    return json.loads(log.read_text(encoding="utf-8").splitlines()[0])


def test_a_random_games_error_inside_a_mod_suggests_a_replay_with_the_mod_and_the_params(tmp_path: Path) -> None:
    mod = write_mod(tmp_path / "my mods" / "divided", DIVIDE)
    game = rulelang.load_game(VALID, [mod])
    note = play_random(game, 2, 1).error.notes[-1]
    command = note.split("replay it with: ")[1]
    assert shlex.split(command) == ["rulelang", "run", str(VALID / "game.yaml"), "--players", "2", "--seed", "1",
                                    "--mod", str(mod)]
    params = rulelang.load_game(GOOFSPIEL, params={"num_cards": 5})
    assert params.params == {"num_cards": 5}
    from rulelang.testing.smoke import run_command
    assert shlex.split(run_command(params, 2, 7))[-2:] == ["--param", "num_cards=5"]


def test_validate_of_a_modded_game_suggests_the_run_with_its_mod(tmp_path: Path, capsys) -> None:
    mod = write_mod(tmp_path / "divided", DIVIDE)
    code, _, err = cli(["validate", "--games", "2", VALID, "--mod", mod], capsys)
    assert code == 1
    assert f"--seed 0 --mod {mod}" in err


def test_a_modded_games_start_records_its_mods_and_files(tmp_path: Path, capsys, quiet: Path) -> None:
    first = started(logged(tmp_path, capsys, quiet))
    assert [m["name"] for m in first["mods"]] == ["Quiet"]
    assert len(first["mods"][0]["sha256"]) == 64 and len(first["spec"]) == 64
    assert event_problem(first) is None
    again = rulelang.load_game(VALID, [quiet]).new_state(2, seed=4).events[0]
    assert again == first                                   # loaded again: the same hashes


def test_a_game_without_mods_records_nothing_more(tmp_path: Path, capsys) -> None:
    first = started(logged(tmp_path, capsys))
    assert set(first) == {"type", "game", "players", "seed", "roles", "first"}


def test_a_modded_log_replays_with_its_mod(tmp_path: Path, capsys, quiet: Path) -> None:
    log = logged(tmp_path, capsys, quiet)
    code, out, _ = cli(["replay", VALID, log, "--mod", quiet], capsys)
    assert code == 0 and out.startswith(f"ok: {log} matches its replay")


def test_replaying_a_modded_log_without_its_mod_says_so(tmp_path: Path, capsys, quiet: Path) -> None:
    log = logged(tmp_path, capsys, quiet)
    code, _, err = cli(["replay", VALID, log], capsys)
    assert code == 1
    assert f"{log}:1:1: error: this log was played with the mod 'Quiet': replay it with --mod" in err
    assert "note: expected: a game without mods" in err


def test_replaying_a_log_without_mods_with_a_mod_says_so(tmp_path: Path, capsys, quiet: Path) -> None:
    log = logged(tmp_path, capsys)
    code, _, err = cli(["replay", VALID, log, "--mod", quiet], capsys)
    assert code == 1
    assert "this log was played without mods, but the game here has the mod 'Quiet'" in err


def test_replaying_with_another_version_of_the_mod_or_of_the_game_says_so(tmp_path: Path, capsys,
                                                                           quiet: Path) -> None:
    log = logged(tmp_path, capsys, quiet)
    events = [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]
    (quiet / "mod.yaml").write_text(QUIET.replace("50", "51"), encoding="utf-8")
    check = verify_log(rulelang.load_game(VALID, [quiet]), events)
    assert check.reason == "this log was played with a different version of the mod 'Quiet'"
    (quiet / "mod.yaml").write_text(QUIET, encoding="utf-8")
    game = tmp_path / "game"
    shutil.copytree(VALID, game)
    text = (game / "game.yaml").read_text(encoding="utf-8")
    (game / "game.yaml").write_text(text + "# a comment changes no rule\n", encoding="utf-8")
    assert verify_log(rulelang.load_game(game, [quiet]), events).ok
    (game / "game.yaml").write_text(text.replace("game: Gem Hunt", "game: Gem Hunt\nstep_budget: 99999", 1),
                                    encoding="utf-8")
    check = verify_log(rulelang.load_game(game, [quiet]), events)
    assert check.reason == "this log was played with a different version of the game's files (a different spec)"
    assert check.line == 1


def test_replaying_with_other_mods_names_both(tmp_path: Path, capsys, quiet: Path) -> None:
    other = write_mod(tmp_path / "other", QUIET.replace("Quiet", "Loud"))
    log = logged(tmp_path, capsys, quiet)
    code, _, err = cli(["replay", VALID, log, "--mod", other], capsys)
    assert code == 1 and "this log was played with the mod 'Quiet', not the mod 'Loud'" in err


@pytest.mark.parametrize("mods", [[{"name": "Quiet", "sha256": "abc"}], [{"name": "", "sha256": "0" * 64}],
                                  "Quiet", [{"name": "Quiet"}]])
def test_a_forged_mod_record_is_not_an_event(mods) -> None:
    event = {"type": "started", "game": "Gem Hunt", "players": 2, "seed": 0, "roles": [], "first": "P1",
             "mods": mods, "spec": "0" * 64}
    assert event_problem(event) is not None
