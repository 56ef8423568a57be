"""What every request must be before the app sees it, and what every answer carries.

The server listens on 127.0.0.1, but a web page of any site can still make the browser send requests
there, and a DNS name of the attacker's that resolves to 127.0.0.1 makes them same-origin for the
browser (DNS rebinding). So: the path must start with the secret token (else 404, compared in constant
time), the ``Host`` must name 127.0.0.1 or localhost at our port (else 400), an ``Origin``, when sent,
must be our own (else 403), and a body over the bound is refused (413) before the app reads it.
Every answer gets a Content-Security-Policy, ``nosniff``, no referrer (the URL holds the token) and no caching.
"""
from __future__ import annotations

import hmac
import json
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

#: The largest request body taken (a spec file is at most a few hundred kilobytes).
MAX_BODY = 2 * 1024 * 1024
CSP = "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'"
HEADERS = [(b"content-security-policy", CSP.encode()), (b"x-content-type-options", b"nosniff"),
           (b"referrer-policy", b"no-referrer"), (b"x-frame-options", b"SAMEORIGIN"),
           (b"cache-control", b"no-store")]


class Guard:
    """ASGI middleware: checks Host, Origin, token and body size; the token becomes the app's root path."""

    def __init__(self, app: ASGIApp, token: str, port: int, max_body: int = MAX_BODY) -> None:
        self.app = app
        self.token = token.encode()
        self.hosts = {f"127.0.0.1:{port}".encode(), f"localhost:{port}".encode()}
        self.origins = {b"http://" + host for host in self.hosts}
        self.max_body = max_body

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "lifespan":
            await self.app(scope, receive, send)
            return
        if scope["type"] != "http":          # no websockets: refuse the handshake
            await send({"type": "websocket.close", "code": 1008})
            return
        send = _with_headers(send)
        refused = self.refusal(scope)
        if refused is not None:
            await refuse(send, *refused)
            return
        body = await self.read_body(receive)
        if body is None:
            await refuse(send, 413, "the request is too large", f"at most {self.max_body:,} bytes are taken")
            return
        inner = dict(scope, root_path=scope.get("root_path", "") + "/" + self.token.decode())   # routes see /api/...
        await self.app(inner, _replay(body, receive), send)

    def refusal(self, scope: Scope) -> tuple[int, str, str] | None:
        """Why a request is refused (status, error, hint), or None: Host, then Origin, then the token."""
        headers = _headers(scope)
        if headers.get(b"host") not in self.hosts:
            return 400, "this server answers only to 127.0.0.1 and localhost", "open the URL the command printed"
        origin = headers.get(b"origin")
        if origin is not None and origin not in self.origins:
            return 403, "a request from another site is refused", "use the page the command printed"
        if not self.token_matches(scope["path"]):
            return 404, "not found", "open the URL the command printed, token and all"
        length = headers.get(b"content-length")
        if length is not None and (not length.isdigit() or int(length) > self.max_body):
            return 413, "the request is too large", f"at most {self.max_body:,} bytes are taken"
        return None

    def token_matches(self, path: str) -> bool:
        """The path starts with /TOKEN/ (compared in constant time, so the token cannot be guessed bit by bit)."""
        first, slash, _ = path[1:].partition("/")
        return bool(slash) and hmac.compare_digest(first.encode("utf-8", "replace"), self.token)

    async def read_body(self, receive: Receive) -> bytes | None:
        """The whole body, or None once it passes the bound (the rest is not read)."""
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] != "http.request":
                return b"".join(chunks)
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.max_body:
                return None
            chunks.append(chunk)
            if not message.get("more_body", False):
                return b"".join(chunks)


def _headers(scope: Scope) -> dict[bytes, bytes]:
    """The request's headers by lower-case name; a header sent twice counts as not matching anything."""
    seen: dict[bytes, bytes] = {}
    for name, value in scope.get("headers", []):
        key = name.lower()
        seen[key] = b"\0twice" if key in seen else value
    return seen


def _replay(body: bytes, client: Receive) -> Receive:
    """A receive that hands the app the body already read, then the client's own messages: a disconnect only
    when the client really leaves (a file being sent listens for one, and would stop at a made-up one)."""
    sent = False

    async def receive() -> Message:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await client()
    return receive


def _with_headers(send: Send) -> Send:
    async def sending(message: Message) -> None:
        if message["type"] == "http.response.start":
            names = {name.lower() for name, _ in message.get("headers", [])}
            message = dict(message, headers=list(message.get("headers", []))
                           + [(name, value) for name, value in HEADERS if name not in names])
        await send(message)
    return sending


async def refuse(send: Send, status: int, error: str, hint: str) -> None:
    """A JSON refusal: {"error", "hint"}."""
    body = json.dumps({"error": error, "hint": hint}).encode()
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]})
    await send({"type": "http.response.body", "body": body})
