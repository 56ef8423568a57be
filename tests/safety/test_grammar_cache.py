"""The analysed grammar is a pickle: it is read only from a folder that is this user's alone.

Each test runs the parser in a fresh process (the parser is built once per process) with its own
temporary folder and cache folder, and an audit hook that records every file the process opens.
"""
from __future__ import annotations

import json
import os
import pickle
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

PROBE = r"""
import json, sys
opened = []
sys.addaudithook(lambda event, args: opened.append(str(args[0])) if event == "open" and isinstance(args[0], str) else None)
from rulelang import parser
from rulelang.errors import Span
block = parser.parse_block("x = 1\n", lambda *a: Span("t.yaml", 1, 1))
assert block, "the parser must still work"
print(json.dumps(opened))
"""


class Planted:
    """A pickle that makes a folder when loaded: proof that a planted file ran."""

    def __init__(self, marker: Path):
        self.marker = marker

    def __reduce__(self):
        return (os.mkdir, (str(self.marker),))


def run_parser(tmp_path: Path, cache_dir: Path | str) -> list[str]:
    """Parse one rule text in a new process; return the paths it opened."""
    temp = tmp_path / "shared-tmp"
    temp.mkdir(exist_ok=True)
    env = {**os.environ, "TMPDIR": str(temp), "RULELANG_CACHE_DIR": str(cache_dir), "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-c", PROBE], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


def cache_files(folder: Path) -> list[Path]:
    return sorted(folder.glob("grammar-*"))


def plant(path: Path, marker: Path) -> None:
    path.write_bytes(b"0" * 64 + b"\n" + pickle.dumps(Planted(marker)))


@pytest.mark.subprocess
def test_nothing_is_read_from_the_shared_temporary_folder(tmp_path: Path) -> None:
    opened = run_parser(tmp_path, tmp_path / "cache") + run_parser(tmp_path, tmp_path / "cache")
    temp = str(tmp_path / "shared-tmp")
    assert not [p for p in opened if p.startswith(temp)]


@pytest.mark.subprocess
def test_the_cache_lives_in_a_private_folder_and_is_used_next_time(tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    run_parser(tmp_path, cache)
    assert (cache.stat().st_mode & 0o777) == 0o700
    [saved] = cache_files(cache)
    assert saved.stat().st_size > 1000
    assert str(saved) in run_parser(tmp_path, cache)


@pytest.mark.subprocess
@pytest.mark.parametrize("mode", [0o777, 0o770, 0o755])
def test_a_planted_pickle_in_a_folder_others_can_enter_is_never_loaded(tmp_path: Path, mode: int) -> None:
    cache = tmp_path / "cache"
    run_parser(tmp_path, cache)
    [saved] = cache_files(cache)
    marker = tmp_path / "ran"
    plant(saved, marker)
    cache.chmod(mode)
    opened = run_parser(tmp_path, cache)
    assert not marker.exists()
    assert str(saved) not in opened


@pytest.mark.subprocess
def test_a_planted_pickle_that_others_may_write_is_never_loaded(tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    run_parser(tmp_path, cache)
    [saved] = cache_files(cache)
    marker = tmp_path / "ran"
    plant(saved, marker)
    saved.chmod(0o666)
    run_parser(tmp_path, cache)
    assert not marker.exists()
    assert saved.read_bytes().startswith(b"0" * 64), "an untrusted file is neither read nor overwritten"


@pytest.mark.subprocess
def test_a_cache_folder_that_is_a_link_is_not_used(tmp_path: Path) -> None:
    real = tmp_path / "real"
    run_parser(tmp_path, real)
    [saved] = cache_files(real)
    marker = tmp_path / "ran"
    plant(saved, marker)
    link = tmp_path / "link"
    link.symlink_to(real)
    opened = run_parser(tmp_path, link)
    assert not marker.exists()
    assert not [p for p in opened if p.startswith(str(link)) or p.startswith(str(real))]


@pytest.mark.subprocess
def test_a_cache_file_that_is_a_link_is_not_followed(tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    run_parser(tmp_path, cache)
    [saved] = cache_files(cache)
    elsewhere = tmp_path / "elsewhere.pickle"
    marker = tmp_path / "ran"
    plant(elsewhere, marker)
    saved.unlink()
    saved.symlink_to(elsewhere)
    run_parser(tmp_path, cache)
    assert not marker.exists()


@pytest.mark.subprocess
def test_caching_can_be_turned_off(tmp_path: Path) -> None:
    opened = run_parser(tmp_path, "off")
    assert not [p for p in opened if "grammar-" in p]
