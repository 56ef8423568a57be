"""docs/commands.md, written from the argument parser itself so that the page cannot drift from the commands.

``python -m rulelang.cli.reference`` rewrites the page; tests/tools/test_commands_doc.py fails when the committed
page differs from what this writes. Only rulelang's own words are in it (no text from a spec).
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from rulelang.cli.args import build_parser

#: Where the page lives in a checkout.
PAGE = Path(__file__).resolve().parents[2] / "docs" / "commands.md"


def reference() -> str:
    """The whole page: each command's usage line, what it does, and every option with its help."""
    parser = build_parser()
    out = ["# Command reference", "",
           "Generated from the argument parser by `python -m rulelang.cli.reference`; "
           "`tests/tools/test_commands_doc.py` fails when it drifts. Each command's page in `docs/` says more.", "",
           f"`{_usage(parser)}`", ""]
    out += _options(parser)
    for name, sub, summary in _commands(parser):
        out += [f"## rulelang {name}", "", f"{summary}", "", f"`{_usage(sub)}`", ""]
        out += _options(sub)
    return "\n".join(out).rstrip("\n") + "\n"


def _commands(parser: argparse.ArgumentParser) -> list[tuple[str, argparse.ArgumentParser, str]]:
    subs = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    helps = {choice.dest: choice.help or "" for choice in subs._choices_actions}
    return [(name, sub, helps.get(name, "")) for name, sub in subs.choices.items()]


def _usage(parser: argparse.ArgumentParser) -> str:
    formatter = argparse.HelpFormatter(parser.prog, width=10_000)
    formatter.add_usage(parser.usage, parser._actions, parser._mutually_exclusive_groups, prefix="")
    return " ".join(formatter.format_help().split())


def _options(parser: argparse.ArgumentParser) -> list[str]:
    rows = []
    for action in parser._actions:
        if isinstance(action, (argparse._HelpAction, argparse._SubParsersAction)) or action.help == argparse.SUPPRESS:
            continue
        rows.append(f"| `{_spelling(action)}` | {_help(action)} |")
    return (["| argument | what it does |", "|---|---|"] + rows + [""]) if rows else []


def _spelling(action: argparse.Action) -> str:
    metavar = action.metavar or (action.dest.upper() if action.nargs != 0 else None)
    if not action.option_strings:
        return str(metavar) + (" ..." if action.nargs in ("+", "*") else "")
    names = ", ".join(action.option_strings)
    return names if action.nargs == 0 else f"{names} {metavar}"


def _help(action: argparse.Action) -> str:
    text = (action.help or "").replace("|", "\\|")
    # argparse %-formats every help text, so "%%" is how a help says "%"
    text = text % {"default": action.default, "prog": "rulelang", "choices": action.choices}
    if action.required and action.option_strings:
        text += " (required)"
    if action.choices and not isinstance(action, argparse._SubParsersAction) and "one of" not in text:
        text += f" (one of: {', '.join(map(str, action.choices))})"
    return text


def main() -> int:
    PAGE.write_text(reference(), encoding="utf-8")
    print(f"wrote {PAGE}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
