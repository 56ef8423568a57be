"""`simulate --ray [ADDRESS]`: the same batch played on a Ray cluster, or on a private local Ray.

Ray is an optional extra (``pip install 'rulelang[ray]'``). Each task plays a
range of game indexes with ``play_game``, the function local workers use, so
game ``i`` still depends on (seed, i) only and the summary is the one
``--workers`` gives. The driver sends the loaded spec (plain data), not a
path: the nodes need rulelang's dependencies, not the game's files.

What the nodes run is a job folder made for the batch: a copy of rulelang's
package and of its schemas, nothing else, shipped as Ray's ``working_dir``.
So a node runs the driver's version of rulelang whether that came from a
checkout, an editable install or a wheel, and never imports modules from
the folder the command was started in.

A local Ray (no ADDRESS) is started for one batch and only for it: every
server on 127.0.0.1, token authentication on with a token made for the run
(kept in the environment of our own processes, written to no file), no
dashboard, and Ray's session files in a private temporary folder (0700) that
is removed afterwards. Anything Ray reports (a node it cannot reach, a task
that failed) becomes one line of rulelang's own (``RayFailed``).
"""
from __future__ import annotations

import contextlib
import functools
import hashlib
import os
import pickle
import re
import secrets
import shutil
import socket
import tempfile
from collections.abc import Callable, Iterator
from importlib import metadata, util
from pathlib import Path
from typing import Any

from rulelang.engine.game import Game
from rulelang.spec.document import Document

from ..errors import RulelangError
from ..printable import printable as _printable
from .simulate import Batch, GameRecord, play_game

#: Token authentication (RAY_AUTH_MODE=token) came with Ray 2.52.0; older versions take jobs from anyone.
MINIMUM_RAY = (2, 52)
MINIMUM_TEXT = ".".join(map(str, MINIMUM_RAY))
MISSING = ("--ray needs Ray, which is not installed: pip install 'rulelang[ray]' "
           f"(or 'ray[default]>={MINIMUM_TEXT}')")
#: Where the nodes find everything of a job: the package and the schemas beside it, as in a checkout.
PACKAGE = Path(__file__).resolve().parent.parent
LOOPBACK = "127.0.0.1"
#: Longest reason kept from what Ray said, so a failure stays one readable line.
REASON_CHARS = 300


class RayUnavailable(Exception):
    """Ray is not installed, or is too old to be started safely: a usage error."""


class RayFailed(RulelangError):
    """Ray could not start, connect or play the batch: one line, never Ray's traceback."""


def require_ray() -> None:
    """RayUnavailable, with the line to fix it, unless a Ray with token authentication is installed.

    Said before any game is played, and without importing Ray: the local cluster needs its
    settings in the environment before Ray reads them at import.
    """
    if util.find_spec("ray") is None:
        raise RayUnavailable(MISSING)
    found = installed_ray_version()
    if found is None or _version_tuple(found) < MINIMUM_RAY:
        raise RayUnavailable(f"--ray needs Ray {MINIMUM_TEXT} or newer (token authentication), "
                             f"found {found or 'a Ray of unknown version'}: pip install -U 'rulelang[ray]'")


def installed_ray_version() -> str | None:
    """The version pip recorded for Ray, or None when Ray has no metadata."""
    try:
        return metadata.version("ray")
    except metadata.PackageNotFoundError:
        return None


def _version_tuple(version: str) -> tuple[int, int]:
    """(major, minor) of a version such as 2.52.0, 2.60.0rc1 or 3.0.0.dev0; (0, 0) when unreadable."""
    match = re.match(r"(\d+)\.(\d+)", version)
    return (int(match.group(1)), int(match.group(2))) if match else (0, 0)


# --- the job ---------------------------------------------------------------------------

#: Games compiled on a node, by the digest of their spec: a node compiles each spec once.
_COMPILED: dict[str, Game] = {}


def _compiled(key: str, doc: Document, params: dict) -> Game:
    if key not in _COMPILED:
        from rulelang.spec.schema import validate_document

        from ..compiler import compile_game
        validate_document(doc)
        _COMPILED[key] = compile_game(doc, params)
    return _COMPILED[key]


def play_range(key: str, doc: Document, batch: Batch, start: int, stop: int, folder: str) -> list[GameRecord]:
    """Games ``start`` to ``stop - 1`` of the batch: what one Ray task does.

    The task works in ``folder``, the one the command was started in, when the node has it: Ray
    starts it in the job folder, and a policy or agent file may be named by a relative path.
    """
    with contextlib.suppress(OSError):
        if os.getcwd() != folder:
            os.chdir(folder)
    game = _compiled(key, doc, dict(batch.params))
    return [play_game(game, batch, index) for index in range(start, stop)]


def make_job_folder(folder: Path) -> Path:
    """``folder/job``: rulelang's package and its schemas, what every node imports rulelang from."""
    from rulelang.spec.schema import SCHEMA_DIR
    job = folder / "job"
    shutil.copytree(PACKAGE, job / PACKAGE.name, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    (job / "schemas").mkdir()
    for schema in sorted(SCHEMA_DIR.glob("*.schema.json")):
        shutil.copyfile(schema, job / "schemas" / schema.name)
    return job


@contextlib.contextmanager
def private_folder() -> Iterator[Path]:
    """A folder only this user can enter (mkdtemp makes it 0700), removed with all it holds afterwards."""
    folder = Path(tempfile.mkdtemp(prefix="rulelang-ray-"))
    try:
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)


@contextlib.contextmanager
def environment(changes: dict[str, str]) -> Iterator[None]:
    """``os.environ`` with ``changes`` while the block runs (Ray's processes inherit it), as it was after."""
    saved = {name: os.environ.get(name) for name in changes}
    os.environ.update(changes)
    try:
        yield
    finally:
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value


@functools.lru_cache(maxsize=1)
def _process_token() -> str:
    """A random token for the local Rays of this process: Ray's driver keeps the first token it reads
    for the life of the process, so a second local Ray with another token would refuse it."""
    return secrets.token_hex(32)


def local_settings() -> dict[str, str]:
    """The environment of a private local Ray: token authentication with our own token, loopback only.

    A token in RAY_AUTH_TOKEN is used as it is, so Ray writes none to ~/.ray (where it would be
    readable by others). RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER=0 is what keeps Ray from turning
    127.0.0.1 into the machine's outward address; Ray reads it when it is imported.
    """
    return {"RAY_AUTH_MODE": "token", "RAY_AUTH_TOKEN": _process_token(),
            "RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER": "0", "RAY_USAGE_STATS_ENABLED": "0"}


# --- running -----------------------------------------------------------------------------

def run_batch_ray(doc: Document, batch: Batch, address: str | None,
                  progress: Callable[[int], None] | None = None, chunk: int = 100) -> list[GameRecord]:
    """Every game of the batch in index order, played by Ray tasks (a private local Ray when ``address`` is None)."""
    require_ray()
    with private_folder() as folder:
        job = make_job_folder(folder)
        if address is None:
            with environment(local_settings()):
                with _connected(None, job, folder / "ray") as ray:
                    _check_loopback(ray)
                    return _play_all(ray, doc, batch, progress, chunk)
        with environment(address_settings(address)), _connected(address, job, None) as ray:
            return _play_all(ray, doc, batch, progress, chunk)


@contextlib.contextmanager
def _connected(address: str | None, job: Path, temp_dir: Path | None) -> Iterator[Any]:
    """Ray, started for this batch (``address`` None) or connected to ``address``; shut down afterwards."""
    import ray
    if ray.is_initialized():
        raise RayFailed("Ray is already running in this process",
                        hint="simulate --ray starts or connects its own Ray; call ray.shutdown() first")
    options: dict[str, Any] = {"runtime_env": {"working_dir": str(job)}, "include_dashboard": False,
                               "log_to_driver": False, "configure_logging": False}
    if address is None:
        options.update(address="local", _node_ip_address=LOOPBACK, dashboard_host=LOOPBACK,
                       _temp_dir=str(temp_dir))
    else:
        _check_reachable(address)
        options.update(address=address)
    try:
        ray.init(**options)
    except Exception as error:  # noqa: BLE001 - Ray reports a bad address, a refused token, ... as it likes
        ray.shutdown()                                       # whatever it had started
        where = "start a local Ray" if address is None else f"connect to Ray at {_printable(address)}"
        raise RayFailed(f"cannot {where}: {reason(error)}", hint=_HINT) from None
    try:
        yield ray
    finally:
        ray.shutdown()


_HINT = "see 'Beyond one machine: Ray' in docs/simulate.md"
#: Seconds to wait for a cluster's port to answer: Ray itself retries an address that never answers for minutes.
CONNECT_SECONDS = 5


def host_and_port(address: str) -> tuple[str, int] | None:
    """The host and port of a HOST:PORT or ray://HOST:PORT address; None for others (``auto``)."""
    match = re.fullmatch(r"(?:ray://)?\[?([^\[\]/]+?)\]?:(\d{1,5})", address)
    return (match.group(1), int(match.group(2))) if match else None


def address_settings(address: str) -> dict[str, str]:
    """The environment for connecting to ``address``: for a cluster on loopback, the setting that keeps Ray
    from swapping 127.0.0.1 for the machine's outward address (where such a cluster never answers)."""
    where = host_and_port(address)
    if where is not None and (where[0] in ("localhost", "::1") or where[0].startswith("127.")):
        return {"RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER": "0"}
    return {}


def _check_reachable(address: str) -> None:
    """RayFailed at once when nothing answers at a HOST:PORT (or ray://HOST:PORT) address; others are Ray's to read."""
    where = host_and_port(address)
    if where is None:
        return
    host, port = where
    try:
        socket.create_connection((host, port), timeout=CONNECT_SECONDS).close()
    except (OSError, ValueError) as error:
        raise RayFailed(f"cannot connect to Ray at {_printable(address)}: nothing answers there "
                        f"({_printable(str(getattr(error, 'strerror', None) or error))})", hint=_HINT) from None


def _check_loopback(ray: Any) -> None:
    """RayFailed if any node of the local Ray took an address other than loopback (Ray imported too early)."""
    outward = sorted({node.get("NodeManagerAddress", "?") for node in ray.nodes()} - {LOOPBACK})
    if outward:
        raise RayFailed(f"the local Ray listens on {', '.join(outward)}, not only on {LOOPBACK}; stopped it",
                        hint="Ray was imported before rulelang could set it up: run simulate --ray in a "
                             "fresh process")


def _play_all(ray: Any, doc: Document, batch: Batch, progress: Callable[[int], None] | None,
              chunk: int) -> list[GameRecord]:
    """The batch as tasks of ``chunk`` games each, gathered in index order."""
    key = hashlib.sha256(pickle.dumps((doc.data, batch.params))).hexdigest()
    task = ray.remote(play_range)
    records: list[GameRecord] = []
    try:
        shared = ray.put(doc)
        pending = [task.remote(key, shared, batch, start, min(start + chunk, batch.games), os.getcwd())
                   for start in range(0, batch.games, chunk)]
        while pending:
            done, pending = ray.wait(pending, num_returns=1)
            for finished in ray.get(done):
                records.extend(finished)
                if progress is not None:
                    progress(len(finished))
    except ray.exceptions.RayError as error:
        raise RayFailed(f"a Ray task failed: {reason(error)}", hint=_HINT) from None
    records.sort(key=lambda record: record.index)
    return records


def reason(error: BaseException) -> str:
    """What went wrong, in one printable line: the error a task raised on its node, not Ray's wrapping."""
    seen: set[int] = set()
    cause = getattr(error, "cause", None)                # RayTaskError -> what the task raised
    while isinstance(cause, BaseException) and id(error) not in seen:
        seen.add(id(error))
        error, cause = cause, getattr(cause, "cause", None)
    lines = [line.strip() for line in str(error).splitlines() if line.strip()]
    said = lines[0] if lines else "no details"
    text = f"{type(error).__name__}: {said}"
    if len(text) > REASON_CHARS:
        text = text[:REASON_CHARS - 3] + "..."
    return _printable(text)
