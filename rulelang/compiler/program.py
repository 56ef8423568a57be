"""The generated Python of one game: what its expressions and straight-line instructions became.

``ExprCompiler.expr`` and ``StmtCompiler.guarded`` ask this for a function; it writes the
source (``source_expr``, ``source_stmt``), has ``codegen`` compile it, and keeps the text so
`rulelang compile --python` can show a designer what a rule became.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from rulelang.lang import nodes as n

from ..errors import Span
from ..printable import printable
from .codegen import FRAME_LOCALS, HELPERS, READS_LOCALS, Body, Unit, assemble, build, guarded_lines, listing
from .naming import FunctionNames, declaration_name
from .source_expr import ExprSource
from .source_stmt import StmtSource

if TYPE_CHECKING:
    from .expressions import ExprCompiler
    from .statements import StmtCompiler

#: ``lines(span)``: the source lines a span covers, as its file holds them (``Document.lines_of``).
SourceLines = Callable[[Span], list[str]]
#: The most lines of rule text quoted above one function (a whole step's block may be long).
MAX_QUOTED = 8


class Program:
    """Generates, compiles and remembers the Python of one game."""

    def __init__(self, ec: ExprCompiler, sc: StmtCompiler, data: Any = None, lines: SourceLines | None = None):
        self.expressions = ExprSource(ec)
        self.statements_source = StmtSource(sc, self.expressions)
        self.units: list[tuple[str, Unit]] = []
        self.place = ""
        self.data = data
        self.lines = lines
        #: every function's name so far; the namespace's own names are never given
        self.names = FunctionNames()
        self.names.taken.update(HELPERS)
        #: the declaration whose rule texts are being compiled, as function names start (``declare``)
        self.declaration = "rules"
        #: whether that rule text is an expression of its own (`when:`, `target:`): its function is named after
        #: it alone; an expression inside statements is ``..._expression``
        self.of_expression = False

    def declare(self, path: tuple, expression: bool = False) -> str:
        """Functions made from now on belong to the rule text at ``path`` of the spec: they are named after it."""
        self.declaration, self.of_expression = declaration_name(self.data, path), expression
        return self.declaration

    def declare_name(self, name: str) -> None:
        """Functions made from now on belong to statements of the declaration named ``name`` (``declare``)."""
        if name:
            self.declaration, self.of_expression = name, False

    def unit(self, part: str = "", declaration: str | None = None) -> Unit:
        """A new unit whose first function is named after the current declaration (or ``declaration``), then
        ``part`` (``instruction``), unique in the game."""
        base = declaration or self.declaration
        return Unit(name=self.names.fresh(f"{base}_{part}" if part else base))

    def add(self, u: Unit, first: Span | None, last: Span | None = None, note: str = "") -> None:
        """A built unit, listed under the rule text from ``first`` to the end of ``last`` (or of ``first``)."""
        where = f"{_where(first)} {note}" if first is not None and note else note or _where(first)
        u.quoted = self.quote(first, last or first)
        self.units.append((where, u))

    def quote(self, first: Span | None, last: Span | None) -> list[str]:
        """The rule text's lines from ``first`` to the end of ``last`` (at most ``MAX_QUOTED``), dedented; none
        when its file's text is not at hand."""
        if first is None or last is None:
            return []
        end = Span(first.file, first.line, first.col, max(last.end_line or last.line, first.line), None,
                   text=first.text)
        found = self.lines(end) if self.lines is not None else ([first.text] if first.text is not None else [])
        while found and not found[-1].strip():      # a block's span may end at the start of the next line
            found = found[:-1]
        shown = found[:MAX_QUOTED] + (["..."] if len(found) > MAX_QUOTED else [])
        indent = min((len(line) - len(line.lstrip(" ")) for line in shown if line.strip()), default=0)
        return [line[indent:].rstrip() for line in shown]

    def expression(self, e: n.Expr) -> Callable | None:
        """``f(state, locals)`` computing ``e``; None where Python would only add a call to the closure:
        a bare name (its closure is as quick), or a node with no source of its own (see ``ExprSource.root``).
        """
        if isinstance(e, n.Name):
            return None
        u = self.unit("" if self.of_expression else "expression")
        body = u.new_function("expression")          # first: the function build returns
        with self.expressions.own_unit():
            text = self.expressions.root(e, u)
        if text is None:
            self.names.taken.discard(u.name)          # the unit is dropped unbuilt: its name is free again
            return None
        body.line(f"return {text}", e.span)
        function = build(u)
        self.add(u, e.span)
        return function

    def targets(self, e: n.Expr) -> Callable:
        """``f(state, me, this, seats)``: the seats of ``seats``, in order, that a card's `target:` condition ``e``
        lets its player choose (``CardType.play_targets``). The loop over the seats and the condition are written
        in one function, which reads `me`, `this` and `target` from Python variables; ``L`` holds them too, as
        the locals of a card play, for what reads them there (an aggregate, a function)."""
        u = self.unit("targets")
        body = u.new_function("targets", "st, _me, _this, _seats")
        with self.expressions.own_unit():
            for name, variable in (("me", "_me"), ("this", "_this"), ("target", "_t")):
                self.expressions.keep(name, variable)
            condition = self.expressions.src(e, u)
        said, u.pending = u.pending, []                                 # what the condition reads: on its line
        needs_locals = READS_LOCALS.search(condition) is not None      # else no dict to make: nothing reads it
        if needs_locals:
            body.line("L = {'me': _me, 'this': _this}")
        body.line("_found = []")
        body.line("for _t in _seats:")
        if needs_locals:
            body.line("    L['target'] = _t")
        u.pending = said
        body.line(f"    if {condition}:", e.span)
        body.line("        _found.append(_t)", e.span)
        body.line("return _found")
        function = build(u)
        self.add(u, e.span)
        return function

    def first_true(self, exprs: list[n.Expr], keeps: Callable[[Unit], bool]) -> tuple[Callable, bool, Unit]:
        """``f(state, locals, known)``: the index of the first of ``exprs`` that holds, or -1 (the end
        conditions, asked in order at every `check end`, in one call); and whether their answers may be
        kept, as ``keeps`` finds from what the unit reads (derived.py). Where they may, those whose bit
        ``known`` sets (known to be false) are not asked; where not, ``known`` is never set, and no line
        tests it. Its unit comes third, for what it reads."""
        name = self.names.fresh("end_conditions")
        u = self._first_true_unit(exprs, gated=False, name=name)
        assemble(u)                     # what it reads is read from its source
        kept = keeps(u)
        if kept:
            u = self._first_true_unit(exprs, gated=True, name=name)
        function = build(u)
        self.add(u, exprs[0].span if exprs else None, exprs[-1].span if exprs else None)
        return function, kept, u

    def _first_true_unit(self, exprs: list[n.Expr], gated: bool, name: str) -> Unit:
        u = Unit(name=name)
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
        u = self.unit("instruction" if instruction else "statements")
        body = u.new_function("instruction", "st, fr") if instruction else u.new_function("statements")
        if instruction:
            body.line(f"L = {FRAME_LOCALS}")
        with self.expressions.own_unit():
            self.statements_source.block(stmts, body)
        guarded_lines(body)
        function = build(u)
        self.add(u, stmts[0].span if stmts else None, stmts[-1].span if stmts else None)
        return function

    def instruction(self, fill: Callable[[Body], None], span) -> Callable:
        """``op(state, frame)`` whose lines ``fill`` writes; a failure is told by the run loop, at ``span``."""
        u = self.unit("instruction")
        body = u.new_function("instruction", "st, fr")
        body.line(f"L = {FRAME_LOCALS}")
        with self.expressions.own_unit():
            fill(body)
        function = build(u)
        self.add(u, span)
        return function

    def source(self) -> str:
        """Every generated function, each under a comment naming the spec line it comes from and quoting its
        rule text, each line saying what of the state it reads (``codegen.listing``).

        A comment quotes the spec (a file's name, its rule text, a constant's words): it is made ``printable``,
        so a line break in what it quotes cannot end the comment and start a line of code.
        """
        parts = []
        for where, u in self.units:
            consts = "".join(f"# {printable(f'{name}: {u.about.get(name) or _describe(value)}')}\n"
                             for name, value in u.constants.items())
            quoted = "".join(f"#   | {printable(line)}\n" for line in u.quoted)
            parts.append(f"# {printable(f'from {where}')}\n{quoted}{consts}{listing(u)}\n")
        return "\n".join(parts)


def _describe(value: object) -> str:
    """A constant of generated code in a comment: what it is, in a line."""
    if isinstance(value, Span):
        return f"the place {_where(value)}"
    if callable(value):
        return "a rule compiled as a closure (rulelang/compiler/expressions.py, statements.py)"
    if type(value).__repr__ is object.__repr__:     # its address, which changes from run to run
        return f"a {type(value).__name__} of the compiler"
    text = _stable_repr(value)
    if isinstance(value, frozenset):
        text = f"the set {text}"
    return text if len(text) <= 100 else text[:97] + "..."


def _stable_repr(value: object) -> str:
    """``repr`` of a constant, the same on every run: a closure or an object shown by its address, inside a list or
    a tuple, by its kind; a set's elements in a fixed order (its own order changes with the hash seed)."""
    if isinstance(value, (list, tuple)):
        items = ", ".join(map(_stable_repr, value))
        return f"[{items}]" if isinstance(value, list) else f"({items}{',' if len(value) == 1 else ''})"
    if isinstance(value, frozenset):
        return "{" + ", ".join(sorted(map(_stable_repr, value))) + "}"
    if callable(value):
        return "<a closure>"
    if type(value).__repr__ is object.__repr__:
        return f"<a {type(value).__name__}>"
    return repr(value)


def _where(span) -> str:
    return f"{span.file}:{span.line}:{span.col}" if span is not None else "(generated)"
