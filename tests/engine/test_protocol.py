"""The decision protocol's bookkeeping: a shared decision's options are built once, and stay right."""
from __future__ import annotations

from pathlib import Path

import rulelang
from rulelang.engine.protocol import Option

ROOT = Path(__file__).resolve().parents[2]


def test_after_one_player_chooses_secretly_the_others_see_the_same_decision_as_if_built_afresh() -> None:
    game = rulelang.load_game(ROOT / "games" / "jacks_friends")
    state = game.new_state(5, seed=4)
    first = state.decision()
    assert first.simultaneous and len(first.players) == 5
    for player in first.players[:-1]:
        state.apply_index(0, player)
        kept = state.decision()
        afresh = state.copy().decision()          # a copy keeps no cached decision: built from the pending data
        assert kept == afresh
        assert player not in kept.players
        assert all(kept.options[p] is first.options[p] for p in kept.players)   # not built again
    state.apply_index(0, first.players[-1])              # the last one: the rules go on to the next decision
    assert state.decision() == state.copy().decision()


def test_options_are_the_pending_ids_and_labels() -> None:
    game = rulelang.load_game(ROOT / "examples" / "pig")
    state = game.new_state(2, seed=1)
    decision = state.decision()
    pend = state.pending
    assert decision.options[decision.player] == tuple(Option(i, label) for i, label in pend["options"][0])
