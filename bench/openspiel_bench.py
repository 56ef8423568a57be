"""Random playouts per second through one Python loop: the specs of examples/ against OpenSpiel's games.

Run: python bench/openspiel_bench.py [--games N] [--rounds R] [--turns T]
A measurement script, not a test (it needs the `openspiel` extra). Every game is played by the same loop
over the pyspiel API (a uniformly random legal action, a uniformly random chance outcome), side by side in
one run, each figure the best of R rounds because the machines here are shared and noisy:

- ``spec (pyspiel)``: the spec through rulelang.adapters.openspiel with sampled chance (draws from seeds);
- ``spec (explicit)``: the same with explicit chance (the default: every draw a chance node, a transition
  replayed once per draw, see rulelang/engine/chance.py; the positions of the setup and of the first moves after it
  are shared by every game of the table, see rulelang/adapters/chance_nodes.py), as OpenSpiel's own games
  present chance;
- ``spec (explicit, unshared)``: explicit chance with nothing shared between games (no setup positions and no
  moves remembered by the table): what explicit chance costs a game that meets no position twice. In a small
  game's random playouts the shared positions hold its whole tree, so ``spec (explicit)`` mostly looks them up;
- ``spec (rulelang)``: the same spec through rulelang's own API, the form play loops use (``State.waiting``
  and ``State.apply_index``, which build no ``Decision``), for the adapter's overhead;
- ``spec (in place)``: rulelang answering every decision itself where the rules ask it, without history
  (``play_out`` with a random agent): the fastest the engine plays a game of the spec at all, with no
  decision taken from outside;
- ``betting alone`` (Kuhn poker): a Python pyspiel game of Kuhn's betting and nothing else (no cards, no
  chips), the same actions a game as the spec's with sampled chance: what pyspiel's own machinery costs a
  playout, whatever the game does. From it and ``python_kuhn_poker`` the bench says how long a Kuhn game may
  take besides pyspiel's machinery to match ``python_kuhn_poker``, against what the engine takes in place;
- ``python_kuhn_poker``: OpenSpiel's pure-Python Kuhn poker;
- the C++ game of the same name (``kuhn_poker``, ``goofspiel``, ``leduc_poker``);
- ``interleaved``: the spec with sampled chance, then with explicit chance, against each rival, the two taking
  turns every few hundred playouts (``--turns``), the ratio of their whole times: steadier than the best of a
  few rounds.
"""
from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import pyspiel  # noqa: E402
from open_spiel.python.games import kuhn_poker as _python_kuhn  # noqa: E402,F401  (registers python_kuhn_poker)

import rulelang  # noqa: E402
from rulelang.adapters import chance_nodes  # noqa: E402
from rulelang.adapters.openspiel import load_game  # noqa: E402
from rulelang.agents import RandomAgent, play_out  # noqa: E402

#: Each example and the OpenSpiel games it is measured against.
PAIRS = {"kuhn_poker": ["python_kuhn_poker", "kuhn_poker"], "goofspiel": ["goofspiel"],
         "leduc_poker": ["leduc_poker"], "liars_dice": ["liars_dice"]}


def pyspiel_playouts(game, count: int, seed: int) -> float:
    """Playouts per second of a pyspiel game, random actions and random chance outcomes."""
    rng = random.Random(seed)
    choice = rng.choice
    start = time.perf_counter()
    for _ in range(count):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(choice(state.chance_outcomes())[0])
            elif state.is_simultaneous_node():
                state.apply_actions([choice(state.legal_actions(p)) for p in range(game.num_players())])
            else:
                state.apply_action(choice(state.legal_actions()))
        state.returns()
    return count / (time.perf_counter() - start)


def rulelang_playouts(game: rulelang.Game, players: int, count: int, seed: int) -> float:
    """Playouts per second of a spec through rulelang's own API, the same kind of loop."""
    rng = random.Random(seed)
    randrange = rng.randrange
    start = time.perf_counter()
    for k in range(count):
        state = game.new_state(players, seed + k)
        waiting = state.waiting()
        while waiting is not None:          # each chooser in turn, those of a secret choice too
            player, options = waiting
            state.apply_index(randrange(options), player)
            waiting = state.waiting()
        state.returns()
    return count / (time.perf_counter() - start)


def in_place_playouts(game: rulelang.Game, players: int, count: int, seed: int) -> float:
    """Playouts per second of a spec played by rulelang alone: a random agent answering every decision where
    the rules ask it, without history (the fastest form of play the engine has)."""
    agent = RandomAgent(seed)
    new_state = game.new_state
    start = time.perf_counter()
    for k in range(count):
        play_out(new_state(players, seed + k, history=False), agent).returns()
    return count / (time.perf_counter() - start)


#: Kuhn poker's betting (0 pass, 1 bet), as the histories that end it: two passes, or a bet and an answer.
_BETTING_OVER = {(0, 0), (0, 1, 0), (0, 1, 1), (1, 0), (1, 1)}


class KuhnBettingState(pyspiel.State):
    """Kuhn poker's betting and nothing else: who bets in turn, until the betting is over."""

    def __init__(self, game):
        super().__init__(game)
        self.bets = ()

    def current_player(self) -> int:
        return pyspiel.PlayerId.TERMINAL if self.bets in _BETTING_OVER else len(self.bets) % 2

    def is_terminal(self) -> bool:
        return self.bets in _BETTING_OVER

    def is_chance_node(self) -> bool:
        return False

    def is_simultaneous_node(self) -> bool:
        return False

    def legal_actions(self, player=None) -> list[int]:     # answered in Python, as the adapter answers it
        return [] if self.bets in _BETTING_OVER else [0, 1]

    def _legal_actions(self, player: int) -> list[int]:
        return self.legal_actions(player)

    def _action_to_string(self, player: int, action: int) -> str:
        return "bet" if action else "pass"

    def __str__(self) -> str:
        return " ".join("bet" if action else "pass" for action in self.bets)

    def _apply_action(self, action: int) -> None:
        self.bets += (action,)

    def returns(self) -> list[float]:
        return [0.0, 0.0]


class KuhnBettingGame(pyspiel.Game):
    """The game of ``KuhnBettingState``: pyspiel's own cost of a Kuhn playout (see the module's docstring)."""

    game_type = pyspiel.GameType(
        short_name="bench_kuhn_betting", long_name="Kuhn poker's betting alone (bench)",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC,
        information=pyspiel.GameType.Information.PERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM, reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=2, min_num_players=2, provides_information_state_string=False,
        provides_information_state_tensor=False, provides_observation_string=False,
        provides_observation_tensor=False, provides_factored_observation_string=False, parameter_specification={})

    def __init__(self, params=None):
        info = pyspiel.GameInfo(num_distinct_actions=2, max_chance_outcomes=0, num_players=2, min_utility=-1.0,
                                max_utility=1.0, utility_sum=0.0, max_game_length=3)
        super().__init__(self.game_type, info, params or {})

    def new_initial_state(self) -> KuhnBettingState:
        return KuhnBettingState(self)


pyspiel.register_game(KuhnBettingGame.game_type, KuhnBettingGame)

#: Each example's game of its actions alone, for pyspiel's own cost.
FLOORS = {"kuhn_poker": KuhnBettingGame}


def interleaved(ours, theirs, count: int, turns: int) -> float:
    """How many times faster ``ours`` plays than ``theirs`` (two pyspiel games), the two taking turns ``turns``
    times with ``count`` playouts each: a load that comes and goes within a second falls on both alike, where
    the best of a few rounds of each lets one quiet moment decide."""
    mine = other = 0.0
    for k in range(turns):
        mine += count / pyspiel_playouts(ours, count, k)
        other += count / pyspiel_playouts(theirs, count, k)
    return other / mine


def best_of(rounds: int, measure) -> float:
    return max(measure(r) for r in range(rounds))


def unshared_playouts(path: Path, count: int, seed: int) -> float:
    """``pyspiel_playouts`` of explicit chance with nothing shared between games (see the module's docstring)."""
    kept = chance_nodes.SETUP_POSITIONS, chance_nodes.TREE_MOVES
    chance_nodes.SETUP_POSITIONS = chance_nodes.TREE_MOVES = 0
    try:
        return pyspiel_playouts(load_game(path, chance="explicit"), count, seed)
    finally:
        chance_nodes.SETUP_POSITIONS, chance_nodes.TREE_MOVES = kept


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000, help="playouts per measurement")
    parser.add_argument("--rounds", type=int, default=3, help="measurements per figure; the best is kept")
    parser.add_argument("--turns", type=int, default=50,
                        help="turns of the interleaved figures (each chance mode against each rival; 0: none)")
    args = parser.parse_args(argv)
    print(f"random playouts per second, best of {args.rounds} x {args.games} (python {sys.version.split()[0]}, "
          f"open_spiel {getattr(pyspiel, '__version__', '?')})")
    for example, rivals in PAIRS.items():
        path = ROOT / "examples" / example
        adapted = load_game(path, chance="sampled")
        explicit_game = load_game(path, chance="explicit")
        spec = best_of(args.rounds, lambda r: pyspiel_playouts(adapted, args.games, r))
        explicit = best_of(args.rounds, lambda r: pyspiel_playouts(explicit_game, args.games, r))
        unshared = best_of(args.rounds, lambda r: unshared_playouts(path, args.games, r))
        native = best_of(args.rounds, lambda r: rulelang_playouts(adapted.spec.game, adapted.num_players(),
                                                                   args.games, r))
        in_place = best_of(args.rounds, lambda r: in_place_playouts(adapted.spec.game, adapted.num_players(),
                                                                    args.games, r))
        print(f"{example:12s} spec (pyspiel)   {spec:10.0f}/s")
        print(f"{'':12s} spec (explicit)  {explicit:10.0f}/s   {explicit / spec:.2f}x of sampled")
        print(f"{'':12s} spec (unshared)  {unshared:10.0f}/s   explicit chance, no position shared between games")
        print(f"{'':12s} spec (rulelang)  {native:10.0f}/s")
        print(f"{'':12s} spec (in place)  {in_place:10.0f}/s   every decision answered by rulelang itself, no history")
        floor = None
        if example in FLOORS:
            floor = best_of(args.rounds, lambda r: pyspiel_playouts(FLOORS[example](), args.games, r))
            print(f"{'':12s} {'betting alone':16s} {floor:10.0f}/s   its actions and nothing else: pyspiel's own cost")
        for rival in rivals:
            theirs = best_of(args.rounds, lambda r: pyspiel_playouts(pyspiel.load_game(rival), args.games, r))
            print(f"{'':12s} {rival:16s} {theirs:10.0f}/s   spec (pyspiel) is {spec / theirs:.2f}x, "
                  f"spec (explicit) {explicit / theirs:.2f}x, unshared {unshared / theirs:.2f}x, "
                  f"spec (rulelang) {native / theirs:.2f}x")
            if floor is not None and rival.startswith("python_"):
                spare = 1e6 / theirs - 1e6 / floor
                print(f"{'':12s} {'':16s} to match it a game may take {spare:.1f} us besides pyspiel's own; "
                      f"in place the engine takes {1e6 / in_place:.1f} us ({1e6 / in_place / spare:.2f}x that)")
            if args.turns:
                each = max(1, args.games // 10)
                paired = interleaved(adapted, pyspiel.load_game(rival), each, args.turns)
                paired_explicit = interleaved(explicit_game, pyspiel.load_game(rival), each, args.turns)
                print(f"{'':12s} {'':16s} interleaved, {args.turns} turns of {each} playouts each: "
                      f"spec (pyspiel) is {paired:.2f}x, spec (explicit) {paired_explicit:.2f}x")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
