"""`simulate --ray [ADDRESS]`: the same batch played on a Ray cluster, or on a local Ray.

Ray is an optional extra (``pip install 'rulelang[ray]'``). Each task plays a
range of game indexes with ``play_game``, the function local workers use, so
game ``i`` still depends on (seed, i) only and the summary is the one
``--workers`` gives. The driver sends the loaded spec (plain data), not a
path: the nodes need rulelang and its dependencies, not the game's files.
rulelang's own package is shipped to the nodes with the job, so a node runs
the driver's version of it.
"""
from __future__ import annotations

import hashlib
import pickle
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ..document import Document
from ..game import Game
from .simulate import Batch, GameRecord, play_game

MISSING = "--ray needs Ray, which is not installed: pip install 'rulelang[ray]' (or 'ray[default]>=2.9')"


class RayUnavailable(Exception):
    """Ray cannot be imported."""


def require_ray() -> Any:
    """The ray module, or RayUnavailable with the line to install it (said before any game is played)."""
    try:
        import ray
    except ImportError:
        raise RayUnavailable(MISSING) from None
    return ray


#: Games compiled on a node, by the digest of their spec: a node compiles each spec once.
_COMPILED: dict[str, Game] = {}


def _compiled(key: str, doc: Document, params: dict) -> Game:
    if key not in _COMPILED:
        from ..compiler import compile_game
        from ..schema import validate_document
        validate_document(doc)
        _COMPILED[key] = compile_game(doc, params)
    return _COMPILED[key]


def play_range(key: str, doc: Document, batch: Batch, start: int, stop: int) -> list[GameRecord]:
    """Games ``start`` to ``stop - 1`` of the batch: what one Ray task does."""
    game = _compiled(key, doc, dict(batch.params))
    return [play_game(game, batch, index) for index in range(start, stop)]


def run_batch_ray(doc: Document, batch: Batch, address: str | None,
                  progress: Callable[[int], None] | None = None, chunk: int = 100) -> list[GameRecord]:
    """Every game of the batch in index order, played by Ray tasks (a local Ray when ``address`` is None)."""
    ray = require_ray()
    started = not ray.is_initialized()
    if started:
        ray.init(address=address, runtime_env={"py_modules": [str(Path(__file__).resolve().parent.parent)]},
                 include_dashboard=False, log_to_driver=False, configure_logging=False)
    try:
        key = hashlib.sha256(pickle.dumps((doc.data, batch.params))).hexdigest()
        task = ray.remote(play_range)
        shared = ray.put(doc)
        pending = [task.remote(key, shared, batch, start, min(start + chunk, batch.games))
                   for start in range(0, batch.games, chunk)]
        records: list[GameRecord] = []
        while pending:
            done, pending = ray.wait(pending, num_returns=1)
            for finished in ray.get(done):
                records.extend(finished)
                if progress is not None:
                    progress(len(finished))
    finally:
        if started:
            ray.shutdown()
    records.sort(key=lambda record: record.index)
    return records
