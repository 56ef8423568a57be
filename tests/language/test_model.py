"""The typed spec model (rulelang/model/spec.py, model_build.py) and the declaration checks run before compiling.

The model applies every default of the language once; these tests pin the
defaults a designer relies on, that each declaration keeps the span of its
YAML, and that the compiler never builds a game from declarations that failed
their checks (rulelang/check/decls.py).
"""
from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rulelang import load_game
from rulelang.compiler import GameCompiler
from rulelang.errors import RulelangError
from rulelang.model.build import build_spec
from rulelang.model.spec import Event, FirstSeat, Owner, TriggerOn, TurnOrder, read_on
from rulelang.spec.document import Document
from rulelang.spec.loader import load_document
from rulelang.spec.schema import validate_document

from helpers.examples import examples

ROOT = Path(__file__).resolve().parents[2]
VALID = ROOT / "tests" / "broken" / "_valid"


def _spec(folder: Path = VALID):
    doc = load_document(folder)
    validate_document(doc)
    return build_spec(doc)


def _derived(tmp_path: Path, old: str, new: str) -> Path:
    """The valid base game with one text of game.yaml replaced."""
    for source in VALID.glob("*.yaml"):
        text = source.read_text(encoding="utf-8")
        if source.name == "game.yaml":
            assert old in text
            text = text.replace(old, new, 1)
        (tmp_path / source.name).write_text(text, encoding="utf-8")
    return tmp_path


def test_defaults_are_applied_once_in_the_model() -> None:
    spec = _spec()
    assert spec.name == "Gem Hunt"
    assert (spec.players.min, spec.players.max) == (2, 3)
    assert spec.locations["pot"].label == "the pot"
    assert spec.vars["bet"].initial == 0 and spec.vars["bet"].visibility == "public"
    assert spec.zones["hand"].label == "hand" and spec.zones["hand"].owner is Owner.PLAYER
    assert spec.zones["deck"].refill_from == "pile" and not spec.zones["deck"].unique
    assert [(r.name, r.count, r.team) for r in spec.roles] == [("dealer", 1, "dealer"), ("guest", None, "guest")]
    phase = spec.phases[0]
    assert (phase.name, phase.order, phase.first, phase.limit) == ("turn", TurnOrder.SEAT, FirstSeat.FIRST, 60)
    assert [s.name for s in phase.steps] == ["Draw", "Bet", "Score"]
    assert spec.seat_turns and not spec.has_phases
    gem = spec.cards[0]
    assert (gem.id, gem.count, gem.slot, gem.text, gem.token, gem.play) == ("gem", 6, "gem", "", False, None)
    assert spec.tags == ("shiny", "dull")
    assert spec.end[0].name == "the pot is full"
    assert spec.limits.step_budget > 0 and spec.limits.ask_single_options is False


def test_each_declaration_keeps_the_line_of_its_yaml() -> None:
    spec = _spec()
    text = (VALID / "game.yaml").read_text(encoding="utf-8").splitlines()
    assert text[spec.zones["hand"].span.line - 1].strip().startswith("hand:")
    assert text[spec.procedures["pay"].span.line - 1].strip().startswith("params:")
    assert spec.cards[1].span.file.endswith("cards.yaml")
    assert spec.phases[0].steps[1].effect.path == ("turn", "steps", 1, "effect")


def test_the_model_is_frozen() -> None:
    spec = _spec()
    with pytest.raises(AttributeError):
        spec.zones["hand"].label = "paw"       # type: ignore[misc]


def test_unset_defaults_of_a_bare_declaration(tmp_path: Path) -> None:
    folder = _derived(tmp_path, "  coin: {label: coin}\n", "  coin: {label: coin}\n  gold_bar: {}\n")
    spec = _spec(folder)
    assert spec.counters["gold_bar"].label == "gold bar" and spec.counters["gold_bar"].props == {}


@given(st.text(alphabet="abcdefghijklmnopqrstuvwxyz_ ", max_size=30))
@examples(200)
def test_on_reads_every_form_and_nothing_else(words: str) -> None:
    on = read_on(words)
    parts = words.split()
    if on is None:
        return
    assert isinstance(on, TriggerOn) and isinstance(on.event, Event)
    assert words.split()[:len(on.event.value.split())] == on.event.value.split()
    assert on.subject == " ".join(parts[len(on.event.value.split()):])


def test_on_forms() -> None:
    assert read_on("enter hand") == TriggerOn(Event.ENTER, "hand")
    assert read_on("after roll d6") == TriggerOn(Event.AFTER_ROLL, "d6")
    assert read_on("start turn") == TriggerOn(Event.START_TURN, "")
    assert read_on("before step Draw cards") == TriggerOn(Event.BEFORE_STEP, "Draw cards")
    assert read_on("enter") is None and read_on("after roll") is None and read_on(7) is None


def test_a_game_is_never_built_from_declarations_that_failed(tmp_path: Path, monkeypatch) -> None:
    folder = _derived(tmp_path, "  pile: {owner: table, visibility: public}\n",
                      "  pile: {owner: table, visibility: public, discard: heap}\n")
    built = []
    monkeypatch.setattr(GameCompiler, "declare", lambda self: built.append(self))
    with pytest.raises(RulelangError) as caught:
        load_game(folder)
    assert caught.value.message == "unknown zone 'heap'"
    assert built == []


def test_both_games_build_a_model_with_every_card_and_phase() -> None:
    for folder, cards in (("games/flapjacks", 1), ("games/jacks_friends", 0)):
        spec = _spec(ROOT / folder)
        game = load_game(ROOT / folder)
        assert [c.id for c in spec.cards] == [c.id for c in game.cards]
        assert sum(c.count for c in spec.cards) == len(game.card_type)
        assert [p.name for p in spec.phases] == [p.name for p in game.phases]
        assert (len(spec.cards) > 0) == bool(cards)


def test_a_document_of_no_mapping_builds_an_empty_model() -> None:
    spec = build_spec(Document({}, Path("game.yaml")))
    assert spec.name == "untitled" and spec.cards == () and [p.name for p in spec.phases] == ["turn"]


@pytest.mark.subprocess
@pytest.mark.parametrize("module", ["rulelang.model.spec", "rulelang.model.build", "rulelang.check.decls",
                                    "rulelang.lang.bindings", "rulelang.compiler"])
def test_each_module_of_the_model_imports_first_in_a_fresh_process(module: str) -> None:
    """No import cycle: the checker side must not need the compiler package to load."""
    import subprocess
    import sys
    done = subprocess.run([sys.executable, "-c", f"import {module}"], cwd=ROOT, capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr


NAMES = st.sampled_from(["deck", "pile", "hand", "heap", "bin", "pot"])


@given(zones=st.dictionaries(NAMES, st.tuples(st.none() | NAMES, st.none() | NAMES), min_size=1, max_size=4),
       card_zone=NAMES)
@examples(150)
def test_every_zone_named_and_not_declared_is_reported_once_per_place(zones: dict, card_zone: str) -> None:
    """check_decls reports an unknown zone exactly where a declaration names one, and nowhere else."""
    from rulelang.check.decls import check_declarations
    data = {"game": "g", "players": {"min": 2, "max": 2},
            "zones": {name: {"owner": "table", "visibility": "public",
                             **({"refill_from": refill} if refill else {}), **({"discard": discard} if discard else {})}
                      for name, (refill, discard) in zones.items()},
            "cards": [{"id": "c", "name": "C", "count": 1, "zone": card_zone}],
            "turn": {"order": "seat", "steps": [{"name": "s", "effect": "pass"}]}}
    doc = Document(data, Path("game.yaml"))
    errors, _ = check_declarations(build_spec(doc), doc, None)
    unknown = sorted(e.message for e in errors if e.message.startswith("unknown zone"))
    named = [other for refill, discard in zones.values() for other in (refill, discard) if other is not None]
    expected = sorted(f"unknown zone '{other}'" for other in named + [card_zone] if other not in zones)
    assert unknown == expected
