"""Hostile game folders: links out of the folder, link loops, FIFOs, devices, files swapped while read,
and specs that pass the limits only when their files are added up.

Each test builds the hostile folder in a temporary folder. The rules pinned: every spec file (the main
file too) is a regular file whose real path lies inside the game's folder; anything else is a located
error that quotes nothing of what it points at; nothing blocks; the limits hold for all files together.
"""
from __future__ import annotations

import json
import os
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given
from hypothesis import strategies as st

from rulelang.cli import main
from rulelang.errors import ErrorList, RulelangError
from rulelang.spec import files, loader
from rulelang.spec.loader import load_document
from rulelang.testing.scenario import load_scenarios, scenario_files, scenario_files_of

from helpers.examples import examples
from helpers.time_limit import time_limit

SECRET = "SECRET-7f3a"
#: Outside text that would be quoted if it were ever read: invalid YAML on its first line.
OUTSIDE_TEXT = f"{SECRET}: [unclosed {SECRET}\n"
GAME = "game: x\n"


def write(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def link(folder: Path, name: str, target: str | Path) -> Path:
    path = folder / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.symlink_to(target)
    return path


def load_error(path: Path, **kwargs) -> RulelangError:
    with time_limit():
        with pytest.raises(RulelangError) as caught:
            load_document(path, **kwargs)
    return caught.value


def only(error: RulelangError) -> RulelangError:
    assert not isinstance(error, ErrorList), error.format()
    return error


def run_cli(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    capsys.readouterr()
    with time_limit():
        code = main(args)
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def outside(tmp_path: Path) -> Path:
    """A file next to the game's folder, holding a secret that must never be shown."""
    return write(tmp_path, "outside.yaml", OUTSIDE_TEXT)


# ---------------------------------------------------------------------------
# The main file is confined like every include


@pytest.mark.parametrize("target", ["/etc/passwd", "/proc/self/environ", "outside"])
def test_a_main_file_linking_out_of_its_folder_is_refused_quoting_nothing(
        tmp_path: Path, outside: Path, target: str, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("RULELANG_TEST_SECRET", SECRET)           # /proc/self/environ holds it
    link(tmp_path, "g/game.yaml", outside if target == "outside" else target)
    monkeypatch.chdir(tmp_path)
    code, out, err = run_cli(["validate", "--games", "0", "g"], capsys)
    assert (code, out) == (1, "")
    assert err == ("g/game.yaml: error: this file is a link that leads outside the game's folder\n"
                   "hint: a game's files must be files of its own folder, not links to files elsewhere\n")


def test_the_refusal_is_located_at_the_file_as_a_whole(tmp_path: Path, outside: Path) -> None:
    link(tmp_path, "g/game.yaml", outside)
    error = only(load_error(tmp_path / "g"))
    assert error.span is not None and error.span.file == str(tmp_path / "g" / "game.yaml")
    assert error.span.line == 0 and str(error.span) == error.span.file
    assert SECRET not in error.format()


def test_a_main_file_named_directly_that_links_out_is_refused(tmp_path: Path, outside: Path) -> None:
    link(tmp_path, "g/mine.yaml", outside)
    error = only(load_error(tmp_path / "g" / "mine.yaml"))
    assert error.message == "this file is a link that leads outside the game's folder"
    assert SECRET not in error.format()


def test_an_include_through_a_subfolder_linking_out_is_refused(tmp_path: Path, outside: Path) -> None:
    write(tmp_path, "g/game.yaml", "game: x\ninclude: [sub/outside.yaml]\n")
    link(tmp_path, "g/sub", tmp_path)                            # g/sub/outside.yaml is ../outside.yaml
    error = only(load_error(tmp_path / "g"))
    assert error.message == "include 'sub/outside.yaml' is a link that leads outside the game's folder"
    assert SECRET not in error.format()


def test_links_that_stay_inside_the_folder_are_followed(tmp_path: Path) -> None:
    write(tmp_path, "g/rules/main.yaml", "game: x\ninclude: [cards.yaml]\n")
    write(tmp_path, "g/rules/real_cards.yaml", "cards: []\n")
    link(tmp_path, "g/game.yaml", "rules/main.yaml")
    link(tmp_path, "g/rules/cards.yaml", "real_cards.yaml")
    doc = load_document(tmp_path / "g")
    assert doc.data == {"game": "x", "cards": []}


def test_a_game_folder_that_is_itself_a_link_is_the_users_choice(tmp_path: Path) -> None:
    write(tmp_path, "real/game.yaml", GAME)
    link(tmp_path, "named", "real")
    assert load_document(tmp_path / "named").data == {"game": "x"}


# ---------------------------------------------------------------------------
# Files that are not regular files


def test_a_fifo_game_yaml_is_refused_without_blocking(tmp_path: Path) -> None:
    (tmp_path / "g").mkdir()
    os.mkfifo(tmp_path / "g" / "game.yaml")
    error = only(load_error(tmp_path / "g"))
    assert error.message == "this file is not a regular file: it is a FIFO (a named pipe)"
    assert error.span.file == str(tmp_path / "g" / "game.yaml")


def test_a_fifo_include_is_refused_at_the_include(tmp_path: Path) -> None:
    write(tmp_path, "g/game.yaml", "game: x\ninclude: [cards.yaml]\n")
    os.mkfifo(tmp_path / "g" / "cards.yaml")
    error = only(load_error(tmp_path / "g"))
    assert error.message == "include 'cards.yaml' is not a regular file: it is a FIFO (a named pipe)"
    assert (error.span.file, error.span.line, error.span.col) == (str(tmp_path / "g" / "game.yaml"), 2, 11)


def test_a_device_is_refused_without_reading_it(capsys: pytest.CaptureFixture[str]) -> None:
    started = time.perf_counter()
    code, out, err = run_cli(["validate", "--games", "0", "/dev/zero"], capsys)
    assert (code, out) == (1, "")
    assert err == ("/dev/zero: error: this file is not a regular file: it is a character device\n"
                   "hint: a game's files are plain text files\n")
    assert time.perf_counter() - started < 5      # a hang guard: /dev/zero is never read


def test_a_link_to_a_device_is_refused(tmp_path: Path) -> None:
    link(tmp_path, "g/game.yaml", "/dev/zero")
    error = only(load_error(tmp_path / "g"))
    assert error.message == "this file is a link that leads outside the game's folder"
    # the reader refuses the device itself too, when the device's folder is allowed
    with time_limit(), pytest.raises(files.FileRefused) as caught:
        files.read_confined(tmp_path / "g" / "game.yaml", (Path("/dev"), tmp_path), 100)
    assert caught.value.reason == "is not a regular file: it is a character device"


def test_an_include_that_is_a_folder_says_so(tmp_path: Path) -> None:
    write(tmp_path, "g/game.yaml", "game: x\ninclude: [cards]\n")
    write(tmp_path, "g/cards/base.yaml", "cards: []\n")
    error = only(load_error(tmp_path / "g"))
    assert error.message == "include 'cards' is a folder, not a YAML file"
    assert error.hint == "name a YAML file inside it"


# ---------------------------------------------------------------------------
# Names and links that lead nowhere


def test_an_include_name_over_255_characters(tmp_path: Path) -> None:
    name = "c" * 300 + ".yaml"
    write(tmp_path, "g/game.yaml", f"game: x\ninclude: [{name}]\n")
    error = only(load_error(tmp_path / "g"))
    assert error.message == f"include '{'c' * 57}...' has a name too long for a file (305 bytes; the limit is 255)"
    assert (error.span.line, error.span.col) == (2, 11)


def test_a_path_too_long_for_the_system(tmp_path: Path) -> None:
    entry = "/".join(["d" * 200] * 30) + "/x.yaml"              # each name fits; the path does not
    write(tmp_path, "g/game.yaml", f"game: x\ninclude: ['{entry}']\n")
    error = only(load_error(tmp_path / "g"))
    assert error.message.endswith("has a name too long for the file system")


@pytest.mark.parametrize("links", [[("a.yaml", "a.yaml")], [("a.yaml", "b.yaml"), ("b.yaml", "a.yaml")]])
def test_an_include_that_is_a_link_loop(tmp_path: Path, links: list[tuple[str, str]]) -> None:
    write(tmp_path, "g/game.yaml", "game: x\ninclude: [a.yaml]\n")
    for name, target in links:
        link(tmp_path / "g", name, target)
    error = only(load_error(tmp_path / "g"))
    assert error.message == "include 'a.yaml' is a link loop: following its links never reaches a file"


def test_an_include_inside_a_folder_link_loop(tmp_path: Path) -> None:
    write(tmp_path, "g/game.yaml", "game: x\ninclude: [loop/cards.yaml]\n")
    link(tmp_path / "g", "loop", "loop")
    error = only(load_error(tmp_path / "g"))
    assert error.message == "include 'loop/cards.yaml' is a link loop: following its links never reaches a file"


def test_a_game_folder_that_is_a_link_loop(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    link(tmp_path, "g", "h")
    link(tmp_path, "h", "g")
    error = only(load_error(tmp_path / "g"))
    assert error.message == "this file is a link loop: following its links never reaches a file"
    assert error.span.file == str(tmp_path / "g")


def test_an_include_that_links_to_nothing(tmp_path: Path) -> None:
    write(tmp_path, "g/game.yaml", "game: x\ninclude: [cards.yaml]\n")
    link(tmp_path / "g", "cards.yaml", "gone.yaml")
    error = only(load_error(tmp_path / "g"))
    assert error.message == "include 'cards.yaml' is a link to nothing: what it points at does not exist"


def test_an_include_linking_out_of_the_folder(tmp_path: Path, outside: Path) -> None:
    write(tmp_path, "g/game.yaml", "game: x\ninclude: [cards.yaml]\n")
    link(tmp_path / "g", "cards.yaml", outside)
    error = only(load_error(tmp_path / "g"))
    assert error.message == "include 'cards.yaml' is a link that leads outside the game's folder"
    assert SECRET not in error.format()


def test_outside_names_are_refused_before_anything_outside_is_looked_at(tmp_path: Path) -> None:
    write(tmp_path, "g/game.yaml", "game: x\ninclude: ['../nowhere.yaml', '../outside.yaml']\n")
    write(tmp_path, "outside.yaml", OUTSIDE_TEXT)
    error = load_error(tmp_path / "g")
    assert [e.message for e in error.errors] == ["include '../nowhere.yaml' is outside the game's folder",
                                                 "include '../outside.yaml' is outside the game's folder"]


# ---------------------------------------------------------------------------
# A file swapped between the check and the open


def swap_before_open(monkeypatch: pytest.MonkeyPatch, swap) -> None:
    """Replace the checked file (via ``swap(path)``) just before the reader opens it."""
    real_open = files._open_handle

    def swapped(real: Path) -> int:
        swap(real)
        return real_open(real)
    monkeypatch.setattr(files, "_open_handle", swapped)


def test_a_file_swapped_for_a_fifo_is_refused_on_the_handle(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    write(tmp_path, "g/game.yaml", GAME)

    def to_fifo(path: Path) -> None:
        path.unlink()
        os.mkfifo(path)
    swap_before_open(monkeypatch, to_fifo)
    error = only(load_error(tmp_path / "g"))
    assert error.message == "this file is not a regular file: it is a FIFO (a named pipe)"


def test_a_file_swapped_for_a_link_out_is_refused(tmp_path: Path, outside: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    write(tmp_path, "g/game.yaml", GAME)

    def to_link(path: Path) -> None:
        path.unlink()
        path.symlink_to(outside)
    swap_before_open(monkeypatch, to_link)
    error = only(load_error(tmp_path / "g"))
    assert error.message == "this file changed while it was being opened"
    assert SECRET not in error.format()


def test_a_file_swapped_for_another_file_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    write(tmp_path, "g/game.yaml", GAME)

    def to_other(path: Path) -> None:
        other = write(path.parent, "other", OUTSIDE_TEXT)
        os.replace(other, path)
    swap_before_open(monkeypatch, to_other)
    error = only(load_error(tmp_path / "g"))
    assert error.message == "this file changed while it was being opened"


def test_a_file_that_grows_past_the_limit_while_read(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    write(tmp_path, "g/game.yaml", GAME)
    swap_before_open(monkeypatch, lambda path: path.write_text(GAME + "#" * loader.MAX_SPEC_BYTES))
    error = only(load_error(tmp_path / "g"))
    assert error.message == "file grew past the 2 MB limit while it was being read"


# ---------------------------------------------------------------------------
# Limits hold for all the files of a game together


def many_values(count: int) -> str:
    return "".join(f"- {i}\n" for i in range(count))


def test_forty_includes_of_95000_values_are_refused(tmp_path: Path) -> None:
    names = [f"part{i}.yaml" for i in range(40)]
    write(tmp_path, "g/game.yaml", "game: x\ninclude: [" + ", ".join(names) + "]\n")
    body = many_values(95_000)
    for i, name in enumerate(names):
        write(tmp_path, f"g/{name}", f"list{i}:\n" + body)
    error = load_error(tmp_path / "g")
    messages = [e.message for e in (error.errors if isinstance(error, ErrorList) else [error])]
    assert messages == ["the game's files hold more than 30,000 values together "
                        "(45 of them in the files read before this one)"]
    assert error.span.file == str(tmp_path / "g" / "part0.yaml")


def test_values_add_up_across_includes(tmp_path: Path) -> None:
    names = [f"part{i}.yaml" for i in range(40)]
    write(tmp_path, "g/game.yaml", "game: x\ninclude: [" + ", ".join(names) + "]\n")
    for i, name in enumerate(names):
        write(tmp_path, f"g/{name}", f"list{i}:\n" + many_values(1_000))   # each file alone is small
    error = only(load_error(tmp_path / "g"))
    assert error.message.startswith("the game's files hold more than 30,000 values together (")
    assert error.message.endswith(" of them in the files read before this one)")
    assert error.span.file == str(tmp_path / "g" / "part29.yaml")


def test_aliases_expanding_past_the_budget_left_by_earlier_files(tmp_path: Path) -> None:
    write(tmp_path, "g/game.yaml", "game: x\ninclude: [a.yaml, b.yaml]\n")
    write(tmp_path, "g/a.yaml", "a:\n" + many_values(20_000))
    write(tmp_path, "g/b.yaml", "b: &b [" + ", ".join(["0"] * 100) + "]\nc: [" + ", ".join(["*b"] * 100) + "]\n")
    error = only(load_error(tmp_path / "g"))
    assert error.message == ("this file expands to more than 30,000 values once aliases are expanded"
                             " together with the files read before it")


def test_aliases_add_up_across_includes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(loader, "MAX_ALIASES", 10)
    write(tmp_path, "g/game.yaml", "game: x\ninclude: [a.yaml, b.yaml]\n")
    for name in ("a", "b"):
        write(tmp_path, f"g/{name}.yaml", f"{name}: &{name} 1\n{name}s: [" + ", ".join([f"*{name}"] * 6) + "]\n")
    error = only(load_error(tmp_path / "g"))
    assert error.message == "too many aliases: more than 10 uses of '*name' in the game's files together"
    assert error.span.file == str(tmp_path / "g" / "b.yaml")


def test_bytes_add_up_across_includes(tmp_path: Path) -> None:
    names = ["a.yaml", "b.yaml", "c.yaml"]
    write(tmp_path, "g/game.yaml", "game: x\ninclude: [" + ", ".join(names) + "]\n")
    for name in names:
        write(tmp_path, f"g/{name}", "#" * 800_000 + f"\n{name[0]}: 1\n")
    error = only(load_error(tmp_path / "g"))
    assert error.message == ("file is too large (0.8 MB): with the files read before it (1.5 MB) the game "
                             "passes its limit of 2 MB for all files together")
    assert error.span.file == str(tmp_path / "g" / "c.yaml")


def test_a_file_of_millions_of_blank_lines_is_refused_before_it_is_scanned(tmp_path: Path) -> None:
    write(tmp_path, "g/game.yaml", "game: x\n" + "\n" * 2_000_000)
    started = time.perf_counter()
    error = only(load_error(tmp_path / "g"))
    assert time.perf_counter() - started < 5      # a hang guard; the figure is in bench/hostile_loads.py
    assert error.message == "this file has more than 100,000 lines"


def test_lines_add_up_across_includes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(loader, "MAX_LINES", 100)
    write(tmp_path, "g/game.yaml", "game: x\ninclude: [a.yaml, b.yaml]\n")
    write(tmp_path, "g/a.yaml", "a: 1\n" + "\n" * 60)
    write(tmp_path, "g/b.yaml", "b: 1\n" + "\n" * 60)
    error = only(load_error(tmp_path / "g"))
    assert error.message == ("the game's files have more than 100 lines together "
                             "(63 of them in the files read before this one)")
    assert error.span.file == str(tmp_path / "g" / "b.yaml")


def test_too_many_files_is_one_error(tmp_path: Path) -> None:
    names = [f"p{i}.yaml" for i in range(loader.MAX_FILES + 5)]
    write(tmp_path, "g/game.yaml", "game: x\ninclude: [a.yaml]\n")
    write(tmp_path, "g/a.yaml", "include: [" + ", ".join(names[:150]) + "]\n")
    write(tmp_path, "g/b.yaml", "tags: []\n")
    write(tmp_path, "g/game.yaml", "game: x\ninclude: [a.yaml, b.yaml]\n")
    write(tmp_path, "g/b.yaml", "include: [" + ", ".join(names[150:]) + "]\n")
    for name in names:
        write(tmp_path, f"g/{name}", f"k{name[1:-5]}: 1\n")
    error = only(load_error(tmp_path / "g"))
    assert error.message == "too many included files"
    assert error.span.file == str(tmp_path / "g" / "b.yaml")


def test_a_huge_include_list_is_one_error(tmp_path: Path) -> None:
    write(tmp_path, "g/game.yaml", "game: x\ninclude: [" + ", ".join(["nope.yaml"] * 10_000) + "]\n")
    error = only(load_error(tmp_path / "g"))
    assert error.message == "'include' names 10,000 files; a game has at most 200"


def test_each_scenario_file_has_its_own_budget(tmp_path: Path) -> None:
    write(tmp_path, "s/scenarios/a.yaml", "scenario: a\nlist:\n" + many_values(20_000))
    doc = load_document(tmp_path / "s" / "scenarios" / "a.yaml", includes=False)
    assert len(doc.data["list"]) == 20_000


# ---------------------------------------------------------------------------
# Scenario files go through the same reader


def test_a_scenario_file_linking_out_is_refused(tmp_path: Path, outside: Path) -> None:
    write(tmp_path, "g/game.yaml", GAME)
    link(tmp_path, "g/scenarios/steal.yaml", outside)
    steal = tmp_path / "g" / "scenarios" / "steal.yaml"
    assert scenario_files_of(str(tmp_path / "g")) == ([], [steal])     # found, but set aside as leading out
    with time_limit(), pytest.raises(RulelangError) as caught:             # and refused if named directly
        load_scenarios(steal)
    assert caught.value.message == "this file is a link that leads outside the game's folder"
    assert SECRET not in caught.value.format()


def test_scenario_paths_that_are_loops_or_too_long_say_so(tmp_path: Path) -> None:
    link(tmp_path, "loop", "loop")
    with pytest.raises(RulelangError) as caught:
        scenario_files([str(tmp_path / "loop")])
    assert caught.value.message == f"'{tmp_path / 'loop'}' is a link loop: following its links never reaches a file"
    with pytest.raises(RulelangError) as caught:
        scenario_files(["s" * 300])
    assert caught.value.message.endswith("has a name too long for a file (300 bytes; the limit is 255)")
    with pytest.raises(RulelangError) as caught:
        scenario_files([str(tmp_path / "nope")])
    assert caught.value.message == f"no such file or folder: {tmp_path / 'nope'}"


@pytest.mark.parametrize("named, message", [
    ("../loop", "the game '../loop' is a link loop: following its links never reaches a file"),
    ('"a\\0b"', "the game 'a\\x00b' is not a usable file name"),
    ("nope", "cannot find the game 'nope'"),
])
def test_a_scenario_naming_a_bad_game_path_is_a_located_error(tmp_path: Path, named: str, message: str,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    write(tmp_path, "g/game.yaml", GAME)
    link(tmp_path / "g", "loop", "loop")
    scenario = write(tmp_path, "g/scenarios/a.yaml", f"scenario: a\ngame: {named}\nexpect: {{}}\n")
    code, out, err = run_cli(["test", str(tmp_path / "g")], capsys)
    assert code == 1
    assert f"{scenario}:2:7: error: {message}\n" in out + err
    assert "internal error" not in out + err


def test_a_fifo_scenario_is_refused_without_blocking(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    write(tmp_path, "g/game.yaml", GAME)
    (tmp_path / "g" / "scenarios").mkdir()
    os.mkfifo(tmp_path / "g" / "scenarios" / "pipe.yaml")
    code, out, err = run_cli(["test", str(tmp_path / "g")], capsys)
    pipe = tmp_path / "g" / "scenarios" / "pipe.yaml"
    assert code == 1
    assert f"{pipe}: error: this file is not a regular file: it is a FIFO (a named pipe)\n" in out + err


# ---------------------------------------------------------------------------
# Any arrangement of hostile entries: loads, or refuses with located errors that quote nothing outside

KINDS = ["regular", "link_inside", "link_outside", "link_loop", "dangling", "fifo", "folder", "long_name",
         "dev_zero", "missing"]


def make_entry(folder: Path, name: str, kind: str, outside: Path) -> str:
    """Create one include of the given kind in ``folder``; returns the include entry naming it."""
    path = folder / name
    if kind == "regular":
        path.write_text(f"{path.stem}: 1\n", encoding="utf-8")
    elif kind == "link_inside":
        (folder / f"real_{name}").write_text(f"{path.stem}: 2\n", encoding="utf-8")
        path.symlink_to(f"real_{name}")
    elif kind == "link_outside":
        path.symlink_to(outside)
    elif kind == "link_loop":
        path.symlink_to(name)
    elif kind == "dangling":
        path.symlink_to("nothing_here.yaml")
    elif kind == "fifo":
        os.mkfifo(path)
    elif kind == "folder":
        path.mkdir()
    elif kind == "dev_zero":
        path.symlink_to("/dev/zero")
    elif kind == "long_name":
        return "l" * 256 + ".yaml"
    return name


@examples(60, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(main=st.sampled_from(KINDS), includes=st.lists(st.sampled_from(KINDS), max_size=5))
def test_any_arrangement_loads_or_refuses_quoting_nothing_outside(tmp_path_factory: pytest.TempPathFactory,
                                                                  main: str, includes: list[str]) -> None:
    base = tmp_path_factory.mktemp("arrangement")
    outside = write(base, "outside.yaml", OUTSIDE_TEXT)
    folder = base / "g"
    folder.mkdir()
    entries = [make_entry(folder, f"inc{i}.yaml", kind, outside) for i, kind in enumerate(includes)]
    include_text = "game: x\ninclude: [" + ", ".join(f"'{e}'" for e in entries) + "]\n"
    if main in ("regular", "link_inside"):
        write(folder, "main_real.yaml", include_text)
        (folder / "game.yaml").symlink_to("main_real.yaml") if main == "link_inside" else \
            os.replace(folder / "main_real.yaml", folder / "game.yaml")
    elif main != "long_name":
        make_entry(folder, "game.yaml", main, outside)
    try:
        with time_limit():
            doc = load_document(folder)
    except RulelangError as error:
        for one in (error.errors if isinstance(error, ErrorList) else [error]):
            assert one.span is not None or one.message.startswith(("there is no game.yaml", "cannot find"))
            assert "internal" not in one.message
        assert SECRET not in error.format()
        return
    assert main in ("regular", "link_inside")
    assert all(kind in ("regular", "link_inside") for kind in includes)
    assert SECRET not in repr(doc.data)


ENTRY_PIECES = ["..", "/", ".", "cards.yaml", "sub", "\0", "\udc80", "\ud800", "é", " ", "\\", "x" * 200, "~", "*"]


@examples(150, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(entry=st.lists(st.sampled_from(ENTRY_PIECES), min_size=1, max_size=8).map("".join) | st.text(max_size=40))
def test_any_include_entry_loads_or_is_a_located_error(tmp_path_factory: pytest.TempPathFactory, entry: str) -> None:
    folder = tmp_path_factory.mktemp("entry")
    write(folder, "cards.yaml", "cards: []\n")
    write(folder, "sub/cards.yaml", "tags: []\n")
    write(folder.parent, "outside.yaml", OUTSIDE_TEXT)
    write(folder, "game.yaml", f"game: x\ninclude: [{json.dumps(entry)}]\n")
    try:
        with time_limit():
            load_document(folder)
    except RulelangError as error:
        for one in (error.errors if isinstance(error, ErrorList) else [error]):
            assert one.span is not None and one.span.file == str(folder / "game.yaml"), one.format()
        assert SECRET not in error.format()


def test_a_quoted_source_line_sends_no_control_character_to_the_terminal(tmp_path: Path) -> None:
    """An escape sequence or a right-to-left override in a hostile file is shown as U+FFFD, caret in place."""
    folder = tmp_path / "game"
    folder.mkdir()
    (folder / "game.yaml").write_bytes("game: X\x1b[2J\u202e\nplayers: {min: 2}\n".encode("utf-8"))
    shown = load_error(folder).format()
    assert "\x1b" not in shown and "\u202e" not in shown
    line, caret = shown.splitlines()[1:3]
    assert line == "game: X\ufffd[2J\ufffd"
    assert caret.index("^") == line.index("\ufffd")
