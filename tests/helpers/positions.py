"""Positions of random games, and everything an object hands out (what an agent could reach)."""
from __future__ import annotations

import random
import types

from rulelang.engine.state import State


def reachable(start: object, limit: int = 300_000) -> list[object]:
    """Every object reached from ``start`` by attributes (public, private or dunder) and container items.

    Code is not data the seat hands out: modules, classes and a function's
    globals are not followed (from them every object of the program is reached);
    a function leads to its closure and defaults, a bound method to its object
    and function. Nothing is called.
    """
    atoms = (int, float, str, bytes, bool, type(None), complex, types.ModuleType, type, types.CodeType,
             types.BuiltinFunctionType, types.MethodWrapperType, types.WrapperDescriptorType,
             types.MethodDescriptorType)
    seen: set[int] = set()
    found: list[object] = []
    todo = [start]
    while todo and len(seen) < limit:
        obj = todo.pop()
        if id(obj) in seen or isinstance(obj, atoms):
            continue
        seen.add(id(obj))
        found.append(obj)
        if isinstance(obj, dict):
            todo.extend(obj.keys())
            todo.extend(obj.values())
        elif isinstance(obj, (list, tuple, set, frozenset)):
            todo.extend(obj)
        elif isinstance(obj, types.MethodType):
            todo.extend((obj.__self__, obj.__func__))
        elif isinstance(obj, types.FunctionType):
            todo.extend((obj.__closure__, obj.__defaults__, obj.__kwdefaults__, obj.__dict__))
        elif isinstance(obj, types.CellType):
            try:
                todo.append(obj.cell_contents)
            except ValueError:          # an empty cell
                pass
        else:
            for name in dir(obj):
                try:
                    todo.append(getattr(obj, name))
                except Exception:  # noqa: BLE001 - a property that cannot be read now leads nowhere
                    continue
    assert len(seen) < limit, "the walk did not finish"
    return found


def random_position(game, players: int, seed: int, moves: int) -> State | None:
    """The game after up to ``moves`` random choices (seeded), or None if it ended by then."""
    state = game.new_state(players, seed)
    rng = random.Random(seed)
    for _ in range(moves):
        if state.over:
            return None
        decision = state.decision()
        chooser = decision.players[0]
        state.apply_index(rng.randrange(len(decision.options[chooser])), chooser)
    return None if state.over else state
