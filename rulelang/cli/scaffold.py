"""`rulelang new game NAME` and `rulelang new mod NAME --game PATH`: files that validate from the start.

Each file's first line names its schema for editors
(``# yaml-language-server: $schema=...``). A fixed ``../../schemas/...``
only works for a file two folders below a checkout, so the path is computed
from where the file is created to the schemas rulelang itself reads: the
checkout's ``schemas/`` (or, for an installed rulelang, the copy under
``share/rulelang/schemas``). Nothing that exists is ever overwritten.
"""
from __future__ import annotations

import argparse
import math
import os
import re
from pathlib import Path

import yaml

from rulelang.errors import UsageError

GAME_TEMPLATE = """\
# yaml-language-server: $schema={schema}
#
# {name}: a starting point. Roll a die each turn; the first to 20 points wins.
# Check it with `rulelang validate {folder}`; docs/language.md has the rest.

game: {quoted}
players: {{min: 2, max: 4}}

counters:
  points: {{label: points}}

dice:
  d6:
    faces: 6

score: p.points

turn:
  order: seat
  first: first
  limit: 1000
  steps:
    - name: roll
      effect: |
        me rolls 1 d6 as r
        me.points += r.total
        check end

end:
  - name: 20 points
    when: any(p in players where p.points >= 20)
    winner: first(p in players where p.points >= 20)
"""

GAME_SCENARIO_TEMPLATE = """\
# yaml-language-server: $schema={schema}
# A first scenario of {name}: `rulelang test {folder}` runs every file in this folder (docs/scenarios.md).
scenario: Reaching 20 points wins at once
players: 2
setup:
  step: roll
  active: P1
  counters: {{P1: {{points: 18}}}}
  dice: [2]
expect:
  over: true
  winners: [P1]
  result: 20 points
"""

MOD_TEMPLATE = """\
# yaml-language-server: $schema={schema}
#
# {name}: a mod of {game}. Use it with `rulelang validate {game_path} --mod {folder}`;
# docs/mods.md lists what a mod can do (add, replace, remove, set, insert_steps, wrap).
# Its scenarios go in {folder}/scenarios/ and run with `rulelang test {game_path} --mod {folder}`.

mod: {quoted}
game: {game}
text: What this mod changes, for players.

# add:
#   cards:
#     - {{id: new_card, name: New Card, count: 1, zone: ZONE}}
# set:
#   cards.CARD.count: 2
"""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("kind", choices=["game", "mod"], help="what to start")
    parser.add_argument("name", metavar="NAME", help="the folder to create (its last part names the game or mod)")
    parser.add_argument("--game", metavar="PATH", help="for a mod: the game it changes")


def new_command(args: argparse.Namespace) -> int:
    folder = Path(args.name)
    if any(ord(ch) < 32 or ch in "\x7f\x85\u2028\u2029" for ch in args.name):
        raise UsageError("a name of a new game or mod cannot hold control characters or line breaks")
    if folder.exists() or folder.is_symlink():
        raise UsageError(f"'{args.name}' exists already; name a new folder")
    title = _title(folder.name)
    if args.kind == "game":
        if args.game:
            raise UsageError("--game goes with `new mod`")
        file = folder / "game.yaml"
        text = GAME_TEMPLATE.format(schema=schema_line_path(file, "game"), name=_in_comment(title),
                                    quoted=_quoted(title), folder=_in_comment(str(folder)))
    else:
        if not args.game:
            raise UsageError("a mod names its game: rulelang new mod NAME --game PATH")
        game = _game_name(args.game)
        file = folder / "mod.yaml"
        text = MOD_TEMPLATE.format(schema=schema_line_path(file, "mod"), name=_in_comment(title),
                                   quoted=_quoted(title), game=_quoted(game), game_path=_in_comment(args.game),
                                   folder=_in_comment(str(folder)))
    written = {file: text}
    if args.kind == "game":
        scenario = folder / "scenarios" / "first.yaml"
        written[scenario] = GAME_SCENARIO_TEMPLATE.format(schema=schema_line_path(scenario, "scenario"),
                                                          name=_in_comment(title), folder=_in_comment(str(folder)))
    try:
        (folder / "scenarios").mkdir(parents=True)
        for path, content in written.items():
            with open(path, "x", encoding="utf-8") as out:
                out.write(content)
            print(f"created {path}")
    except OSError as error:
        raise UsageError(f"cannot create {folder}: {error.strerror or error}") from None
    return 0


def schema_line_path(file: Path, schema: str) -> str:
    """The schema's path relative to the folder ``file`` will be created in (which may not exist yet);
    absolute when no relative path exists (another drive)."""
    from rulelang.spec.schema import SCHEMA_DIR

    target = (SCHEMA_DIR / f"{schema}.schema.json").resolve()
    start = Path(os.path.abspath(file.parent))
    existing = start
    while not existing.exists():
        existing = existing.parent
    start = existing.resolve() / start.relative_to(existing)
    try:
        return Path(os.path.relpath(target, start)).as_posix()
    except ValueError:
        return target.as_uri()


def _game_name(path: str) -> str:
    """The `game:` name of the game at ``path`` (it must load: a mod of a broken game cannot be checked)."""
    from rulelang import load_game
    from rulelang.errors import RulelangError

    try:
        return load_game(path).name
    except RulelangError as error:
        raise UsageError(f"--game {path}: {error.message}") from None


def _title(name: str) -> str:
    words = re.sub(r"[_\-]+", " ", name).strip()
    return words[:1].upper() + words[1:] if words else "New"


def _quoted(text: str) -> str:
    """A double-quoted YAML scalar of any text, on one line: PyYAML escapes quotes, backslashes, line breaks
    and control characters (a game's name comes from a file, and a line break in it wrote YAML of its own)."""
    return yaml.safe_dump(text, default_style='"', width=math.inf, allow_unicode=True).rstrip("\n")


def _in_comment(text: str) -> str:
    """Text for a comment line: as it is when every character prints, else quoted, so that it cannot end
    the comment and start a line of YAML."""
    return text if text.isprintable() else _quoted(text)
