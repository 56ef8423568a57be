"""Steps played in place: each step and procedure as one Python function, for games answered in place.

The instructions of ``statements.py`` can stop at any decision and resume from plain data: a program
counter and locals in a frame. That costs a trip through the run loop for every few statements. When
every seat's agent answers where the rules ask (``State.autopick``, set by ``agents.play_out`` for
agents that pick by count alone), nothing ever stops inside a step, so a step can run as ordinary
Python: its loops are Python loops, its branches Python branches, its procedure calls Python calls.
This module writes that second form of each step and procedure from the same checked trees:

- straight-line statements: the very lines ``source_stmt`` writes for the instructions;
- `if`, `for each` and `while` holding decisions: Python control flow around bodies written the same way;
- a call of a procedure that has a function of its own: a Python call (``interpreter.call_in_place``),
  with a frame on the stack as a marker, so call depth and `end turn` work as they do for frames;
- decisions (``direct_decisions.py``): asked through the parts of their instruction (``interpreter.decide``,
  ``decide_secretly``), a secret choice among fixed options written out; a card's play: its choice, then
  ``plays.rest_in_place``;
- every other statement (`end turn`, a skip, a card move that fires triggers, a call for a procedure's
  value, ...): its usual instructions, one run where it stands (``interpreter.instruction_in_place``)
  or several as a procedure of their own, run to their end by ``interpreter.run_within`` on the same
  locals. Those instructions are the reference; nothing is written twice.

A procedure that `return`s, or whose statements use a procedure's value, keeps only its frames (its
instructions jump to labels and pass values through the stack). The turn loop (``turns.call_step``)
plays a step in place only while ``State.autopick`` is set; otherwise the frames run as always. The
same game comes out either way, byte for byte: ``tests/equivalence/test_direct.py``.

A direct function returns True when play must stop: the game is over, or the turn was unwound to the
turn loop (`end turn`, a skip on one's own turn), which then goes on from where the unwinding left it.
"""
from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, NamedTuple

from rulelang.engine import records
from rulelang.engine.interpreter import Frame
from rulelang.lang import nodes as n
from rulelang.lang.refs import RefKind

from .. import statements as homes
from ..statements import roles
from ..statements.call_stmt import CallStmt
from ..statements.choose_in import ChooseIn
from ..statements.choose_range import ChooseRange
from ..statements.play import Play
from ..statements.return_stmt import Return
from ..statements.secret_choose import SecretChoose
from .codegen import READS_LOCALS, Body, build, guarded_lines, hoist_state_lists
from .direct_decisions import DirectDecisions
from .source_stmt import MAX_DEPTH
from .statements import Builder

if TYPE_CHECKING:
    from rulelang.engine.game import Game

    from .program import Program
    from .statements import StmtCompiler

#: A line that reads ``_n``, the depth of the stack where a step or function started.
_READS_DEPTH = re.compile(r"(?<![\w.'\"])_n\b")
#: ``instructions(stmts)``: statements compiled to instructions once more, without their decision sites.
Compile = Callable[[list[n.Stmt]], Builder]
#: ``register(builder)``: instructions made a procedure of the game; its index.
Register = Callable[[Builder], int]
#: Decisions that compile to one instruction, asked through its parts (``DirectCompiler.decision``).
ONE_INSTRUCTION = (ChooseIn, ChooseRange, SecretChoose)


def plays_in_place(stmts: list[n.Stmt]) -> bool:
    """Whether a block can have a direct function: it never `return`s and uses no procedure's value.

    Both work through the stack (a jump to the end of the frame, a value left in the caller's frame),
    and a procedure's value is compiled once only (``hooks.emit_value_calls`` marks the call).
    """
    statement_calls = {id(node.call) for node in n.walk(stmts) if isinstance(node, CallStmt)}
    for node in n.walk(stmts):
        if isinstance(node, Return):
            return False
        if isinstance(node, n.Call) and node.ref and node.ref.kind in (RefKind.PROCEDURE, RefKind.HOISTED) \
                and id(node) not in statement_calls:
            return False
    return True


def _line_reads_locals(line: str) -> bool:
    """Whether a generated line reads or hands on ``L``; a line made a comment or a ``pass`` runs nothing."""
    code = line.lstrip()
    return not code.startswith(("#", "pass  #")) and READS_LOCALS.search(code) is not None


def drop_late_binds(body: Body, start: int) -> None:
    """In a step of a whole turn, from line ``start`` on: when nothing but the lines binding a loop's name after
    the loop (``Body.late_binds``) reads ``L``, those do nothing, since the step's locals are dropped at its
    end, and become a ``pass``."""
    late = [k for k in body.late_binds if k >= start]
    if late and not any(_line_reads_locals(line) for k, line in enumerate(body.lines[start:], start)
                        if k not in late):
        for k in late:
            body.pass_instead(k, "nothing after it reads the name")


class DirectCompiler(DirectDecisions):
    """Writes the direct function of each step and procedure (see the module's docstring)."""

    def __init__(self, sc: StmtCompiler, program: Program, game: Game, instructions: Compile, register: Register,
                 cards_in_place: bool = True):
        self.sc = sc
        self.program = program
        self.source = program.statements_source
        self.xs = program.expressions
        self.game = game
        self.instructions = instructions
        self.register = register
        #: proc index -> its direct function (None: frames only); generated calls read it when they run
        self.table: list[Callable | None] = []
        #: proc index -> its marker (``marker``), made once every procedure is compiled; read as ``table`` is
        self.markers: list[Frame] = []
        #: the procedures that will have a direct function (a call to one is a Python call)
        self.direct_procs: set[int] = set()
        #: a card's play as its choice then ``plays.rest_in_place`` (a speed-up: card forms); off, its
        #: instructions run to their end (``_within``)
        self.cards_in_place = cards_in_place

    def function(self, parts: Parts) -> Callable:
        """``direct(st, L)``: the statements in order, between the instructions that come before and after
        them; True when play must stop."""
        self.program.declare_name(parts.name)
        u = self.program.unit("in_place")
        body = u.new_function("direct")
        body.line("_n = len(st.stack)")
        with self.xs.own_unit():
            self.given_locals(parts, body)
            self.parts_lines(parts, body)
        hoist_state_lists(body)
        guarded_lines(body)
        function = build(u)
        first, last = _span_of(parts.stmts)
        self.program.add(u, first, last, note="(played in place)")
        return function

    def parts_lines(self, parts: Parts, out: Body) -> None:
        """A procedure's or a step's lines: its statements, between the instructions before and after them."""
        for op, span in parts.prefix:
            self.instruction(op, span, out)
        self.block(parts.stmts, out)
        for op, span in parts.suffix:
            self.instruction(op, span, out)

    def given_locals(self, parts: Parts, out: Body) -> None:
        """The locals every call of the function is given (``Parts.given``) that its statements read more than
        once: read from ``L`` once, at the start, into Python variables (until a statement binds one again,
        ``ExprSource.forget``)."""
        if not parts.given:
            return
        reads = Counter(node.id for node in n.walk(parts.stmts)
                        if isinstance(node, n.Name) and node.ref is not None and node.ref.kind == RefKind.LOCAL)
        for name in parts.given:
            if reads[name] > 1:
                variable = out.unit.temp("given")
                out.line(f"{variable} = L[{name!r}]")
                self.xs.keep(name, variable)

    def turn(self, steps: list[PhaseStep], seat: bool) -> Callable:
        """``turn(st)``: a phase's whole turn, every step written out in order in one function, as
        ``turns.begin_turn`` played them one call each: the step's record, its own locals (`me`, in a phase
        played by seat), and, for a step with frames, a finished frame of it on the stack as a marker (see
        ``call_in_place``). True when play must stop."""
        u = self.program.unit("whole_turn", steps[0].parts.name if steps and steps[0].parts.name else "phase")
        body = u.new_function("turn", "st")
        step = u.constant(records.step, "the record of a step")
        if seat:
            body.line("_me = st.active")
        for k, (name, parts, proc) in enumerate(steps):
            self.sc.place = parts.place
            self.program.declare_name(parts.name)
            if k == 0:
                body.record(f"({step}, st.turn, {name!r})")
            else:       # in the turn of the entry before it: one record for every turn (records.later_step)
                record = u.constant((records.later_step, name), f"the record of step {name!r}")
                body.record(record, note=f"   # step {name!r}")
            made = len(body.lines)
            body.line("L = {'me': _me}" if seat else "L = {}")
            if proc is not None:
                body.line(f"st.stack.append({u.constant(marker(self.game, proc), 'the marker of a step')})")
            depth = len(body.lines)
            body.line("_n = len(st.stack)")
            with self.xs.own_unit():
                if seat:
                    self.xs.keep("me", "_me")      # nothing binds `me`: the seat whose turn it is
                self.parts_lines(parts, body)
            if proc is not None:
                body.line("st.stack.pop()")
            drop_late_binds(body, made + 1)
            if not any(_line_reads_locals(line) for line in body.lines[made + 1:]):
                body.comment_out(made)      # nothing of this step reads its locals: no dict to make
            if not any(_READS_DEPTH.search(line) for line in body.lines[depth + 1:]):
                body.comment_out(depth)     # nor the depth of the stack where it started
        hoist_state_lists(body)
        guarded_lines(body)
        function = build(u)
        first, last = _span_of(steps[0].parts.stmts) if steps else (None, None)
        self.program.add(u, first, last, note="(a whole turn from this step, played in place)")
        return function

    def instruction(self, op: Callable, span, out: Body) -> None:
        """One instruction run where it stands (``interpreter.instruction_in_place``); one that never asks and
        says what it does on the locals (``op.acts``: a card placed or discarded as it is played) is done
        without a frame, and what it fired after it."""
        acts = getattr(op, "acts", None)
        if acts is not None:
            out.line(f"{out.unit.constant(acts, 'what an instruction does')}(st, L)", span)
            self.run_fired(span, out)
            return
        out.line(f"if _op(st, {out.unit.constant(op, 'an instruction')}, L, _n):", span)
        out.line("    return True", span)

    def run_fired(self, span, out: Body) -> None:
        """After a statement that may fire triggers (a card moved): run what it fired or pushed, if anything
        (``interpreter.fired_in_place``). Every statement starts with the stack as the function found it."""
        out.line("if st.fired or len(st.stack) > _n:", span)
        out.line("    if _fired(st, _n, _n):", span)
        out.line("        return True", span)

    def block(self, stmts: list[n.Stmt], out: Body) -> None:
        for s in stmts:
            self.xs.forget(s)
            self.statement(s, out)

    def statement(self, s: n.Stmt, out: Body) -> None:
        sc = self.sc
        if homes.may_end_game(type(s)):     # its own lines: play stops when the game is over
            s.in_place(self, out)
        elif sc.is_straight(s):
            self.source.block([s], out)
        elif out.depth > MAX_DEPTH or sc.has_value_calls(s):
            self.in_frames(s, out)
        elif callable(getattr(s, "in_place", None)):    # a home statement's own lines (rulelang/statements/)
            s.in_place(self, out)
        else:
            self.in_frames(s, out)

    def moved_cards(self, s: n.Stmt, out: Body) -> None:
        """A card move written out where it may fire zone triggers: what it fired runs right after it."""
        self.source.block([s], out)
        self.run_fired(s.span, out)

    def unwound(self, span, out: Body) -> None:
        """After a statement that may end the turn: play stops when the stack was unwound below this function."""
        out.line("if len(st.stack) < _n:", span)
        out.line("    return True", span)

    def body(self, stmts: list[n.Stmt], out: Body) -> None:
        with out.indented(), self.xs.block_scope():
            self.block(stmts, out)
            if not stmts:
                out.line("pass")

    def in_frames(self, s: n.Stmt, out: Body) -> None:
        """A statement with no direct form of its own, by its instructions: a decision of one instruction
        asked through its parts; one instruction run where it stands; a card's play as its choice, then
        ``rest_in_place``; several instructions as a procedure of their own, run to their end on these
        locals."""
        b = self.instructions([s])
        if isinstance(s, ONE_INSTRUCTION) and len(b.code) == 1:
            self.decision(b.code[0], s.span, out)
            return
        if len(b.code) == 1:
            self.instruction(b.code[0], s.span, out)
            return
        choose = b.code[0]
        if isinstance(s, Play) and self.cards_in_place and hasattr(choose, "rest_in_place"):
            # choose, then declare, react and resolve in one call (plays.py; not with a `before play` trigger)
            self.decision(choose, s.span, out)
            out.line(f"if {out.unit.constant(choose.rest_in_place, 'a card declared, answered, resolved')}"
                     "(st, L, _n):", s.span)
            out.line("    return True", s.span)
            return
        out.line(f"if _within(st, {self.register(b)}, L, _n):", s.span)
        out.line("    return True", s.span)


@dataclass
class Parts:
    """What a procedure's instructions were made of: its statements, where they stand (for the names of
    its decisions), and the instructions before and after them ((op, span) pairs: a card's play puts the
    card in place first, and runs its `resolve` triggers after)."""

    stmts: list
    place: Any
    prefix: list = field(default_factory=list)
    suffix: list = field(default_factory=list)
    #: the locals every call gives it: a procedure's parameters, a card play's `me`, `target` and `this`
    given: tuple[str, ...] = ()
    #: the name of its declaration, as its functions' names start (compiler/naming.py)
    name: str = ""


class PhaseStep(NamedTuple):
    """A step of a phase, for its whole turn played in place: its name, its statements, and the procedure
    its frames run (None: a step that never waits, run with no frame)."""

    name: str
    parts: Parts
    proc: int | None


def compile_direct(gc, sc: StmtCompiler, program: Program, procedures: dict[int, Parts],
                   steps: dict[str, Parts], phases: list[list[PhaseStep] | None]
                   ) -> tuple[dict[str, Callable], list[Callable | None]]:
    """The direct functions of a game: each procedure's that can have one (into ``game.direct``), each
    framed step's, by step name, and each phase's whole turn (``DirectCompiler.turn``; None where a step
    cannot be played in place), for the turn loop.

    ``gc`` is the game compiler (``new_proc``, ``finish``); ``procedures`` maps a procedure's index
    (those called by name, and cards' plays) to its parts; ``steps`` maps a framed step's name to its
    parts; ``phases`` lists every step of each phase.
    """
    game = gc.game

    def instructions(stmts: list[n.Stmt]) -> Builder:
        """Statements as instructions once more; the decision sites they record are dropped (the
        statements' own instructions have them already, and nothing waits in a step played in place)."""
        known = {name: len(sites) for name, sites in game.decisions.items()}
        b = Builder(f"{sc.place.where} (played in place)")
        sc.block(stmts, b)
        b.exit.pc = b.here()
        b.sites = {}
        for name in list(game.decisions):
            if name not in known:
                del game.decisions[name]
            else:
                del game.decisions[name][known[name]:]
        return b

    def register(b: Builder) -> int:
        index = gc.new_proc(b.name)
        gc.finish(index, b)
        return index

    dc = DirectCompiler(sc, program, game, instructions, register, cards_in_place=gc.speedups.card_forms)
    dc.direct_procs = {index for index, parts in procedures.items() if plays_in_place(parts.stmts)}
    functions: dict[int, Callable] = {}
    for index in sorted(dc.direct_procs):
        parts = procedures[index]
        sc.place = parts.place
        functions[index] = dc.function(parts)
    direct_steps = {}
    for name, parts in steps.items():
        if plays_in_place(parts.stmts):
            sc.place = parts.place
            direct_steps[name] = dc.function(parts)
    turns = [dc.turn(steps, phase.by_seat) if steps is not None and all(plays_in_place(step.parts.stmts) for step in steps)
             else None for steps, phase in zip(phases, game.phases)]
    dc.table.extend([None] * len(game.procs))
    for index, function in functions.items():
        dc.table[index] = function
    game.direct = dc.table
    dc.markers.extend(marker(game, index) for index in range(len(game.procs)))
    game.markers = dc.markers
    return direct_steps, turns


def marker(game: Game, proc: int) -> Frame:
    """A finished frame of a procedure: on the stack while its direct function runs (``call_in_place``)."""
    return Frame(proc, len(game.procs[proc].code), {})


def _span_of(stmts: list[n.Stmt]) -> tuple[Any, Any]:
    """The spans of a block's first and last statements (None, None for an empty block)."""
    return (stmts[0].span, stmts[-1].span) if stmts else (None, None)


def unhooked_turn(turn: Callable | None, steps: list[tuple[str, int | Callable, object]], hooks: dict) -> Callable | None:
    """A phase's whole turn as ``turns.begin_turn`` plays it in place (``DirectCompiler.turn``); None when
    it has none or a turn hook (start, end, before or after a step) would have to run between its steps."""
    if turn is None or hooks.get(("start turn", "")) or hooks.get(("end turn", "")):
        return None
    if any(hooks.get(("before step", name)) or hooks.get(("after step", name)) for name, _, _ in steps):
        return None
    return turn


def _fits_statement_roles(dc: DirectCompiler) -> roles.InPlace:
    """Never called: mypy checks here that this class has what a statement home calls on it."""
    return dc


def _fits_decision_roles(dc: DirectCompiler) -> roles.DecisionsInPlace:
    """Never called: mypy checks here that this class writes out the decisions a statement home asks for."""
    return dc
