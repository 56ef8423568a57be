"""Determinisation: a whole game consistent with what one player may see.

A search agent plans by playing games forward, which needs a full ``State``;
the true one would tell it every hidden card and the dice to come. Instead
it plays on a sample made from the true state's plain data as follows:

- every card the player cannot see (in a zone that is hidden, or owned by
  another player and seen only by its owner) goes back into a pool, and the
  pool is dealt again at random over those same places, so each hidden zone
  keeps its size and every deck is reshuffled;
- a card can only land where cards of its kind can be: cards are pooled by
  the zone they start the game in (a card of one deck never lands in the
  other deck). A player who has watched the game knows as much: draws say
  which deck they came from;
- counters on hidden cards stay with the place, not with the card;
- a card that has been played (announced) but still lies in a hidden zone,
  waiting for answers, stays where it is: everyone saw it; so does a card
  revealed to the player (``reveal CARDS to P`` or ``to all``) that has not
  moved since: they know it is there. A card revealed to another player only
  is redealt like any other: this player was not shown it;
- the sample remembers only the reveals to this player (``state.revealed``
  keeps their pairs alone): who else was shown what is not theirs to know,
  and no rule reads it;
- a player variable the player may not see (``visibility: owner`` of another
  player, or ``hidden``, their own included) holds its declared initial value
  in the sample. It is the one value of it that every player knows from the
  rules. Copying the true value would leak it; drawing one at random needs a
  range the language does not declare for a number, and would make samples
  vary where the player has nothing to go on;
- the random stream is replaced by one drawn from the caller's generator, the
  seed, the record of events and any scripted dice are dropped; so are the
  faces of the private rolls it holds (a die of ``visibility: owner`` rolled by
  or for another player, or ``hidden``): what the rules kept of them is in
  variables, treated as above, or in a running rule's locals (see Limits);
- a decision that other players also take (secret, simultaneous choices) is
  asked again from the start in the sample, so their choices made so far, and
  their options, which may show their cards, come from the sample too.

The pool is sorted before it is dealt, so the sample depends only on which
cards are hidden, never on where they truly are: two games that differ only
in an opponent's hidden cards, in what others were shown, or in variables the
player may not see give the same sample from the same generator.

Limits: the rules' own local values (a card a running procedure holds, a
number it read from a hidden variable, the faces of a private roll it has not
finished with) are untyped numbers here and are kept as they are; so are the
options of the decision waiting for the player, which they see. A hidden
variable whose value the rules keep within a few values (a secret role) may
be, in the sample, a value the rules never give it: where the rules copy a
private roll into owner-visible variables, the others' dice all read their
initial value in the sample.
"""
from __future__ import annotations

import random

from rulelang.engine.interpreter import run
from rulelang.engine.state import State
from rulelang.engine.views import may_see, var_shown

MASK64 = (1 << 64) - 1


def determinize(state: State, player: int, rng: random.Random) -> State:
    """A copy of ``state`` whose hidden parts, for ``player``, are drawn from ``rng``."""
    pinned = announced_cards(state) | revealed_to(state, player)
    sample = state.copy()
    sample.events = []
    sample.dice_script = []
    sample.halt = None
    sample.chance = None                  # a sample draws from its own generator, even in explicit chance
    sample.seed = 0
    sample.rng = rng.getrandbits(64) & MASK64
    redeal_hidden_cards(sample, player, rng, pinned)
    sample.revealed = [pair for pair in sample.revealed if pair[1] == player]
    forget_unseen_variables(sample, player)
    forget_others_choices(sample, player)
    return sample


def seen_zones(state: State, player: int | None) -> list[bool]:
    """For every zone id: may ``player`` see the cards in it (not only their number)?"""
    return [may_see(decl.visibility, owner, player) for decl, owner in state.lay.zones]


def announced_cards(state: State) -> set[int]:
    """Cards played this turn and not moved since: everyone saw them, though they may lie in a hidden hand."""
    moved: set[int] = set()
    announced: set[int] = set()
    turn = state.turn
    for event in reversed(state.events):
        if event.get("turn") != turn:
            break
        card = event.get("id")
        if card is None:
            continue
        if event["type"] == "moved":
            moved.add(card)
        elif event["type"] == "played" and card not in moved:
            announced.add(card)
    return announced


def revealed_to(state: State, player: int) -> set[int]:
    """Cards shown to ``player`` and not moved since: they know where these are."""
    return {card for card, seat in state.revealed if seat == player}


def redeal_hidden_cards(sample: State, player: int, rng: random.Random, pinned: set[int] = frozenset()) -> None:
    """Deal the cards ``player`` cannot see again over the places they occupy, kind by kind."""
    types = sample.game.card_type
    seen = seen_zones(sample, player)
    places: dict[int, list[tuple[int, int]]] = {}     # starting zone -> hidden (zone id, position)
    pools: dict[int, list[int]] = {}                  # starting zone -> hidden cards
    for zid, cards in enumerate(sample.zones):
        if seen[zid]:
            continue
        for position, card in enumerate(cards):
            if card in pinned:
                continue
            family = types[card].zone
            places.setdefault(family, []).append((zid, position))
            pools.setdefault(family, []).append(card)
    if not pools:
        return
    counters = sample.counters
    base = sample.game.player_holder + sample.n
    keep_counters = sample.game.card_counters
    for family in sorted(pools):
        pool = sorted(pools[family])
        rng.shuffle(pool)
        rows = [counters[base + sample.zones[zid][pos]] for zid, pos in places[family]] if keep_counters else ()
        for k, (zid, pos) in enumerate(places[family]):
            card = pool[k]
            sample.zones[zid][pos] = card
            sample.loc[card] = zid
            if keep_counters:
                counters[base + card] = rows[k]


def forget_unseen_variables(sample: State, player: int) -> None:
    """Every player variable ``player`` may not see goes back to its declared initial value."""
    game = sample.game
    for owner, row in enumerate(sample.vars):
        for vi, shown in enumerate(var_shown(game, owner, player)):
            if not shown:
                row[vi] = game.var_initial[vi]


def forget_others_choices(sample: State, player: int) -> None:
    """Ask a decision shared with other players again, in the sample, so their part comes from it."""
    pend = sample.pending
    if pend is None or sample.over or all(p == player for p in pend["players"]):
        return
    sample.pending = None
    sample.answer = None
    run(sample)          # the asking instruction is still next: it asks again
