"""A small editor for tests: it starts `python -m rulelang lsp` and speaks JSON-RPC to it over pipes.

Messages are framed as the Language Server Protocol says (a Content-Length
header, a blank line, the JSON body). Notifications the server sends while a
request waits are kept, so a test can ask for the diagnostics published since.
"""
from __future__ import annotations

import json
import os
import queue
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]    # the checkout (tests/helpers/ is two below it)


class LspClient:
    def __init__(self) -> None:
        env = dict(os.environ, PYTHONPATH=str(ROOT))
        self.process = subprocess.Popen([sys.executable, "-m", "rulelang", "lsp"], stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, cwd=ROOT)
        self.messages: queue.Queue[dict] = queue.Queue()
        self.notes: list[dict] = []
        self.next_id = 0
        self.stderr: list[bytes] = []
        threading.Thread(target=self._read, daemon=True).start()
        threading.Thread(target=self._drain, daemon=True).start()

    def _drain(self) -> None:
        """Keep the server's log (stderr) read, so a full pipe never stops it."""
        for line in self.process.stderr:
            self.stderr.append(line)

    def _read(self) -> None:
        out = self.process.stdout
        while True:
            length = None
            while True:
                line = out.readline()
                if not line:
                    return
                if line in (b"\r\n", b"\n"):
                    break
                name, _, value = line.decode("ascii").partition(":")
                if name.lower() == "content-length":
                    length = int(value.strip())
            self.messages.put(json.loads(out.read(length)))

    def send(self, message: dict) -> None:
        body = json.dumps(message).encode("utf-8")
        self.process.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.process.stdin.flush()

    def notify(self, method: str, params: Any) -> None:
        self.send({"jsonrpc": "2.0", "method": method, "params": params})

    def request(self, method: str, params: Any, timeout: float = 60) -> Any:
        self.next_id += 1
        wanted = self.next_id
        self.send({"jsonrpc": "2.0", "id": wanted, "method": method, "params": params})
        deadline = time.monotonic() + timeout
        while True:
            message = self.messages.get(timeout=max(0.01, deadline - time.monotonic()))
            if message.get("id") == wanted and "method" not in message:
                assert "error" not in message, message
                return message.get("result")
            self.notes.append(message)

    def diagnostics(self, uri: str, timeout: float = 60) -> list[dict]:
        """The next diagnostics published for ``uri`` (waits for them)."""
        deadline = time.monotonic() + timeout
        while True:
            for i, note in enumerate(self.notes):
                if note.get("method") == "textDocument/publishDiagnostics" and note["params"]["uri"] == uri:
                    del self.notes[: i + 1]
                    return note["params"]["diagnostics"]
            self.notes.append(self.messages.get(timeout=max(0.01, deadline - time.monotonic())))

    def initialize(self) -> dict:
        result = self.request("initialize", {"processId": os.getpid(), "rootUri": ROOT.as_uri(), "capabilities": {}})
        self.notify("initialized", {})
        return result

    def close(self) -> None:
        try:
            self.request("shutdown", None, timeout=20)
            self.notify("exit", None)
            self.process.wait(timeout=20)
        finally:
            if self.process.poll() is None:
                self.process.kill()
                self.process.wait()
            self.process.stdin.close()
