"""Playing a card as an instruction: choose a card and its target, let others answer, then resolve it.

The runtime side of the protocol (which cards may be played, who may answer, answering) is
in ``cards``; this is the instruction sequence a `plays` statement becomes, and, for a step
played in place (compiler/direct.py), its choice followed by ``rest_in_place``: the other
three instructions in one call, frames only where a discard, an answer or a framed effect
needs them. StmtCompiler takes it as a mixin.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rulelang.engine import records
from rulelang.engine.cards import (
    answer_card,
    answerers,
    discard_card,
    discard_options,
    legal_plays,
    reaction_options,
    zone_of_hand,
)
from rulelang.engine.interpreter import Frame, call_in_place, instruction_in_place
from rulelang.engine.names import NAMES
from rulelang.engine.state import State
from rulelang.model.spec import Event

from .choices import _decision
from .hooks import fire_play_hooks
from .sites import ANSWER, PLAY

if TYPE_CHECKING:
    from ..statements.play import Play

#: the option that answers nothing (shared: nothing changes an option once offered)
PASS = ["pass", "pass"]


def next_holder(st: State, card: int, player: int, reactors: list[int], i: int) -> tuple[int, list, list]:
    """From the ``i``-th reactor on, the first who holds an answer to the card: (their place in ``reactors``,
    their options and values, "pass" last); (len(reactors), None, None) when nobody left does."""
    while i < len(reactors):
        reactor = reactors[i]
        options, values = reaction_options(st, card, player, reactor, zone_of_hand(st, reactor, card, player))
        if values:
            options.append(PASS)
            values.append(None)
            return i, options, values
        i += 1
    return i, None, None


def effect_in_place(st: State, proc: int) -> bool:
    """Whether a card's effect runs as its direct function (compiler/direct.py): every decision is answered
    in place and the effect has one."""
    direct = st.game.direct
    return st.autopick is not None and bool(direct) and direct[proc] is not None


class PlayStatements:
    """StmtCompiler's `plays` statement."""

    action_hooks: dict[Event, list[int]]

    def card_play(self, s: Play, b: Any) -> None:
        """`play from ZONE` (``statements/play.py``): four instructions sharing one hidden local (five with
        `before play` triggers).

        choose (a legal card and target, or a discard), [the `before play` triggers, which may forget the
        choice: ``hooks.cancel_play``], declare (the `played`
        event and who may answer), react (each possible answerer in seat order
        decides; the first answer cancels the card), resolve (the card's own
        procedure: placing it, then its effect).
        """
        zone, else_discard = self.ec.expr(s.zone), s.else_discard
        slot = self.fresh("play")
        game = self.game
        play_name, answer_name = self.sites.name(PLAY), self.sites.name(ANSWER)

        def offer(st, L):
            zid = zone(st, L)
            player = st.lay.zones[zid][1]
            options, values = legal_plays(st, player, zid)
            if not values and else_discard:
                return (player, "discard", "discard a card") + discard_options(st, zid)
            return player, "play", "play a card", options, values

        def pick(st, L, value):
            L[slot] = value

        choose = _decision(offer, pick, None, play_name)

        def announce(st, card, player, target):
            """The card is declared (the `played` event); the players who may answer it, in seat order."""
            st.log.append((records.played, st.turn, player, card, NAMES[target]))
            return answerers(st, card, player)

        def declare(st, fr):
            L = fr.locals
            pick = L.get(slot)
            if pick is None:
                return False
            if pick[0] == "discard":
                L.pop(slot)
                discard_card(st, pick[1])
                return False
            _, card, player, target = pick
            L[slot] = [card, player, target, announce(st, card, player, target), 0]
            return False

        def react(st, fr):
            L = fr.locals
            state = L.get(slot)
            if state is None:
                return False
            card, player, target, reactors, i = state
            answer = st.answer
            if answer is not None:
                st.answer = None
                if answer[0] is not None:
                    reactor, reaction = answer[0]
                    L.pop(slot)
                    answer_card(st, card, player, reactor, reaction)
                    return False
                i += 1
            state[4], options, values = next_holder(st, card, player, reactors, i)
            if values is None:
                return False
            waiting = st.ask("answer", f"answer {game.card_type[card].name}?", [reactors[state[4]]], [options],
                             [values], answer_name)
            fr.pc -= 1     # run again with the answer
            return waiting

        def resolve(st, fr):
            state = fr.locals.pop(slot, None)
            if state is None:
                return False
            card, player, target = state[0], state[1], state[2]
            proc = game.card_type[card].play_proc
            local = {"me": player, "target": target, "this": card}
            if effect_in_place(st, proc):
                return call_in_place(st, game.direct, proc, local) and st.over
            st.stack.append(Frame(proc, 0, local))
            return False

        def rest_in_place(st, L, base):
            """declare, react and resolve where a step played in place stands (compiler/direct.py), as
            ``instruction_in_place`` runs the three instructions, each after the other, but without their
            frames where nothing fires, waits or pushes: the card declared and its answerers found, their
            answers taken at once (``answer_one_in_place``), the card's effect called in place. A discard,
            an answer and an effect without a direct function run as their instruction. True when play
            must stop."""
            pick = L.get(slot)
            if pick is None or pick[0] == "discard":
                return instruction_in_place(st, declare, L, base)
            _, card, player, target = pick
            reactors = announce(st, card, player, target)     # fires and pushes nothing
            if reactors:                # the locals as `declare` and `react` leave them, while answers are asked
                L[slot] = state = [card, player, target, reactors, 0]
                i, options, values = next_holder(st, card, player, reactors, 0)
                while values is not None:
                    state[4] = i
                    answer = st.answer_one_in_place("answer", reactors[i], options, values, answer_name)
                    if answer is not None:
                        st.answer = [answer]
                        return instruction_in_place(st, react, L, base)
                    i, options, values = next_holder(st, card, player, reactors, i + 1)
            proc = game.card_type[card].play_proc
            if game.direct[proc] is None:   # every decision is answered in place here: effect_in_place's one test
                L[slot] = [card, player, target, reactors, len(reactors)]
                return instruction_in_place(st, resolve, L, base)
            L.pop(slot)
            call_in_place(st, game.direct, proc, {"me": player, "target": target, "this": card})
            return st.over or len(st.stack) < base

        hooks = self.action_hooks.get(Event.BEFORE_PLAY)
        before = [fire_play_hooks(hooks, slot)] if hooks is not None else []
        at = b.emit(choose, s.span)
        for op in before + [declare]:
            b.emit(op, s.span)
        asks_answers = b.emit(react, s.span)
        b.emit(resolve, s.span)
        if not before:      # a step played in place runs the other three so (with `before play` triggers, as frames)
            choose.rest_in_place = rest_in_place
        self.sites.add(b.sites, at, "play", PLAY, s.span, self.sites.plays(else_discard))
        self.sites.add(b.sites, asks_answers, "answer", ANSWER, s.span, self.sites.answers())
