"""`rulelang serve`'s logs: a log is verified by replaying it, stepped back and forth with the whole table
and the narration, a tampered log is reported unverified; text from the spec reaches JSON as plain text
and the rulebook's HTML escapes it.
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest

pytest.importorskip("starlette", reason="the web app's extra (pip install 'rulelang[serve]') is not installed")
pytest.importorskip("httpx", reason="Starlette's TestClient needs httpx (the test extra)")

from helpers.serve_api import GAMES, Api, copy_game  # noqa: E402

SCRIPT = "<script>alert(1)</script>"


@pytest.fixture(scope="module")
def api() -> Api:
    return Api(GAMES / "jacks_friends")


def bots_game_log(api: Api, players: int = 3, seed: int = 2) -> str:
    gid = api.ok(api.post("api/play", {"players": players, "seed": seed, "seats": ["random"] * players}))["game"]
    return api.ok(api.get(f"api/play/{gid}/log"))["log"]


def test_a_log_steps_back_and_forth(api: Api):
    text = bots_game_log(api)
    opened = api.ok(api.post("api/log", {"text": text}))
    assert opened["verified"] and opened["events"] == len(text.splitlines())
    lid = opened["log"]
    at = {n: api.ok(api.get(f"api/log/{lid}/step/{n}")) for n in (0, 10, 40, opened["events"])}
    again = api.ok(api.get(f"api/log/{lid}/step/10"))
    assert again == at[10]
    assert at[10]["n"] == 10 and at[10]["events"] == opened["events"]
    assert json.loads(at[10]["event"]) == json.loads(text.splitlines()[9])
    assert at[0]["narration"] == [] and len(at[10]["narration"]) < len(at[40]["narration"])
    assert at[40]["narration"][:len(at[10]["narration"])] == at[10]["narration"]
    assert at[10]["state"] != at[opened["events"]]["state"]
    titles = [section["title"] for section in at[40]["state"]]
    assert "Players" in titles and "Zones" in titles
    assert api.get(f"api/log/{lid}/step/{opened['events'] + 1}").status_code == 400
    assert api.get("api/log/nosuchlog/step/1").status_code == 404


def test_a_tampered_log_is_reported_unverified(api: Api):
    lines = bots_game_log(api).splitlines()
    ended = json.loads(lines[-1])
    assert ended["type"] == "ended"
    ended["winners"] = ["P3"] if ended["winners"] != ["P3"] else ["P2"]
    forged = "\n".join(lines[:-1] + [json.dumps(ended)]) + "\n"
    opened = api.ok(api.post("api/log", {"text": forged}))
    assert not opened["verified"]
    assert f":{len(lines)}:" in opened["error"] and "differs" in opened["error"]
    api.ok(api.get(f"api/log/{opened['log']}/step/{len(lines)}"))      # still stepped through


def test_a_log_that_is_no_log_is_refused_with_its_place(api: Api):
    answer = api.post("api/log", {"text": '{"type": "started"}\nnot json\n'})
    assert answer.status_code == 400
    assert ":2:" in answer.json()["error"]


def test_a_log_file_is_read_inside_the_folder_only(tmp_path: Path):
    game = copy_game("jacks_friends", tmp_path)
    api = Api(game)
    (game / "played.jsonl").write_text(bots_game_log(api))
    assert api.ok(api.post("api/log", {"path": "played.jsonl"}))["verified"]
    (tmp_path / "other.jsonl").write_text(bots_game_log(api))
    (game / "link.jsonl").symlink_to(tmp_path / "other.jsonl")
    for path in ("../other.jsonl", str(tmp_path / "other.jsonl"), "link.jsonl"):
        assert api.post("api/log", {"path": path}).status_code in (400, 403), path


def test_spec_text_reaches_json_as_plain_text_and_the_rulebook_escapes_it(tmp_path: Path):
    game = copy_game("flapjacks", tmp_path)
    jacks = game / "jacks.yaml"
    jacks.write_text(jacks.read_text(encoding="utf-8").replace("name: Chopping Axe", f"name: '{SCRIPT}'", 1),
                     encoding="utf-8")
    api = Api(game)
    assert api.ok(api.get("api/game"))["error"] is None
    gid = api.ok(api.post("api/play", {"players": 2, "seed": 0, "seats": ["random", "random"]}))["game"]
    log = api.ok(api.get(f"api/play/{gid}/log"))["log"]
    lid = api.ok(api.post("api/log", {"text": log}))["log"]
    state = api.ok(api.get(f"api/log/{lid}/step/1"))["state"]
    values = [value for section in state for _, value in section["rows"]]
    assert any(SCRIPT in value for value in values)                     # as written, for textContent
    assert not any("&lt;script" in value for value in values)
    html = api.ok(api.get("api/rulebook"))["html"]
    assert SCRIPT not in html and "&lt;script&gt;alert(1)&lt;/script&gt;" in html
