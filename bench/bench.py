"""Speed of rulelang: random-agent games per second, the time to validate, and the ratio to hand-written code.

Run: python bench/bench.py [--games N] [--only jacks_friends|flapjacks] [--baselines DIR]
This is a measurement script, not a test: it prints figures for the notes.

Speed goals are ratios against the hand-written simulators of ``shared/baselines/`` (beside this
checkout by default), run in the same run, because the machines here are shared and noisy: each round
plays rulelang's games and then one run of the simulator, so a load that comes and goes falls on both
sides alike. A figure is the best of each side over the rounds, with the median of the rounds' own
ratios beside it. Where the simulators are missing, only rulelang's own figures are printed.

The load here comes and goes within a second, and a run of the simulator in a process of its own is over
in a tenth of one, so one quiet moment sets its best. A second figure, ``interleaved``, is steadier: the
simulator's own game function is loaded into this process and both sides take turns every few games (the
same count for each, about 50 ms of rulelang's games), hundreds of times, so a moment's load falls on both
alike; the ratio is of their whole times, with the middle half of the turns' own ratios beside it.

With ``--policies``, Jack's Friends is played instead by the designer's fixed policies
(games/jacks_friends/policies: the giant's on P1, the townsfolk's on the others) against the hand-written
simulator playing the same policies (its default), on two paths: in this process as `rulelang simulate`
plays a batch (``run_batch``: agents made per game, no history), interleaved with the simulator's own game
function a few games at a time; and the `rulelang simulate` command itself in a process of its own, its
batch's rate being (N - 1) games over the time it takes beyond a one-game run (its start-up), beside one run
of the simulator in a process of its own. Each figure is the median of the rounds, with the load average.
These figures count CPU seconds (of this process, or of the finished command), not wall seconds: on a
machine loaded by other work a process may get a tenth of a core one second and all of it the next, which
moves wall time tenfold and CPU time little.
``--checkout DIR`` measures the rulelang of another checkout (an older commit, for a before-and-after).

rulelang's games are played as `rulelang simulate` plays random games: without their history
(``Game.new_state(history=False)``: the log keeps the start, the choices, the cards played and the rare
events, all a replay needs, and no record of each step, change, move and roll). The interleaved figure is
also given for games that keep their whole history, as `run`, the scenarios and the adapters play them.
"""
from __future__ import annotations

import argparse
import importlib.util
import os
import random
import resource
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parent.parent
#: the checkout whose rulelang is measured: this one, or ``--checkout DIR`` (read before rulelang is imported)
CHECKOUT = Path(sys.argv[sys.argv.index("--checkout") + 1]).resolve() if "--checkout" in sys.argv[:-1] else ROOT
sys.path.insert(0, str(CHECKOUT))

import rulelang  # noqa: E402
from rulelang.agents import RandomAgent, play_new  # noqa: E402

GAMES = {"jacks_friends": (2, 4, 6), "flapjacks": (2, 4, 8)}
#: The hand-written simulator of each game, and its arguments after PLAYERS GAMES SEED (uniform random play).
BASELINES = {"jacks_friends": ("jf_handwritten.py", ["--random"]), "flapjacks": ("fs_handwritten.py", [])}
#: The simulator's function that plays one game, called as its own main loop calls it (players, rng, extras).
GAME_FUNCTIONS = {"jacks_friends": ("play", (True,)), "flapjacks": ("play_game", ())}
#: Games of each side per turn of the interleaved figure, aimed at about 50 ms of rulelang's games.
INTERLEAVED_CHUNK = {"jacks_friends": 200, "flapjacks": 16}


def games_per_second(game, players: int, count: int, history: bool = False) -> tuple[float, float, float]:
    """(games/s, mean turns, player turns/s) over seeds 0..count-1, played as `rulelang simulate` plays
    random games (without their history, unless ``history``).

    One random agent plays every game of the run, as the hand-written simulators draw every game from one
    ``random.Random``: a new agent per game would add the seeding of a Mersenne Twister (about 4 us, 3% of a
    game of Jack's Friends) to rulelang's side alone. Each game still starts from its own seed.
    """
    turns = 0
    agent = RandomAgent(0)
    start = time.perf_counter()
    for seed in range(count):
        state = play_new(game, players, seed, agent, history=history)
        turns += state.turn
    took = time.perf_counter() - start
    return count / took, turns / count, turns / took


def baseline_rate(folder: Path | None, name: str, players: int, count: int) -> float | None:
    """Games per second of one run of the hand-written simulator, or None when it is not there."""
    if folder is None:
        return None
    script, extra = BASELINES[name]
    if not (folder / script).is_file():
        return None
    done = subprocess.run([sys.executable, script, str(players), str(count), "0", *extra], cwd=folder,
                          capture_output=True, text=True, check=True)
    fields = dict(part.split("=", 1) for part in done.stdout.split() if "=" in part)
    return float(fields["games_per_s"])


def simulator_game(folder: Path | None, name: str) -> Callable[[int, random.Random], object] | None:
    """The hand-written simulator's one-game function, loaded into this process, or None when it is not there."""
    if folder is None or not (folder / BASELINES[name][0]).is_file():
        return None
    found = importlib.util.spec_from_file_location(f"_baseline_{name}", folder / BASELINES[name][0])
    module: ModuleType = importlib.util.module_from_spec(found)
    found.loader.exec_module(module)
    function, extras = GAME_FUNCTIONS[name]
    play = getattr(module, function)
    return lambda players, rng: play(players, rng, *extras)


def interleaved(game, play, players: int, chunk: int, turns: int) -> dict[bool, tuple[float, float, float]]:
    """For rulelang's games without history (False) and with it (True): (ratio of whole times, first and third
    quartile of the turns' own ratios). Each turn plays ``chunk`` games of each, then as many of the
    simulator, ``turns`` times; rulelang's seeds go on from turn to turn, the simulator draws every game from
    one ``random.Random`` as its main loop does."""
    agent, rng, clock = RandomAgent(0), random.Random(0), time.perf_counter
    ours, theirs = {False: 0.0, True: 0.0}, 0.0
    ratios: dict[bool, list[float]] = {False: [], True: []}
    for k in range(turns):
        took = {}
        for history in (False, True):
            start = clock()
            for seed in range(k * chunk, (k + 1) * chunk):
                play_new(game, players, seed, agent, history=history)
            took[history] = clock() - start
        start = clock()
        for _ in range(chunk):
            play(players, rng)
        hand = clock() - start
        theirs += hand
        for history, spent in took.items():
            ours[history] += spent
            ratios[history].append(spent / hand)
    figures = {}
    for history in (False, True):
        low, _, high = statistics.quantiles(ratios[history], n=4)
        figures[history] = (ours[history] / theirs, low, high)
    return figures


def policy_names(players: int) -> tuple[str, ...]:
    """The designer's policies, seat by seat: the giant's on P1, the townsfolk's on the others."""
    folder = ROOT / "games" / "jacks_friends" / "policies"
    return (f"policy:{folder / 'giant.yaml'}",) + (f"policy:{folder / 'townsfolk.yaml'}",) * (players - 1)


def policies_in_process(game, play, players: int, chunk: int, rounds: int) -> tuple[list[float], list[float]]:
    """(rulelang's games per CPU second, the simulator's) of each round: ``chunk`` games of a `rulelang simulate`
    batch with the designer's policies (``run_batch``, one worker), then as many of the simulator's."""
    from rulelang.lab.simulate import Batch, run_batch
    ours, theirs, rng, clock = [], [], random.Random(0), time.process_time
    path = str(ROOT / "games" / "jacks_friends")
    for k in range(rounds):
        batch = Batch(path, players, chunk, k, policy_names(players))
        start = clock()
        run_batch(game, batch)
        ours.append(chunk / (clock() - start))
        start = clock()
        for _ in range(chunk):
            play(players, rng)
        theirs.append(chunk / (clock() - start))
    return ours, theirs


def child_cpu() -> float:
    """CPU seconds of the finished child processes of this one."""
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def simulate_command_time(players: int, games: int, seed: int) -> float:
    """CPU seconds of the whole `rulelang simulate` command with the designer's policies."""
    start = child_cpu()
    subprocess.run([sys.executable, "-m", "rulelang", "simulate", str(ROOT / "games" / "jacks_friends"), "--players",
                    str(players), "--games", str(games), "--seed", str(seed), "--agents", ",".join(policy_names(players))],
                   check=True, stdout=subprocess.DEVNULL, cwd=CHECKOUT, env={**os.environ, "PYTHONPATH": str(CHECKOUT)})
    return child_cpu() - start


def baseline_command_time(baselines: Path, players: int, games: int, seed: int) -> float:
    """CPU seconds of one run of the hand-written simulator with its policies, in a process of its own."""
    start = child_cpu()
    subprocess.run([sys.executable, BASELINES["jacks_friends"][0], str(players), str(games), str(seed)],
                   cwd=baselines, stdout=subprocess.DEVNULL, check=True)
    return child_cpu() - start


def policies_on_the_command(baselines: Path | None, players: int, games: int, rounds: int
                            ) -> tuple[list[float], list[float]]:
    """(rulelang simulate's games per CPU second, the simulator's) of each round, each in a process of its own: a
    batch's rate is (games - 1) over its CPU time beyond a one-game run (start-up, load, report)."""
    ours, theirs = [], []
    for k in range(rounds):
        whole, alone = simulate_command_time(players, games, k), simulate_command_time(players, 1, k)
        ours.append((games - 1) / max(whole - alone, 1e-9))
        if baselines is not None:
            whole = baseline_command_time(baselines, players, games * 4, k)
            theirs.append((games * 4 - 1) / max(whole - baseline_command_time(baselines, players, 1, k), 1e-9))
    return ours, theirs


def print_policy_figures(baselines: Path | None, args: argparse.Namespace) -> None:
    """The --policies figures: both paths, each round's ratio, medians and the load average."""
    game = rulelang.load_game(ROOT / "games" / "jacks_friends")
    print(f"Jack's Friends with the designer's policies (rulelang from {CHECKOUT}); load average "
          f"{' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    hand = simulator_game(baselines, "jacks_friends")
    for players in (2, 4, 6):
        line = f"  {players} players:"
        if hand is not None:
            play = simulator_game_with_policies(baselines)
            ours, theirs = policies_in_process(game, play, players, args.chunk, args.rounds)
            ratios = [t / o for o, t in zip(ours, theirs)]
            line += (f" in process {statistics.median(ours):6.0f} games/CPU s, hand-written "
                     f"{statistics.median(theirs):6.0f}"
                     f" games/s: x{statistics.median(ratios):.1f} the time (median of {args.rounds} interleaved rounds"
                     f" of {args.chunk})")
        ours, theirs = policies_on_the_command(baselines, players, args.games, max(3, args.rounds // 4))
        line += f";  `rulelang simulate` {statistics.median(ours):6.0f} games/CPU s"
        if theirs:
            ratios = [t / o for o, t in zip(ours, theirs)]
            line += f", hand-written {statistics.median(theirs):6.0f}: x{statistics.median(ratios):.1f} the time"
        print(line + f"  (load {os.getloadavg()[0]:.2f})")


def simulator_game_with_policies(folder: Path | None) -> Callable[[int, random.Random], object]:
    """The hand-written Jack's Friends game function with its own fixed policies (``uniform=False``)."""
    found = importlib.util.spec_from_file_location("_baseline_policies", folder / BASELINES["jacks_friends"][0])
    module: ModuleType = importlib.util.module_from_spec(found)
    found.loader.exec_module(module)
    return lambda players, rng: module.play(players, rng, False)


def validate_time(path: Path, repeats: int = 3) -> float:
    """Wall time of the whole `rulelang validate` command, best of a few runs."""
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        subprocess.run([sys.executable, "-m", "rulelang.cli", "validate", str(path)], check=True,
                       stdout=subprocess.DEVNULL, cwd=ROOT)
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=2000, help="games per player count")
    parser.add_argument("--only", choices=sorted(GAMES))
    parser.add_argument("--rounds", type=int, default=5,
                        help="rounds per player count, each rulelang's games then one run of the hand-written "
                             "simulator (interleaved: a load on the machine falls on both sides alike)")
    parser.add_argument("--baselines", type=Path, default=ROOT.parent / "shared" / "baselines",
                        help="folder of the hand-written simulators (default: shared/baselines beside the checkout)")
    parser.add_argument("--turns", type=int, default=200,
                        help="turns of the interleaved figure, each a few games of either side (0: none)")
    parser.add_argument("--policies", action="store_true",
                        help="Jack's Friends with the designer's policies, in process and on the `rulelang simulate` "
                             "path, against the hand-written simulator with its policies")
    parser.add_argument("--chunk", type=int, default=300, help="--policies: games of each side per interleaved round")
    parser.add_argument("--checkout", type=Path, default=ROOT, help="the checkout whose rulelang is measured")
    args = parser.parse_args()
    baselines = args.baselines if args.baselines.is_dir() else None
    if baselines is None:
        print(f"(no hand-written baselines in {args.baselines}: rulelang's figures only)")
    if args.policies:
        print_policy_figures(baselines, args)
        return
    for name, counts in GAMES.items():
        if args.only and name != args.only:
            continue
        path = ROOT / "games" / name
        if not (path / "game.yaml").exists():
            continue
        start = time.perf_counter()
        game = rulelang.load_game(path)
        load = time.perf_counter() - start
        print(f"{name}: load+check+compile {load * 1000:.0f} ms; "
              f"`rulelang validate` {validate_time(path):.2f} s (wall, with its smoke games)")
        play = simulator_game(baselines, name) if args.turns else None
        for players in counts:
            count = args.games if name == "jacks_friends" else max(200, args.games // 4)
            rates, hands = [], []
            for _ in range(args.rounds):        # each round: rulelang, then the hand-written simulator
                rates.append(games_per_second(game, players, count))
                hand = baseline_rate(baselines, name, players, count * 4)
                if hand is not None:
                    hands.append(hand)
            best = max(rates)
            ratio = ""
            if hands:
                paired = statistics.median(h / r[0] for h, r in zip(hands, rates))
                ratio = (f"   hand-written {max(hands):8.0f} games/s: x{max(hands) / best[0]:.1f} the time"
                         f" (x{paired:.1f} the median of the rounds)")
            print(f"  {players} players: {best[0]:8.0f} games/s   mean length {best[1]:5.1f} turns"
                  f"   {best[2]:9.0f} turns/s   (best of {args.rounds} x {count} games; median "
                  f"{statistics.median(r[0] for r in rates):.0f}){ratio}")
            if play is not None:
                figures = interleaved(game, play, players, INTERLEAVED_CHUNK[name], args.turns)
                for history, label in ((False, "interleaved in this process"), (True, "with the whole history")):
                    whole, low, high = figures[history]
                    print(f"             {label:27}, {args.turns} x {INTERLEAVED_CHUNK[name]} games each side: "
                          f"x{whole:.2f} the time (the turns' middle half x{low:.2f}-x{high:.2f})")


if __name__ == "__main__":
    main()
