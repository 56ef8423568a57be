"""Fewer trips through the run loop: each procedure's instructions run one after another in one function.

The run loop (``interpreter.run``) takes one instruction at a time: it reads the frame's pc,
calls ``ops[pc](st, fr)``, counts a step, and looks for triggers fired and frames pushed. A
procedure's *driver*, generated here, does the same for a whole run of its instructions in one
Python call: a ``pc`` dispatch (``if pc == k:`` in order, inside ``while True`` for jumps
back), each instruction called directly, a `goto` written as ``pc = target``, and the run
loop's checks written only after the instructions that can need them. It hands back to the
run loop exactly where the run loop would change what it does: a pause for a decision (or the
end of the game), a frame pushed or unwound, triggers fired, the end of the procedure.

Nothing a game saves changes: the program counters, ``Proc.code`` (the instructions one by one,
which ``saves`` and decision sites read) and the frames are the same. The driver sets ``fr.pc``
before each instruction, as the run loop does, so an instruction reads and changes it as before
and a failure is told at the same spec line; it counts each instruction it runs beyond the first
in ``State.extra``, which the run loop adds to its own count, so budgets count the same work.
"""
from __future__ import annotations

import re
from typing import TYPE_CHECKING, Callable

from .. import records
from ..interpreter import Frame
from ..turns import turn_limit
from .codegen import FRAME_LOCALS, Body, Unit, build_all

if TYPE_CHECKING:
    from ..game import Game
    from .source_stmt import StmtSource

#: Procedures longer than this keep the plain instructions.
MAX_FUSED = 64
#: Instructions one driver runs at most (each entry's code is written apart: the window bounds their size).
WINDOW = 8


def jump_target(op: Callable) -> int | None:
    """The pc an unconditional jump goes to (see ``hooks.goto``), or None for any other instruction."""
    label = getattr(op, "jump", None)
    return None if label is None else label.pc


def quiet(op: Callable) -> bool:
    """True for an instruction that never fires a trigger, pushes or unwinds a frame (``mark_quiet``)."""
    return getattr(op, "quiet", False)


def mark_quiet(op: Callable) -> Callable:
    """Say that an instruction never fires a trigger, pushes or unwinds a frame (it may jump or end the game)."""
    op.quiet = True
    return op


def drivers(ops: list[Callable], entries: list[int], source: "StmtSource") -> list[Callable]:
    """For each entry pc, one function running ``ops`` from there (see the module): at most ``WINDOW``
    instructions, forward; a jump back or past the window hands back to the run loop, which calls the
    function of the pc it lands on.

    An instruction whose lines can be written in place is written (``source`` writes a generated one again,
    in the driver's mode); any other is called.
    """
    u = Unit()
    bodies = [u.new_function("_entry", "st, fr") for _ in entries]     # the run loop's instructions
    size = len(ops)
    plain = all(quiet(op) or jump_target(op) is not None for op in ops)
    for entry, body in zip(entries, bodies):
        body.line(f"_pc = {entry}")
        body.line("_n = -1                 # instructions run beyond the one the run loop counts")
        body.line(f"L = {FRAME_LOCALS}")
        if not plain:
            body.line("_fired = st.fired")
            body.line("_stack = st.stack")
        for k in range(entry, min(size, entry + WINDOW)):
            if k == entry:
                _write(ops[k], k, source, body)
                continue
            body.line(f"if _pc == {k}:")
            with body.indented():
                _write(ops[k], k, source, body)
        body.line("fr.pc = _pc")
        body.line("st.extra += _n")
    return build_all(u)


def _write(op: Callable, k: int, source: "StmtSource", body: Body) -> None:
    """Instruction ``k`` in a driver: its lines or its call, then the run loop's checks where it needs them."""
    target = jump_target(op)
    if target is not None:
        body.line(f"_pc = {target}")
        body.line("_n += 1")
        return
    body.line(f"fr.pc = {k + 1}")
    if not _in_place(op, source, body):
        body.line(f"if {body.unit.constant(op)}(st, fr):")
        body.line("    return True")
    body.line("_n += 1")
    if not quiet(op):
        body.line("if _fired or _stack[-1] is not fr:")
        body.line("    st.extra += _n")
        body.line("    return")
    body.line("_pc = fr.pc")


#: A line that would leave the driver where the instruction only meant to end itself.
_RETURN = re.compile(r"^\s*return\b(?! True$)")


def in_place_op(op: Callable) -> bool:
    """Whether a driver writes this instruction's lines out rather than calling it."""
    return any(getattr(op, what, None) is not None for what in ("lines", "begins", "step"))


def _in_place(op: Callable, source: "StmtSource", out: Body) -> bool:
    """Write an instruction's lines into the driver; False (nothing written) where it cannot be."""
    start = len(out.lines)
    if getattr(op, "begins", None) is not None:
        _begin_turn(op.begins, out)
    elif getattr(op, "step", None) is not None:
        _call_step(op.step, source, out)
    elif getattr(op, "lines", None) is not None:
        _statements(op.lines, source, out)
    else:
        return False
    if any(_RETURN.match(text) for text in out.lines[start:]):
        del out.lines[start:]
        return False
    return True


def _statements(lines: tuple, source: "StmtSource", out: Body) -> None:
    """A generated instruction's (or step's) statements, in the driver's mode; ``L`` holds their locals."""
    guarded, fill = lines
    source.in_driver = True
    try:
        if guarded:
            out.line("try:")
            with out.indented():
                fill(out)
            out.line("except _FAILURES as error:")
            out.line("    raise _blame(error, _line_spans) from None")
        else:
            fill(out)
    finally:
        source.in_driver = False


def _begin_turn(begins: tuple, out: Body) -> None:
    """``turns.begin_turn`` written out: count the turn, past the limit is an error, say whose it is."""
    limit, seat = begins
    record = out.unit.constant(records.turn, "the record of a turn begun")
    out.line("st.turn += 1")
    out.line(f"if st.turn > {limit}:")
    out.line(f"    raise {out.unit.constant(turn_limit, 'the error of a phase past its limit')}(st, {limit})")
    out.line(f"st.log.append(({record}, st.turn, st.active))" if seat else f"st.log.append(({record}, st.turn))")


def _call_step(step: tuple, source: "StmtSource", out: Body) -> None:
    """``turns.call_step`` written out: a halt, the observer, the step's record, then its statements in place
    (their locals bound to ``L`` while they run) or its frame pushed."""
    name, proc, seat, fire = step
    u, halt = out.unit, out.unit.temp("halt")
    local = "{'me': st.active}" if seat else "{}"
    out.line(f"{halt} = st.halt")
    out.line(f"if {halt} is not None and {halt}[0] == st.turn and {halt}[1] == {name!r}:")
    out.line("    st.halt = None")
    out.line("    fr.pc -= 1")
    out.line("    return True")
    out.line("if st.observer is not None:")
    out.line(f"    st.observer(st, {name!r})")
    out.line(f"st.log.append(({u.constant(records.step, 'the record of a step begun')}, st.turn, {name!r}))")
    if isinstance(proc, int):
        out.line(f"_stack.append({u.constant(Frame, 'the frame of a step')}({proc}, 0, {local}))")
        if fire is not None:
            out.line(f"{u.constant(fire, 'the before step triggers')}(st, fr)")
        return
    out.line(f"L = {local}")
    if getattr(proc, "lines", None) is not None:
        _statements(proc.lines, source, out)
    else:
        out.line(f"if {u.constant(proc, 'a step run in place')}(st, L):")
        out.line("    return True")
    out.line(f"L = {FRAME_LOCALS}")


def fused_code(game: Game) -> list[list[Callable]]:
    """The run loop's table: for each procedure, at each pc whose instruction is written in place, the driver
    that starts there; the plain instruction elsewhere (a decision resumed is called straight away). A
    procedure with fewer than two instructions in place (a card's play) keeps its plain instructions.
    """
    program = game.program
    if program is None:
        return [list(proc.code) for proc in game.procs]
    source, listed = program.statements_source, list(program.units)
    code = []
    for proc in game.procs:
        ops = proc.code
        entries = [k for k, op in enumerate(ops) if in_place_op(op) or jump_target(op) is not None]
        table = list(ops)
        if len(entries) >= 2 and len(ops) <= MAX_FUSED:
            for k, run in zip(entries, drivers(ops, entries, source)):
                table[k] = run
        code.append(table)
    program.units[:] = listed       # what was written again here is listed once, where it comes from
    return code
