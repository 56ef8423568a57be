"""The Edit tab in a real browser: a mistake typed into a rule shows under its line, and goes when fixed;
also the two figures of issue 34 (first paint, and a re-check after an edit)."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow

GAMES = Path(__file__).resolve().parents[2] / "games"

RULE_LINE = "          t.caught = true"       # turn.yaml, step 1 (Catch): a line inside a rule's effect text


def line_number(path: Path, text: str) -> int:
    """The 1-based number of the one line of a file that reads exactly text."""
    numbers = [n for n, line in enumerate(path.read_text().splitlines(), 1) if line == text]
    assert len(numbers) == 1, numbers
    return numbers[0]


def put_cursor_at_end(browsing, line: int) -> None:
    """Click into the editor and move the cursor to the end of a 1-based line, as arrow keys would."""
    browsing.page.locator(".CodeMirror-code").click()
    browsing.page.evaluate("(line) => { const cm = document.querySelector('.CodeMirror').CodeMirror;"
                           " cm.focus(); cm.setCursor({line: line - 1, ch: cm.getLine(line - 1).length}); }", line)


def type_after_the_rule_line(browsing, folder: Path, text: str) -> int:
    """turn.yaml opened in the editor, and ``text`` typed at the end of its rule line (``RULE_LINE``),
    whose 1-based number it returns."""
    open_file(browsing, "turn.yaml")
    line = line_number(folder / "turn.yaml", RULE_LINE)
    put_cursor_at_end(browsing, line)
    browsing.page.keyboard.type(text)
    return line


def open_file(browsing, path: str) -> None:
    browsing.page.locator(f"[data-testid='file-item'][data-path='{path}']").click()
    browsing.page.wait_for_function("(p) => document.querySelector(\"[data-testid='editor-path']\").textContent === p", arg=path)
    wait_checked(browsing)


def wait_checked(browsing) -> None:
    browsing.page.wait_for_selector("[data-testid='check-status'][data-state='done']")


def test_an_error_typed_in_a_rule_is_shown_under_its_line_and_clears_when_fixed(
        game_folder, start_server, open_page) -> None:
    browsing = open_page(start_server(game_folder))
    assert browsing.by_id("game-title").text_content() == "Jack's Friends"
    open_file(browsing, "turn.yaml")
    assert browsing.by_id("diagnostic").count() == 0
    browsing.shoot("clean")
    line = line_number(game_folder / "turn.yaml", RULE_LINE)

    put_cursor_at_end(browsing, line)
    browsing.page.keyboard.type("_or_not")                       # t.caught = true_or_not: no such name
    diagnostic = browsing.page.locator(f"[data-testid='diagnostic'][data-line='{line}']")
    diagnostic.wait_for()
    assert "true_or_not" in diagnostic.text_content()
    assert browsing.page.locator(".diag-range.diag-error").count() >= 1
    assert browsing.by_id("save").is_enabled()
    browsing.shoot("error-under-line")

    for _ in "_or_not":
        browsing.page.keyboard.press("Backspace")
    browsing.page.wait_for_selector("[data-testid='diagnostic']", state="detached")
    assert browsing.page.locator(".diag-range").count() == 0
    assert browsing.by_id("problems").locator("li").count() == 0
    assert not browsing.by_id("save").is_enabled()               # back to the saved text
    browsing.shoot("fixed")
    assert browsing.errors == [] and browsing.dialogs == []


def test_save_writes_the_buffer_to_the_file(game_folder, start_server, open_page) -> None:
    browsing = open_page(start_server(game_folder))
    line = type_after_the_rule_line(browsing, game_folder, "  # saved from the page")
    browsing.by_id("save").click()
    browsing.page.wait_for_function("() => document.querySelector(\"[data-testid='save-status']\").textContent === 'saved'")
    assert (game_folder / "turn.yaml").read_text().splitlines()[line - 1] == RULE_LINE + "  # saved from the page"
    browsing.shoot("saved")


def test_first_paint_and_recheck_times_on_flapjacks(tmp_path, start_server, open_page, record_property) -> None:
    """Issue 34's figures on the largest game. First paint: navigation start to the ready marker, the page
    painted with its first file in the editor (goal < 1 s; that file's diagnostics follow, body[data-checked-ms]).
    Re-check: an edit's check from its request to the diagnostics on screen (goal < 300 ms, not counting the
    300 ms typing pause before it). Run with -s to see them."""
    folder = tmp_path / "flapjacks"
    shutil.copytree(GAMES / "flapjacks", folder)
    handle = start_server(folder)
    first_paints, first_checks = [], []
    for _ in range(3):
        browsing = open_page(handle)
        wait_checked(browsing)
        first_paints.append(float(browsing.page.get_attribute("body", "data-ready-ms")))
        first_checks.append(float(browsing.page.get_attribute("body", "data-checked-ms")))
    rechecks, server_checks = [], []
    for _ in range(5):
        before = browsing.by_id("check-status").get_attribute("data-sequence")
        put_cursor_at_end(browsing, 1)                           # line 1 is a comment: the text stays valid
        browsing.page.keyboard.type("#")
        browsing.page.wait_for_function(
            "(before) => { const s = document.querySelector(\"[data-testid='check-status']\");"
            " return s.dataset.state === 'done' && s.dataset.sequence !== before; }", arg=before)
        rechecks.append(float(browsing.by_id("check-status").get_attribute("data-ms")))
        server_checks.append(float(browsing.by_id("check-status").get_attribute("data-server-ms")))
    browsing.shoot("flapjacks")
    record_property("first_paint_ms", first_paints)
    record_property("first_check_ms", first_checks)
    record_property("recheck_ms", rechecks)
    print(f"first paint ms: {first_paints}; first check done ms: {first_checks}; re-check ms: {rechecks}"
          f" (of which the server's check: {server_checks})")
    # the goals are 1 s and 300 ms; the bounds leave room for a loaded test machine (the figures are reported)
    assert min(first_paints) < 3 * 1000
    assert sorted(rechecks)[len(rechecks) // 2] < 3 * 300


def test_a_game_that_does_not_load_still_opens_for_editing(game_folder, start_server, open_page) -> None:
    game = game_folder / "game.yaml"
    game.write_text(game.read_text().replace("players: {min: 2, max: 6}", "players: {min: 2, max: six}"))
    browsing = open_page(start_server(game_folder))
    assert browsing.by_id("error").is_visible()                  # why it does not load, located
    assert "game.yaml" in browsing.by_id("error-message").text_content()
    wait_checked(browsing)
    assert browsing.by_id("editor-path").text_content() == "game.yaml"
    line = line_number(game, "players: {min: 2, max: six}          # JF-1: counting the giant")
    diagnostic = browsing.page.locator(f"[data-testid='diagnostic'][data-line='{line}']")
    diagnostic.wait_for()
    assert "expected a number" in diagnostic.locator(".diag-message").text_content()
    assert diagnostic.locator(".diag-hint").text_content() != ""      # the hint shows under the line too
    browsing.shoot("broken-game")

    column = (game.read_text().splitlines()[line - 1]).index("six")    # select "six", type 6, save
    browsing.page.locator(".CodeMirror-code").click()
    browsing.page.evaluate("([line, ch]) => { const cm = document.querySelector('.CodeMirror').CodeMirror;"
                           " cm.focus(); cm.setSelection({line, ch}, {line, ch: ch + 3}); }", [line - 1, column])
    browsing.page.keyboard.type("6")
    browsing.page.wait_for_selector("[data-testid='diagnostic']", state="detached")
    browsing.by_id("save").click()
    browsing.by_id("error").wait_for(state="hidden")                # the game loads again
    browsing.tab("play")
    assert browsing.by_id("play-players").get_attribute("max") == "6"
    assert browsing.errors == []


def test_switching_files_keeps_unsaved_text(game_folder, start_server, open_page) -> None:
    browsing = open_page(start_server(game_folder))
    line = type_after_the_rule_line(browsing, game_folder, "  # not saved yet")
    open_file(browsing, "game.yaml")
    assert "unsaved" in browsing.page.locator("[data-testid='file-item'][data-path='turn.yaml']").get_attribute("class")
    browsing.shoot("away-from-unsaved")
    open_file(browsing, "turn.yaml")
    text = browsing.page.evaluate("() => document.querySelector('.CodeMirror').CodeMirror.getValue()")
    assert text.splitlines()[line - 1] == RULE_LINE + "  # not saved yet"
    assert browsing.by_id("save").is_enabled()
    assert (game_folder / "turn.yaml").read_text().splitlines()[line - 1] == RULE_LINE   # nothing written
