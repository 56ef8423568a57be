"""Derived values kept until what they read changes: the end conditions, asked at every `check end`.

Most `check end`s of a game find that nothing has ended, and most of them recompute the same answer:
every player's score, read from zones that did not change since the last check. When the generated
end check (``Program.first_true``) reads nothing but zones, the list of players still in and fixed
data (card properties, the layout's roles and tables), its answers are kept in ``State.end_known``, a
bit for each condition known to be false. A card entering or leaving a zone of a kind that some of them
read sets aside theirs only (``ZoneDecl.ends_read``, their bits, tested in ``cards.move_card``): a
player drawing a card leaves "someone has 21 points" kept, though "the deck is empty" is asked again.
All of them are set aside when a zone is shuffled or refilled, when a player is eliminated, and
whenever play is resumed from outside (``interpreter.run``: tools and scenarios may have set the
state up in between). A condition kept false is not asked, and does none of the work of asking it.

What the check reads is found twice, each time where it is certain: the kinds of zone from the checked
trees (every zone a rule can reach is named by a zone or a player's zone in them, or in a function
they call), and "nothing else" from the generated Python itself, which is exactly what runs.
"""
from __future__ import annotations

import io
import keyword
import tokenize
from typing import Any

from rulelang.lang import nodes as n
from rulelang.lang.refs import RefKind

from .codegen import Unit

#: Helpers the generated end check may call and still be kept: they read the state's zones and the
#: players still in, or nothing of the state at all (metering, errors, counting).
PURE_HELPERS = frozenset({"_live_players", "_live_from", "_next_live", "_over_budget", "_too_big_now",
                          "_zero_division", "_charge", "_metered", "_count_in", "_has"})
#: Python's own functions it may call.
BUILTINS = frozenset({"len", "range", "max", "min", "sum", "any", "all", "list", "zip", "sorted"})
#: What it may read of the state: zones, the seat count, who is out, the work budget it charges, and
#: the layout (fixed for a player count).
STATE_READS = frozenset({"zones", "n", "out", "work", "lay"})
LAYOUT_READS = frozenset({"role_players", "team_players", "tables", "roles"})
#: What a comprehension's function does to the list it builds (``_out``, its own local).
OWN_LIST = frozenset({"append"})


def zones_read(trees: list[n.Expr], function_trees: dict[str, n.Expr]) -> set[str]:
    """The names of the kinds of zone these expressions read, through the functions they call too."""
    names: set[str] = set()
    todo, seen = list(trees), set()
    while todo:
        for node in n.walk(todo.pop()):
            if isinstance(node, n.Attr) and node.ref and node.ref.kind == RefKind.PZONE:
                names.add(node.name)
            elif isinstance(node, n.Name) and node.ref and node.ref.kind == RefKind.ZONE:
                names.add(node.ref.name)
            elif isinstance(node, n.Call) and node.ref and node.ref.kind == RefKind.FUNCTION and node.func not in seen:
                seen.add(node.func)
                if node.func in function_trees:
                    todo.append(function_trees[node.func])
    return names


def _tokens(unit: Unit) -> list[tokenize.TokenInfo]:
    """The names and operators of a unit's source, by Python's own tokenizer: string literals are single
    tokens, so nothing a spec writes in one can pass for code."""
    return [t for t in tokenize.generate_tokens(io.StringIO(unit.source).readline)
            if t.type in (tokenize.NAME, tokenize.OP)]


def reads_locals(unit: Unit) -> bool:
    """Whether a generated unit may read its locals: it reads ``L`` by name, or hands ``L`` to a function that is
    not its own (a closure may read any local). Read from its tokens (``_tokens``)."""
    tokens = [t.string for t in _tokens(unit)]
    own = set(unit.names)
    calls: list[str] = []           # the function of each bracket open here ("" for one that is not a call)
    for k, token in enumerate(tokens):
        if token in ("(", "[", "{"):
            calls.append(tokens[k - 1] if token == "(" and k else "")
        elif token in (")", "]", "}"):
            if calls:
                calls.pop()
        elif token == "L":
            after = tokens[k + 1] if k + 1 < len(tokens) else ""
            if after in ("[", ".") or not calls or calls[-1] not in own:
                return True
    return False


def reads_only_zones(unit: Unit) -> bool:
    """Whether a generated unit reads nothing of the state but zones, the players still in and fixed data:
    its value can change only when one of those does.

    Read from the unit's tokens (``_tokens``): each attribute read must be one of the state's or layout's
    allowed above, no local is read from ``L`` by name, and each call is to one of the unit's functions,
    a pure helper or a builtin, never a closure.
    """
    tokens = _tokens(unit)
    own = set(unit.names)
    for k, token in enumerate(tokens):
        after = tokens[k + 1].string if k + 1 < len(tokens) else ""
        before = tokens[k - 1].string if k else ""
        if token.type == tokenize.OP:
            continue
        name = token.string
        if before == ".":
            owner = tokens[k - 2].string
            allowed = STATE_READS if owner == "st" else LAYOUT_READS if owner == "lay" else \
                OWN_LIST if owner == "_out" else frozenset()
            if name not in allowed:
                return False                     # no other attribute: not a method, not a frame's
        elif name == "L" and after in ("[", "."):
            return False                         # a local read by name (`me`, ...)
        elif after == "(" and not keyword.iskeyword(name) and before != "def":
            if name not in own and name not in PURE_HELPERS and name not in BUILTINS:
                return False                     # a closure (_k<n>) or anything else
    return True


def mark_zones(zones: list[Any], read: list[set[str]]) -> None:
    """Tell each kind of zone which kept end conditions read it, a bit each (``cards.move_card`` asks);
    ``read``: the kinds of zone each condition reads, in order."""
    for decl in zones:
        decl.ends_read = sum(1 << k for k, names in enumerate(read) if decl.name in names)
