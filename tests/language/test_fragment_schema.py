"""Include fragments name a schema editors accept: schemas/fragment.schema.json, the game schema less its required keys."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
import yaml
from jsonschema import Draft202012Validator

from rulelang.lsp.fragment_schema import fragment_text

ROOT = Path(__file__).resolve().parents[2]
SCHEMA_LINE = re.compile(r"^# yaml-language-server: \$schema=(\S+)$")


def _includes(file: Path) -> list[Path]:
    """Every file ``file`` includes, and what they include in turn."""
    data = yaml.safe_load(file.read_text(encoding="utf-8"))
    named = data.get("include", []) if isinstance(data, dict) else []
    found = [file.parent / name for name in ([named] if isinstance(named, str) else named)]
    return found + [deeper for part in found for deeper in _includes(part)]


FRAGMENTS = sorted({part for main in [*ROOT.glob("games/*/game.yaml"), *ROOT.glob("examples/*/game.yaml"),
                                      *ROOT.glob("examples/mods/*/mod.yaml")] for part in _includes(main)})


def _named_schema(file: Path) -> Path:
    match = SCHEMA_LINE.match(file.read_text(encoding="utf-8").splitlines()[0])
    assert match, f"{file} has no schema line"
    return (file.parent / match.group(1)).resolve()


def test_the_fragment_schema_is_the_game_schema_without_required_keys():
    assert (ROOT / "schemas" / "fragment.schema.json").read_text(encoding="utf-8") == fragment_text(ROOT / "schemas"), \
        "schemas/fragment.schema.json is stale: run python -m rulelang.lsp.fragment_schema"


def test_the_games_have_fragments():
    assert {p.relative_to(ROOT).as_posix() for p in FRAGMENTS} >= {
        "games/flapjacks/jacks.yaml", "games/flapjacks/trees.yaml", "games/jacks_friends/turn.yaml"}


@pytest.mark.parametrize("fragment", FRAGMENTS, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_every_fragment_validates_against_the_schema_it_names(fragment: Path):
    schema_file = _named_schema(fragment)
    assert schema_file == (ROOT / "schemas" / "fragment.schema.json").resolve()
    schema = json.loads(schema_file.read_text(encoding="utf-8"))
    data = yaml.safe_load(fragment.read_text(encoding="utf-8"))
    assert [e.message for e in Draft202012Validator(schema).iter_errors(data)] == []
    game_schema = json.loads((ROOT / "schemas" / "game.schema.json").read_text(encoding="utf-8"))
    assert "'game' is a required property" in [e.message for e in Draft202012Validator(game_schema).iter_errors(data)]
