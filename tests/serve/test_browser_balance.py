"""The Balance tab in a real browser: a simulation of 2,000 games with its progress, whose win-rate chart
holds exactly the API's figures; a sweep whose chart draws the target band; Cancel stops a job."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import httpx
import pytest

pytestmark = pytest.mark.slow

JOB_WAIT_MS = 240_000
GAMES = Path(__file__).resolve().parents[2] / "games"


def balance_settings(browsing, games: int, players: int | None = None, seed: int | None = None) -> None:
    """The Balance tab open, with its player count (told to the page, which then offers that count's
    settings), games and seed filled in."""
    browsing.tab("balance")
    if players is not None:
        browsing.by_id("sim-players").fill(str(players))
        browsing.by_id("sim-players").dispatch_event("change")
    browsing.by_id("sim-games").fill(str(games))
    if seed is not None:
        browsing.by_id("sim-seed").fill(str(seed))


def chart_data(browsing, testid: str):
    return json.loads(browsing.by_id(testid).get_attribute("data-chart"))


def test_a_simulation_of_2000_games_charts_the_apis_win_rates(game_folder, start_server, open_page) -> None:
    handle = start_server(game_folder)
    browsing = open_page(handle)
    balance_settings(browsing, 2000, players=3, seed=11)
    browsing.by_id("sim-run").click()
    browsing.by_id("job").wait_for()
    assert browsing.by_id("job-cancel").is_enabled()
    browsing.shoot("running")
    browsing.by_id("chart-win-rates").wait_for(timeout=JOB_WAIT_MS)
    browsing.shoot("charts")

    job = browsing.by_id("job").get_attribute("data-job")
    status = httpx.get(f"{handle.url}api/jobs/{job}").json()
    assert status["state"] == "done" and status["done"] == status["total"] == 2000
    result = status["result"]
    assert result["games"] == 2000 and result["players"] == 3 and result["seed"] == 11
    plotted = {item["label"]: item for item in chart_data(browsing, "chart-win-rates")}
    assert set(plotted) == set(result["win_rate"])
    for label, rate in result["win_rate"].items():
        assert (plotted[label]["value"], plotted[label]["low"], plotted[label]["high"]) == \
            (rate["rate"], rate["low"], rate["high"])
        assert (plotted[label]["wins"], plotted[label]["of"]) == (rate["wins"], rate["of"])
    townsfolk = plotted["townsfolk"]["value"]
    assert 0 < townsfolk < 1 and plotted["giant"]["value"] == pytest.approx(1 - townsfolk)

    lengths = chart_data(browsing, "chart-lengths")
    assert lengths == result["turns"]["histogram"] and sum(count for _, count in lengths) == 2000
    ends = {item["label"]: item["games"] for item in chart_data(browsing, "chart-end-conditions")}
    assert ends == result["end_conditions"]
    assert chart_data(browsing, "chart-cards") == []                  # Jack's Friends has no cards
    assert browsing.by_id("chart-win-rates").locator("g.interval").count() == len(result["win_rate"])
    assert browsing.errors == [] and browsing.dialogs == []


def test_a_sweep_draws_its_target_band(game_folder, start_server, open_page) -> None:
    browsing = open_page(start_server(game_folder))
    balance_settings(browsing, 100, players=3)
    browsing.by_id("sweep-vary").fill("tables.setup.3.houses=4,6,8")
    browsing.by_id("sweep-target").fill("win_rate.townsfolk in [0.45,0.55]")
    browsing.by_id("sweep-run").click()
    browsing.by_id("chart-sweep").wait_for(timeout=JOB_WAIT_MS)
    data = chart_data(browsing, "chart-sweep")
    assert data["band"] == {"low": 0.45, "high": 0.55}
    assert [point["values"] for point in data["points"]] == [{"tables.setup.3.houses": v} for v in (4, 6, 8)]
    assert browsing.by_id("sweep-band").count() == 1
    assert browsing.by_id("chart-sweep").locator("g.point").count() == 3
    # more houses to build makes the townsfolk's win rate fall
    values = [point["value"] for point in data["points"]]
    assert values[0] > values[-1]
    browsing.shoot("sweep")


def test_cancel_stops_a_running_simulation(game_folder, start_server, open_page) -> None:
    browsing = open_page(start_server(game_folder))
    balance_settings(browsing, 20000)
    browsing.by_id("sim-run").click()
    browsing.by_id("job").wait_for()
    browsing.page.wait_for_function(
        "() => document.querySelector(\"[data-testid='job-status']\").dataset.state === 'running'")
    browsing.by_id("job-cancel").click()
    browsing.page.wait_for_function(
        "() => document.querySelector(\"[data-testid='job-status']\").dataset.state === 'cancelled'")
    assert browsing.by_id("chart-win-rates").count() == 0
    assert browsing.by_id("sim-run").is_enabled()
    browsing.shoot("cancelled")


def test_card_statistics_are_charted_for_a_game_with_cards(tmp_path, start_server, open_page) -> None:
    folder = tmp_path / "flapjacks"
    shutil.copytree(GAMES / "flapjacks", folder)
    handle = start_server(folder)
    browsing = open_page(handle)
    balance_settings(browsing, 100, players=3)
    browsing.by_id("sim-run").click()
    browsing.by_id("chart-cards").wait_for(timeout=JOB_WAIT_MS)
    job = browsing.by_id("job").get_attribute("data-job")
    cards = httpx.get(f"{handle.url}api/jobs/{job}").json()["result"]["cards"]
    plotted = {item["id"]: item for item in chart_data(browsing, "chart-cards")}
    assert cards and set(plotted) == set(cards)
    for card_id, card in cards.items():
        item = plotted[card_id]
        assert item["label"] == card["name"] and item["played"] == card["played"]
        assert (item["value"], item["low"], item["high"]) == \
            (card["win_rate"]["rate"], card["win_rate"]["low"], card["win_rate"]["high"])
    assert browsing.by_id("chart-cards").locator("g.row").count() == len(cards)
    browsing.shoot("cards")
