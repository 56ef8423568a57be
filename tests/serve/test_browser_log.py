"""The Log tab in a real browser: the game just played opens verified, and back, forward and the slider
step through it, showing each event, the narration up to it and the state after it."""
from __future__ import annotations

import random

import pytest

pytestmark = pytest.mark.slow


def position(browsing) -> int:
    return int(browsing.by_id("log-position").get_attribute("data-n"))


def wait_position(browsing, n: int) -> None:
    browsing.page.wait_for_function(
        "(n) => document.querySelector(\"[data-testid='log-position']\").dataset.n === String(n)", arg=n)


def open_played_log(browsing, seed: int) -> None:
    """A game of two random seats played to its end with this seed, then opened in the Log tab."""
    browsing.start_game(["random", "random"], seed=seed)
    browsing.by_id("play-result").wait_for()
    browsing.tab("log")
    browsing.by_id("log-open-played").click()
    browsing.by_id("log-viewer").wait_for()


def test_the_game_just_played_steps_back_and_forth(game_folder, start_server, open_page) -> None:
    browsing = open_page(start_server(game_folder))
    browsing.start_game(["random", "human"], seed=5)
    browsing.play_to_the_end(random.Random(5), shots=0)
    browsing.tab("log")
    browsing.by_id("log-open-played").click()
    browsing.by_id("log-viewer").wait_for()
    assert browsing.by_id("log-verified").get_attribute("data-verified") == "1"
    total = int(browsing.by_id("log-slider").get_attribute("max"))
    assert total > 10
    wait_position(browsing, total)
    last_event = browsing.by_id("log-event").text_content()
    last_narration = browsing.by_id("log-narration").locator("li").count()
    browsing.shoot("last-event")

    for step in range(1, 4):                                     # back three events, one at a time
        browsing.by_id("log-back").click()
        wait_position(browsing, total - step)
    assert browsing.by_id("log-event").text_content() != last_event
    assert browsing.by_id("log-narration").locator("li").count() <= last_narration
    assert browsing.by_id("log-state").locator("section").count() > 0
    browsing.shoot("three-back")

    browsing.by_id("log-forward").click()
    wait_position(browsing, total - 2)
    browsing.by_id("log-slider").fill("1")                       # the slider jumps
    wait_position(browsing, 1)
    early_narration = browsing.by_id("log-narration").locator("li").count()
    assert early_narration < last_narration
    assert browsing.by_id("log-back").is_enabled()
    browsing.shoot("event-1")
    browsing.by_id("log-forward").click()
    wait_position(browsing, 2)
    assert browsing.errors == [] and browsing.dialogs == []



def test_a_pasted_log_that_does_not_match_the_game_is_not_verified(game_folder, start_server, open_page) -> None:
    browsing = open_page(start_server(game_folder))
    open_played_log(browsing, 4)
    assert browsing.by_id("log-verified").get_attribute("data-verified") == "1"
    text = browsing.by_id("log-paste").input_value()
    lines = text.splitlines()
    browsing.by_id("log-paste").fill("\n".join(lines[:-3] + lines[-2:]))      # one event near the end dropped
    browsing.by_id("log-open-pasted").click()
    browsing.page.wait_for_selector("[data-testid='log-verified'][data-verified='0']")
    assert browsing.by_id("log-verified").text_content() == "not verified"
    assert "differs from the replayed game" in browsing.by_id("log-error").text_content()
    browsing.shoot("not-verified")
    assert browsing.errors == [] and browsing.dialogs == []


def test_a_log_file_in_the_folder_opens_by_its_path(game_folder, start_server, open_page) -> None:
    browsing = open_page(start_server(game_folder))
    open_played_log(browsing, 8)
    events = int(browsing.by_id("log-slider").get_attribute("max"))
    (game_folder / "logs").mkdir()
    (game_folder / "logs" / "seed8.jsonl").write_text(browsing.by_id("log-paste").input_value())
    browsing.page.reload()
    browsing.page.wait_for_selector("body[data-ready='1']")
    browsing.tab("log")
    browsing.by_id("log-path").fill("logs/seed8.jsonl")
    browsing.by_id("log-open-path").click()
    browsing.by_id("log-viewer").wait_for()
    wait_position(browsing, events)
    assert browsing.by_id("log-verified").get_attribute("data-verified") == "1"
    browsing.by_id("log-path").fill("../outside.jsonl")                 # refused, with the server's reason
    browsing.by_id("log-open-path").click()
    browsing.by_id("error").wait_for()
    assert browsing.by_id("error-message").text_content() != ""
    browsing.shoot("by-path")
