"""`simulate --ray`: a clean message without Ray; with Ray, the very games local workers play."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

import rulelang
from rulelang.cli import main
from rulelang.lab.simulate import Batch, run_batch

ROOT = Path(__file__).resolve().parents[2]
JF = str(ROOT / "games" / "jacks_friends")


def test_without_ray_the_flag_is_a_one_line_usage_error(capsys, monkeypatch):
    monkeypatch.setitem(sys.modules, "ray", None)          # import ray now fails, installed or not
    code = main(["simulate", JF, "--players", "4", "--games", "5", "--ray"])
    out, err = capsys.readouterr()
    assert code == 2 and out == ""
    assert err.strip() == ("rulelang: error: --ray needs Ray, which is not installed: "
                           "pip install 'rulelang[ray]' (or 'ray[default]>=2.9')")


@pytest.mark.slow
@pytest.mark.subprocess
def test_a_local_ray_plays_the_same_games_as_local_workers():
    pytest.importorskip("ray")
    from rulelang.lab.ray_runner import run_batch_ray
    from rulelang.loader import load_document

    batch = Batch(JF, 4, 60, 9, ("random",) * 4)
    local = run_batch(rulelang.load_game(JF), batch, workers=2)
    on_ray = run_batch_ray(load_document(JF), batch, None, chunk=7)
    assert on_ray == local
    assert [r.index for r in on_ray] == list(range(60))
