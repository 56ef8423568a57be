"""docs/tutorial.md runs as written: every file it lists and every command it shows, in order, in a fresh folder.

The page marks what it runs in the info string of its fenced blocks:

- ```` ```yaml file=PATH ```` writes the block to PATH (created, or replaced whole);
- ```` ```yaml append=PATH ```` adds the block to the end of PATH;
- ```` ```console ```` holds ``$ rulelang ...`` lines, each followed by the output it prints (stdout, then
  stderr). In the output, a line ``[...]`` stands for any lines (none included) and ``[...]`` inside a line
  for any text on it (a time taken). ``exit=N`` on the block is the exit code of each of its commands
  (default 0); ``slow`` marks a block the fast tier leaves out; ``needs=plot`` a block that needs matplotlib,
  which, where it is not installed, must then stop with the hint that installs it.

Every ``yaml`` and ``console`` block of the page carries one of these marks, so no listing escapes the test.
"""
from __future__ import annotations

import re
import shlex
import sys
from dataclasses import dataclass, field
from importlib.util import find_spec
from pathlib import Path

import pytest

from rulelang.cli import main

PAGE = Path(__file__).resolve().parents[2] / "docs" / "tutorial.md"
FENCE = re.compile(r"^```(\w+)([^\n]*)\n(.*?)^```$", re.M | re.S)
ANY_LINES = "[...]"


@dataclass
class Block:
    kind: str                      # yaml or console
    marks: dict[str, str]          # file=PATH, append=PATH, exit=N, slow, needs=plot
    text: str
    line: int                      # where the block starts on the page, for failures

    @property
    def slow(self) -> bool:
        return "slow" in self.marks


@dataclass
class Command:
    args: list[str]
    expected: list[str] = field(default_factory=list)


def page_blocks(text: str) -> list[Block]:
    """The page's yaml and console blocks in order, with the marks of their info strings."""
    blocks = []
    for match in FENCE.finditer(text):
        kind, info, body = match.group(1), match.group(2).split(), match.group(3)
        if kind not in ("yaml", "console"):
            continue
        marks = dict(word.partition("=")[::2] for word in info)
        blocks.append(Block(kind, marks, body, text.count("\n", 0, match.start()) + 1))
    return blocks


def commands_of(block: Block) -> list[Command]:
    """The ``$ rulelang ...`` lines of a console block, each with the output lines under it."""
    commands: list[Command] = []
    for line in block.text.splitlines():
        if line.startswith("$ "):
            words = shlex.split(line[2:])
            assert words[0] == "rulelang", f"docs/tutorial.md:{block.line}: only rulelang commands run: {line}"
            commands.append(Command(words[1:]))
        else:
            assert commands, f"docs/tutorial.md:{block.line}: output before any command"
            commands[-1].expected.append(line)
    return commands


def output_matches(expected: list[str], actual: list[str]) -> bool:
    """Line by line, where a line ``[...]`` is any lines and ``[...]`` in a line any text."""
    pattern = "".join(r"(?:.*\n)*?" if line == ANY_LINES else
                      ".*?".join(map(re.escape, line.split(ANY_LINES))) + r"\n" for line in expected)
    return re.fullmatch(pattern, "".join(line + "\n" for line in actual)) is not None


def run_command(command: Command, block: Block, capsys: pytest.CaptureFixture[str]) -> None:
    capsys.readouterr()
    code = main(command.args)
    out, err = capsys.readouterr()
    where = f"docs/tutorial.md:{block.line}: $ rulelang {shlex.join(command.args)}"
    if block.marks.get("needs") == "plot" and find_spec("matplotlib") is None:
        assert code == 2 and "pip install 'rulelang[plot]'" in err, f"{where}\n{out}{err}"
        return
    assert code == int(block.marks.get("exit", "0")), f"{where}: exit {code}\n{out}{err}"
    actual = (out + err).splitlines()
    if block.marks.get("needs") == "plot":
        assert Path(command.args[command.args.index("--plot") + 1]).is_file(), where
    assert output_matches(command.expected, actual), (
        f"{where}: the output differs from the page\n--- the page\n" + "\n".join(command.expected)
        + "\n--- the command\n" + "\n".join(actual))


def follow_the_page(folder: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
                    with_slow: bool) -> int:
    """Write the page's files and run its commands in ``folder``; the number of commands run."""
    monkeypatch.chdir(folder)
    ran = 0
    for block in page_blocks(PAGE.read_text(encoding="utf-8")):
        if block.kind == "yaml":
            _write(folder, block)
        elif with_slow or not block.slow:
            for command in commands_of(block):
                run_command(command, block, capsys)
                ran += 1
    return ran


def _write(folder: Path, block: Block) -> None:
    path = block.marks.get("file") or block.marks.get("append")
    assert path, f"docs/tutorial.md:{block.line}: a yaml block names its file (file=PATH or append=PATH)"
    target = folder / path
    target.parent.mkdir(parents=True, exist_ok=True)
    with open(target, "a" if "append" in block.marks else "w", encoding="utf-8") as out:
        out.write(block.text)


def test_the_tutorial_runs_as_written(tmp_path, capsys, monkeypatch):
    assert follow_the_page(tmp_path, capsys, monkeypatch, with_slow=False) >= 15


@pytest.mark.slow
def test_the_tutorial_runs_as_written_with_its_slow_commands(tmp_path, capsys, monkeypatch):
    assert follow_the_page(tmp_path, capsys, monkeypatch, with_slow=True) >= 16


def test_every_listing_of_the_page_is_run():
    """A yaml block without a file, or a console block holding anything but rulelang commands, would go
    unchecked: the page has none."""
    blocks = page_blocks(PAGE.read_text(encoding="utf-8"))
    assert {b.kind for b in blocks} == {"yaml", "console"}
    for block in blocks:
        if block.kind == "yaml":
            assert "file" in block.marks or "append" in block.marks, f"docs/tutorial.md:{block.line}"
        else:
            assert commands_of(block), f"docs/tutorial.md:{block.line}"
    fences = re.findall(r"^```(\w*)", PAGE.read_text(encoding="utf-8"), re.M)
    assert set(fences) <= {"yaml", "console", "text", ""}, fences


def test_the_matching_of_outputs_fails_on_a_drift():
    """The comparison itself: an elision stands for what varies, and nothing else is let through."""
    assert output_matches(["ok: game (0.[...]s)"], ["ok: game (0.21s)"])
    assert output_matches(["a", ANY_LINES, "z"], ["a", "b", "c", "z"])
    assert output_matches(["a", ANY_LINES, "z"], ["a", "z"])
    assert not output_matches(["a", "z"], ["a", "b", "z"])
    assert not output_matches(["ok: game (0.[...]s)"], ["ok: other (0.21s)"])
    assert not output_matches(["a", ANY_LINES], ["b", "a"])
    assert not output_matches(["a"], ["a", "b"])


def test_a_changed_listing_makes_a_command_fail(tmp_path, capsys, monkeypatch):
    """Drift in a spec shows: the page's commands run on a game with a thirteenth cockle no longer
    print what the page shows."""
    text = PAGE.read_text(encoding="utf-8").replace("{id: cockle, name: Cockle, count: 12,", "{id: cockle, name: Cockle, count: 13,", 1)
    assert text != PAGE.read_text(encoding="utf-8")
    monkeypatch.setattr(sys.modules[__name__], "PAGE", _page_copy(tmp_path, text))
    with pytest.raises(AssertionError, match="run tide_pool --players 2 --seed 3: the output differs"):
        follow_the_page(tmp_path / "work", capsys, monkeypatch, with_slow=False)


def _page_copy(tmp_path: Path, text: str) -> Path:
    copy = tmp_path / "tutorial.md"
    copy.write_text(text, encoding="utf-8")
    (tmp_path / "work").mkdir()
    return copy
