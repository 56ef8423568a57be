"""Cards: how they move, what fires when they do, and the whole play/answer protocol.

``move_card`` is the one primitive every card statement is built on: it keeps
one-of-a-kind slots (evicting the card a new one replaces), clears counters
that fall off, fires a zone's enter/leave triggers and checks cards that are
discarded when something holds. Draw, refill, shuffle and discard build on it.
The second half is playing a card and answering one: the instructions
that place a played card and run its `resolve` triggers, which plays are
legal (with their targets), who may answer a card, with what, and what an
answer does. Every move, shuffle and pass over a zone is work charged to the budget.
What those read of every card and never changes (which cards can be played or answer, the
options they make, where a card is discarded) is worked out once per game (``CardTables``).
"""
from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from rulelang.engine import records
from rulelang.engine.interpreter import Frame
from rulelang.engine.limits import over_budget, spend
from rulelang.engine.names import NAMES
from rulelang.engine.reveals import forget_revealed
from rulelang.errors import RuleError

if TYPE_CHECKING:
    from rulelang.engine.board import Board
    from rulelang.engine.rules import CardType, Fn, Rules, ZoneDecl


# --- card movement: the primitives every card statement is built on ---------------

def create_tokens(st: Board, game: Rules, ctype: CardType, supply: ZoneDecl, amount: int, dest: int) -> None:
    """`create N CARD in ZONE`: up to ``amount`` of the token's copies in its supply, the top ones first, go to
    ``dest``; the supply's cards are each a unit of work, looked over for them."""
    pool = st.zones[game.zone_id(supply, None, st.n)]
    spend(st, len(pool))
    tokens = [c for c in reversed(pool) if game.card_type[c] is ctype][:max(0, amount)]
    for card in tokens:
        move_card(st, card, dest, "created")


def move_card(st: Board, card: int, dest: int, how: str = "move") -> None:
    """Move one card; one-of-a-kind slots evict, triggers fire, watchers check."""
    loc = st.loc
    src = loc[card]
    if src == dest:
        return
    st.work -= 1
    if st.work < 0:
        raise over_budget(st)
    zones, places = st.zones, st.lay.zones
    pile = zones[src]
    if pile[-1] == card:        # from the top, as every draw is: no search through a deck
        pile.pop()
    else:
        pile.remove(card)
    ddecl, downer = places[dest]
    if ddecl.unique:
        _evict_slot(st, card, dest)
    zones[dest].append(card)
    loc[card] = dest
    if st.revealed:
        forget_revealed(st, card)
    if st.history:
        st.log.append((records.moved, st.turn, card, src, dest, how))
    sdecl, sowner = places[src]
    if sdecl is not ddecl:
        game = st.game
        if game.card_counters and any(st.counters[game.player_holder + st.n + card]):
            _clear_card_counters(st, card)
    if sdecl.on_leave:
        _fire(st, sdecl.on_leave, card, sowner)
    if ddecl.on_enter:
        _fire(st, ddecl.on_enter, card, downer)
    if ddecl.watched:
        _check_watchers(st, dest, downer)
    if sdecl.ends_read or ddecl.ends_read:     # kept end conditions read one of these zones (compiler/derived.py)
        known = st.end_known
        if known:
            st.end_known = known & ~(sdecl.ends_read | ddecl.ends_read)


def _clear_card_counters(st: Board, card: int) -> None:
    """Counters on a card travel with it between zones of one kind and fall off otherwise."""
    h = st.game.player_holder + st.n + card
    st.counters[h] = [0] * len(st.counters[h])     # move_card calls this only for a card holding some
    if st.history:
        st.log.append((records.cleared, st.turn, h))


def _evict_slot(st: Board, card: int, dest: int) -> None:
    """Discard the cards in the arriving card's slot: in its zone ``dest``, then in the zones sharing slots with it
    (``Layout.slot_zones``). Each card looked at is work; an empty zone costs none."""
    zones, slot_of = st.zones, st.game.slot_of
    slot = slot_of[card]
    for zid in st.lay.slot_zones[dest]:
        cards = zones[zid]
        if not cards:
            continue
        st.work -= len(cards)
        if st.work < 0:
            raise over_budget(st)
        for other in cards:
            if slot_of[other] == slot:      # rare: only then copy the list the discards change
                for c in [c for c in cards if slot_of[c] == slot]:
                    discard_card(st, c, how="replaced")
                break


def _fire(st: Board, triggers: list, card: int, owner: int | None) -> None:
    """Start the zone triggers whose `if:` holds for the card; a condition only reads its locals.

    A trigger's kind gate (``by_kind``, written out here) leaves most cards out without asking its condition."""
    local = None
    for cond, proc, gate, exact in triggers:
        if gate is not None and not gate[card]:
            continue
        if local is None:
            local = {"card": card, "owner": owner, "me": owner}
        if cond is None or gate is not None and exact or cond(st, local):
            st.fired.append(Frame(proc, 0, local))
            local = None                    # the frame owns it now


def by_kind(gate: list[bool] | None, exact: bool, card: int) -> bool | None:
    """What a condition's kind gate (compiler/forms.py) says of a card: False, it fails; True, it holds (the gate
    is the whole condition); None, the condition must be asked."""
    if gate is None:
        return None
    if not gate[card]:
        return False
    return True if exact else None


def _check_watchers(st: Board, zid: int, owner: int | None) -> None:
    """Discard the cards of a zone whose `discard_when` holds, in zone order; each card looked at is work."""
    cards = st.zones[zid]
    st.work -= len(cards)
    if st.work < 0:
        raise over_budget(st)
    rules = st.tables.discard_when
    for card in cards:
        if rules[card] is not None:
            break
    else:
        return                      # mostly no card here has a rule: nothing to ask
    loc = st.loc
    for card in [c for c in cards if rules[c] is not None]:     # the discards change the zone
        if loc[card] == zid and rules[card](st, {"this": card, "owner": owner, "me": owner}):
            discard_card(st, card, how="discarded")


def end_roll_durations(st: Board, die: str, roller: int | None) -> None:
    """After a roll: discard the roller's cards that last until their owner's next roll of this die."""
    lasting = st.game.discard_after_roll.get(die)
    if lasting is None or roller is None:
        return
    marked, decls = lasting
    game = st.game
    for decl in decls:
        cards = st.zones[game.zone_id(decl, roller, st.n)]
        for card in cards:
            if marked[card]:                # only then copy the list the discards change
                for other in [c for c in cards if marked[c]]:
                    discard_card(st, other, how="expired")
                break


def discard_zone(st: Board, card: int) -> int:
    """The pile a card is discarded to: its own ``discard:``, or its zone's; a player's pile is its holder's."""
    pile = st.tables.table_discard[card]
    if pile is not None:
        return pile
    ctype = st.game.card_type[card]
    if ctype.discard is None:
        zone = st.game.zones[ctype.zone].name
        raise RuleError(f"card '{ctype.id}' has nowhere to be discarded", ctype.zone_span,
                        hint=f"give zone '{zone}' a 'discard:' pile, or the card a 'discard:' key")
    decl = st.game.zones[ctype.discard]
    owner = st.lay.zones[st.loc[card]][1] if decl.owner == "player" else None
    return st.game.zone_id(decl, owner, st.n)


def discard_card(st: Board, card: int, how: str = "discarded") -> None:
    pile = st.tables.table_discard[card]        # a table's pile, known per card: no call to find it
    move_card(st, card, pile if pile is not None else discard_zone(st, card), how)


def draw_cards(st: Board, count: int, src: int, dest: int) -> None:
    """Draw from the top, refilling the source when it runs out (each card moved is work)."""
    zones = st.zones
    for _ in range(count):
        if not zones[src]:
            refill(st, src)
            if not zones[src]:
                return
        move_card(st, zones[src][-1], dest, "draw")


def refill(st: Board, zid: int) -> None:
    decl, owner = st.lay.zones[zid]
    if decl.refill_from is None:
        return
    source = st.game.zone_id(st.game.zones[decl.refill_from], owner, st.n)
    cards = st.zones[source]
    if not cards:
        return
    spend(st, len(cards))
    st.end_known = None
    st.zones[zid].extend(cards)
    for card in cards:
        st.loc[card] = zid
    st.zones[source] = []
    st.log.append({"type": "refilled", "turn": st.turn, "zone": st.lay.zone_labels[zid],
                      "from": st.lay.zone_labels[source], "cards": len(st.zones[zid])})
    shuffle_zone(st, zid)


def shuffle_zone(st: Board, zid: int) -> None:
    st.end_known = None               # an end check may read the order (first, last): asked again
    cards = st.zones[zid]
    spend(st, len(cards))
    last = len(cards) - 1
    for i, j in zip(range(last, 0, -1), st.draws_below(range(last + 1, 1, -1))):     # Fisher-Yates
        cards[i], cards[j] = cards[j], cards[i]
    st.log.append({"type": "shuffled", "turn": st.turn, "zone": st.lay.zone_labels[zid]})


# --- playing a card, and answering one ---------------------------------------------

def place_played(to: Fn) -> Callable:
    """The first instruction of a card's play: put the card where it goes (``to``) before its effect.

    Like every instruction that never asks a decision, it tells what it does on the locals alone
    (``acts``), so that a card's effect played in place does it without a frame (compiler/direct.py)."""
    def acts(st, L):
        move_card(st, L["this"], to(st, L), "play")

    def op(st, fr):
        acts(st, fr.locals)
    op.acts = acts
    return op


def after_resolving(cond: Fn | None, proc: int) -> Callable:
    """After a card's effect: run a `resolve` trigger that matches it (``cond``: the trigger's `if:`)."""
    def op(st, fr):
        L = fr.locals
        local = {"me": L["me"], "card": L["this"], "target": L["target"]}
        if cond is None or cond(st, local):
            st.stack.append(Frame(proc, 0, local))
    return op


def _discard_played(st: Board, L: dict) -> None:
    discard_card(st, L["this"], "resolved")


def discard_played(st: Board, fr: Frame) -> None:
    """The first instruction of a card's play with no `to:`: it is discarded before its effect."""
    _discard_played(st, fr.locals)


discard_played.acts = _discard_played      # what it does on the locals alone (see place_played)


class CardTables:
    """What the play protocol reads of every card, built once per game (``card_tables``) rather than per call.

    The ``[id, label]`` options it offers are made here once and shared by every decision of every
    state of the game: nothing changes an option once offered (protocol.py, views and saves only read them).
    The tables read the card declarations when the game is first played, as a compiled game never changes
    afterwards (a test that rewraps a game's conditions does so before playing it).
    """

    def __init__(self, game: Rules) -> None:
        self.kinds = kinds = game.cards
        #: card instance -> its kind if it can be played (has a `play:`), else None
        self.playable = [c if c.play_proc is not None else None for c in game.card_type]
        #: card instance -> its kind if it can answer (has an `answer: when`), else None
        self.answering = [c if c.answer_when is not None else None for c in game.card_type]
        #: card instance -> its `discard_when` condition, or None
        self.discard_when = [c.discard_when for c in game.card_type]
        #: card instance -> the table zone it is discarded to, or None (a player's pile, or none: ``discard_zone``)
        self.table_discard = [_table_pile(game, c) for c in game.card_type]
        #: card instance -> may anyone answer it: False (no), True (yes), None (ask ``answerers``' loop)
        self.answerable = [_may_be_answered(game, card) for card in range(len(game.card_type))]
        self.play_self = [[c.id, f"play {c.name}"] for c in kinds]
        self.play_on: list[list[list[str]]] = [[] for _ in kinds]
        self.answer_with = [[f"answer:{c.id}", f"answer with {c.name}"] for c in kinds]
        self.seats = 0
        self.add_seats(game.max_players)
        self.seats_from: dict[int, list[tuple[int, ...]]] = {}

    def around(self, n: int) -> list[tuple[int, ...]]:
        """For each of ``n`` seats, every seat in order from it, itself first."""
        known = self.seats_from.get(n)
        if known is None:
            known = self.seats_from[n] = [tuple((p + i) % n for i in range(n)) for p in range(n)]
        return known

    def add_seats(self, n: int) -> None:
        """The options that play each kind on each of ``n`` seats (more than the game's most, for a state made so)."""
        for c, on in zip(self.kinds, self.play_on):
            on.extend([f"{c.id}>{NAMES[t]}", f"play {c.name} on {NAMES[t]}"] for t in range(len(on), n))
        self.seats = max(self.seats, n)


def _table_pile(game: Rules, kind: CardType) -> int | None:
    if kind.discard is None or game.zones[kind.discard].owner == "player":
        return None
    return game.zone_id(game.zones[kind.discard], None, 0)     # a table zone's id is the same at any count


def _may_be_answered(game: Rules, card: int) -> bool | None:
    """``answerers``' quick look, where the card alone decides it: the first reaction kind that lets the
    question go round without asking a condition (True), none can (False), or a condition must be asked (None)."""
    for r in game.reaction_types:
        if r.answer_personal:
            return True
        said = by_kind(r.answer_gate, r.answer_exact, card)
        if said is None:
            return None
        if said:
            return True
    return False


def card_tables(game: Rules, n: int) -> CardTables:
    """The game's ``CardTables``, made on first use and kept with the game, with options for ``n`` seats."""
    tables = game.card_tables
    if tables is None:
        tables = game.card_tables = CardTables(game)
    if n > tables.seats:
        tables.add_seats(n)
    tables.around(n)            # known from now on: play and answers read ``seats_from[n]`` without a call
    return tables


def kinds_in(st: Board, zid: int) -> list[tuple[int, CardType]]:
    """One card of each kind in a zone, in zone order: copies of a card make one option."""
    return first_of_each(st, st.zones[zid], st.game.card_type)


def first_of_each(st: Board, cards: list[int], kind_of: list) -> list[tuple[int, CardType]]:
    """(card, kind) for the first card of each kind ``kind_of`` gives (None: leave the card out), in order.

    Each card looked at is work; a hand is small, so the kinds seen are kept in a list.
    """
    st.work -= len(cards)
    if st.work < 0:
        raise over_budget(st)
    found, seen = [], []
    for card in cards:
        kind = kind_of[card]
        if kind is not None and kind.index not in seen:
            seen.append(kind.index)
            found.append((card, kind))
    return found


def legal_plays(st: Board, player: int, zid: int) -> tuple[list, list]:
    """Every (card, target) the player may play from a zone, targets in seat order from the player.

    One option per kind of card, its first copy in zone order, each card looked at charged as work: the
    loop of ``first_of_each``, written out here (with its list of pairs, it was a tenth of this function's
    time, which runs at every card play). A target condition is not asked where its form tells
    (CardType.target_others, target_not_me); otherwise ``CardType.play_targets`` asks it for each seat, in one call.
    """
    hand = st.zones[zid]
    st.work -= len(hand)
    if st.work < 0:
        raise over_budget(st)
    tables = st.tables
    playable, play_self, play_on = tables.playable, tables.play_self, tables.play_on
    seats = tables.seats_from[st.n][player]     # every seat in order from the player, the player first
    if True in st.out:                          # a player who is out is no target
        seats = (player, *in_game(st, seats[1:]))
    options, values, seen = [], [], []
    for card in hand:
        ctype = playable[card]
        if ctype is None or ctype.index in seen:
            continue
        k = ctype.index
        seen.append(k)
        if ctype.play_target is None:
            options.append(play_self[k])
            values.append(["play", card, player, player])
        elif ctype.target_others:
            on = play_on[k]
            for t in seats[1:]:
                options.append(on[t])
                values.append(["play", card, player, t])
        else:
            on = play_on[k]
            for t in ctype.play_targets(st, player, card, seats[1:] if ctype.target_not_me else seats):
                options.append(play_self[k] if t == player else on[t])
                values.append(["play", card, player, t])
    return options, values


def targets_asking(allows: Fn) -> Callable:
    """A card's ``play_targets`` that asks its `target:` condition seat by seat, on the locals a card play has:
    the form without generated code (``compiler.Program.targets`` writes the condition out in its loop)."""
    def targets(st: Board, me: int, this: int, seats: tuple[int, ...]) -> list[int]:
        local = {"me": me, "this": this}
        found = []
        for t in seats:
            local["target"] = t
            if allows(st, local):
                found.append(t)
        return found
    return targets


def discard_options(st: Board, zid: int) -> tuple[list, list]:
    kinds = kinds_in(st, zid)
    return ([[f"discard:{ctype.id}", f"discard {ctype.name}"] for _, ctype in kinds],
            [["discard", card] for card, _ in kinds])


def answerers(st: Board, card: int, player: int) -> list[int]:
    """Players who may answer this card, in seat order from its player's left."""
    game = st.game
    if not game.reaction_types:
        return []
    tables = st.tables
    may = tables.answerable[card]     # the card alone decides it, mostly
    if may is None:
        may = _asked_if_answerable(st, card, player)
    if not may:
        return []
    seats = tables.seats_from[st.n][player][1:]
    return list(in_game(st, seats) if True in st.out else seats)


def in_game(st: Board, seats: tuple[int, ...]) -> tuple[int, ...]:
    """The seats still in the game, in the order given: a player who is out is no target and answers nothing."""
    out = st.out
    return tuple(p for p in seats if not out[p])


def _asked_if_answerable(st: Board, card: int, player: int) -> bool:
    """A quick look before asking anyone: a condition that reads only the card and its player is
    tried here; one that reads `me` or `this` (the reactor, the answering card) can only be
    tried on a reactor's hand (reaction_options), so it always lets the question go round."""
    for r in st.game.reaction_types:
        if not r.answer_personal:
            said = by_kind(r.answer_gate, r.answer_exact, card)
            if said is False or said is None and not r.answer_when(st, {"card": card, "me": None, "this": None,
                                                                           "player": player}):
                continue
        return True
    return False


def zone_of_hand(st: Board, reactor: int, card: int, player: int) -> int:
    """The reactor's zone of the same kind as the one the card was played from."""
    decl = st.lay.zones[st.loc[card]][0]
    return st.game.zone_id(decl, reactor, st.n) if decl.owner == "player" else st.loc[card]


def reaction_options(st: Board, card: int, player: int, reactor: int, zid: int) -> tuple[list, list]:
    """The answers the reactor holds for this card (the caller adds "pass").

    One per kind of answering card (the first copy in zone order), as ``kinds_in`` gives them, with the
    work it charges; a hand that holds no answering card is only counted."""
    options, values = [], []
    tables = st.tables
    answer_with = tables.answer_with
    for reaction, rtype in first_of_each(st, st.zones[zid], tables.answering):
        said = by_kind(rtype.answer_gate, rtype.answer_exact, card)
        if said is False:
            continue
        if said or rtype.answer_when(st, {"card": card, "me": reactor, "this": reaction, "player": player}):
            options.append(answer_with[rtype.index])
            values.append([reactor, reaction])
    return options, values


def answer_card(st: Board, card: int, player: int, reactor: int, reaction: int) -> None:
    """The first answer cancels the card: both are discarded, then the answer acts."""
    game = st.game
    st.log.append((records.answered, st.turn, reactor, reaction, card))
    discard_card(st, card, how="cancelled")
    discard_card(st, reaction, how="answered")
    proc = game.card_type[reaction].answer_proc
    if proc is not None:
        st.stack.append(Frame(proc, 0, {"me": reactor, "card": card, "this": reaction, "player": player}))
