"""A Flapjacks card that changes the chopping roll through a hook, with no edit to the game's own rules.

The card and its trigger live in a file of their own, included by a copy of the game in a temporary folder
(the mods helper defines mod files; this proves the hook is enough). The whetstones wait in a zone of
their own, so the base game's deck, deals and scenarios are untouched. The chopping procedure is unchanged:
the trigger on the `chop` die changes the roll it makes, and the card ends after that roll as its
Plus/Minus neighbours do. Scenarios script the dice.
"""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

import rulelang
from rulelang.testing.scenario import load_scenarios, run_scenario

ROOT = Path(__file__).resolve().parents[2]

WHETSTONE = """\
zones:
  whetstones: {owner: table, visibility: hidden}
cards:
  - id: whetstone
    name: Whetstone
    text: Your next chopping roll turns its first break into a chop.
    count: 2
    zone: whetstones
    token: true
    play: {to: me.play, effect: pass}
    discard_after: {roll: chop}
triggers:
  - name: a whetstone turns a break into a chop
    on: after roll chop
    if: me.play has whetstone and 1 in rolled
    effect: change 1 to 4 in rolled
"""

SCENARIOS = """\
scenarios:
  - scenario: A Whetstone turns a rolled 1 into a chop, and is used up by the roll
    players: 2
    setup:
      step: chopping roll
      turn: 5
      active: P1
      zones:
        hand:P1: []
        hand:P2: []
        play:P1: [chopping_axe, whetstone]
        tree:P1: [red_oak]
        tree:P2: []
      dice: [1, 2, 5]
    stop_before: {step: check for a winner}
    expect:
      zones: {play:P1: [chopping_axe]}
      counters: {"tree:P1": {chops: 2}}
      events:
        - {type: rolled, player: P1, die: chop, faces: [1, 2, 5]}
        - {type: roll_changed, die: chop, how: changed, faces: [4, 2, 5]}
        - {type: moved, card: whetstone, how: expired}
  - scenario: Without a break the Whetstone changes nothing but still ends with the roll
    players: 2
    setup:
      step: chopping roll
      turn: 5
      active: P1
      zones:
        hand:P1: []
        hand:P2: []
        play:P1: [chopping_axe, whetstone]
        tree:P1: [red_oak]
        tree:P2: []
      dice: [3, 2, 5]
    stop_before: {step: check for a winner}
    expect:
      counters: {"tree:P1": {chops: 1}}
      absent:
        - {type: roll_changed}
      events:
        - {type: moved, card: whetstone, how: expired}
  - scenario: The Apprentice's own die is another die, so the Whetstone leaves it alone
    players: 2
    setup:
      step: chopping roll
      turn: 5
      active: P1
      zones:
        hand:P1: []
        hand:P2: []
        play:P1: [apprentice, whetstone]
        tree:P1: [red_oak]
        tree:P2: []
      dice: [1]
    stop_before: {step: check for a winner}
    expect:
      zones: {play:P1: [apprentice, whetstone]}
      absent:
        - {type: roll_changed}
"""


@pytest.fixture(scope="module")
def modded(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("flapjacks") / "flapjacks"
    shutil.copytree(ROOT / "games" / "flapjacks", folder, ignore=shutil.ignore_patterns("scenarios"))
    (folder / "whetstone.yaml").write_text(WHETSTONE, encoding="utf-8")
    game_yaml = folder / "game.yaml"
    text = game_yaml.read_text(encoding="utf-8")
    assert "include: [trees.yaml, jacks.yaml]" in text
    game_yaml.write_text(text.replace("include: [trees.yaml, jacks.yaml]",
                                      "include: [trees.yaml, jacks.yaml, whetstone.yaml]"), encoding="utf-8")
    scenarios = folder / "scenarios"
    scenarios.mkdir()
    (scenarios / "whetstone.yaml").write_text(SCENARIOS, encoding="utf-8")
    return folder


def test_the_whetstone_scenarios_pass(modded):
    game = rulelang.load_game(modded)
    scenarios = load_scenarios(modded / "scenarios" / "whetstone.yaml")
    assert len(scenarios) == 3
    for scenario in scenarios:
        result = run_scenario(scenario, game)
        assert result.passed, (scenario.data["scenario"], result.failures if hasattr(result, "failures") else result)


def test_the_base_games_scenarios_still_pass_with_the_card_added(modded):
    game = rulelang.load_game(modded)
    failed = []
    for file in sorted((ROOT / "games" / "flapjacks" / "scenarios").glob("*.yaml")):
        for scenario in load_scenarios(file):
            result = run_scenario(scenario, game)
            if not result.passed:
                failed.append(scenario.data.get("scenario"))
    assert failed == []
