"""The Play tab in a real browser: a whole hot-seat game played through the buttons, and a secret pick
of one seat that never reaches the other seat's screen before it is revealed."""
from __future__ import annotations

import random

import httpx
import pytest

pytestmark = pytest.mark.slow

def test_a_hot_seat_game_is_played_to_its_end_through_the_buttons(game_folder, start_server, open_page) -> None:
    browsing = open_page(start_server(game_folder))
    browsing.start_game(["human", "human"])
    assert browsing.by_id("seat-switch-1").is_visible() and browsing.by_id("seat-switch-2").is_visible()
    browsing.play_to_the_end(random.Random(7), shots=3)
    result = browsing.by_id("play-result").text_content()
    assert result.startswith("Game over: ") and result != "Game over: no result"
    assert browsing.by_id("play-log").locator("li").count() > 0
    assert browsing.by_id("option").count() == 0
    browsing.shoot("result")
    assert browsing.errors == [] and browsing.dialogs == []


def test_a_game_with_a_bot_seat_waits_only_for_the_human(game_folder, start_server, open_page) -> None:
    browsing = open_page(start_server(game_folder))
    browsing.start_game(["random", "human"])
    clicks = browsing.play_to_the_end(random.Random(1), shots=1)
    assert browsing.by_id("pass-screen").is_hidden()                     # one human: nobody to pass to
    assert clicks > 0
    browsing.shoot("result")


def seat_answer(handle, game: str, seat: int) -> dict:
    return httpx.get(f"{handle.url}api/play/{game}?seat={seat}").json()


def test_a_secret_pick_is_not_on_the_other_seats_page_until_revealed(game_folder, start_server, open_page) -> None:
    handle = start_server(game_folder)
    browsing = open_page(handle)
    browsing.start_game(["human", "human"])
    game = browsing.by_id("panel-play").get_attribute("data-game")
    assert browsing.by_id("table-area").get_attribute("data-seat") == "1"
    assert browsing.by_id("option").nth(1).text_content() == "Kitchen"
    browsing.shoot("seat1-picks")
    browsing.click_and_wait(browsing.by_id("option").nth(1))         # the giant (seat 1) secretly picks the Kitchen
    # what the narration says once the picks are revealed (the play-by-play names locations by their labels)
    telltales = ("P1's at: Kitchen", "P1 Kitchen")

    # seat 1 is done: the device goes to seat 2, and nothing of seat 1's screen is left on the page
    assert browsing.by_id("pass-screen").is_visible()
    assert browsing.by_id("pass-screen").get_attribute("data-seat") == "2"
    assert browsing.by_id("table-area").is_hidden()
    assert browsing.by_id("view").locator("*").count() == 0
    assert browsing.by_id("play-log").locator("li").count() == 0
    browsing.shoot("pass-to-seat2")

    # seat 2's own page: its play-by-play is what the server lets seat 2 see, with no word of the pick
    browsing.click_and_wait(browsing.by_id("pass-ready"))
    assert browsing.by_id("table-area").get_attribute("data-seat") == "2"
    seat2_log = browsing.by_id("play-log").locator("li").all_text_contents()
    assert seat2_log == seat_answer(handle, game, 2)["log"]
    page_text = browsing.page.locator("body").inner_text()
    assert not any(telltale in page_text for telltale in telltales)
    assert browsing.by_id("option").count() == 4                      # seat 2's own secret choice
    browsing.shoot("seat2-view")

    # once seat 2 has picked too, both picks are revealed and seat 2's page shows seat 1's
    browsing.click_and_wait(browsing.by_id("option").first)
    if browsing.visible("pass-screen"):
        browsing.click_and_wait(browsing.by_id("pass-ready"))
    revealed = browsing.by_id("play-log").inner_text()
    assert all(telltale in revealed for telltale in telltales)
    browsing.shoot("revealed")


def test_the_seat_switcher_goes_through_the_pass_screen(game_folder, start_server, open_page) -> None:
    browsing = open_page(start_server(game_folder))
    browsing.start_game(["human", "human"])
    assert browsing.by_id("table-area").get_attribute("data-seat") == "1"
    browsing.by_id("seat-switch-2").click()                          # both pick at once: seat 2 may look now
    browsing.by_id("pass-screen").wait_for()
    assert browsing.by_id("pass-screen").get_attribute("data-seat") == "2"
    assert browsing.by_id("table-area").is_hidden() and browsing.by_id("option").count() == 0
    browsing.shoot("switch-to-seat2")
    browsing.click_and_wait(browsing.by_id("pass-ready"))
    assert browsing.by_id("table-area").get_attribute("data-seat") == "2"
    assert browsing.by_id("seat-heading").text_content() == "Seat 2 of 2"
    assert browsing.by_id("option").count() == 4
    browsing.shoot("seat2")
