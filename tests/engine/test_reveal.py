"""Private knowledge: variable visibility, a player's own account of the event log, and `run --as`."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

import rulelang
from rulelang.agents import RandomAgent, play_out
from rulelang.cli import main as cli_main
from rulelang.engine.views import HIDDEN_CARD, events_for, zone_seen
from rulelang.logs.eventlog import event_problem
from rulelang.logs.saves import SavedStateError

from helpers.effect_games import one_step
from helpers.examples import examples

VALID = Path(__file__).parents[1] / "broken" / "_valid"

GAME = """\
game: Secrets
players: {min: 2, max: 3}
vars:
  shown: {type: int, initial: 1}
  mine: {type: int, visibility: owner}
  sealed: {type: int, visibility: hidden}
zones:
  deck: {owner: table, visibility: hidden}
  pile: {owner: table, visibility: public}
  hand: {owner: player, visibility: owner}
cards:
  - {id: gem, name: Gem, count: 4, zone: deck}
  - {id: rock, name: Rock, count: 4, zone: deck}
setup: |
  shuffle deck
""" + one_step("turn >= 6")


def write_game(folder: Path, effect: str) -> Path:
    body = "\n".join("        " + line for line in effect.splitlines())
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "game.yaml").write_text(GAME.replace("{effect}", body))
    return folder


def secrets(tmp_path: Path, effect: str = "me.mine += 1\nme.sealed += 2\nme.shown += 3") -> rulelang.Game:
    return rulelang.load_game(write_game(tmp_path / "secrets", effect))


def played(game: rulelang.Game, players: int, seed: int) -> rulelang.State:
    state = game.new_state(players, seed)
    play_out(state, RandomAgent(seed))
    return state


# --- variable visibility ---------------------------------------------------------

def test_a_view_shows_public_variables_to_all_owner_variables_to_their_owner_and_hidden_ones_to_nobody(tmp_path):
    state = played(secrets(tmp_path), 2, 0)
    mine = state.view(0)["players"]
    assert set(mine[0]["vars"]) == {"shown", "mine"}
    assert set(mine[1]["vars"]) == {"shown"}
    assert all(set(seat["vars"]) == {"shown"} for seat in state.view(None)["players"])
    assert state.var(0, "sealed") > 0 and state.var(1, "mine") > 0       # the referee still holds them


def test_variables_are_public_by_default(tmp_path):
    game = secrets(tmp_path)
    assert game.var_visibility == ["public", "owner", "hidden"]
    plain = rulelang.load_game(VALID)
    assert set(plain.var_visibility) == {"public"}


def test_a_players_log_keeps_only_the_variables_they_may_see(tmp_path):
    game = secrets(tmp_path)
    state = played(game, 3, 1)
    full = [(e["player"], e["var"]) for e in state.events if e["type"] == "set"]
    assert {v for _, v in full} == {"shown", "mine", "sealed"}
    told = [(e["player"], e["var"]) for e in events_for(game, state.events, 1) if e["type"] == "set"]
    assert told == [(p, v) for p, v in full if v == "shown" or (v == "mine" and p == "P2")]


# --- cards in hidden hands -------------------------------------------------------

@examples(25)
@given(seed=st.integers(0, 10_000), players=st.integers(2, 3), viewer=st.integers(0, 2))
def test_a_players_log_never_names_a_card_in_another_players_hidden_hand(seed, players, viewer):
    game = _valid_game()
    viewer %= players
    state = played(game, players, seed)
    told = events_for(game, state.events, viewer)
    moves = [e for e in told if e["type"] == "moved"]
    assert moves, "the game moves cards"
    for event in moves:
        if not (zone_seen(game, event["from"], viewer) or zone_seen(game, event["to"], viewer)):
            assert event["card"] == HIDDEN_CARD and "id" not in event
        else:
            assert event["card"] != HIDDEN_CARD
    others = {f"hand:P{p + 1}" for p in range(players) if p != viewer}
    hidden = [e for e in state.events if e["type"] == "moved" and e["to"] in others and e["from"] == "deck"]
    assert hidden and all(e["card"] == HIDDEN_CARD for e in told if e["type"] == "moved" and e["to"] in others
                          and e["from"] == "deck")


def test_the_full_log_is_left_as_it_was(tmp_path):
    game = _valid_game()
    state = played(game, 2, 3)
    before = [dict(e) for e in state.events]
    events_for(game, state.events, 0)
    assert state.events == before


_GAMES: dict[str, rulelang.Game] = {}


def _valid_game() -> rulelang.Game:
    if "valid" not in _GAMES:
        _GAMES["valid"] = rulelang.load_game(VALID)
    return _GAMES["valid"]


# --- rulelang run --as -----------------------------------------------------------

def test_run_as_a_player_hides_the_others_hands_and_keeps_the_log_whole(tmp_path, capsys):
    log = tmp_path / "log.jsonl"
    assert cli_main(["run", str(VALID), "--players", "2", "--seed", "4", "--as", "P1", "--log", str(log)]) == 0
    as_p1 = capsys.readouterr().out
    assert cli_main(["run", str(VALID), "--players", "2", "--seed", "4"]) == 0
    everything = capsys.readouterr().out
    assert "P2 draws a card" in as_p1 and "P2 draws a card" not in everything
    assert "P1 draws a card" not in as_p1
    logged = [json.loads(line) for line in log.read_text().splitlines()]
    assert any(e["type"] == "moved" and e["to"] == "hand:P2" and e["card"] in ("gem", "rock") for e in logged)


def test_run_as_refuses_a_seat_the_game_does_not_have(capsys):
    assert cli_main(["run", str(VALID), "--players", "2", "--as", "P3"]) == 2
    assert "--as takes a player of this game, P1 to P2, not 'P3'" in capsys.readouterr().err


# --- reveal CARDS to P -----------------------------------------------------------------

REVEAL = """\
if turn = 1:
  draw 2 from deck to me.hand
  reveal me.hand to first(p in others where true)
if turn = 2:
  draw 1 from deck to me.hand
if turn = 3:
  reveal pile to all
"""


def test_a_revealed_card_is_shown_by_name_to_its_viewer_until_it_moves(tmp_path):
    game = secrets(tmp_path, REVEAL)
    state = game.new_state(3, 5, before_first_turn=True)
    state.go_to_step("work", turn=1, active=0)
    state.resume()
    hand = state.zone("hand", 0)
    assert len(hand) >= 2
    assert sorted(state.view(1)["revealed"]["hand:P1"]) == sorted(hand[:2])
    assert "revealed" not in state.view(2) and "revealed" not in state.view(None)
    assert state.view(1)["zones"]["hand:P1"] == len(hand)
    event = next(e for e in state.events if e["type"] == "revealed")
    assert event["to"] == "P2" and event["zones"] == ["hand:P1", "hand:P1"]
    card = event["ids"][0]
    _move(state, card)
    assert state.view(1).get("revealed", {}).get("hand:P1", []) == [event["cards"][1]]


def _move(state: rulelang.State, card: int) -> None:
    from rulelang.engine.cards import move_card
    pile = state.lay.zone_labels.index("pile")
    move_card(state, card, pile)


def _revealed_state(tmp_path) -> rulelang.State:
    state = secrets(tmp_path, REVEAL).new_state(3, 5, before_first_turn=True)
    state.go_to_step("work", turn=1, active=0)
    state.resume()
    return state


def test_a_reveal_is_in_the_log_of_its_viewer_only_and_names_the_card_when_it_moves_unseen(tmp_path):
    state = _revealed_state(tmp_path)
    game = state.game
    event = next(e for e in state.events if e["type"] == "revealed")
    assert event_problem(event) is None
    card = event["ids"][0]
    deck = state.lay.zone_labels.index("deck")
    from rulelang.engine.cards import move_card
    move_card(state, card, deck)            # hand:P1 -> deck: neither zone is seen by P2 or P3
    for viewer, named in ((1, True), (2, False), (None, False)):
        told = events_for(game, state.events, viewer)
        assert (event in told) == named
        last = told[-1]
        assert last["type"] == "moved" and (last["card"] == event["cards"][0]) == named
    move_card(state, card, state.lay.zone_labels.index("hand:P3"))     # moved since: no longer known to P2
    assert events_for(game, state.events, 1)[-1]["card"] == HIDDEN_CARD


def test_reveal_to_all_shows_the_cards_to_every_player_and_onlooker_logs(tmp_path):
    game = secrets(tmp_path, "reveal me.hand to all\ndraw 1 from deck to me.hand")
    state = played(game, 2, 2)
    reveals = [e for e in state.events if e["type"] == "revealed"]
    assert reveals and all(e["to"] == "all" for e in reveals)
    for viewer in (0, 1, None):
        assert [e for e in events_for(game, state.events, viewer) if e["type"] == "revealed"] == reveals
    onlooker = state.view(None).get("revealed", {})
    assert onlooker["hand:P1"] == state.view(1)["revealed"]["hand:P1"]
    assert onlooker.get("hand:P2") == state.view(0).get("revealed", {}).get("hand:P2")
    assert set(onlooker["hand:P1"]) <= set(state.zone("hand", 0))


def test_a_saved_state_keeps_its_reveals_and_refuses_forged_ones(tmp_path):
    state = _revealed_state(tmp_path)
    data = state.to_json()
    assert data["revealed"] and json.loads(json.dumps(data))["revealed"] == state.revealed
    again = rulelang.State.from_json(state.game, json.loads(json.dumps(data)))
    assert again.view(1) == state.view(1)
    forged = json.loads(json.dumps(data))
    forged["revealed"].append([0, 7])
    with pytest.raises(SavedStateError, match="no player 7"):
        rulelang.State.from_json(state.game, forged)
    none = {k: v for k, v in json.loads(json.dumps(data)).items() if k != "revealed"}
    assert rulelang.State.from_json(state.game, none).revealed == []
    assert "revealed" not in secrets(tmp_path).new_state(2, 0).to_json()     # no reveals: saved as before


def test_a_players_log_hides_the_secret_choices_of_others_until_they_are_revealed():
    game = rulelang.load_game(Path(__file__).parents[2] / "games" / "jacks_friends")
    state = played(game, 3, 7)
    secret = [e for e in state.events if e["type"] == "chose" and e.get("secret")]
    assert secret
    told = [e for e in events_for(game, state.events, 0) if e["type"] == "chose" and e.get("secret")]
    assert [e["player"] for e in told] == [e["player"] for e in secret]
    for full, mine in zip(secret, told):
        assert mine["option"] == (full["option"] if full["player"] == "P1" else "?")
    revealed = [e for e in state.events if e["type"] == "revealed"]
    assert revealed == [e for e in events_for(game, state.events, 0) if e["type"] == "revealed"]


# --- a player's account, told as the log grows (views.Account) ---------------------------

WHISPERS = Path(__file__).parents[1] / "whispers"


@examples(20)
@given(seed=st.integers(0, 10_000), viewer=st.sampled_from([0, 1, 2, None]), cuts=st.lists(st.integers(0, 400)))
def test_an_account_told_piece_by_piece_is_the_account_of_the_whole_log(seed, viewer, cuts):
    from rulelang.engine.views import Account
    game = _whispers()
    events = played(game, 3, seed).events
    account = Account(game, viewer)
    told = []
    for cut in sorted(cuts) + [len(events)]:
        told += account.catch_up(events[:cut])
    assert told == events_for(game, events, viewer) and account.heard == len(events)
    assert account.catch_up(events) == []              # nothing is told twice


def test_another_players_choice_of_a_card_is_kept_from_the_viewer():
    """`me chooses c in me.hand` names a card of a hand others cannot see: their logs show '?'."""
    game = _whispers()
    state = played(game, 3, 2)
    cards = {c.id for c in game.cards}
    picks = [e for e in state.events if e["type"] == "chose" and e["decision"] == "choose"]
    assert picks and all(e["option"] in cards for e in picks)
    for viewer in (0, 1, 2, None):
        told = [e for e in events_for(game, state.events, viewer) if e["type"] == "chose" and e["decision"] == "choose"]
        assert [e["player"] for e in told] == [e["player"] for e in picks]
        for full, mine in zip(picks, told):
            assert mine["option"] == (full["option"] if full["player"] == f"P{(viewer or 0) + 1}" and viewer is not None
                                      else "?")


def test_a_choice_among_numbers_or_players_stays_public():
    game = rulelang.load_game(Path(__file__).parents[2] / "games" / "jacks_friends")
    state = played(game, 3, 7)
    public = [e for e in state.events if e["type"] == "chose" and not e.get("secret")]
    assert public
    told = [e for e in events_for(game, state.events, 2) if e["type"] == "chose" and not e.get("secret")]
    assert told == public


def _whispers() -> rulelang.Game:
    if "whispers" not in _GAMES:
        _GAMES["whispers"] = rulelang.load_game(WHISPERS)
    return _GAMES["whispers"]
