"""Names from a spec are text on the page, never markup: a game whose title and location labels are
`<img src=x onerror=...>` and `<script>...</script>` shows them as written, creates no element from them
and fires no dialog, on every tab that shows them (header, editor, play, log, rulebook)."""
from __future__ import annotations

import random

import pytest

pytestmark = pytest.mark.slow

IMG = "<img src=x onerror=alert(1)>"
SCRIPT = "<script>alert(2)</script>"
TITLE = "<img src=x onerror=alert(3)> Friends"


@pytest.fixture
def hostile_folder(game_folder):
    game = game_folder / "game.yaml"
    text = game.read_text()
    for old, new in (("hen_house: {label: Hen House,", f'hen_house: {{label: "{IMG}",'),
                     ("kitchen: {label: Kitchen,", f'kitchen: {{label: "{SCRIPT}",'),
                     ("game: Jack's Friends", f'game: "{TITLE}"')):
        assert old in text
        text = text.replace(old, new)
    game.write_text(text)
    return game_folder


def injected(browsing) -> dict:
    """What markup from the spec would have made, on the page and in the rulebook's frame: any <img>,
    any <script> but the page's own (which all have a src)."""
    return browsing.page.evaluate("""() => {
        const documents = [document, ...[...document.querySelectorAll('iframe')].map((f) => f.contentDocument)];
        return {
            images: documents.reduce((n, d) => n + d.querySelectorAll('img').length, 0),
            scripts: documents.reduce((n, d) => n + [...d.querySelectorAll('script')].filter((s) => !s.src).length, 0),
        };
    }""")


NOTHING = {"images": 0, "scripts": 0}


def test_hostile_names_render_as_text_everywhere(hostile_folder, start_server, open_page) -> None:
    browsing = open_page(start_server(hostile_folder))
    assert browsing.by_id("game-title").text_content() == TITLE
    line = next(n for n, text in enumerate((hostile_folder / "game.yaml").read_text().splitlines()) if IMG in text)
    browsing.page.evaluate("(line) => document.querySelector('.CodeMirror').CodeMirror.scrollIntoView({line, ch: 0}, 100)", line)
    browsing.page.wait_for_timeout(200)
    assert IMG in browsing.page.locator(".CodeMirror-code").inner_text()  # the editor shows the source as written
    browsing.shoot("edit")

    browsing.start_game(["human", "random"])
    labels = browsing.by_id("option").all_text_contents()
    assert IMG in labels and SCRIPT in labels
    browsing.shoot("play")
    browsing.play_to_the_end(random.Random(2))                         # the names reach the play-by-play
    browsing.page.wait_for_timeout(300)
    assert injected(browsing) == NOTHING

    browsing.tab("log")
    browsing.by_id("log-open-played").click()
    browsing.by_id("log-viewer").wait_for()
    browsing.by_id("log-slider").fill("1")
    browsing.page.wait_for_timeout(300)
    browsing.shoot("log")

    browsing.tab("rules")
    browsing.page.wait_for_selector("[data-testid='rulebook'][data-loaded='1']")
    rulebook = browsing.page.frame_locator("[data-testid='rulebook-frame']").locator("body").inner_text()
    assert IMG in rulebook or TITLE in rulebook
    browsing.shoot("rules")

    browsing.page.wait_for_timeout(500)                                 # give an onerror time to fire
    assert injected(browsing) == NOTHING
    assert browsing.dialogs == []
    assert browsing.errors == []
