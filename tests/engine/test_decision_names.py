"""Decisions carry stable names from the spec (WHERE.WHAT), their rulings, and option ids that survive
rewording a label; labels are in the game's own words; the event log is unchanged by any of it."""
from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

import rulelang
from rulelang import RulelangError
from rulelang.engine.state import State
from rulelang.model.decisions import catalogue_options, slug

from helpers.examples import examples
from helpers.games import shipped

ROOT = Path(__file__).resolve().parents[2]
JACKS = shipped("games/jacks_friends")
FLAP = shipped("games/flapjacks")
PIG_TEXT = (ROOT / "examples" / "pig" / "game.yaml").read_text()
PIG_BRANCHES = '''            "roll again":
              me takes another turn
            "hold":'''


def pig(tmp_path: Path, branches: str, choose: str = "me chooses one:") -> rulelang.Game:
    """Pig with its `chooses one` rewritten: the branch labels (and ids) and the statement's head."""
    assert PIG_BRANCHES in PIG_TEXT and "me chooses one:" in PIG_TEXT
    text = PIG_TEXT.replace(PIG_BRANCHES, branches).replace("me chooses one:", choose)
    folder = tmp_path / f"pig{len(list(tmp_path.iterdir()))}"
    folder.mkdir()
    (folder / "game.yaml").write_text(text)
    return rulelang.load_game(folder)


def first_decision(game: rulelang.Game, seed: int = 0) -> State:
    """A game of Pig played until a branch decision waits (a 1 asks nothing)."""
    for s in range(seed, seed + 50):
        state = game.new_state(2, s)
        if state.decision() is not None:
            return state
    raise AssertionError("no decision in 50 games")


# --- names and ids -----------------------------------------------------------------------------

def test_the_games_name_their_decisions_by_place_and_variable():
    assert sorted(JACKS.decisions) == ["3_build.eggs", "5_catches_in_the_village.stolen", "choose_locations.at",
                                       "eat.choice"]
    assert sorted(FLAP.decisions) == ["lure_help.hired", "mating_season.choice", "play_a_card.answer",
                                      "play_a_card.play", "steal_equipment.loot", "switch_tags.mine",
                                      "switch_tags.theirs"]
    kinds = {name: sites[0].kind for name, sites in JACKS.decisions.items()}
    assert kinds == {"3_build.eggs": "number", "5_catches_in_the_village.stolen": "choose",
                     "choose_locations.at": "secret", "eat.choice": "branch"}


def test_a_decision_carries_the_rulings_of_its_step_procedure_or_card():
    assert JACKS.decisions["eat.choice"][0].rule == ("JF-7",)
    assert JACKS.decisions["5_catches_in_the_village.stolen"][0].rule == ("JF-6", "JF-8")
    assert FLAP.decisions["mating_season.choice"][0].rule == ("FS-3", "FS-4", "FS-11")


def test_a_reworded_label_with_an_id_keeps_its_id_and_the_decision_its_name(tmp_path):
    before = pig(tmp_path, '''            "roll again" as again:
              me takes another turn
            "hold" as hold:''')
    after = pig(tmp_path, '''            "push your luck and roll once more" as again:
              me takes another turn
            "bank the points" as hold:''')
    one, two = first_decision(before).decision(), first_decision(after).decision()
    assert one.name == two.name == "roll.choice"
    assert [o.id for o in one.options[one.player]] == [o.id for o in two.options[two.player]] == ["again", "hold"]
    assert [o.label for o in two.options[two.player]] == ["push your luck and roll once more", "bank the points"]


def test_without_an_id_a_branch_keeps_the_slug_of_its_label_as_before():
    game = shipped("examples/pig")
    decision = first_decision(game).decision()
    assert [o.id for o in decision.options[decision.player]] == ["roll-again", "hold"]


def test_as_name_names_the_decision(tmp_path):
    game = pig(tmp_path, PIG_BRANCHES, "me chooses one as push:")
    assert list(game.decisions) == ["roll.push"]
    assert first_decision(game).decision().name == "roll.push"


def test_two_branches_with_one_id_are_a_located_error(tmp_path):
    with pytest.raises(RulelangError) as caught:
        pig(tmp_path, '''            "roll again" as again:
              me takes another turn
            "hold" as again:''')
    assert "two branches have the option id 'again'" in caught.value.format()
    assert caught.value.span is not None and caught.value.span.line > 1


def test_a_label_that_slugs_like_another_is_refused_rather_than_sharing_its_id(tmp_path):
    with pytest.raises(RulelangError, match="option id 'roll-again'"):
        pig(tmp_path, '''            "roll again":
              me takes another turn
            "Roll again!":''')


@pytest.mark.parametrize("text, expected", [("3. Build", "3_build"), ("Choose locations", "choose_locations"),
                                            ("5. Catches in the Village", "5_catches_in_the_village")])
def test_step_names_become_words_joined_by_underscores(text, expected):
    assert slug(text) == expected


# --- every decision of every game has its name ------------------------------------------------

def play_checking_names(game: rulelang.Game, players: int, seed: int, limit: int = 3000) -> int:
    """Play a random game; at every decision check its name, ruling, options and view. Returns decisions seen."""
    rng = random.Random(seed)
    state = game.new_state(players, seed)
    seen = 0
    while not state.over and seen < limit:
        decision = state.decision()
        assert decision is not None
        sites = game.decisions.get(decision.name)
        assert sites, f"decision {decision.kind} at turn {state.turn} has no known name: {decision.name!r}"
        assert decision.rule == sites[0].rule
        assert decision.kind in {s.kind for s in sites} | ({"discard"} if sites[0].kind == "play" else set())
        known = catalogue_options(sites)
        for player in decision.players:
            view = state.view(player)
            assert view["decision"] == {"name": decision.name, "rule": list(decision.rule)}
            if known is not None:
                assert {o.id for o in decision.options[player]} <= {oid for oid, _ in known}
            elif sites[0].numeric:
                assert all(o.id.isdigit() for o in decision.options[player])
        player = decision.players[0]
        state.apply_index(rng.randrange(len(decision.options[player])), player)
        seen += 1
    return seen


@examples(25)
@given(seed=st.integers(0, 2**32), players=st.integers(2, 6))
def test_every_decision_of_jacks_friends_has_a_name(seed, players):
    assert play_checking_names(JACKS, players, seed) > 0


@examples(8)
@given(seed=st.integers(0, 2**32), players=st.integers(2, 5))
def test_every_decision_of_flapjacks_has_a_name(seed, players):
    assert play_checking_names(FLAP, players, seed, limit=400) > 0


def test_random_flapjacks_reaches_every_kind_of_its_decisions():
    """Over some games every name of the play step, and a card's own choice, is asked at least once."""
    asked: set[str] = set()
    for seed in range(30):
        state = FLAP.new_state(4, seed)
        rng = random.Random(seed)
        while not state.over and state.turn < 200:
            decision = state.decision()
            asked.add(decision.name)
            state.apply_index(rng.randrange(len(decision.options[decision.players[0]])), decision.players[0])
    assert {"play_a_card.play", "play_a_card.answer", "mating_season.choice"} <= asked


# --- labels and the log ------------------------------------------------------------------------

def test_counter_options_are_labelled_in_the_games_words():
    state = JACKS.new_state(3, 0)
    state.set_counter(1, "egg", 1)
    state.set_counter(1, "veggie", 1)
    for player, where in {0: "village", 1: "village", 2: "kitchen"}.items():
        state.apply(where, player)
    decision = state.decision()
    assert decision.name == "5_catches_in_the_village.stolen"
    assert [(o.id, o.label) for o in decision.options[0]] == [("egg", "golden egg"), ("veggie", "vegetable")]


def test_the_chose_event_is_as_before_so_logs_keep_their_bytes():
    """The name is found from where the rules stand, not written into events or the saved state."""
    state = JACKS.new_state(4, 3)
    rng = random.Random(3)
    while not state.over:
        decision = state.decision()
        state.apply_index(rng.randrange(len(decision.options[decision.players[0]])), decision.players[0])
    chose = [e for e in state.events if e["type"] == "chose"]
    assert chose and all(set(e) <= {"type", "turn", "player", "option", "decision", "secret"} for e in chose)
    assert "name" not in str(state.to_json()["pending"])


def test_a_restored_state_names_its_waiting_decision():
    state = JACKS.new_state(3, 0)
    state.set_counter(1, "meat", 1)
    for player, where in {0: "garden", 1: "garden", 2: "village"}.items():
        state.apply(where, player)
    assert state.decision().name == "eat.choice"
    restored = State.from_json(JACKS, state.to_json())
    assert restored.decision().name == state.decision().name
