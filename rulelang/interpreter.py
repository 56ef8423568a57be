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

from typing import TYPE_CHECKING

from .errors import RulelangError, RuleError, Span
from .limits import over_budget, too_deep

if TYPE_CHECKING:
    from .state import State


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


def run(st: State) -> None:
    """Execute instructions until a decision is needed or the game is over.

    Each instruction is one unit of work, counted in a local; the primitives
    take the work done inside one instruction (cards moved, loop passes, ...)
    from ``st.work`` as they go. Whenever the frame changes, the two together
    must stay within the budget.
    """
    code = st.game.code
    stack = st.stack
    fired = st.fired
    depth = st.game.call_depth
    st.work = st.game.step_budget
    steps = 0
    try:
        while stack and not st.over:
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
                    return         # waiting for a decision, or the game is over
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
                    if fr.pc >= size and len(stack) > 1 and stack[-2] is fr:
                        del stack[-2]  # a call in last place: the caller is done
                    if len(stack) > depth:
                        raise too_deep(st)
                    break          # a frame was pushed, or the turn was unwound
            if steps > st.work:    # the statements run and the work done inside them, together
                raise over_budget(st)
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


def _locate_runtime(st: State, error: RuleError) -> RuleError:
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
