"""The card play protocol's fast forms give the games the plain forms give.

``compiler/plays.py`` gives a card's play a second way to run where a step is played in place: the choice
as a decision, then ``rest_in_place`` (declare, react, resolve without a frame each). ``cards.CardTables``
holds per game what ``legal_plays``, ``reaction_options`` and ``answerers`` used to work out per call, and
``limits.roll_dice`` draws unscripted dice straight from the generator. The speed-ups' harness
(test_speedups.py, flag ``card_forms``) plays every card game with the plays in place and without; these
tests pin that ``rest_in_place`` runs, every way out of it, the tables against the card kinds they are
built from, and the dice against ``roll_die``.
"""
from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

import rulelang
from rulelang.agents import RandomAgent, play_out
from rulelang.compiler import direct
from rulelang.engine import cards
from rulelang.engine.limits import roll_dice
from rulelang.engine.names import NAMES
from rulelang.engine.speedups import ALL_ON
from rulelang.statements.play import Play

from golden.record import GAMES as GOLDEN
from helpers.both_ways import both_ways
from helpers.examples import examples

ROOT = Path(__file__).resolve().parents[2]

#: the golden games whose rules play cards (`play from`): Flapjacks and its mods, and the hooks example
CARD_GAMES = {name: spec for name, spec in GOLDEN.items() if name.split("+")[0] in ("flapjacks", "hooks")}


def load(name: str) -> rulelang.Game:
    folder, mods = CARD_GAMES[name]
    return rulelang.load_game(ROOT / folder, mods=[ROOT / m for m in mods])


FLAPJACKS = load("flapjacks")


def wire_rest_in_place(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Count the plays that steps played in place run through ``rest_in_place`` (returned, filled as games
    are played): compiler/direct.py's own ``in_frames`` writes each play, and the play's instructions it
    compiles hand it a counting wrapper of their ``rest_in_place``."""
    ran: list[int] = []
    plain = direct.DirectCompiler.in_frames

    def in_frames(self, s, out):
        if not isinstance(s, Play):
            return plain(self, s, out)
        compile_once = self.instructions

        def counted_instructions(stmts):
            b = compile_once(stmts)
            rest = b.code[0].rest_in_place

            def counted(st, L, base):
                ran.append(1)
                return rest(st, L, base)
            b.code[0].rest_in_place = counted
            return b

        self.instructions = counted_instructions
        try:
            return plain(self, s, out)
        finally:
            self.instructions = compile_once

    monkeypatch.setattr(direct.DirectCompiler, "in_frames", in_frames)
    return ran


@pytest.mark.parametrize("name", sorted(CARD_GAMES))
def test_plays_in_place_run_through_rest_in_place(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The card games' plays played in place take ``rest_in_place``: the speed-ups' harness (test_speedups.py,
    flags ``card_forms`` and ``in_place``) holds that they give the games the frames give."""
    ran = wire_rest_in_place(monkeypatch)
    game = load(name)                   # compiled with the counting wrapper
    events = [e for players in {game.min_players, min(game.max_players, 5)} for seed in range(3)
              for e in play_out(game.new_state(players, seed), RandomAgent(seed)).events]
    assert ran, "no card was played through rest_in_place"
    if name.startswith("flapjacks"):    # its answers and its discards for want of a play went this way too
        assert any(e["type"] == "answered" for e in events)
        assert any(e["type"] == "chose" and e["decision"] == "discard" for e in events)


#: A card game whose plays end turns and games inside card effects and answers, fire triggers as cards
#: leave a hand (a discard, an answer) and enter play, ask decisions inside effects, and play twice from a
#: procedure: every way out of ``rest_in_place``.
EDGES = """\
game: Edges
players: {min: 2, max: 4}
counters:
  coin: {label: coins}
vars:
  mark: {type: int, initial: 0}
zones:
  deck: {owner: table, visibility: hidden, refill_from: pile, discard: pile}
  pile: {owner: table, visibility: public}
  hand: {owner: player, visibility: owner}
  play: {owner: player, visibility: public, discard: pile}
cards:
  - id: stop
    name: Stop
    count: 4
    zone: deck
    play: {effect: end turn}
  - id: win
    name: Win
    count: 2
    zone: deck
    play:
      effect: |
        me.coin += 3
        check end
  - id: stay
    name: Stay
    count: 4
    zone: deck
    play: {to: target.play, target: "target = me or target.coin > 1", effect: me.mark += 1}
  - id: grab
    name: Grab
    count: 5
    zone: deck
    play:
      target: target != me and target.coin > 0
      effect: |
        move 1 coin from target to me
        me chooses one:
          "again":
            me.mark += 2
          "rest":
            end turn
  - id: block
    name: Block
    count: 4
    zone: deck
    answer:
      when: card is grab or card is win
      effect: |
        move 1 coin from player to me
        end turn
  - id: dodge
    name: Dodge
    count: 3
    zone: deck
    answer:
      when: card is stay and me.coin > 1
      effect: me.mark += 5
triggers:
  - name: leaving a hand costs a mark
    on: leave hand
    if: card is block or card is stay
    effect: me.mark -= 1
  - name: a card in play pays
    on: enter play
    effect: owner.coin += 1
  - name: a win resolved
    on: resolve win
    effect: me.mark += 7
procedures:
  two_plays:
    params: {p: player}
    effect: |
      play from p.hand else discard
      p.mark += 1
      play from p.hand
setup: |
  shuffle deck
  for each p in players:
    p.coin = 2
    draw 3 from deck to p.hand
turn:
  order: seat
  limit: 300
  steps:
    - name: draw
      effect: draw 2 from deck to me.hand
    - name: play
      effect: two_plays(me)
    - name: tally
      effect: |
        me.mark += 1
        check end
end:
  - name: rich
    when: any(p in players where p.coin >= 12)
    winner: first(p in players where p.coin >= 12)
"""


def test_every_way_out_of_a_play_run_in_place(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The same games through frames, and in place with card forms off (each play run by its instructions)."""
    ran = wire_rest_in_place(monkeypatch)
    (tmp_path / "game.yaml").write_text(EDGES)
    game = rulelang.load_game(tmp_path)
    games = [both_ways(game, p, seed) for p in (2, 3, 4) for seed in range(12)]
    assert ran
    plain = rulelang.load_game(tmp_path, speedups=ALL_ON.without("card_forms"))
    for in_place, (players, seed) in zip(games, [(p, seed) for p in (2, 3, 4) for seed in range(12)]):
        assert play_out(plain.new_state(players, seed), RandomAgent(seed)).dumps() == in_place.dumps()
    assert "a card declared" in game.program.source() and "a card declared" not in plain.program.source()
    events = [e for in_place in games for e in in_place.events]
    played = {e["card"] for e in events if e["type"] == "played"}
    assert {"stop", "win", "grab", "stay"} <= played and any(e["type"] == "answered" for e in events)
    last_plays = [[e for e in g.events if e["type"] in ("played", "turn")][-1] for g in games]
    assert any(e.get("card") == "win" for e in last_plays), "no game ended inside a card's effect"


@pytest.mark.parametrize("name", sorted(CARD_GAMES))
def test_the_tables_say_what_the_card_kinds_say(name: str) -> None:
    game = load(name)
    tables = cards.card_tables(game, game.max_players)
    for card, kind in enumerate(game.card_type):
        assert tables.playable[card] is (kind if kind.play_proc is not None else None)
        assert tables.answering[card] is (kind if kind.answer_when is not None else None)
        assert tables.discard_when[card] is kind.discard_when
        pile = None if kind.discard is None else game.zones[kind.discard]
        assert tables.table_discard[card] == (game.zone_id(pile, None, 2) if pile and pile.owner == "table" else None)
    for kind in game.cards:
        assert tables.play_self[kind.index] == [kind.id, f"play {kind.name}"]
        assert tables.answer_with[kind.index] == [f"answer:{kind.id}", f"answer with {kind.name}"]
        assert tables.play_on[kind.index][game.max_players - 1] == [
            f"{kind.id}>{NAMES[game.max_players - 1]}", f"play {kind.name} on {NAMES[game.max_players - 1]}"]


def test_more_seats_than_the_game_has_get_their_options() -> None:
    tables = cards.card_tables(FLAPJACKS, FLAPJACKS.max_players + 3)
    kind = FLAPJACKS.cards[0]
    assert tables.seats >= FLAPJACKS.max_players + 3
    assert tables.play_on[kind.index][FLAPJACKS.max_players + 2] == [
        f"{kind.id}>{NAMES[FLAPJACKS.max_players + 2]}", f"play {kind.name} on {NAMES[FLAPJACKS.max_players + 2]}"]
    assert cards.card_tables(FLAPJACKS, 2) is tables     # one table per game, whatever the seats
    assert tables.around(5)[2] == (2, 3, 4, 0, 1) and tables.around(2) == [(0, 1), (1, 0)]


def test_the_shared_options_are_unchanged_by_play() -> None:
    tables = cards.card_tables(FLAPJACKS, FLAPJACKS.max_players)
    before = [list(pair) for pair in tables.play_self], [[list(p) for p in on] for on in tables.play_on]
    for seed in range(5):
        play_out(FLAPJACKS.new_state(4, seed), RandomAgent(seed))
    assert ([list(pair) for pair in tables.play_self], [[list(p) for p in on] for on in tables.play_on]) == before


def asked_answerers(state, card: int, player: int) -> list[int]:
    """The plain reading of ``answerers``: ask every reaction kind's quick look, with no table."""
    return ([(player + i) % state.n for i in range(1, state.n)]
            if state.game.reaction_types and cards._asked_if_answerable(state, card, player) else [])


def asked_reactions(state, card: int, player: int, reactor: int, zid: int) -> tuple[list, list]:
    """The plain reading of ``reaction_options``: one card of each kind in the hand, its condition asked."""
    options, values = [], []
    for reaction, kind in cards.kinds_in(state, zid):
        if kind.answer_when is not None and kind.answer_when(
                state, {"card": card, "me": reactor, "this": reaction, "player": player}):
            options.append([f"answer:{kind.id}", f"answer with {kind.name}"])
            values.append([reactor, reaction])
    return options, values


@examples(15)
@given(seed=st.integers(0, 10_000), players=st.integers(2, 8))
def test_answers_offered_match_asking_every_kind(seed: int, players: int) -> None:
    state = FLAPJACKS.new_state(players, seed)
    hand = next(z for z in FLAPJACKS.zones if z.name == "hand")
    rng = random.Random(seed)
    for card in rng.sample(range(len(FLAPJACKS.card_type)), 20):
        player = rng.randrange(players)
        assert cards.answerers(state, card, player) == asked_answerers(state, card, player)
        for reactor in range(players):
            zid = FLAPJACKS.zone_id(hand, reactor, players)
            work = state.work
            got = cards.reaction_options(state, card, player, reactor, zid)
            spent = work - state.work
            assert got == asked_reactions(state, card, player, reactor, zid)
            assert spent == work - spent - state.work == len(state.zones[zid])   # each card looked at, as before


def test_unscripted_dice_are_the_dice_roll_die_rolls() -> None:
    one, other = FLAPJACKS.new_state(3, 7), FLAPJACKS.new_state(3, 7)
    assert roll_dice(one, 5, 6) == [other.roll_die(6) for _ in range(5)]
    assert roll_dice(one, 1, 6) == [other.roll_die(6)]
    assert roll_dice(one, 0, 6) == []
    assert one.rng == other.rng


def test_a_script_shorter_than_the_roll_is_used_up_then_the_generator_rolls() -> None:
    one, other = FLAPJACKS.new_state(3, 7), FLAPJACKS.new_state(3, 7)
    one.dice_script, other.dice_script = [2, 5], [2, 5]
    rolled = roll_dice(one, 4, 6)
    assert rolled == [other.roll_die(6) for _ in range(4)]
    assert rolled[:2] == [2, 5] and one.dice_script == [] and one.rng == other.rng
