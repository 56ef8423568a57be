"""The run loop: frames over compiled code, executed until the game needs a decision or ends.

The interpreter keeps its place in ``State.stack``, a list of ``Frame``s
(procedure, program counter, locals), never in Python generators, so a game
waiting for a decision is plain data. Each compiled instruction is a closure
``op(state, frame)``; one that needs a decision stores it in ``State.pending``
and returns True, and runs again with ``State.answer`` set once every chooser
has chosen. This module also turns whatever goes wrong inside a rule into a
``RuleError`` located at the spec line of the instruction that failed.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from rulelang.engine.limits import DecisionLimit, next_budget, over_budget, too_deep
from rulelang.errors import RuleError, RulelangError, Span

if TYPE_CHECKING:
    from rulelang.engine.board import Board


class Frame:
    """One procedure running: which one (``proc``), its next instruction (``pc``) and its ``locals``.

    Saved as the list ``[proc, pc, locals]`` (see ``saved``), the shape saved games have always had.
    """

    __slots__ = ("proc", "pc", "locals")

    def __init__(self, proc: int, pc: int, local: dict) -> None:
        self.proc = proc
        self.pc = pc
        self.locals = local

    def saved(self) -> list:
        """The frame as saved games hold it: ``[proc, pc, locals]`` (the locals themselves, not a copy)."""
        return [self.proc, self.pc, self.locals]

    def __repr__(self) -> str:
        return f"Frame({self.proc}, {self.pc}, {self.locals!r})"


def run(st: Board) -> None:
    """Execute instructions until a decision is needed or the game is over.

    Each instruction is one unit of work, counted in a local; the primitives
    take the work done inside one instruction (cards moved, loop passes, ...)
    from ``st.work`` as they go. Whenever the frame changes, the two together
    must stay within the budget. A run that stops at a decision settles the
    game's budgets (limits.py): the work it did leaves the game's reserve, and
    the log must keep within the game's events.
    """
    st.work = st.allowed       # whatever read the state since the last run (views, scores) spent nothing of it
    st.end_known = None         # the state may have been set up by hand since the last run (compiler/derived.py)
    try:
        steps = _execute(st, 0, False)
        if not st.over:
            left = st.reserve + st.work - steps
            game = st.game
            if left >= game.step_budget and len(st.log) <= game.event_limit:
                st.reserve = left - game.step_budget
            else:
                settle_at_decision(st, left)
    except RuleError as error:
        raise _locate_runtime(st, error) from None
    except RulelangError as error:
        error.state = st
        raise
    except RecursionError:
        raise _locate_runtime(st, RuleError("the rules nest too deeply")) from None
    except MemoryError:
        raise _locate_runtime(st, RuleError("the rules ran out of memory")) from None
    except (ArithmeticError, TypeError, ValueError, IndexError, KeyError) as error:
        raise _locate_runtime(st, failure(error)) from None
    except Exception as error:      # a bug of rulelang itself: keep the state for the log
        error.state = st
        raise


def run_within(st: Board, base: int) -> None:
    """Run the frames above the first ``base`` of the stack to their end, every decision answered in place.

    A step played in place (compiler/direct.py) hands its statements that have no direct form to this
    loop, as frames of their own. It is ``run``'s loop with one difference: a decision does not stop it.
    With ``State.autopick`` set, ``ask`` has the answer at once; the asking instruction runs again and
    takes it. Each such decision counts against the play-out's decisions (``picks_left``) and starts the
    work budget afresh, as a new ``run`` would. It returns when those frames are done, when the turn is
    unwound below ``base`` (`end turn`), or when the game is over; ``run`` (the caller's caller) tells
    failures. The statements it ran leave the game's reserve of work.
    """
    st.reserve -= _execute(st, base, True)


def _execute(st: Board, base: int, in_place: bool) -> int:
    """The loop of ``run`` and ``run_within``: the frames above ``base``, until they are done, the game
    is over, or (unless ``in_place``) a decision waits. It returns the statements it ran since the work
    budget last started afresh, which ``st.work`` does not hold."""
    code = st.game.code
    stack = st.stack
    fired = st.fired
    depth = st.game.call_depth
    steps = 0
    picks = st.picks_left      # a decision answered in place (answered_in_place) restarts the count
    while len(stack) > base and not st.over:
        fr = stack[-1]
        ops = code[fr.proc]
        size = len(ops)
        while True:            # stay on this frame while it is on top
            pc = fr.pc
            if pc >= size:
                stack.pop()
                break
            fr.pc = pc + 1
            if ops[pc](st, fr):
                if not in_place or st.over:
                    return steps   # waiting for a decision, or the game is over
                asked_in_place(st)
                continue       # the asking instruction runs again and takes the answer
            steps += 1
            if fired:
                if fr.pc >= size and stack[-1] is fr:
                    stack.pop()    # nothing left to run here: triggers that bounce do not pile up
                stack.extend(reversed(fired))
                fired.clear()
                if len(stack) > depth:
                    raise too_deep(st)
                break
            if stack[-1] is not fr:
                if fr.pc >= size and len(stack) > base + 1 and stack[-2] is fr:
                    del stack[-2]  # a call in last place: the caller is done
                if len(stack) > depth:
                    raise too_deep(st)
                break          # a frame was pushed, or the turn was unwound
        if steps > st.work:    # the statements run and the work done inside them, together
            if st.picks_left == picks:
                raise over_budget(st)
            st.reserve -= steps    # decisions were answered in place since: these steps are the game's
            picks, steps = st.picks_left, 0
    return steps


def within(st: Board, proc: int, local: dict, base: int) -> bool:
    """Run procedure ``proc``'s instructions on these locals, to their end (a direct function's statement
    that has no direct form); True when play must stop: the game is over, or the turn was unwound."""
    st.stack.append(Frame(proc, 0, local))
    return _run_pushed(st, base, base)


#: Calls nested deeper than this run as frames (``within``), not as Python calls: Python's own stack
#: stays short whatever ``call_depth`` a game allows, and recursion past it fails as frames fail.
IN_PLACE_DEPTH = 100


def call_in_place(st: Board, table: list, proc: int, local: dict) -> bool:
    """Call procedure ``proc``'s direct function, with a finished frame of it on the stack as a marker
    (one per procedure, shared: nothing runs it or reads its locals): call depth counts it, and an unwound
    turn takes it away. The call is a unit of work. True when play must stop."""
    st.work -= 1                   # a call is a unit of work, as its frame's step is: recursion that branches
    if st.work < 0:                # (each call making two) has no loop to charge
        raise over_budget(st)
    stack = st.stack
    depth = len(stack)
    if depth >= IN_PLACE_DEPTH:
        return within(st, proc, local, depth)
    game = st.game
    stack.append(game.markers[proc])
    if depth >= game.call_depth:       # the stack with the marker is deeper than a game allows
        error = too_deep(st)
        error.span = None          # the direct function names the call that went too deep (codegen.blame)
        raise error
    if table[proc](st, local):
        return True
    stack.pop()
    return False


def instruction_in_place(st: Board, op: Callable, local: dict, base: int) -> bool:
    """Run one instruction where a direct function stands (compiler/direct.py), as the run loop would:
    again after each decision it asks (answered at once), then the triggers it fired and the frames it
    pushed, to their end. True when play must stop (the game is over, or the turn was unwound)."""
    stack = st.stack
    below = len(stack)
    fr = Frame(-1, 1, local)       # the instruction reads its locals here, and steps back to run again
    while op(st, fr):
        if st.over:
            return True
        asked_in_place(st)
    return fired_in_place(st, below, base)


def fired_in_place(st: Board, below: int, base: int) -> bool:
    """After an instruction or a statement done where a direct function stands (a card moved, compiler/direct.py):
    the triggers it fired and the frames it pushed above ``below``, run to their end. True when play must stop."""
    stack, fired = st.stack, st.fired
    if fired:
        stack.extend(reversed(fired))
        fired.clear()
    elif len(stack) <= below:              # the usual case, nothing pushed: no call to run nothing
        return st.over or len(stack) < base
    return _run_pushed(st, below, base)


def _run_pushed(st: Board, below: int, base: int) -> bool:
    """Run the frames pushed above ``below`` to their end; True when play must stop: the game is over, or
    the turn was unwound below ``base``, where the direct function that asked stands."""
    if len(st.stack) > below:
        if len(st.stack) > st.game.call_depth:
            raise too_deep(st)
        run_within(st, below)
    return st.over or len(st.stack) < base


def decide(st: Board, offer: Callable, take: Callable, local: dict) -> None:
    """A decision of one player where a direct function asks it (compiler/direct.py), as its instruction
    (``choices._decision``) asks it and takes the answer: ``offer`` gives (player, kind, prompt, options,
    values); one option (or none) is taken at once unless the game asks single options."""
    player, kind, _, options, values = offer(st, local)
    if len(values) < 2 and not (values and st.ask_single):     # not State.asks: taken at once, without a call
        cards = offer.cards
        if values and cards is not None:
            st.forced(kind, player, options[0][0], cards(values[0]))
        take(st, local, values[0] if values else None)
        return
    take(st, local, st.answer_one_in_place(kind, player, options, values, offer.site))


def decide_secretly(st: Board, gather: Callable, keep: Callable, local: dict) -> None:
    """A secret choice where a direct function asks it, as its instruction (``choices.secret_decision``) does."""
    choosers, options, values = gather(st, local)
    if choosers:
        keep(st, local, choosers, st.answer_in_place("secret", choosers, options, values, gather.site))


def asked_in_place(st: Board) -> None:
    """An instruction asked a decision where nothing may wait: it was answered at once (``State.autopick``),
    and the instruction runs again to take the answer."""
    if st.answer is None:
        raise RulelangError("a decision waits inside a step played in place (rulelang's own error)")
    try:
        answered_in_place(st)
    except RuleError as error:
        error.span = error.span or waiting_span(st)
        raise


def settle_at_decision(st: Board, left: int) -> None:
    """``limits.next_budget`` where the run loop stops at a decision: a game out of work or events is told
    at the decision waiting (its instruction runs again to take the answer, so it is the frame's own pc)."""
    try:
        next_budget(st, left)
    except RuleError as error:
        error.span = waiting_span(st)
        raise


def waiting_span(st: Board) -> Span | None:
    """The spec location of the instruction waiting for a decision on top of the stack, if it has one."""
    if not st.stack:
        return None
    fr = st.stack[-1]
    spans = st.game.procs[fr.proc].spans
    return spans[fr.pc] if 0 <= fr.pc < len(spans) else None


def answered_in_place(st: Board) -> None:
    """A decision was answered in place: count it against the play-out's limit, settle the game's budgets
    as ``run`` does at a decision, and start a new work budget."""
    st.picks_left -= 1
    if st.picks_left < 0:
        raise DecisionLimit("the game did not end within the decisions a play-out allows")
    left = st.reserve + st.work
    game = st.game
    budget = game.step_budget
    if left >= budget and len(st.log) <= game.event_limit:
        st.reserve = left - budget
        st.work = budget
    else:
        next_budget(st, left)


def failure(error: Exception, span: Span | None = None) -> RuleError:
    """A Python error inside a rule, told in the spec's words."""
    text = str(error)
    if isinstance(error, KeyError) and error.args == ("me",):
        return RuleError("'me' has no value here: no player's turn is running (a phase played in rounds, "
                         "or a procedure called from one)", span,
                         hint="pass the player as a parameter, or use this rule only in phases played by seat")
    if "NoneType" in text or "None" in text.split(":")[-1]:
        return RuleError("a value used here is none: no such player, card or place", span,
                         hint="test it before using it, as in: if x != none:")
    return RuleError(f"a rule failed while playing: {text}", span)


#: What can go wrong inside a statement: a rule's own error, or Python's, told in the spec's words.
FAILURES = (RuleError, ArithmeticError, TypeError, ValueError, IndexError, KeyError, RecursionError)


def located(error: BaseException, span: Span | None) -> RuleError:
    """A failure inside a statement as a RuleError that points at it (unless it points somewhere already)."""
    if isinstance(error, RuleError):
        error.span = error.span or span
        return error
    if isinstance(error, RecursionError):
        return RuleError("the rules nest too deeply", span)
    return failure(error, span)


def _locate_runtime(st: Board, error: RuleError) -> RuleError:
    """Point a runtime error at the spec line of the instruction that failed.

    The error keeps the state (``error.state``) so a caller can still write the
    event log up to the failure.
    """
    error.state = st
    if error.span is None and st.stack:
        fr = st.stack[-1]
        proc = st.game.procs[fr.proc]
        pc = max(0, min(fr.pc - 1, len(proc.spans) - 1))
        if proc.spans:
            error.span = proc.spans[pc]
        where = f"in {proc.name}"
    else:
        where = ""
    context = f"seed {st.seed}, turn {st.turn}" + (f", {where}" if where else "")
    error.hint = f"{error.hint} ({context})" if error.hint and "seed" not in error.hint else (error.hint or context)
    return error


def current_span(state: Board) -> Span | None:
    """Where a failed play-out stopped: the instruction last run, in the innermost frame that has a span
    (``waiting_span`` is the other question: where a decision waits)."""
    for frame in reversed(state.stack):
        proc = state.game.procs[frame.proc]
        if proc.spans:
            span = proc.spans[max(0, min(frame.pc - 1, len(proc.spans) - 1))]
            if span is not None:
                return span
    return None
