"""The parser never comes from a pickle; tables kept between runs are JSON in a folder that is this user's alone.

A fresh process builds its parser from the shipped tables (rulelang/lang/grammar_tables.json) and touches no
cache at all. Only when those do not fit (another Lark, an edited grammar) are tables analysed and kept in
the private cache folder, as JSON, and read back only through a handle on a folder that was checked
(rulelang/spec/cache.py): never from a folder open to others, under a parent others may write, through a
link, or from a folder swapped in after its check.
"""
from __future__ import annotations

import functools
import json
import os
import pickle
import subprocess
import sys
from pathlib import Path

import lark
import pytest
from lark import Lark

from rulelang.errors import Span
from rulelang.lang import grammar_tables, parser
from rulelang.spec import cache

from helpers.cache_attacks import SwapAfterCheck, private_folder

ROOT = Path(__file__).resolve().parents[2]

PROBE = r"""
import json, sys
from pathlib import Path
events = {"open": [], "pickle": []}
def audit(event, args):
    if event == "open" and isinstance(args[0], str):
        events["open"].append(args[0])
    elif event.startswith("pickle."):
        events["pickle"].append(event)
sys.addaudithook(audit)
from rulelang.lang import grammar_tables, parser
from rulelang.errors import Span
if sys.argv[1] == "without-shipped-tables":
    grammar_tables.SHIPPED = Path(sys.argv[2]) / "no-such-file.json"
block = parser.parse_block("x = 1\n", lambda *a: Span("t.yaml", 1, 1))
assert block, "the parser must still work"
print(json.dumps(events))
"""


class Planted:
    """A pickle that makes a folder when loaded: proof that a planted file ran."""

    def __init__(self, marker: Path):
        self.marker = marker

    def __reduce__(self):
        return (os.mkdir, (str(self.marker),))


def run_parser(tmp_path: Path, cache_dir: Path | str, shipped: bool = True) -> dict[str, list[str]]:
    """Parse one rule text in a new process; return the paths it opened and the pickle events it saw."""
    temp = tmp_path / "shared-tmp"
    temp.mkdir(exist_ok=True)
    env = {**os.environ, "TMPDIR": str(temp), "RULELANG_CACHE_DIR": str(cache_dir), "PYTHONPATH": str(ROOT)}
    argv = ["with-shipped-tables"] if shipped else ["without-shipped-tables", str(tmp_path)]
    done = subprocess.run([sys.executable, "-c", PROBE, *argv], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_a_fresh_process_parses_from_the_shipped_tables_and_touches_no_cache(tmp_path: Path) -> None:
    events = run_parser(tmp_path, tmp_path / "cache")
    assert str(grammar_tables.SHIPPED) in events["open"]
    assert not [p for p in events["open"] if p.startswith(str(tmp_path))]
    assert not (tmp_path / "cache").exists()
    assert not events["pickle"]


def test_planted_pickles_are_never_loaded_even_when_the_tables_must_be_made(tmp_path: Path) -> None:
    cache_dir = private_folder(tmp_path / "cache")
    marker = tmp_path / "ran"
    old_name = "grammar-" + cache.digest(grammar(), lark.__version__, sys.version)[:32]
    for name in (old_name, cached_name()):      # Lark's cache layout (a hash line, then pickles), both names
        (cache_dir / name).write_bytes(b"0" * 64 + b"\n" + pickle.dumps(Planted(marker)))
    events = run_parser(tmp_path, cache_dir, shipped=False)
    events_again = run_parser(tmp_path, cache_dir, shipped=False)
    assert not marker.exists()
    assert not events["pickle"] and not events_again["pickle"]
    assert not [p for p in events["open"] + events_again["open"] if p.startswith(str(tmp_path / "shared-tmp"))]


# ---------------------------------------------------------------------------
# When the shipped tables do not fit: JSON in the private folder (in this process, with them turned off)


@functools.lru_cache(maxsize=1)
def grammar() -> str:
    return parser.GRAMMAR.read_text(encoding="utf-8")


#: A tables file for today's grammar and Lark: what an attacker would plant (it reads as a good parser).
VALID_TABLES = grammar_tables.SHIPPED.read_bytes()


@pytest.fixture
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The cache folder of this test, with the shipped tables out of the way."""
    where = tmp_path / "home-cache" / "rulelang"
    (tmp_path / "home-cache").mkdir(mode=0o700)
    monkeypatch.setenv("RULELANG_CACHE_DIR", str(where))
    monkeypatch.setattr(grammar_tables, "SHIPPED", tmp_path / "no-such-file.json")
    return where


def load() -> Lark | None:
    return grammar_tables.load(grammar(), parser._BlockIndenter())


def cached_name() -> str:
    return grammar_tables._cache_name(grammar())


def plant_tables(folder: Path) -> Path:
    private_folder(folder)
    planted = folder / cached_name()
    planted.write_bytes(VALID_TABLES)
    planted.chmod(0o600)
    return planted


def test_tables_made_afresh_are_kept_as_json_in_a_private_folder_and_used_next_time(folder: Path) -> None:
    assert load() is None
    grammar_tables.keep(parser._lark(), grammar())
    assert folder.stat().st_mode & 0o777 == 0o700
    [kept] = folder.iterdir()
    assert kept.name == cached_name() and kept.stat().st_mode & 0o777 == 0o600
    head, body = kept.read_bytes().split(b"\n", 1)
    assert head.decode() == grammar_tables.stamp(grammar()) and isinstance(json.loads(body), dict)
    assert isinstance(load(), Lark)


def test_the_whole_parser_falls_back_to_the_grammar_and_keeps_its_tables(folder: Path) -> None:
    parser._lark.cache_clear()
    try:
        assert parser.parse_expression("1 + 2", lambda *a: Span("t.yaml", 1, 1)) is not None
    finally:
        parser._lark.cache_clear()
        parser._lark()      # the process's parser again, from the tables just kept: the next test builds none
    assert [p.name for p in folder.iterdir()] == [cached_name()]


@pytest.mark.parametrize("mode, read", [(0o700, True), (0o777, False), (0o770, False), (0o755, False),
                                        (0o701, False)])
def test_tables_are_read_only_from_a_folder_nobody_else_can_enter(folder: Path, mode: int, read: bool) -> None:
    plant_tables(folder)
    folder.chmod(mode)
    assert isinstance(load(), Lark) == read


def test_tables_others_may_write_are_neither_read_nor_replaced(folder: Path) -> None:
    planted = plant_tables(folder)
    planted.write_bytes(b"mine\n")
    planted.chmod(0o666)
    assert load() is None
    grammar_tables.keep(parser._lark(), grammar())
    assert planted.read_bytes() == b"mine\n"


def test_a_cache_folder_that_is_a_link_is_not_used(folder: Path, tmp_path: Path) -> None:
    plant_tables(tmp_path / "real")
    folder.symlink_to(tmp_path / "real")
    assert load() is None
    grammar_tables.keep(parser._lark(), grammar())
    assert [p.name for p in (tmp_path / "real").iterdir()] == [cached_name()]


def test_a_tables_file_that_is_a_link_is_not_followed(folder: Path, tmp_path: Path) -> None:
    elsewhere = plant_tables(tmp_path / "elsewhere")
    private_folder(folder)
    (folder / cached_name()).symlink_to(elsewhere)
    assert load() is None


@pytest.mark.parametrize("mode, read", [(0o700, True), (0o755, True), (0o1777, True), (0o777, False),
                                        (0o757, False)])
def test_tables_are_not_read_under_a_parent_others_may_write(folder: Path, mode: int, read: bool) -> None:
    plant_tables(folder)
    folder.parent.chmod(mode)
    assert isinstance(load(), Lark) == read


def test_a_folder_swapped_right_after_its_check_is_not_what_is_read(folder: Path, tmp_path: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    private_folder(folder)
    plant_tables(tmp_path / "home-cache" / "planted")
    swap = SwapAfterCheck(folder, tmp_path / "home-cache" / "planted")
    monkeypatch.setattr(cache, "os", swap)
    assert load() is None
    assert swap.swapped, "the attack took place"


def test_caching_can_be_turned_off(folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    plant_tables(folder)
    monkeypatch.setenv("RULELANG_CACHE_DIR", "off")
    assert load() is None
    grammar_tables.keep(parser._lark(), grammar())
    assert [p.name for p in folder.iterdir()] == [cached_name()]
