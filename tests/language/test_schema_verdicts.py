"""A game that passed the schema is remembered, by a hash of its data, and not checked again.

The verdicts live in the private cache folder (rulelang/spec/cache.py): a file there that is not safe, or not
a list of verdicts, is ignored, and the game is checked as if nothing were remembered. A game that fails
is never remembered, and an edited game is a new hash, so it is checked.
"""
from __future__ import annotations

import grp
import os
import pwd
import shutil
from pathlib import Path

import pytest

import rulelang
from rulelang.errors import RulelangError
from rulelang.spec import cache, schema

from helpers.cache_attacks import SwapAfterCheck, private_folder

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A private cache folder of this test's own."""
    where = tmp_path / "cache"
    monkeypatch.setenv("RULELANG_CACHE_DIR", str(where))
    return where


@pytest.fixture
def checks(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The schemas the checker is asked for, one entry per document checked with jsonschema."""
    asked: list[str] = []
    real = schema._validator

    def counted(name: str):
        asked.append(name)
        return real(name)

    monkeypatch.setattr(schema, "_validator", counted)
    return asked


@pytest.fixture
def game(tmp_path: Path) -> Path:
    """A copy of Jack's Friends that a test may edit."""
    copy = tmp_path / "game"
    shutil.copytree(ROOT / "games" / "jacks_friends", copy)
    return copy


def game_file(game: Path) -> Path:
    return next(p for p in sorted(game.glob("*.yaml")) if "name:" in p.read_text(encoding="utf-8"))


def test_an_unchanged_game_is_checked_once(folder: Path, checks: list[str], game: Path) -> None:
    rulelang.load_game(game)
    rulelang.load_game(game)
    assert checks == ["game"]
    assert len(cache._verdicts("schema")) == 1


def test_an_edited_game_is_checked_again_and_its_mistake_reported(folder: Path, checks: list[str],
                                                                   game: Path) -> None:
    rulelang.load_game(game)
    path = game_file(game)
    path.write_text(path.read_text(encoding="utf-8") + "\nnot_a_key: 1\n", encoding="utf-8")
    with pytest.raises(RulelangError, match="unknown key 'not_a_key'"):
        rulelang.load_game(game)
    with pytest.raises(RulelangError, match="unknown key 'not_a_key'"):
        rulelang.load_game(game)       # a game that failed is not remembered: it is checked every time
    assert checks == ["game", "game", "game"]


def test_without_a_cache_folder_every_load_is_checked(monkeypatch: pytest.MonkeyPatch, checks: list[str],
                                                      game: Path) -> None:
    monkeypatch.setenv("RULELANG_CACHE_DIR", "off")
    rulelang.load_game(game)
    rulelang.load_game(game)
    assert checks == ["game", "game"]


@pytest.mark.parametrize("spoil", ["link", "open_to_others", "junk", "huge", "fifo"])
def test_a_verdict_file_that_is_not_safe_or_not_verdicts_is_ignored(folder: Path, checks: list[str],
                                                                     game: Path, tmp_path: Path,
                                                                     spoil: str) -> None:
    rulelang.load_game(game)
    verdicts = folder / "schema-verdicts"
    kept = verdicts.read_text(encoding="ascii")
    verdicts.unlink()
    if spoil == "link":
        elsewhere = tmp_path / "elsewhere"
        elsewhere.write_text(kept, encoding="ascii")
        verdicts.symlink_to(elsewhere)
    elif spoil == "open_to_others":
        verdicts.write_text(kept, encoding="ascii")
        verdicts.chmod(0o666)
    elif spoil == "junk":
        verdicts.write_bytes(b"\xff\x00" + kept.upper().encode("ascii"))
    elif spoil == "huge":
        verdicts.write_text(kept * (cache.VERDICTS_KEPT + 1), encoding="ascii")
    else:
        os.mkfifo(verdicts)
    rulelang.load_game(game)
    assert checks == ["game", "game"]


def test_verdicts_keep_the_newest_few(folder: Path) -> None:
    keys = [cache.digest(str(i)) for i in range(cache.VERDICTS_KEPT + 10)]
    for key in keys:
        cache.keep_verdict("schema", key)
    assert cache._verdicts("schema") == keys[-cache.VERDICTS_KEPT:]
    assert not cache.has_verdict("schema", keys[0]) and cache.has_verdict("schema", keys[-1])
    assert (folder / "schema-verdicts").stat().st_mode & 0o077 == 0
    assert [p.name for p in folder.iterdir()] == ["schema-verdicts"]     # nothing left half written


def test_a_verdict_is_for_one_schema_and_one_document() -> None:
    data = {"name": "x", "players": {"min": 2, "max": 4}}
    assert schema._fingerprint(data, "game") != schema._fingerprint(data, "mod")
    assert schema._fingerprint(data, "game") != schema._fingerprint({**data, "name": "y"}, "game")
    assert schema._fingerprint({"a": 1}, "game") != schema._fingerprint({"a": 1.0}, "game")
    assert schema._fingerprint({"a": 1}, "game") != schema._fingerprint({"a": True}, "game")
    assert schema._fingerprint({"a": {1, 2}}, "game") is None      # no JSON for it: never remembered


# ---------------------------------------------------------------------------
# A verdict is read only from the folder that was checked, under a parent no other user may write


def broken_game(game: Path) -> Path:
    """The game with a key the schema refuses."""
    path = game_file(game)
    path.write_text(path.read_text(encoding="utf-8") + "\nnot_a_key: 1\n", encoding="utf-8")
    return game


def fingerprint_of(game: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    """The verdict that would let ``game`` skip the schema check (an attacker can compute it too)."""
    seen: list[str] = []
    real = schema._fingerprint

    def recorded(data, schema_name):
        seen.append(real(data, schema_name))
        return seen[-1]

    with monkeypatch.context() as patch:
        patch.setattr(schema, "_fingerprint", recorded)
        patch.setenv("RULELANG_CACHE_DIR", "off")
        with pytest.raises(RulelangError):
            rulelang.load_game(game)
    return seen[0]


def plant_verdict(folder: Path, key: str) -> None:
    private_folder(folder)
    (folder / "schema-verdicts").write_text(key + "\n", encoding="ascii")
    (folder / "schema-verdicts").chmod(0o600)


def test_a_folder_swapped_right_after_its_check_is_not_what_is_read(folder: Path, game: Path, tmp_path: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    key = fingerprint_of(broken_game(game), monkeypatch)
    private_folder(folder)
    plant_verdict(tmp_path / "attacker", key)
    swap = SwapAfterCheck(folder, tmp_path / "attacker")
    monkeypatch.setattr(cache, "os", swap)
    with pytest.raises(RulelangError, match="unknown key 'not_a_key'"):
        rulelang.load_game(game)
    assert swap.swapped, "the attack took place"


def test_a_verdict_file_swapped_for_a_link_is_not_followed(folder: Path, game: Path, tmp_path: Path,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    key = fingerprint_of(broken_game(game), monkeypatch)
    plant_verdict(tmp_path / "elsewhere", key)
    private_folder(folder)
    (folder / "schema-verdicts").symlink_to(tmp_path / "elsewhere" / "schema-verdicts")
    with pytest.raises(RulelangError, match="unknown key 'not_a_key'"):
        rulelang.load_game(game)


@pytest.mark.parametrize("mode", [0o777, 0o757, 0o707])
def test_no_verdict_is_read_or_kept_under_a_parent_other_users_may_write(tmp_path: Path, game: Path,
                                                                       monkeypatch: pytest.MonkeyPatch,
                                                                       mode: int) -> None:
    key = fingerprint_of(broken_game(game), monkeypatch)
    shared = tmp_path / "shared"
    shared.mkdir()
    plant_verdict(shared / "rulelang", key)
    shared.chmod(mode)
    monkeypatch.setenv("RULELANG_CACHE_DIR", str(shared / "rulelang"))
    with pytest.raises(RulelangError, match="unknown key 'not_a_key'"):
        rulelang.load_game(game)
    cache.keep_verdict("schema", cache.digest("another"))
    assert (shared / "rulelang" / "schema-verdicts").read_text(encoding="ascii") == key + "\n"


def test_a_group_writable_parent_is_refused_unless_the_group_is_the_users_own(tmp_path: Path,
                                                                              monkeypatch: pytest.MonkeyPatch
                                                                              ) -> None:
    shared = tmp_path / "shared"
    shared.mkdir()
    shared.chmod(0o770)
    monkeypatch.setenv("RULELANG_CACHE_DIR", str(shared / "rulelang"))
    key = cache.digest("a game")
    me = pwd.getpwuid(os.geteuid())
    gid = shared.stat().st_gid
    private = gid == me.pw_gid
    monkeypatch.setattr(grp, "getgrgid", lambda g: grp.struct_group((me.pw_name, "x", g, [])))
    cache.keep_verdict("schema", key)
    assert cache.has_verdict("schema", key) == private      # the user's private group: as good as the user
    monkeypatch.setattr(grp, "getgrgid", lambda g: grp.struct_group((me.pw_name, "x", g, ["someone-else"])))
    assert not cache.has_verdict("schema", key)
    monkeypatch.setattr(grp, "getgrgid", lambda g: grp.struct_group(("staff", "x", g, [])))
    assert not cache.has_verdict("schema", key)


def test_a_sticky_shared_parent_like_tmp_is_fine(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    shared = tmp_path / "shared"
    shared.mkdir()
    shared.chmod(0o1777)
    monkeypatch.setenv("RULELANG_CACHE_DIR", str(shared / "rulelang"))
    key = cache.digest("a game")
    cache.keep_verdict("schema", key)
    assert cache.has_verdict("schema", key)
    assert (shared / "rulelang").stat().st_mode & 0o777 == 0o700


def test_a_folder_someone_else_made_first_is_not_used(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    shared = tmp_path / "shared"
    shared.mkdir()
    planted = private_folder(shared / "rulelang")
    monkeypatch.setenv("RULELANG_CACHE_DIR", str(planted))
    key = cache.digest("a game")
    cache.keep_verdict("schema", key)
    assert cache.has_verdict("schema", key)
    monkeypatch.setattr(cache.os, "geteuid", lambda: os.getuid() + 1)   # as another user sees that folder
    assert not cache.has_verdict("schema", key)
