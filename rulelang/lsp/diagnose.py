"""Which checks a file gets, and every error they find, with the editor's texts in place of the files.

A file is checked as what it is: a game's ``game.yaml`` (or a file it includes)
as the whole game, a ``mod.yaml`` laid over the game its scenarios name, a
scenario file against its game, a policy file against the game of the folder
above it. The checks are the CLI's (``load_document``, ``validate_document``,
the checker of ``compile_game``); a game that scenarios and policies are
checked against is compiled in full, and kept until one of its texts changes.
"""
from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rulelang.errors import ErrorList, RulelangError, SpecError
from rulelang.lsp.overlay import editor_texts
from rulelang.lsp.quick import check_compiles, kept_files
from rulelang.model.params import ParamError
from rulelang.pipeline import read_spec
from rulelang.spec import files
from rulelang.spec.document import Document
from rulelang.spec.loader import MAX_SPEC_BYTES

GAME_FILE = "game.yaml"
MOD_FILE = "mod.yaml"
#: How many folders up a fragment, scenario or policy file may sit below its game's (or mod's) main file.
FOLDERS_UP = 3
_TOP_KEY = re.compile(r"^(scenarios?|policy)\s*:", re.MULTILINE)


@dataclass
class Outcome:
    """What one check found: the errors, the game's merged document (for names), and every file it read."""

    errors: list[RulelangError] = field(default_factory=list)
    doc: Document | None = None
    files: set[str] = field(default_factory=set)


def flatten(error: RulelangError) -> list[RulelangError]:
    return list(error.errors) if isinstance(error, ErrorList) else [error]


def kind_of(path: Path, text: str) -> str:
    """'game', 'mod', 'scenario', 'policy' or 'fragment' (a file a game or mod includes)."""
    if path.name == GAME_FILE:
        return "game"
    if path.name == MOD_FILE:
        return "mod"
    top = _TOP_KEY.search(text)
    if top is not None:
        return "policy" if top.group(1) == "policy" else "scenario"
    return "fragment"


def owner_folder(path: Path, main: str = GAME_FILE) -> Path | None:
    """The nearest folder at or above ``path``'s own that holds ``main`` (a game's or a mod's)."""
    folder = path.parent
    for _ in range(FOLDERS_UP):
        if (folder / main).is_file():
            return folder
        folder = folder.parent
    return None


class Checker:
    """Checks files with the editor's texts; keeps the fully compiled games that scenarios and policies need."""

    def __init__(self) -> None:
        self.texts: dict[Path, str] = {}
        self._games: dict[tuple, tuple[Any, Document | None, list[RulelangError]]] = {}

    def set_text(self, path: Path, text: str | None) -> None:
        """The editor's text of an open file (None: closed, the disk's text counts again)."""
        if text is None:
            self.texts.pop(path, None)
        else:
            self.texts[path] = text
        self._games.clear()          # any game may include this file: compile them afresh when next asked

    def text_of(self, path: Path) -> str:
        """The editor's text of a file, else the disk's through the careful reader ('' when it cannot be read)."""
        text = self.texts.get(path)
        if text is not None:
            return text
        try:
            return files.read_regular(path, MAX_SPEC_BYTES).decode("utf-8", errors="replace")
        except files.FileRefused:
            return ""

    def check(self, path: Path) -> Outcome:
        text = self.text_of(path)
        with editor_texts(self.texts), kept_files():
            kind = kind_of(path, text)
            if kind == "scenario":
                return self._scenario(path)
            if kind == "policy":
                return self._policy(path)
            mod_folder = owner_folder(path, MOD_FILE)
            if kind == "mod" or (kind == "fragment" and owner_folder(path) is None and mod_folder is not None):
                return self._mod(path if kind == "mod" or mod_folder is None else mod_folder / MOD_FILE)
            folder = path.parent if kind == "game" else owner_folder(path)
            if folder is None:          # a YAML file of something else (a CI workflow, say): not ours to judge
                return Outcome()
            return check_game(folder)

    # -- games and mods ------------------------------------------------------------------------

    def _mod(self, mod_file: Path) -> Outcome:
        game = self._mod_game(mod_file.parent)
        if game is not None:
            return check_game(game, (mod_file.parent,))
        from rulelang.mods.layers import load_mod
        from rulelang.spec.loader import new_budget
        try:
            mod = load_mod(mod_file.parent, new_budget())
        except RulelangError as error:
            return Outcome(flatten(error))
        return Outcome([], mod.doc, set(mod.doc._sources))

    def _mod_game(self, mod_folder: Path) -> Path | None:
        """The game a mod is laid over: the first `game:` its own scenarios name."""
        from rulelang.testing.scenario_load import game_folder, load_scenarios
        for file in sorted((mod_folder / "scenarios").glob("*.yaml")):
            try:
                for scenario in load_scenarios(file):
                    if scenario.data.get("game"):
                        return game_folder(scenario)
            except RulelangError:
                continue
        return None

    def compiled(self, folder: Path, mods: tuple, params: Mapping[str, Any]) -> tuple[Any, Document | None,
                                                                                       list[RulelangError]]:
        """The game fully compiled (as `rulelang test` and `simulate` load it), its document and its errors."""
        from rulelang.compiler import compile_game
        from rulelang.spec.schema import validate_document
        key = (folder, tuple(mods), tuple(sorted(params.items())))
        if key not in self._games:
            game, doc, errors = None, None, []
            try:
                doc = read_spec(folder, mods=mods)
                validate_document(doc)
                game = compile_game(doc, params)
            except RulelangError as error:
                errors = flatten(error)
            self._games[key] = (game, doc, errors)
        return self._games[key]

    # -- scenarios and policies ----------------------------------------------------------------

    def _scenario(self, path: Path) -> Outcome:
        from rulelang.testing.scenario_check import Where, check_scenario
        from rulelang.testing.scenario_load import game_folder, load_scenarios
        try:
            scenarios = load_scenarios(path)
        except RulelangError as error:
            return Outcome(flatten(error))
        out = Outcome(files={str(path)})
        for scenario in scenarios:
            try:
                params = {**scenario.params, **(scenario.data.get("params") or {})}
                game, out.doc, broken = self.compiled(game_folder(scenario), scenario.mods, params)
                if game is None:
                    out.errors.append(_game_broken(broken, scenario.doc.span(scenario.path)))
                    continue
                check_scenario(game, scenario.data, Where(scenario.doc, scenario.path))
            except RulelangError as error:
                out.errors.extend(flatten(error))
            except (ParamError, TypeError) as refused:
                out.errors.append(SpecError(str(refused), scenario.doc.span(scenario.path + ("params",))))
        return out

    def _policy(self, path: Path) -> Outcome:
        from rulelang.agents import policy as policies
        policies._LOADED.pop(str(path), None)       # its cache is by path: the text may have changed
        try:
            policy = policies.load_policy(path)
        except RulelangError as error:
            return Outcome(flatten(error))
        finally:
            policies._LOADED.pop(str(path), None)
        folder = owner_folder(path)
        if folder is None:
            return Outcome([], None, {str(path)})
        game, doc, broken = self.compiled(folder, (), {})
        if game is None:
            return Outcome([_game_broken(broken, policy.doc.span(()))], doc, {str(path)})
        try:
            policies.compile_policy(policy, game)
        except RulelangError as error:
            return Outcome(flatten(error), doc, {str(path)})
        return Outcome([], doc, {str(path)})


def check_game(folder: Path, mods: tuple = ()) -> Outcome:
    """Every error of a game (with mods laid over it) that `rulelang validate --games 0` reports, and its document."""
    from rulelang.spec.schema import validate_document
    try:
        doc = read_spec(folder, mods=mods)
    except RulelangError as error:
        return Outcome(flatten(error))
    out = Outcome(doc=doc, files=set(doc._sources))
    try:
        validate_document(doc)
        out.errors = check_compiles(doc)            # its warnings: a game that loads may still have some
    except RulelangError as error:
        out.errors = flatten(error)
    except ParamError as refused:
        out.errors = [SpecError(str(refused), doc.span(("params",)))]
    return out


def _game_broken(errors: list[RulelangError], span) -> SpecError:
    """One error on the file that uses a game which does not load (the game's own errors are shown in its files)."""
    first = errors[0] if errors else None
    where = f"{first.span}: " if first is not None and first.span is not None else ""
    said = f"{where}{first.message}" if first is not None else "it does not load"
    more = f" (and {len(errors) - 1} more)" if len(errors) > 1 else ""
    return SpecError(f"the game does not load: {said}{more}", span, "open the game's files to see every error")
