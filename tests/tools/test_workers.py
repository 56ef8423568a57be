"""How many processes a batch starts, and a Ctrl-C while they start (rulelang.lab.workers)."""
from __future__ import annotations

import multiprocessing.pool
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from rulelang.cli import main
from rulelang.lab import simulate, sweep, workers
from rulelang.testing.coverage import run_coverage

ROOT = Path(__file__).resolve().parents[2]
PIG = str(ROOT / "examples" / "pig")


class Started(Exception):
    """Raised by a recording pool once it knows how many processes it was asked for."""


def test_a_worker_count_is_never_more_than_the_cpus_or_the_work(monkeypatch):
    assert 1 <= workers.usable_cpus() <= (os.cpu_count() or 1)
    monkeypatch.setattr(workers, "usable_cpus", lambda: 8)
    assert workers.worker_count(40, 4) == 4
    assert workers.worker_count(40, 100) == 8
    assert workers.worker_count(3, 100) == 3
    assert workers.worker_count(5, 0) == 1


def recorded_pool(monkeypatch, module, name: str, keyword: str | None) -> list[int]:
    """Replace ``module.name`` by a pool that records the processes asked for and starts none (the command
    then stops at an internal error: only the count matters here)."""
    asked: list[int] = []

    def record(*args, **kwargs):
        asked.append(kwargs[keyword] if keyword else args[0])
        raise Started

    monkeypatch.setattr(module, name, record)
    monkeypatch.setattr(workers, "usable_cpus", lambda: 8)
    return asked


def test_sweep_starts_no_more_workers_than_games(monkeypatch, capsys):
    """40 workers for 4 games (2 settings of 2 games) started 40 processes."""
    asked = recorded_pool(monkeypatch, sweep, "ProcessPoolExecutor", "max_workers")
    main(["sweep", PIG, "--players", "2", "--games", "2", "--vary", "players.max=5,6", "--workers", "40"])
    assert asked == [4]


def test_simulate_starts_no_more_workers_than_cpus(monkeypatch, capsys):
    asked = recorded_pool(monkeypatch, simulate, "ProcessPoolExecutor", "max_workers")
    main(["simulate", PIG, "--players", "2", "--games", "50", "--workers", "40"])
    assert asked == [8]


def test_coverage_starts_no_more_workers_than_mutants(monkeypatch):
    asked = recorded_pool(monkeypatch, multiprocessing.pool, "Pool", None)
    with pytest.raises(Started):
        run_coverage(PIG, workers=40, sample=3)
    assert asked == [3]


#: `test --coverage --workers 2` whose workers, once started, wait for the Ctrl-C the test sends.
WAITING_WORKERS = """
import os, pathlib, signal, sys, time
signal.signal(signal.SIGINT, signal.default_int_handler)   # a background job inherits it ignored
from rulelang.testing import coverage
from rulelang.cli import main

started = coverage._start_worker

def start_and_wait(*args):
    started(*args)
    pathlib.Path(sys.argv[1], str(os.getpid())).touch()
    time.sleep(60)

coverage._start_worker = start_and_wait
sys.exit(main(["test", "--coverage", "--workers", "2", sys.argv[2]]))
"""


def test_a_ctrl_c_while_coverage_workers_start_ends_quietly(tmp_path):
    """Each worker printed its KeyboardInterrupt traceback: a terminal sends Ctrl-C to the whole group, and a
    worker busy starting (loading the game, playing its scenarios) took it before the parent stopped it."""
    ready = tmp_path / "ready"
    ready.mkdir()
    child = subprocess.Popen([sys.executable, "-c", WAITING_WORKERS, str(ready), PIG], cwd=ROOT,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True,
                             env={**os.environ, "PYTHONPATH": str(ROOT)})
    try:
        deadline = time.monotonic() + 120
        while len(list(ready.iterdir())) < 2 and child.poll() is None and time.monotonic() < deadline:
            time.sleep(0.05)
        started = [int(marker.name) for marker in ready.iterdir()]
        assert len(started) == 2, child.communicate(timeout=5)
        for worker in started:              # the workers first, as when the parent is slower to react
            os.kill(worker, signal.SIGINT)
        time.sleep(1)
        os.kill(child.pid, signal.SIGINT)
        _, err = child.communicate(timeout=60)
    finally:
        if child.poll() is None:
            os.killpg(child.pid, signal.SIGKILL)
    assert child.returncode == 130
    assert err == "rulelang: interrupted\n"
