"""Lark's parse tree of a rule text to ``nodes`` dataclasses, each with its span in the spec file.

The grammar leaves keywords and brackets out of the tree (see ``grammar.lark``), so a rule's
children are its values in the order written, an optional part missing being None. Each method
takes them as named parameters: a grammar change that adds or drops a value fails loudly here
(a wrong number of arguments) instead of shifting every child after it. A statement kept in one
home (``rulelang/statements/``) has no method here: its node class is built from the rule of its
name, the values given to its fields in order (a NAME as its text), or to its ``from_rule`` when the
rule's values are not its fields one for one; ``nodes.HOME_STATEMENTS`` has
them once ``rulelang.statements`` is imported (the compiler does), so this layer never imports it.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from lark import Token, Transformer, v_args

from rulelang.errors import Locate, Span, SpecError
from rulelang.lang import nodes as n
from rulelang.lang.types import INT64, LITERAL_DIGITS


def _name(token: Token | None) -> str | None:
    """The NAME after an optional `as`, or None when the text gives none."""
    return None if token is None else str(token)


def _comparison(op: str) -> Callable[..., n.Compare]:
    """The method for one comparison rule (`eq`, `lt`...): they differ only in the operator."""
    def build(self: ToNodes, meta, left, right) -> n.Compare:
        return n.Compare(op, left, right, span=self._span(meta))
    return build


@v_args(meta=True, inline=True)
class ToNodes(Transformer):
    """Builds the nodes of one rule text; ``locate`` maps the parser's positions into the spec file."""

    def __init__(self, locate: Locate) -> None:
        super().__init__(visit_tokens=False)
        self.locate = locate

    def _span(self, meta) -> Span:
        if getattr(meta, "empty", False):
            return self.locate(1, 1, None, None)
        return self.locate(meta.line, meta.column, meta.end_line, meta.end_column)

    def _tok_span(self, token: Token) -> Span:
        return self.locate(token.line, token.column, token.end_line, token.end_column)

    def __default__(self, data: str, children: list, meta) -> Any:
        """A rule with no method here: a statement kept in one home (``rulelang/statements/``) of its name."""
        if not n.HOME_STATEMENTS:
            raise RuntimeError("the statements kept in one home are not loaded: import rulelang.statements first")
        node_class = n.HOME_STATEMENTS.get(data)
        if node_class is None:
            return super().__default__(data, children, meta)
        values = [str(c) if isinstance(c, Token) else c for c in children]
        build = getattr(node_class, "from_rule", node_class)
        return build(*values, span=self._span(meta))

    # --- blocks --------------------------------------------------------------

    def block(self, meta, *stmts) -> list[n.Stmt]:
        return list(stmts)

    def expression(self, meta, expr) -> n.Expr:
        return expr

    def body(self, meta, *stmts) -> list[n.Stmt]:
        return list(stmts)

    # --- simple statements ---------------------------------------------------

    def assign(self, meta, target, value) -> n.Assign:
        return n.Assign(target, value, span=self._span(meta))

    def augassign(self, meta, target, op, value) -> n.AugAssign:
        return n.AugAssign(target, str(op), value, span=self._span(meta))

    def move_counter(self, meta, amount, counter, source, dest) -> n.MoveCounter:
        return n.MoveCounter(amount, counter, source, dest, span=self._span(meta))

    def all_amount(self, meta) -> None:
        return None             # `move all ...`: MoveCounter's amount None means all

    def move_cards(self, meta, cards, dest) -> n.MoveCards:
        return n.MoveCards(cards, dest, span=self._span(meta))

    def discard(self, meta, cards) -> n.Discard:
        return n.Discard(cards, span=self._span(meta))

    def draw(self, meta, amount, source, dest) -> n.Draw:
        return n.Draw(amount, source, dest, span=self._span(meta))

    def reveal(self, meta, cards, to) -> n.Reveal:
        return n.Reveal(cards, to, span=self._span(meta))

    def reveal_all(self, meta, cards) -> n.Reveal:
        return n.Reveal(cards, None, span=self._span(meta))

    def roll(self, meta, amount, die, var) -> n.Roll:
        return n.Roll(amount, str(die), str(var), span=self._span(meta), die_span=self._tok_span(die))

    def roll_by(self, meta, player, amount, die, for_player, var) -> n.Roll:
        return n.Roll(amount, str(die), str(var), player, for_player, span=self._span(meta),
                      die_span=self._tok_span(die))

    def choose_in(self, meta, player, target, source, cond, name) -> n.ChooseIn:
        return n.ChooseIn(player, target, source, cond, _name(name), span=self._span(meta))

    def choose_in_publicly(self, meta, player, target, source, cond, name) -> n.ChooseIn:
        return n.ChooseIn(player, target, source, cond, _name(name), public=True, span=self._span(meta))

    def choose_range(self, meta, player, target, low, high, name) -> n.ChooseRange:
        return n.ChooseRange(player, target, low, high, _name(name), span=self._span(meta))

    def secret_choose(self, meta, var, players, players_cond, target, source, cond, name) -> n.SecretChoose:
        return n.SecretChoose(str(var), players, players_cond, target, source, cond, _name(name),
                              span=self._span(meta))

    def play(self, meta, zone, else_discard) -> n.Play:
        return n.Play(zone, else_discard is not None, span=self._span(meta))

    def else_discard(self, meta) -> bool:
        return True

    def check_end(self, meta) -> n.CheckEnd:
        return n.CheckEnd(span=self._span(meta))

    def pass_stmt(self, meta) -> n.Pass:
        return n.Pass(span=self._span(meta))

    def reroll(self, meta, first, in_roll) -> n.Reroll:
        """`reroll R` re-rolls every die of R; `reroll F in R` the one die showing F."""
        if in_roll is None:
            return n.Reroll(first, None, span=self._span(meta))
        return n.Reroll(in_roll, first, span=self._span(meta))

    def add_dice(self, meta, amount, roll) -> n.AddDice:
        return n.AddDice(amount, roll, span=self._span(meta))

    def remove_dice(self, meta, amount, roll) -> n.RemoveDice:
        return n.RemoveDice(amount, roll, span=self._span(meta))

    def change_face(self, meta, face, value, roll) -> n.ChangeFace:
        return n.ChangeFace(face, value, roll, span=self._span(meta))

    def create(self, meta, amount, card, dest) -> n.Create:
        return n.Create(amount, str(card), dest, span=self._span(meta), card_span=self._tok_span(card))

    # --- compound statements -------------------------------------------------

    def elif_clause(self, meta, cond, body) -> tuple[n.Expr, list[n.Stmt]]:
        return (cond, body)

    def else_clause(self, meta, body) -> list[n.Stmt]:
        return body

    def choose_one(self, meta, player, name, *branches) -> n.ChooseOne:
        return n.ChooseOne(player, list(branches), _name(name), span=self._span(meta))

    def choose_one_publicly(self, meta, player, name, *branches) -> n.ChooseOne:
        return n.ChooseOne(player, list(branches), _name(name), public=True, span=self._span(meta))

    def branch(self, meta, label, option_id, cond, body) -> n.Branch:
        return n.Branch(str(label)[1:-1], cond, body, _name(option_id), span=self._span(meta))

    def branch_each(self, meta, var, source, cond, body) -> n.EachBranch:
        return n.EachBranch(str(var), source, cond, body, span=self._span(meta))

    # --- expressions ---------------------------------------------------------

    def cond_expr(self, meta, then, cond, orelse) -> n.CondExpr:
        return n.CondExpr(cond, then, orelse, span=self._span(meta))

    def or_op(self, meta, left, right) -> n.BoolOp:
        return n.BoolOp("or", left, right, span=self._span(meta))

    def and_op(self, meta, left, right) -> n.BoolOp:
        return n.BoolOp("and", left, right, span=self._span(meta))

    def not_op(self, meta, operand) -> n.Not:
        return n.Not(operand, span=self._span(meta))

    eq, ne, lt, le = _comparison("="), _comparison("!="), _comparison("<"), _comparison("<=")
    gt, ge = _comparison(">"), _comparison(">=")

    def member(self, meta, item, container) -> n.Member:
        return n.Member(item, container, span=self._span(meta))

    def not_member(self, meta, item, container) -> n.Member:
        return n.Member(item, container, negated=True, span=self._span(meta))

    def is_test(self, meta, obj, name) -> n.IsTest:
        return n.IsTest(obj, str(name), span=self._span(meta), name_span=self._tok_span(name))

    def is_not_test(self, meta, obj, name) -> n.IsTest:
        return n.IsTest(obj, str(name), negated=True, span=self._span(meta), name_span=self._tok_span(name))

    def has_test(self, meta, zone, name) -> n.HasTest:
        return n.HasTest(zone, str(name), span=self._span(meta), name_span=self._tok_span(name))

    def binop(self, meta, left, op, right) -> n.BinOp:
        return n.BinOp(str(op), left, right, span=self._span(meta))

    def neg(self, meta, operand) -> n.Neg:
        return n.Neg(operand, span=self._span(meta))

    def attr(self, meta, obj, name) -> n.Attr:
        return n.Attr(obj, str(name), span=self._span(meta))

    def index(self, meta, obj, key) -> n.Index:
        return n.Index(obj, key, span=self._span(meta))

    # --- literals and names --------------------------------------------------

    def int(self, meta, token) -> n.Num:
        digits = str(token).lstrip("0") or "0"
        if len(digits) > LITERAL_DIGITS or int(digits) > INT64:    # never int() of thousands of digits
            raise SpecError(f"this number is too large: a rule may write numbers up to {INT64:,}",
                            self._span(meta), "numbers in a game stay within the signed 64-bit range")
        return n.Num(int(digits), span=self._span(meta))

    def string(self, meta, token) -> n.Text:
        return n.Text(str(token)[1:-1], span=self._span(meta))

    def true(self, meta) -> n.Bool:
        return n.Bool(True, span=self._span(meta))

    def false(self, meta) -> n.Bool:
        return n.Bool(False, span=self._span(meta))

    def none(self, meta) -> n.NoneLit:
        return n.NoneLit(span=self._span(meta))

    def name(self, meta, token) -> n.Name:
        return n.Name(str(token), span=self._span(meta))

    def list(self, meta, *items) -> n.ListLit:
        """`[a, b]`; an empty list gives one None placeholder for its optional items."""
        return n.ListLit([item for item in items if item is not None], span=self._span(meta))

    def tuple(self, meta, *items) -> n.TupleLit:
        return n.TupleLit(list(items), span=self._span(meta))

    def list_comp(self, meta, value, *rest) -> n.ListComp:
        """`[VALUE for x in A ... where COND]`: the loops, then the filter (None when absent)."""
        *loops, cond = rest
        return n.ListComp(value, list(loops), cond, span=self._span(meta))

    def comp_for(self, meta, var, source) -> tuple[str, n.Expr]:
        return (str(var), source)

    # --- calls and their arguments -------------------------------------------

    def call(self, meta, func, *args) -> n.Call:
        """`f(a, b)`; no arguments gives one None placeholder."""
        return n.Call(str(func), [arg for arg in args if arg is not None], span=self._span(meta))

    def arg(self, meta, value) -> n.Arg:
        return n.Arg(value, span=self._span(meta))

    def filter_list(self, meta, head, cond) -> n.Call:
        return n.Call("filter", [self._filter_arg(meta, head, cond)], span=self._span(meta))

    def filtered(self, meta, head, cond) -> n.Arg:
        return self._filter_arg(meta, head, cond)

    def _filter_arg(self, meta, head: n.Expr, cond: n.Expr) -> n.Arg:
        """`x in LIST where COND`: the parser read `x in LIST` as a membership test; take it apart."""
        if isinstance(head, n.Member) and not head.negated and isinstance(head.item, n.Name):
            return n.Arg(n.Name(head.item.id, span=head.item.span), var=head.item.id,
                         source=head.container, cond=cond, span=self._span(meta))
        raise SpecError("a filter reads 'x in LIST where CONDITION'", self._span(meta),
                        hint="name the item first, as in count(c in me.hand where c is tool)")

    def generator(self, meta, value, var, source, cond) -> n.Arg:
        return n.Arg(value, var=str(var), source=source, cond=cond, span=self._span(meta))
