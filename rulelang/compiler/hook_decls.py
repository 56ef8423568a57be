"""The parts of compiling a spec that hooks added: trigger kinds, score parts, `lasts_in` (their scopes are
checked in ``check.game``).

A mixin of ``GameCompiler`` (which provides ``game``, ``spec``, ``sym``, ``seat``, ``doc`` and
``roll_hooks``, ``action_hooks``), kept apart so the compiler's main module stays small.
"""
from __future__ import annotations

from rulelang.engine.limits import too_big
from rulelang.engine.rules import ZoneDecl
from rulelang.model.spec import Card, Trigger

from .expressions import Fn
from .hooks import conditional_start, roll_hook_prefix, roll_hook_suffix


class HookDeclarations:
    """Triggers on rolls, turns and steps; the score's parts; the zone a card's durations apply in."""

    def hook_trigger(self, trig: Trigger, expr, block) -> None:
        """A trigger on a roll, a draw, a card's play, a turn or a step: its `if:` is checked when it starts
        (on fresh values)."""
        what, subject = trig.on.event.value, trig.on.subject
        name = f"trigger '{trig.name}'"
        cond, span = expr(trig.cond), trig.on_span
        if trig.on.event.on_roll:
            proc = block(trig.effect, name, [(roll_hook_prefix(what, cond), span)], [(roll_hook_suffix(what), span)])
            before, after = self.roll_hooks[subject]
            (before if what == "before roll" else after).append(proc)
            return
        proc = block(trig.effect, name, [(conditional_start(cond), span)])
        if trig.on.event.on_action:
            self.action_hooks[trig.on.event].append(proc)
            return
        self.turn_hooks.setdefault((what, subject), []).append(proc)

    def score(self, expr) -> Fn | None:
        """`score:` one expression, or the sum of its `parts` (a mod adds a part without replacing the score)."""
        if self.spec.score_parts is None:
            return expr(self.spec.score)
        parts = [expr(text) for text in self.spec.score_parts.values()]
        parts = [f for f in parts if f is not None]
        limit = self.game.number_limit

        def total(st, L):
            value = sum(f(st, L) for f in parts)
            if not -limit <= value <= limit:
                raise too_big(value, limit)
            return value
        return total

    def lasts_in(self, card: Card) -> ZoneDecl | None:
        """The player zone named by a card's `lasts_in:` (None if it names none; check_decls checked it)."""
        if card.lasts_in is None:
            return None
        return next(z for z in self.game.zones if z.name == card.lasts_in)
