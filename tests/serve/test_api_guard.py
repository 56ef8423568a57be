"""`rulelang serve`'s guard: only the page's own requests reach the app, and every answer carries the headers.

A wrong or missing token is 404, a Host other than 127.0.0.1 or localhost at the port is 400 (DNS
rebinding), a foreign Origin is 403, a body over 2 MiB is 413 before the app reads it.
"""
from __future__ import annotations

import pytest

pytest.importorskip("starlette", reason="the web app's extra (pip install 'rulelang[serve]') is not installed")
pytest.importorskip("httpx", reason="Starlette's TestClient needs httpx (the test extra)")

from rulelang.serve.guard import CSP, MAX_BODY  # noqa: E402

from helpers.serve_api import BASE, GAMES, PORT, TOKEN, Api  # noqa: E402


@pytest.fixture(scope="module")
def api() -> Api:
    return Api(GAMES / "jacks_friends")


def test_the_right_token_host_and_origin_are_served(api: Api):
    answer = api.get("api/game", headers={"Origin": BASE})
    assert answer.status_code == 200
    assert answer.json()["title"] == "Jack's Friends"
    assert api.get("api/game", headers={"Host": f"localhost:{PORT}"}).status_code == 200


@pytest.mark.parametrize("path", ["/api/game", f"/{TOKEN}x/api/game", f"/{TOKEN[:-1]}/api/game", "/", f"/{TOKEN}",
                                  "/static/app.js", f"/x/{TOKEN}/api/game"])
def test_a_wrong_or_missing_token_is_not_found(api: Api, path: str):
    answer = api.raw.get(path)
    assert answer.status_code == 404
    assert TOKEN not in answer.text


@pytest.mark.parametrize("host", ["evil.example:8765", "127.0.0.1:9999", "localhost", "127.0.0.1", "[::1]:8765",
                                  "127.0.0.1.evil.example:8765"])
def test_another_host_is_refused(api: Api, host: str):
    assert api.get("api/game", headers={"Host": host}).status_code == 400


@pytest.mark.parametrize("origin", ["http://evil.example", f"http://127.0.0.1:{PORT + 1}", "null",
                                    f"https://127.0.0.1:{PORT}", f"http://localhost:{PORT}.evil.example"])
def test_a_foreign_origin_is_refused(api: Api, origin: str):
    assert api.post("api/check", {"path": "game.yaml", "text": ""}, headers={"Origin": origin}).status_code == 403


def test_a_body_too_large_is_refused_before_the_app_reads_it(api: Api):
    text = "x" * (MAX_BODY + 1)
    answer = api.post("api/check", {"path": "game.yaml", "text": text})
    assert answer.status_code == 413
    assert "too large" in answer.json()["error"]


def test_a_streamed_body_too_large_is_refused_without_a_length(api: Api):
    chunks = (b"x" * 65536 for _ in range(MAX_BODY // 65536 + 2))
    answer = api.raw.post(f"/{TOKEN}/api/check", content=chunks)
    assert answer.status_code == 413


@pytest.mark.parametrize("path", ["", "api/game", "api/nothing"])
def test_every_answer_carries_the_security_headers(api: Api, path: str):
    answer = api.get(path)
    assert answer.headers["content-security-policy"] == CSP
    assert answer.headers["x-content-type-options"] == "nosniff"
    assert answer.headers["referrer-policy"] == "no-referrer"


def test_refusals_carry_the_headers_too(api: Api):
    answer = api.raw.get("/nothing")
    assert answer.status_code == 404
    assert answer.headers["x-content-type-options"] == "nosniff"


def test_the_page_is_served_at_the_token(api: Api):
    answer = api.get("")
    assert answer.status_code == 200
    assert answer.headers["content-type"].startswith("text/html")
    assert "<script>" not in answer.text         # no inline script (the CSP would block it)
    assert 'src="static/app.js"' in answer.text  # the whole page: a body cut short by the guard fails here
    assert int(answer.headers["content-length"]) == len(answer.content)


@pytest.mark.parametrize("path", ["static/../app.py", "static/..%2fapp.py", "static/%2e%2e/__init__.py",
                                  "static/../../serve/app.py"])
def test_static_files_never_leave_the_static_folder(api: Api, path: str):
    answer = api.get(path)
    assert answer.status_code == 404 or "from starlette" not in answer.text


def test_a_websocket_is_refused(api: Api):
    from starlette.websockets import WebSocketDisconnect
    with pytest.raises(WebSocketDisconnect):
        with api.raw.websocket_connect(f"/{TOKEN}/api/game"):
            pass
