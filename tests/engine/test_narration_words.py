"""Words, not ids, in the play-by-play (issues 31 and 32): revealed cards and chosen options by their names and
labels, whose die a changed roll is, variables and counters by their labels, and `play` the same."""
from __future__ import annotations

import io
import re
from pathlib import Path

import pytest

from rulelang import load_game
from rulelang.cli import main as cli_main
from rulelang.cli.play import Quit, Table
from rulelang.logs.narrate import Narrator, narrate

from helpers.games import shipped

ROOT = Path(__file__).resolve().parents[2]
PIG, LIARS, GOOF, HOOKS = (ROOT / "examples" / name for name in ("pig", "liars_dice", "goofspiel", "hooks"))
JF, FJ = ROOT / "games" / "jacks_friends", ROOT / "games" / "flapjacks"


def told(game, *events: dict) -> list[str | None]:
    """The lines one narrator tells for these events, in order."""
    narrator = Narrator(game)
    return [narrator.line(e) for e in events]


# --- chosen options and revealed choices by their labels --------------------------------------------------

def test_a_branch_chosen_is_told_by_its_label_not_its_id() -> None:
    liars = shipped("examples/liars_dice")        # `"call the last bid a lie" as liar`
    assert narrate(liars, {"type": "chose", "turn": 2, "player": "P2", "option": "liar", "decision": "branch"}) \
        == "  P2 chooses call the last bid a lie"
    pig = shipped("examples/pig")            # `"roll again":` has the id roll-again
    assert narrate(pig, {"type": "chose", "turn": 1, "player": "P1", "option": "roll-again", "decision": "branch"}) \
        == "  P1 chooses roll again"


def test_a_tuple_chosen_is_told_as_the_rules_write_it() -> None:
    liars = shipped("examples/liars_dice")
    assert narrate(liars, {"type": "chose", "turn": 1, "player": "P1", "option": "1-3", "decision": "branch"}) \
        == "  P1 chooses (1, 3)"


def test_secret_choices_revealed_are_told_by_card_name_and_location_label() -> None:
    goofspiel = shipped("examples/goofspiel")
    assert narrate(goofspiel, {"type": "revealed", "turn": 1, "choices": {"P1": "three", "P2": "ten"}}) \
        == "  revealed: P1 Three, P2 Ten"
    friends = shipped("games/jacks_friends")
    assert narrate(friends, {"type": "revealed", "turn": 1, "choices": {"P1": "kitchen", "P2": "hen_house"}}) \
        == "  revealed: P1 Kitchen, P2 Hen House"


def test_an_option_with_no_label_is_its_id_in_words_and_a_hidden_one_stays_hidden() -> None:
    pig = shipped("examples/pig")
    assert narrate(pig, {"type": "chose", "turn": 1, "player": "P1", "option": "lend_to", "decision": "branch"}) \
        == "  P1 chooses lend to"
    assert narrate(pig, {"type": "chose", "turn": 1, "player": "P1", "option": "?", "decision": "branch"}) \
        == "  P1 chooses ?"


def test_one_option_id_with_two_labels_is_not_given_either(tmp_path: Path) -> None:
    """Two decisions offering `hold` with different words: the log does not say which was asked, so no
    label is guessed."""
    text = (PIG / "game.yaml").read_text(encoding="utf-8")
    assert '"hold":' in text
    twice = text.replace('"hold":', '"bank the pot" as hold:', 1)
    folder = tmp_path / "pig"
    folder.mkdir()
    (folder / "game.yaml").write_text(twice + _SECOND_HOLD, encoding="utf-8")
    game = load_game(folder)
    assert narrate(game, {"type": "chose", "turn": 1, "player": "P1", "option": "hold", "decision": "branch"}) \
        == "  P1 chooses hold"
    assert narrate(game, {"type": "chose", "turn": 1, "player": "P1", "option": "roll-again",
                          "decision": "branch"}) == "  P1 chooses roll again"


_SECOND_HOLD = """
procedures:
  pause:
    effect: |
      me chooses one:
          "wait and see" as hold:
              me.pot = 0
          "roll again":
              me takes another turn
"""


# --- whose die ----------------------------------------------------------------------------------------------

def test_a_changed_roll_names_the_player_whose_die_it_is() -> None:
    game = shipped("examples/hooks")
    rolled = {"type": "rolled", "turn": 3, "die": "d6", "faces": [1], "player": "P2"}
    changed = {"type": "roll_changed", "turn": 3, "die": "d6", "how": "changed", "faces": [6]}
    rerolled = {"type": "roll_changed", "turn": 3, "die": "d6", "how": "rerolled", "faces": [4], "rolled": 1}
    assert told(game, rolled, changed, rerolled) == [
        "  P2 rolls 1 d6: 1", "  P2's roll of d6 is changed: 6", "  P2's roll of d6 is rolled again: 4"]
    for_p1 = {"type": "rolled", "turn": 4, "die": "d6", "faces": [2, 3], "player": "P2", "for": "P1"}
    added = {"type": "roll_changed", "turn": 4, "die": "d6", "how": "added", "faces": [2, 3, 5], "rolled": 1}
    assert told(game, for_p1, added)[1] == "  P1's roll of d6 gets more dice: 2 3 5"


def test_a_cancelled_roll_is_nobody_s_last_roll() -> None:
    game = shipped("examples/hooks")
    rolled = {"type": "rolled", "turn": 3, "die": "d6", "faces": [1], "player": "P2"}
    cancelled = {"type": "roll_changed", "turn": 4, "die": "d6", "how": "cancelled", "faces": []}
    assert told(game, rolled, cancelled)[1] == "  the roll of d6 is cancelled"


def test_run_tells_whose_die_was_changed(capsys) -> None:
    assert cli_main(["run", str(HOOKS), "--players", "2", "--seed", "0"]) == 0
    out = capsys.readouterr().out
    assert "  P2 rolls 1 d6: 1\n  P2's roll of d6 is changed: 6\n" in out
    assert not re.search(r"^  d6 changed", out, re.M)


# --- variables and counters ---------------------------------------------------------------------------------

def test_variables_are_told_by_label_or_name_in_words_with_their_values_named() -> None:
    goofspiel, friends = shipped("examples/goofspiel"), shipped("games/jacks_friends")
    assert narrate(goofspiel, {"type": "set", "turn": 1, "player": "P1", "var": "bid", "value": "three"}) \
        == "  P1's bid: Three"
    assert narrate(friends, {"type": "set", "turn": 1, "player": "P2", "var": "at", "value": "hen_house"}) \
        == "  P2's at: Hen House"
    assert narrate(friends, {"type": "set", "turn": 1, "player": "P2", "var": "caught", "value": True}) \
        == "  P2's caught: yes"


def test_counters_are_told_by_their_labels_and_their_holders_names() -> None:
    friends, pig = shipped("games/jacks_friends"), shipped("examples/pig")
    assert narrate(friends, {"type": "set", "turn": 0, "holder": "hen_house", "counter": "egg", "value": 4}) \
        == "  Hen House's golden egg: 4"
    assert narrate(friends, {"type": "set", "turn": 1, "holder": "game", "counter": "turns_left", "value": 9}) \
        == "  turn-counter card: 9"
    assert narrate(friends, {"type": "transferred", "turn": 1, "counter": "egg", "amount": 1, "from": "hen_house",
                             "to": "P2"}) == "  1 golden egg: Hen House -> P2"
    assert narrate(pig, {"type": "set", "turn": 1, "holder": "P1", "counter": "pot", "value": 3}) \
        == "  P1's points rolled this turn: 3"


@pytest.mark.parametrize("path, players", [(PIG, 2), (LIARS, 2), (GOOF, 2), (JF, 4), (FJ, 3)])
def test_the_play_by_play_names_no_id_and_writes_no_assignment(path: Path, players: int, capsys) -> None:
    """Every id of the game with an underscore in it (cards, zones, locations, counters, variables) stays out
    of the play-by-play, and no line reads `P1.x = 2`."""
    game = load_game(path)
    ids = {c.id for c in game.cards} | set(game.locations) | set(game.counters) | set(game.var_names)
    ids |= {z.name for z in game.zones}
    for seed in range(2):
        assert cli_main(["run", str(path), "--players", str(players), "--seed", str(seed)]) == 0
        out = capsys.readouterr().out
        assert not re.search(r"\w\.\w+ = ", out)
        assert not [i for i in ids if "_" in i and re.search(rf"\b{re.escape(i)}\b", out)]


# --- play at the terminal -----------------------------------------------------------------------------------

def test_play_shows_labels_in_the_menu_its_echo_the_news_and_the_view() -> None:
    shown = io.StringIO()
    Table(shipped("examples/pig"), ["human", "random"], 1, io.StringIO("1\n2\n" + "2\n" * 60), shown).play()
    out = shown.getvalue()
    assert "P1, choose one:\n  1. roll again\n  2. hold\n" in out
    assert "  you chose: roll again\n  P1 chooses roll again\n" in out
    assert "  you chose: hold\n  P1 chooses hold\n" in out
    assert re.search(r"^  P1's points rolled this turn: \d+$", out, re.M)
    assert re.search(r"^  P1 \(you\) player, score \d+: points banked \d+, points rolled this turn \d+$", out, re.M)
    assert "roll-again" not in out and "pot" not in out


def test_a_variable_s_label_is_declared_in_the_spec_and_may_not_be_empty(tmp_path: Path) -> None:
    from rulelang.errors import RulelangError

    base = (ROOT / "tests" / "mods_compose" / "game.yaml").read_text(encoding="utf-8")
    folder = tmp_path / "game"
    folder.mkdir()
    for declared, told_as in (("{type: player, label: lends to}", "  P4 lends to: P3"),
                              ("{type: player}", "  P4's lend to: P3")):
        (folder / "game.yaml").write_text(base.replace(
            "procedures:", f"vars:\n  lend_to: {declared}\n\nprocedures:", 1), encoding="utf-8")
        game = load_game(folder)
        assert narrate(game, {"type": "set", "turn": 1, "player": "P4", "var": "lend_to", "value": "P3"}) == told_as
    (folder / "game.yaml").write_text(base.replace(
        "procedures:", 'vars:\n  lend_to: {type: player, label: ""}\n\nprocedures:', 1), encoding="utf-8")
    with pytest.raises(RulelangError) as raised:
        load_game(folder)
    assert "'label' must not be empty" in raised.value.format()


def test_seats_are_told_by_their_roles_labels_in_the_play_by_play_and_the_view() -> None:
    from rulelang.cli.play import render_view

    friends = shipped("games/jacks_friends")             # giant: {label: the Giant}, townsfolk: {label: a townsfolk}
    started = {"type": "started", "turn": 0, "game": "Jack's Friends", "players": 2, "seed": 1,
               "roles": ["giant", "townsfolk"], "first": "P1"}
    assert narrate(friends, started) == "Jack's Friends: 2 players, seed 1 (P1 the Giant, P2 a townsfolk); P1 starts"
    view = render_view(friends, friends.new_state(2, 1).view(1))
    assert "\n  P1 the Giant" in view and "\n  P2 (you) a townsfolk" in view and " giant" not in view


def test_play_asks_a_number_by_its_variable_in_words(tmp_path: Path) -> None:
    from helpers.tiny_games import make

    game = make(tmp_path, "", steps="me chooses how_far from 1 to 2\nme.coin = how_far")
    shown = io.StringIO()
    with pytest.raises(Quit):           # the input ends after one answer: play stops there
        Table(game, ["human", "random"], 0, io.StringIO("2\n"), shown).play()
    out = shown.getvalue()
    assert "P1, choose how far:\n  1. 1\n  2. 2\n" in out and "how_far" not in out
    assert "  P1's coin: 2" in out
