"""Compiling hooks and the control flow they need.

- Statements: `while`, `return`, `x = procedure(args)`, and the statements that change a roll
  (`reroll`, `add N to r`, `remove N from r`, `change F to V in r`) — a mixin of ``StmtCompiler``.
- A roll of a die that has `before roll` / `after roll` triggers runs in three instructions, so the
  triggers (which may wait for decisions) run between them and change the roll.
- Turn and step triggers (`start turn`, `end turn`, `before step S`, `after step S`).
- A draw, in a game with `before draw` triggers, runs in two instructions (the triggers run between
  them and may `cancel draw`); a card's play, in a game with `before play` triggers, gets one more
  instruction between its choice and its declaration (``plays.py``), where they run and may `cancel play`.

A trigger changes a roll that lives in the locals of the frame that rolls: it is told that frame's
place on the stack (``$roll``: [frame index, local holding the count, local holding the faces]), copies
the value in when it starts and back when it ends. That is plain data, so a game can be saved while a
hook waits for a decision. A draw or a play trigger is told the same way where the pending draw or play
is kept (``$draw``, ``$play``: [frame index, hidden local]); cancelling it empties that local.
"""
from __future__ import annotations

from collections.abc import Callable

from rulelang.check.types import die_of
from rulelang.engine.cards import draw_cards, end_roll_durations, move_card
from rulelang.engine.interpreter import Frame
from rulelang.engine.limits import roll_dice, spend
from rulelang.engine.names import NAMES
from rulelang.engine.rolls import CANCELLED, rolling
from rulelang.engine.state import State
from rulelang.lang import nodes as n
from rulelang.lang.refs import Ref, RefKind
from rulelang.model.spec import Event

from ..errors import RuleError
from ..statements.if_stmt import If
from ..statements.return_stmt import Return
from ..statements.while_stmt import While
from .expressions import Fn

#: Past every instruction: a frame whose pc is here is finished.
DONE = 1 << 40


class Label:
    """A jump target of a procedure's instructions (branches, loops, choices), fixed once its place is known."""

    __slots__ = ("pc",)

    def __init__(self) -> None:
        self.pc = -1

    def __repr__(self) -> str:
        """What `rulelang compile --python` says of a jump's constant: its place, the same on every run
        (the default repr holds the object's address)."""
        return f"the jump to instruction {self.pc} of its procedure"


# --- triggers: what `on:` says ---------------------------------------------------------------

def roll_hook_prefix(kind: str, cond: Fn | None) -> Callable:
    """First instruction of a roll trigger: copy the roll in from the rolling frame; skip if `if:` fails."""
    before = kind == "before roll"

    def op(st, fr):
        L = fr.locals
        caller, count, faces = rolling(st, L)
        if before:
            L["dice"] = caller[count]
        else:
            L["rolled"] = list(caller[faces])
        if cond is not None and not cond(st, L):
            fr.pc = DONE
    return op


def roll_hook_suffix(kind: str) -> Callable:
    """Last instruction of a roll trigger: the changed roll goes back to the rolling frame."""
    before = kind == "before roll"

    def op(st, fr):
        L = fr.locals
        caller, count, faces = rolling(st, L)
        if before:
            caller[count] = max(0, L["dice"])
        else:
            caller[faces] = list(L["rolled"])
    return op


def fire_play_hooks(procs: list[int], slot: str) -> Callable:
    """The instruction between a play's choice and its declaration: its `before play` triggers start, told
    the card, the player and the target, and where the choice is kept (so one may `cancel play`)."""
    def op(st, fr):
        pick = fr.locals.get(slot)
        if pick is None or pick[0] == "discard":
            return False
        _, card, player, target = pick
        where = [len(st.stack) - 1, slot]
        for proc in procs:
            st.fired.append(Frame(proc, 0, {"me": player, "card": card, "target": target, "$play": where}))
        return False
    return op


def conditional_start(cond: Fn | None) -> Callable:
    """First instruction of a turn or step trigger: its `if:` decides whether it runs."""
    def op(st, fr):
        if cond is not None and not cond(st, fr.locals):
            fr.pc = DONE
    return op


def fire_turn_hooks(procs: list[int], seat: bool) -> Callable:
    """An instruction of the turn loop that starts the triggers of a turn or step event (each checks its `if:`)."""
    def op(st, fr):
        for proc in procs:
            st.fired.append(Frame(proc, 0, {"me": st.active} if seat else {}))
    return op


# --- statements ---------------------------------------------------------------------------------

class HookStatements:
    """StmtCompiler's statements for control flow and rolls (uses its ``ec``, ``game``, ``block``, ``body``)."""

    roll_hooks: dict[str, tuple[list, list]]
    action_hooks: dict[Event, list[int]]

    @property
    def draw_hooked(self) -> bool:
        """Whether the game has `before draw` triggers: then every draw is two instructions (``s_Draw``)."""
        return Event.BEFORE_DRAW in self.action_hooks

    # -- values of procedures ----------------------------------------------------------------

    def value_calls(self, exprs: list) -> list[n.Call]:
        """The procedure calls in expressions, innermost first (their arguments may hold more)."""
        found: list[n.Call] = []

        def visit(node: n.Node) -> None:
            if isinstance(node, n.Arg) and node.var is not None:
                return                  # a filter or generator: the checker allows no procedure there
            for child in node.children():
                visit(child)
            if isinstance(node, n.Call) and node.ref and node.ref.kind == RefKind.PROCEDURE:
                found.append(node)
        for node in n.nodes_in([e for e in exprs if e is not None]):
            visit(node)
        return found

    def has_value_calls(self, s: n.Stmt) -> bool:
        return bool(self.value_calls(_own_exprs(s)))

    def emit_value_calls(self, exprs: list, b) -> None:
        """Run each procedure whose value an expression uses, innermost first, keeping it in a hidden local."""
        for call in self.value_calls(exprs):
            hidden = self.fresh("value")
            start, finish = self.call_for_value(call, lambda st, L, v, hidden=hidden: L.__setitem__(hidden, v))
            b.emit(start, call.span)
            b.emit(finish, call.span)
            call.ref = Ref(RefKind.HOISTED, hidden)

    def call_for_value(self, call: n.Call, store: Callable) -> tuple[Callable, Callable]:
        """Two instructions: push the procedure's frame (told where its caller is), then store its value."""
        proc = self.ec.proc_ids[call.func]
        pairs = list(zip(self.ec.sym.procedures[call.func], [self.ec.expr(a.value) for a in call.args]))

        def start(st, fr):
            L = fr.locals
            local = {p: f(st, L) for p, f in pairs}
            if "me" not in local and "me" in L:
                local["me"] = L["me"]
            local["$caller"] = len(st.stack) - 1
            L["$ret"] = None
            st.stack.append(Frame(proc, 0, local))

        def finish(st, fr):
            L = fr.locals
            store(st, L, L.pop("$ret", None))
        return start, finish

    def s_AugAssign(self, s: n.AugAssign, b) -> None:
        self.emit_value_calls([s.value], b)
        self.emit_straight([s], b)

    def s_Assign(self, s: n.Assign, b) -> None:
        """`x = procedure(args)` (its frame runs, then its value is stored) or a value using procedures."""
        call = s.value
        if not (isinstance(call, n.Call) and call.ref and call.ref.kind == RefKind.PROCEDURE):
            self.emit_value_calls([s.value], b)
            self.emit_straight([s], b)
            return
        self.emit_value_calls([a.value for a in call.args], b)
        store = self.setter(s.target)
        start, finish = self.call_for_value(call, store)
        b.emit(start, s.span)
        b.emit(finish, s.span)

    # -- changing a roll ------------------------------------------------------------------

    def _roll_die(self, roll: n.Expr) -> tuple[str, str, int]:
        die = die_of(roll.type)
        return roll.id, die, max(self.game.dice[die])

    def f_Reroll(self, s: n.Reroll) -> Fn:
        var, die, faces = self._roll_die(s.roll)
        face = self.ec.expr(s.face) if s.face is not None else None

        def reroll(st, L):
            rolled = list(L[var])
            if face is None:
                spend(st, len(rolled))
                rolled = [st.roll_die(faces) for _ in rolled]
                _changed(st, L, var, die, "rerolled", rolled, len(rolled))
                return
            else:
                f = face(st, L)
                if f not in rolled:
                    return
                spend(st, 1)
                rolled[rolled.index(f)] = st.roll_die(faces)
            _changed(st, L, var, die, "rerolled", rolled, 1)
        return reroll

    def f_AddDice(self, s: n.AddDice) -> Fn:
        var, die, faces = self._roll_die(s.roll)
        amount = self.ec.expr(s.amount)

        def add(st, L):
            k = max(0, amount(st, L))
            if k == 0:
                return
            _changed(st, L, var, die, "added", list(L[var]) + roll_dice(st, k, faces, len(L[var])), k)
        return add

    def f_RemoveDice(self, s: n.RemoveDice) -> Fn:
        var, die, _ = self._roll_die(s.roll)
        amount = self.ec.expr(s.amount)

        def remove(st, L):
            k = min(max(0, amount(st, L)), len(L[var]))
            if k:
                _changed(st, L, var, die, "removed", list(L[var])[:len(L[var]) - k])
        return remove

    def f_ChangeFace(self, s: n.ChangeFace) -> Fn:
        var, die, faces = self._roll_die(s.roll)
        face, value = self.ec.expr(s.face), self.ec.expr(s.value)

        def change(st, L):
            f, v = face(st, L), value(st, L)
            if not 1 <= v <= faces:
                raise RuleError(f"die '{die}' has no face {v} (its faces are 1 to {faces})")
            rolled = list(L[var])
            if f in rolled and f != v:
                rolled[rolled.index(f)] = v
                _changed(st, L, var, die, "changed", rolled)
        return change

    # -- tokens ---------------------------------------------------------------------------------

    def f_Create(self, s: n.Create) -> Fn:
        """`create N CARD in ZONE`: up to N of the token's copies leave its supply (the top ones first)."""
        game = self.game
        ctype = next(c for c in game.cards if c.id == s.card)
        supply = game.zones[ctype.zone]
        amount, dest = self.ec.expr(s.amount), self.ec.expr(s.dest)

        def create(st, L):
            k, zid = amount(st, L), dest(st, L)
            pool = st.zones[game.zone_id(supply, None, st.n)]
            spend(st, len(pool))
            tokens = [c for c in reversed(pool) if game.card_type[c] is ctype][:max(0, k)]
            for card in tokens:
                move_card(st, card, zid, "created")
        return create

    # -- a draw that triggers may cancel ------------------------------------------------------

    def s_Draw(self, s: n.Draw, b) -> None:
        """A draw that is not straight: in a game with `before draw` triggers, they start first (told who
        draws: the owner of the zone drawn to, else `me`; and the zones drawn from and to), then the cards are drawn unless one cancelled;
        otherwise (it may fire zone triggers) the draw is one instruction of its own."""
        if not self.draw_hooked:
            self.emit_straight([s], b)
            return
        amount, src, dst = self.ec.expr(s.amount), self.ec.expr(s.source), self.ec.expr(s.dest)
        hooks, slot = self.action_hooks[Event.BEFORE_DRAW], self.fresh("draw")

        def start(st, fr):
            L = fr.locals
            k, source, dest = amount(st, L), src(st, L), dst(st, L)
            owner = st.lay.zones[dest][1]
            drawer = owner if owner is not None else L.get("me")
            L[slot] = [k, source, dest, drawer]
            if k > 0:
                where = [len(st.stack) - 1, slot]
                for proc in hooks:
                    st.fired.append(Frame(proc, 0, {"me": drawer, "source": source, "dest": dest, "$draw": where}))

        def draw(st, fr):
            pending = fr.locals.pop(slot)
            if pending is not None:
                draw_cards(st, pending[0], pending[1], pending[2])

        b.emit(start, s.span)
        b.emit(draw, s.span)

    # -- a roll that triggers may change -----------------------------------------------------

    def s_Roll(self, s: n.Roll, b) -> None:
        """A roll of a hooked die: `before roll` triggers, the dice, `after roll` triggers, then durations."""
        ec, die, var = self.ec, s.die, s.var
        amount = ec.expr(s.amount)
        roller = ec.expr(s.player) if s.player is not None else (lambda st, L: L.get("me"))
        owner = ec.expr(s.for_player) if s.for_player is not None else None
        faces = max(self.game.dice[die])
        before, after = self.roll_hooks[die]
        count, who = self.fresh("dice"), self.fresh("roller")

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
                event = {"type": "rolled", "turn": st.turn, "die": die, "faces": rolled,
                         "player": None if p is None else NAMES[p]}
                if owner is not None:
                    event["for"] = None if q is None else NAMES[q]
                st.log.append(event)
            where = [len(st.stack) - 1, None, var]
            for proc in after:
                st.fired.append(Frame(proc, 0, {"me": q, "roller": p, "$roll": where}))

        def finish(st, fr):
            rolled_by = fr.locals.pop(who)
            if rolled_by is not None:           # a cancelled roll ends no card's duration
                end_roll_durations(st, die, rolled_by[1])

        b.emit(start, s.span)
        b.emit(throw, s.span)
        b.emit(finish, s.span)


def _own_exprs(s: n.Stmt) -> list:
    """The expressions a statement evaluates itself (not those of the blocks it holds)."""
    if isinstance(s, (n.Assign, n.AugAssign, Return)):
        return [s.value]
    if isinstance(s, If):
        return [cond for cond, _ in s.branches]
    if isinstance(s, While):
        return [s.cond]
    return []


def _changed(st: State, L: dict, var: str, die: str, how: str, rolled: list[int], fresh: int = 0) -> None:
    """Keep the changed roll and record it; ``fresh`` dice were newly rolled (scripted dice land on them)."""
    L[var] = rolled
    if st.history:
        event = {"type": "roll_changed", "turn": st.turn, "die": die, "how": how, "faces": rolled}
        if fresh:
            event["rolled"] = fresh
        st.log.append(event)


def goto(label: Label) -> Callable:
    """An instruction that jumps to a label (its pc is known once the code after it is emitted)."""
    def op(st, fr):
        fr.pc = label.pc
    return op
