"""Turn flow: starting a game, the turn loop's instructions, ending a turn, ending the game.

``start_game`` makes the state of a new game (``Game.new_state``): who goes
first, the ``started`` event, then the turn loop runs to the first decision.
The turn loop is one procedure, assembled by the compiler (compiler/turn_loop.py)
from the instructions made here: begin a turn, start a step, and pass to the
next seat or phase. ``end_turn`` unwinds to it, and ``check_end`` asks the end
conditions in order.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from rulelang.engine import records
from rulelang.engine.elimination import first_live, next_live
from rulelang.engine.interpreter import Frame, run
from rulelang.engine.starts import memo_of
from rulelang.engine.state import State
from rulelang.engine.views import player_name
from rulelang.errors import RuleError, RulelangError
from rulelang.model.spec import FirstSeat

if TYPE_CHECKING:
    from rulelang.engine.rules import EndCondition, Fn, Op, Phase, Rules


#: Read at every new game: a module name is quicker than an enum's member lookup.
_RANDOM = FirstSeat.RANDOM


def start_game(game: Rules, players: int, seed: int, observer: Callable | None, before_first_turn: bool,
               ask_single_options: bool | None, chance: list[int] | None = None, history: bool = True) -> State:
    """A new game for ``players`` seats, played until its first decision (see ``Game.new_state``)."""
    if not game.min_players <= players <= game.max_players:
        raise RulelangError(
            f"{game.name} is for {game.min_players} to {game.max_players} players, not {players}")
    lay = game.layout(players)
    missing = [name for name in game.tables if name not in lay.tables] if game.tables else None
    if missing:
        raise RulelangError(f"table '{missing[0]}' has no row for {players} players")
    ask_single = game.ask_single_options if ask_single_options is None else bool(ask_single_options)
    st = State.blank(game, lay, seed, observer, ask_single, history)
    if observer is None and not before_first_turn and chance is None:
        memo = memo_of(game, (players, ask_single, history))
        if memo is not None:            # a setup that draws little: its few starts are kept (starts.py)
            return memo.start(seed, st, _play_setup)
    st.begin_afresh()
    if chance is not None:
        st.chance = list(chance)
    if before_first_turn and game.step_pcs:
        st.halt = [1, next(iter(game.step_pcs))]
    _play_setup(st)
    return st


def _play_setup(st: State) -> None:
    """Who goes first, the ``started`` event, then the turn loop up to the first decision."""
    game, lay = st.game, st.lay
    first = game.phases[0]
    if first.by_seat and first.first is _RANDOM:
        st.active = st.randbelow(st.n)
    started = {"type": "started", "game": game.name, "players": st.n, "seed": st.seed,
               "roles": lay.roles, "first": player_name(st.active)}
    if game.params:                   # only a game that declares params records them: old logs stay the same
        started["params"] = dict(game.params)
    if game.origin:                   # only a modded game records what it was made of: the same for the others
        started["spec"] = game.origin["spec"]
        started["mods"] = [dict(mod) for mod in game.origin["mods"]]
    st.log.append(started)
    if game.named_phases:
        st.log.append({"type": "phase", "turn": 0, "phase": first.name})
    run(st)


def end_turn(st: State) -> None:
    """Unwind to the turn loop, which moves on to the next turn."""
    del st.stack[1:]
    st.stack[0].pc = st.game.phases[st.phase].end_pc
    st.fired.clear()


def check_end(st: State) -> bool:
    """The first end condition that holds ends the game (its `me`: the active player, in a phase by seat)."""
    game = st.game
    known = st.end_known
    if known == game.end_all:                      # kept: none held, and nothing they read has changed
        return False
    first = game.end_first
    if first is not None:                          # all of them in one generated function
        local = _end_locals(st) if game.end_reads_locals else None
        k = first(st, local, known or 0)           # those known to be false are not asked again
        if k < 0 and game.end_kept:                # they read only zones: kept until one changes (compiler/derived.py)
            st.end_known = game.end_all
        return k >= 0 and _ended(st, game.end[k], local if local is not None else _end_locals(st))
    local = _end_locals(st)
    for cond in game.end:
        if cond.when(st, local):
            return _ended(st, cond, local)
    return False


def _end_locals(st: State) -> dict:
    """The locals of the end conditions: `me`, the active player, in a phase played by seat."""
    return {"me": st.active} if st.game.phases[st.phase].by_seat else {}


def _ended(st: State, cond: EndCondition, local: dict) -> bool:
    """End the game by ``cond``, which holds: its winners, the `ended` event; True."""
    game = st.game
    won = cond.winner(st, local)
    st.winners = [won] if isinstance(won, int) else sorted(set(won or []))
    st.over = True
    st.stack.clear()              # a finished game has nothing left to run, however it was played
    st.result = cond.name
    event = {"type": "ended", "turn": st.turn, "condition": cond.name,
             "winners": st.winner_names(), "team": st.winning_team()}
    if game.score is not None:
        event["scores"] = st.scores()
    if game.returns is not None:          # only when declared: other games' logs stay the same
        event["returns"] = st.returns()
    st.log.append(event)
    return True


# --- the turn loop's own instructions (assembled by compiler/turn_loop.py) ----------------

def begin_turn(phase: Phase) -> Callable:
    """The first instruction of a phase's turns: count the turn (past the limit is an error) and say whose it is;
    then, when it can, play the whole turn in place (``turn_in_place``), and the next one, as long as the phase
    goes on and its turns can be played so: the instruction after the turn (``Phase.after_turn``) is run here,
    as the run loop would run it, and this one again."""
    limit, seat = phase.limit, phase.by_seat

    def op(st, fr):
        whole = plays_whole(st, phase)      # asked once: a turn played whole changes none of what it reads
        while True:
            st.turn += 1
            if st.turn > limit:
                raise RuleError(f"the game did not end within {limit} turns",
                                hint=f"seed {st.seed}: check the end conditions, or raise the limit")
            if st.history:
                st.log.append((records.turn, st.turn, st.active) if seat else (records.turn, st.turn))
            if not whole:
                return None         # its steps start one by one
            if phase.in_place(st):  # as turn_in_place plays it, without its call and its questions each turn
                if st.over:
                    return True     # or the turn was unwound: the loop is at its end already
            else:
                fr.pc = phase.end_pc
            if fr.pc != phase.end_pc or phase.after_turn is None:
                return None         # its steps start one by one, or the turn loop goes on as it is
            fr.pc += 1              # the turn played in place: the instruction after it, here, as the run loop
            phase.after_turn(st, fr)        # would (the next seat, or the next phase)
            if fr.pc != phase.begin_pc:
                return None
            fr.pc += 1              # another turn of this phase: this instruction again, without the run loop
    return op


def plays_whole(st: State, phase: Phase) -> bool:
    """Whether the phase's turns are played as ``phase.in_place``, their steps written out in one function
    (compiler/direct.py): the phase has one and nothing may stop or watch the game between its steps (every
    decision is answered in place, and no scenario halts or observes the game). Otherwise their steps start
    one by one (``call_step``)."""
    return phase.in_place is not None and st.autopick is not None and st.halt is None and st.observer is None


def turn_in_place(st: State, fr: Frame, phase: Phase) -> bool | None:
    """Play the turn that starts now whole, when it can be (``plays_whole``); the turn loop then goes on at its
    end. True when play must stop (the game is over)."""
    if not plays_whole(st, phase):
        return None
    if phase.in_place(st):
        return True if st.over else None    # or the turn was unwound: the loop is at its end already
    fr.pc = phase.end_pc
    return None


def resume_before_step(st: State) -> None:
    """Go on from a game stopped where a step is about to start (``fixtures.halted_before_step``); stopped
    before a turn's first step (``new_state(before_first_turn=True)``), the turn is played as
    ``begin_turn`` would play it."""
    fr, phase = st.stack[0], st.game.phases[st.phase]
    if fr.pc == phase.first_step_pc:
        turn_in_place(st, fr, phase)
    run(st)


def next_turn(game: Rules, k: int) -> Callable:
    """After a turn of phase k: the next seat (or another turn), and the next phase once `until` holds."""
    phase = game.phases[k]
    seat, until = phase.by_seat, phase.until

    def op(st, fr):
        ends = until is not None and until(st, {"me": st.active} if seat else {})
        if seat:
            if st.next_player is not None:      # someone takes another turn
                st.active, st.next_player = first_live(st, st.next_player), None
            elif True in st.out:                # eliminated seats are passed over (no turn counted)
                st.active = next_live(st, st.active)
            else:
                st.active = (st.active + 1) % st.n
        if not ends:
            fr.pc = phase.begin_pc
            return
        if k + 1 == len(game.phases):
            raise RuleError(f"phase '{phase.name}' ended, but no end condition holds and no phase follows",
                            hint="add an end condition that holds when the last phase ends")
        following = game.phases[k + 1]
        st.phase = k + 1
        if following.first is FirstSeat.FIRST:
            st.active = 0
        elif following.first is FirstSeat.RANDOM:
            st.active = st.randbelow(st.n)
        st.active = first_live(st, st.active)
        st.log.append({"type": "phase", "turn": st.turn, "phase": following.name})
        fr.pc = following.begin_pc
    return op


def call_step(name: str, proc: int | Fn, seat: bool, fire: Op | None = None, direct: Fn | None = None) -> Callable:
    """Start a step: push its frame, or run it in place if it never waits.

    ``fire`` starts its `before step` triggers with it, to run first (a step with any is never in place).
    ``direct`` is the step as one Python function (compiler/direct.py), played instead of its frame while
    every decision is answered in place (``State.autopick``).
    A halt set for this step and turn (fixtures.halt_before) stops the game here instead, with no decision.
    """
    inline = None if isinstance(proc, int) else proc
    step_record = records.step

    def op(st, fr):
        halt = st.halt
        if halt is not None and halt[0] == st.turn and halt[1] == name:
            st.halt = None         # a scenario asked to stop here
            fr.pc -= 1
            return True
        if st.observer is not None:    # tests and tools watch the game between steps
            st.observer(st, name)
        if st.history:
            st.log.append((step_record, st.turn, name))
        local = {"me": st.active} if seat else {}
        if inline is not None:
            return inline(st, local)
        if direct is not None and st.autopick is not None:
            return play_in_place(st, direct, proc, local) and st.over
        st.stack.append(Frame(proc, 0, local))
        if fire is not None:
            fire(st, fr)
    return op


def play_in_place(st: State, direct: Fn, proc: int, local: dict) -> bool:
    """Play a step as its direct function, a finished frame of it on the stack as a marker (see
    compiler/direct.py). True when play must stop: the game is over, or the turn was unwound (the turn
    loop then goes on from where the unwinding left it)."""
    stack = st.stack
    stack.append(st.game.markers[proc])
    if direct(st, local):
        return True
    stack.pop()
    return False
