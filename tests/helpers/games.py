"""The checkout's games, loaded once a session and shared by every test that plays them unchanged.

Loading flapjacks (read, check, compile) takes a good part of a second and dozens of test modules play
the same few games: each load they share is time off the fast tier. A ``Game`` is not changed by
playing it (each game played is its own ``State``), so sharing one is safe. A test that changes the
game it loaded (its params, its mod paths, an attribute), or patches the loader or the compiler before
loading (the game would be compiled with the patch, and kept), loads its own with ``rulelang.load_game``.
"""
from __future__ import annotations

import functools

import rulelang
from rulelang.engine.speedups import ALL_ON, Speedups

from . import ROOT


@functools.cache
def shipped(folder: str, mods: tuple[str, ...] = (), speedups: Speedups = ALL_ON) -> rulelang.Game:
    """The game in ``folder`` (a path under the checkout, as ``games/flapjacks``) with ``mods`` laid over it
    in order, with ``speedups``: loaded the first time it is asked for, the same object every time after."""
    return rulelang.load_game(ROOT / folder, mods=[ROOT / mod for mod in mods], speedups=speedups)
