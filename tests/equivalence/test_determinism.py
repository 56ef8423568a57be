"""Same spec + same seed = the same game, byte for byte, in any process.

Two `rulelang run ... --log` runs in separate processes with different
PYTHONHASHSEED values (so set and dict-of-str orders that depend on string
hashing would differ) must write byte-identical event logs.
"""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def run_logged(game: str, players: int, seed: int, hash_seed: str, log: Path) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONHASHSEED=hash_seed)
    return subprocess.run(
        [sys.executable, "-m", "rulelang.cli", "run", game, "--players", str(players), "--seed", str(seed),
         "--log", str(log), "--json", "--quiet"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)


def assert_same_log_in_two_processes(tmp_path: Path, game: str, players: int, seed: int) -> None:
    first, second = tmp_path / "first.jsonl", tmp_path / "second.jsonl"
    one = run_logged(game, players, seed, "1", first)
    two = run_logged(game, players, seed, "4242", second)
    assert one.returncode == 0, one.stderr
    assert two.returncode == 0, two.stderr
    assert first.read_bytes() == second.read_bytes()
    assert first.stat().st_size > 0
    assert one.stdout == two.stdout                      # the --json summary too


@pytest.mark.subprocess
@pytest.mark.parametrize("players, seed", [(2, 1),       # two processes each: the other counts in the slow tier
                                           pytest.param(4, 7, marks=pytest.mark.slow),
                                           pytest.param(6, 12345, marks=pytest.mark.slow)])
def test_jacks_friends_logs_are_byte_identical_across_processes(tmp_path: Path, players: int, seed: int) -> None:
    assert_same_log_in_two_processes(tmp_path, "games/jacks_friends", players, seed)


@pytest.mark.subprocess
def test_flapjacks_logs_are_byte_identical_across_processes(tmp_path: Path) -> None:
    assert_same_log_in_two_processes(tmp_path, "games/flapjacks", 4, 1)
