"""Machine instructions per random game, rulelang against the hand-written simulators, counted by callgrind.

Run: python bench/machine_instructions.py [--games N] [--players P ...] [--only GAME] [--baselines DIR]
A measurement script, not a test; it needs valgrind. The machines here are shared, and a timed run moves
by 10-30% with their load, more than most changes to the engine. An instruction count hardly moves: the
same code, seeds and choices execute nearly the same instructions in every run (PYTHONHASHSEED is fixed).
Not exactly the same: objects hashed by identity sit at other addresses in each run, so their dicts and sets
collide differently; in December 2026 two runs of the same Kuhn poker loop counted 214 and 218 thousand
instructions a game. A change of a few percent shows; one of 1% needs several runs of each side. It is
not time: memory stalls are not in it, and rulelang's runs touch more memory per
instruction than the simulators' (in December 2026 cachegrind counted 5x their first-level data misses per
Flapjacks game), so its time ratio is above its instruction ratio. Use ``bench.py`` for the figures the
goals are stated in, and this for telling whether a change helps.

Each side runs twice, with no game and with N, so that starting Python and loading the game cancel out.
"""
from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))

from bench import BASELINES as GAMES  # noqa: E402  (each game's simulator and its arguments: bench.py's pairs)

#: rulelang's side: bench.py's own loop over seeds 0..count-1 with one agent, so both count the same games.
#: The run of none still loads the game and imports the bench, so that both cancel out.
RULELANG = """
import sys
sys.path[:0] = [{root!r}, {bench!r}]
import rulelang, bench
game = rulelang.load_game({path!r})
if {count}:
    bench.games_per_second(game, {players}, {count}, history={history})
"""


def collected(command: list[str], cwd: Path | None = None) -> int:
    """Instructions callgrind counts for the whole run of ``command``."""
    done = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", *command],
                          cwd=cwd, capture_output=True, text=True, env={**os.environ, "PYTHONHASHSEED": "0"})
    if done.returncode != 0:        # valgrind exits as the program did: a failed run counts nothing real
        raise SystemExit(f"{' '.join(command[:2])} ... failed (exit {done.returncode}):\n{done.stderr[-2000:]}")
    found = re.search(r"Collected : (\d+)", done.stderr)
    if found is None:
        raise SystemExit(f"callgrind gave no count:\n{done.stderr[-2000:]}")
    return int(found.group(1))


def per_game(runs: list[list[str]], count: int, cwd: Path | None = None) -> float:
    """Instructions per game: the run of ``count`` games less the run of none (two runs at once)."""
    with ThreadPoolExecutor(2) as pool:
        none, some = pool.map(lambda command: collected(command, cwd), runs)
    return (some - none) / count


def rulelang_side(game: str, players: int, count: int, history: bool = False) -> float:
    def command(n: int) -> list[str]:
        code = RULELANG.format(root=str(ROOT), bench=str(ROOT / "bench"), path=str(ROOT / "games" / game),
                               count=n, players=players, history=history)
        return [sys.executable, "-c", code]
    return per_game([command(0), command(count)], count)


def simulator_side(folder: Path, game: str, players: int, count: int) -> float:
    script, extra = GAMES[game]
    # The simulator plays at least one game (it divides by their number): one game against 1 + count.
    return per_game([[sys.executable, script, str(players), str(n), "0", *extra] for n in (1, 1 + count)],
                    count, folder)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=60, help="games per measurement (each side)")
    parser.add_argument("--players", type=int, nargs="+", default=[4])
    parser.add_argument("--only", choices=sorted(GAMES))
    parser.add_argument("--history", action="store_true",
                        help="rulelang's games keep their whole history (default: as `simulate` plays random games)")
    parser.add_argument("--baselines", type=Path, default=ROOT.parent / "shared" / "baselines",
                        help="folder of the hand-written simulators (default: shared/baselines beside the checkout)")
    args = parser.parse_args(argv)
    if shutil.which("valgrind") is None:
        print("valgrind is not installed: nothing to count")
        return 1
    for game in [args.only] if args.only else sorted(GAMES):
        for players in args.players:
            ours = rulelang_side(game, players, args.games, args.history)
            line = f"{game:14s} {players} players: rulelang {ours / 1e6:7.3f} M instructions a game"
            if (args.baselines / GAMES[game][0]).is_file():
                theirs = simulator_side(args.baselines, game, players, args.games)
                line += f", hand-written {theirs / 1e6:6.3f} M: x{ours / theirs:.2f} the instructions"
            print(line, flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
