"""Compiling hooks and the control flow they need.

- Statements: `while`, `return`, `x = procedure(args)` — a mixin of ``StmtCompiler``; and for the
  statements that change a roll (`reroll`, `add N to r`, `remove N from r`, `change F to V in r`, kept in
  ``rulelang/statements/``) the roll they change (``changed_roll``).
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
from rulelang.engine.cards import draw_cards, end_roll_durations
from rulelang.engine.interpreter import FAILURES, Frame, located
from rulelang.engine.limits import over_budget, roll_dice
from rulelang.engine.names import NAMES
from rulelang.engine.rolls import CANCELLED, rolling
from rulelang.lang import nodes as n
from rulelang.lang.refs import Ref, RefKind
from rulelang.model.spec import Event

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

    def f_While(self, s: n.While) -> Fn:
        cond = self.ec.expr(s.cond)
        body, span = self.body(s.body)

        def loop(st, L):
            while cond(st, L):
                st.work -= 1            # a pass of a loop is work
                if st.work < 0:
                    raise over_budget(st)
                try:
                    body(st, L)
                except FAILURES as error:
                    raise located(error, span) from None
        return loop

    def s_While(self, s: n.While, b) -> None:
        top, end = Label(), Label()
        top.pc = b.here()               # procedures in the condition run again before each test
        self.emit_value_calls([s.cond], b)
        cond = self.ec.expr(s.cond)

        def test(st, fr):
            if not cond(st, fr.locals):
                fr.pc = end.pc
                return
            st.work -= 1                # a pass of a loop is work (the instructions count too)
            if st.work < 0:
                raise over_budget(st)

        b.emit(test, s.cond.span)
        self.block(s.body, b)
        b.emit(goto(top), None)
        end.pc = b.here()

    def s_Return(self, s: n.Return, b) -> None:
        self.emit_value_calls([s.value], b)
        value = self.ec.expr(s.value) if s.value is not None else None
        exit_label = b.exit

        def op(st, fr):
            L = fr.locals
            if value is not None:
                v = value(st, L)
                d = L.get("$caller")
                if d is not None:
                    st.stack[d].locals["$ret"] = v
            fr.pc = exit_label.pc
        b.emit(op, s.span)

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

    def changed_roll(self, roll: n.Expr) -> tuple[str, str, int]:
        """The roll a statement changes (``rulelang/statements/``: reroll, add, remove, change): its local,
        its die and the die's highest face."""
        die = die_of(roll.type)
        return roll.id, die, max(self.game.dice[die])

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
    if isinstance(s, (n.Assign, n.AugAssign, n.Return)):
        return [s.value]
    if isinstance(s, n.If):
        return [cond for cond, _ in s.branches]
    if isinstance(s, n.While):
        return [s.cond]
    return []


def goto(label: Label) -> Callable:
    """An instruction that jumps to a label (its pc is known once the code after it is emitted)."""
    def op(st, fr):
        fr.pc = label.pc
    return op
