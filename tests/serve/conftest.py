"""The serve tests' shared setup: a game folder copied to a temp place, the server on it in a thread,
and (for the browser tests) Debian's Chromium driven by Playwright.

The browser tests skip, saying why, where the serve extra, playwright or /usr/bin/chromium is missing;
they never download a browser. Each screen they look at is saved under the test's tmp folder and, for
people, copied to ``$RULELANG_SHOTS_DIR`` when that is set.
"""
from __future__ import annotations

import importlib.util
import os
import random
import re
import shutil
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

GAMES = Path(__file__).resolve().parents[2] / "games"
CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]
READY = "body[data-ready='1']"
WAIT_MS = 20_000
MOST_CLICKS = 600


def browser_missing() -> str | None:
    """Why the browser tests cannot run here, or None when they can."""
    for module, extra in (("starlette", "the serve extra (pip install 'rulelang[serve]')"),
                          ("uvicorn", "the serve extra (pip install 'rulelang[serve]')"),
                          ("playwright", "playwright (pip install playwright; no `playwright install` needed)")):
        if importlib.util.find_spec(module) is None:
            return f"{extra} is not installed"
    if not CHROMIUM.exists():
        return f"no Chromium at {CHROMIUM} (apt-get install chromium)"
    return None


def shots_dir() -> Path | None:
    """Where screenshots are copied for people to look at: $RULELANG_SHOTS_DIR when set (else they stay in
    each test's own tmp folder only)."""
    chosen = os.environ.get("RULELANG_SHOTS_DIR")
    return Path(chosen) if chosen else None


@pytest.fixture
def game_folder(tmp_path: Path) -> Path:
    """A private copy of Jack's Friends: tests may edit and save it."""
    folder = tmp_path / "jacks_friends"
    shutil.copytree(GAMES / "jacks_friends", folder)
    return folder


@pytest.fixture
def start_server() -> Iterator[Callable[..., Any]]:
    """Start `rulelang serve` in a thread on a folder (any free port); every server is stopped afterwards."""
    pytest.importorskip("starlette", reason="the serve extra (pip install 'rulelang[serve]') is not installed")
    from rulelang.serve.command import start_in_thread

    handles: list[Any] = []

    def start(folder: Path, mods: list[Path] | None = None) -> Any:
        handle = start_in_thread(folder, mods or [], port=0)
        handles.append(handle)
        return handle

    yield start
    for handle in handles:
        handle.stop()


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    """One headless Chromium for the whole run (Debian's, launched by Playwright, no downloads)."""
    reason = browser_missing()
    if reason:
        pytest.skip(reason)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


@dataclass
class Browsing:
    """One page open on a served game, with what it did that it should not (dialogs, script errors)."""

    page: Any
    url: str
    shots: Path
    test: str
    dialogs: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    taken: int = 0

    def by_id(self, testid: str) -> Any:
        """The locator of the element(s) with this data-testid (the page's stable names)."""
        return self.page.locator(f"[data-testid='{testid}']")

    def tab(self, name: str) -> None:
        self.by_id(f"tab-{name}").click()
        self.by_id(f"panel-{name}").wait_for(state="visible")

    def visible(self, testid: str) -> bool:
        locator = self.by_id(testid)
        return locator.count() > 0 and locator.first.is_visible()

    def play_updates(self) -> int:
        """How many screens the Play tab has shown (body[data-play-updates])."""
        return int(self.page.get_attribute("body", "data-play-updates") or 0)

    def click_and_wait(self, locator: Any) -> None:
        """Click something on the Play tab that asks the server, then wait for the next screen."""
        before = self.play_updates()
        locator.click()
        self.page.wait_for_function("(before) => Number(document.body.dataset.playUpdates || 0) > before", arg=before)

    def start_game(self, seats: list[str], seed: int = 3) -> None:
        """On the Play tab, start a game with these seat kinds (human, random, ...)."""
        self.tab("play")
        self.by_id("play-players").fill(str(len(seats)))
        self.by_id("play-players").dispatch_event("change")
        for seat, kind in enumerate(seats, 1):
            self.by_id(f"seat-kind-{seat}").select_option(kind)
        self.by_id("play-seed").fill(str(seed))
        self.click_and_wait(self.by_id("play-start"))

    def play_to_the_end(self, rng: random.Random, shots: int = 0) -> int:
        """Take the pass screens and click options (rng picks) until the result shows; the clicks made.
        On a pass screen nothing of the previous seat may be left on the page."""
        clicks = 0
        while not self.visible("play-result"):
            assert clicks < MOST_CLICKS, "the game did not end"
            if self.visible("pass-screen"):
                seat = self.by_id("pass-screen").get_attribute("data-seat")
                assert self.by_id("view").locator("*").count() == 0
                assert self.by_id("play-log").locator("*").count() == 0
                self.click_and_wait(self.by_id("pass-ready"))
                assert self.by_id("table-area").get_attribute("data-seat") == seat
            else:
                options = self.by_id("option")
                if options.count() == 0:                      # bots moving: the page polls by itself
                    self.page.wait_for_timeout(100)
                    continue
                if clicks < shots:
                    self.shoot(f"turn-{clicks}")
                self.click_and_wait(options.nth(rng.randrange(options.count())))
            clicks += 1
        return clicks

    def shoot(self, label: str) -> Path:
        """Screenshot the page into the test's tmp folder and copy it where people look."""
        self.taken += 1
        path = self.shots / f"{self.test}-{self.taken:02d}-{label}.png"
        self.page.screenshot(path=str(path), full_page=True)
        public = shots_dir()
        if public is not None:
            public.mkdir(parents=True, exist_ok=True)
            shutil.copy2(path, public / path.name)
        return path


def assert_page_arrives_whole(url: str) -> None:
    """Fail at once, and say why, when the page comes back short over a real socket (rather than after a
    browser time-out): a server that stops sending a file midway breaks every browser test the same way."""
    import httpx

    page = httpx.get(url, timeout=WAIT_MS / 1000)
    assert page.status_code == 200, page.text
    assert 'src="static/app.js"' in page.text, f"the page came back short ({len(page.content)} bytes)"
    script = httpx.get(url + "static/app.js", timeout=WAIT_MS / 1000)
    assert script.status_code == 200 and "boot()" in script.text, f"static/app.js came back short ({len(script.content)} bytes)"


@pytest.fixture
def open_page(browser: Any, tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[Callable[[Any], Browsing]]:
    """Open the served page in a fresh browser context and wait for its ready marker."""
    contexts: list[Any] = []
    shots = tmp_path / "shots"
    shots.mkdir()
    test = re.sub(r"[^A-Za-z0-9_]+", "_", request.node.name)

    def open_(handle: Any) -> Browsing:
        assert_page_arrives_whole(handle.url)
        context = browser.new_context(viewport={"width": 1400, "height": 900})
        contexts.append(context)
        page = context.new_page()
        page.set_default_timeout(WAIT_MS)
        browsing = Browsing(page, handle.url, shots, test)
        page.on("dialog", lambda dialog: (browsing.dialogs.append(dialog.message), dialog.dismiss()))
        page.on("pageerror", lambda error: browsing.errors.append(str(error)))
        page.goto(handle.url)
        page.wait_for_selector(READY)
        return browsing

    yield open_
    for context in contexts:
        context.close()
