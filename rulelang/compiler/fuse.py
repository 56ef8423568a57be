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

from typing import TYPE_CHECKING, Callable

from .codegen import Unit, build

if TYPE_CHECKING:
    from ..game import Game

#: Procedures longer than this keep the plain instructions: resuming one at pc k passes k tests.
MAX_FUSED = 64


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


def driver(ops: list[Callable]) -> Callable:
    """One function running ``ops`` from the frame's pc until the run loop must take over (see the module)."""
    u = Unit()
    body = u.new_function("instruction", "st, fr")    # to the run loop, one instruction
    size = len(ops)
    body.line("_pc = fr.pc - 1         # the run loop has moved fr.pc past the first instruction")
    body.line("_n = -1                 # instructions run beyond the one the run loop counts")
    body.line("_fired = st.fired")
    body.line("_stack = st.stack")
    body.line("while True:")
    with body.indented():
        for k, op in enumerate(ops):
            body.line(f"if _pc == {k}:")
            with body.indented():
                target = jump_target(op)
                if target is not None:
                    body.line(f"_pc = {target}")
                    body.line("_n += 1")
                    continue
                body.line(f"fr.pc = {k + 1}")
                body.line(f"if {u.constant(op)}(st, fr):")
                body.line("    return True")
                body.line("_n += 1")
                if not quiet(op):
                    body.line("if _fired or _stack[-1] is not fr:")
                    body.line("    st.extra += _n")
                    body.line("    return")
                body.line("_pc = fr.pc")
        body.line(f"if _pc >= {size}:")
        with body.indented():
            body.line("fr.pc = _pc")
            body.line("st.extra += _n")
            body.line("return")
    return build(u)


def fused_code(game: Game) -> list[list[Callable]]:
    """The run loop's table: for each procedure, its driver at every pc (or its plain instructions)."""
    code = []
    for proc in game.procs:
        ops = proc.code
        if 2 <= len(ops) <= MAX_FUSED:
            code.append([driver(ops)] * len(ops))
        else:
            code.append(list(ops))
    return code
