"""Time to parse every rule text of each game (the parser alone: Lark, the indenter, the nodes built).

Run: python bench/parse.py [--root CHECKOUT] [--rounds N]. A measurement script, not a test: it prints
figures for the notes. ``--root`` times another checkout's rulelang on the same texts (before/after a
change). Times are CPU time of this process (``time.process_time``), best of 7, per full parse of a game.
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GAMES = ("games/flapjacks", "games/jacks_friends")


def rule_texts(parser, load_game, root: Path) -> dict[str, list[tuple[str, str]]]:
    """Every (start rule, text) the loader parses, per game, in the order it parses them."""
    texts: dict[str, list[tuple[str, str]]] = {}
    real = parser._parse
    for folder in GAMES:
        found = texts[folder] = []

        def spy(text, start, locate, found=found):
            found.append((start, text))
            return real(text, start, locate)
        parser._parse = spy
        try:
            load_game(root / folder)
        finally:
            parser._parse = real
    return texts


def main() -> None:
    options = argparse.ArgumentParser(description=__doc__)
    options.add_argument("--root", type=Path, default=ROOT, help="the checkout whose rulelang is timed")
    options.add_argument("--rounds", type=int, default=20, help="full parses per measurement")
    args = options.parse_args()
    sys.path.insert(0, str(args.root))
    from rulelang import load_game
    from rulelang.errors import Span
    from rulelang.lang import parser

    def here(line, col, end_line=None, end_col=None):
        return Span("text", line, col, end_line, end_col)
    print(f"rulelang from {Path(parser.__file__).parent}")
    for folder, items in rule_texts(parser, load_game, args.root).items():
        best = float("inf")
        for _ in range(7):
            start = time.process_time()
            for _ in range(args.rounds):
                for rule, text in items:
                    (parser.parse_block if rule == "block" else parser.parse_expression)(text, here)
            best = min(best, (time.process_time() - start) / args.rounds)
        print(f"{folder}: {len(items)} texts, {sum(len(t) for _, t in items):,} characters: "
              f"{best * 1000:.2f} ms per full parse")


if __name__ == "__main__":
    main()
