"""rulelang: a declarative rules language for card and dice games.

The pipeline, one module per stage: ``loader`` (a game's YAML files with
positions: ``files`` reads them safely, ``yamlfile`` turns each into data,
``document`` keeps where each value came from) ->
``schema`` (structure) -> ``parser`` (rule texts to ``nodes``) -> ``check``
(names and types) -> ``compiler`` (a small package: expressions and
statements to closures, the spec to a ``Game``) -> ``engine`` (states,
decisions, events) -> ``agents``, ``sim``, ``narrate``, ``scenario``, ``cli``.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

from rulelang.engine.game import Game
from rulelang.engine.protocol import Decision, Option
from rulelang.engine.state import State
from rulelang.model.params import ParamError

from .errors import RuleError, RulelangError, Span, SpecError

__all__ = ["load_game", "Game", "State", "Decision", "Option", "RulelangError", "SpecError", "RuleError",
           "Span", "ParamError"]
__version__ = "0.1.0"


def load_game(path: str | Path, mods: Sequence[str | Path] = (),
              params: Mapping[str, object] | None = None) -> Game:
    """Load, check and compile the game in a folder (or a game.yaml), with mod files laid over it in order.

    ``params`` sets the game's declared params for this instance (the rest keep their defaults); a value
    the game refuses raises ``ParamError`` (a ValueError) naming the param and its bounds.
    """
    from rulelang.spec.loader import load_document
    from rulelang.spec.schema import validate_document

    from .compiler import compile_game

    doc = load_document(path, mods=mods)
    validate_document(doc, remember=True)
    game = compile_game(doc, params)
    game.mod_paths = [str(mod) for mod in mods]
    return game
