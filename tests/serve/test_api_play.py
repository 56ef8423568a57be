"""`rulelang serve`'s games: humans choose through the API, bots move by themselves, and each seat sees
only what `rulelang play` shows it (another seat's secret pick stays hidden until the reveal).
"""
from __future__ import annotations

import pytest

pytest.importorskip("starlette", reason="the web app's extra (pip install 'rulelang[serve]') is not installed")
pytest.importorskip("httpx", reason="Starlette's TestClient needs httpx (the test extra)")

from helpers.serve_api import GAMES, Api  # noqa: E402

LOCATIONS = ("hen_house", "kitchen", "garden", "village")


@pytest.fixture(scope="module")
def api() -> Api:
    return Api(GAMES / "jacks_friends")


def start(api: Api, seats: list[str], seed: int = 1) -> str:
    return api.ok(api.post("api/play", {"players": len(seats), "seed": seed, "seats": seats}))["game"]


def seat(api: Api, gid: str, number: int) -> dict:
    return api.ok(api.get(f"api/play/{gid}", params={"seat": number}))


def test_a_whole_game_of_humans_choosing_the_first_option_reaches_its_end(api: Api):
    gid = start(api, ["human", "human", "human"])
    for _ in range(2000):
        first = seat(api, gid, 1)
        if first["over"]:
            break
        acting = first["to_act"][0]
        answer = api.ok(api.post(f"api/play/{gid}/choose", {"seat": acting, "index": 0}))
        assert answer["seat"] == acting
    assert first["over"] and first["result"]
    assert first["to_act"] == [] and first["options"] == []
    log = api.ok(api.get(f"api/play/{gid}/log"))["log"]
    opened = api.ok(api.post("api/log", {"text": log}))
    assert opened["verified"] and opened["error"] is None
    assert opened["events"] == len(log.splitlines())


def test_a_seat_sees_labels_and_its_options(api: Api):
    gid = start(api, ["human", "random", "random"])
    mine = seat(api, gid, 1)
    assert mine["players"] == 3 and 1 in mine["to_act"]
    assert [o["label"] for o in mine["options"]] == ["Hen House", "Kitchen", "Garden", "Village"]
    assert [o["index"] for o in mine["options"]] == [0, 1, 2, 3]
    rows = {label: value for section in mine["view"] for label, value in section["rows"]}
    assert rows["Hen House"] == "egg 3"                 # a location by its label, not its id
    assert "P1 (you) giant" in rows
    assert all(isinstance(line, str) for line in mine["log"])


def test_only_the_seats_to_act_may_choose_and_only_options_that_exist(api: Api):
    gid = start(api, ["human", "human", "human"])
    assert api.post(f"api/play/{gid}/choose", {"seat": 1, "index": 4}).status_code == 409
    assert api.post(f"api/play/{gid}/choose", {"seat": 1, "index": -1}).status_code == 409
    assert api.post(f"api/play/{gid}/choose", {"seat": 1, "index": "0"}).status_code == 409
    api.ok(api.post(f"api/play/{gid}/choose", {"seat": 1, "index": 0}))
    assert api.post(f"api/play/{gid}/choose", {"seat": 1, "index": 0}).status_code == 409    # already picked
    assert api.post(f"api/play/{gid}/choose", {"seat": 4, "index": 0}).status_code == 400
    assert api.get(f"api/play/{gid}", params={"seat": 0}).status_code == 400
    assert api.get("api/play/nosuchgame", params={"seat": 1}).status_code == 404


@pytest.mark.parametrize("body", [{"players": 9, "seats": ["human"] * 9}, {"players": 2, "seats": ["human"]},
                                  {"players": 2, "seats": ["human", "os:system"]},
                                  {"players": 2, "seats": ["human", "policy:../x.yaml"]},
                                  {"players": 2, "seats": ["human", "random"], "seed": "1"}])
def test_a_bad_table_is_refused(api: Api, body: dict):
    answer = api.post("api/play", body)
    assert answer.status_code == 400
    assert set(answer.json()) == {"error", "hint"}


def test_a_policy_file_of_the_folder_may_take_a_seat(api: Api):
    gid = start(api, ["policy:policies/giant.yaml", "human"])
    assert seat(api, gid, 2)["to_act"] == [2]


def test_a_secret_pick_stays_hidden_from_the_other_seats_until_the_reveal(api: Api):
    gid = start(api, ["human", "human", "human"], seed=3)
    before = {k: seat(api, gid, k) for k in (2, 3)}
    picked = api.ok(api.post(f"api/play/{gid}/choose", {"seat": 1, "index": 1}))     # P1 picks the Kitchen
    assert picked["to_act"] == [2, 3]
    for k in (2, 3):
        after = seat(api, gid, k)
        assert after["view"] == before[k]["view"] and after["log"] == before[k]["log"]
        assert after["options"] == before[k]["options"]
        assert not any("P1" in line and "kitchen" in line.lower() for line in after["log"])
    assert api.get(f"api/play/{gid}/log").status_code == 409          # the whole log names the pick: not yet
    api.ok(api.post(f"api/play/{gid}/choose", {"seat": 2, "index": 0}))
    revealed = api.ok(api.post(f"api/play/{gid}/choose", {"seat": 3, "index": 0}))
    assert any("revealed" in line and "P1 kitchen" in line for line in revealed["log"]), revealed["log"]


def test_bots_move_by_themselves_and_the_game_waits_only_for_humans(api: Api):
    gid = start(api, ["random", "greedy", "human"])
    third = seat(api, gid, 3)
    assert third["to_act"] == [3]
    gid = start(api, ["random", "random"])
    assert seat(api, gid, 1)["over"]
