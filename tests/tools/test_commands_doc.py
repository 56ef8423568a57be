"""docs/commands.md is what the argument parser says (rewrite it with `python -m rulelang.cli.reference`)."""
from __future__ import annotations

import rulelang
from rulelang.cli import main
from rulelang.cli.reference import PAGE, reference


def test_the_committed_page_is_the_generated_one():
    assert PAGE.read_text(encoding="utf-8") == reference(), \
        "docs/commands.md drifted from the parser: run `python -m rulelang.cli.reference`"


def test_every_command_has_a_section():
    page = reference()
    for name in ("validate", "run", "test", "replay", "compile", "simulate", "sweep", "play", "mods", "new",
                 "rules", "explain"):
        assert f"\n## rulelang {name}\n" in page


def test_version(capsys):
    try:
        main(["--version"])
    except SystemExit as done:
        assert done.code == 0
    assert capsys.readouterr().out == f"rulelang {rulelang.__version__}\n"
