"""The mods toggles in the header: turning a mod on changes the game every tab uses (here, a seventh seat)."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow

SEVEN = Path(__file__).resolve().parents[2] / "examples" / "mods" / "seven_at_the_table"


def test_turning_a_mod_on_lets_seven_play(game_folder, start_server, open_page) -> None:
    shutil.copytree(SEVEN, game_folder / "mods" / "seven_at_the_table")
    browsing = open_page(start_server(game_folder))
    toggle = browsing.by_id("mod-toggle")
    assert toggle.count() == 1 and not toggle.is_checked()
    assert "Seven at the Table" in browsing.by_id("mods").inner_text()
    browsing.tab("play")
    assert browsing.by_id("play-players").get_attribute("max") == "6"

    toggle.check()
    browsing.page.wait_for_function("() => document.querySelector(\"[data-testid='play-players']\").max === '7'")
    browsing.shoot("mod-on")
    browsing.start_game(["random"] * 7, seed=2)                 # bots only: the page follows them to the end
    browsing.by_id("play-result").wait_for()
    assert "Seat 1 of 7" == browsing.by_id("seat-heading").text_content()
    assert "P7" in browsing.by_id("play-log").inner_text()
    browsing.shoot("seven-played")

    toggle.uncheck()
    browsing.page.wait_for_function("() => document.querySelector(\"[data-testid='play-players']\").max === '6'")
    assert browsing.by_id("play-players").input_value() == "6"   # kept inside the game's bounds again
    assert browsing.errors == [] and browsing.dialogs == []
