"""`rulelang serve` as a real server: it listens on 127.0.0.1 only, answers with the token, refuses without it,
and the command says how to get the extra when it is missing.
"""
from __future__ import annotations

import json
import socket
import sys
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from rulelang.cli import main

ROOT_GAMES = Path(__file__).resolve().parents[2] / "games"


def test_serve_without_the_extra_says_how_to_get_it(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]):
    monkeypatch.setitem(sys.modules, "starlette", None)
    assert main(["serve", str(ROOT_GAMES / "jacks_friends"), "--no-open"]) == 2
    assert "pip install 'rulelang[serve]'" in capsys.readouterr().err


def test_serve_of_a_folder_that_is_no_game_is_a_usage_error(tmp_path, capsys: pytest.CaptureFixture[str]):
    pytest.importorskip("uvicorn", reason="the web app's extra (pip install 'rulelang[serve]') is not installed")
    assert main(["serve", str(tmp_path), "--no-open"]) == 2
    assert "no game.yaml" in capsys.readouterr().err
    assert main(["serve", str(tmp_path / "missing"), "--no-open"]) == 2


@pytest.fixture(scope="module")
def server():
    pytest.importorskip("starlette", reason="the web app's extra (pip install 'rulelang[serve]') is not installed")
    pytest.importorskip("uvicorn", reason="the web app's extra (pip install 'rulelang[serve]') is not installed")
    from rulelang.serve.command import start_in_thread
    handle = start_in_thread(ROOT_GAMES / "jacks_friends")
    yield handle
    handle.stop()


def fetch(url: str, headers: dict[str, str] | None = None) -> tuple[int, bytes]:
    request = urllib.request.Request(url, headers=headers or {})
    try:
        with urllib.request.urlopen(request, timeout=20) as answer:
            return answer.status, answer.read()
    except urllib.error.HTTPError as error:
        return error.code, error.read()


def test_a_real_server_answers_with_the_token_only(server):
    assert server.url == f"http://127.0.0.1:{server.port}/{server.token}/"
    status, body = fetch(server.url + "api/game")
    assert status == 200 and json.loads(body)["title"] == "Jack's Friends"
    assert fetch(f"http://127.0.0.1:{server.port}/api/game")[0] == 404
    assert fetch(f"http://127.0.0.1:{server.port}/wrong-token/api/game")[0] == 404
    assert fetch(server.url + "api/game", {"Host": f"rebound.example:{server.port}"})[0] == 400
    assert fetch(server.url + "api/game", {"Origin": "http://rebound.example"})[0] == 403


def test_the_server_listens_on_127_0_0_1_only(server):
    addresses = {sock.getsockname()[0] for srv in server.server.servers for sock in srv.sockets}
    assert addresses == {"127.0.0.1"}
    for family, address in ((socket.AF_INET, "127.0.0.2"), (socket.AF_INET6, "::1")):     # loopback, not ours
        try:
            probe = socket.socket(family, socket.SOCK_STREAM)
        except OSError:
            continue                        # no such address family here: nothing listens there either
        with probe:
            probe.settimeout(2)
            assert probe.connect_ex((address, server.port)) != 0, address

