"""The corpus of broken specs: every mistake gets exactly the located error pinned beside it.

Each folder ``tests/broken/<case>/`` is the tiny valid game of ``tests/broken/_valid/``
with one mistake, and ``expected.txt`` holds the whole stderr of
``rulelang validate --games 0 tests/broken/<case>`` run from the repository root.
The texts are pinned exactly, so a message that gets worse (or better) shows up
here; after improving a message on purpose, rewrite the pins with
``RULELANG_UPDATE_BROKEN=1 python -m pytest tests/language/test_broken_specs.py`` and read the diff.
"""
from __future__ import annotations

import os
from pathlib import Path

import pytest

from rulelang.cli import main

from helpers.reports import BARE_MARK, said_lines

ROOT = Path(__file__).resolve().parents[2]
CORPUS = ROOT / "tests" / "broken"
CASES = sorted(p.name for p in CORPUS.iterdir() if (p / "expected.txt").is_file())
UPDATE = os.environ.get("RULELANG_UPDATE_BROKEN") == "1"


def validate(case: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> tuple[int, str, str]:
    """Run `rulelang validate --games 0 tests/broken/<case>` in-process from the repository root (with
    `--strict` for a `warn_*` case)."""
    monkeypatch.chdir(ROOT)
    capsys.readouterr()
    strict = ["--strict"] if case.startswith("warn_") else []       # a warning's case: --strict makes it fail
    code = main(["validate", "--games", "0", *strict, f"tests/broken/{case}"])
    out, err = capsys.readouterr()
    return code, out, err


def test_the_corpus_is_big_enough() -> None:
    assert len(CASES) >= 40


def test_the_base_game_is_valid(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    code, out, err = validate("_valid", capsys, monkeypatch)
    assert (code, err) == (0, "")
    assert out.startswith("ok: tests/broken/_valid (Gem Hunt")


@pytest.mark.parametrize("case", CASES)
def test_broken_spec(case: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    expected_file = CORPUS / case / "expected.txt"
    code, out, err = validate(case, capsys, monkeypatch)
    if UPDATE:
        expected_file.write_text(err, encoding="utf-8")
    assert "Traceback" not in err
    assert "internal error" not in err
    assert out == ""
    assert code == 1
    assert err == expected_file.read_text(encoding="utf-8")
    assert err.startswith(f"tests/broken/{case}/"), "every error is located in the case's own files"


@pytest.mark.parametrize("case", CASES)
def test_no_message_shows_a_type_as_a_bare_question_mark(case: str, capsys: pytest.CaptureFixture[str],
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    _, _, err = validate(case, capsys, monkeypatch)
    said = said_lines(err)
    assert said, "every case reports something"
    assert [line for line in said if BARE_MARK.search(line)] == []


def test_the_bare_mark_is_recognised() -> None:
    """The pattern finds the old leak and lets a question pass."""
    assert BARE_MARK.search("error: argument 'n' must be ?, not a number")
    assert BARE_MARK.search("error: a list of ?s")
    assert not BARE_MARK.search("hint: did you mean 'deck'?")


WARNING_CASES = [case for case in CASES if case.startswith("warn_")]


@pytest.mark.parametrize("case", WARNING_CASES)
def test_a_warning_alone_lets_validate_pass(case: str, capsys: pytest.CaptureFixture[str],
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """Without --strict the same warnings are printed, and the game is ok (exit 0)."""
    monkeypatch.chdir(ROOT)
    capsys.readouterr()
    code = main(["validate", "--games", "0", f"tests/broken/{case}"])
    out, err = capsys.readouterr()
    strict = (CORPUS / case / "expected.txt").read_text(encoding="utf-8").splitlines(keepends=True)
    assert strict[-1].startswith("rulelang: error: ") and "--strict" in strict[-1]
    assert (code, err) == (0, "".join(strict[:-1]))
    assert out.startswith(f"ok: tests/broken/{case} ")


def test_there_is_a_warning_case_for_each_kind() -> None:
    assert len(WARNING_CASES) >= 7
