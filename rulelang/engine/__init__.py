"""The engine: a compiled game, its states, the run loop, decisions, cards, turns, chance, views.

Each concept has its module (``game``, ``state``, ``interpreter``, ``protocol``, ``cards``, ``turns``,
``views``, ...); import from there. ``from rulelang.engine import Game`` (the old façade module's names)
still works, with a DeprecationWarning naming the new home.
"""
# rewrite_imports: leave
from __future__ import annotations

import importlib
import warnings

_MOVED = {
    "cards": ("answer_card answerers discard_card discard_options discard_zone draw_cards end_roll_durations "
              "kinds_in legal_plays move_card reaction_options refill shuffle_zone zone_of_hand"),
    "game": "Game",
    "rules": "CardType EndCondition Fn Layout Op Phase Proc ZoneDecl assign_roles",
    "rng": "MASK64",
    "seats": "NAMES player_name",
    "interpreter": "FAILURES Frame failure located run",
    "protocol": "Decision DecisionProtocol Option",
    "state": "State set_counter set_player_var",
    "turns": "check_end end_turn start_game",
    "views": "holder_label make_view",
}
_HOME = {name: module for module, names in _MOVED.items() for name in names.split()}


def __getattr__(name: str) -> object:
    """A name of the old ``rulelang.engine`` module, from its home (loaded only when asked: no import cycle)."""
    module = _HOME.get(name)
    if module is None:
        raise AttributeError(f"module 'rulelang.engine' has no attribute {name!r}")
    warnings.warn(f"rulelang.engine.{name} moved to rulelang.engine.{module}.{name}", DeprecationWarning, stacklevel=2)
    return getattr(importlib.import_module(f"rulelang.engine.{module}"), name)
