"""Rulings live inside the project: declared by each game, explained in docs/rulings.md, checked by validate.

- every ruling a game declares has a section in docs/rulings.md naming the same
  rulebook section, and every ruling section there is declared by a game;
- `validate` reports a `rule:` name the game does not declare, at its place, and
  finds every `rule:` of a spec (counted here from the YAML text, independently);
- no file of the project points at a path outside the repository.
"""
from __future__ import annotations

import re
import string
import tempfile
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

import rulelang
from rulelang.errors import ErrorList, SpecError
from rulelang.spec.loader import load_document
from rulelang.spec.rulings import rule_references
from rulelang.spec.schema import load_schema

from helpers.examples import examples

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "rulings.md"
GAMES = sorted(p.parent for p in [*ROOT.glob("games/*/game.yaml"), *ROOT.glob("examples/*/game.yaml")])
HEADING = re.compile(r"^### (?P<id>[A-Za-z][A-Za-z0-9]*(?:-[A-Za-z0-9]+)+): .+$")
RULEBOOK_LINE = re.compile(r"^Rulebook: (?P<section>.+)$")


def documented_rulings() -> dict[str, str]:
    """Ruling id -> the rulebook section its docs/rulings.md section names (the first line after the heading)."""
    found: dict[str, str] = {}
    lines = DOC.read_text(encoding="utf-8").splitlines()
    for number, line in enumerate(lines):
        heading = HEADING.match(line)
        if heading is None:
            continue
        following = next((text for text in lines[number + 1:] if text.strip()), "")
        section = RULEBOOK_LINE.match(following)
        assert section, f"docs/rulings.md: '{line}' is not followed by a 'Rulebook: <section>' line"
        assert heading["id"] not in found, f"docs/rulings.md explains {heading['id']} twice"
        found[heading["id"]] = section["section"]
    return found


def declared_rulings() -> dict[str, tuple[str, str]]:
    """Ruling id -> (game folder, declared rulebook section), over every game of the repository."""
    found: dict[str, tuple[str, str]] = {}
    for folder in GAMES:
        for ruling, decl in (load_document(folder).data.get("rulings") or {}).items():
            assert ruling not in found, f"{ruling} is declared by {found[ruling][0]} and {folder.name}"
            found[ruling] = (folder.name, decl["section"])
    return found


# --- docs/rulings.md and the declarations --------------------------------------------------


def test_both_games_declare_their_rulings():
    declared = declared_rulings()
    assert {f"FS-{k}" for k in range(1, 16)} <= set(declared)
    assert {f"JF-{k}" for k in range(1, 11)} <= set(declared)


def test_every_declared_ruling_is_explained_with_the_same_rulebook_section():
    documented = documented_rulings()
    for ruling, (game, section) in declared_rulings().items():
        assert ruling in documented, f"{game} declares {ruling}, but docs/rulings.md has no '### {ruling}: ...'"
        assert documented[ruling] == section, (
            f"{ruling}: docs/rulings.md names the rulebook section {documented[ruling]!r}, {game} declares {section!r}")


def test_every_explained_ruling_is_declared_by_a_game():
    stray = set(documented_rulings()) - set(declared_rulings())
    assert not stray, f"docs/rulings.md explains rulings no game declares: {sorted(stray)}"


def test_every_ruling_a_spec_names_is_declared():
    """The repository's own games pass the check (validate would refuse them otherwise)."""
    for folder in GAMES:
        rulelang.load_game(folder)


RULING_ID = re.compile(r"^[A-Za-z]+-[0-9]+$")     # FS-7; a rulebook section ("step 1", "Setup") never looks so


def test_every_ruling_a_scenario_names_is_declared_by_its_game():
    """Scenario `rule:` lists mix rulebook sections and rulings; the rulings among them must exist."""
    for folder in GAMES:
        declared = set(load_document(folder).data.get("rulings") or {})
        for file in sorted(folder.glob("scenarios/**/*.yaml")):
            data = load_document(file, includes=False).data
            for entry in [data, *(data.get("scenarios") or [])]:
                named = entry.get("rule") or []
                for name in [named] if isinstance(named, str) else named:
                    if RULING_ID.match(name):
                        assert name in declared, f"{file}: '{entry.get('scenario')}' names {name}, not declared"


# --- the check in validate ------------------------------------------------------------------


RULE_KEY = re.compile(r"(?:^|[\s{,])rule:")


def test_the_walk_finds_every_rule_key_of_the_specs():
    """Every `rule:` line of the games' YAML files is found by the schema-driven walk, and nothing else."""
    schema = load_schema("game")
    for folder in GAMES:
        doc = load_document(folder)
        found = {(Path(doc.span(path).file).name, doc.span(path).line) for path, _ in rule_references(schema, doc.data)}
        written = set()
        for file in folder.glob("*.yaml"):
            for number, line in enumerate(file.read_text(encoding="utf-8").splitlines(), 1):
                if RULE_KEY.search(line.split("#", 1)[0]):      # a block key or a key of a flow mapping
                    written.add((file.name, number))
        assert found == written, f"{folder.name}: the walk found {sorted(found - written)}, missed {sorted(written - found)}"


def _game(folder: Path, rulings: str, rule: str) -> Path:
    (folder / "game.yaml").write_text(
        "game: Tiny\n"
        "players: {min: 2, max: 2}\n"
        f"{rulings}"
        "turn:\n"
        "  order: seat\n"
        "  steps:\n"
        "    - name: only\n"
        f"      rule: {rule}\n"
        "      effect: pass\n", encoding="utf-8")
    return folder


def _errors(folder: Path) -> list[SpecError]:
    try:
        rulelang.load_game(folder)
    except ErrorList as error:
        return list(error.errors)
    except SpecError as error:
        return [error]
    return []


def test_an_unknown_ruling_is_located_at_its_name_with_the_closest_declared(tmp_path):
    folder = _game(tmp_path, "rulings:\n  TN-1: {text: one, section: Setup}\n  TN-2: {text: two, section: Turn}\n",
                   "[TN-1, TN-3]")
    [error] = _errors(folder)
    assert error.message == "unknown ruling 'TN-3'"
    assert (Path(error.span.file).name, error.span.line, error.span.col) == ("game.yaml", 10, 20)
    assert error.hint in (f"did you mean '{close}'? (a new ruling is declared under 'rulings:')"
                          for close in ("TN-1", "TN-2"))


def test_a_ruling_in_a_game_without_rulings_asks_for_a_declaration(tmp_path):
    [error] = _errors(_game(tmp_path, "", "TN-1"))
    assert error.message == "unknown ruling 'TN-1'"
    assert "declare it under 'rulings:'" in (error.hint or "")


def test_the_check_reads_only_the_games_own_declaration(tmp_path):
    """A game beside a docs/rulings.md that explains TN-1 still needs to declare TN-1 itself."""
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "rulings.md").write_text("### TN-1: explained\n\nRulebook: Setup\n", encoding="utf-8")
    game = tmp_path / "tiny"
    game.mkdir()
    [error] = _errors(_game(game, "", "TN-1"))
    assert error.message == "unknown ruling 'TN-1'"


IDS = st.text(string.ascii_uppercase, min_size=1, max_size=3).flatmap(
    lambda prefix: st.integers(1, 30).map(lambda k: f"{prefix}-{k}"))


@examples(25)
@given(declared=st.lists(IDS, min_size=0, max_size=4, unique=True), named=IDS)
def test_a_named_ruling_passes_exactly_when_it_is_declared(declared, named):
    rulings = "".join(f"  {r}: {{text: t, section: s}}\n" for r in declared)
    with tempfile.TemporaryDirectory() as temp:
        errors = _errors(_game(Path(temp), f"rulings:\n{rulings}" if declared else "", named))
    if named in declared:
        assert errors == []
    else:
        assert [e.message for e in errors] == [f"unknown ruling '{named}'"]


# --- paths -----------------------------------------------------------------------------------

#: Files a person cloning the project reads: nothing in them may point outside the repository.
PROJECT_FILES = [*ROOT.glob("games/**/*"), *ROOT.glob("examples/**/*"), *ROOT.glob("docs/**/*"),
                 *ROOT.glob("schemas/*"), *ROOT.glob("tests/**/*.py"), *ROOT.glob("tests/broken/**/*"),
                 ROOT / "README.md", *ROOT.glob("**/NOTES.md")]
ABSOLUTE = re.compile(r"(?<![\w.:/$])/(?:work|home|tmp|Users|mnt|srv|opt|root)/")
RELATIVE = re.compile(r"(?:\.\./)+[\w./-]*")


def _text_files() -> list[Path]:
    return sorted({p for p in PROJECT_FILES if p.is_file() and p.suffix in (".md", ".yaml", ".json", ".py", ".txt")})


def offences(file: Path) -> list[str]:
    """What ``file`` says that points outside the repository (an absolute path, another project's rulings
    file, a relative path of a spec that leads out): one line each, empty when the file is clean."""
    text = file.read_text(encoding="utf-8", errors="replace")     # a broken-spec case may not be UTF-8
    found = [f"{file}: names an absolute path: {m.group()}" for m in ABSOLUTE.finditer(text)]
    if "RULINGS" + ".md" in text:
        found.append(f"{file}: names a rulings file outside the project (docs/rulings.md is ours)")
    if file.suffix != ".yaml" or "broken" in file.parts:
        return found                    # docs and tests show paths relative to other places; broken specs may lie
    for match in RELATIVE.finditer(text):
        if not (file.parent / match.group()).resolve().is_relative_to(ROOT):
            found.append(f"{file}: '{match.group()}' leads outside the repository")
    return found


def test_no_file_points_outside_the_repository():
    """One pass over every project file, naming every offender (one case per file cost more than the check)."""
    files = _text_files()
    assert len(files) > 400, "the project's files were not found"
    assert [line for file in files for line in offences(file)] == []


def test_the_path_check_names_each_kind_of_offence(tmp_path: Path):
    """The check itself finds what it is for: an absolute path, a rulings file elsewhere, a way out."""
    spec = tmp_path / "game.yaml"
    spec.write_text("include: ../../../elsewhere.yaml\nnote: /" + "home/someone/x\nsee: RULINGS" + ".md\n")
    found = offences(spec)
    assert len(found) == 3 and "absolute path" in found[0] and "rulings file" in found[1] and "leads outside" in found[2]
