"""`rulelang test`: find the scenario files of the paths given, run them (over their games and any mods), report.

Each scenario prints PASS, FAIL or ERROR; the exit code is 1 when any did not
pass. A mod's own scenarios (its folder's `scenarios/`) run with that mod laid
over their game, and with the mods given by `--mod` (docs/mods.md).
"""
from __future__ import annotations

import os
import sys
from dataclasses import dataclass
from pathlib import Path

from rulelang.errors import RulelangError
from rulelang.printable import printable
from rulelang.testing import scenario as scenarios_module  # through the module, so a test may stand in for a part of it
from rulelang.testing.scenario import GAME_FILE, scenario_files_of

# --- the report -------------------------------------------------------------------------------

def run_scenario_files(paths: list[str], out=None, err=None, mods: list[str] = (), params: dict | None = None,
                       games: list[str] = (), show: bool = False, events: bool = False) -> int:
    """Run scenario files, print a pass/fail report, and return the exit code.

    A path with no scenario file under it is an error (exit 1), not "0 passed".
    With ``mods``, every scenario runs over its game with the mods laid over it,
    and the scenarios of each mod given as a folder run too, over the first game named. ``params`` (from
    `--param`) set the game's params in every scenario, under a scenario's own `params:`.
    A scenario's `game:` must lie inside a folder of ``paths`` or be one of ``games`` (`--game`), the
    first of which is also the game of scenarios that name none (``scenario_load.game_roots``).
    ``show`` prints each scenario's play-by-play under its line, ``events`` its raw events (`--show`, `--events`).
    """
    out = out or sys.stdout
    err = err or sys.stderr
    files: list[Path] = []
    empty = False
    refused: list[Path] = []
    mod_folders = [m for m in mods if _is_mod_folder(m)]
    for raw in list(paths) + mod_folders:
        found, outside = scenario_files_of(raw)
        if not found and not outside and raw not in mod_folders:   # a mod need not have scenarios
            empty = True
            print(printable(f"rulelang: error: no scenario file in {raw} (scenario files are the .yaml files "
                            "under a folder named 'scenarios', or a .yaml file given by name)"), file=err)
        files.extend(found)
        refused.extend(outside)
    for link in refused:
        print(printable(f"ERROR {link}"), file=out)
        print("      error: a link to a file outside the folder given: not read", file=out)
    if not files and not refused:
        return 1
    passed, failed = run_files(files, out, tuple(mods), _first_game([*games, *paths]), params,
                               scenarios_module.game_roots(paths, games), Telling(show, events))
    print(f"{passed} passed, {failed + len(refused)} failed", file=out)
    return 1 if failed or refused or empty else 0


def _is_mod_folder(raw: str) -> bool:
    return Path(raw).is_dir() and (Path(raw) / "mod.yaml").is_file()


def _with_given(given: tuple[str, ...], own: tuple[str, ...]) -> tuple[str, ...]:
    """The mods given by `--mod`, then the scenario file's own mod unless it is one of them."""
    real = {os.path.realpath(Path(m).parent if Path(m).name == "mod.yaml" else m) for m in given}
    return given + tuple(m for m in own if os.path.realpath(m) not in real)


def _first_game(paths: list[str]) -> Path | None:
    """The first path that is a game (its folder or its game.yaml), for scenarios that name no game."""
    for raw in paths:
        path = Path(raw)
        folder = path.parent if path.name == GAME_FILE else path
        if (folder / GAME_FILE).is_file():
            return Path(os.path.realpath(folder))
    return None


@dataclass(frozen=True)
class Telling:
    """What `rulelang test` tells of each scenario besides its outcome: its play-by-play, its raw events."""

    show: bool = False
    events: bool = False


def run_files(files: list[Path], out, mods: tuple[str, ...] = (), default_game: Path | None = None,
              params: dict | None = None, games: tuple[Path, ...] = (), telling: Telling = Telling()
              ) -> tuple[int, int]:
    """Run every scenario of these files, printing PASS, FAIL or ERROR for each; count them."""
    passed = failed = 0
    for file in files:
        try:
            scenarios = scenarios_module.load_scenarios(file)
            for scenario in scenarios:
                scenario.mods, scenario.default_game = _with_given(mods, scenario.mods), default_game
                scenario.params = dict(params or {})
                scenario.games = games
        except RulelangError as error:
            print(printable(f"ERROR {file}") + "\n" + _indent(error.format()), file=out)
            failed += 1
            continue
        for scenario in scenarios:
            result = scenarios_module.run_scenario(scenario)
            if result.passed:
                passed += 1
                print(printable(f"PASS  {file}: {scenario.name}"), file=out)
                tell(result, telling, out)
                continue
            failed += 1
            print(printable(f"FAIL  {file}: {scenario.name}"), file=out)
            for line in result.failures:
                print(printable(f"      {line}"), file=out)
            if result.error:
                print(_indent(result.error), file=out)
            tell(result, telling, out)
    return passed, failed


def tell(result: scenarios_module.Result, telling: Telling, out) -> None:
    """The scenario's events under its outcome line: in words as `rulelang run` tells a game (``show``), and
    as the JSON lines `run --log` writes (``events``), both moved right."""
    if telling.show and result.state is not None:
        from rulelang.logs.narrate import narrate
        told = "\n".join(line for line in (narrate(result.state.game, e) for e in result.events) if line)
        for line in told.strip("\n").splitlines():      # narrate's lines are printable; a heading's blank stays
            print("      " + line if line else "", file=out)
    if telling.events:
        from rulelang.logs.logfile import event_line
        for event in result.events:
            print(printable("      " + event_line(event).decode("utf-8").rstrip("\n")), file=out)


def _indent(text: str) -> str:
    """An error's report (``RulelangError.format``: printable already, line by line) moved right."""
    return "\n".join("      " + line for line in text.splitlines())
