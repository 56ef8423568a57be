"""The web app's API in-process (Starlette's TestClient), for tests/serve: a client with the token and Host set.

Import it after ``pytest.importorskip("starlette")``: it needs the serve extra and httpx.
"""
from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

from starlette.testclient import TestClient

from rulelang.serve.app import make_app

ROOT = Path(__file__).resolve().parents[2]
GAMES = ROOT / "games"
TOKEN = "test-token-0123456789"
PORT = 8765
BASE = f"http://127.0.0.1:{PORT}"


class Api:
    """Calls under /TOKEN/ with our own Host; ``raw`` is the client for requests that must go astray."""

    def __init__(self, root: Path, mods: list[Path] | None = None) -> None:
        self.app = make_app(root, mods or [], TOKEN, PORT)
        self.raw = TestClient(self.app, base_url=BASE)

    def get(self, path: str, **kwargs: Any) -> Any:
        return self.raw.get(f"/{TOKEN}/{path}", **kwargs)

    def post(self, path: str, body: Any, **kwargs: Any) -> Any:
        return self.raw.post(f"/{TOKEN}/{path}", json=body, **kwargs)

    def put(self, path: str, body: Any) -> Any:
        return self.raw.put(f"/{TOKEN}/{path}", json=body)

    def delete(self, path: str) -> Any:
        return self.raw.delete(f"/{TOKEN}/{path}")

    def ok(self, response: Any) -> Any:
        assert response.status_code == 200, response.text
        return response.json()


def copy_game(name: str, into: Path) -> Path:
    """A copy of a game of games/ to change freely."""
    target = into / name
    shutil.copytree(GAMES / name, target)
    return target
