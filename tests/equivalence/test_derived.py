"""The end check kept between checks (rulelang/compiler/derived.py): when the end conditions read nothing
but zones, their answer is kept until a card enters or leaves a zone they read, and the games are the
games the closures play, which ask every time."""
from __future__ import annotations

from pathlib import Path

import pytest

import rulelang
from rulelang.agents import RandomAgent, play_out
from rulelang.compiler import compile_game
from rulelang.engine.speedups import ALL_ON
from rulelang.spec.loader import load_document

from golden import record

ROOT = Path(__file__).resolve().parents[2]

VAULT = "vault:P1"

SPEC = """
game: Gems
players: {min: 2, max: 3}
zones:
  deck: {owner: table, visibility: hidden, refill_from: pile}
  pile: {owner: table, visibility: public}
  hand: {owner: player, visibility: owner}
  vault: {owner: player, visibility: public}
cards:
  - {id: gem, name: Gem, count: 5, zone: deck}
  - {id: rock, name: Rock, count: 7, zone: deck}
functions:
  gems:
    params: {p: player}
    value: count(c in p.vault where c is gem)
turn:
  order: seat
  limit: 200
  steps:
    - name: Look
      effect: check end
    - name: Draw
      effect: |
        draw 1 from deck to me.hand
        check end
    - name: Keep
      effect: |
        me chooses n from 0 to 2
        if n = 1 and not empty(me.hand):
          move last(me.hand) to me.vault
        if n = 2 and not empty(me.hand):
          move first(me.hand) to pile
        check end
end:
  - name: three gems
    when: any(p in players where gems(p) >= 3)
    winner: first(p in players where gems(p) >= 3)
  - name: no cards left
    when: empty(deck) and empty(pile)
    winner: players
"""


def spec_folder(tmp_path: Path, text: str = SPEC) -> Path:
    folder = tmp_path / "gems"
    folder.mkdir(exist_ok=True)
    (folder / "game.yaml").write_text(text, encoding="utf-8")
    return folder


def test_an_end_check_reading_only_zones_is_kept_and_knows_which_zones(tmp_path: Path) -> None:
    game = rulelang.load_game(spec_folder(tmp_path))
    assert game.end_kept
    # the vault through the function the first condition calls; never a hand
    assert {z.name for z in game.zones if z.ends_read} == {"vault", "deck", "pile"}


@pytest.mark.parametrize("reads", ["game.turns_left = 0", "me.points > 5", "turn > 50",
                                   "count(x in range(0, 3) where x > 1) > 5"])
def test_an_end_check_reading_a_counter_a_variable_me_the_turn_or_a_closure_is_asked_every_time(
        tmp_path: Path, reads: str) -> None:
    text = SPEC.replace("functions:", "counters:\n  turns_left: {label: turns}\nvars:\n  points: {type: int}\nfunctions:")
    game = rulelang.load_game(spec_folder(tmp_path, text.replace("when: any(p in players where gems(p) >= 3)",
                                                                 f"when: any(p in players where gems(p) >= 3) or {reads}")))
    assert not game.end_kept
    assert not any(z.ends_read for z in game.zones)


#: An expression nested past source_expr.MAX_NESTING: its inner part is compiled apart, a closure called with the locals.
DEEP = "(" * 25 + "turn" + " + 1)" * 25 + " > 500"


@pytest.mark.parametrize("reads, needs_locals", [("game.turns_left = 0", False), ("me.points > 5", True),
                                                  ("count(x in range(0, 3) where x > 1) > 5", False),
                                                  (DEEP, True)])
def test_an_end_check_is_given_its_locals_only_where_it_may_read_them(tmp_path: Path, reads: str,
                                                                       needs_locals: bool) -> None:
    """`me` read by name, or a rule compiled as a closure (which may read any local), needs the locals; a
    counter, or a comprehension over `range` written out as Python, does not, and the check is called without
    them. Either way it plays as the closures do."""
    text = SPEC.replace("functions:", "counters:\n  turns_left: {label: turns}\nvars:\n  points: {type: int}\nfunctions:")
    text = text.replace("when: empty(deck) and empty(pile)", f"when: (empty(deck) and empty(pile)) or {reads}")
    doc = load_document(spec_folder(tmp_path, text))
    generated, closures = compile_game(doc), compile_game(doc, python=False)
    assert generated.end_reads_locals is needs_locals
    for seed in range(10):
        state = play_out(generated.new_state(2, seed), RandomAgent(seed))
        framed = play_out(closures.new_state(2, seed), RandomAgent(seed))
        assert state.dumps() == framed.dumps() and state.over


def test_the_kept_end_check_plays_every_seed_as_the_check_asked_every_time(tmp_path: Path) -> None:
    """A game whose end check is kept (most games of the speed-ups' harness, test_speedups.py, flag ``derived``,
    have none), its two conditions each met after cards moved in and out: the same game with the check asked
    every time, by the generated code (``derived`` off) and by the closures."""
    doc = load_document(spec_folder(tmp_path))
    kept = compile_game(doc)
    asked, closures = compile_game(doc, speedups=ALL_ON.without("derived")), compile_game(doc, python=False)
    assert kept.end_kept and asked.end_first is None and asked.program is not None and closures.end_first is None
    results = set()
    for players in (2, 3):
        for seed in range(25):
            state = play_out(kept.new_state(players, seed), RandomAgent(seed))      # in place, kept too
            for other in (asked, closures):
                assert record.fingerprint(kept, players, seed) == record.fingerprint(other, players, seed)
                assert state.dumps() == play_out(other.new_state(players, seed), RandomAgent(seed)).dumps()
            results.add(state.result)
    assert results == {"three gems", "no cards left"}      # each held, after cards moved in and out


def test_a_state_set_up_by_hand_is_asked_again_when_play_resumes(tmp_path: Path) -> None:
    """`Draw` kept "nothing ended"; then the vault is filled by hand, and the `check end` that ends `Keep`,
    where no card moves, sees it: resuming play sets the kept answer aside. (Kept, it would have said
    "nothing ended", and P2's turn would have begun.)"""
    game = rulelang.load_game(spec_folder(tmp_path))
    state = game.new_state(2, seed=1)               # waiting in Keep, turn 1
    assert state.end_known == game.end_all == 0b11  # Draw's check end kept both answers: neither held
    state.arrange({VAULT: ["gem", "gem", "gem"]})
    state.apply_index(0)                            # keep nothing: no card moves in Keep
    assert state.over and state.winner_names() == ["P1"]
    assert state.events[-1]["type"] == "ended" and state.events[-1]["turn"] == 1


def test_a_card_moving_sets_aside_only_the_answers_of_the_conditions_that_read_its_zones(tmp_path: Path) -> None:
    """"three gems" reads the vaults, "no cards left" the deck and the pile: a draw from the deck leaves the
    first kept, a card put in a vault the second; a shuffle sets both aside."""
    from rulelang.engine.cards import move_card, shuffle_zone

    game = rulelang.load_game(spec_folder(tmp_path))
    state = game.new_state(2, seed=1)
    zone = state.lay.zone_labels.index
    assert state.end_known == 0b11
    move_card(state, state.zones[zone("deck")][-1], zone("hand:P1"))
    assert state.end_known == 0b01                  # "three gems" is still known to be false
    assert game.end_first(state, {}, state.end_known) == -1     # only "no cards left" is asked, and fails
    move_card(state, state.zones[zone("hand:P1")][-1], zone("vault:P2"))
    assert state.end_known == 0b00
    state.end_known = game.end_all
    shuffle_zone(state, zone("deck"))
    assert state.end_known is None
