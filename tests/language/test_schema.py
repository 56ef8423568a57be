"""Tests for rulelang.spec.schema and schemas/game.schema.json: located, plain structure errors."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator

from rulelang.errors import ErrorList, RulelangError, SpecError
from rulelang.spec import schema as schema_module
from rulelang.spec.loader import load_document
from rulelang.spec.schema import load_schema, validate_document

ROOT = Path(__file__).resolve().parents[2]

FULL_GAME = """\
# yaml-language-server: $schema=../../schemas/game.schema.json
game: Flapjacks
players: {min: 2, max: 5}
include: [cards.yaml]
rulings:
  FS-1: {text: One seat is the saboteur., section: Setup}
  FS-2: {text: The turn order., section: Turn}
  FS-3: {text: Turns are counted., section: Turn}
  FS-4: {text: A step of the turn., section: Turn}
  FS-7: {text: A card's play., section: Cards}
  FS-9: {text: A falling tree ends the game., section: End}
roles:
  - {name: lumberjack, label: Lumberjack, team: jacks}
  - {name: saboteur, count: 1, team: saboteurs, rule: FS-1, text: One saboteur.}
locations:
  tree: {label: The Tree, height: 10, kind: oak}
  hen_house: {label: Hen House}
counters:
  egg: {label: Egg, value: 1}
  flapjack: {label: Flapjack}
vars:
  at: {type: location, initial: none}
  chopped: {type: bool}
  score: {type: int, initial: 0}
tables:
  hands: {by: players, columns: [cards, eggs], rows: {2: [6, 3], 3: [5, 2]}}
dice:
  axe_die: {faces: 6, outcomes: {break: [1, 2], chop: [4, 5, 6]}}
zones:
  main_deck: {owner: table, visibility: hidden, refill_from: main_discard, discard: main_discard}
  main_discard: {owner: table, visibility: public}
  hand: {owner: player, visibility: owner}
  play: {owner: player, visibility: public, unique: slot, unique_with: [hand]}
tags: [equipment, axe, monster]
card_props: {dice: 0, points: 0}
setup: |
  shuffle main_deck
  for each p in players:
      draw 5 from main_deck to p.hand
turn:
  order: seat
  first: random
  limit: 1000
  rule: [FS-2, FS-3]
  steps:
    - name: draw
      rule: FS-4
      effect: draw 1 from main_deck to me.hand
      text: Draw a card.
    - {name: play, effect: "play from hand else discard"}
procedures:
  chop:
    params: {t: player}
    effect: "t.score += 1"
functions:
  strength:
    params: {p: player}
    value: "sum(c.dice for c in p.play)"
triggers:
  - name: monster_arrives
    on: enter play
    if: "card is monster"
    effect: "discard card"
end:
  - {name: tree_falls, rule: FS-9, when: "tree.height = 0", winner: "first(p in players where p.score > 0)"}
  - {name: out_of_time, when: "turn > 50"}
"""

CARDS = """\
cards:
  - id: steel_axe
    name: Steel Axe
    count: 5
    zone: main_deck
    discard: main_discard
    tags: [equipment, axe]
    slot: axe
    props: {dice: 3}
    text: A sturdy axe.
    rule: FS-7
    play:
      target: "target = me"
      to: target.play
      effect: "pass"
    discard_when: "owner.play has shield"
  - id: shield
    name: Shield
    count: 2
    zone: main_deck
    answer:
      when: "card is monster"
      effect: "draw 1 from main_deck to me.hand"
"""


def write(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def game_with(tmp_path: Path, extra: str, base: str = "game: x\nplayers: {min: 2, max: 4}\nturn: {order: seat, steps: [{name: s, effect: pass}]}\n") -> Path:
    """A minimal valid game plus ``extra`` YAML appended at the end."""
    return write(tmp_path, "g/game.yaml", base + extra)


def validation_errors(path: Path) -> list[RulelangError]:
    doc = load_document(path)
    with pytest.raises(RulelangError) as caught:
        validate_document(doc)
    error = caught.value
    return list(error.errors) if isinstance(error, ErrorList) else [error]


def one_error(path: Path) -> RulelangError:
    errors = validation_errors(path)
    assert len(errors) == 1, [e.format() for e in errors]
    return errors[0]


def at(error: RulelangError) -> tuple[str, int, int]:
    assert error.span is not None
    return Path(error.span.file).name, error.span.line, error.span.col


# ---------------------------------------------------------------------------
# The schema file


@pytest.mark.parametrize("path", sorted((ROOT / "schemas").glob("*.schema.json")), ids=lambda p: p.name)
def test_every_schema_we_ship_is_valid_draft_2020_12(path: Path) -> None:
    """Checked here, once, rather than against the metaschema on every load (rulelang/spec/schema.py)."""
    schema = json.loads(path.read_text(encoding="utf-8"))
    Draft202012Validator.check_schema(schema)
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"


def test_schema_is_valid_draft_2020_12() -> None:
    schema = load_schema("game")
    Draft202012Validator.check_schema(schema)
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert schema["$id"].endswith("game.schema.json")
    assert schema["title"]
    assert schema["required"] == ["game", "players"]        # and `turn` or `phases`: the compiler checks which


def _objects(node: Any, where: str = "#") -> list[tuple[str, dict]]:
    found = []
    if isinstance(node, dict):
        if node.get("type") == "object":
            found.append((where, node))
        for key, value in node.items():
            found.extend(_objects(value, f"{where}/{key}"))
    elif isinstance(node, list):
        for i, value in enumerate(node):
            found.extend(_objects(value, f"{where}/{i}"))
    return found


def test_every_object_closes_its_keys_and_documents_them() -> None:
    schema = load_schema("game")
    for where, node in _objects(schema):
        assert "additionalProperties" in node, where
        for key, prop in node.get("properties", {}).items():
            described = "description" in prop or "$ref" in prop
            assert described, f"{where}/properties/{key}"
    for name, definition in schema["$defs"].items():
        assert "description" in definition, name


def test_fixed_objects_refuse_unknown_keys() -> None:
    schema = load_schema("game")
    free = {"location", "counter"}
    for name, definition in schema["$defs"].items():
        if definition.get("type") == "object" and "properties" in definition and name not in free:
            assert definition["additionalProperties"] is False, name


def test_load_schema_is_cached_but_returns_copies() -> None:
    first = load_schema("game")
    first["title"] = "changed"
    assert load_schema("game")["title"] != "changed"
    assert schema_module._validator("game") is schema_module._validator("game")


def test_unknown_schema_name() -> None:
    with pytest.raises(SpecError) as caught:
        load_schema("gmae")
    assert caught.value.message == "unknown schema 'gmae'"
    assert caught.value.hint == "did you mean 'game'?"


# ---------------------------------------------------------------------------
# Valid specs


def test_full_game_following_the_language_reference_is_valid(tmp_path: Path) -> None:
    write(tmp_path, "g/cards.yaml", CARDS)
    doc = load_document(write(tmp_path, "g/game.yaml", FULL_GAME))
    assert validate_document(doc) is None


def test_single_file_with_include_key_is_valid(tmp_path: Path) -> None:
    write(tmp_path, "g/cards.yaml", CARDS)
    doc = load_document(write(tmp_path, "g/game.yaml", FULL_GAME), includes=False)
    assert doc.data["include"] == ["cards.yaml"]
    validate_document(doc)


def test_include_may_be_a_single_string(tmp_path: Path) -> None:
    doc = load_document(game_with(tmp_path, "include: cards.yaml\n"), includes=False)
    validate_document(doc)


# ---------------------------------------------------------------------------
# Error messages and locations


def test_unknown_key_with_did_you_mean_at_the_key(tmp_path: Path) -> None:
    extra = "cards:\n  - id: a\n    name: A\n    count: 1\n    zone: deck\n    play:\n      tragets: target = me\n"
    error = one_error(game_with(tmp_path, extra))
    assert error.message == "unknown key 'tragets' in card play"
    assert error.hint == "did you mean 'target'?"
    assert at(error) == ("game.yaml", 10, 7)


def test_unknown_key_in_card(tmp_path: Path) -> None:
    extra = "cards:\n  - {id: a, name: A, count: 1, zone: deck, dscard: pile}\n"
    error = one_error(game_with(tmp_path, extra))
    assert error.message == "unknown key 'dscard' in card"
    assert error.hint == "did you mean 'discard'?"
    assert at(error) == ("game.yaml", 5, 44)


def test_unknown_top_level_key(tmp_path: Path) -> None:
    error = one_error(game_with(tmp_path, "cardz: []\n"))
    assert error.message == "unknown key 'cardz' in game spec"
    assert error.hint == "did you mean 'cards'?"
    assert at(error) == ("game.yaml", 4, 1)


def test_unknown_key_without_a_close_match(tmp_path: Path) -> None:
    error = one_error(game_with(tmp_path, "zones:\n  deck: {owner: table, visibility: public, colour: red}\n"))
    assert error.message == "unknown key 'colour' in zone"
    assert error.hint is None


def test_wrong_type(tmp_path: Path) -> None:
    extra = "cards:\n  - id: a\n    name: A\n    count: three\n    zone: deck\n"
    error = one_error(game_with(tmp_path, extra))
    assert error.message == "expected a number for 'count', got a string"
    assert at(error) == ("game.yaml", 7, 12)
    assert error.hint == "Number of copies."


def test_wrong_type_decimal_for_whole_number(tmp_path: Path) -> None:
    error = one_error(game_with(tmp_path, "dice:\n  d6: {faces: 6.5}\n"))
    assert error.message == "expected a whole number for 'faces', got a decimal number"


@pytest.mark.parametrize("extra, line, col, field", [
    ("dice:\n  d6: {faces: 6.0}\n", 5, 15, "faces"),
    ("cards:\n  - {id: a, name: A, count: 2.0, zone: deck}\n", 5, 29, "count"),
])
def test_a_whole_number_written_as_a_decimal_is_refused(tmp_path: Path, extra: str, line: int, col: int,
                                                         field: str) -> None:
    """JSON Schema takes 6.0 for an integer; a game's counts are ints, and a float broke the loader later."""
    error = one_error(game_with(tmp_path, extra))
    assert error.message == f"expected a whole number for '{field}', got a decimal number"
    assert at(error) == ("game.yaml", line, col)


def test_players_written_as_a_decimal_is_refused(tmp_path: Path) -> None:
    base = "game: x\nplayers: {min: 2.0, max: 4}\nturn: {order: seat, steps: [{name: s, effect: pass}]}\n"
    error = one_error(game_with(tmp_path, "", base=base))
    assert error.message == "expected a whole number for 'min', got a decimal number"
    assert at(error) == ("game.yaml", 2, 16)


def test_wrong_type_list_item(tmp_path: Path) -> None:
    error = one_error(game_with(tmp_path, "tags: [axe, 3]\n"))
    assert error.message == "expected a string for item 2 of 'tags', got a number"
    assert at(error) == ("game.yaml", 4, 13)


def test_wrong_type_never_shows_a_python_repr(tmp_path: Path) -> None:
    error = one_error(game_with(tmp_path, "cards: {a: {b: [1, 2, 3]}}\n"))
    assert error.message == "expected a list for 'cards', got a mapping"
    assert "{" not in error.message


def test_dsl_text_must_be_a_string(tmp_path: Path) -> None:
    error = one_error(game_with(tmp_path, "end:\n  - {name: e, when: true}\n"))
    assert error.message == "expected a string for 'when', got true"


def test_missing_required_key_at_the_mapping(tmp_path: Path) -> None:
    extra = "cards:\n  - name: Steel Axe\n    count: 1\n    zone: deck\n"
    error = one_error(game_with(tmp_path, extra))
    assert error.message == "card is missing required key 'id'"
    assert at(error) == ("game.yaml", 5, 5)
    assert error.hint == "add 'id': The card's unique name, usable in the DSL."


def test_missing_top_level_keys(tmp_path: Path) -> None:
    errors = validation_errors(write(tmp_path, "g/game.yaml", "# spec\ngame: x\n"))
    assert [e.message for e in errors] == [
        "game spec is missing required key 'players'",
    ]                                      # a missing `turn`/`phases` is the compiler's to report
    assert all(at(e) == ("game.yaml", 2, 1) for e in errors)


def test_enum_mismatch_lists_allowed_values(tmp_path: Path) -> None:
    error = one_error(game_with(tmp_path, "zones:\n  deck: {owner: tabel, visibility: hidden}\n"))
    assert error.message == "'tabel' is not allowed for 'owner': expected one of table, player"
    assert error.hint == "did you mean 'table'?"
    assert at(error) == ("game.yaml", 5, 17)


def test_enum_mismatch_of_a_non_string(tmp_path: Path) -> None:
    error = one_error(game_with(tmp_path, "vars:\n  v: {type: 3}\n"))
    assert error.message == "'3' is not allowed for 'type': expected one of int, bool, player, location, card, counter"


def test_bad_name_as_a_mapping_key(tmp_path: Path) -> None:
    error = one_error(game_with(tmp_path, "zones:\n  Main Deck: {owner: table, visibility: hidden}\n"))
    assert error.message == "'Main Deck' is not a valid name"
    assert "lowercase" in error.hint
    assert at(error) == ("game.yaml", 5, 3)


def test_bad_name_as_a_value(tmp_path: Path) -> None:
    error = one_error(game_with(tmp_path, "cards:\n  - {id: Steel-Axe, name: A, count: 1, zone: deck}\n"))
    assert error.message == "'Steel-Axe' is not a valid name"
    assert at(error) == ("game.yaml", 5, 10)


def test_table_rows_keyed_by_player_count(tmp_path: Path) -> None:
    extra = "tables:\n  t: {by: players, columns: [a], rows: {2: [1], 3: [x], two: [2]}}\n"
    error = one_error(game_with(tmp_path, extra))
    assert error.message == "'two' is not a valid key in 'rows'"
    assert at(error) == ("game.yaml", 5, 57)


def test_free_props_must_be_numbers_or_names(tmp_path: Path) -> None:
    error = one_error(game_with(tmp_path, "locations:\n  tree: {label: Tree, height: [1, 2]}\n"))
    assert error.message == "expected a number or a string for 'height', got a list"
    assert at(error) == ("game.yaml", 5, 31)


def test_rule_is_a_string_or_a_list_of_strings(tmp_path: Path) -> None:
    ok = ("rulings: {FS-1: {text: a, section: s}, FS-2: {text: b, section: s}}\n"
          "roles:\n  - {name: a, rule: FS-1}\n  - {name: b, rule: [FS-1, FS-2]}\n")
    validate_document(load_document(game_with(tmp_path, ok)))
    error = one_error(game_with(tmp_path, "roles:\n  - {name: a, rule: 7}\n"))
    assert error.message == "expected a string or a list for 'rule', got a number"
    error = one_error(game_with(tmp_path, "roles:\n  - {name: a, rule: [FS-1, 2]}\n"))
    assert error.message == "expected a string for item 2 of 'rule', got a number"


def test_repeated_tag(tmp_path: Path) -> None:
    error = one_error(game_with(tmp_path, "tags: [axe, monster, axe]\n"))
    assert error.message == "'tags' lists 'axe' twice"
    assert at(error) == ("game.yaml", 4, 22)


def test_minimum_and_min_items(tmp_path: Path) -> None:
    base = "game: x\nplayers: {min: 0, max: 4}\nturn: {order: round, steps: []}\n"
    errors = validation_errors(write(tmp_path, "g/game.yaml", base))
    assert [e.message for e in errors] == ["'min' must be at least 1, got 0", "'steps' needs at least 1 entry"]


def test_empty_game_name(tmp_path: Path) -> None:
    base = "game: ''\nplayers: {min: 1, max: 4}\nturn: {order: round, steps: [{name: s, effect: pass}]}\n"
    error = one_error(write(tmp_path, "g/game.yaml", base))
    assert error.message == "'game' must not be empty"


def test_trigger_on_must_name_enter_leave_or_resolve(tmp_path: Path) -> None:
    error = one_error(game_with(tmp_path, "triggers:\n  - {name: t, on: arrive play, effect: pass}\n"))
    assert error.message == "'arrive play' is not a valid value for 'on'"
    assert error.hint == ('"enter ZONE", "leave ZONE", "resolve KIND", "before roll DIE", "after roll DIE", '
                          '"start turn", "end turn", "before step STEP", "after step STEP", "before draw" or '
                          '"before play".')


def test_several_errors_come_sorted_and_point_into_included_files(tmp_path: Path) -> None:
    write(tmp_path, "g/cards.yaml", "cards:\n  - {id: a, name: A, count: -1, zone: deck}\n")
    path = game_with(tmp_path, "include: cards.yaml\ntags: [1]\nzones: {deck: {owner: table}}\n")
    errors = validation_errors(path)
    assert [(at(e), e.message) for e in errors] == [
        (("cards.yaml", 2, 29), "'count' must be at least 0, got -1"),
        (("game.yaml", 5, 8), "expected a string for item 1 of 'tags', got a number"),
        (("game.yaml", 6, 15), "zone is missing required key 'visibility'"),
    ]


# ---------------------------------------------------------------------------
# anyOf / oneOf, with a schema of our own


@pytest.fixture
def custom_schemas(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """Point the schema folder at tmp_path for one test, with fresh caches."""
    folder = tmp_path / "schemas"
    folder.mkdir()
    monkeypatch.setattr(schema_module, "SCHEMA_DIR", folder)
    schema_module._schema.cache_clear()
    schema_module._validator.cache_clear()
    yield folder
    schema_module._schema.cache_clear()
    schema_module._validator.cache_clear()


CHOICE_SCHEMA = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "title": "thing",
    "type": "object",
    "additionalProperties": False,
    "properties": {
        "size": {"anyOf": [{"type": "integer"}, {"type": "string"}]},
        "shape": {
            "oneOf": [
                {"title": "circle", "type": "object", "additionalProperties": False,
                 "required": ["radius"], "properties": {"radius": {"type": "integer"}}},
                {"type": "string", "enum": ["square", "triangle"]},
            ]
        },
    },
}


def test_any_of_wrong_type_for_every_branch(tmp_path: Path, custom_schemas: Path) -> None:
    (custom_schemas / "thing.schema.json").write_text(json.dumps(CHOICE_SCHEMA))
    doc = load_document(write(tmp_path, "t.yaml", "size: [1]\n"))
    with pytest.raises(SpecError) as caught:
        validate_document(doc, "thing")
    assert caught.value.message == "expected a number or a string for 'size', got a list"


def test_one_of_picks_the_branch_that_fits_best(tmp_path: Path, custom_schemas: Path) -> None:
    (custom_schemas / "thing.schema.json").write_text(json.dumps(CHOICE_SCHEMA))
    doc = load_document(write(tmp_path, "t.yaml", "shape:\n  radius: 2\n  raduis: 3\n"))
    with pytest.raises(SpecError) as caught:
        validate_document(doc, "thing")
    assert caught.value.message == "unknown key 'raduis' in circle"
    assert (caught.value.span.line, caught.value.span.col) == (3, 3)
