"""Card groups (``card_groups:`` and a card's ``group:``), and YAML merge keys in cards (issue 31)."""
from __future__ import annotations

import copy
import functools
import textwrap
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rulelang import load_game
from rulelang.errors import ErrorList, RulelangError
from rulelang.pipeline import read_spec
from rulelang.rulebook.explain import explain
from rulelang.spec import loader
from rulelang.spec.loader import load_document

from helpers.examples import examples

ROOT = Path(__file__).resolve().parents[2]
FJ = str(ROOT / "games" / "flapjacks")

HEAD = """\
game: Grouped
players: {min: 2, max: 3}
tags: [gear, blade, shiny, heavy]
card_props: {edge: 0, weight: 0}
zones:
  deck: {owner: table, visibility: hidden, discard: pile}
  pile: {owner: table, visibility: public}
  hand: {owner: player, visibility: owner}
  play: {owner: player, visibility: public}
setup: |
  for each p in players:
    draw 2 from deck to p.hand
turn:
  order: seat
  limit: 3
  steps:
    - name: act
      effect: play from me.hand else discard
"""

GROUPS = """\
card_groups:
  blade:
    zone: deck
    tags: [gear, blade]
    props: {edge: 2, weight: 1}
    rule: []
    play:
      to: target.play
"""


def write_game(tmp_path: Path, cards: str, groups: str = GROUPS) -> Path:
    folder = tmp_path / "game"
    folder.mkdir(exist_ok=True)
    (folder / "game.yaml").write_text(HEAD + groups + "cards:\n" + textwrap.dedent(cards), encoding="utf-8")
    return folder


def errors_of(call) -> list[RulelangError]:
    with pytest.raises(RulelangError) as caught:
        call()
    error = caught.value
    return list(error.errors) if isinstance(error, ErrorList) else [error]


def card(doc, card_id: str) -> dict:
    return next(c for c in doc.data["cards"] if c["id"] == card_id)


def card_index(doc, card_id: str) -> int:
    return [c["id"] for c in doc.data["cards"]].index(card_id)


# --- what a card takes --------------------------------------------------------------------


def test_a_card_of_a_group_takes_every_key_it_does_not_give(tmp_path: Path) -> None:
    folder = write_game(tmp_path, """\
      - {id: knife, name: Knife, count: 10, group: blade}
    """)
    doc = load_document(folder)
    assert card(doc, "knife") == {"id": "knife", "name": "Knife", "count": 10, "zone": "deck",
                                  "tags": ["gear", "blade"], "props": {"edge": 2, "weight": 1}, "rule": [],
                                  "play": {"to": "target.play"}}
    assert "card_groups" not in doc.data
    game = load_game(folder)         # compiles only with a card that can be played: the group's play
    assert len(game.new_state(2, 0, before_first_turn=True).zone("deck")) == 10 - 2 * 2     # the setup draws 2 each


def test_the_cards_own_key_wins_and_mappings_join_key_by_key(tmp_path: Path) -> None:
    folder = write_game(tmp_path, """\
      - id: axe
        name: Axe
        count: 2
        group: blade
        zone: pile
        props: {edge: 5}
        rule: []
        play:
          target: target != me
    """)
    axe = card(load_document(folder), "axe")
    assert axe["zone"] == "pile"
    assert axe["props"] == {"edge": 5, "weight": 1}
    assert axe["play"] == {"target": "target != me", "to": "target.play"}   # the schema's order: target, to


def test_tags_add_up_the_groups_first_and_each_once(tmp_path: Path) -> None:
    folder = write_game(tmp_path, """\
      - {id: saw, name: Saw, count: 1, group: blade, tags: [heavy, blade, shiny]}
    """)
    assert card(load_document(folder), "saw")["tags"] == ["gear", "blade", "heavy", "shiny"]


def test_any_other_list_the_card_gives_replaces_the_groups(tmp_path: Path) -> None:
    groups = GROUPS.replace("rule: []", "rule: [R-1]")
    folder = write_game(tmp_path, """\
      - {id: saw, name: Saw, count: 1, group: blade, rule: [R-2]}
      - {id: adze, name: Adze, count: 1, group: blade}
    """, groups)
    doc = load_document(folder)
    assert card(doc, "saw")["rule"] == ["R-2"] and card(doc, "adze")["rule"] == ["R-1"]


@given(st.data())
@examples(30)
def test_moving_any_keys_of_a_flapjacks_card_into_a_group_changes_nothing(data: st.DataObject) -> None:
    """A card written out in full and the same card with some of its keys (or parts of its play and tags)
    given by a group are the same data, key order included: the logs and the game's digest stay. (The
    props a group and a card both give come out the group's first: props have no order of their own.)"""
    written = [c for c in _flapjacks_cards() if c.get("id")]
    whole = data.draw(st.sampled_from(written))
    group, own = _split(whole, data)
    laid = _expand_one(group, own)
    assert list(laid) == list(whole) and laid == whole
    assert all(list(laid[k]) == list(whole[k]) for k in whole if isinstance(whole[k], dict))


def _split(whole: dict, data: st.DataObject) -> tuple[dict, dict]:
    """Some of the card's keys to a group (a mapping or the tags possibly split between the two)."""
    group: dict = {}
    own: dict = {}
    for key, value in whole.items():
        where = "own" if key in ("id", "name") else data.draw(st.sampled_from(["own", "group", "split"]))
        if where == "split" and isinstance(value, dict) and value and key != "props":   # props: no set order
            given = data.draw(st.sets(st.sampled_from(sorted(value))))
            group[key] = {k: v for k, v in value.items() if k in given}
            own[key] = {k: v for k, v in value.items() if k not in given}
        elif where == "split" and key == "tags":
            cut = data.draw(st.integers(0, len(value)))
            group[key], own[key] = value[:cut], value[cut:]
        elif where == "group":
            group[key] = copy.deepcopy(value)
        else:
            own[key] = copy.deepcopy(value)
    return group, own


@functools.cache
def _flapjacks_cards() -> list[dict]:
    """Flapjacks' cards as the game reads them (read once: the examples copy what they change)."""
    return read_spec(FJ).data["cards"]


def _expand_one(group: dict, own: dict) -> dict:
    from rulelang.spec.document import Document
    from rulelang.spec.groups import expand_card_groups

    doc = Document({"card_groups": {"g": group}, "cards": [{**own, "group": "g"}]}, Path("game.yaml"))
    expand_card_groups(doc)
    return doc.data["cards"][0]


# --- errors, located ------------------------------------------------------------------------


def test_an_unknown_key_in_a_group_is_reported_at_that_key_with_a_hint(tmp_path: Path) -> None:
    groups = GROUPS.replace("    zone: deck\n", "    zoen: deck\n    zone: deck\n")
    folder = write_game(tmp_path, """\
      - {id: knife, name: Knife, count: 4, group: blade}
      - {id: saw, name: Saw, count: 1, group: blade}
    """, groups)
    [error] = errors_of(lambda: load_document(folder))
    assert "unknown key 'zoen' in card group 'blade'" in error.message
    assert error.hint == "did you mean 'zone'?"
    assert (error.span.line, error.span.col) == (HEAD.count("\n") + 3, 5)
    shown = error.format()
    assert "    zoen: deck" in shown and "^" in shown


def test_a_group_cannot_give_an_id(tmp_path: Path) -> None:
    folder = write_game(tmp_path, "  - {id: knife, name: Knife, count: 4, group: blade}\n",
                        GROUPS.replace("    zone: deck\n", "    zone: deck\n    id: thing\n"))
    [error] = errors_of(lambda: load_document(folder))
    assert "cannot give 'id'" in error.message and error.span.line == HEAD.count("\n") + 4


def test_an_unknown_group_is_reported_at_the_cards_group(tmp_path: Path) -> None:
    folder = write_game(tmp_path, """\
      - {id: knife, name: Knife, count: 4, group: blade}
      - id: saw
        name: Saw
        count: 1
        group: blades
    """)
    [error] = errors_of(lambda: load_document(folder))
    assert "unknown card group 'blades'" in error.message and error.hint == "did you mean 'blade'?"
    assert (error.span.line, error.span.col) == (HEAD.count("\n") + GROUPS.count("\n") + 6, 10)


def test_a_wrong_value_a_group_gives_is_reported_at_the_group(tmp_path: Path) -> None:
    folder = write_game(tmp_path, "  - {id: knife, name: Knife, count: 4, group: blade}\n",
                        GROUPS.replace("zone: deck", "zone: dek"))
    errors = errors_of(lambda: load_game(folder))
    zone_errors = [e for e in errors if "dek" in e.message]
    assert zone_errors and zone_errors[0].span.line == HEAD.count("\n") + 3


def test_a_card_whose_group_gives_no_zone_misses_its_zone_at_the_card(tmp_path: Path) -> None:
    groups = GROUPS.replace("    zone: deck\n", "")
    folder = write_game(tmp_path, "  - {id: knife, name: Knife, count: 4, group: blade}\n", groups)
    [error] = errors_of(lambda: load_game(folder))
    assert "missing required key 'zone'" in error.message
    assert error.span.line == HEAD.count("\n") + groups.count("\n") + 2


def test_groups_laid_into_many_cards_count_against_the_spec_budget(tmp_path: Path, monkeypatch) -> None:
    big = "card_groups:\n  blade:\n    zone: deck\n    props: {" + ", ".join(f"p{i}: 1" for i in range(60)) + "}\n"
    cards = "".join(f"  - {{id: c{i}, name: C, count: 1, group: blade}}\n" for i in range(40))
    folder = write_game(tmp_path, cards, big)
    monkeypatch.setattr(loader, "MAX_NODES", 2_000)
    [error] = errors_of(lambda: load_document(folder))
    assert "more than 2,000 values" in error.message and "group" in error.hint
    assert error.span.file.endswith("game.yaml") and error.span.line > HEAD.count("\n") + 4


# --- mods and tools see whole cards -----------------------------------------------------------


def test_a_card_a_mod_adds_to_a_group_takes_the_groups_keys(tmp_path: Path) -> None:
    mod = tmp_path / "mod" / "mod.yaml"
    mod.parent.mkdir()
    mod.write_text("mod: Big axe\ngame: Flapjacks & Sasquatches\nadd:\n  cards:\n"
                   "    - {id: big_axe, name: Big Axe, count: 2, group: axe, props: {dice: 6}}\n", encoding="utf-8")
    doc = read_spec(FJ, mods=[mod.parent])
    big = card(doc, "big_axe")
    assert big["zone"] == "jack_deck" and big["slot"] == "axe" and big["tags"] == ["equipment", "axe", "tool"]
    assert big["play"] == {"to": "target.play"} and "group" not in big
    index = card_index(doc, "big_axe")
    assert doc.span(("cards", index, "props")).file == str(mod)
    assert doc.span(("cards", index, "zone")).file.endswith("jacks.yaml")
    game = load_game(FJ, [mod.parent])
    assert [t.id for t in game.card_type].count("big_axe") == 2


def test_a_mod_card_naming_an_unknown_group_is_located_in_the_mod(tmp_path: Path) -> None:
    mod = tmp_path / "mod" / "mod.yaml"
    mod.parent.mkdir()
    mod.write_text("mod: Big axe\ngame: Flapjacks & Sasquatches\nadd:\n  cards:\n"
                   "    - {id: big_axe, name: Big Axe, count: 2, group: axes}\n", encoding="utf-8")
    [error] = errors_of(lambda: read_spec(FJ, mods=[mod.parent]))
    assert error.span.file == str(mod) and error.span.line == 5 and error.hint == "did you mean 'axe'?"


def test_explain_shows_the_card_with_its_groups_keys_written_at_the_group(tmp_path: Path) -> None:
    lines = explain(FJ, "dull_axe")
    text = "\n".join(lines)
    assert "Kinds: equipment, axe, tool." in text and "Slot: axe." in text
    assert "the target player's play area" in text              # play.to, from the group
    jacks = (ROOT / "games" / "flapjacks" / "jacks.yaml").read_text(encoding="utf-8").splitlines()
    group_to = next(i for i, line in enumerate(jacks, 1) if line.strip() == "to: target.play")
    assert f"jacks.yaml:{group_to}:" in text                   # written at: the group's line


def test_the_rulebook_lists_a_grouped_card_whole(capsys) -> None:
    from rulelang.cli import main

    assert main(["rules", FJ]) == 0
    out = capsys.readouterr().out
    chopping = out[out.index("### Chopping Axe"):]
    chopping = chopping[:chopping.index("###", 3)]
    assert "Kinds: equipment, axe, tool." in chopping and "starting in the Jack deck" in chopping


def test_the_language_servers_checks_see_a_group_mistake_at_the_group(tmp_path: Path) -> None:
    from rulelang.lsp.diagnose import check_game

    groups = GROUPS.replace("    zone: deck\n", "    zoen: deck\n    zone: deck\n")
    folder = write_game(tmp_path, "  - {id: knife, name: Knife, count: 4, group: blade}\n", groups)
    [error] = check_game(folder).errors
    assert "zoen" in error.message and error.span.line == HEAD.count("\n") + 3


def test_the_language_server_sees_the_flapjacks_cards_whole() -> None:
    outcome = check_game_of(FJ)
    assert outcome.errors == []
    assert card(outcome.doc, "gloves")["play"] == {"to": "target.play"}


def check_game_of(folder: str):
    from rulelang.lsp.diagnose import check_game

    return check_game(Path(folder))


# --- YAML merge keys ----------------------------------------------------------------------------


def test_a_merge_key_in_a_card_gives_the_anchors_keys(tmp_path: Path) -> None:
    folder = tmp_path / "game"
    folder.mkdir()
    (folder / "game.yaml").write_text(
        HEAD + "cards:\n  - &first {id: knife, name: Knife, count: 4, zone: deck, play: {to: target.play}}\n"
        "  - {<<: *first, id: saw, name: Saw, count: 1}\n", encoding="utf-8")
    doc = load_document(folder)
    assert card(doc, "saw") == {"zone": "deck", "play": {"to": "target.play"}, "id": "saw", "name": "Saw",
                                "count": 1}
    load_game(folder)


def test_an_error_inside_a_merged_mapping_is_reported_at_the_anchors_line(tmp_path: Path) -> None:
    """Pinned: a merged key keeps the position of the anchored mapping it came from, not of the card."""
    folder = tmp_path / "game"
    folder.mkdir()
    text = (HEAD + "cards:\n"
            "  - &first {id: knife, name: Knife, count: 4, zone: deck, tagz: [gear]}\n"
            "  - {<<: *first, id: saw, name: Saw, count: 1}\n")
    (folder / "game.yaml").write_text(text, encoding="utf-8")
    errors = errors_of(lambda: load_game(folder))
    anchor_line = HEAD.count("\n") + 2
    assert [(e.span.line, "tagz" in e.message) for e in errors] == [(anchor_line, True)]
    assert errors[0].span.col == text.splitlines()[anchor_line - 1].index("tagz") + 1


def test_a_billion_laughs_of_merge_keys_is_refused_at_a_located_place(tmp_path: Path) -> None:
    levels = ["l0: &l0 {a: 1, b: 2, c: 3, d: 4, e: 5, f: 6, g: 7, h: 8, i: 9, j: 10}"]
    for level in range(1, 12):
        keys = ", ".join(f"k{k}: *l{level - 1}" for k in range(10))
        levels.append(f"l{level}: &l{level} {{<<: *l{level - 1}, {keys}}}")
    folder = tmp_path / "game"
    folder.mkdir()
    (folder / "game.yaml").write_text(HEAD + "x:\n" + textwrap.indent("\n".join(levels), "  ") + "\n",
                                      encoding="utf-8")
    [error] = errors_of(lambda: load_document(folder))
    assert "values" in error.message and "aliases" in error.message
    assert error.span is not None and error.span.file.endswith("game.yaml")
    assert HEAD.count("\n") + 2 <= error.span.line <= HEAD.count("\n") + 13


@pytest.mark.parametrize(("groups", "card_group", "said"), [
    ("card_groups:\n  Blade: {zone: deck}\n", "Blade", "cannot name a card group"),
    ("card_groups:\n  blade: [zone, deck]\n", "blade", "must be a mapping of card keys"),
    ("", "blade", "declares no 'card_groups'"),
    ("card_groups:\n  blade: {zone: deck}\n", "[blade]", "must name one group"),
])
def test_a_malformed_group_or_group_name_is_one_located_error(tmp_path: Path, groups: str, card_group: str,
                                                               said: str) -> None:
    folder = write_game(tmp_path, f"  - {{id: knife, name: Knife, count: 4, group: {card_group}}}\n", groups)
    errors = errors_of(lambda: load_document(folder))
    assert said in errors[0].message and errors[0].span.file.endswith("game.yaml")
    assert errors[0].span.line > HEAD.count("\n")
