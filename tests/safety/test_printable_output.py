"""Text from a file never reaches a terminal raw: every command's output, whatever a spec's names hold.

A downloaded game, mod, scenario or log may put escape sequences, bidi overrides or line breaks in any
name, label or message it defines. Each test here places such text in a small game and reads a
command's output (stdout and stderr, no TTY, so rich adds no codes of its own): no control, format or
line-separator character may be in it but the line breaks rulelang writes itself, and inside a name
(marked by « and ») not even those. ``rulelang.printable`` is the one filter; each site that writes text
is pinned by a plain test, and a hypothesis test throws every kind of character at all of them.
"""
from __future__ import annotations

import io
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from unittest import mock

import pytest
import yaml
from hypothesis import HealthCheck, given
from hypothesis import strategies as st

from rulelang.cli import main
from rulelang.cli.play import CLEAR
from rulelang.printable import is_unsafe, marked, printable

from helpers.examples import examples

ROOT = Path(__file__).resolve().parents[2]
OPEN, CLOSE = "\u00ab", "\u00bb"          # « and »: around every piece of hostile text, never inside one
#: What a hostile file likes to hold: a title change, a screen clear, a cursor move, a link, a carriage
#: return, a forged line, a right-to-left override, C1 controls, NEL and the Unicode line separators.
NASTY = "\x1b]0;owned\x07\x1b[2J\x1b[1A\x1b]8;;http://x\x1b\\\r\nFORGED\u202e\x9b\x85\u2028[/]"
CONTROLS = [chr(c) for c in range(0x20)] + [chr(c) for c in range(0x7f, 0xa0)] + [
    "\u00ad", "\u061c", "\u180e", "\u200b", "\u200c", "\u200d", "\u200e", "\u200f", "\u2028", "\u2029",
    "\u202a", "\u202b", "\u202c", "\u202d", "\u202e", "\u2060", "\u2066", "\u2067", "\u2068", "\u2069",
    "\ufeff", "\ufff9", "\U000e0001", "\U000e007f"]


def hostile(text: str) -> str:
    return OPEN + text + CLOSE


def raw_controls(output: str) -> list[str]:
    """What in ``output`` may act on a terminal: unsafe characters outside rulelang's own line breaks,
    and any line break (or tab) inside a piece of hostile text. Play's own screen clear is allowed."""
    output = output.replace(CLEAR, "")
    found = [repr(ch) for ch in output if ch not in "\n" and is_unsafe(ch)]
    found += [repr(piece) for piece in re.findall(f"{OPEN}[^{OPEN}{CLOSE}]*{CLOSE}", output)
              if any(is_unsafe(ch) for ch in piece)]
    return found


# --- a small game whose every name is hostile -----------------------------------------------------

def label_text(text: str) -> str:
    """A branch label of a rule text cannot hold a quote or a line break (the text would not parse)."""
    return re.sub(r'["\n\r]', "", text)


def write_yaml(path: Path, data: dict) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(yaml.safe_dump(data, allow_unicode=False, sort_keys=False), encoding="utf-8")
    return path


def write_game(folder: Path, text: str) -> Path:
    """A two-player dice game (Pig, with a card each) whose names, labels and branch labels hold ``text``."""
    name = hostile(text)
    write_yaml(folder / "game.yaml", {
        "game": name,
        "players": {"min": 2, "max": 2},
        "params": {"goal": {"type": "int", "default": 12, "min": 1, "max": 100, "label": name}},
        "counters": {"banked": {"label": name}, "pot": {"label": name}},
        "locations": {"pond": {"label": name}},
        "dice": {"d6": {"faces": 6, "outcomes": {"pig": [1]}}},
        "zones": {"deck": {"owner": "table", "visibility": "hidden", "label": name},
                  "hand": {"owner": "player", "visibility": "owner", "label": name}},
        "cards": [{"id": "gem", "name": name, "count": 4, "zone": "deck"}],
        "score": "p.banked",
        "setup": "shuffle deck\nfor each p in players:\n    draw 1 from deck to p.hand\n",
        "turn": {"order": "seat", "first": "first", "limit": 1000, "steps": [
            {"name": name, "text": name, "effect": (
                "me rolls 1 d6 as r\nif r.pig > 0:\n    me.pot = 0\nelse:\n    me.pot += r.total\n"
                f'    me chooses one:\n        "{label_text(name)}":\n            me takes another turn\n'
                '        "hold":\n            me.banked += me.pot\n            me.pot = 0\n            check end\n')}]},
        "end": [{"name": name, "when": "any(p in players where p.banked >= goal)",
                 "winner": "first(p in players where p.banked >= goal)"}],
    })
    return folder


def write_mod(folder: Path, text: str) -> Path:
    """A mod named ``text`` that inserts a step named ``text`` after the game's step."""
    name = hostile(text)
    write_yaml(folder / "mod.yaml", {
        "mod": name, "game": name, "text": name,
        "insert_steps": [{"after": name, "steps": [{"name": hostile(text + "2"), "text": name,
                                                    "effect": "me.pot += 0\n"}]}]})
    return folder


def write_scenarios(folder: Path, text: str, game: Path) -> Path:
    """Scenarios named ``text``: one that fails naming the step, one that names an unknown one."""
    name = hostile(text)
    return write_yaml(folder / "scenarios" / "hostile.yaml", {"game": str(game), "scenarios": [
        {"scenario": name, "players": 2, "setup": {"step": name, "active": "P1", "dice": [4]},
         "stop_before": {"step": name, "turn": 2},
         "expect": {"events": [{"type": "step", "step": hostile(text + "x")}], "active": "P2"}},
        {"scenario": name, "players": 2, "setup": {"step": hostile(text + "y"), "active": "P1"},
         "expect": {"active": "P2"}},
    ]})


def write_broken_game(folder: Path, text: str) -> Path:
    """A game whose names that must be words (a variable, a card id, a param, a counter) hold ``text``."""
    name = hostile(text)
    write_yaml(folder / "game.yaml", {
        "game": name, "players": {"min": 2, "max": 2},
        "params": {name: {"type": "int", "default": 1}},
        "vars": {name: {"type": "int"}},
        "counters": {name: {"label": name}},
        "cards": [{"id": name, "name": name, "count": 1, "zone": name}],
        "turn": {"order": "seat", "steps": [{"name": name, "effect": "me.x = 1\n"}]},
        "end": [{"name": name, "when": "true"}],
    })
    return folder


# --- the commands, in this process ----------------------------------------------------------------

def command(args: list[str], capsys: pytest.CaptureFixture[str], given: str | None = None) -> str:
    """One command's stdout and stderr together (its input ``given``, if any)."""
    capsys.readouterr()
    with mock.patch.object(sys, "stdin", io.StringIO(given or "")):
        main(args)
    out, err = capsys.readouterr()
    assert "Traceback" not in err
    return out + err


def forged_log(log: Path, name: str, line: int, key: str, value: object) -> Path:
    """A copy of the log named ``name`` with ``key`` of the event at ``line`` (from 0) set to ``value``."""
    events = [json.loads(text) for text in log.read_text().splitlines()]
    events[line][key] = value
    forged = log.with_name(name)
    forged.write_text("".join(json.dumps(e) + "\n" for e in events))
    return forged


def hostile_files(root: Path, text: str) -> dict[str, Path]:
    """A game, a mod, scenarios, a broken game and a game's log, all holding ``text``, in a folder named by it."""
    new = root / "new_mod"                # `new` refuses a name with control characters: a plain one
    root = root / hostile(re.sub("[/\0]", "_", text))
    files = {"game": write_game(root / "game", text), "mod": write_mod(root / "mod", text),
             "broken": write_broken_game(root / "broken", text), "log": root / "game.jsonl", "new": new}
    files["pack"] = write_scenarios(root / "pack", text, files["game"])
    main(["run", str(files["game"]), "--players", "2", "--seed", "3", "--quiet", "--log", str(files["log"])])
    files["forged"] = forged_log(files["log"], "params.jsonl", 0, "params", {hostile(text): 3})
    files["forged_step"] = forged_log(files["log"], "step.jsonl", 5, "step", hostile(text + "!"))
    files["forged_type"] = forged_log(files["log"], "type.jsonl", 5, "type", hostile(text))
    return files


#: Every command, as (arguments with {names} of ``hostile_files``, its input), by the site it writes from.
COMMANDS: dict[str, tuple[str, str | None]] = {
    "validate": ("validate {game} --games 2", None),
    "validate --mod": ("validate {game} --mod {mod} --games 1", None),
    "validate: errors": ("validate {broken}", None),
    "run": ("run {game} --players 2 --seed 3", None),
    "run --as": ("run {game} --players 2 --seed 3 --as P2", None),
    "run: usage": ("run {game} --players 5", None),
    "test": ("test {pack}", None),
    "replay": ("replay {game} {log}", None),
    "replay: a log's params": ("replay {game} {forged}", None),
    "replay: a forged event": ("replay {game} {forged_step}", None),
    "replay: not an event": ("replay {game} {forged_type}", None),
    "compile": ("compile {game} --python", None),
    "mods": ("mods {game} --mod {mod}", None),
    "simulate": ("simulate {game} --players 2 --games 3", None),
    "sweep": ("sweep {game} --players 2 --games 2 --vary goal=5,6", None),
    "play": ("play {game} --players 2 --seat 1=human --seat 2=human", "\n1\n" * 40),
    "new mod --game": ("new mod {new} --game {game}", None),
    "new mod --game: error": ("new mod {new} --game {broken}", None),
}
#: The command whose output shows nothing of the game (a file created).
SHOWS_NO_NAME = {"new mod --game"}


def output_of(site: str, files: dict[str, Path], capsys: pytest.CaptureFixture[str]) -> str:
    args, given = COMMANDS[site]
    if site.startswith("new mod"):
        shutil.rmtree(files["new"], ignore_errors=True)
    return command([part.format(**{k: str(v) for k, v in files.items()}) for part in args.split()], capsys, given)


@pytest.fixture(scope="module")
def nasty(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    return hostile_files(tmp_path_factory.mktemp("nasty"), NASTY)


@pytest.fixture(scope="module")
def every_control(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    return hostile_files(tmp_path_factory.mktemp("controls"), "".join(CONTROLS))


@pytest.mark.parametrize("site", list(COMMANDS))
def test_a_nasty_name_is_shown_escaped_by_every_command(site: str, nasty: dict[str, Path], capsys) -> None:
    output = output_of(site, nasty, capsys)
    assert raw_controls(output) == []
    if site not in SHOWS_NO_NAME:
        assert printable(OPEN + NASTY[:12]) in output          # the name is there, shown


@pytest.mark.parametrize("site", list(COMMANDS))
def test_names_holding_every_control_character_are_shown_escaped(site: str, every_control: dict[str, Path],
                                                                  capsys) -> None:
    output = output_of(site, every_control, capsys)
    assert raw_controls(output) == []
    if site not in SHOWS_NO_NAME:
        assert printable("".join(CONTROLS[1:13])) in output        # (a path holds "_" for NUL)


HOSTILE_TEXT = st.text(st.sampled_from(CONTROLS) | st.characters(blacklist_categories=("Cs",),
                                                                   blacklist_characters=OPEN + CLOSE),
                       min_size=1, max_size=8)


@examples(10, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                HealthCheck.too_slow])
@given(text=HOSTILE_TEXT)
def test_no_output_of_any_command_holds_a_raw_control_character_from_a_file(
        tmp_path_factory: pytest.TempPathFactory, capsys, text: str) -> None:
    files = hostile_files(tmp_path_factory.mktemp("hostile"), text)
    for site in COMMANDS:
        assert raw_controls(output_of(site, files, capsys)) == [], site


# --- the filter itself ------------------------------------------------------------------------------

#: Any text at all, lone surrogates (a file name's undecodable bytes) and line separators included.
ANY_TEXT = st.text(st.characters(exclude_categories=()) | st.sampled_from(CONTROLS))


@given(ANY_TEXT)
def test_printable_text_holds_no_unsafe_character_and_leaves_safe_text_alone(text: str) -> None:
    shown = printable(text)
    assert not any(is_unsafe(ch) for ch in shown)
    if not any(is_unsafe(ch) for ch in text):
        assert shown == text


@given(ANY_TEXT)
def test_a_marked_source_line_keeps_its_columns(text: str) -> None:
    shown = marked(text)
    assert len(shown) == len(text)
    assert not any(is_unsafe(ch) and ch != "\t" for ch in shown)


def test_escapes_are_visible_and_familiar() -> None:
    assert printable("a\x1b[2Jb\r\nc\td\u202ee\x85\u2028") == "a\\x1b[2Jb\\r\\nc\\td\\u202ee\\x85\\u2028"
    assert printable("caf\u00e9 [/] \\ ok") == "caf\u00e9 [/] \\ ok"


# --- sites that a command reaches only on a terminal, or deep inside ---------------------------------

def test_an_error_report_is_one_line_per_part_whatever_its_words_hold() -> None:
    from rulelang.errors import RulelangError, Span

    error = RulelangError(f"unknown step '{NASTY}'", Span(f"f{NASTY}.yaml", 3, 4), hint=f"did you mean '{NASTY}'?",
                          notes=[f"seed {NASTY}"])
    lines = error.format().split("\n")
    assert len(lines) == 3 and [line.split(":")[0] for line in lines[1:]] == ["hint", "note"]
    assert raw_controls(error.format()) == []


def test_a_saved_state_error_is_printable() -> None:
    from rulelang.logs.saves import SavedStateError

    error = SavedStateError(f"unknown card '{NASTY}'", "zones.hand", source=f"save{NASTY}.json", hint=NASTY)
    assert len(error.format().split("\n")) == 2 and raw_controls(error.format()) == []


def test_an_internal_error_quoting_a_name_is_one_printable_line() -> None:
    from rulelang.cli.errors import internal_error

    shown = internal_error(ValueError(f"bad name {NASTY}"))
    assert "\n" not in shown and raw_controls(shown) == []


def records_of_a_nasty_game() -> dict:
    from rulelang.lab.simulate import Batch, GameRecord
    from rulelang.lab.stats import summarize

    records = [GameRecord(0, 0, turns=3, winners=(0,), condition=NASTY, first=0, plays={NASTY: {0: 1}}),
               GameRecord(1, 1, error=f"f.yaml:1:1: error: {printable(NASTY)}")]
    return summarize(Batch("x", 2, 2, 0, ("random", "random")), records, NASTY, [NASTY, NASTY], {NASTY: [0, 1]})


@pytest.mark.parametrize("terminal", [False, True])
def test_the_simulate_table_shows_names_as_text_on_a_terminal_and_off(terminal: bool) -> None:
    from rulelang.lab.report import print_table

    out = io.StringIO()                     # not a TTY: rich draws its boxes but adds no codes of its own
    print_table(records_of_a_nasty_game(), out, terminal)
    assert raw_controls(out.getvalue()) == [] and "[/]" in out.getvalue()
    assert printable(NASTY[:12]) in out.getvalue()


@pytest.mark.parametrize("terminal", [False, True])
def test_the_sweep_table_shows_names_as_text_on_a_terminal_and_off(terminal: bool) -> None:
    from rulelang.lab.sweep import Measure, SweepResult, Target, Vary
    from rulelang.lab.sweep_report import print_sweep

    result = SweepResult((5.0,), records_of_a_nasty_game(), Measure(0.5, 0.4, 0.6, True), True, True)
    out = io.StringIO()
    print_sweep([Vary("goal", (5.0,), "goal=5")], [result], "win_rate.P1", Target("win_rate.P1", 0.3, 0.7), out,
                terminal)
    assert raw_controls(out.getvalue()) == [] and printable(NASTY[:12]) in out.getvalue()


def test_the_coverage_report_is_printable_line_by_line() -> None:
    from rulelang.testing.coverage import SURVIVED, Report, Verdict
    from rulelang.testing.mutate import Mutant

    mutant = Mutant(0, "number", f"f{NASTY}.yaml", 3, f"'{NASTY}' -> 'x'", NASTY, (), 0, False)
    report = Report(f"g{NASTY}", NASTY, [mutant], [Verdict(0, SURVIVED)], 1, left_out=[NASTY])
    assert raw_controls(report.format()) == [] and printable(NASTY[:12]) in report.format()


class Terminal(io.StringIO):
    """A stderr that says it is a terminal, so the progress bar is drawn."""

    def isatty(self) -> bool:
        return True


def test_the_coverage_progress_bar_shows_a_path_holding_markup_as_text(monkeypatch: pytest.MonkeyPatch) -> None:
    from rulelang.testing import coverage

    def judged(path, workers, seed, sample, tick=None, mods=()):
        tick(0, 1)
        tick(1, 1)
        return coverage.Report(path, "g", [], [], 0)

    monkeypatch.setattr(coverage, "run_coverage", judged)
    monkeypatch.setattr(sys, "stderr", Terminal())
    out = io.StringIO()
    assert coverage.coverage_command([f"games/a[/]b{NASTY}"], 1, False, None, 0, None, out=out) == 0
    assert "a[/]b" in sys.stderr.getvalue() and printable(NASTY[:12]) in sys.stderr.getvalue()
    assert raw_controls(out.getvalue()) == []


@pytest.mark.slow
def test_a_path_holding_bytes_that_are_not_text_is_shown_escaped_by_a_real_process(tmp_path: Path) -> None:
    """A folder name's raw byte 0x9b (an 8-bit CSI) arrives as a lone surrogate; it is written escaped, never as
    the byte again (and a stdout that encodes strictly, which cannot write a surrogate at all, is not stopped)."""
    folder = Path(os.fsdecode(bytes(tmp_path) + b"/pig\x9b2J"))
    shutil.copytree(ROOT / "examples" / "pig", folder)
    done = subprocess.run([sys.executable, "-m", "rulelang.cli", "validate", str(folder), "--games", "1"],
                          cwd=ROOT, capture_output=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert b"\x9b" not in done.stdout + done.stderr and b"pig\\udc9b2J" in done.stdout
