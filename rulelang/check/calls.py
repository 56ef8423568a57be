"""Load-time bounds on a spec's functions (its numbers and cards: ``rulelang.check.spec_bounds``).

What the engine counts while playing (see ``rulelang.engine.limits``) is cheap only
when the spec itself stays in proportion: functions whose calls form a
shallow tree (a function is a value: it may not loop, and a chain of
hundreds of them would overflow Python's stack while playing).
"""
from __future__ import annotations

from rulelang.lang import nodes as n
from rulelang.model.spec import FUNCTION_DEPTH


def function_order(calls: dict[str, list[n.Call]]) -> tuple[list[str], list[tuple[str, n.Call]]]:
    """The functions with every callee before its callers, and the calls that close a loop.

    A loop is reported once, as (a function on it, its call that leads back round
    to it). Iterative, so a long chain of functions cannot overflow the stack.
    """
    order: list[str] = []
    state: dict[str, int] = {}          # 1: on the current path, 2: done
    loops: list[tuple[str, n.Call]] = []
    for root in calls:
        if state.get(root):
            continue
        state[root] = 1
        path: list[list] = [[root, 0]]  # [function, how many of its calls are explored]
        while path:
            step = path[-1]
            made = calls.get(step[0], [])
            if step[1] == len(made):
                path.pop()
                state[step[0]] = 2
                order.append(step[0])
                continue
            callee = made[step[1]].func
            step[1] += 1
            if state.get(callee) == 1:  # back on the path: a loop starting at callee
                name, explored = next(s for s in path if s[0] == callee)
                loops.append((name, calls[name][explored - 1]))
            elif not state.get(callee):
                state[callee] = 1
                path.append([callee, 0])
    return order, loops


def too_deep_functions(order: list[str], calls: dict[str, list[n.Call]]) -> list[tuple[str, n.Call]]:
    """Functions that reach more than FUNCTION_DEPTH functions deep: each with its call that goes deepest."""
    depth: dict[str, int] = {}
    found = []
    for name in order:                  # callees first
        deepest, via = 0, None
        for call in calls.get(name, []):
            d = depth.get(call.func, 0)
            if d > deepest:
                deepest, via = d, call
        depth[name] = deepest + 1
        if depth[name] > FUNCTION_DEPTH and deepest == FUNCTION_DEPTH:    # report where the limit is crossed
            found.append((name, via))
    return found
