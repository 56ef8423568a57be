"""What a batch says about the players' choices and how the counters ended (issue 33)."""
from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

import rulelang
from rulelang.agents import make_agent, play_out
from rulelang.engine import records
from rulelang.engine.rng import batch_seed
from rulelang.lab.report import sections
from rulelang.lab.simulate import Batch, GameRecord, play_game
from rulelang.lab.stats import distribution, game_summary, summarize

from helpers.examples import examples

ROOT = Path(__file__).resolve().parents[2]
JF = str(ROOT / "games" / "jacks_friends")
FLAPJACKS = str(ROOT / "games" / "flapjacks")


def made(index: int, winners: tuple[int, ...], choices: list | None = None, counters: list | None = None,
         scores: tuple[int, ...] | None = None) -> GameRecord:
    return GameRecord(index, index, 5, winners, None, "e", 0, {}, None, choices or [], counters or [], scores)


def choice(seat: int, option: str, kind: str) -> tuple:
    """A choice as a game keeps it: (turn, seat, option, kind)."""
    return 1, seat, option, kind


def test_options_are_counted_per_decision_kind_and_role():
    records = [made(0, (0,), [choice(0, "egg", "choose"), choice(0, "egg", "choose"), choice(1, "hungry", "branch")]),
               made(1, (1,), [choice(0, "meat", "choose"), choice(2, "eat", "branch"), choice(2, "eat", "branch"),
                              choice(1, "eat", "branch")])]
    summary = summarize(Batch("x", 3, 2, 0, ("random",) * 3), records, "T", ["giant", "town", "town"], {})
    assert summary["decisions"]["giant choose"] == {
        "egg": {"times": 2, "share": pytest.approx(2 / 3), "per_game": 1.0},
        "meat": {"times": 1, "share": pytest.approx(1 / 3), "per_game": 0.5}}
    assert list(summary["decisions"]["town branch"]) == ["eat", "hungry"]        # most taken first
    assert summary["decisions"]["town branch"]["eat"]["share"] == 0.75
    one_role = summarize(Batch("x", 3, 2, 0, ("random",) * 3), records, "T", ["p"] * 3, {})
    assert set(one_role["decisions"]) == {"choose", "branch"}


def test_final_counters_and_margins_of_victory():
    # rows: game, village, then P1-P3; counters: house, gold
    # game 0: P1 won with 7 gold against 4 and 5 (margin 2); game 1: P2 and P3 won with 6, 6 against 9 (margin -3)
    records = [made(0, (0,), counters=[[0, 0], [8, 0], [0, 7], [0, 4], [0, 5]]),
               made(1, (1, 2), counters=[[0, 0], [0, 0], [0, 9], [0, 6], [0, 6]])]
    summary = summarize(Batch("x", 3, 2, 0, ("random",) * 3), records, "T", ["p"] * 3, {}, None,
                        ["game", "village"], ["house", "gold"])
    assert list(summary["final_counters"]) == ["village.house"]       # the game's counters are always 0
    house = summary["final_counters"]["village.house"]
    assert house["histogram"] == [[0, 1], [8, 1]] and house["mean"] == 4.0 and house["sd"] == pytest.approx(32 ** 0.5)
    gold = summary["player_counters"]["gold"]
    assert gold["margin"]["histogram"] == [[-3, 1], [2, 1]] and gold["margin"]["mean"] == -0.5
    assert gold["all"]["mean"] == pytest.approx(37 / 6) and (gold["all"]["min"], gold["all"]["max"]) == (4, 9)
    assert "house" not in summary["player_counters"]                # always 0 for players: left out
    titles = [part.title for part in sections(summary)]
    assert "Counters at the end" in titles and "Player counters at the end" in titles


def test_scores_have_their_margin():
    records = [made(0, (1,), scores=(10, 21)), made(1, (0,), scores=(22, 19))]
    summary = summarize(Batch("x", 2, 2, 0, ("random",) * 2), records, "T", ["p"] * 2, {})
    assert summary["player_counters"]["score"]["margin"]["histogram"] == [[3, 1], [11, 1]]


@pytest.mark.parametrize("history", [False, True])
def test_a_game_keeps_what_the_choices_and_counters_need(history):
    game = rulelang.load_game(JF)
    record = play_game(game, Batch(JF, 4, 1, 0, ("random",) * 4), 0)
    state = game.new_state(4, record.seed, before_first_turn=True, history=history)
    play_out(state, [make_agent("random", batch_seed(record.seed, s)) for s in range(4)], 100_000)
    kept = record.choices
    if history:
        _ = state.events                              # read: every record expanded to its dict
        from rulelang.lab.simulate import choices_taken
        assert choices_taken(state) == kept
        chosen = [e for e in state.events if e["type"] == "chose"]
        assert tuple((e["turn"], int(e["player"][1:]) - 1, e["option"], e["decision"]) for e in chosen) == kept
    summary = game_summary(game, Batch(JF, 4, 1, 0, ("random",) * 4), [record])
    assert summary["final_counters"]["village.house"]["max"] == state.counter("village", "house")


def test_flapjacks_scores_are_summarised():
    game = rulelang.load_game(FLAPJACKS)
    batch = Batch(FLAPJACKS, 3, 2, 0, ("random",) * 3)
    records = [play_game(game, batch, i) for i in range(2)]
    score = game_summary(game, batch, records)["player_counters"]["score"]
    assert score["all"]["max"] == max(max(r.scores) for r in records) and len(score["margin"]["histogram"]) >= 1


@pytest.mark.parametrize("path, players", [(FLAPJACKS, 3), (JF, 4)])
def test_the_one_pass_over_the_log_agrees_with_cards_played(path, players):
    from rulelang.engine.records import cards_played
    from rulelang.lab.simulate import read_log
    game = rulelang.load_game(path)
    for seed in range(3):
        state = game.new_state(players, seed, before_first_turn=True, history=seed != 0)
        play_out(state, [make_agent("random", s) for s in range(players)], 100_000)
        raw = GameRecord(0, 0)
        read_log(state, raw)
        if seed == 2:
            _ = state.events                               # expanded to dicts: the same reading
            expanded = GameRecord(0, 0)
            read_log(state, expanded)
            assert expanded.plays == raw.plays
            assert expanded.choices == raw.choices
        counted: dict = {}
        for seat, card in cards_played(state):
            counted.setdefault(card, {}).setdefault(seat, 0)
            counted[card][seat] += 1
        assert raw.plays == counted
        assert len(raw.choices) == sum(1 for e in state.log if (e[0] is records.chose
                                                                 if e.__class__ is tuple else e["type"] == "chose"))


def _margins_game_by_game(records: list[GameRecord], first: int, c: int | None) -> list[int]:
    """Counter ``c`` (None: the score) of the best winner minus the best loser, one game at a time."""
    out = []
    for r in records:
        values = list(r.scores) if c is None else [row[c] for row in r.counters[first:]]
        losers = [s for s in range(len(values)) if s not in r.winners]
        if r.winners and losers:
            out.append(max(values[s] for s in r.winners) - max(values[s] for s in losers))
    return out


_GAME = st.tuples(st.sets(st.integers(0, 3)), st.lists(st.lists(st.integers(-3, 9), min_size=2, max_size=2),
                                                         min_size=4, max_size=4), st.lists(st.integers(0, 30),
                                                                                           min_size=4, max_size=4))


@examples(60)
@given(games=st.lists(_GAME, min_size=1, max_size=40))
def test_counters_and_margins_taken_by_groups_of_winners_are_those_of_each_game(games):
    """The summary works counters out column by column over games of the same winners: the figures are those
    worked out one game at a time (any winners, none or all of the seats included)."""
    records = [made(k, tuple(sorted(w)), counters=[[0, 0], *rows], scores=tuple(scores))
               for k, (w, rows, scores) in enumerate(games)]
    summary = summarize(Batch("x", 4, len(records), 0, ("random",) * 4), records, "T", ["p"] * 4, {}, None,
                        ["game"], ["gold", "wood"])
    for c, name in ((0, "gold"), (1, "wood"), (None, "score")):
        every = [s for r in records for s in (r.scores if c is None else [row[c] for row in r.counters[1:]])]
        if not any(every) and c is not None:
            assert name not in summary["player_counters"]
            continue
        figures = summary["player_counters"][name]
        assert figures["all"] == distribution(every)
        assert figures["margin"] == distribution(_margins_game_by_game(records, 1, c))
