"""Batches of games with random agents: the smoke test of `validate`, and the bench."""
from __future__ import annotations

from dataclasses import dataclass

from .agents import RandomAgent, play_out
from .engine import Game, State
from .errors import RulelangError

MAX_DECISIONS = 100_000


@dataclass
class Outcome:
    seed: int
    players: int
    state: State | None
    problem: str | None


def play_random(game: Game, players: int, seed: int) -> Outcome:
    """One game with random agents; a problem names what went wrong, with the seed."""
    state = None
    try:
        state = game.new_state(players, seed)
        agent = RandomAgent(seed)
        for _ in range(MAX_DECISIONS):
            pend = state.pending
            if state.over or pend is None:
                break
            for i, p in enumerate(pend["players"]):
                if pend["chosen"][i] is None:
                    if not pend["options"][i]:
                        return Outcome(seed, players, state,
                                       f"{players} players, seed {seed}: P{p + 1} must choose but has no legal option")
                    state.apply(agent.choose(state, p), p)
                    break
        else:
            return Outcome(seed, players, state,
                           f"{players} players, seed {seed}: no end after {MAX_DECISIONS} decisions")
        if not state.over:
            return Outcome(seed, players, state, f"{players} players, seed {seed}: the game is stuck, "
                                                 "waiting for nothing")
    except RulelangError as error:
        where = f" at {error.span}" if error.span else ""
        return Outcome(seed, players, state, f"{players} players, seed {seed}: {error.message}{where}")
    return Outcome(seed, players, state, None)


def smoke_test(game: Game, games: int, first_seed: int = 0) -> list[str]:
    """Play ``games`` random games at every player count; list the problems found."""
    problems = []
    for players in range(game.min_players, game.max_players + 1):
        for seed in range(first_seed, first_seed + games):
            outcome = play_random(game, players, seed)
            if outcome.problem:
                problems.append(outcome.problem)
                break
    return problems


def random_games(game: Game, players: int, seeds: range) -> list[State]:
    """Finished states of random games (raises on any rule error)."""
    out = []
    for seed in seeds:
        state = game.new_state(players, seed)
        play_out(state, RandomAgent(seed))
        out.append(state)
    return out
