"""Forms of rule text that let the card primitives skip work: conditions not asked, zones known.

A card's `target:` that is `target != me`, or begins `target != me and`; a zone trigger's
`if:` or a card's `answer: when:` that tests only the kind of `card` (`card is KIND`, with
`and`, `or`, `not`), or begins with such a test and `and`. When the left part of an `and`
fails, Python asks nothing more, so skipping the whole condition there is exact (no work
charged, no error lost). The engine reads the results off ``CardType`` and the zone
triggers (rulelang/engine/cards.py).
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from rulelang.lang import nodes as n
from rulelang.lang.refs import RefKind

if TYPE_CHECKING:

    from .expressions import ExprCompiler

#: `is` tests that a per-card table answers (a card id, a tag, a slot); not roles, teams or kind locals
_CARD_KINDS = ("card", "tag", "slot")


def leftmost(tree: n.Expr | None) -> n.Expr | None:
    """The first conjunct of an `and` chain (the expression itself if it is no `and`)."""
    while isinstance(tree, n.BoolOp) and tree.op == "and":
        tree = tree.left
    return tree


def target_form(tree: n.Expr | None) -> tuple[bool, bool]:
    """(the player is never a target, every other seat is) for a card's checked `target:` condition."""
    first = leftmost(tree)
    if not (isinstance(first, n.Compare) and first.op == "!="
            and {bound_name(first.left), bound_name(first.right)} == {"target", "me"}):
        return False, False
    return True, first is tree


def card_gate(tree: n.Expr | None, ec: ExprCompiler) -> tuple[list[bool] | None, bool]:
    """(which card instances can pass a condition on the bound `card`, whether exactly those do).

    The gate is the table of the condition itself when it reads nothing but `card`'s kind (`is`
    tests joined by `and`, `or`, `not`): then it is exact, and the condition need not be asked.
    Otherwise it is the table of the largest such part on the left of an `and` chain, or None.
    """
    whole = card_table(tree, ec)
    if whole is not None:
        return whole, True
    part = tree
    while isinstance(part, n.BoolOp) and part.op == "and":
        part = part.left
        table = card_table(part, ec)
        if table is not None:
            return table, False
    return None, False


def card_table(e: n.Expr | None, ec: ExprCompiler) -> list[bool] | None:
    """One bool per card instance: ``e``'s value with `card` bound to it, if ``e`` reads nothing else."""
    if isinstance(e, n.IsTest):
        if bound_name(e.obj) != "card" or e.ref is None or e.ref.kind not in _CARD_KINDS:
            return None
        table = ec.member_table(e.ref)
        return [not x for x in table] if e.negated else list(table)
    if isinstance(e, n.Not):
        table = card_table(e.operand, ec)
        return None if table is None else [not x for x in table]
    if isinstance(e, n.BoolOp) and e.op in ("and", "or"):
        left, right = card_table(e.left, ec), card_table(e.right, ec)
        if left is None or right is None:
            return None
        if e.op == "and":
            return [a and b for a, b in zip(left, right)]
        return [a or b for a, b in zip(left, right)]
    return None


def bound_name(e: n.Expr) -> str | None:
    """The bound name a checked expression is (`target`, `me`, `card`), if it is a bare one."""
    ref = getattr(e, "ref", None)
    return ref.name if isinstance(e, n.Name) and ref and ref.kind == RefKind.LOCAL else None

