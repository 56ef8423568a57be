"""What one player may know: views, and the accounts of the log players would give.

``make_view`` is the state as one player (or an onlooker) may see it. The
full event log is the referee's record; `events_for` makes the account a
player would give, in which hidden cards stay unnamed, the secret choices of
others stay secret, the faces of private dice stay unread and variables they
may not see leave no trace. How seats and counter holders are named is in
names.py; which cards were shown to whom, in reveals.py.
"""
from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING

from rulelang.engine.names import player_name, seat_of
from rulelang.engine.reveals import shown_by_name

if TYPE_CHECKING:
    from rulelang.engine.board import Board
    from rulelang.engine.rules import Rules


def may_see(visibility: str, owner: int | None, viewer: int | None) -> bool:
    """A thing of this visibility, owned by ``owner`` (None: the table), is seen by ``viewer`` (None: anyone)."""
    return visibility == "public" or (visibility == "owner" and viewer is not None and owner == viewer)


def var_shown(game: Rules, owner: int, viewer: int | None) -> list[bool]:
    """For each player variable of ``owner``, whether ``viewer`` may see its value."""
    return [may_see(vis, owner, viewer) for vis in game.var_visibility]


HIDDEN_CARD = "a card"
HIDDEN_CHOICE = "?"
HIDDEN_FACE = "?"


def zone_seen(game: Rules, label: str, viewer: int | None) -> bool:
    """Whether ``viewer`` sees the cards of a zone named by its log label ('deck', 'hand:P2')."""
    name, _, owner = label.partition(":")
    decl = next((z for z in game.zones if z.name == name), None)
    return decl is not None and may_see(decl.visibility, seat_of(owner) if owner else None, viewer)


def events_for(game: Rules, events: list[dict], player: int | None) -> list[dict]:
    """The event log as ``player`` (None: an onlooker) would have seen it, event by event.

    A card moving between zones the player cannot see is "a card" without its
    instance id, unless it was revealed to them and has not moved since; the
    secret choices of others show no option until they are revealed, nor do
    their choices of a card (see `Account.tell`); a roll of a die the player may
    not see (`visibility: owner` rolled by or for another player, or `hidden`)
    shows each face as "?", and so does a later change of that roll; a variable
    the player may not see leaves no event. The input is left untouched.
    """
    return Account(game, player).catch_up(events)


class Account:
    """One player's account of a log that grows as the game goes on: `events_for`, told as it happens.

    It remembers what the player was shown (revealed cards not moved since), so
    a caller that shows a game in progress, such as terminal play, tells each
    event once and exactly as `events_for` would tell it in the whole log.
    """

    __slots__ = ("game", "player", "known", "heard", "rolls")

    def __init__(self, game: Rules, player: int | None):
        self.game = game
        self.player = player
        self.known: set[int] = set()      # card instances revealed to the player and not moved since
        self.heard = 0                    # how many events of the log have been taken in
        self.rolls: dict[str, bool] = {}  # private die -> whether the player saw its last roll

    def catch_up(self, events: list[dict]) -> list[dict]:
        """The events of the log from the first not yet taken in, as the player sees them (some are left out)."""
        told = []
        for event in events[self.heard:]:
            shown = self.tell(event)
            if shown is not None:
                told.append(shown)
        self.heard = max(self.heard, len(events))
        return told

    def tell(self, event: dict) -> dict | None:
        """One event as the player sees it, or None when it is not theirs to know."""
        if event.get("type") in ROLL_EVENTS and self.game.dice_visibility.get(event.get("die")) in PRIVATE:
            return self._private_roll(event)
        return _event_for(self.game, event, self.player, self.known)

    def _private_roll(self, event: dict) -> dict:
        """A roll of a die not everyone sees, or a change of it: "?" for each face unless the player saw the roll.

        A change (`roll_changed`) does not say whose roll it is: it is taken to be
        the last roll of that die, which it is for the trigger `after roll` and
        for a change right after the roll (a rule that rolls the die again for
        someone else before changing the first roll is told by the second).
        """
        die = event["die"]
        if event["type"] == "rolled":
            self.rolls[die] = roll_seen(self.game, event, self.player)
        if self.rolls.get(die, False):
            return event
        return {**event, "faces": [HIDDEN_FACE] * len(event.get("faces") or ())}


#: The events that carry the faces of a roll, and the visibilities that keep them from someone.
ROLL_EVENTS = ("rolled", "roll_changed")
PRIVATE = ("owner", "hidden")


def roll_seen(game: Rules, event: dict, player: int | None) -> bool:
    """Whether ``player`` sees the faces of a `rolled` event: its die is public, or theirs (by them or for them)."""
    visibility = game.dice_visibility.get(event.get("die"), "public")
    return any(may_see(visibility, seat_of(event.get(who)), player) for who in ("player", "for"))


#: Decisions whose options may be cards a player holds out of sight; the option taken names a card's kind.
CARD_CHOICES = ("choose", "branch", "discard")


def _event_for(game: Rules, event: dict, player: int | None, known: set[int]) -> dict | None:
    kind = event.get("type")
    if kind == "moved":
        return _moved_for(game, event, player, known)
    if kind == "set" and "var" in event:
        vi = game.var_names.index(event["var"]) if event["var"] in game.var_names else None
        if vi is not None and not may_see(game.var_visibility[vi], seat_of(event.get("player")), player):
            return None
    elif kind == "chose" and seat_of(event.get("player")) != player and private_choice(game, event):
        return {k: v for k, v in event.items() if k != "forced"} | {"option": HIDDEN_CHOICE}
    elif kind == "revealed" and "cards" in event:
        return _revealed_for(event, player, known)
    return event


def private_choice(game: Rules, event: dict) -> bool:
    """A choice the other players do not see: a secret one, or one that names a card that may lie out of sight.

    The log does not say where a chosen card lay, so every choice of another
    player that names a card kind, whatever its form (`chooses c in me.hand`, a
    `for c in me.hand` branch of `chooses one`, a tuple holding a card), is kept
    from the viewer: the move that follows names the card when they may see it.
    A choice among kinds (`chooses k in [gem, rock]`) is kept from them too;
    better that than naming a hidden card. A choice made `publicly` is seen by
    everyone (its event says `public`).
    """
    if event.get("secret"):
        return True
    return not event.get("public") and hidden_option(game, event.get("decision"), event.get("option"))


def hidden_option(game: Rules, kind: object, option: object) -> bool:
    """Whether the other players are kept from the option taken in a decision of this kind (one asked
    `publicly` has a kind of its own, never hidden): `private_choice` without the event. Asked at every forced
    choice of a play-out, so each (kind, option) is worked out once per game (``Rules.hidden_options``)."""
    if not isinstance(option, str):         # no card kind's id
        return False
    of_kind = game.hidden_options.get(kind)
    if of_kind is None:
        of_kind = game.hidden_options[kind] = {}
    hidden = of_kind.get(option)            # by kind, then option: two lookups of strings, no tuple to hash
    if hidden is None:
        hidden = of_kind[option] = kind in CARD_CHOICES and names_card(game, option)
    return hidden


def names_card(game: Rules, option: object) -> bool:
    """Whether an option id names a card kind: the id itself, or one element of a tuple's id (`P2-gem`)."""
    ids = _card_ids(game)
    if not isinstance(option, str):
        return False
    return option in ids or ("-" in option and any(part in ids for part in option.split("-")))


@lru_cache(maxsize=8)
def _card_ids(game: Rules) -> frozenset[str]:
    """The ids of the game's card kinds, looked up once per game."""
    return frozenset(card.id for card in game.cards)


def _moved_for(game: Rules, event: dict, player: int | None, known: set[int]) -> dict:
    card = event.get("id")
    seen = (card in known or zone_seen(game, event["from"], player) or zone_seen(game, event["to"], player))
    known.discard(card)             # a card that moves is no longer remembered as revealed
    if seen:
        return event
    return {k: v for k, v in event.items() if k != "id"} | {"card": HIDDEN_CARD}


def _revealed_for(event: dict, player: int | None, known: set[int]) -> dict | None:
    """A reveal of cards: seen by those it names (or by everyone, when it is to all)."""
    to = event.get("to")
    if to != "all" and (player is None or seat_of(to) != player):
        return None
    known.update(event.get("ids", ()))
    return event


# --- the view of one player ---------------------------------------------------------

def make_view(st: Board, player: int | None) -> dict:
    """The game as ``player`` may see it (None: an onlooker, who sees only public things): ``State.view``."""
    game, lay = st.game, st.lay
    holders = {"game": st.counters[0]}
    for i, name in enumerate(game.locations):
        holders[name] = st.counters[1 + i]
    counters = {h: {c: v for c, v in zip(game.counters, values) if v} for h, values in holders.items()}
    players = []
    for p in range(st.n):
        players.append({
            "name": player_name(p), "role": lay.roles[p],
            "counters": {c: v for c, v in zip(game.counters, st.counters[game.player_holder + p]) if v},
            "vars": {name: game.plain(kind, value)
                     for name, kind, value, shown in zip(game.var_names, game.var_types, st.vars[p],
                                                         var_shown(game, p, player)) if shown},
        })
    zones = {}
    for zid, (decl, owner) in enumerate(lay.zones):
        cards = st.zones[zid]
        visible = decl.visibility == "public" or (decl.visibility == "owner" and owner == player)
        zones[lay.zone_labels[zid]] = [game.card_type[c].id for c in cards] if visible else len(cards)
    tokens = {}
    if game.card_counters:           # counters on the cards a player can see
        base = game.player_holder + st.n
        for zid, (decl, owner) in enumerate(lay.zones):
            if decl.visibility == "public" or (decl.visibility == "owner" and owner == player):
                for card in st.zones[zid]:
                    held = {c: v for c, v in zip(game.counters, st.counters[base + card]) if v}
                    if held:
                        tokens[f"{game.card_type[card].id}#{card}"] = held
    revealed = shown_by_name(st, player, zones)
    view = {"turn": st.turn, "phase": game.phases[st.phase].name, "active": player_name(st.active),
            "card_counters": tokens, "you": None if player is None else player_name(player),
            "counters": counters, "players": players, "zones": zones, "over": st.over,
            "winners": st.winner_names(), "scores": st.scores()}
    if revealed:
        view["revealed"] = revealed
    decision = st.decision()
    if decision is not None:
        view["waiting_for"] = [player_name(p) for p in decision.players]
        view["decision"] = {"name": decision.name, "rule": list(decision.rule)}    # public: who decides what
        if player in decision.options:
            view["prompt"] = decision.prompt
            view["options"] = [[o.id, o.label] for o in decision.options[player]]
    return view

