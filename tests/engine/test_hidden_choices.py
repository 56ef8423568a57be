"""Hidden information in choices: what the other players learn follows what they can see, whatever form the
choice takes (issue 29).

The game is tests/mini_letter, a small game in the manner of Love Letter: hands are hidden, a card is played
through a `for` branch of `chooses one`, the Countess is forced when the King is held with it, and the
Guard's guess is said aloud (`publicly chooses`).
"""
from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

import rulelang
from rulelang.adapters.core import SpecTable
from rulelang.agents import RandomAgent, play_out
from rulelang.cli import main as cli_main
from rulelang.engine.fixtures import arrange, put_on_top, resume
from rulelang.engine.views import HIDDEN_CHOICE, events_for
from rulelang.logs.eventlog import event_problem
from rulelang.logs.replay import play_again

from helpers.examples import examples

MINI = Path(__file__).parents[1] / "mini_letter"
KINDS = ("guard", "gem", "king", "countess")


@pytest.fixture(scope="module")
def letter() -> rulelang.Game:
    return rulelang.load_game(MINI)


def played(game: rulelang.Game, players: int, seed: int) -> rulelang.State:
    state = game.new_state(players, seed)
    play_out(state, RandomAgent(seed))
    return state


def card_plays(events: list[dict], player: str) -> list[dict]:
    """The choices of ``player`` of the card to play (the `for c in me.hand` branch)."""
    return [e for e in events if e["type"] == "chose" and e["player"] == player and e["decision"] == "branch"]


# --- a card picked through a branch --------------------------------------------------------

@examples(30)
@given(seed=st.integers(0, 10_000), players=st.integers(2, 4))
def test_a_card_picked_from_a_hidden_hand_through_a_branch_is_named_to_its_player_alone(letter, seed, players):
    state = played(letter, players, seed)
    full = card_plays(state.events, "P1")
    assert full and all(e["option"] in KINDS for e in full)
    assert card_plays(events_for(letter, state.events, 0), "P1") == full
    for viewer in (1, None):
        told = card_plays(events_for(letter, state.events, viewer), "P1")
        assert [e["option"] for e in told] == [HIDDEN_CHOICE] * len(full)
        assert not any("forced" in e for e in told)


def _seed_where_p1_picks_a_guard(game: rulelang.Game) -> int:
    return next(seed for seed in range(200)
                if any(e["option"] == "guard" for e in card_plays(played(game, 2, seed).events, "P1")))


def test_run_as_another_player_does_not_name_the_card_picked(letter, capsys):
    seed = _seed_where_p1_picks_a_guard(letter)        # `guard` is no guess: only the branch can name it
    assert cli_main(["run", str(MINI), "--players", "2", "--seed", str(seed)]) == 0
    assert "P1 chooses Guard" in capsys.readouterr().out              # the card's name, not its id
    assert cli_main(["run", str(MINI), "--players", "2", "--seed", str(seed), "--as", "P2"]) == 0
    as_p2 = capsys.readouterr().out
    assert "P1 chooses Guard" not in as_p2 and "P1 chooses ?" in as_p2


def test_the_adapters_information_state_does_not_name_the_card_picked(letter):
    seed = _seed_where_p1_picks_a_guard(letter)
    table = SpecTable(MINI, 2)
    state = table.new_state(seed)
    play_out(state, RandomAgent(seed))
    told = json.loads(table.information_state_string(state, 1))["log"]
    assert not [e for e in card_plays(told, "P1") if e["option"] != HIDDEN_CHOICE]
    mine = json.loads(table.information_state_string(state, 0))["log"]
    assert any(e["option"] == "guard" for e in card_plays(mine, "P1"))


def test_openspiel_information_state_does_not_name_the_card_picked():
    pytest.importorskip("pyspiel", reason="OpenSpiel (pyspiel) is not installed: SpecTable, which it asks, is tested above")
    from rulelang.adapters.openspiel import load_game
    game = load_game(MINI, players=2, chance="sampled")
    rng = random.Random(0)
    state = game.new_initial_state()
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
    picks = card_plays(json.loads(state.information_state_string(1))["log"], "P1")
    assert picks and {e["option"] for e in picks} == {HIDDEN_CHOICE}


def test_a_card_picked_in_a_tuple_is_hidden_too(tmp_path):
    folder = tmp_path / "pairs"
    folder.mkdir()
    text = (MINI / "game.yaml").read_text()
    act = text[text.index("        me chooses one as card:"):text.index("        check end")]
    (folder / "game.yaml").write_text(text.replace(act, "        me chooses pair in [(t, c) for t in others for c in me.hand]\n"
                                                        "        move pair[1] to discard\n"))
    game = rulelang.load_game(folder)
    state = played(game, 3, 4)
    pairs = [e for e in state.events if e["type"] == "chose" and e["player"] == "P1"]
    assert pairs and all("-" in e["option"] for e in pairs)
    assert {e["option"] for e in events_for(game, state.events, 1) if e["type"] == "chose" and e["player"] == "P1"} \
        == {HIDDEN_CHOICE}


# --- forced choices ---------------------------------------------------------------------------

def countess_state(game: rulelang.Game, first_card: str, drawn: str) -> rulelang.State:
    """A game of two where P1 holds ``first_card`` and draws ``drawn`` on turn 1."""
    state = game.new_state(2, 0, before_first_turn=True)
    arrange(state, {"hand:P1": [first_card]}, others="deck")
    put_on_top(state, "deck", [drawn])
    resume(state)
    return state


def told_to_p2(game: rulelang.Game, state: rulelang.State) -> list[tuple]:
    """P2's account of P1's first turn, each event as its type and who it is about (the shape of the turn)."""
    return [(e["type"], e.get("player"), e.get("option")) for e in events_for(game, state.events, 1)
            if e.get("turn") == 1 and e["type"] in ("chose", "moved")]


def test_a_countess_forced_by_a_king_looks_to_the_others_like_a_free_choice(letter):
    forced = countess_state(letter, "countess", "king")
    assert forced.decision().player == 1                # P1 was not asked: the Countess was the only option
    free = countess_state(letter, "gem", "countess")
    free.apply("countess")
    picked = card_plays(forced.events, "P1")
    assert picked[0]["option"] == "countess" and picked[0]["forced"] is True
    assert told_to_p2(letter, forced) == told_to_p2(letter, free)
    assert told_to_p2(letter, forced)[1] == ("chose", "P1", HIDDEN_CHOICE)
    assert not event_problem(picked[0])


def test_a_game_may_let_the_others_see_that_a_choice_was_forced(tmp_path):
    folder = tmp_path / "shown"
    folder.mkdir()
    (folder / "game.yaml").write_text("forced_choices: shown\n" + (MINI / "game.yaml").read_text())
    game = rulelang.load_game(folder)
    assert not card_plays(countess_state(game, "countess", "king").events, "P1")


def test_a_forced_choice_among_cards_everyone_sees_is_not_logged(letter, tmp_path):
    folder = tmp_path / "open"
    folder.mkdir()
    (folder / "game.yaml").write_text((MINI / "game.yaml").read_text().replace(
        "hand: {owner: player, visibility: owner}", "hand: {owner: player, visibility: public}"))
    game = rulelang.load_game(folder)
    assert not card_plays(countess_state(game, "countess", "king").events, "P1")


@examples(25)
@given(seed=st.integers(0, 10_000), players=st.integers(2, 4))
def test_every_card_played_is_chosen_in_the_others_account(letter, seed, players):
    """Forced or free, each card P1 plays follows a choice of P1 in P2's account: nothing tells them apart."""
    state = played(letter, players, seed)
    told = events_for(letter, state.events, 1)
    for i, event in enumerate(told):
        if event["type"] == "moved" and event["from"] == "hand:P1" and event["to"] == "discard":
            assert told[i - 1]["type"] == "chose" and told[i - 1]["player"] == "P1"
            assert told[i - 1]["option"] == HIDDEN_CHOICE


@pytest.mark.parametrize("seed", range(6))
def test_replay_takes_logs_with_forced_choices(letter, tmp_path, capsys, seed):
    log = tmp_path / "game.jsonl"
    assert cli_main(["run", str(MINI), "--players", "3", "--seed", str(seed), "--log", str(log)]) == 0
    assert cli_main(["replay", str(MINI), str(log)]) == 0
    events = [json.loads(line) for line in log.read_text().splitlines()]
    assert not [e for e in events if event_problem(e)]
    assert play_again(letter, events).events == events     # the forced choices are the game's own
    state = played(letter, 3, seed)                        # a step played in place makes the same events
    assert play_again(letter, state.events).events == state.events


# --- choices said aloud -----------------------------------------------------------------------

def test_a_guess_said_aloud_is_heard_by_everyone(letter):
    seed = next(s for s in range(200) if any(e.get("public") for e in played(letter, 3, s).events))
    state = played(letter, 3, seed)
    guesses = [e for e in state.events if e.get("public")]
    assert {e["decision"] for e in guesses} == {"choose"} and {e["option"] for e in guesses} <= set(KINDS)
    for viewer in (0, 1, 2, None):
        assert [e for e in events_for(letter, state.events, viewer) if e.get("public")] == guesses
    assert "guess" in letter.decisions["act.guess"][0].name


def test_a_decision_said_aloud_keeps_its_kind_and_name(letter):
    state = countess_state(letter, "gem", "guard")
    state.apply("guard")                                 # of two players, the target is taken at once
    decision = state.decision()
    assert decision.kind == "choose" and decision.name == "act.guess"
    assert [o.id for o in decision.options[0]] == ["gem", "king", "countess"]


def test_a_branch_said_aloud_is_heard_by_everyone(tmp_path):
    folder = tmp_path / "aloud"
    folder.mkdir()
    text = (MINI / "game.yaml").read_text()
    (folder / "game.yaml").write_text(text.replace("me chooses one as card:", "me publicly chooses one as card:"))
    game = rulelang.load_game(folder)
    state = played(game, 2, 3)
    picks = card_plays(state.events, "P1")
    assert picks and all(e.get("public") for e in picks)
    assert card_plays(events_for(game, state.events, 1), "P1") == picks


def test_publicly_is_a_word_of_the_language(tmp_path):
    folder = tmp_path / "word"
    folder.mkdir()
    text = (MINI / "game.yaml").read_text()
    (folder / "game.yaml").write_text(text.replace("me publicly chooses guess", "me chooses publicly guess"))
    with pytest.raises(rulelang.RulelangError) as caught:
        rulelang.load_game(folder)
    assert caught.value.span is not None


# --- eliminated players -----------------------------------------------------------------------

DARTS = """\
game: Darts
players: {min: 3, max: 4}
zones:
  deck: {owner: table, visibility: hidden}
  discard: {owner: table, visibility: public}
  hand: {owner: player, visibility: owner}
cards:
  - {id: dart, name: Dart, count: 12, zone: deck, discard: discard,
     play: {target: "target != me", effect: "eliminate target"}}
  - {id: charm, name: Charm, count: 12, zone: deck, discard: discard,
     play: {target: "turn > 0", effect: "pass"}}
  - {id: shield, name: Shield, count: 12, zone: deck, discard: discard,
     answer: {when: "card is charm", effect: "pass"}}
setup: |
  shuffle deck
  for each p in players:
    draw 5 from deck to p.hand
turn:
  order: seat
  limit: 40
  steps:
    - name: play
      effect: |
        play from me.hand else discard
        check end
end:
  - name: last one in
    when: count(players) = 1
    winner: players
  - name: time
    when: turn >= 30
    winner: players
"""


@pytest.fixture(scope="module")
def darts(tmp_path_factory) -> rulelang.Game:
    folder = tmp_path_factory.mktemp("darts")
    (folder / "game.yaml").write_text(DARTS)
    return rulelang.load_game(folder)


@examples(40)
@given(seed=st.integers(0, 10_000), players=st.integers(3, 4))
def test_an_eliminated_player_is_no_card_target_and_answers_nothing(darts, seed, players):
    rng = random.Random(seed)
    state = darts.new_state(players, seed)
    out: set[str] = set()
    while not state.over:
        out |= {e["player"] for e in state.events if e["type"] == "eliminated"}
        decision = state.decision()
        assert not out & {f"P{p + 1}" for p in decision.players}
        offered = [o.id for p in decision.players for o in decision.options[p]]
        assert not [o for o in offered if o.partition(">")[2] in out]
        state.apply_index(rng.randrange(len(decision.options[decision.player])), decision.player)


# --- two copies of one kind -------------------------------------------------------------------

SECRET = """\
game: Copies
players: {min: 2, max: 4}
zones:
  deck: {owner: table, visibility: hidden}
  hand: {owner: player, visibility: owner}
  table: {owner: player, visibility: public}
vars:
  pick: {type: card}
  mark: {type: int}
cards:
  - {id: gem, name: Gem, count: 8, zone: deck}
  - {id: rock, name: Rock, count: 8, zone: deck}
setup: |
  shuffle deck
  for each p in players:
    draw 3 from deck to p.hand
turn:
  order: seat
  limit: 6
  steps:
    - name: pick
      effect: |
        each p in players secretly chooses p.pick in p.hand
        each p in players secretly chooses p.mark in [1, 1, 2]
        for each p in players:
          move p.pick to p.table
          draw 1 from deck to p.hand
        check end
end:
  - name: time
    when: turn >= 5
    winner: players
"""


@pytest.fixture(scope="module")
def copies(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("copies")
    (folder / "game.yaml").write_text(SECRET)
    return folder


def test_two_copies_of_one_kind_are_one_option_of_a_secret_choice(copies):
    game = rulelang.load_game(copies)
    for seed in range(20):
        state = game.new_state(3, seed)
        while not state.over:
            decision = state.decision()
            for p in decision.players:
                ids = [o.id for o in decision.options[p]]
                assert len(ids) == len(set(ids)), (seed, ids)
            state.apply_index(len(decision.options[decision.player]) - 1, decision.player)


@pytest.mark.parametrize("seed", range(25))
def test_replay_takes_every_log_run_writes_of_a_game_whose_hands_hold_copies(copies, tmp_path, capsys, seed):
    log = tmp_path / "game.jsonl"
    assert cli_main(["run", str(copies), "--players", "3", "--seed", str(seed), "--log", str(log)]) == 0
    assert cli_main(["replay", str(copies), str(log)]) == 0, capsys.readouterr()


def test_a_game_waiting_for_a_choice_said_aloud_saves_and_loads(letter):
    state = countess_state(letter, "gem", "guard")
    state.apply("guard")
    again = rulelang.State.from_json(letter, state.to_json())
    assert again.dumps() == state.dumps() and again.decision() == state.decision()
    again.apply("gem")
    assert [e for e in again.events if e.get("public")][-1]["option"] == "gem"


ALOUD_BRANCHES = """\
        me publicly chooses one as call:
          "gem" as gem:
            pass
          "rock" as rock if turn > 1:
            pass
"""


@pytest.mark.parametrize("in_place", [False, True])
def test_labelled_branches_said_aloud_are_heard_by_everyone_however_the_step_is_played(tmp_path, in_place):
    """Branch ids that read as card kinds would be kept from the others; said aloud, they are not, whether
    the step is played by its instructions (apply) or in place (play_out's agents)."""
    folder = tmp_path / "calls"
    folder.mkdir()
    text = (MINI / "game.yaml").read_text().replace("{id: gem,", "{id: rock, name: Rock, count: 1, zone: deck, "
                                                    "discard: discard}\n  - {id: gem,")
    (folder / "game.yaml").write_text(text.replace("        check end\n", ALOUD_BRANCHES + "        check end\n", 1))
    game = rulelang.load_game(folder)
    state = game.new_state(2, 1)
    if in_place:
        play_out(state, RandomAgent(1))
    else:
        rng = random.Random(1)
        while not state.over:
            decision = state.decision()
            state.apply_index(rng.randrange(len(decision.options[decision.player])), decision.player)
    calls = [e for e in state.events if e["type"] == "chose" and e["decision"] == "branch" and e.get("public")]
    assert {e["option"] for e in calls} == {"gem", "rock"}
    asked = [e for e in state.events if e["type"] == "step" and e["step"] == "act" and e["turn"] > 1]
    assert len(calls) == len(asked)         # on turn 1 the call is forced: said aloud, it leaves no event
    told = [e for e in events_for(game, state.events, 1) if e["type"] == "chose" and e["decision"] == "branch"
            and e["option"] in ("gem", "rock", HIDDEN_CHOICE) and e.get("public")]
    assert told == calls


def test_forced_choices_takes_hidden_or_shown_and_nothing_else(tmp_path):
    folder = tmp_path / "bad"
    folder.mkdir()
    (folder / "game.yaml").write_text("forced_choices: maybe\n" + (MINI / "game.yaml").read_text())
    with pytest.raises(rulelang.RulelangError) as caught:
        rulelang.load_game(folder)
    assert caught.value.span is not None and caught.value.span.line == 1


SECRET_ONE = """\
game: One card left
players: {min: 2, max: 3}
zones:
  deck: {owner: table, visibility: hidden}
  hand: {owner: player, visibility: HANDS}
  table: {owner: player, visibility: public}
vars:
  pick: {type: card}
cards:
  - {id: gem, name: Gem, count: 6, zone: deck}
  - {id: rock, name: Rock, count: 6, zone: deck}
turn:
  order: seat
  limit: 2
  steps:
    - name: pick
      effect: |
        each p in players secretly chooses p.pick in p.hand
        check end
end:
  - name: once
    when: "true"
    winner: players
"""


@pytest.mark.parametrize("hands, asked", [("owner", True), ("public", False)])
def test_a_secret_choice_with_one_card_unseen_is_asked_as_the_others_are(tmp_path, hands, asked):
    """P1 holds one card: out of sight, P1 is asked (and revealed) with the others, so nobody learns that P1
    had no choice; face up, P1's card is taken at once, as before."""
    folder = tmp_path / hands
    folder.mkdir()
    (folder / "game.yaml").write_text(SECRET_ONE.replace("HANDS", hands))
    game = rulelang.load_game(folder)
    state = game.new_state(3, 0, before_first_turn=True)
    arrange(state, {"hand:P1": ["gem"], "hand:P2": ["gem", "rock"], "hand:P3": ["rock", "gem"]}, others="deck")
    resume(state)
    decision = state.decision()
    assert (0 in decision.players) is asked
    assert all(len({o.id for o in decision.options[p]}) == len(decision.options[p]) for p in decision.players)
    while not state.over:
        state.apply_index(0, state.decision().players[0])
    revealed = [e for e in state.events if e["type"] == "revealed"]
    assert ("P1" in revealed[0]["choices"]) is asked
