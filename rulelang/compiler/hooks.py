"""Compiling hooks and the control flow they need.

- Statements: `while`, `return`, `x = procedure(args)` — a mixin of ``StmtCompiler``; and for the
  statements that change a roll (`reroll`, `add N to r`, `remove N from r`, `change F to V in r`, kept in
  ``rulelang/statements/``) the roll they change (``changed_roll``).
- A roll of a die that has `before roll` / `after roll` triggers runs in three instructions, so the
  triggers (which may wait for decisions) run between them and change the roll (``statements/roll.py``).
- Turn and step triggers (`start turn`, `end turn`, `before step S`, `after step S`).
- A card's play, in a game with `before play` triggers, gets one more instruction between its choice
  and its declaration (``plays.py``), where they run and may `cancel play`; a draw, in a game with
  `before draw` triggers, is two instructions the same way (``statements/draw.py``).

A trigger changes a roll that lives in the locals of the frame that rolls: it is told that frame's
place on the stack (``$roll``: [frame index, local holding the count, local holding the faces]), copies
the value in when it starts and back when it ends. That is plain data, so a game can be saved while a
hook waits for a decision. A draw or a play trigger is told the same way where the pending draw or play
is kept (``$draw``, ``$play``: [frame index, hidden local]); cancelling it empties that local.
"""
from __future__ import annotations

from collections.abc import Callable

from rulelang.check.types import die_of
from rulelang.engine.interpreter import Frame
from rulelang.engine.rolls import rolling
from rulelang.lang import nodes as n
from rulelang.lang.refs import Ref, RefKind
from rulelang.model.spec import Event

from ..statements.assign import Assign
from ..statements.aug_assign import AugAssign
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

    # -- changing a roll ------------------------------------------------------------------

    def changed_roll(self, roll: n.Expr) -> tuple[str, str, int]:
        """The roll a statement changes (``rulelang/statements/``: reroll, add, remove, change): its local,
        its die and the die's highest face."""
        die = die_of(roll.type)
        return roll.id, die, max(self.game.dice[die])



def _own_exprs(s: n.Stmt) -> list:
    """The expressions a statement evaluates itself (not those of the blocks it holds)."""
    if isinstance(s, (Assign, AugAssign, Return)):
        return [s.value]
    if isinstance(s, If):
        return [cond for cond, _ in s.branches]
    if isinstance(s, While):
        return [s.cond]
    return []


def goto(label: Label) -> Callable:
    """An instruction that jumps to a label (its pc is known once the code after it is emitted)."""
    def op(st, fr):
        fr.pc = label.pc
    return op
