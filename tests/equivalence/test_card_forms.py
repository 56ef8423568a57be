"""Work the card primitives skip, and the proof that skipping it changes nothing.

A draw between zones with no `enter`/`leave` triggers is straight-line code (a step of such
draws runs in place); a card's `target:` of the form `target != me` (or beginning
`target != me and`) is not asked for the player, nor for anyone in the first form; a zone
trigger's `if:` or an `answer: when` that tests only the kind of `card` is a per-card table,
and one that begins with such a test is not asked for other cards (compiler/forms.py). The
properties compare the engine with the plain reading (ask every condition) over random games.
"""
from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

import rulelang
import rulelang.compiler.plays as plays
from rulelang.agents import RandomAgent, play_out
from rulelang.engine import cards
from rulelang.engine.names import NAMES

from helpers import tiny_games as hooks
from helpers.examples import examples
from helpers.games import shipped

ROOT = Path(__file__).resolve().parents[2]
FLAPJACKS = shipped("games/flapjacks")

#: test_hooks' little game, with a pile in front of each player and two rocks on top of the deck
BASE = hooks.BASE.replace("zones:\n", "zones:\n  pile: {owner: player, visibility: public}\n", 1) \
    + "  - {id: rock, name: Rock, count: 2, zone: deck}\n"


def make(tmp_path: Path, body: str, steps: str, cards_more: str = "") -> rulelang.Game:
    """BASE with ``cards_more`` (card lines), then ``body`` (top-level YAML), and a step 'act' running
    ``steps``, then a decision (the game helpers.tiny_games.make writes)."""
    return hooks.make(tmp_path, body, steps, base=BASE + cards_more)


def step_procs(game: rulelang.Game) -> set[str]:
    """The steps that have a procedure of their own (a step that runs in place has none)."""
    return {p.name for p in game.procs if p.name.startswith("step ")}


ON_PILE = """
triggers:
  - name: coins for a pile
    on: enter pile
    if: card is not gem
    effect: owner.coin += 5
"""


def test_a_draw_between_untriggered_zones_runs_in_place(tmp_path):
    game = make(tmp_path, ON_PILE, "draw 2 from deck to me.hand")
    assert "step 'act'" not in step_procs(game)
    state = game.new_state(2, seed=1)
    assert state.zone("hand", state.active) == ["rock", "rock"]


def test_a_draw_into_a_triggered_zone_runs_its_trigger_before_the_next_statement(tmp_path):
    game = make(tmp_path, ON_PILE, "draw 1 from deck to me.pile\nif me.coin = 5:\n    me.flag = true")
    assert "step 'act'" in step_procs(game)
    state = game.new_state(2, seed=1)
    assert state.zone("pile", state.active) == ["rock"]
    assert state.var(state.active, "flag") is True


def test_a_kind_gate_leaves_out_only_the_cards_its_condition_refuses(tmp_path):
    game = make(tmp_path, ON_PILE, "draw 4 from deck to me.pile")     # the deck's top is its last card
    (gate,) = [(g, exact) for _, _, g, exact in next(z for z in game.zones if z.name == "pile").on_enter]
    assert gate == ([t.id != "gem" for t in game.card_type], True)
    state = game.new_state(2, seed=1)
    assert state.zone("pile", state.active) == ["rock", "rock", "gem", "gem"]
    assert state.counter(state.active, "coin") == 10


@pytest.mark.parametrize("condition, form", [
    ("target != me", (True, True)),
    ("me != target", (True, True)),
    ("target != me and target.coin > 0", (True, False)),
    ("target != me and target.coin > 0 and me.coin > 0", (True, False)),
    ("target.coin > 0 and target != me", (False, False)),    # the first test must be asked for the player
    ("target != me or target.coin > 0", (False, False)),
    ("target = me", (False, False)),
])
def test_target_forms(tmp_path, condition, form):
    spark = f'  - {{id: spark, name: Spark, count: 1, zone: deck, play: {{target: "{condition}"}}}}\n'
    game = make(tmp_path, "", "pass", cards_more=spark)
    kind = next(c for c in game.cards if c.id == "spark")
    assert (kind.target_not_me, kind.target_others) == form


@pytest.mark.parametrize("condition, gems, rocks, exact", [
    ("card is gem", True, False, True),
    ("card is not gem", False, True, True),
    ("not (card is gem)", False, True, True),
    ("card is gem or card is rock", True, True, True),
    ("card is gem and card is not rock", True, False, True),
    ("card is gem and owner.coin > 0", True, False, False),
    ("card is gem and card is not rock and owner.coin > 0", True, False, False),
    ("owner.coin > 0 and card is gem", None, None, False),   # the coin is asked first, for every card
    ("card is gem or owner.coin > 0", None, None, False),
])
def test_trigger_gates(tmp_path, condition, gems, rocks, exact):
    body = f"""
triggers:
  - name: watch the pile
    on: enter pile
    if: "{condition}"
    effect: owner.coin += 1
"""
    game = make(tmp_path, body, "pass")
    ((_, _, gate, is_exact),) = next(z for z in game.zones if z.name == "pile").on_enter
    want = None if gems is None else [gems if t.id == "gem" else rocks for t in game.card_type]
    assert (gate, is_exact) == (want, exact)


def test_flapjacks_answers_are_told_by_the_kind_of_card_answered():
    for kind in FLAPJACKS.reaction_types:       # Debunk: `card is sasquatch`; Paperwork: `card is a or card is b`
        assert kind.answer_exact and not kind.answer_personal
        state = FLAPJACKS.new_state(3, 0)
        for card, passes in enumerate(kind.answer_gate):
            assert bool(kind.answer_when(state, {"card": card, "me": None, "this": None, "player": 0})) == passes


def test_flapjacks_targets_use_the_forms():
    kinds = {c.id: (c.target_not_me, c.target_others) for c in FLAPJACKS.cards}
    assert kinds["winded"] == (True, True)
    assert kinds["steal_axe"] == (True, False)
    assert kinds["dull_axe"] == (False, False)      # `target = me or ...`


def asked_plays(st, player: int, zid: int) -> tuple[list, list]:
    """The plain reading of legal_plays: every kind's condition asked for every seat from the player."""
    options, values = [], []
    for card, ctype in cards.kinds_in(st, zid):
        if ctype.play_proc is None:
            continue
        seats = [(player + i) % st.n for i in range(st.n)]
        if ctype.play_target is None:
            targets = [player]
        else:
            targets = [t for t in seats if ctype.play_target(st, {"me": player, "this": card, "target": t})]
        for t in targets:
            label = f"play {ctype.name}" if t == player else f"play {ctype.name} on {NAMES[t]}"
            options.append([ctype.id if t == player else f"{ctype.id}>{NAMES[t]}", label])
            values.append(["play", card, player, t])
    return options, values


@examples(15)
@given(seed=st.integers(0, 10_000), players=st.integers(2, 8))
def test_legal_plays_match_asking_every_seat(seed, players):
    seen = []
    original = plays.legal_plays

    def compare(state, player, zid):
        got = original(state, player, zid)
        work = state.work
        assert asked_plays(state, player, zid) == got
        state.work = work
        seen.append(1)
        return got

    plays.legal_plays = compare
    try:
        play_out(FLAPJACKS.new_state(players, seed), RandomAgent(seed))
    finally:
        plays.legal_plays = original
    assert seen


@examples(10)
@given(seed=st.integers(0, 10_000), players=st.integers(2, 8))
def test_a_gated_trigger_condition_never_holds_for_a_card_its_gate_leaves_out(seed, players):
    state = FLAPJACKS.new_state(players, seed)
    gated = [(cond, gate, exact) for z in FLAPJACKS.zones for cond, _, gate, exact in z.on_enter + z.on_leave
             if gate is not None]
    assert gated                                    # the Long Saw's triggers test `card is long_saw`
    for cond, gate, exact in gated:
        for card, passes in enumerate(gate):
            holds = cond(state, {"card": card, "owner": seed % players, "me": seed % players})
            assert passes or not holds
            assert not exact or bool(holds) == passes


#: Cards whose `target:` conditions read `me`, `this` and `target` every way the generated loop reads them:
#: directly, through an aggregate over a zone (handed the locals ``L``), and through a function of the spec.
TARGETED = """
functions:
  poorer:
    params: {p: player}
    value: p.coin < 2
"""
TARGET_CARDS = """
  - {id: fine, name: Fine, count: 2, zone: deck, play: {target: "target.coin >= me.coin and this is fine"}}
  - {id: raid, name: Raid, count: 2, zone: deck, play: {target: "target != me and any(c in target.hand where c is gem)"}}
  - {id: tithe, name: Tithe, count: 2, zone: deck, play: {target: "poorer(target) or target = me"}}
"""


_TARGETED_GAME: dict[str, rulelang.Game] = {}


@examples(20)
@given(coins=st.lists(st.integers(0, 3), min_size=3, max_size=3), seed=st.integers(0, 1_000))
def test_generated_target_loops_offer_what_asking_each_seat_offers(tmp_path_factory, coins, seed):
    if "game" not in _TARGETED_GAME:    # compiled once: the examples change only the coins and the seed
        _TARGETED_GAME["game"] = make(tmp_path_factory.mktemp("targets"), TARGETED,
                                      "draw 4 from deck to me.hand\nplay from me.hand", TARGET_CARDS)
    game = _TARGETED_GAME["game"]
    kinds = [c for c in game.cards if c.play_target is not None]
    assert kinds and all(c.play_targets is not None for c in kinds)
    state = game.new_state(3, seed, before_first_turn=True)
    for p, coin in enumerate(coins):
        state.counters[game.player_holder + p][0] = coin
        cards.draw_cards(state, 2, 0, game.zone_id(next(z for z in game.zones if z.name == "hand"), p, 3))
    for p in range(3):
        zid = game.zone_id(next(z for z in game.zones if z.name == "hand"), p, 3)
        assert cards.legal_plays(state, p, zid) == asked_plays(state, p, zid)
        for kind in kinds:
            seats = tuple((p + i) % 3 for i in range(3))
            asked = cards.targets_asking(kind.play_target)(state, p, state.zones[zid][0], seats)
            assert kind.play_targets(state, p, state.zones[zid][0], seats) == asked
