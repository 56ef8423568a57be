"""Scenario files found and loaded, and the game each scenario runs against.

``scenario_files`` turns the paths given to `rulelang test` into scenario files (a game's folder stands
for its scenarios; links out of a folder are found, not read); ``load_scenarios`` reads and validates
one file into ``Scenario``s; ``game_for`` loads the game a scenario names, with its mods and params,
once per process; ``added_by_mods`` says how many cards the `--mod` mods add where a scenario counts.
Running scenarios and checking what they expect is ``scenario.py``'s job.
"""
from __future__ import annotations

import os
import stat
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from rulelang import load_game
from rulelang.engine.game import Game
from rulelang.engine.rules import Rules
from rulelang.errors import ScenarioError, Span, SpecError
from rulelang.model.params import ParamError
from rulelang.spec import files
from rulelang.spec.document import Document
from rulelang.spec.loader import load_document
from rulelang.spec.schema import validate_document

_GAMES: dict[tuple, Game] = {}
#: The main file of a game folder; `rulelang test` given one runs that game's scenarios.
GAME_FILE = "game.yaml"
#: Top-level keys only a game spec has (a scenario file may name a `game:` too).
GAME_KEYS = {"players", "turn", "phases", "zones", "cards", "counters", "locations", "end", "winner"}


@dataclass
class Scenario:
    name: str
    file: str
    data: dict
    doc: Document
    path: tuple
    mods: tuple[str, ...] = ()        # mods laid over its game (`rulelang test --mod`)
    default_game: Path | None = None  # the game of a scenario that names none (a mod's own scenarios)
    params: dict = field(default_factory=dict)   # param values from `rulelang test --param` (its own `params:` win)
    #: The real folders a `game:` must lie in: those named on the command line (``game_roots``).
    #: Empty for a caller of the library that loads scenarios itself: then `game:` may name any game.
    games: tuple[Path, ...] = ()


def scenario_files(paths: list[str]) -> list[Path]:
    """Every scenario file under the given files and folders, sorted per path."""
    found: list[Path] = []
    for raw in paths:
        found.extend(scenario_files_of(raw)[0])
    return found


def scenario_files_of(raw: str) -> tuple[list[Path], list[Path]]:
    """The scenario files a path stands for, and the links found in its folders that lead out of them.

    A game (its folder or its game.yaml) stands for its scenarios. A folder gives
    the .yaml files under its `scenarios` folders (or itself, if it is one); links
    to folders are not followed, links to files outside the folder are not read.
    A path that is a link loop or has a name too long says so, never a traceback.
    """
    path = Path(raw)
    try:
        info = files.look_at(path)
    except files.FileMissing:
        raise ScenarioError(f"no such file or folder: {raw}") from None
    except files.FileRefused as refused:
        raise ScenarioError(f"'{raw}' {refused.reason}", None, refused.hint) from None
    if stat.S_ISREG(info.st_mode) and path.name == GAME_FILE:
        return _folder_scenarios(path.parent)
    if stat.S_ISDIR(info.st_mode):
        return _folder_scenarios(path)
    return [path], []


def _folder_scenarios(folder: Path) -> tuple[list[Path], list[Path]]:
    top = folder.absolute()
    real_top = os.path.realpath(top)
    found, outside = [], []
    for root, _, names in os.walk(top):                   # does not follow links to folders: no loops
        for name in names:
            file = Path(root) / name
            if not name.endswith(".yaml") or "scenarios" not in file.relative_to(top.parent).parts[:-1]:
                continue
            real = os.path.realpath(file)
            if os.path.commonpath([real, real_top]) != real_top:
                outside.append(folder / file.relative_to(top))
            else:                                         # a FIFO or device too: the reader refuses it in words
                found.append(folder / file.relative_to(top))
    return sorted(found), sorted(outside)


def load_scenarios(file: Path) -> list[Scenario]:
    doc = load_document(file, includes=False)
    _require_scenario_keys(doc)
    validate_document(doc, "scenario")
    data = doc.data
    mods = own_mod(file)
    if "scenarios" in data:
        shared = {"game": data["game"]} if "game" in data else {}
        return [Scenario(s["scenario"], str(file), shared | s, doc, ("scenarios", i), mods)
                for i, s in enumerate(data["scenarios"])]
    return [Scenario(data["scenario"], str(file), data, doc, (), mods)]


def own_mod(file: Path) -> tuple[str, ...]:
    """The mod whose `scenarios/` folder holds this file (its scenarios run with it), as a 1-tuple; else ()."""
    folder = Path(os.path.realpath(file)).parent
    if folder.name == "scenarios" and (folder.parent / "mod.yaml").is_file():
        return (str(folder.parent),)
    return ()


def _require_scenario_keys(doc: Document) -> None:
    """A file with neither `scenario:` nor `scenarios:` is not a scenario file: say so, not what its keys lack."""
    data = doc.data
    if isinstance(data, dict) and ("scenario" in data or "scenarios" in data):
        return
    looks_like_a_game = isinstance(data, dict) and "game" in data and bool(GAME_KEYS & set(data))
    hint = ("it looks like a game spec: give `rulelang test` the game's folder to run its scenarios"
            if looks_like_a_game else
            "a scenario file starts with 'scenario: what it shows' (or lists several under 'scenarios:'); "
            "see docs/scenarios.md")
    raise ScenarioError("this is not a scenario file: it has no 'scenario:' or 'scenarios:' key",
                        doc.span(()), hint=hint)


def game_folder(scenario: Scenario) -> Path:
    """The scenario's game folder: `game:` relative to the file, else the game folder the file sits in.

    Only the file's own folder and the one above it are looked at (GAME/scenarios/FILE.yaml, or
    GAME/FILE.yaml): a search up to the root would pick up any game.yaml planted in a folder above.
    """
    base = Path(scenario.file).resolve().parent
    named = scenario.data.get("game")
    if named:
        return _named_game_folder(scenario, base, str(named))
    folder = next((p for p in (base, base.parent) if (p / GAME_FILE).is_file()), scenario.default_game)
    if folder is None:
        raise ScenarioError("no game for this scenario: give 'game:' or put it in a game's scenarios folder",
                            scenario.doc.span(scenario.path),
                            "a mod's scenarios run over its game: rulelang test GAME --mod MOD")
    return folder


def game_for(scenario: Scenario) -> Game:
    """The scenario's game with its mods and params, loaded once per process (per set of param values)."""
    params = {**scenario.params, **(scenario.data.get("params") or {})}
    key = (game_folder(scenario), scenario.mods, tuple(sorted(params.items())))
    if key not in _GAMES:
        try:
            _GAMES[key] = load_game(key[0], scenario.mods, params)
        except ParamError as refused:
            raise SpecError(str(refused), scenario.doc.span(scenario.path + ("params",))) from None
    return _GAMES[key]


def game_roots(paths: list[str], games: Sequence[str] = ()) -> tuple[Path, ...]:
    """The real folders the scenarios of `rulelang test PATH... --game GAME...` may name a game in.

    Each PATH's folder (a file's own folder: game.yaml stands for its game) and each GAME's: a scenario
    file from elsewhere cannot make `rulelang test` load, play and quote a game the user did not name.
    A game's `scenarios` folder stands for its game too, as it does for scenarios that name none.
    """
    roots = []
    for raw in [*paths, *games]:
        path = Path(os.path.realpath(raw))
        folder = path if path.is_dir() else path.parent
        roots.append(folder)
        if folder.name == "scenarios" and (folder.parent / GAME_FILE).is_file():
            roots.append(folder.parent)
    return tuple(dict.fromkeys(roots))


def _named_game_folder(scenario: Scenario, base: Path, named: str) -> Path:
    """The real folder a scenario's `game:` names; a missing path, a link loop or a bad name is a located error.

    With ``scenario.games``, a game outside those folders (by its name, or by a link on the way) is refused
    before anything there is looked at, in one message whether or not it exists.
    """
    span = _game_span(scenario)
    if scenario.games:
        _confine_game(base / named, scenario.games, span)
    try:
        files.look_at(base / named)
    except files.FileMissing:
        raise ScenarioError(f"cannot find the game '{named}'", span, "name the game's folder, relative to "
                            "this file") from None
    except files.FileRefused as refused:
        raise ScenarioError(f"the game {named!r} {refused.reason}", span, refused.hint) from None
    return Path(os.path.realpath(base / named))


def _game_span(scenario: Scenario) -> Span:
    """Where the scenario's `game:` is written: in its own entry, or at the top of a file of several."""
    entry = scenario.doc.data
    for key in scenario.path:
        entry = entry[key]
    own = isinstance(entry, dict) and "game" in entry
    return scenario.doc.span(scenario.path + ("game",) if own else ("game",))


def _confine_game(path: Path, roots: tuple[Path, ...], span: Span) -> None:
    try:
        files.confine(path, roots)
    except files.FileOutside:
        raise ScenarioError("this scenario's game is not one given on the command line: it lies outside the "
                            "folders given to `rulelang test`", span,
                            "name a game inside the folder you test, or give the game too: "
                            "rulelang test PATH --game GAME") from None
    except files.FileRefused:
        pass                            # inside: look_at says what is wrong in its own words


def added_by_mods(scenario: Scenario, game: Rules) -> dict[str, int]:
    """How many cards the mods given with `--mod` add to (or take from) each table zone, where the scenario leaves them.

    A scenario of a game counts the game's own cards; run under a mod that adds
    cards, a count of a whole deck grows by the cards the mod starts there, or
    in the zone `setup.others` sends them to when the scenario lays that deck out.
    A mod's own scenarios count the modded game: nothing is added for their mod.
    """
    own = own_mod(Path(scenario.file))
    if tuple(scenario.mods) == own:
        return {}
    key = (game_folder(scenario), own)
    if key not in _GAMES:
        _GAMES[key] = load_game(key[0], own)
    setup = scenario.data.get("setup") or {}
    others, arranged = setup.get("others"), setup.get("zones") or {}
    added: dict[str, int] = {}
    for zone in {z.name for z in game.zones if z.owner == "table"}:
        change = starting_cards(game, zone) - starting_cards(_GAMES[key], zone)
        if change:
            place = others if others is not None and zone in arranged else zone
            added[place] = added.get(place, 0) + change
    return added


def starting_cards(game: Rules, label: str) -> int:
    """How many cards the game's declarations start in a table zone (a mod that adds cards changes it)."""
    return sum(1 for t in game.card_type if game.zones[t.zone].name == label)
