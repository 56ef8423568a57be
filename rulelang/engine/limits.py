"""How much the rules may do between two decisions: work, numbers and call depth.

A spec is untrusted input. One statement may ask for a trillion cards from a
deck that refills itself, a loop may square a number until it has millions of
digits, a procedure may call itself until memory runs out. Each of these is
counted or bounded where it happens, so a runaway rule stops quickly with an
error that names it, rather than hanging or eating memory.

The work budget of one ``run`` of the interpreter lives in ``State.work``: it
starts at the game's ``step_budget``, and each unit of work done inside a
statement (a card moved, a die rolled, a loop pass, an option looked at, an
item an aggregate looks at) takes one from it where it happens. The
interpreter counts the statements themselves and stops when the two together
pass the budget.

A whole game has two budgets more, so that rules which stay within ``step_budget`` between decisions,
over and over, cannot play for hours or fill memory: ``game_budget``, the work of the whole game, and
``event_limit``, the events its log keeps. Both are settled at each decision (``interpreter.run`` and
``answered_in_place``), never inside the loop: ``State.reserve`` is the game's work left beyond the
budget of the run under way, ``State.allowed``. A run is allowed ``step_budget`` while the reserve
holds that much, then what is left, so the game's last units of work run out where they are spent,
with the step budget's own checks and a message of their own (``over_budget``).
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from rulelang.errors import RuleError, Span, shown

if TYPE_CHECKING:
    from rulelang.engine.board import Board

MAX_DICE = 10_000               # dice in one roll: more is a runaway rule, not a game
MAX_OPTIONS = 100_000           # options of one "how many" decision, and numbers of one range(a, b)


#: Decisions a random play-out may take before it is called endless (validate's smoke test, the lab).
MAX_DECISIONS = 100_000


class DecisionLimit(RuleError):
    """A game still going after the most decisions a play-out allows: an end condition that never holds."""


def spend(st: Board, units: int) -> None:
    """Take ``units`` of work from the budget of this run; a runaway rule stops here."""
    st.work -= units
    if st.work < 0:
        raise over_budget(st)


def roll_dice(st: Board, count: int, faces: int, already: int = 0) -> list[int]:
    """``count`` new dice of a roll that holds ``already``: bounded by MAX_DICE and charged as work."""
    if already + count > MAX_DICE:
        raise RuleError(f"a roll of {already + count} dice is more than the {MAX_DICE} a roll may have")
    spend(st, count)
    if st.dice_script:                  # scripted dice (a scenario): roll_die takes them one by one
        return [st.roll_die(faces) for _ in range(count)]
    draw = st.randbelow                 # what roll_die does without a script, one call fewer per die
    if count == 1:                      # one die, the commonest roll: no comprehension to set up
        return [draw(faces) + 1]
    dice = []                           # a loop, not a comprehension: a roll has a few dice, and a comprehension
    for _ in range(count):              # is a call of its own
        dice.append(draw(faces) + 1)
    return dice


def over_budget(st: Board) -> RuleError:
    """The work of a run passed its budget: the step budget's, or the game's last units (no reserve left)."""
    if st.reserve <= 0:
        return game_over_budget(st)
    budget = st.game.step_budget
    return RuleError(f"the rules ran {budget:,} steps without a decision "
                     "(a rule that loops or triggers itself forever?)",
                     hint="raise step_budget (a top-level key) if the rules are right")


def game_over_budget(st: Board) -> RuleError:
    return RuleError(f"the game ran out of its {st.game.game_budget:,} steps of work "
                     "(rules that do a great deal between decisions, over and over?)",
                     hint="raise game_budget (a top-level key) if the rules are right")


def too_many_events(st: Board) -> RuleError:
    return RuleError(f"the game's log holds more than its limit of {st.game.event_limit:,} events "
                     "(rules that change or move things over and over?)",
                     hint="raise event_limit (a top-level key) if the rules are right")


def fresh_budget(st: Board) -> None:
    """A game's whole budget, none of it spent: the first run's allowance and the reserve beyond it."""
    game = st.game
    st.allowed = st.work = min(game.step_budget, game.game_budget)
    st.reserve = game.game_budget - st.allowed


def next_budget(st: Board, left: int) -> None:
    """At a decision, the game having ``left`` units of work: the next run's allowance and the reserve, or
    the error of a game that ran out of work or keeps too many events. The common case is written out
    where it is met (``interpreter.run``, ``answered_in_place``); this is the rest."""
    if left < 0:
        raise game_over_budget(st)
    if len(st.log) > st.game.event_limit:
        raise too_many_events(st)
    st.allowed = st.work = min(left, st.game.step_budget)
    st.reserve = left - st.allowed


def too_big(value: int, limit: int, span: Span | None = None) -> RuleError:
    """A number past the game's range: a rule that multiplies or adds without end."""
    return RuleError(f"a number went past the limit of the game: {shown(value)} is not between "
                     f"-{limit:,} and {limit:,}", span,
                     hint="a rule that multiplies or adds without end? (the range is number_limit, "
                          "a top-level key)")


def too_deep(st: Board) -> RuleError:
    """The stack holds more frames than the game's call_depth: name what was called last."""
    game, stack = st.game, st.stack
    called = game.procs[stack[-1].proc].name
    span = None
    if len(stack) > 1:                      # point at the instruction that called it
        caller = game.procs[stack[-2].proc]
        pc = stack[-2].pc - 1
        if 0 <= pc < len(caller.spans):
            span = caller.spans[pc]
    return RuleError(f"the rules nest more than {game.call_depth:,} calls deep, calling {called} "
                     "(a procedure or trigger that calls itself without end?)", span,
                     hint="give the recursion a condition that stops it, or raise call_depth (a top-level key)")
