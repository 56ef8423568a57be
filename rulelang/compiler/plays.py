"""Playing a card as an instruction: choose a card and its target, let others answer, then resolve it.

The engine side of the protocol (which cards may be played, who may answer, answering) is
in ``engine``; this is the instruction sequence a `plays` statement becomes. StmtCompiler
takes it as a mixin.
"""
from __future__ import annotations

from typing import Any

from .. import nodes as n
from .. import records
from ..interpreter import Frame, call_in_place
from ..engine import NAMES, answer_card, discard_card, answerers, discard_options, legal_plays, reaction_options, zone_of_hand
from .choices import _decision
from .sites import ANSWER, PLAY


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
            st.log.append((records.played, st.turn, player, card, NAMES[target]))
            L[slot] = [card, player, target, answerers(st, card, player), 0]
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
                    options.append(["pass", "pass"])
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

        pcs = [b.emit(op, s.span) for op in (choose, declare, react, resolve)]
        self.sites.add(b.sites, pcs[0], "play", PLAY, s.span, self.sites.plays(else_discard))
        self.sites.add(b.sites, pcs[2], "answer", ANSWER, s.span, self.sites.answers())
