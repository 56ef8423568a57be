"""Compact event records: the log reads the same however often, whenever and through whichever copy it is read.

The byte-for-byte equality of the expanded log with the log as it was before records is
tests/equivalence/test_golden_logs.py's job; these tests pin what the lazy expansion itself must keep.
"""
from __future__ import annotations

from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

import rulelang
from rulelang.agents import RandomAgent, play_out
from rulelang.engine.records import cards_played, first_seat

from helpers.examples import examples
from helpers.games import shipped

ROOT = Path(__file__).resolve().parents[2]
FLAPJACKS = shipped("games/flapjacks")
JACKS = shipped("games/jacks_friends")


def played_in(events: list[dict]) -> list[tuple[int, str]]:
    return [(int(e["player"][1:]) - 1, e["card"]) for e in events if e["type"] in ("played", "answered")]


@examples(20)
@given(seed=st.integers(0, 2**32), players=st.integers(2, 5), reads=st.lists(st.integers(0, 400), max_size=5))
def test_reading_the_log_along_the_way_changes_nothing(seed: int, players: int, reads: list[int]) -> None:
    """A log read after some decisions (expanded up to there), then played on, equals one read only at the end."""
    quiet = play_out(FLAPJACKS.new_state(players, seed), RandomAgent(seed)).events
    state = FLAPJACKS.new_state(players, seed)
    picks = RandomAgent(seed)
    decisions = 0
    while (waiting := state.waiting()) is not None:
        if decisions in reads:
            assert state.events == quiet[:len(state.events)]
        state.apply_index(picks.pick_index(None, waiting[1]))     # the picks RandomAgent(seed) makes, in order
        decisions += 1
    assert state.events == quiet


def test_a_copy_taken_before_the_log_is_read_tells_the_same_log() -> None:
    state = JACKS.new_state(4, 7)
    for _ in range(9):
        state.apply_index(0)
    copy = state.copy()                     # holds records nobody has expanded yet
    assert copy.events == state.events
    assert copy.events is not state.events
    copy.apply_index(0)                     # the copy goes on alone
    assert len(copy.events) > len(state.events)
    assert copy.events[:len(state.events)] == state.events


def test_a_log_replaced_or_shortened_is_read_from_its_start() -> None:
    """Records put back after a cut, below what was already read, are still expanded."""
    state = play_out(JACKS.new_state(3, 2), RandomAgent(2))
    raw = list(state.log)                                  # compact records: nobody has read the log yet
    whole = state.copy().events                            # the same log expanded, in a copy
    assert sum(entry.__class__ is tuple for entry in raw[2:12]) >= 5
    state.events = raw[:10]
    assert state.events == whole[:10]                      # read: every entry of it expanded
    del state.events[2:]                                   # cut below what was read...
    state.log.extend(raw[2:12])                            # ...then records appended past it, unread
    assert state.events == whole[:12]
    state.log.insert(1, raw[12])                           # a record slipped in among expanded entries
    assert state.events == whole[:1] + [whole[12]] + whole[1:12]


def test_cards_played_reads_the_records_as_the_expanded_log_tells_them() -> None:
    for seed in range(8):
        state = play_out(FLAPJACKS.new_state(4, seed), RandomAgent(seed))
        raw = list(cards_played(state))        # before anything expanded the log
        assert raw == played_in(state.events)
        assert raw and list(cards_played(state)) == raw      # and after, from the dicts
        assert first_seat(state) == int(state.events[0]["first"][1:]) - 1


def test_a_saved_game_holds_the_expanded_log() -> None:
    state = JACKS.new_state(5, 3)
    for _ in range(12):
        state.apply_index(0)
    restored = rulelang.State.from_json(JACKS, state.to_json())
    assert restored.events == state.events
    assert all(isinstance(event, dict) for event in state.to_json()["events"])
