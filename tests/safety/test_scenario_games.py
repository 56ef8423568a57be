"""A scenario's `game:` names a game inside the folder given to `rulelang test`, or one given by `--game`.

A downloaded scenario pack must not make `rulelang test` load, play and quote a game elsewhere (`../..`,
an absolute path, a link in the pack that leads out): that is a located error at the `game:` line, the
same whether the place exists or not, and nothing there is read.
"""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from rulelang.cli import main

ROOT = Path(__file__).resolve().parents[2]
FJ = ROOT / "games" / "flapjacks"
WHETSTONE = ROOT / "examples" / "mods" / "whetstone"
REFUSED = "error: this scenario's game is not one given on the command line"
#: What the game outside the pack holds; no output may show it.
SECRET = "SECRET-OUTSIDE-7f3a"


def run(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    capsys.readouterr()
    code = main([str(a) for a in args])
    out, err = capsys.readouterr()
    return code, out + err


@pytest.fixture
def pack(tmp_path: Path) -> Path:
    """A downloaded folder of scenarios, beside a game of the user's that holds a secret."""
    secret_game = tmp_path / "private" / "game"
    secret_game.mkdir(parents=True)
    (secret_game / "game.yaml").write_text(f"game: {SECRET}\nplayers: {SECRET}\n", encoding="utf-8")
    folder = tmp_path / "downloads" / "pack"
    (folder / "scenarios").mkdir(parents=True)
    return folder


def scenario_naming(pack: Path, named: str) -> Path:
    file = pack / "scenarios" / "s.yaml"
    file.parent.mkdir(parents=True, exist_ok=True)
    file.write_text(f"scenario: looks harmless\ngame: {named}\nplayers: 2\nexpect: {{}}\n", encoding="utf-8")
    return file


def refusal(pack: Path, named: str, capsys: pytest.CaptureFixture[str]) -> str:
    """The report of `rulelang test PACK` when its scenario names ``named``: refused, quoting nothing outside."""
    file = scenario_naming(pack, named)
    code, out = run(["test", pack], capsys)
    assert code == 1
    assert f"{file}:2:7: {REFUSED}" in out
    assert SECRET not in out and "cannot find" not in out and "internal error" not in out
    return out.replace(named, "NAMED")         # the names are as long, so the carets match too


@pytest.mark.parametrize("form", ["relative", "absolute", "link", "link-in-path"])
def test_a_game_outside_the_pack_is_refused_the_same_whether_it_exists_or_not(pack: Path, form: str,
                                                                            capsys: pytest.CaptureFixture[str]
                                                                            ) -> None:
    private = pack.parent.parent / "private"
    if form == "relative":
        there, nowhere = "../../../private/game", "../../../private/nada"
    elif form == "absolute":
        there, nowhere = str(private / "game"), str(private / "nada")
    elif form == "link":
        (pack / "scenarios" / "link1").symlink_to(private / "game")
        (pack / "scenarios" / "link2").symlink_to(private / "nada")
        there, nowhere = "link1", "link2"
    else:
        (pack / "up").symlink_to(private)
        there, nowhere = "../up/game", "../up/nada"
    assert refusal(pack, there, capsys) == refusal(pack, nowhere, capsys)


def test_a_game_given_with_dash_dash_game_may_be_named(pack: Path, capsys: pytest.CaptureFixture[str]) -> None:
    game = pack.parent.parent / "mine"
    shutil.copytree(ROOT / "examples" / "pig", game)
    file = scenario_naming(pack, "../../../mine")
    code, out = run(["test", pack], capsys)
    assert code == 1 and f"{file}:2:7: {REFUSED}" in out
    code, out = run(["test", pack, "--game", game], capsys)
    assert code == 0 and "1 passed, 0 failed" in out, out


def test_a_game_inside_the_folder_given_may_be_named(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    shutil.copytree(ROOT / "examples" / "pig", tmp_path / "pack" / "game")
    file = scenario_naming(tmp_path / "pack", "../game")
    code, out = run(["test", tmp_path / "pack"], capsys)
    assert code == 0 and f"PASS  {file}" in out, out


def test_a_mods_scenarios_run_over_the_game_given_with_it(capsys: pytest.CaptureFixture[str]) -> None:
    code, out = run(["test", WHETSTONE], capsys)
    assert code == 1 and f"{WHETSTONE / 'scenarios' / 'whetstone.yaml'}:4:7: {REFUSED}" in out
    assert "hint: name a game inside the folder you test, or give the game too" in out
    code, out = run(["test", WHETSTONE, "--game", FJ], capsys)
    assert code == 0 and " 0 failed" in out, out
    code, out = run(["test", FJ, "--mod", WHETSTONE], capsys)
    assert code == 0 and "whetstone.yaml" in out and " 0 failed" in out, out


def test_dash_dash_game_must_exist_and_does_not_go_with_coverage(capsys: pytest.CaptureFixture[str],
                                                                 tmp_path: Path) -> None:
    code, out = run(["test", FJ, "--game", tmp_path / "nope"], capsys)
    assert code == 2 and "no such file or folder" in out
    code, out = run(["test", FJ, "--coverage", "--game", FJ], capsys)
    assert code == 2 and "--game goes without --coverage" in out


def test_a_games_scenarios_folder_stands_for_its_game(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    shutil.copytree(ROOT / "examples" / "pig", tmp_path / "pig")
    file = scenario_naming(tmp_path / "pig", "..")
    code, out = run(["test", tmp_path / "pig" / "scenarios"], capsys)
    assert code == 0 and f"PASS  {file}" in out, out
    code, out = run(["test", file], capsys)
    assert code == 0 and f"PASS  {file}" in out, out
    file.write_text(file.read_text(encoding="utf-8").replace("game: ..", "game: ../.."), encoding="utf-8")
    code, out = run(["test", tmp_path / "pig" / "scenarios"], capsys)
    assert code == 1 and f"{file}:2:7: {REFUSED}" in out
