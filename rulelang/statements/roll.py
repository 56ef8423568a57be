"""`roll N DIE as r` / `P rolls N DIE [for Q] as r`: dice rolled into the local r, recorded, durations ended.

A roll of a die with `before roll` / `after roll` triggers runs as three instructions, so that the
triggers (which may wait for decisions) run between them and change the roll: its `before roll` ones
start, told where the count is kept (``$roll``, see ``compiler/hooks.py``), and may change it or `cancel
roll`; then the dice are thrown and its `after roll` ones start; then the cards that last until a roll of
that die end. Any other roll joins a run of statements as a closure.
"""
from __future__ import annotations

from dataclasses import field
from typing import TYPE_CHECKING, ClassVar

from rulelang.engine import records
from rulelang.engine.cards import end_roll_durations
from rulelang.engine.interpreter import Frame
from rulelang.engine.limits import roll_dice
from rulelang.engine.names import NAMES
from rulelang.engine.rolls import CANCELLED, roll_for_event
from rulelang.errors import Span, did_you_mean_or_list
from rulelang.lang import nodes as n
from rulelang.lang.types import INT, PLAYER, UNKNOWN, roll_of

from . import statement

if TYPE_CHECKING:
    from rulelang.check.checker import Checker
    from rulelang.check.types import Scope

    from .roles import Compiler, Fn, Instructions, Lines, Source, Wording


@statement
class Roll(n.Stmt):
    BINDS = ('var',)
    FORMS: ClassVar[dict[str, tuple[str, ...]]] = {"roll_by": ("player", "amount", "die", "for_player", "var")}
    amount: n.Expr
    die: str
    var: str
    player: n.Expr | None = None      # who rolls (recorded in the event); default: me
    for_player: n.Expr | None = None  # whose roll it is, when a player rolls for another (hooks, durations)
    die_span: Span | None = field(default=None, repr=False, kw_only=True)

    def check(self, ck: Checker, scope: Scope) -> None:
        ck.expect(self.amount, scope, INT, "the number of dice")
        if self.player is not None:
            ck.expect(self.player, scope, PLAYER, "who rolls")
        if self.for_player is not None:
            ck.expect(self.for_player, scope, PLAYER, "whom the roll is for")
        if self.die not in ck.sym.dice:
            ck.error(f"unknown die '{self.die}'", self.die_span or self.span,
                     did_you_mean_or_list(self.die, ck.sym.dice, "dice", "dice"))
            scope.names[self.var] = UNKNOWN
        else:
            scope.names[self.var] = roll_of(self.die)

    def straight(self, sc: Compiler) -> bool:
        """A closure unless the die has `before roll` or `after roll` triggers."""
        return self.die not in sc.roll_hooks

    def closure(self, sc: Compiler) -> Fn:
        amount, var, die = sc.ec.expr(self.amount), self.var, self.die
        faces = max(sc.game.dice[die])
        roller = sc.ec.expr(self.player) if self.player is not None else (lambda st, L: L.get("me"))
        if self.for_player is not None:
            return self.roll_for(sc, amount, roller, sc.ec.expr(self.for_player))

        def roll(st, L):
            L[var] = rolled = roll_dice(st, max(0, amount(st, L)), faces)
            who = roller(st, L)
            if st.history:
                st.log.append((records.rolled, st.turn, die, rolled, who))
            end_roll_durations(st, die, who)
        return roll

    def roll_for(self, sc: Compiler, amount: Fn, roller: Fn, owner: Fn) -> Fn:
        """`P rolls N DIE for Q as r`: P rolls, but it is Q's roll (Q's cards that last until a roll end)."""
        var, die = self.var, self.die
        faces = max(sc.game.dice[die])

        def roll(st, L):
            L[var] = rolled = roll_dice(st, max(0, amount(st, L)), faces)
            who, whose = roller(st, L), owner(st, L)
            if st.history:
                st.log.append(roll_for_event(st.turn, die, rolled, who, whose))
            end_roll_durations(st, die, whose)
        return roll

    def python(self, ss: Source, out: Lines) -> None:
        u, die = out.unit, self.die
        faces = max(ss.game.dice[die])
        rolled, who = u.temp("r"), u.temp("w")
        roller = ss.e(self.player, out) if self.player is not None else "L.get('me')"
        out.line(f"L[{self.var!r}] = {rolled} = _roll_dice(st, max(0, {ss.e(self.amount, out)}), {faces})", self.span)
        ss.xs.keep(self.var, rolled)
        out.line(f"{who} = {roller}", self.span)
        if self.for_player is not None:
            self.roll_for_lines(ss, self.for_player, rolled, who, out)
            return
        out.record(f"(_rolled, st.turn, {die!r}, {rolled}, {who})", self.span)
        out.line(f"_end_roll_durations(st, {die!r}, {who})", self.span)

    def roll_for_lines(self, ss: Source, owner: n.Expr, rolled: str, who: str, out: Lines) -> None:
        """``roll_for`` as lines, after the dice and who rolls: whose roll it is, the event naming both, and the
        durations of the player it is for."""
        whose = out.unit.temp("w")
        out.line(f"{whose} = {ss.e(owner, out)}", self.span)
        out.record(f"_roll_for_event(st.turn, {self.die!r}, {rolled}, {who}, {whose})", self.span)
        out.line(f"_end_roll_durations(st, {self.die!r}, {whose})", self.span)

    def instruction(self, sc: Compiler, b: Instructions) -> None:
        """A roll of a hooked die: `before roll` triggers, the dice, `after roll` triggers, then durations."""
        ec, die, var = sc.ec, self.die, self.var
        amount = ec.expr(self.amount)
        roller = ec.expr(self.player) if self.player is not None else (lambda st, L: L.get("me"))
        owner = ec.expr(self.for_player) if self.for_player is not None else None
        faces = max(sc.game.dice[die])
        before, after = sc.roll_hooks[die]
        count, who = sc.fresh("dice"), sc.fresh("roller")

        def start(st, fr):
            L = fr.locals
            k = max(0, amount(st, L))
            p = roller(st, L)
            q = owner(st, L) if owner is not None else p
            L[count], L[who] = k, [p, q]
            where = [len(st.stack) - 1, count, var]
            for proc in before:
                st.fired.append(Frame(proc, 0, {"me": q, "roller": p, "$roll": where}))

        def throw(st, fr):
            L = fr.locals
            p, q = L[who]
            if L.pop(CANCELLED + count, False):
                L.pop(count)
                L[var] = []
                L[who] = None
                if st.history:
                    st.log.append({"type": "roll_changed", "turn": st.turn, "die": die, "how": "cancelled",
                                   "faces": []})
                return
            L[var] = rolled = roll_dice(st, L.pop(count), faces)
            if st.history:
                st.log.append(roll_for_event(st.turn, die, rolled, p, q) if owner is not None else
                              {"type": "rolled", "turn": st.turn, "die": die, "faces": rolled,
                               "player": None if p is None else NAMES[p]})
            where = [len(st.stack) - 1, None, var]
            for proc in after:
                st.fired.append(Frame(proc, 0, {"me": q, "roller": p, "$roll": where}))

        def finish(st, fr):
            rolled_by = fr.locals.pop(who)
            if rolled_by is not None:           # a cancelled roll ends no card's duration
                end_roll_durations(st, die, rolled_by[1])

        b.emit(start, self.span)
        b.emit(throw, self.span)
        b.emit(finish, self.span)

    def words(self, w: Wording) -> str:
        whose = "" if self.for_player is None else f" for {w.phrase(self.for_player)}"
        amount = w.phrase(self.amount)
        dice = "die" if amount == "1" else "dice"
        return w.acts(self.player, 'roll', 'rolls') + f" {amount} {w.humane(self.die)} {dice}{whose} (the roll {self.var})."
