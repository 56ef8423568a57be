"""`rulelang rules`: the rulebook made from the checked spec.

- Every node class has words (the table is complete when the module is imported; a missing method fails).
- Every card, step and rule text of both games and of every example renders, with no placeholder left.
- A mod's rulebook lists what the mod changes and marks the items it changed.
- A handful of cards read as the published rulebooks (../shared/rulebooks/) say, pinned word for word.
- Text from a spec is escaped: html.escape in HTML, backslashes in Markdown, the printable filter on a terminal.
"""
from __future__ import annotations

import html
import re
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rulelang.cli import main
from rulelang.lang import nodes as n
from rulelang.lang.visitors import Dispatch, require
from rulelang.rulebook.book import make_book
from rulelang.rulebook.checked import load_checked
from rulelang.rulebook.modded import modded_book
from rulelang.rulebook.render import markdown, page
from rulelang.rulebook.words import _WORDS, Words

ROOT = Path(__file__).resolve().parents[2]
GAMES = sorted(str(p.parent.relative_to(ROOT)) for p in [*ROOT.glob("games/*/game.yaml"),
                                                         *ROOT.glob("examples/*/game.yaml")])
FLAPJACKS = ROOT / "games" / "flapjacks"
JACKS_FRIENDS = ROOT / "games" / "jacks_friends"


def test_every_node_class_has_words():
    assert _WORDS.missing() == []


def test_a_node_class_without_words_fails_at_import():
    class Partial(Words):
        w_Num = None                            # as if the method had never been written

    with pytest.raises(TypeError, match="Num"):
        require("partial words", Dispatch(Partial, "w_", n.Node, own="words"))


@pytest.fixture(scope="module", params=GAMES)
def game(request):
    checked = load_checked(ROOT / request.param)
    return checked, make_book(checked)


def test_every_card_and_step_renders(game):
    checked, book = game
    keys = {item.key for item in book.items()}
    for card in checked.spec.cards:
        assert ("card", card.id) in keys
    for phase in checked.spec.phases:
        for step in phase.steps:
            assert ("step", step.name) in keys
            item = next(i for i in book.items() if i.key == ("step", step.name))
            assert step.effect is None or item.parts, step.name


def test_every_rule_text_has_words_without_placeholders(game):
    checked, book = game
    words = Words(checked.spec)
    for path, tree in checked.trees.items():
        lines = [text for line in words.rule(tree) for _, text in line.flat()]
        assert lines and all(lines), path
        for text in lines:
            assert "None" not in text and "?" not in text and "<" not in text, (path, text)
    assert markdown(book).startswith("# ")
    assert "</html>" in page(book)


def test_the_rulebook_shows_each_ruling_where_it_applies():
    book = make_book(load_checked(FLAPJACKS))
    step = next(i for i in book.items() if i.key == ("step", "lose a turn"))
    assert step.rulings == ["FS-3"]
    text = markdown(book)
    assert "> Ruling [FS-3](#ruling-fs-3): Lost turns add up; a skipped turn has no draw, no play and no roll." in text
    assert '<a id="ruling-fs-3"></a>**FS-3**' in text


def _lines(book, kind: str, name: str) -> dict[str | None, list[str]]:
    item = next(i for i in book.items() if i.key == (kind, name))
    return {part.label: ["  " * depth + text for depth, text in part.lines] for part in item.parts}


# Published: "Tree Hugger: Makes whomever it is played on lose one turn."
def test_tree_hugger_reads_as_published():
    lines = _lines(make_book(load_checked(FLAPJACKS)), "card", "tree_hugger")
    assert lines["May be played on a player when"] == ["the target player is not you"]
    assert lines["When played"] == ["Add 1 to the target player's lost turns."]


# Published: "Paul Bunyan: Chops down every tree in play. Each player moves their tree into their cut pile."
def test_paul_bunyan_reads_as_published():
    lines = _lines(make_book(load_checked(FLAPJACKS)), "card", "paul_bunyan")
    assert lines["When played"] == ["For each p among the players in seat order from you:",
                                    "  Move p's standing tree to p's cut pile.",
                                    "Check whether the game ends (see the end of the game)."]


# Published: "Axe Break: Discards another player's axe. Cannot be played on a Titanium Axe."
def test_axe_break_reads_as_published():
    lines = _lines(make_book(load_checked(FLAPJACKS)), "card", "axe_break")
    assert lines["May be played on a player when"] == [
        "the target player is not you and there is some c among the target player's play area "
        "such that c is an axe and c is not a Titanium Axe"]
    assert lines["When played"] == ["Discard every c among the target player's play area such that c is an axe."]


# Published: "One or two: counts toward a break / Three: the axe misses completely / Four, five or six: ... chop"
def test_the_chop_die_reads_as_published():
    lines = _lines(make_book(load_checked(FLAPJACKS)), "die", "chop")
    assert lines[None][0] == "6 faces; 1, 2: break; 3: miss; 4, 5, 6: chop."


# Published (Jack's Friends setup table, 4 players): 7 vegetables, 4 meat, 4 eggs, 8 houses, 8 catches.
def test_setup_by_player_count_reads_as_the_setup_table():
    lines = _lines(make_book(load_checked(JACKS_FRIENDS)), "players", "4")
    assert lines[None] == ["Seats: 1 giant and 3 townsfolk.",
                           "Setup: veggies 7, meat 4, eggs 4, houses 8 and catches 8."]


def test_a_mods_rulebook_shows_what_it_changes():
    book = modded_book(FLAPJACKS, [str(ROOT / "examples" / "mods" / "sharp_blades")])
    assert book.changes == [("Sharp Blades", ["adds procedure \u201coriginal add chops\u201d",
                                              "changes procedure \u201cadd chops\u201d"])]
    item = next(i for i in book.items() if i.key == ("procedure", "add_chops"))
    assert item.marks == ["changed by mod Sharp Blades"]
    assert "## What the mods change" in markdown(book)
    assert "*(changed by mod Sharp Blades)*" in markdown(book)


def test_every_example_mod_renders():
    for mod in sorted((ROOT / "examples" / "mods").glob("*/mod.yaml")):
        game = JACKS_FRIENDS if "seven_at_the_table" in str(mod) else FLAPJACKS
        book = modded_book(game, [str(mod.parent)])
        assert book.changes and book.changes[0][1], mod


def _hostile_game(tmp_path: Path) -> Path:
    assert main(["new", "game", str(tmp_path / "g")]) == 0
    spec = tmp_path / "g" / "game.yaml"
    text = spec.read_text().replace('game: "G"', 'game: "G <script>x</script> \\e[31m"')
    spec.write_text(text.replace("{label: points}", '{label: "po<b>ints"}'))
    return tmp_path / "g"


def test_html_escapes_every_text_from_the_spec(tmp_path, capsys):
    game = _hostile_game(tmp_path)
    out = tmp_path / "book.html"
    assert main(["rules", str(game), "-o", str(out)]) == 0
    html = out.read_text()
    assert "<script>" not in html and "&lt;script&gt;" in html
    assert "po<b>ints" not in html and "po&lt;b&gt;ints" in html


def test_markdown_and_the_terminal_escape_the_spec(tmp_path, capsys):
    game = _hostile_game(tmp_path)
    assert main(["rules", str(game)]) == 0
    shown = capsys.readouterr().out
    assert "\x1b" not in shown and "G \\<script\\>x\\</script\\> \\x1b" in shown
    assert "\\<script\\>" in shown and "po\\<b\\>ints" in shown


def test_output_must_be_markdown_or_html(tmp_path, capsys):
    assert main(["rules", str(FLAPJACKS), "-o", str(tmp_path / "book.pdf")]) == 2
    assert "must end in .md or .html" in capsys.readouterr().err
    assert not (tmp_path / "book.pdf").exists()


def test_output_refuses_a_target_that_is_not_a_plain_file(tmp_path, capsys):
    (tmp_path / "book.md").mkdir()
    assert main(["rules", str(FLAPJACKS), "-o", str(tmp_path / "book.md")]) == 2
    assert "not a plain file" in capsys.readouterr().err


def test_output_is_written_whole(tmp_path, capsys):
    out = tmp_path / "book.md"
    out.write_text("old")
    assert main(["rules", str(FLAPJACKS), "-o", str(out)]) == 0
    assert out.read_text() == markdown(make_book(load_checked(FLAPJACKS)))
    assert [p.name for p in tmp_path.iterdir()] == ["book.md"]


def test_a_mod_that_changes_the_number_of_players_says_so():
    book = modded_book(JACKS_FRIENDS, [str(ROOT / "examples" / "mods" / "seven_at_the_table")])
    assert book.changes == [("Seven at the Table", ["Components: 2 to 7 players", "adds setup with 7 players"])]


def test_a_broken_spec_gets_its_located_error_and_no_rulebook(tmp_path, capsys):
    broken = ROOT / "tests" / "broken" / "dsl_double_equals"
    out = tmp_path / "book.md"
    assert main(["rules", str(broken), "-o", str(out)]) == 1
    assert (broken / "expected.txt").read_text().strip() in capsys.readouterr().err
    assert not out.exists()


@given(st.text())
def test_markdown_escaping_keeps_the_text_and_leaves_no_markup(text):
    from rulelang.rulebook.render import md

    escaped = md(text)
    assert re.sub(r"\\(.)", r"\1", escaped, flags=re.S) == text
    assert not re.search(r"(?<!\\)(?:\\\\)*[`*<>\[\]|#]", escaped.replace("\\\\", ""))


@given(st.lists(st.tuples(st.integers(0, 4), st.text(max_size=5)), max_size=12))
def test_html_lists_are_balanced_and_escaped(lines):
    from rulelang.rulebook.render import _html_lines

    out = _html_lines(lines)
    assert out.count("<ul>") == out.count("</ul>")
    assert out.count("<li>") == len(lines)
    for _, text in lines:
        assert html.escape(text) in out
