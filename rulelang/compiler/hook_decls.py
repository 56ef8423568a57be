"""The parts of compiling a spec that hooks added: trigger scopes and kinds, score parts, `lasts_in`.

A mixin of ``GameCompiler`` (which provides ``game``, ``data``, ``sym``, ``seat``, ``doc``, ``error`` and
``roll_hooks``), kept apart so the compiler's main module stays small.
"""
from __future__ import annotations

from ..check import INT, PLAYER, phase_specs
from ..game import ZoneDecl
from ..errors import did_you_mean
from ..limits import too_big
from .expressions import Fn
from .hooks import conditional_start, roll_hook_prefix, roll_hook_suffix, trigger_kind


class HookDeclarations:
    """Triggers on rolls, turns and steps; the score's parts; the zone a card's durations apply in."""

    def trigger_scope(self, trig: dict, resolve_scope: dict, move_scope: dict) -> dict:
        """The names a trigger's `if:` and effect may use, by what it is on."""
        kind = trigger_kind(trig.get("on", "")) or ("enter", "")
        if kind[0] == "resolve":
            return resolve_scope
        if kind[0] in ("before roll", "after roll"):
            die = kind[1]
            rolled = {"dice": INT} if kind[0] == "before roll" else {"rolled": f"roll:{die}" if die in self.sym.dice
                                                                     else "?"}
            return {"me": PLAYER, "roller": PLAYER} | rolled
        if kind[0] in ("start turn", "end turn", "before step", "after step"):
            return {"me": PLAYER} if self.seat else {}
        return move_scope

    def hook_trigger(self, i: int, trig: dict, kind: tuple[str, str], expr, block) -> None:
        """A trigger on a roll, a turn or a step: its `if:` is checked when it starts (on fresh values)."""
        what, subject = kind
        name = f"trigger '{trig.get('name', i + 1)}'"
        cond, span = expr(("triggers", i, "if")), self.doc.span(("triggers", i, "on"))
        if what.endswith(" roll"):
            if subject not in self.game.dice:
                self.error(f"unknown die '{subject}'", ("triggers", i, "on"),
                           did_you_mean(subject, self.game.dice) or "declare it under 'dice:'")
                return
            proc = block(("triggers", i, "effect"), name, [(roll_hook_prefix(what, cond), span)],
                         [(roll_hook_suffix(what), span)])
            before, after = self.roll_hooks[subject]
            (before if what == "before roll" else after).append(proc)
            return
        if what.endswith(" step") and subject not in self.step_names():
            self.error(f"unknown step '{subject}'", ("triggers", i, "on"), did_you_mean(subject, self.step_names()))
            return
        proc = block(("triggers", i, "effect"), name, [(conditional_start(cond), span)])
        self.turn_hooks.setdefault((what, subject), []).append(proc)

    def step_names(self) -> list[str]:
        return [step.get("name", f"step {k + 1}") for _, phase in phase_specs(self.data)
                for k, step in enumerate(phase.get("steps") or [])]

    def score(self, expr) -> Fn | None:
        """`score:` one expression, or the sum of its `parts` (a mod adds a part without replacing the score)."""
        spec = self.data.get("score")
        if not isinstance(spec, dict):
            return expr(("score",))
        parts = [expr(("score", "parts", name)) for name in (spec.get("parts") or {})]
        parts = [f for f in parts if f is not None]
        limit = self.game.number_limit

        def total(st, L):
            value = sum(f(st, L) for f in parts)
            if not -limit <= value <= limit:
                raise too_big(value, limit)
            return value
        return total

    def lasts_in(self, i: int, card: dict) -> ZoneDecl | None:
        """The player zone named by a card's `lasts_in:` (None if it names none; an error if it is no player zone)."""
        name = card.get("lasts_in")
        if name is None:
            return None
        decl = next((z for z in self.game.zones if z.name == name), None)
        if decl is None or decl.owner != "player":
            self.error(f"unknown zone '{name}'" if decl is None else f"'{name}' is not a player's zone",
                       ("cards", i, "lasts_in"), did_you_mean(name, [z.name for z in self.game.zones if z.owner == "player"])
                       or "a card lasts in a zone each player has (owner: player)")
            return None
        return decl
