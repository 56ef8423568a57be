"""Mods: files laid over an unchanged game (rulelang/mods/layers.py, docs/mods.md)."""
from __future__ import annotations

import hashlib
import io
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, given
from hypothesis import strategies as st

from rulelang import load_game
from rulelang.cli import main
from rulelang.errors import ErrorList, RulelangError
from rulelang.pipeline import read_spec
from rulelang.spec import loader
from rulelang.spec.loader import load_document
from rulelang.testing.scenario_report import run_scenario_files

from helpers.examples import examples

ROOT = Path(__file__).resolve().parents[2]
FJ = str(ROOT / "games" / "flapjacks")
JF = str(ROOT / "games" / "jacks_friends")
PIG = str(ROOT / "examples" / "pig")
MODS = ROOT / "examples" / "mods"
FJ_NAME = "Flapjacks & Sasquatches"


def write_mod(folder: Path, body: str, name: str = "mod.yaml", game: str = FJ_NAME, mod: str = "Test") -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_text(f"mod: {mod}\ngame: {game}\n" + body, encoding="utf-8")
    return path


def errors_of(call) -> list[RulelangError]:
    with pytest.raises(RulelangError) as caught:
        call()
    error = caught.value
    return list(error.errors) if isinstance(error, ErrorList) else [error]


def cli(args: list[str], capsys) -> tuple[int, str, str]:
    code = main(args)
    out, err = capsys.readouterr()
    return code, out, err


def tree_digest(folder: str) -> str:
    digest = hashlib.sha256()
    for path in sorted(Path(folder).rglob("*")):
        if path.is_file():
            digest.update(str(path).encode() + path.read_bytes())
    return digest.hexdigest()


# --- operations --------------------------------------------------------------------------

def test_an_added_card_is_dealt_into_its_zone_and_keeps_its_place_in_the_mod(tmp_path: Path) -> None:
    mod = write_mod(tmp_path, """\
add:
  cards:
    - id: spoon
      name: Spoon
      count: 2
      zone: jack_deck
""")
    doc = read_spec(FJ, mods=[mod])
    index = [c["id"] for c in doc.data["cards"]].index("spoon")
    assert doc.span(("cards", index, "count")).file == str(mod)
    assert doc.span(("cards", index, "count")).line == 7
    game = load_game(FJ, [mod])
    assert [t.id for t in game.card_type].count("spoon") == 2
    state = game.new_state(2, 0, before_first_turn=True)
    assert len(state.zone("jack_deck")) == 102 - 2 * 3


def test_replace_remove_and_set_change_the_named_things(tmp_path: Path) -> None:
    mod = write_mod(tmp_path, """\
replace:
  cards:
    - {id: boots, name: Big Boots, count: 1, zone: jack_deck, tags: [equipment], play: {to: target.play}}
  procedures:
    add_chops:
      params: {p: player, n: int}
      effect: |
        standing = first(p.tree)
        if standing != none:
            standing.chops += n
remove:
  cards: [forest_fire]
  triggers: [the Long Saw sets the axe aside]
set:
  cards.titanium_axe.count: 1
  end.21_points.when: 30
""")
    doc = read_spec(FJ, mods=[mod])
    cards = {c["id"]: c for c in doc.data["cards"]}
    assert cards["boots"]["name"] == "Big Boots" and "forest_fire" not in cards
    assert cards["titanium_axe"]["count"] == 1
    assert doc.data["end"][0]["when"] == "any(p in players where score(p) >= 30)"
    assert "the Long Saw sets the axe aside" not in [t["name"] for t in doc.data["triggers"]]
    boots = [c["id"] for c in doc.data["cards"]].index("boots")
    assert doc.span(("cards", boots, "name")).file == str(mod)
    game = load_game(FJ, [mod])
    assert [t.id for t in game.card_type].count("titanium_axe") == 1
    assert [t.id for t in game.card_type].count("boots") == 1
    assert "forest_fire" not in {t.id for t in game.cards}


def test_a_removed_list_item_moves_the_positions_of_the_items_after_it(tmp_path: Path) -> None:
    base = load_document(FJ)
    first = base.data["cards"][0]["id"]
    mod = write_mod(tmp_path, f"remove:\n  cards: [{first}]\n")
    doc = read_spec(FJ, mods=[mod])
    assert doc.data["cards"][0] == base.data["cards"][1]
    assert doc.span(("cards", 0, "id")) == base.span(("cards", 1, "id"))


def test_steps_are_inserted_before_and_after_named_steps(tmp_path: Path) -> None:
    mod = write_mod(tmp_path, """\
insert_steps:
  - after: draw a Jack card
    steps:
      - {name: stretch, effect: "me.lost_turns += 0"}
  - before: lose a turn
    steps:
      - {name: wake up, effect: "me.lost_turns += 0"}
""")
    game = load_game(FJ, [mod])
    names = list(game.step_pcs)
    assert names[:5] == ["wake up", "lose a turn", "draw a tree", "draw a Jack card", "stretch"]
    doc = read_spec(FJ, mods=[mod])
    assert doc.span(("turn", "steps", 4, "name")).file == str(mod)
    assert doc.span(("turn", "steps", 5, "name")) == load_document(FJ).span(("turn", "steps", 3, "name"))


def test_a_wrapped_procedure_calls_the_original_and_a_wrapped_function_too(tmp_path: Path) -> None:
    mod = write_mod(tmp_path, """\
wrap:
  procedures:
    add_chops: original_add_chops(p, n * 2)
  functions:
    score: original_score(p) + 100
""")
    doc = read_spec(FJ, mods=[mod])
    assert "original_add_chops" in doc.data["procedures"]
    assert doc.data["procedures"]["add_chops"]["params"] == {"p": "player", "n": "int"}
    game = load_game(FJ, [mod])
    state = game.new_state(2, 0)
    assert state.scores() == [100, 100]


def test_a_table_row_is_added_and_a_number_set(tmp_path: Path) -> None:
    mod = write_mod(tmp_path, "set: {players.max: 7}\nadd:\n  table_rows:\n    setup: {7: [1, 2, 3, 4, 5]}\n",
                    game="Jack's Friends")
    game = load_game(JF, [mod])
    assert game.max_players == 7
    state = game.new_state(7, 0)
    assert state.counter("hen_house", "egg") == 3 and state.counter("kitchen", "meat") == 2


def test_the_base_files_are_never_changed(tmp_path: Path) -> None:
    before = tree_digest(FJ)
    mod = write_mod(tmp_path, "set: {cards.titanium_axe.count: 9}\nremove: {cards: [forest_fire]}\n")
    load_game(FJ, [mod])
    assert tree_digest(FJ) == before
    assert load_document(FJ).data == load_document(FJ).data      # and nothing is cached changed


@pytest.mark.slow
@examples(15, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(count=st.integers(min_value=0, max_value=40), card=st.sampled_from(["boots", "gloves", "debunk", "winded"]))
def test_a_set_count_is_the_number_of_copies_dealt(tmp_path: Path, count: int, card: str) -> None:
    mod = write_mod(tmp_path / f"{card}{count}", f"set: {{cards.{card}.count: {count}}}\n")
    game = load_game(FJ, [mod])
    assert [t.id for t in game.card_type].count(card) == count
    assert len(game.card_type) == len(load_game(FJ).card_type) - [t.id for t in load_game(FJ).card_type].count(card) \
        + count


# --- errors located in the mod file ----------------------------------------------------------

def test_a_schema_error_in_an_added_card_points_into_the_mod(tmp_path: Path) -> None:
    mod = write_mod(tmp_path, "add:\n  cards:\n    - {id: spoon, name: Spoon, count: 2, zone: jack_deck, tragets: 1}\n")
    [error] = errors_of(lambda: load_game(FJ, [mod]))
    assert error.span.file == str(mod) and error.span.line == 5
    assert "tragets" in error.message


def test_a_rule_error_in_a_wrapper_points_at_its_line_in_the_mod(tmp_path: Path) -> None:
    mod = write_mod(tmp_path, "wrap:\n  procedures:\n    add_chops: |\n      original_add_chops(p, n + nope)\n")
    [error] = errors_of(lambda: load_game(FJ, [mod]))
    assert (error.span.file, error.span.line, error.span.col) == (str(mod), 6, 33)
    assert "nope" in error.message


@pytest.mark.parametrize("body, message, line", [
    ("remove: {cards: [bots]}\n", "the game has no card 'bots'", 3),
    ("replace:\n  procedures:\n    add_chop: {effect: pass}\n", "no procedure 'add_chop'", 5),
    ("set: {cards.boots.cont: 2}\n", "has no key 'cont'", 3),
    ("insert_steps:\n  - {after: draw a jack card, steps: [{name: x, effect: pass}]}\n",
     "no turn step 'draw a jack card'", 4),
    ("add:\n  cards:\n    - {id: boots, name: B, count: 1, zone: jack_deck}\n", "already has a card 'boots'", 5),
    ("wrap: {procedures: {nothing: pass}}\n", "no procedure 'nothing'", 3),
])
def test_a_mistake_in_an_operation_is_located_with_a_hint(tmp_path: Path, body: str, message: str, line: int) -> None:
    mod = write_mod(tmp_path, body)
    errors = errors_of(lambda: load_game(FJ, [mod]))
    assert any(message in e.message and e.span.file == str(mod) and e.span.line == line for e in errors), \
        [e.format() for e in errors]
    assert all(e.hint for e in errors)


def test_a_mod_for_another_game_is_refused_at_its_game_line(tmp_path: Path) -> None:
    mod = write_mod(tmp_path, "", game="Pig")
    [error] = errors_of(lambda: load_game(FJ, [mod]))
    assert "for the game 'Pig'" in error.message and error.span.line == 2
    assert FJ_NAME in error.hint


# --- conflicts, overrides, needs ------------------------------------------------------------

def test_two_mods_changing_the_same_number_conflict_naming_both_files_and_lines() -> None:
    rush, scarce = MODS / "titanium_rush", MODS / "scarce_titanium"
    [error] = errors_of(lambda: load_game(FJ, [rush, scarce]))
    text = error.format()
    assert error.span.file.endswith("scarce_titanium/mod.yaml") and error.span.line == 11
    assert "conflict" in error.message and "Titanium Rush" in error.message
    assert "titanium_rush/mod.yaml:11:3" in text and "overrides: [Titanium Rush]" in text


def test_a_replaced_card_conflicts_with_a_number_of_it_set_by_another_mod(tmp_path: Path) -> None:
    first = write_mod(tmp_path / "a", "set: {cards.boots.count: 2}\n", mod="A")
    second = write_mod(tmp_path / "b", "remove: {cards: [boots]}\n", mod="B")
    [error] = errors_of(lambda: load_game(FJ, [first, second]))
    assert "conflict" in error.message and error.span.file == str(second)
    assert any(str(first) in note for note in error.notes)


def test_overrides_lets_the_later_mod_win(tmp_path: Path) -> None:
    rush = MODS / "titanium_rush"
    later = write_mod(tmp_path, "overrides: [Titanium Rush]\nset: {cards.titanium_axe.count: 2}\n", mod="Later")
    game = load_game(FJ, [rush, later])
    assert [t.id for t in game.card_type].count("titanium_axe") == 2


def test_a_card_added_by_two_mods_conflicts_unless_overridden(tmp_path: Path) -> None:
    card = "add:\n  cards:\n    - {id: spoon, name: Spoon, count: %d, zone: jack_deck}\n"
    first = write_mod(tmp_path / "a", card % 1, mod="A")
    second = write_mod(tmp_path / "b", card % 3, mod="B")
    [error] = errors_of(lambda: load_game(FJ, [first, second]))
    assert "conflict" in error.message
    third = write_mod(tmp_path / "c", "overrides: [A]\n" + card % 3, mod="C")
    assert [t.id for t in load_game(FJ, [first, third]).card_type].count("spoon") == 3


def test_needs_names_mods_loaded_before(tmp_path: Path) -> None:
    base = write_mod(tmp_path / "a", "", mod="Base Mod")
    needing = write_mod(tmp_path / "b", "needs: [Base Mod]\n", mod="Needing")
    load_game(FJ, [base, needing])
    [error] = errors_of(lambda: load_game(FJ, [needing, base]))
    assert "needs the mod 'Base Mod'" in error.message and error.span.file == str(needing)
    assert error.span.line == 3


def test_the_same_mod_twice_is_refused(tmp_path: Path) -> None:
    mod = write_mod(tmp_path, "")
    [error] = errors_of(lambda: load_game(FJ, [mod, mod]))
    assert "loaded twice" in error.message


def test_two_example_mods_load_together() -> None:
    game = load_game(FJ, [MODS / "double_bit_axe", MODS / "second_helping", MODS / "sharp_blades"])
    assert "second helping" in game.step_pcs and "double_bit_axe" in {t.id for t in game.cards}


# --- confinement and limits -----------------------------------------------------------------

def test_a_mod_file_that_links_out_of_its_folder_is_refused(tmp_path: Path) -> None:
    secret = tmp_path / "secret.yaml"
    secret.write_text("mod: SECRET\ngame: x\n")
    folder = tmp_path / "mod"
    folder.mkdir()
    (folder / "mod.yaml").write_text(f"mod: M\ngame: {FJ_NAME}\ninclude: [cards.yaml]\n")
    (folder / "cards.yaml").symlink_to(secret)
    errors = errors_of(lambda: load_game(FJ, [folder]))
    assert any("link that leads outside the mod's folder" in e.message for e in errors)
    assert not any("SECRET" in e.format() for e in errors)


def test_a_mod_include_outside_its_folder_is_refused(tmp_path: Path) -> None:
    folder = tmp_path / "mod"
    write_mod(folder, "include: [../other.yaml]\n")
    (tmp_path / "other.yaml").write_text("add: {tags: [x]}\n")
    [error] = errors_of(lambda: load_game(FJ, [folder]))
    assert "outside the mod's folder" in error.message and error.span.file == str(folder / "mod.yaml")


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_a_mod_that_is_a_fifo_is_refused_without_blocking(tmp_path: Path) -> None:
    fifo = tmp_path / "mod.yaml"
    os.mkfifo(fifo)
    [error] = errors_of(lambda: load_game(FJ, [fifo]))
    assert "FIFO" in error.message


def test_a_mod_counts_against_the_same_limits_as_the_game(tmp_path: Path, monkeypatch) -> None:
    game_bytes = sum(p.stat().st_size for p in Path(FJ).glob("*.yaml"))
    monkeypatch.setattr(loader, "MAX_SPEC_BYTES", game_bytes + 500)
    load_game(FJ)                                               # the game alone fits
    mod = write_mod(tmp_path, "text: |\n" + "  filler line of text\n" * 100)
    [error] = errors_of(lambda: load_game(FJ, [mod]))
    assert error.span.file == str(mod) and "with the files read before it" in error.message


def test_a_mod_folder_includes_its_own_files(tmp_path: Path) -> None:
    folder = tmp_path / "mod"
    write_mod(folder, "include: [cards.yaml]\n")
    (folder / "cards.yaml").write_text("add:\n  cards:\n    - {id: spoon, name: Spoon, count: 1, zone: jack_deck}\n")
    doc = read_spec(FJ, mods=[folder])
    index = [c["id"] for c in doc.data["cards"]].index("spoon")
    assert doc.span(("cards", index)).file == str(folder / "cards.yaml")


# --- scenarios under mods --------------------------------------------------------------------

def test_the_base_scenarios_pass_under_a_mod_that_only_adds_cards() -> None:
    out = io.StringIO()
    code = run_scenario_files([FJ], out=out, err=out, mods=[str(MODS / "double_bit_axe")])
    assert code == 0, out.getvalue()
    assert "double_bit_axe.yaml" in out.getvalue()        # the mod's own scenarios ran too


EXAMPLE_MODS = sorted(path.name for path in MODS.iterdir() if (path / "mod.yaml").is_file())
GAME_FOLDERS = {FJ_NAME: FJ, "Jack's Friends": JF}


def test_the_example_mods_are_all_found() -> None:
    assert {"double_bit_axe", "second_helping", "sharp_blades", "seven_at_the_table", "titanium_rush",
            "scarce_titanium", "whetstone", "lumberjack_fair"} <= set(EXAMPLE_MODS)


@pytest.mark.parametrize("mod", EXAMPLE_MODS)
def test_every_example_mod_validates_and_passes_its_scenarios(mod: str, capsys) -> None:
    game = GAME_FOLDERS[yaml.safe_load((MODS / mod / "mod.yaml").read_text(encoding="utf-8"))["game"]]
    code, out, err = cli(["validate", game, "--mod", str(MODS / mod), "--games", "3"], capsys)
    assert code == 0, err
    code, out, err = cli(["test", str(MODS / mod), "--game", game], capsys)
    assert code == 0 and " 0 failed" in out, out + err


def test_no_room_points_at_the_zone_in_the_scenario(tmp_path: Path) -> None:
    mod = write_mod(tmp_path / "mod", "add:\n  cards:\n    - {id: spoon, name: Spoon, count: 1, zone: jack_deck}\n")
    scenario = tmp_path / "s.yaml"
    scenario.write_text(f"game: {FJ}\nscenario: whole deck\nplayers: 2\nsetup:\n  zones:\n"
                        "    hand:P1: []\n    jack_deck: [boots]\n")
    out = io.StringIO()
    assert run_scenario_files([str(scenario)], out=out, err=out, mods=[str(mod)], games=[FJ]) == 1
    assert f"{scenario}:7:5: error: no room for " in out.getvalue()
    assert "its starting zone jack_deck is arranged too" in out.getvalue()
    text = scenario.read_text().replace("setup:\n", "setup:\n  others: jack_deck\n  step: lose a turn\n  active: P1\n")
    scenario.write_text(text + "stop_before: {step: draw a tree}\nexpect:\n  counts: {jack_deck: 'all - 3'}\n  zones: {hand:P1: []}\n")
    out = io.StringIO()
    assert run_scenario_files([str(scenario)], out=out, err=out, mods=[str(mod)], games=[FJ]) == 0, out.getvalue()


# --- the command line -----------------------------------------------------------------------

@pytest.mark.parametrize("args", [
    ["validate", FJ, "--games", "1"], ["run", FJ, "--players", "2", "--quiet"],
    pytest.param(["test", FJ], marks=pytest.mark.slow),      # every scenario of the game, again under its mods
    ["simulate", FJ, "--players", "2", "--games", "1"],
    ["sweep", FJ, "--players", "2", "--games", "1", "--vary", "cards.boots.count=1,2"],
    ["play", FJ, "--players", "2"], ["mods", FJ]])
def test_every_command_loads_the_mods_it_is_given(args: list[str], tmp_path: Path, capsys) -> None:
    mod = write_mod(tmp_path, "", game="Pig")
    code, out, err = cli([*args, "--mod", str(mod)], capsys)
    assert code == 1 and f"{mod}:2:7: error: this mod is for the game 'Pig'" in out + err


def test_replay_takes_the_mods_the_log_was_played_with(tmp_path: Path, capsys) -> None:
    mod = MODS / "double_bit_axe"
    log = tmp_path / "game.jsonl"
    assert cli(["run", FJ, "--players", "3", "--seed", "4", "--quiet", "--log", str(log), "--mod", str(mod)],
               capsys)[0] == 0
    code, out, err = cli(["replay", FJ, str(log), "--mod", str(mod)], capsys)
    assert code == 0, err
    code, out, err = cli(["replay", FJ, str(log)], capsys)
    assert code == 1                                          # without the mod it is another game


def test_a_missing_mod_is_a_usage_error(capsys) -> None:
    code, out, err = cli(["validate", FJ, "--mod", "no/such/mod.yaml"], capsys)
    assert code == 2 and "no such file or folder: no/such/mod.yaml" in err


def test_rulelang_mods_lists_each_change_and_the_conflict(capsys) -> None:
    code, out, err = cli(["mods", FJ, "--mod", str(MODS / "double_bit_axe"), "--mod", str(MODS / "sharp_blades")],
                         capsys)
    assert code == 0
    assert "adds card 'double_bit_axe'" in out and "wraps procedure 'add_chops'" in out and "ok: 2 mods" in out
    code, out, err = cli(["mods", FJ, "--mod", str(MODS / "titanium_rush"), "--mod", str(MODS / "scarce_titanium")],
                         capsys)
    assert code == 1 and "sets cards.titanium_axe.count to 6" in out and "conflict" in err


@pytest.mark.subprocess
def test_simulate_with_workers_plays_the_modded_game(capsys) -> None:
    args = ["simulate", FJ, "--players", "2", "--games", "4", "--workers", "2", "--json",
            "--mod", str(MODS / "double_bit_axe")]
    code, out, err = cli(args, capsys)
    assert code == 0, err


# --- rulelang new ------------------------------------------------------------------------------

def schema_of(file: Path) -> Path:
    first = file.read_text().splitlines()[0]
    assert first.startswith("# yaml-language-server: $schema=")
    return (file.parent / first.split("=", 1)[1]).resolve()


def test_new_game_and_new_mod_validate_with_a_working_schema_line(tmp_path: Path, capsys, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    assert cli(["new", "game", "deep/down/my_game"], capsys)[0] == 0
    game_file = tmp_path / "deep/down/my_game/game.yaml"
    assert schema_of(game_file) == (ROOT / "schemas" / "game.schema.json").resolve()
    assert schema_of(game_file.parent / "scenarios" / "first.yaml").name == "scenario.schema.json"
    assert cli(["validate", "deep/down/my_game", "--games", "2"], capsys)[0] == 0
    assert cli(["test", "deep/down/my_game"], capsys)[0] == 0
    assert cli(["new", "mod", "my_mod", "--game", "deep/down/my_game"], capsys)[0] == 0
    assert schema_of(tmp_path / "my_mod" / "mod.yaml") == (ROOT / "schemas" / "mod.schema.json").resolve()
    code, out, err = cli(["validate", "deep/down/my_game", "--mod", "my_mod", "--games", "2"], capsys)
    assert code == 0, err
    code, out, err = cli(["new", "game", "my_mod"], capsys)
    assert code == 2 and "exists already" in err


def test_new_mod_names_the_games_own_name(tmp_path: Path, capsys, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    assert cli(["new", "mod", "m", "--game", FJ], capsys)[0] == 0
    assert f'game: "{FJ_NAME}"' in (tmp_path / "m" / "mod.yaml").read_text()
    assert cli(["validate", FJ, "--mod", "m", "--games", "0"], capsys)[0] == 0


@pytest.mark.subprocess
def test_the_command_runs_as_a_program(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-m", "rulelang.cli", "mods", FJ, "--mod", str(MODS / "second_helping")],
                          capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert done.returncode == 0 and "inserts 'second helping' after step 'draw a Jack card'" in done.stdout


# --- the corpus of broken mods -----------------------------------------------------------------

BROKEN_MODS = ROOT / "tests" / "broken_mods"
BROKEN_CASES = sorted(p.name for p in BROKEN_MODS.iterdir() if (p / "mod.yaml").is_file())
UPDATE = os.environ.get("RULELANG_UPDATE_BROKEN") == "1"


@pytest.mark.parametrize("case", BROKEN_CASES)
def test_broken_mod(case: str, capsys, monkeypatch) -> None:
    """Every broken mod gets exactly the located error pinned beside it, in the mod file."""
    monkeypatch.chdir(ROOT)
    capsys.readouterr()
    code = main(["validate", "--games", "0", "tests/broken/_valid", "--mod", f"tests/broken_mods/{case}"])
    out, err = capsys.readouterr()
    expected = BROKEN_MODS / case / "expected.txt"
    if UPDATE:
        expected.write_text(err, encoding="utf-8")
    assert code == 1 and out == "" and "Traceback" not in err
    assert err.startswith(f"tests/broken_mods/{case}/mod.yaml:"), err
    assert err == expected.read_text(encoding="utf-8")


# --- phases and end conditions ------------------------------------------------------------------

PHASED = """\
game: Two Rounds
players: {min: 2, max: 2}
counters:
  coin: {}
locations:
  pot: {}
phases:
  - name: gather
    order: seat
    first: first
    until: turn >= 2
    steps:
      - {name: earn, effect: me.coin += 1}
  - name: spend
    order: seat
    first: first
    steps:
      - name: pay
        effect: |
          move 1 coin from me to pot
          check end
end:
  - {name: the pot is full, when: pot.coin >= 2, winner: first(players)}
"""

def test_a_phase_is_replaced_a_step_inserted_in_a_named_phase_and_an_end_condition_replaced(tmp_path: Path) -> None:
    game_folder = tmp_path / "game"
    game_folder.mkdir()
    (game_folder / "game.yaml").write_text(PHASED, encoding="utf-8")
    mod = write_mod(tmp_path / "mod", """\
replace:
  phases:
    - name: gather
      order: seat
      first: first
      until: turn >= 2
      steps:
        - {name: earn, effect: me.coin += 5}
  end:
    - {name: the pot is full, when: pot.coin >= 1, winner: first(players)}
insert_steps:
  - before: pay
    phase: spend
    steps:
      - {name: tax, effect: me.coin += 0}
""", game="Two Rounds")
    game = load_game(game_folder, [mod])
    assert list(game.step_pcs) == ["earn", "tax", "pay"]
    state = game.new_state(2, 0)          # earn 5 each, then P1 pays 1: the replaced end condition holds
    assert state.over and [state.counter(p, "coin") for p in (0, 1)] == [4, 5]
    doc = read_spec(game_folder, mods=[mod])
    assert doc.span(("end", 0, "when")).file == str(mod)


def test_removing_a_phase_leaves_the_others(tmp_path: Path) -> None:
    game_folder = tmp_path / "game"
    game_folder.mkdir()
    (game_folder / "game.yaml").write_text(PHASED, encoding="utf-8")
    mod = write_mod(tmp_path / "mod", "remove: {phases: [gather]}\n", game="Two Rounds")
    assert list(load_game(game_folder, [mod]).step_pcs) == ["pay"]


def test_validating_a_mod_folder_as_a_game_says_how_to_load_it(capsys) -> None:
    code, out, err = cli(["validate", "--games", "0", str(ROOT / "examples" / "mods" / "whetstone")], capsys)
    assert code == 1
    assert "there is no game.yaml in" in err
    assert "hint: this folder is a mod: give its game's folder, and this folder with --mod" in err


def test_a_set_number_written_as_a_decimal_is_refused_in_the_mod(tmp_path: Path) -> None:
    """A whole number written `2.0` passed JSON Schema's `integer` and broke the game further on."""
    mod = write_mod(tmp_path, "set:\n  cards.titanium_axe.count: 2.0\n")
    errors = errors_of(lambda: load_game(FJ, [mod]))
    assert [(e.message, e.span.file, e.span.line) for e in errors] == [
        ("expected a whole number for 'count', got a decimal number", str(mod), 4)]


@pytest.mark.parametrize("name", ["Evil\nset:\n  cards.steel_axe.count: 99\nx: \"", "Tab\tand \x1b[2J\u2028end",
                                  'Quote " back \\ slash # not: a comment'])
def test_new_mod_writes_any_game_name_as_one_quoted_scalar(tmp_path: Path, capsys, monkeypatch, name: str) -> None:
    """A game name's line breaks went raw into mod.yaml (its `game:` line and a comment): they wrote YAML."""
    monkeypatch.chdir(tmp_path)
    shutil.copytree(ROOT / "tests" / "broken" / "_valid", tmp_path / "g\nset: {}")
    spec = tmp_path / "g\nset: {}" / "game.yaml"
    lines = spec.read_text(encoding="utf-8").splitlines(keepends=True)
    spec.write_text("".join(f"game: {json.dumps(name)}\n" if line.startswith("game:") else line for line in lines),
                    encoding="utf-8")
    assert load_game(spec.parent).name == name
    assert cli(["new", "mod", "m", "--game", str(spec.parent)], capsys)[0] == 0
    mod = tmp_path / "m" / "mod.yaml"
    data = load_document(mod).data
    assert data == {"mod": "M", "game": name, "text": "What this mod changes, for players."}
    assert all(line.startswith("#") or line[:1].isalpha() or not line.strip()
               for line in mod.read_text(encoding="utf-8").split("\n"))
    assert cli(["validate", str(spec.parent), "--mod", "m", "--games", "0"], capsys)[0] == 0
