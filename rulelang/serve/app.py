"""The web app of one game folder: the page, its static files and the JSON API (docs/serve.md).

Every route is behind ``guard.Guard`` (token, Host, Origin, body size, headers). The handlers parse
the JSON, then do the work in a thread (a game's load, a check, a bot's move must not hold up the
event loop); an ``ApiError`` becomes ``{"error", "hint"}`` with its status, a spec error a 400 with its
located report, and a bug of rulelang a 500 of one line, never a traceback.
"""
from __future__ import annotations

import json
import logging
import os
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import FileResponse, HTMLResponse, JSONResponse, Response
from starlette.routing import Route

from rulelang.errors import RulelangError, internal_error
from rulelang.printable import printable
from rulelang.serve import ApiError
from rulelang.serve.diagnostics import LOADING, Diagnostics
from rulelang.serve.folder import Folder
from rulelang.serve.guard import Guard
from rulelang.serve.jobs import Jobs, command_args, simulate_job, sweep_job
from rulelang.serve.logs_view import MAX_LOG_BYTES, Logs, logged_params, parse, verify
from rulelang.serve.sessions import BOTS, Sessions

STATIC = Path(__file__).parent / "static"
#: The kinds of static file served, by ending; and the largest served.
STATIC_TYPES = {".html": "text/html; charset=utf-8", ".js": "text/javascript; charset=utf-8",
                ".mjs": "text/javascript; charset=utf-8", ".css": "text/css; charset=utf-8",
                ".svg": "image/svg+xml", ".png": "image/png", ".ico": "image/x-icon", ".json": "application/json",
                ".woff2": "font/woff2", ".map": "application/json", ".txt": "text/plain; charset=utf-8"}
MAX_STATIC = 8 * 1024 * 1024
#: Shown at / when the page's files are not installed (serve-front ships them in static/; the API works without).
PLACEHOLDER = ("<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>rulelang serve</title></head>"
               "<body><h1>rulelang serve</h1><p>The page's files are not installed; the API under api/ answers."
               "</p></body></html>")


class Workspace:
    """The game folder, its mods (those given and those in its mods/ folder) and what is open in the page."""

    def __init__(self, root: Path, mods: list[Path]) -> None:
        self.folder = Folder(root)
        self.given = [Path(os.path.realpath(mod)) for mod in mods]
        self.enabled: list[Path] = list(self.given)
        self.diagnostics = Diagnostics(self.folder)
        self.sessions = Sessions(self.folder)
        self.logs = Logs()
        self.jobs = Jobs()
        self._loaded: tuple[Any, Any] | None = None

    # -- the game ------------------------------------------------------------------------------

    def known_mods(self) -> list[Path]:
        """The mods given on the command line, then each mod of the folder's mods/ (a file or a folder)."""
        found = list(self.given)
        shelf = self.folder.root / "mods"
        if shelf.is_dir() and not shelf.is_symlink():
            for entry in sorted(shelf.iterdir()):
                if entry.is_symlink() or entry.name.startswith("."):
                    continue
                if (entry.suffix in (".yaml", ".yml") and entry.is_file()) or (entry / "mod.yaml").is_file():
                    if entry not in found:
                        found.append(entry)
        return found

    def mod_path(self, mod: Path) -> str:
        return self.folder.shown(mod)

    def fingerprint(self) -> tuple:
        """What the loaded game depends on: the mods laid over it and every text file's time and size."""
        stamps = []
        for path in self.folder.listing():
            try:
                info = os.lstat(path)
            except OSError:
                continue
            stamps.append((str(path), info.st_mtime_ns, info.st_size))
        return tuple(map(str, self.enabled)), tuple(stamps)

    def load(self) -> tuple[Any, Any]:
        """(the game compiled with the enabled mods, or None; the error that stops it, or None), cached."""
        from rulelang.pipeline import load_game

        stamp = self.fingerprint()
        if self._loaded is not None and self._loaded[0] == stamp:
            return self._loaded[1]
        with LOADING:
            try:
                found: tuple[Any, Any] = (load_game(self.folder.root, [str(m) for m in self.enabled]), None)
            except RulelangError as error:
                found = (None, error)
            except ValueError as refused:          # a param value the game refuses
                found = (None, RulelangError(str(refused)))
        self._loaded = (stamp, found)
        return found

    def game(self) -> Any:
        game, error = self.load()
        if game is None:
            raise ApiError(400, printable(error.format()), "fix the game's files first (api/check shows where)")
        return game

    def mod_paths(self) -> list[str]:
        return [str(mod) for mod in self.enabled]

    # -- answers -------------------------------------------------------------------------------

    def info(self) -> dict[str, Any]:
        """The `GET api/game` answer."""
        from rulelang.lsp.diagnose import kind_of

        game, error = self.load()
        mods = self.known_mods()
        listed = []
        for path in self.folder.listing():
            try:
                text = self.folder.read_text(self.folder.shown(path))
            except ApiError:
                continue
            kind = _KINDS.get(kind_of(path, text), "other") if path.suffix != ".md" else "other"
            if kind == "include" and any(path == mod or mod in path.parents for mod in mods):
                kind = "mod"            # a mod's own file, or a file its mod.yaml includes
            listed.append({"path": self.folder.shown(path), "kind": kind})
        policies = [f"policy:{item['path']}" for item in listed if item["kind"] == "policy"]
        return {"title": printable(game.name) if game is not None else self.folder.root.name,
                "folder": printable(self.folder.root.name),
                "players": {"min": game.min_players, "max": game.max_players} if game is not None
                else {"min": None, "max": None},
                "error": printable(error.format()) if error is not None else None,
                "mods": [{"path": self.mod_path(mod), "name": self.mod_name(mod), "enabled": mod in self.enabled}
                         for mod in mods],
                "agents": [*BOTS, *policies], "files": listed}

    def mod_name(self, mod: Path) -> str:
        from rulelang.mods.layers import load_mod
        from rulelang.spec.loader import new_budget

        with LOADING:
            try:
                return printable(load_mod(mod, new_budget()).name)
            except (RulelangError, OSError, ValueError):
                return printable(mod.stem if mod.suffix else mod.name)

    def set_mods(self, enabled: Any) -> None:
        if not isinstance(enabled, list) or not all(isinstance(path, str) for path in enabled):
            raise ApiError(400, "enabled is a list of mod paths", "as api/game lists them")
        by_path = {self.mod_path(mod): mod for mod in self.known_mods()}
        unknown = [path for path in enabled if path not in by_path]
        if unknown:
            raise ApiError(400, f"'{unknown[0]}' is not a mod of this game", "use a path api/game lists")
        self.enabled = [by_path[path] for path in dict.fromkeys(enabled)]

    def rulebook(self) -> str:
        from rulelang.rulebook.book import make_book
        from rulelang.rulebook.checked import load_checked
        from rulelang.rulebook.modded import modded_book
        from rulelang.rulebook.render import page

        with LOADING:
            root, mods = str(self.folder.root), self.mod_paths()
            book = modded_book(root, mods) if mods else make_book(load_checked(root))
        return page(book)

    def open_log(self, body: dict[str, Any]) -> dict[str, Any]:
        if isinstance(body.get("text"), str):
            raw, name = body["text"].encode("utf-8"), "the log"
        elif isinstance(body.get("path"), str):
            raw, name = self.folder.read_bytes(body["path"], MAX_LOG_BYTES, suffixes=None), body["path"]
        else:
            raise ApiError(400, "give the log's text or its path in the game's folder", '{"text": ...} or {"path": ...}')
        events = parse(raw, name)
        from rulelang.pipeline import load_game
        with LOADING:
            try:
                game = load_game(self.folder.root, self.mod_paths(), logged_params(events))
            except ValueError as refused:
                raise ApiError(400, f"the params of the log's 'started' event do not fit the game: {refused}", "") \
                    from None
        log = verify(game, events, name)
        return {"log": self.logs.add(log), "events": len(events), "verified": log.verified, "error": log.error}


#: The language server's kinds of file as the page names them (a fragment is a file a game includes).
_KINDS = {"game": "game", "mod": "mod", "scenario": "scenario", "policy": "policy", "fragment": "include"}


# -- handlers ------------------------------------------------------------------------------------

Handler = Callable[[Request], Awaitable[Response]]


def api(work: Callable[..., Any], body: bool = False) -> Handler:
    """A JSON endpoint: ``work(request_facts, body)`` runs in a thread; its value is the answer."""

    async def endpoint(request: Request) -> Response:
        try:
            given = await _json(request) if body else {}
            return JSONResponse(await run_in_threadpool(work, request, given))
        except ApiError as refused:
            return JSONResponse({"error": refused.error, "hint": refused.hint}, status_code=refused.status)
        except RulelangError as error:
            return JSONResponse({"error": printable(error.format()), "hint": error.hint or ""}, status_code=400)
        except Exception as error:  # noqa: BLE001 - a bug of rulelang is one line to the page, never a traceback
            logging.exception("serving %s", request.url.path)
            return JSONResponse({"error": internal_error(error), "hint": "this is a bug in rulelang itself"},
                                status_code=500)
    return endpoint


async def _json(request: Request) -> dict[str, Any]:
    raw = await request.body()
    try:
        value = json.loads(raw or b"{}")
    except (ValueError, RecursionError):
        raise ApiError(400, "the request is not JSON", "send a JSON object") from None
    if not isinstance(value, dict):
        raise ApiError(400, "the request is not a JSON object", "send a JSON object")
    return value


def _text(body: dict[str, Any], key: str) -> str:
    value = body.get(key)
    if not isinstance(value, str):
        raise ApiError(400, f"'{key}' is missing or not text", "")
    return value


def make_app(root: Path, mods: list[Path], token: str, port: int) -> Starlette:
    """The app for one game folder; ``port`` is what the Host and Origin checks expect."""
    space = Workspace(root, mods)

    def game(request: Request, body: dict[str, Any]) -> Any:
        return space.info()

    def read_file(request: Request, body: dict[str, Any]) -> Any:
        path = request.query_params.get("path", "")
        return {"path": path, "text": space.folder.read_text(path)}

    def write_file(request: Request, body: dict[str, Any]) -> Any:
        path, text = _text(body, "path"), _text(body, "text")
        with LOADING:
            written = space.folder.write_text(path, text)
        return {"saved": True, "diagnostics": space.diagnostics.saved(written)}

    def check(request: Request, body: dict[str, Any]) -> Any:
        return space.diagnostics.check(_text(body, "path"), _text(body, "text"))

    def set_mods(request: Request, body: dict[str, Any]) -> Any:
        space.set_mods(body.get("enabled"))
        return space.info()

    def play(request: Request, body: dict[str, Any]) -> Any:
        loaded = space.game()
        who, seed = space.sessions.seats(body, loaded)
        return {"game": space.sessions.start(loaded, who, seed)}

    def seat_view(request: Request, body: dict[str, Any]) -> Any:
        session = space.sessions.get(request.path_params["gid"])
        seat = space.sessions.seat(session, request.query_params.get("seat", ""))
        with session.lock:
            return session.answer(seat)

    def choose(request: Request, body: dict[str, Any]) -> Any:
        session = space.sessions.get(request.path_params["gid"])
        seat = space.sessions.seat(session, body.get("seat"))
        with session.lock:
            session.choose(seat, body.get("index"))
            return session.answer(seat)

    def play_log(request: Request, body: dict[str, Any]) -> Any:
        session = space.sessions.get(request.path_params["gid"])
        with session.lock:
            return {"log": session.event_log()}

    def open_log(request: Request, body: dict[str, Any]) -> Any:
        return space.open_log(body)

    def step(request: Request, body: dict[str, Any]) -> Any:
        number = request.path_params["n"]
        return space.logs.step(request.path_params["lid"], number)

    def agents_of(body: dict[str, Any]) -> list[str]:
        from rulelang.serve.sessions import checked_agent
        agents = body.get("agents", ["random"])
        if isinstance(agents, str):
            agents = [part for part in agents.split(",")]
        if not isinstance(agents, list) or not agents:
            raise ApiError(400, "agents is a list of agent names", '["random"] or one per seat')
        return [checked_agent(space.folder, agent) for agent in agents]

    def simulate(request: Request, body: dict[str, Any]) -> Any:
        args = command_args(str(space.folder.root), space.mod_paths(), body, agents_of(body))

        def make() -> Any:
            with LOADING:
                return simulate_job(args)
        return {"job": space.jobs.start(make)}

    def sweep(request: Request, body: dict[str, Any]) -> Any:
        args = command_args(str(space.folder.root), space.mod_paths(), body, agents_of(body))
        vary = body.get("vary")
        args.vary = [vary] if isinstance(vary, str) else vary
        if not isinstance(args.vary, list) or not args.vary or not all(isinstance(v, str) for v in args.vary):
            raise ApiError(400, "vary is KEY=V1,V2,... (or a list of them)", "e.g. cards.CARD.count=1..4")
        target = body.get("target")
        args.target = target if isinstance(target, str) and target.strip() else None

        def make() -> Any:
            with LOADING:
                return sweep_job(args)
        return {"job": space.jobs.start(make)}

    def job(request: Request, body: dict[str, Any]) -> Any:
        return space.jobs.get(request.path_params["jid"]).answer()

    def cancel(request: Request, body: dict[str, Any]) -> Any:
        return space.jobs.cancel(request.path_params["jid"]).answer()

    def rulebook(request: Request, body: dict[str, Any]) -> Any:
        return {"html": space.rulebook()}

    async def index(request: Request) -> Response:
        page = STATIC / "index.html"
        if page.is_file():
            return FileResponse(page, media_type="text/html")
        return HTMLResponse(PLACEHOLDER)

    async def static_file(request: Request) -> Response:
        """A file of static/ (never outside it, never through a link, only the kinds the page is made of)."""
        path = request.path_params["path"]
        suffix = Path(path).suffix.lower()
        try:
            if not STATIC.is_dir():
                raise ApiError(404, "not found", "")
            data = await run_in_threadpool(Folder(STATIC).read_bytes, path, MAX_STATIC, tuple(STATIC_TYPES))
        except ApiError as refused:
            return JSONResponse({"error": refused.error, "hint": refused.hint}, status_code=404)
        return Response(data, media_type=STATIC_TYPES[suffix])

    routes = [
        Route("/", index),
        Route("/api/game", api(game)),
        Route("/api/file", api(read_file)),
        Route("/api/file", api(write_file, body=True), methods=["PUT"]),
        Route("/api/check", api(check, body=True), methods=["POST"]),
        Route("/api/mods", api(set_mods, body=True), methods=["POST"]),
        Route("/api/play", api(play, body=True), methods=["POST"]),
        Route("/api/play/{gid}", api(seat_view)),
        Route("/api/play/{gid}/choose", api(choose, body=True), methods=["POST"]),
        Route("/api/play/{gid}/log", api(play_log)),
        Route("/api/log", api(open_log, body=True), methods=["POST"]),
        Route("/api/log/{lid}/step/{n:int}", api(step)),
        Route("/api/simulate", api(simulate, body=True), methods=["POST"]),
        Route("/api/sweep", api(sweep, body=True), methods=["POST"]),
        Route("/api/jobs/{jid}", api(job)),
        Route("/api/jobs/{jid}", api(cancel), methods=["DELETE"]),
        Route("/api/rulebook", api(rulebook)),
        Route("/static/{path:path}", static_file),
    ]
    app = Starlette(routes=routes, middleware=[Middleware(Guard, token=token, port=port)])
    app.state.workspace = space
    return app
