"""The language server (`rulelang lsp`): the checks it runs on the editor's texts, and a real session.

The checks (``rulelang.lsp.diagnose``) need no pygls and are tested in-process: an
edit held in the editor, never saved, is what they see, for a game, an include
fragment, a mod, a scenario and a policy; they find exactly the errors the CLI
finds; an edit parses only the text it changed. The session test starts
`python -m rulelang lsp` and drives it over JSON-RPC as an editor does.
"""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

from rulelang import load_game
from rulelang.check.game import GameChecker
from rulelang.cli import main
from rulelang.errors import RulelangError
from rulelang.lsp.diagnose import Checker, check_game, flatten
from rulelang.lsp.quick import kept_files

ROOT = Path(__file__).resolve().parents[2]
JACKS_FRIENDS = ROOT / "games" / "jacks_friends" / "game.yaml"
FLAPJACKS = ROOT / "games" / "flapjacks"


def edited(path: Path, old: str, new: str) -> tuple[Checker, str]:
    """A checker holding ``path``'s text with its first ``old`` replaced (as typed, not saved)."""
    text = path.read_text(encoding="utf-8")
    assert old in text
    checker = Checker()
    checker.set_text(path, text.replace(old, new, 1))
    return checker, text


def line_of(text: str, piece: str) -> int:
    """The 1-based line of the first ``piece`` in ``text``."""
    return text[: text.index(piece)].count("\n") + 1


def test_an_error_typed_in_an_include_fragment_is_reported_there_from_the_editors_text():
    fragment = FLAPJACKS / "jacks.yaml"
    checker, text = edited(fragment, "target.lost_turns += 1", "target.lost_turnz += 1")
    outcome = checker.check(fragment)
    assert [(e.message, e.span.file, e.span.line, e.span.col) for e in outcome.errors] == [
        ("a player has no 'lost_turnz'", str(fragment), line_of(text, "target.lost_turns += 1"),
         text.splitlines()[line_of(text, "target.lost_turns += 1") - 1].index("target") + 1)]
    assert fragment.read_text(encoding="utf-8") == text          # the disk's file was neither read nor written
    assert str(FLAPJACKS / "game.yaml") in outcome.files          # the whole game was checked


def test_a_yaml_error_in_the_editors_text_is_located():
    checker, text = edited(JACKS_FRIENDS, "  at: {type: location}", "  at: {type: location")
    errors = checker.check(JACKS_FRIENDS).errors
    assert errors and all(e.span.file == str(JACKS_FRIENDS) for e in errors)
    assert errors[0].span.line >= line_of(text, "  at: {type: location}")


def test_a_mod_is_checked_over_the_game_its_scenarios_name():
    mod = ROOT / "examples" / "mods" / "whetstone" / "mod.yaml"
    checker, text = edited(mod, "change 1 to 4 in rolled", "change 1 to 4 in rolld")
    errors = checker.check(mod).errors
    assert [(e.span.file, e.span.line) for e in errors] == [(str(mod), line_of(text, "change 1 to 4 in rolled"))]
    assert "rolld" in errors[0].message


def test_a_scenario_is_checked_against_its_game():
    scenario = FLAPJACKS / "scenarios" / "axes.yaml"
    checker, text = edited(scenario, "      active: P1", "      active: P7")
    errors = checker.check(scenario).errors
    assert [(e.span.file, e.span.line) for e in errors] == [(str(scenario), line_of(text, "      active: P1"))]
    assert "P7" in errors[0].message


def test_a_policy_is_checked_against_its_game():
    policy = ROOT / "games" / "jacks_friends" / "policies" / "giant.yaml"
    checker, text = edited(policy, "stolen: [egg, meat, veggie]", "stolen: [egg, meat, vegie]")
    errors = checker.check(policy).errors
    assert [(e.span.file, e.span.line) for e in errors] == [(str(policy), line_of(text, "stolen: [egg"))]
    assert "vegie" in errors[0].message


def test_a_fixed_text_checks_clean_and_closing_it_returns_to_the_disk():
    checker, text = edited(JACKS_FRIENDS, "t.skips += 1", "t.skipz += 1")
    assert checker.check(JACKS_FRIENDS).errors
    checker.set_text(JACKS_FRIENDS, text)
    assert checker.check(JACKS_FRIENDS).errors == []
    checker.set_text(JACKS_FRIENDS, "not: [a game")
    checker.set_text(JACKS_FRIENDS, None)
    assert checker.check(JACKS_FRIENDS).errors == []


def test_the_editors_text_of_a_file_outside_the_game_is_still_refused(tmp_path: Path):
    """The overlay replaces bytes, not the reader's checks: a link out of the game's folder stays refused."""
    outside = tmp_path / "outside.yaml"
    outside.write_text("zones: {}\n", encoding="utf-8")
    game = tmp_path / "game"
    game.mkdir()
    (game / "game.yaml").write_text((ROOT / "tests" / "broken" / "_valid" / "game.yaml").read_text(encoding="utf-8")
                                    .replace("include: [cards.yaml]", "include: [cards.yaml, link.yaml]"),
                                    encoding="utf-8")
    (game / "cards.yaml").write_text((ROOT / "tests" / "broken" / "_valid" / "cards.yaml").read_text(encoding="utf-8"),
                                     encoding="utf-8")
    (game / "link.yaml").symlink_to(outside)
    checker = Checker()
    checker.set_text(outside.resolve(), "zones: {}\n")
    errors = checker.check(game / "game.yaml").errors
    assert [e.message for e in errors] == ["include 'link.yaml' is a link that leads outside the game's folder"]


def test_a_yaml_file_of_no_game_gets_no_diagnostics(tmp_path: Path):
    other = tmp_path / "workflow.yaml"
    other.write_text("on: [push]\njobs: {}\n", encoding="utf-8")
    assert Checker().check(other).errors == []


def _folders() -> list[Path]:
    broken = sorted(p for p in (ROOT / "tests" / "broken").iterdir() if (p / "game.yaml").is_file())
    examples = sorted(p for p in (ROOT / "examples").iterdir() if (p / "game.yaml").is_file())
    return [FLAPJACKS, JACKS_FRIENDS.parent] + examples + broken


def _cli_errors(folder: Path) -> list[str]:
    """What `validate --games 0` says of a folder: its errors, or the warnings of a game that loads."""
    try:
        game = load_game(folder)
    except RulelangError as error:
        return [e.format() for e in flatten(error)]
    return [w.format() for w in game.warnings]


@pytest.mark.parametrize("folder", _folders(), ids=lambda p: p.name)
def test_the_checks_find_exactly_what_the_cli_finds(folder: Path):
    """Every game and broken spec: the same errors, word for word and place for place, cold and with kept parses."""
    expected = _cli_errors(folder)
    for _ in range(2):
        with kept_files():
            assert [e.format() for e in check_game(folder).errors] == expected


@pytest.mark.parametrize("limit", ["MAX_NODES", "MAX_LINES", "MAX_SPEC_BYTES"])
def test_kept_files_still_count_against_the_limits_of_a_spec(limit: str, monkeypatch: pytest.MonkeyPatch):
    """A file loaded before is not parsed again, but what it costs is charged: a lower limit still refuses the game."""
    from rulelang.spec import loader
    with kept_files():
        assert check_game(FLAPJACKS).errors == []
    monkeypatch.setattr(loader, limit, {"MAX_NODES": 500, "MAX_LINES": 500, "MAX_SPEC_BYTES": 15_000}[limit])
    expected = _cli_errors(FLAPJACKS)
    assert expected
    with kept_files():
        assert [e.format() for e in check_game(FLAPJACKS).errors] == expected


def test_an_edit_parses_only_the_text_it_changed(monkeypatch: pytest.MonkeyPatch):
    fragment = FLAPJACKS / "jacks.yaml"
    text = fragment.read_text(encoding="utf-8")
    checker = Checker()
    checker.set_text(fragment, text)
    assert checker.check(fragment).errors == []
    parsed: list[tuple] = []
    parse = GameChecker.parse

    def counted(self, job):
        parsed.append(job.path)
        return parse(self, job)
    monkeypatch.setattr(GameChecker, "parse", counted)
    checker.set_text(fragment, text.replace("target.lost_turns += 1", "target.lost_turns += 2", 1))
    assert checker.check(fragment).errors == []
    assert len(parsed) == 1 and parsed[0][0] == "cards"
    parsed.clear()
    checker.set_text(fragment, "# a comment line above moves every text down a line\n" + text)
    assert checker.check(fragment).errors == []
    assert len(parsed) > 1                   # moved texts are parsed again: their spans moved with them


def test_lsp_without_pygls_says_how_to_get_it(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]):
    monkeypatch.setitem(sys.modules, "pygls", None)
    assert main(["lsp"]) == 2
    assert "pip install 'rulelang[lsp]'" in capsys.readouterr().err


# --- a real session ------------------------------------------------------------------------------

def test_positions_count_utf16_units_as_editors_do():
    pytest.importorskip("lsprotocol", reason="the language server's extra (pip install 'rulelang[lsp]') is not installed")
    from rulelang.errors import Span
    from rulelang.lsp.positions import from_client_column, span_range
    line = 'x = "\U0001F332" + nme'
    where = span_range(Span("f", 3, line.index("nme") + 1, 3, line.index("nme") + 4, text=line))
    assert (where.start.line, where.start.character, where.end.character) == (2, 11, 14)   # the tree is two units: one more than its one character
    assert line.index("nme") == 10 and from_client_column(line, 11) == 10


@pytest.mark.subprocess
def test_an_editor_session_over_json_rpc():
    pytest.importorskip("pygls", reason="the language server's extra (pip install 'rulelang[lsp]') is not installed")
    from helpers.lsp_client import LspClient
    uri = JACKS_FRIENDS.as_uri()
    text = JACKS_FRIENDS.read_text(encoding="utf-8")
    lines = text.splitlines()
    client = LspClient()
    try:
        capabilities = client.initialize()["capabilities"]
        assert capabilities["hoverProvider"] and capabilities["definitionProvider"]
        client.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "yaml", "version": 1,
                                                                "text": text}})
        assert client.diagnostics(uri) == []

        broken = text.replace("t.skips += 1", "t.skipz += 1")
        client.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": 2},
                                                 "contentChanges": [{"text": broken}]})
        [found] = client.diagnostics(uri)
        row = line_of(text, "t.skips += 1") - 1
        start = lines[row].index("t.skips")
        assert found["range"] == {"start": {"line": row, "character": start},
                                  "end": {"line": row, "character": start + len("t.skipz")}}
        assert found["message"] == "a player has no 'skipz'\nhint: did you mean 'skips'?"
        assert found["severity"] == 1

        client.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": 3},
                                                 "contentChanges": [{"text": text}]})
        assert client.diagnostics(uri) == []

        def at(piece: str, offset: int = 0) -> dict:
            row = line_of(text, piece) - 1
            return {"textDocument": {"uri": uri},
                    "position": {"line": row, "character": lines[row].index(piece) + offset}}

        hover = client.request("textDocument/hover", at("t.skips += 1", 3))
        assert hover["contents"]["value"].startswith("variable skips\ntype: int")
        ruling = client.request("textDocument/hover", at("rule: JF-7", 7))["contents"]["value"]
        assert ruling.startswith("ruling JF-7\n") and "text: " in ruling

        definition = client.request("textDocument/definition", at("hen_house.egg = setup.eggs"))
        row = line_of(text, "\n  hen_house:")          # the declaration, under locations:
        assert definition == {"uri": uri, "range": {"start": {"line": row, "character": 2},
                                                    "end": {"line": row, "character": 11}}}
        turn = JACKS_FRIENDS.parent / "turn.yaml"          # from an include fragment to the game.yaml
        turn_text = turn.read_text(encoding="utf-8")
        client.notify("textDocument/didOpen", {"textDocument": {"uri": turn.as_uri(), "languageId": "yaml",
                                                                "version": 1, "text": turn_text}})
        assert client.diagnostics(turn.as_uri()) == []
        row = line_of(turn_text, "eat(t)") - 1
        procedure = client.request("textDocument/definition", {
            "textDocument": {"uri": turn.as_uri()},
            "position": {"line": row, "character": turn_text.splitlines()[row].index("eat(t)") + 1}})
        assert procedure["uri"] == uri and procedure["range"]["start"]["line"] == line_of(text, "\n  eat:")

        scenario = FLAPJACKS / "scenarios" / "axes.yaml"      # a scenario's step, in its game's game.yaml
        scenario_text = scenario.read_text(encoding="utf-8")
        client.notify("textDocument/didOpen", {"textDocument": {"uri": scenario.as_uri(), "languageId": "yaml",
                                                                "version": 1, "text": scenario_text}})
        assert client.diagnostics(scenario.as_uri()) == []
        row = line_of(scenario_text, "step: chopping roll") - 1
        step = client.request("textDocument/definition", {
            "textDocument": {"uri": scenario.as_uri()},
            "position": {"line": row, "character": scenario_text.splitlines()[row].index("roll")}})
        game_text = (FLAPJACKS / "game.yaml").read_text(encoding="utf-8")
        assert step["uri"] == (FLAPJACKS / "game.yaml").as_uri()
        assert step["range"]["start"]["line"] == line_of(game_text, "- name: chopping roll") - 1

        labels = {item["label"] for item in client.request("textDocument/completion", at("hen_house.egg"))["items"]}
        assert {"hen_house", "eat", "skips", "gathering_places", "JF-7", "chooses", "if", "count"} <= labels

        symbols = client.request("textDocument/documentSymbol", {"textDocument": {"uri": uri}})
        assert {("eat", "procedure"), ("skips", "variable"), ("hen_house", "location")} <= {
            (s["name"], s["detail"]) for s in symbols}
    finally:
        client.close()
