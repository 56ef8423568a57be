"""Property tests of Flapjacks & Sasquatches: random seeds, 2-8 players and random choices.

Every invariant is checked before EVERY step starts (through ``state.observer``),
after every decision and at the end, with plain Python written from the rulebook
and docs/rulings.md (never through the spec's own functions):

- the 135 game cards (35 trees + 100 Jack cards, counts per card id written out
  below from docs/rulings.md) are all somewhere, each instance in exactly one zone;
  trees only ever lie in tree zones and Jack cards in Jack zones;
- nobody has two axes, or two cards of one id, in play (``play`` and ``aside``
  together, FS-5); the Long Saw's set-aside axe is consistent (FS-10) and a
  blocked Minus card never stays next to the Gloves or Boots that block it (FS-6);
- the chops on a standing tree stay below its requirement, and are 0 with no
  tree (FS-8);
- scores are the points of the cut piles (the Tree deck of docs/rulings.md,
  written out below), replayed from the events too; nobody has 21 while the
  game goes on, a game ends at once when someone reaches 21, and the winner is the first player with 21 in seat
  order from the active player (FS-13); a FS-15 ending is checked likewise;
- lost turns (FS-3): ``lost_turns`` only goes down by one, on its player's own
  turn, right before a ``skipped`` event; a player with lost turns is skipped,
  and in a skipped turn draws no card, plays no card and rolls no dice;
- the same seed and choices give the same game, and a copy or a JSON round trip
  taken mid-game goes on exactly like the original.
"""
from __future__ import annotations

import json
import random
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given
from hypothesis import strategies as st

from rulelang.engine.state import State

from helpers.examples import examples
from helpers.games import shipped

ROOT = Path(__file__).resolve().parents[2]
GAME = shipped("games/flapjacks")

# --- the rulebook's numbers (docs/rulings.md, the card lists), written out here -----------

TREES = {  # id: (chops needed, points, count)
    "norway_pine": (4, 4, 8),
    "river_birch": (4, 5, 8),
    "cottonwood": (5, 6, 7),
    "red_oak": (6, 7, 6),
    "silver_maple": (7, 8, 3),
    "american_elm": (8, 8, 2),
    "mighty_oak": (9, 12, 1),
}
JACKS = {  # id: count
    "chopping_axe": 5, "carpenters_axe": 5, "swedish_broad_axe": 5, "titanium_axe": 3, "dull_axe": 5,
    "gloves": 5, "boots": 5,
    "apprentice": 4, "long_saw": 1,
    "flapjacks": 3, "shortstack": 4,
    "winded": 3, "footslip": 5, "axe_slip": 5, "blisters": 4,
    "sasquatch_sighting": 2, "mating_season": 2, "that_darn_sasquatch": 2,
    "debunk": 3, "paperwork": 5,
    "switch_tags": 3, "tree_hugger": 4, "axe_break": 4, "steal_axe": 3, "steal_equipment": 3,
    "lure_help": 5, "paul_bunyan": 1, "forest_fire": 1,
}
COUNTS = {tree: count for tree, (_, _, count) in TREES.items()} | JACKS
REQUIRED = {tree: chops for tree, (chops, _, _) in TREES.items()}
POINTS = {tree: points for tree, (_, points, _) in TREES.items()}
AXES = {"chopping_axe", "carpenters_axe", "swedish_broad_axe", "titanium_axe", "dull_axe"}
STAYS_IN_PLAY = AXES | {"gloves", "boots", "apprentice", "long_saw", "flapjacks", "shortstack",
                        "winded", "footslip", "axe_slip", "blisters"}
BLOCKED_BY = {"footslip": "boots", "axe_slip": "gloves", "blisters": "gloves"}   # FS-6
TOTAL = 135
WIN = 21
TREE_ZONES = {"tree_deck", "tree_discard", "tree", "cut"}
JACK_ZONES = {"jack_deck", "jack_discard", "hand", "play", "aside"}
BY_21, NO_TREES = "21 points", "no trees left"       # the spec's names of FS-13 and FS-15

assert sum(c for _, _, c in TREES.values()) == 35 and sum(JACKS.values()) == 100


# --- reading a state -------------------------------------------------------------------------

def zone(state: State, label: str) -> list[int]:
    return state.zones[state.lay.zone_labels.index(label)]


def ids(state: State, label: str) -> list[str]:
    return [state.game.card_type[c].id for c in zone(state, label)]


def name(p: int) -> str:
    return f"P{p + 1}"


def score(state: State, p: int) -> int:
    return sum(POINTS[card] for card in ids(state, f"cut:{name(p)}"))


def seats_from(state: State, p: int) -> list[int]:
    return [(p + i) % state.n for i in range(state.n)]


# --- the invariants, one function each ------------------------------------------------------

def check_cards(state: State) -> None:
    """All 135 instances, each in exactly one zone; counts per id as docs/rulings.md lists them."""
    game, labels = state.game, state.lay.zone_labels
    assert len(game.card_type) == TOTAL, f"the game has {len(game.card_type)} card instances, not {TOTAL}"
    where: dict[int, str] = {}
    for zid, cards in enumerate(state.zones):
        kind = labels[zid].split(":")[0]
        for card in cards:
            assert card not in where, f"card {card} ({game.card_type[card].id}) in {where[card]} and {labels[zid]}"
            where[card] = labels[zid]
            cid = game.card_type[card].id
            if cid in TREES:
                assert kind in TREE_ZONES, f"tree {cid} in {labels[zid]}"
            else:
                assert kind in JACK_ZONES, f"Jack card {cid} in {labels[zid]}"
    assert len(where) == TOTAL and set(where) == set(range(TOTAL)), \
        f"{TOTAL - len(where)} card(s) missing from every zone: {sorted(set(range(TOTAL)) - set(where))[:5]}"
    held = Counter(game.card_type[card].id for card in where)
    assert held == Counter(COUNTS), f"the zones hold other cards than docs/rulings.md lists: {held - Counter(COUNTS)}"
    loc = getattr(state, "loc", None)
    if loc is not None:
        for card, label in where.items():
            assert labels[loc[card]] == label, f"card {card} is in {label} but located in {labels[loc[card]]}"
    for p in range(state.n):
        assert len(zone(state, f"tree:{name(p)}")) <= 1, f"{name(p)} has two standing trees"


def check_one_of_a_kind(state: State) -> None:
    """FS-5 (one axe, one of each id), FS-10 (the set-aside axe), FS-6 (blocked Minus cards)."""
    for p in range(state.n):
        in_play, aside = ids(state, f"play:{name(p)}"), ids(state, f"aside:{name(p)}")
        both = in_play + aside
        axes = [c for c in both if c in AXES]
        assert len(axes) <= 1, f"{name(p)} has two axes in play: {axes}"
        twice = [c for c, k in Counter(both).items() if k > 1]
        assert not twice, f"{name(p)} has two {twice[0]} in play"
        assert all(c in STAYS_IN_PLAY for c in both), f"{name(p)} has a card that cannot stay in play: {both}"
        assert all(c in AXES for c in aside), f"{name(p)} has a non-axe set aside: {aside}"
        if aside:
            assert "long_saw" in in_play, f"{name(p)} has an axe set aside without the Long Saw"
        if "long_saw" in in_play:
            assert not any(c in AXES for c in in_play), f"{name(p)} has the Long Saw and an axe in play"
        for minus, blocker in BLOCKED_BY.items():
            assert not (minus in in_play and blocker in in_play), f"{name(p)} keeps {minus} next to {blocker}"


def check_chops(state: State) -> None:
    """FS-8: chop tokens sit on standing trees only, below each tree's requirement."""
    game = state.game
    ci = game.counters.index("chops")
    cards = game.player_holder + state.n         # counters of card instances follow the players'
    for p in range(state.n):
        assert state.counter(p, "chops") == 0, f"{name(p)} holds chops: they belong on the tree"
    for card, ctype in enumerate(game.card_type):
        chops = state.counters[cards + card][ci]
        where = state.lay.zone_labels[state.loc[card]]
        if not where.startswith("tree:"):
            assert chops == 0, f"{ctype.id} holds {chops} chops outside a tree zone ({where})"
            continue
        assert ctype.props.get("chops_needed") == REQUIRED[ctype.id], \
            f"{ctype.id} needs {REQUIRED[ctype.id]} chops (docs/rulings.md), the spec says {ctype.props.get('chops_needed')}"
        assert 0 <= chops < REQUIRED[ctype.id], f"{where} has {chops} chops on a {ctype.id}"


def check_end(state: State) -> None:
    """FS-13 / FS-15 from the cut piles: nobody at 21 during play; the right end and winner."""
    scores = [score(state, p) for p in range(state.n)]
    if not state.over:
        assert max(scores) < WIN, f"the game goes on with scores {scores} (turn {state.turn})"
        assert state.result is None and not state.winners
        return
    assert state.decision() is None
    assert state.events and state.events[-1]["type"] == "ended", "events after the end"
    order = seats_from(state, state.active)
    if state.result == BY_21:
        reached = [p for p in order if scores[p] >= WIN]
        assert reached, f"ended by 21 points with scores {scores}"
        assert state.winners == [reached[0]], \
            f"winners {state.winners}, but {name(reached[0])} is first from {name(state.active)} with {scores}"
    elif state.result == NO_TREES:
        assert max(scores) < WIN, f"ended with no trees left although someone has 21: {scores}"
        assert all(not zone(state, f"tree:{name(p)}") for p in range(state.n))
        assert not zone(state, "tree_deck") and not zone(state, "tree_discard")
        best = max(scores)
        assert state.winners == [next(p for p in order if scores[p] == best)]
    else:
        raise AssertionError(f"unknown result {state.result!r}")


class Checker:
    """All the invariants, plus what only the event log shows (lost turns, ending at once)."""

    def __init__(self, n: int):
        self.n = n
        self.seen = 0
        self.lost = [0] * n            # lost_turns, replayed from the set events
        self.points = [0] * n          # cut pile points, replayed from the moved events
        self.player = None             # whose turn it is
        self.lost_at_start = 0         # that player's lost turns when the turn began
        self.skipped = False
        self.expect_skip = None        # a player whose lost_turns just went down: `skipped` must follow
        self.acted = False             # the turn's player drew, played, chose or rolled this turn
        self.ended = False
        self.step_events = 0
        self.observed = 0              # observer calls
        self.offset = None             # step events before the observer was attached

    # -- attaching -----------------------------------------------------------------------

    def attach(self, state: State) -> None:
        self.read_events(state)
        self.offset = self.step_events
        state.observer = self.observe

    def observe(self, state: State, step: str) -> None:
        self.observed += 1
        self.check(state, step)

    # -- the event log -------------------------------------------------------------------

    def read_events(self, state: State) -> None:
        for event in state.events[self.seen:]:
            self.read(event)
        self.seen = len(state.events)

    def read(self, e: dict) -> None:
        kind = e["type"]
        assert not self.ended, f"an event after the end: {e}"
        if self.expect_skip is not None:
            assert kind == "skipped" and e["player"] == name(self.expect_skip), \
                f"{name(self.expect_skip)} lost a turn but was not skipped at once: {e}"
        # FS-13: once someone has 21, only the rest of the same statement may happen, then the end
        tree_move = kind == "moved" and e["card"] in TREES
        chops_set = (kind in ("set", "transferred") and e.get("counter") == "chops") or kind == "cleared"
        if max(self.points) >= WIN and not (tree_move or chops_set or kind == "ended"):
            raise AssertionError(f"points {self.points} reached {WIN} but the game went on: {e}")
        if kind == "turn":
            if self.player is not None and self.lost_at_start > 0:
                assert self.skipped, f"{name(self.player)} had {self.lost_at_start} lost turns and was not skipped"
            self.player = int(e["player"][1:]) - 1
            self.lost_at_start = self.lost[self.player]
            self.skipped = self.acted = False
        elif kind == "step":
            self.step_events += 1
            assert not self.skipped, f"step {e['step']!r} started in a skipped turn"
        elif kind == "set" and e.get("var") == "lost_turns":
            p, new = int(e["player"][1:]) - 1, e["value"]
            old = self.lost[p]
            assert new >= 0
            if new < old:
                assert new == old - 1, f"{name(p)}'s lost turns went from {old} to {new}"
                assert p == self.player, f"{name(p)} lost turns went down on {name(self.player)}'s turn"
                assert not self.skipped and not self.acted, f"{name(p)} lost turns went down mid-turn"
                self.expect_skip = p
            self.lost[p] = new
        elif kind == "skipped":
            assert self.expect_skip is not None and e["player"] == name(self.expect_skip), \
                f"{e['player']} skipped without losing a turn"
            self.expect_skip = None
            self.skipped = True
        elif kind == "moved":
            if e["card"] in TREES:
                if e["from"].startswith("cut:"):
                    self.points[int(e["from"][5:]) - 1] -= POINTS[e["card"]]
                if e["to"].startswith("cut:"):
                    self.points[int(e["to"][5:]) - 1] += POINTS[e["card"]]
        elif kind == "ended":
            self.ended = True
            if e["condition"] == BY_21:
                assert max(self.points) >= WIN, f"ended by 21 points with {self.points}"
        if self.player is not None and self.actor(e) == name(self.player):
            assert not self.skipped, f"{name(self.player)} acted in a skipped turn: {e}"
            assert self.lost_at_start == 0, f"{name(self.player)} had lost turns but acted: {e}"
            self.acted = True

    @staticmethod
    def actor(e: dict) -> str | None:
        """The player who draws, plays, chooses or rolls in this event."""
        kind = e["type"]
        if kind in ("played", "chose", "rolled", "answered"):
            return e.get("player")
        if kind == "moved" and e.get("how") == "draw" and ":" in e["to"]:
            return e["to"].split(":")[1]
        return None

    # -- everything ---------------------------------------------------------------------

    def check(self, state: State, step: str | None = None) -> None:
        self.read_events(state)
        check_cards(state)
        check_one_of_a_kind(state)
        check_chops(state)
        check_end(state)
        for p in range(state.n):
            assert state.var(p, "lost_turns") == self.lost[p], f"{name(p)}'s lost_turns changed without an event"
            assert self.points[p] == score(state, p), f"{name(p)}'s cut pile changed without an event"
        if self.offset is not None:        # the observer saw every step that started
            assert self.observed == self.step_events - self.offset + (step is not None)


# --- playing ---------------------------------------------------------------------------------

def new_game(players: int, seed: int) -> tuple[State, Checker]:
    """A new game watched from its very first step (the first decision comes after several)."""
    checker = Checker(players)
    checker.offset = 0
    state = GAME.new_state(players, seed, observer=checker.observe)
    checker.check(state)
    return state, checker


def play(state: State, pick, checker: Checker | None = None, after=None, limit: int | None = None):
    """Play (to the end, or ``limit`` decisions): ``pick(count)`` gives an option index."""
    choices = []
    while not state.over and (limit is None or len(choices) < limit):
        decision = state.decision()
        assert decision is not None, "the game waits for nothing"
        player = decision.players[pick(len(decision.players))] if decision.simultaneous else decision.player
        options = decision.options[player]
        assert options, f"{name(player)} must choose but has no option"
        assert state.legal(player) == [o.id for o in options]
        option = options[pick(len(options))].id
        state.apply(option, player)
        choices.append((player, option))
        if checker is not None:
            checker.check(state)
        if after is not None:
            after(state)
    return choices


def replay(state: State, choices) -> None:
    for player, option in choices:
        state.apply(option, player)


players_st = st.integers(min_value=2, max_value=8)
seed_st = st.integers(min_value=0, max_value=2**32 - 1)


# --- the tests ------------------------------------------------------------------------------

def test_the_spec_has_the_rulebooks_cards():
    game = GAME
    assert Counter(t.id for t in game.card_type) == Counter(COUNTS)
    for t in game.cards:
        if t.id in TREES:
            assert (t.props.get("chops_needed"), t.props.get("points")) == TREES[t.id][:2], t.id
    assert {t.id for t in game.cards if "axe" in t.tags} == AXES


@pytest.mark.slow
@examples(60, suppress_health_check=[HealthCheck.too_slow])
@given(players=players_st, seed=seed_st, agent=seed_st)
def test_invariants_hold_at_every_step_of_random_games(players, seed, agent):
    state, checker = new_game(players, seed)
    play(state, random.Random(agent).randrange, checker)
    assert state.over and checker.ended
    checker.check(state)


@pytest.mark.slow
@examples(40, suppress_health_check=[HealthCheck.too_slow])
@given(players=players_st, seed=seed_st, data=st.data())
def test_invariants_hold_for_drawn_choices(players, seed, data):
    state, checker = new_game(players, seed)
    play(state, lambda count: data.draw(st.integers(0, count - 1)), checker)
    assert state.over and checker.ended


@pytest.mark.parametrize("players", [2, 4, 8])
@pytest.mark.parametrize("seed", range(5))
def test_full_random_games_end_with_the_invariants_intact(players, seed):
    state, checker = new_game(players, seed)
    play(state, random.Random(1000 + seed).randrange, checker)
    assert state.over
    checker.check(state)
    assert checker.observed == checker.step_events, "the observer missed a step"
    assert state.result == BY_21          # 208 points of trees: someone always reaches 21 first


@pytest.mark.slow
@examples(25, suppress_health_check=[HealthCheck.too_slow])
@given(players=players_st, seed=seed_st, agent=seed_st)
def test_same_seed_and_choices_give_the_same_game(players, seed, agent):
    first, _ = new_game(players, seed)
    trace = []
    choices = play(first, random.Random(agent).randrange, after=lambda s: trace.append(s.dumps()))
    second = GAME.new_state(players, seed)           # unwatched: the observer changes nothing
    third = GAME.new_state(players, seed)
    assert second.dumps() == third.dumps()
    for (player, option), dump in zip(choices, trace):
        second.apply(option, player)
        assert second.dumps() == dump
    assert second.over
    assert second.dumps() == first.dumps()
    assert (second.winners, second.result, second.turn) == (first.winners, first.result, first.turn)


@pytest.mark.slow
@examples(25, suppress_health_check=[HealthCheck.too_slow])
@given(players=players_st, seed=seed_st, agent=seed_st, cut=st.floats(0, 1, exclude_max=True))
def test_copy_and_json_round_trip_mid_game_go_on_identically(players, seed, agent, cut):
    choices = play(GAME.new_state(players, seed), random.Random(agent).randrange)
    original = GAME.new_state(players, seed)
    k = int(cut * len(choices))
    replay(original, choices[:k])
    assert not original.over
    snapshot = original.dumps()
    copied = original.copy()
    restored = State.from_json(GAME, json.loads(json.dumps(original.to_json())))
    assert copied.dumps() == snapshot and restored.dumps() == snapshot
    assert restored.decision() == original.decision() == copied.decision()
    checker = Checker(players)
    checker.attach(restored)             # reads the whole history, then watches every step
    checker.check(restored)
    for player, option in choices[k:]:
        for state in (original, copied, restored):
            state.apply(option, player)
        checker.check(restored)
        assert copied.dumps() == original.dumps() == restored.dumps()
    assert original.over and copied.over and restored.over
    assert copied.events == original.events == restored.events


def test_each_invariant_check_can_fail():
    """Feed every check a deliberately broken state: each must reject it."""

    def fresh(players: int = 4, seed: int = 3) -> tuple[State, Checker]:
        state, checker = new_game(players, seed)
        play(state, random.Random(seed).randrange, checker, limit=12)
        assert not state.over
        return state, checker

    def move(state: State, card_id: str, label: str, source: str | None = None) -> int:
        """Move one instance of card_id (from source, or anywhere) to a zone, without events."""
        labels = state.lay.zone_labels
        for zid, cards in enumerate(state.zones):
            if source is not None and labels[zid] != source:
                continue
            for card in cards:
                if state.game.card_type[card].id == card_id and labels[zid] != label:
                    cards.remove(card)
                    zone(state, label).append(card)
                    state.loc[card] = labels.index(label)
                    return card
        raise LookupError(card_id)

    def clear(state: State, label: str) -> None:
        """Discard every card of a zone, without events."""
        for card in list(zone(state, label)):
            zone(state, label).remove(card)
            zone(state, "jack_discard").append(card)
            state.loc[card] = state.lay.zone_labels.index("jack_discard")

    def rejects(check, tamper, match: str, base=None) -> None:
        state, checker = base or fresh()
        check(state) if check is not Checker else checker.check(state)     # fine before
        tamper(state)
        with pytest.raises(AssertionError, match=match):
            check(state) if check is not Checker else checker.check(state)

    # 1. every card somewhere, exactly once
    rejects(check_cards, lambda s: zone(s, "jack_discard").append(zone(s, "jack_deck")[0]), "in .* and")
    rejects(check_cards, lambda s: zone(s, "jack_deck").pop(), "missing")
    rejects(check_cards, lambda s: move(s, "red_oak", "hand:P2"), "tree red_oak in hand:P2")
    rejects(check_cards, lambda s: move(s, "boots", "cut:P1"), "Jack card boots in cut:P1")
    # 2. one axe, one of each kind, in play and aside together
    rejects(check_one_of_a_kind, lambda s: [clear(s, "play:P1")] + [move(s, a, "play:P1") for a in ("dull_axe", "titanium_axe")],
            "two axes")
    rejects(check_one_of_a_kind, lambda s: [clear(s, "play:P3")] + [move(s, "gloves", "play:P3") for _ in range(2)], "two gloves")
    rejects(check_one_of_a_kind, lambda s: [clear(s, "play:P2"), move(s, "long_saw", "play:P2"), move(s, "dull_axe", "aside:P2"),
                                            move(s, "chopping_axe", "play:P2")], "two axes")
    rejects(check_one_of_a_kind, lambda s: [clear(s, "play:P2"), move(s, "dull_axe", "aside:P2")],
            "without the Long Saw")
    rejects(check_one_of_a_kind, lambda s: [clear(s, "play:P2"), clear(s, "aside:P2"),
                                            move(s, "long_saw", "play:P2"), move(s, "gloves", "aside:P2")],
            "non-axe set aside")
    rejects(check_one_of_a_kind, lambda s: [clear(s, "play:P2"), clear(s, "aside:P2"),
                                            move(s, "long_saw", "play:P2"), move(s, "dull_axe", "play:P2")],
            "the Long Saw and an axe in play")
    rejects(check_one_of_a_kind, lambda s: move(s, "tree_hugger", "play:P1"), "cannot stay in play")
    rejects(check_one_of_a_kind, lambda s: [clear(s, "play:P4"), move(s, "gloves", "play:P4"), move(s, "blisters", "play:P4")],
            "keeps blisters next to gloves")
    # 3. chops below the standing tree's requirement, 0 without a tree
    def overchop(s):
        p = next(p for p in range(s.n) if zone(s, f"tree:{name(p)}"))
        card = zone(s, f"tree:{name(p)}")[0]
        s.set_counter(("card", card), "chops", REQUIRED[s.game.card_type[card].id])
    rejects(check_chops, overchop, "chops on a")

    def loose_chops(s):
        card = zone(s, "tree_deck")[0]
        s.set_counter(("card", card), "chops", 1)
    rejects(check_chops, loose_chops, "outside a tree zone")
    rejects(check_chops, lambda s: s.set_counter(0, "chops", 1), "belong on the tree")
    # 4. scores: nobody at 21 while the game goes on; the cut piles agree with the events
    rejects(check_end, lambda s: [move(s, t, "cut:P2", "tree_deck") for t in
                                  ("mighty_oak", "silver_maple", "american_elm")], "the game goes on")
    rejects(Checker, lambda s: move(s, "norway_pine", "cut:P1", "tree_deck"), "changed without an event")
    # 5. the end: the winner is the first player with 21 from the active player
    done, done_checker = new_game(3, 5)
    play(done, random.Random(5).randrange, done_checker)
    assert done.result == BY_21
    other = next(p for p in range(3) if p not in done.winners)
    rejects(check_end, lambda s: setattr(s, "winners", [other]), "winners", base=(done.copy(), done_checker))
    rejects(check_end, lambda s: setattr(s, "result", NO_TREES), "someone has 21", base=(done.copy(), done_checker))

    def nobody_at_21(s):
        for p in range(s.n):
            for card in list(zone(s, f"cut:{name(p)}")):
                zone(s, f"cut:{name(p)}").remove(card)
                zone(s, "tree_discard").append(card)
    rejects(check_end, nobody_at_21, "ended by 21 points", base=(done.copy(), done_checker))
    # ... and it ends at once: the event log going on after someone reached 21
    log = Checker(2)
    log.read({"type": "turn", "turn": 1, "player": "P1"})
    for tree in ("mighty_oak", "silver_maple", "american_elm"):
        log.read({"type": "moved", "card": tree, "from": "tree:P1", "to": "cut:P1", "how": "move"})
    with pytest.raises(AssertionError, match="went on"):
        log.read({"type": "step", "turn": 1, "step": "check for a winner"})
    # 6. lost turns: down only by one, on the player's own turn, skipped, and no acting
    def events(*seq):
        log = Checker(3)
        log.read({"type": "set", "player": "P2", "var": "lost_turns", "value": 2})
        for e in seq:
            log.read(e)
    turn_p2 = {"type": "turn", "turn": 5, "player": "P2"}
    turn_p3 = {"type": "turn", "turn": 6, "player": "P3"}
    down = {"type": "set", "player": "P2", "var": "lost_turns", "value": 1}
    skip = {"type": "skipped", "player": "P2"}
    events(turn_p2, down, skip, turn_p3)          # the right way passes
    with pytest.raises(AssertionError, match="went from 2 to 0"):
        events(turn_p2, {**down, "value": 0})
    with pytest.raises(AssertionError, match="on P3's turn"):
        events(turn_p3, down)
    with pytest.raises(AssertionError, match="not skipped at once"):
        events(turn_p2, down, {"type": "step", "step": "draw a tree"})
    with pytest.raises(AssertionError, match="was not skipped"):
        events(turn_p2, turn_p3)
    with pytest.raises(AssertionError, match="skipped without losing"):
        events(turn_p3, {"type": "skipped", "player": "P3"})
    with pytest.raises(AssertionError, match="acted in a skipped turn|step"):
        events(turn_p2, down, skip, {"type": "rolled", "die": "chop", "faces": [4], "player": "P2"})
    with pytest.raises(AssertionError, match="acted"):
        events(turn_p2, {"type": "moved", "card": "boots", "from": "jack_deck", "to": "hand:P2", "how": "draw"})
    with pytest.raises(AssertionError, match="acted"):
        events(turn_p2, {"type": "played", "player": "P2", "card": "boots", "target": "P2"})
    rejects(Checker, lambda s: s.set_var(1, "lost_turns", 3), "lost_turns changed without an event")
    # 7. determinism: a different choice gives a different game, which the comparison sees
    a, _ = new_game(4, 11)
    choices = play(a, random.Random(11).randrange)
    b = GAME.new_state(4, 11)
    player, option = choices[0]
    alternative = next(o for o in b.legal(player) if o != option)
    b.apply(alternative, player)
    c = GAME.new_state(4, 11)
    c.apply(option, player)
    assert b.dumps() != c.dumps()
    assert GAME.new_state(4, 12).dumps() != GAME.new_state(4, 11).dumps()
