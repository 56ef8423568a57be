"""rulelang: a declarative rules language for card and dice games.

The public face: ``load_game``, ``Game``, ``State``, ``Decision``, ``Option`` and the errors. The stages a
game goes through are ``pipeline`` (read -> mods -> schema -> model -> parse -> check -> compile), each a
package: ``spec`` (reading files, YAML, schema), ``mods``, ``model``, ``lang`` (the rule language),
``check``, ``compiler``; the game then runs in ``engine``; ``logs``, ``agents``, ``testing``, ``lab``,
``adapters`` and ``cli`` are built on those (docs/architecture.md).
"""
from __future__ import annotations

from typing import TYPE_CHECKING

import rulelang.logs.saves  # noqa: F401 - hands State.from_json its loader of saved games
import rulelang.statements  # noqa: F401 - fills the parser's table of the statements kept in one home
from rulelang import moved
from rulelang.engine.game import Game
from rulelang.engine.protocol import Decision, Option
from rulelang.engine.state import State
from rulelang.errors import RuleError, RulelangError, Span, SpecError
from rulelang.model.params import ParamError

if TYPE_CHECKING:
    from rulelang.pipeline import load_game

__all__ = ["load_game", "Game", "State", "Decision", "Option", "RulelangError", "SpecError", "RuleError",
           "Span", "ParamError"]
__version__ = "0.1.0"

moved.install()            # rulelang.sim, .saves and .chance, the first layout's paths (moved.py)


def __getattr__(name: str) -> object:
    """``load_game`` from the pipeline, imported when first asked for: ``import rulelang`` stays light."""
    if name == "load_game":
        from rulelang.pipeline import load_game
        return load_game
    raise AttributeError(f"module 'rulelang' has no attribute {name!r}")
