"""Conditions whose form lets the card primitives skip asking them.

A card's `target:` that is `target != me`, or begins `target != me and`, and a zone
trigger's `if:` that begins `card is KIND`: when the leftmost conjunct of an `and`
fails, Python asks nothing more, so skipping the whole condition there is exact (no
work charged, no error lost). The engine reads the results off ``CardType`` and the
zone triggers (rulelang/cards.py).
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from .. import nodes as n

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


def card_kind_gate(tree: n.Expr | None, ec: ExprCompiler) -> list[bool] | None:
    """For a zone trigger's checked `if:` beginning `card is KIND` (or `is not`): which card instances
    can pass it (one bool each); None when the condition has another form."""
    first = leftmost(tree)
    if not (isinstance(first, n.IsTest) and bound_name(first.obj) == "card"
            and first.ref is not None and first.ref[0] in _CARD_KINDS):
        return None
    table = ec.member_table(first.ref)
    return [not x for x in table] if first.negated else list(table)


def bound_name(e: n.Expr) -> str | None:
    """The bound name a checked expression is (`target`, `me`, `card`), if it is a bare one."""
    ref = getattr(e, "ref", None)
    return ref[1] if isinstance(e, n.Name) and ref and ref[0] == "local" else None
