"""Playing a card as an instruction: choose a card and its target, let others answer, then resolve it.

The runtime side of the protocol (which cards may be played, who may answer, answering) is
in ``cards``; this is the instruction sequence a `plays` statement becomes, and, for a step
played in place (compiler/direct.py), its choice followed by ``rest_in_place``: the other
three instructions in one call, frames only where a discard, an answer or a framed effect
needs them. StmtCompiler takes it as a mixin.
"""
from __future__ import annotations

from typing import Any

from .. import nodes as n
from .. import records
from ..interpreter import Frame, call_in_place, instruction_in_place
from ..engine import NAMES, answer_card, discard_card, answerers, discard_options, legal_plays, reaction_options, zone_of_hand
from .choices import _decision
from .sites import ANSWER, PLAY


#: the option that answers nothing (shared: nothing changes an option once offered)
PASS = ["pass", "pass"]


class PlayStatements:
    """StmtCompiler's `plays` statement."""

    def s_Play(self, s: n.Play, b: Any) -> None:
        """`play from ZONE`: four instructions sharing one hidden local.

        choose (a legal card and target, or a discard), declare (the `played`
        event and who may answer), react (each possible answerer in seat order
        decides; the first answer cancels the card), resolve (the card's own
        procedure: placing it, then its effect).
        """
        zone, else_discard = self.ec.expr(s.zone), s.else_discard
        slot = self.fresh("play")
        game = self.game

        def offer(st, L):
            zid = zone(st, L)
            player = st.lay.zones[zid][1]
            options, values = legal_plays(st, player, zid)
            if not values and else_discard:
                return (player, "discard", "discard a card") + discard_options(st, zid)
            return player, "play", "play a card", options, values

        def pick(st, L, value):
            L[slot] = value

        choose = _decision(offer, pick)

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
            while i < len(reactors):
                reactor = reactors[i]
                options, values = reaction_options(st, card, player, reactor, zone_of_hand(st, reactor, card, player))
                if values:
                    state[4] = i
                    options.append(PASS)
                    values.append(None)
                    waiting = st.ask("answer", f"answer {game.card_type[card].name}?", [reactor], [options], [values])
                    fr.pc -= 1     # run again with the answer
                    return waiting
                i += 1
            state[4] = i
            return False

        def resolve(st, fr):
            state = fr.locals.pop(slot, None)
            if state is None:
                return False
            card, player, target = state[0], state[1], state[2]
            proc = game.card_type[card].play_proc
            local = {"me": player, "target": target, "this": card}
            if st.autopick is not None and game.direct and game.direct[proc] is not None:    # compiler/direct.py
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
                for i, reactor in enumerate(reactors):
                    options, values = reaction_options(st, card, player, reactor,
                                                       zone_of_hand(st, reactor, card, player))
                    if values:
                        state[4] = i
                        options.append(PASS)
                        values.append(None)
                        answer = st.answer_one_in_place("answer", reactor, options, values)
                        if answer is not None:
                            st.answer = [answer]
                            return instruction_in_place(st, react, L, base)
            proc = game.card_type[card].play_proc
            if st.autopick is None or not game.direct or game.direct[proc] is None:
                L[slot] = [card, player, target, reactors, len(reactors)]
                return instruction_in_place(st, resolve, L, base)
            L.pop(slot)
            if call_in_place(st, game.direct, proc, {"me": player, "target": target, "this": card}) and st.over:
                return True
            return st.over or len(st.stack) < base

        pcs = [b.emit(op, s.span) for op in (choose, declare, react, resolve)]
        choose.rest_in_place = rest_in_place    # how a step played in place runs the other three
        self.sites.add(b.sites, pcs[0], "play", PLAY, s.span, self.sites.plays(else_discard))
        self.sites.add(b.sites, pcs[2], "answer", ANSWER, s.span, self.sites.answers())
