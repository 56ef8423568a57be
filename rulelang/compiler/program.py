"""The generated Python of one game: what its expressions and straight-line instructions became.

``ExprCompiler.expr`` and ``StmtCompiler.guarded`` ask this for a function; it writes the
source (``source_expr``, ``source_stmt``), has ``codegen`` compile it, and keeps the text so
`rulelang compile --python` can show a designer what a rule became.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from rulelang.lang import nodes as n

from ..errors import Span
from ..printable import printable
from .codegen import FRAME_LOCALS, READS_LOCALS, Body, Unit, assemble, build, guarded_lines
from .source_expr import ExprSource
from .source_stmt import StmtSource

if TYPE_CHECKING:
    from .expressions import ExprCompiler
    from .statements import StmtCompiler


class Program:
    """Generates, compiles and remembers the Python of one game."""

    def __init__(self, ec: ExprCompiler, sc: StmtCompiler):
        self.expressions = ExprSource(ec)
        self.statements_source = StmtSource(sc, self.expressions)
        self.units: list[tuple[str, Unit]] = []
        self.place = ""

    def expression(self, e: n.Expr) -> Callable | None:
        """``f(state, locals)`` computing ``e``; None where Python would only add a call to the closure:
        a bare name (its closure is as quick), or a node with no source of its own (see ``ExprSource.root``).
        """
        if isinstance(e, n.Name):
            return None
        u = Unit()
        body = u.new_function("expression")          # first: the function build returns
        with self.expressions.own_unit():
            text = self.expressions.root(e, u)
        if text is None:
            return None                                # the unit is dropped unbuilt
        body.line(f"return {text}", e.span)
        function = build(u)
        self.units.append((_where(e.span), u))
        return function

    def targets(self, e: n.Expr) -> Callable:
        """``f(state, me, this, seats)``: the seats of ``seats``, in order, that a card's `target:` condition ``e``
        lets its player choose (``CardType.play_targets``). The loop over the seats and the condition are written
        in one function, which reads `me`, `this` and `target` from Python variables; ``L`` holds them too, as
        the locals of a card play, for what reads them there (an aggregate, a function)."""
        u = Unit()
        body = u.new_function("targets", "st, _me, _this, _seats")
        with self.expressions.own_unit():
            for name, variable in (("me", "_me"), ("this", "_this"), ("target", "_t")):
                self.expressions.keep(name, variable)
            condition = self.expressions.src(e, u)
        needs_locals = READS_LOCALS.search(condition) is not None      # else no dict to make: nothing reads it
        if needs_locals:
            body.line("L = {'me': _me, 'this': _this}")
        body.line("_found = []")
        body.line("for _t in _seats:")
        if needs_locals:
            body.line("    L['target'] = _t")
        body.line(f"    if {condition}:", e.span)
        body.line("        _found.append(_t)", e.span)
        body.line("return _found")
        function = build(u)
        self.units.append((_where(e.span), u))
        return function

    def first_true(self, exprs: list[n.Expr], keeps: Callable[[Unit], bool]) -> tuple[Callable, bool, Unit]:
        """``f(state, locals, known)``: the index of the first of ``exprs`` that holds, or -1 (the end
        conditions, asked in order at every `check end`, in one call); and whether their answers may be
        kept, as ``keeps`` finds from what the unit reads (derived.py). Where they may, those whose bit
        ``known`` sets (known to be false) are not asked; where not, ``known`` is never set, and no line
        tests it. Its unit comes third, for what it reads."""
        u = self._first_true_unit(exprs, gated=False)
        assemble(u)                     # what it reads is read from its source
        kept = keeps(u)
        if kept:
            u = self._first_true_unit(exprs, gated=True)
        function = build(u)
        self.units.append((_where(exprs[0].span if exprs else None), u))
        return function, kept, u

    def _first_true_unit(self, exprs: list[n.Expr], gated: bool) -> Unit:
        u = Unit()
        body = u.new_function("expression", "st, L, _known")
        with self.expressions.own_unit():
            for k, e in enumerate(exprs):
                gate = f"not (_known & {1 << k}) and " if gated else ""
                body.line(f"if {gate}({self.expressions.src(e, u)}):", e.span)
                body.line(f"    return {k}", e.span)
        body.line("return -1")
        return u

    def statements(self, stmts: list[n.Stmt], instruction: bool = False) -> Callable:
        """``f(state, locals)`` running statements that never wait; True when a final `check end` ended the game.

        As an ``instruction`` it is ``op(state, frame)`` instead, reading the locals from the frame.
        """
        u = Unit()
        body = u.new_function("instruction", "st, fr") if instruction else u.new_function("statements")
        if instruction:
            body.line(f"L = {FRAME_LOCALS}")
        with self.expressions.own_unit():
            self.statements_source.block(stmts, body)
        guarded_lines(body)
        function = build(u)
        self.units.append((_where(stmts[0].span if stmts else None), u))
        return function

    def instruction(self, fill: Callable[[Body], None], span) -> Callable:
        """``op(state, frame)`` whose lines ``fill`` writes; a failure is told by the run loop, at ``span``."""
        u = Unit()
        body = u.new_function("instruction", "st, fr")
        body.line(f"L = {FRAME_LOCALS}")
        with self.expressions.own_unit():
            fill(body)
        function = build(u)
        self.units.append((_where(span), u))
        return function

    def source(self) -> str:
        """Every generated function, each under a comment naming the spec line it comes from.

        A comment quotes the spec (a file's name, a constant's words): it is made ``printable``, so a line
        break in what it quotes cannot end the comment and start a line of code.
        """
        parts = []
        for where, u in self.units:
            consts = "".join(f"# {printable(f'{name}: {u.about.get(name) or _describe(value)}')}\n"
                             for name, value in u.constants.items())
            parts.append(f"# {printable(f'from {where}')}\n{consts}{u.source}\n")
        return "\n".join(parts)


def _describe(value: object) -> str:
    """A constant of generated code in a comment: what it is, in a line."""
    if isinstance(value, Span):
        return f"the place {_where(value)}"
    if callable(value):
        return "a rule compiled as a closure (rulelang/compiler/expressions.py, statements.py)"
    if type(value).__repr__ is object.__repr__:     # its address, which changes from run to run
        return f"a {type(value).__name__} of the compiler"
    if isinstance(value, frozenset):                # in a fixed order: a set's own changes with the hash seed
        text = f"the set {{{', '.join(sorted(map(repr, value)))}}}"
    else:
        text = repr(value)
    return text if len(text) <= 100 else text[:97] + "..."


def _where(span) -> str:
    return f"{span.file}:{span.line}:{span.col}" if span is not None else "(generated)"
