"""Checked statements to instructions ``op(state, frame)`` of a procedure.

Runs of statements that never wait for a decision become one instruction
(``guarded``); decisions, calls and card plays become instructions that can
pause the interpreter and resume with the answer (see ``engine``).

Every statement is compiled by the methods of its home (``rulelang/statements/``): its ``closure``
(for one that never waits) or its ``instruction`` (its own instructions); the tables at the end find
them once, when this module is imported. What several statements share (blocks, jumps, calls for a
value) is here.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rulelang.engine.interpreter import FAILURES, located
from rulelang.engine.state import State, set_counter, set_player_var
from rulelang.lang import nodes as n
from rulelang.lang.refs import RefKind
from rulelang.lang.visitors import Dispatch, require

from .. import statements as homes
from ..errors import Span
from ..statements import roles
from .choices import ChoiceStatements
from .expressions import ExprCompiler, Fn, local_name
from .hooks import HookStatements, Label, goto
from .plays import PlayStatements
from .sites import Sites


class Builder:
    """One procedure's code under construction: instructions, their spans, jumps."""

    def __init__(self, name: str):
        self.name = name
        self.code: list[Callable] = []
        self.spans: list[Span | None] = []
        self.sites: dict = {}           # pc -> the decision its instruction asks (rulelang/model/decisions.py)
        self.exit = Label()          # where `return` goes: the end of the body (set by whoever finishes it)

    def emit(self, op: Callable, span: Span | None) -> int:
        self.code.append(op)
        self.spans.append(span)
        return len(self.code) - 1

    def here(self) -> int:
        return len(self.code)



def _jump_unless(cond: Fn, label: Label) -> Callable:
    def op(st, fr):
        if not cond(st, fr.locals):
            fr.pc = label.pc
    return op


class StmtCompiler(ChoiceStatements, PlayStatements, HookStatements):
    """Turns checked statements into instructions of a ``Builder``."""

    def __init__(self, ec: ExprCompiler, has_triggers: bool = True, roll_hooks: dict | None = None,
                 zone_triggers: frozenset[str] | None = None, action_hooks: dict | None = None):
        self.ec = ec
        self.game = ec.game
        self.hidden = 0
        self.has_triggers = has_triggers
        #: the zones with `enter`/`leave` triggers (None: unknown, so any card move may fire one)
        self.zone_triggers = zone_triggers
        #: die -> (procedures of its `before roll` triggers, of its `after roll` triggers), filled in later
        self.roll_hooks = roll_hooks or {}
        #: Event.BEFORE_DRAW / BEFORE_PLAY -> the procedures of its triggers (filled in later), for a game that has any
        self.action_hooks = action_hooks or {}
        self.sites = Sites(ec.game)
        #: Set by the game compiler: runs of straight-line statements are compiled to Python there.
        self.program = None

    @property
    def place(self):
        """Where the statements being compiled stand: the first part of their decisions' names."""
        return self.sites.place

    @place.setter
    def place(self, value) -> None:
        self.sites.place = value

    #: The name, if an expression is just a local name (``expressions.local_name``), for a statement's home.
    local_name = staticmethod(local_name)

    def fresh(self, what: str) -> str:
        self.hidden += 1
        return f"${what}{self.hidden}"

    def label(self) -> Label:
        """A jump target, for a statement kept in one home (``rulelang/statements/``, which imports no compiler)."""
        return Label()

    def goto(self, label: Label) -> Callable:
        """The instruction that jumps to ``label`` (``hooks.goto``), for a statement kept in one home."""
        return goto(label)

    def block(self, stmts: list[n.Stmt], b: Builder) -> None:
        """Emit a block; runs of straight-line statements become one instruction."""
        run: list[n.Stmt] = []
        for s in stmts:
            if self.is_straight(s):
                run.append(s)
                continue
            if homes.may_end_game(type(s)):     # may end the game: closes a run
                run.append(s)
                self.emit_straight(run, b)
                run = []
                continue
            self.emit_straight(run, b)
            run = []
            _INSTRUCTIONS(self, s, b)
        self.emit_straight(run, b)

    @property
    def moves_fire_nothing(self) -> bool:
        """No card move can fire a trigger: the game has no triggers, or no zone has `enter` or `leave` ones."""
        return not self.has_triggers or self.zone_triggers == frozenset()

    def is_straight(self, s: n.Stmt) -> bool:
        """True for a statement that runs as its closure here, in a run of such statements fused into one
        instruction: it never waits, jumps out or pushes a frame (``statements.runs_straight``, which asks the
        statement: a card move, for one, only when it cannot fire a zone trigger)."""
        return homes.runs_straight(s, self)

    def inline_body(self, stmts: list[n.Stmt]) -> Fn | None:
        """The whole block as one function, if it never waits (a final `check end` is fine)."""
        head = stmts[:-1] if stmts and homes.may_end_game(type(stmts[-1])) else stmts
        if all(self.is_straight(s) for s in head):
            return self.guarded(stmts)
        return None

    def guarded(self, stmts: list[n.Stmt]) -> Fn:
        """Statements run in order; a failure names the statement's span.

        Returns what the last one returns: True when a final `check end` ended the game.
        """
        if self.program is not None:
            return self.program.statements(stmts)
        fs = [self.closure(s) for s in stmts]
        if len(fs) == 1:
            f, span = fs[0], stmts[0].span

            def one(st, L):
                try:
                    return f(st, L)
                except FAILURES as error:
                    raise located(error, span) from None
            return one
        fs = _distinct(fs)
        span_of = {f: s.span for f, s in zip(fs, stmts)}

        def fused(st, L):
            result = f = None
            try:
                for f in fs:        # on a failure, f is the statement that failed: no index to keep
                    result = f(st, L)
            except FAILURES as error:
                raise located(error, span_of.get(f)) from None
            return result
        return fused

    def body(self, stmts: list[n.Stmt]) -> tuple[Fn, Span | None]:
        """The body of a branch or loop, and the span its caller blames a failure on.

        One statement runs bare (its caller's zero-cost ``try`` names it); several
        run fused, each failure already named.
        """
        if len(stmts) == 1:
            return self.closure(stmts[0]), stmts[0].span
        return self.guarded(stmts), None

    def closure(self, s: n.Stmt) -> Fn:
        """The closure ``f(state, locals)`` of one statement that never waits (its ``f_<Class>``)."""
        return _CLOSURES(self, s)

    def emit_straight(self, stmts: list[n.Stmt], b: Builder) -> None:
        if not stmts:
            return
        if self.program is not None:
            b.emit(self.program.statements(stmts, instruction=True), stmts[0].span)
            return
        body = self.guarded(stmts)
        b.emit(lambda st, fr: body(st, fr.locals), stmts[0].span)


    # -- assignment ----------------------------------------------------------------

    def setter(self, target: n.Expr) -> Callable[[State, dict, Any], None]:
        """A function storing a value into a local, a player variable or a counter."""
        game, ec = self.game, self.ec
        if isinstance(target, n.Name):
            name = target.id

            def set_local(st, L, v):
                L[name] = v
            return set_local
        if isinstance(target, n.Index):
            holder, key = ec.holder(target.obj), ec.expr(target.key)
            return lambda st, L, v: set_counter(st, holder(st, L), key(st, L), v)
        kind = target.ref.kind
        obj = ec.expr(target.obj)
        if kind == RefKind.PVAR:
            vi = game.var_names.index(target.name)
            who = local_name(target.obj)
            if who is not None:          # `p.at = ...` for a local p: the commonest target, read directly
                return lambda st, L, v: set_player_var(st, L[who], vi, v)
            return lambda st, L, v: set_player_var(st, obj(st, L), vi, v)
        ci = game.counters.index(target.name)
        holder = ec.holder(target.obj)
        return lambda st, L, v: set_counter(st, holder(st, L), ci, v)

    # -- counters and cards --------------------------------------------------------------

    # -- control flow --------------------------------------------------------------------

    def jump_unless(self, cond: n.Expr, label: Label) -> Callable:
        if self.program is not None:
            source = self.program.statements_source
            return self.program.instruction(lambda out: source.jump_unless(cond, label, out), cond.span)
        return _jump_unless(self.ec.expr(cond), label)



#: Each statement class's closure (``f_<Class>``, or a home statement's ``closure``) and its own instruction
#: (``s_<Class>``, or ``instruction``); a statement with neither fails here, when the compiler is imported.
_CLOSURES = Dispatch(StmtCompiler, "f_", n.Stmt, own="closure")
_INSTRUCTIONS = Dispatch(StmtCompiler, "s_", n.Stmt, own="instruction")
require("the statement compiler", _CLOSURES, _INSTRUCTIONS)


# --- runtime helpers the instructions share --------------------------------------------

def _distinct(fs: list[Fn]) -> list[Fn]:
    """The statements' closures, each object once (a shared one, like ``check_end``, gets a wrapper of its own),
    so a failing statement is told by identity."""
    seen: set[int] = set()
    out = []
    for f in fs:
        if id(f) in seen:
            f = (lambda g: lambda st, L: g(st, L))(f)
        seen.add(id(f))
        out.append(f)
    return out


def _fits_statement_roles(sc: StmtCompiler, b: Builder) -> tuple[roles.Compiler, roles.Instructions]:
    """Never called: mypy checks here that these classes have what a statement home calls on them."""
    return sc, b


def _fits_decision_roles(sc: StmtCompiler) -> roles.Decisions:
    """Never called: mypy checks here that the compiler has the decision machinery a statement home asks for."""
    return sc
