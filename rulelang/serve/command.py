"""`rulelang serve PATH`: the web app of one game folder, on 127.0.0.1 with a secret token in its URL.

The command (``cmd_serve``) and the server the tests start (``start_in_thread``) are made the same way:
a socket bound to 127.0.0.1 (never another address: the app reads and writes the game's files), a
random token, the app of ``app.make_app`` told the port it listens on (for its Host and Origin checks).
Nothing here imports starlette or uvicorn until a server is made, so the CLI works without the extra.
"""
from __future__ import annotations

import argparse
import secrets
import socket
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rulelang.errors import UsageError

HOST = "127.0.0.1"
DEFAULT_PORT = 8765


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("path", metavar="PATH", help="the game's folder (or its game.yaml)")
    parser.add_argument("--port", type=int, default=DEFAULT_PORT, metavar="N",
                        help=f"the port on 127.0.0.1 (default {DEFAULT_PORT}; 0 for any free one)")
    parser.add_argument("--no-open", action="store_true", help="do not open the page in a browser")


def new_token() -> str:
    return secrets.token_urlsafe(24)


def bound_socket(port: int) -> socket.socket:
    """A listening socket on 127.0.0.1 only; a port in use is a usage error."""
    if not 0 <= port <= 65535:
        raise UsageError(f"--port takes 0 to 65535, not {port}")
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((HOST, port))
        sock.listen(64)
    except OSError as error:
        sock.close()
        raise UsageError(f"cannot listen on {HOST}:{port}: {error.strerror or error}") from None
    return sock


def game_folder(path: str) -> Path:
    """The folder a PATH names (a game.yaml names its folder); missing or not a game is a usage error."""
    from rulelang.spec.files import missing_path

    missing = missing_path(path)
    if missing:
        raise UsageError(missing)
    folder = Path(path)
    if folder.is_file():
        folder = folder.parent
    if not (folder / "game.yaml").is_file():
        raise UsageError(f"{path} is not a game's folder: it has no game.yaml")
    return folder


def server_for(root: Path, mods: list[Path], sock: socket.socket, token: str) -> Any:
    """A uvicorn server of the app, for the socket already bound (quiet but for warnings)."""
    import uvicorn

    from rulelang.serve.app import make_app

    port = sock.getsockname()[1]
    config = uvicorn.Config(make_app(root, mods, token, port), log_level="warning", lifespan="off",
                            server_header=False, date_header=False)
    return uvicorn.Server(config)


def url_of(port: int, token: str) -> str:
    return f"http://{HOST}:{port}/{token}/"


def cmd_serve(args: argparse.Namespace) -> int:
    """Serve until Ctrl-C; without the extra, a usage error that says how to get it."""
    from rulelang.serve import missing_extra

    missing = missing_extra()
    if missing:
        raise UsageError(missing)
    root = game_folder(args.path)
    sock = bound_socket(args.port)
    token = new_token()
    server = server_for(root, [Path(mod) for mod in args.mods], sock, token)
    url = url_of(sock.getsockname()[1], token)
    print(f"rulelang serve: {url}", flush=True)
    print("(the token in the URL is the key to this folder: do not share it; Ctrl-C stops)", flush=True)
    if not args.no_open:
        import webbrowser
        webbrowser.open(url)
    try:
        server.run(sockets=[sock])
    finally:
        sock.close()
    return 0


@dataclass
class ServerHandle:
    """A server running in a thread (for tests): its URL (ending in /TOKEN/), token, port; ``stop()`` ends it."""

    url: str
    token: str
    port: int
    server: Any
    thread: threading.Thread
    sock: socket.socket

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(10)
        self.sock.close()


def start_in_thread(root: str | Path, mods: list[str | Path] | None = None, port: int = 0) -> ServerHandle:
    """Start the server in a daemon thread and return once it answers."""
    sock = bound_socket(port)
    token = new_token()
    server = server_for(Path(root), [Path(mod) for mod in mods or []], sock, token)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, name="rulelang-serve", daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            server.should_exit = True
            sock.close()
            raise RuntimeError("the server did not start")
        time.sleep(0.01)
    bound = sock.getsockname()[1]
    return ServerHandle(url_of(bound, token), token, bound, server, thread, sock)
