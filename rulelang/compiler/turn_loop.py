"""The turn loop, assembled: the instructions of the game's main procedure, from the turn flow's parts.

Setup first, then each phase's turns: a turn begins (``turns.begin_turn``, which plays the whole turn in
place when it can), its steps start one by one (``turns.call_step``) with the turn hooks between them,
and the next seat or phase follows (``turns.next_turn``), until an end condition holds. The parts live in
``turns.py``; this module only puts them in order and notes where each phase and step starts.
"""
from __future__ import annotations

from collections.abc import Callable

from rulelang.engine.game import Game
from rulelang.engine.interpreter import Frame
from rulelang.engine.turns import begin_turn, call_step, next_turn
from rulelang.model.spec import Phase as PhaseSpec

from .direct import unhooked_turn
from .hooks import fire_turn_hooks
from .statements import Builder


def assemble_turn_loop(g: Game, hooks: dict, direct_steps: dict[str, Callable], turns: list[Callable | None],
                       setup: int | None, phases: list[tuple[PhaseSpec, list]]) -> Builder:
    """The main procedure's instructions; each phase's begin and end, and each step's start, noted on ``g``.
    ``turns`` holds each phase's whole turn played in place (compiler/direct.py), if it has one."""
    b = Builder("the turn loop")
    if setup is not None:
        b.emit(lambda st, fr: st.stack.append(Frame(setup, 0, {})), None)
    for k, (spec, steps) in enumerate(phases):
        phase = g.phases[k]
        seat = spec.seat
        phase.in_place = unhooked_turn(turns[k], steps, hooks)
        phase.begin_pc = b.emit(begin_turn(phase), spec.limit_span or spec.span)
        if hooks.get(("start turn", "")):
            b.emit(fire_turn_hooks(hooks[("start turn", "")], seat), None)
        for name, proc, span in steps:      # an inline step's failure without a place of its own points here
            g.step_pcs[name] = b.emit(call_step(name, proc, seat, _before_step(hooks, name, seat),
                                                direct_steps.get(name)), span)
            if phase.first_step_pc < 0:
                phase.first_step_pc = g.step_pcs[name]
            g.step_phase[name] = k
            if hooks.get(("after step", name)):
                b.emit(fire_turn_hooks(hooks[("after step", name)], seat), None)
        if hooks.get(("end turn", "")):
            phase.end_pc = b.emit(fire_turn_hooks(hooks[("end turn", "")], seat), None)
            b.emit(next_turn(g, k), spec.until_span)
        else:
            phase.after_turn = next_turn(g, k)
            phase.end_pc = b.emit(phase.after_turn, spec.until_span)
    return b


def _before_step(hooks: dict, name: str, seat: bool) -> Callable | None:
    """The instruction that starts a step's `before step` triggers, if it has any."""
    before = hooks.get(("before step", name))
    return fire_turn_hooks(before, seat) if before else None
