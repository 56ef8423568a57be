"""`rulelang serve`'s jobs: simulate and sweep in a worker thread, one at a time, with progress, a cancel,
and the CLI's own --json summaries as results.
"""
from __future__ import annotations

import time

import pytest

pytest.importorskip("starlette", reason="the web app's extra (pip install 'rulelang[serve]') is not installed")
pytest.importorskip("httpx", reason="Starlette's TestClient needs httpx (the test extra)")

from rulelang.serve.jobs import MAX_GAMES  # noqa: E402

from helpers.serve_api import GAMES, Api  # noqa: E402


def wait_for(api: Api, jid: str, seconds: float = 120) -> dict:
    deadline = time.monotonic() + seconds
    while True:
        job = api.ok(api.get(f"api/jobs/{jid}"))
        if job["state"] != "running" or time.monotonic() > deadline:
            return job
        time.sleep(0.05)


@pytest.mark.slow
def test_a_simulate_job_of_200_games_gives_the_cli_summary():
    api = Api(GAMES / "jacks_friends")
    jid = api.ok(api.post("api/simulate", {"players": 3, "games": 200, "agents": ["random"], "seed": 5}))["job"]
    job = wait_for(api, jid)
    assert job["state"] == "done", job
    assert job["done"] == job["total"] == 200
    summary = job["result"]
    assert summary["completed"] == 200
    assert {"giant", "townsfolk"} <= set(summary["win_rate"])
    rate = next(iter(summary["win_rate"].values()))
    assert 0 <= rate["low"] <= rate["rate"] <= rate["high"] <= 1
    assert summary["provenance"]["games"] == 200 and summary["provenance"]["seed"] == 5
    assert "end_conditions" in summary and "turns" in summary


def test_a_long_job_is_cancelled_and_only_one_runs_at_a_time():
    api = Api(GAMES / "jacks_friends")
    jid = api.ok(api.post("api/simulate", {"players": 3, "games": MAX_GAMES, "agents": ["random"]}))["job"]
    assert api.post("api/simulate", {"players": 3, "games": 10}).status_code == 409
    api.ok(api.delete(f"api/jobs/{jid}"))
    job = wait_for(api, jid, 30)
    assert job["state"] == "cancelled" and job["done"] < MAX_GAMES and job["result"] is None
    assert api.post("api/simulate", {"players": 3, "games": 5}).status_code == 200


@pytest.mark.parametrize("body", [{"players": 3, "games": MAX_GAMES + 1}, {"players": 3, "games": 0},
                                  {"players": 3, "games": "10"}, {"players": 9, "games": 10},
                                  {"players": 3, "games": 10, "agents": ["os:system"]},
                                  {"players": 3, "games": 10, "agents": ["policy:../../x.yaml"]}])
def test_a_bad_job_is_refused_before_it_starts(body: dict):
    api = Api(GAMES / "jacks_friends")
    answer = api.post("api/simulate", body)
    assert answer.status_code == 400, answer.text
    assert set(answer.json()) == {"error", "hint"}


@pytest.mark.slow
def test_a_sweep_job_gives_the_cli_sweep_answer():
    api = Api(GAMES / "jacks_friends")
    body = {"players": 3, "games": 20, "vary": "tables.setup.3.houses=6,8", "agents": ["random"],
            "target": "win_rate.giant in [0.3,0.7]"}
    answer = api.post("api/sweep", body)
    if answer.status_code != 200:
        pytest.fail(answer.text)
    jid = answer.json()["job"]
    job = wait_for(api, jid)
    assert job["state"] == "done", job
    assert job["total"] == 40 and job["done"] == 40
    assert len(job["result"]["settings"]) == 2


def test_a_sweep_too_big_for_the_page_is_refused():
    api = Api(GAMES / "jacks_friends")
    body = {"players": 3, "games": MAX_GAMES // 2, "vary": "tables.setup.3.houses=6,8,10", "agents": ["random"]}
    answer = api.post("api/sweep", body)
    assert answer.status_code == 400 and "at most" in answer.json()["error"]
    assert api.post("api/sweep", {**body, "vary": ""}).status_code == 400
