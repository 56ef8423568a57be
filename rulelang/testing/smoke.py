"""The smoke test of `rulelang validate` (and the bench): batches of games with random agents.

It turns every way a random game can go wrong (a rule error, a decision nobody can take, a game that is
stuck or never ends) into a located error that names the seed, so the designer can replay it with
`rulelang run`.
"""
from __future__ import annotations

import shlex
import time
from dataclasses import dataclass, field

from rulelang.agents import RandomAgent, play_out
from rulelang.engine.game import Game
from rulelang.engine.interpreter import current_span
from rulelang.engine.limits import MAX_DECISIONS, DecisionLimit
from rulelang.engine.state import State
from rulelang.errors import RuleError, RulelangError, Span
from rulelang.printable import counted

SMOKE_SECONDS = 5.0             # wall-clock seconds of `validate`'s random games at each player count, by default


@dataclass
class Outcome:
    seed: int
    players: int
    state: State | None
    problem: str | None
    error: RulelangError | None = None


def play_random(game: Game, players: int, seed: int) -> Outcome:
    """One game with random agents; a problem names what went wrong, with the seed."""
    state = None
    try:
        state = game.new_state(players, seed, before_first_turn=True)     # played in place from the start (play_new)
        play_out(state, RandomAgent(seed), MAX_DECISIONS)
        if not state.over:
            return _problem(game, players, seed, state, RuleError(
                "the game is stuck: it is not over and waits for no decision"))
    except DecisionLimit as error:
        return _problem(game, players, seed, state, RuleError(
            error.message, _first_end_span(game), "check that an end condition can hold, and that 'check end' runs"))
    except RulelangError as error:
        return _problem(game, players, seed, state, error)
    except Exception as error:  # noqa: BLE001 - a bug of rulelang; report it with the seed to replay it
        return _problem(game, players, seed, state, RuleError(
            f"rulelang failed while playing ({type(error).__name__}: {error})",
            hint="this is a bug in rulelang itself; please report it with the replay command"))
    return Outcome(seed, players, state, None)


def _problem(game: Game, players: int, seed: int, state: State | None, error: RulelangError) -> Outcome:
    """An Outcome whose error is located (at the instruction running, if it has no place) and says how to replay."""
    if error.span is None and state is not None:
        error.span = current_span(state)
    where = f", turn {state.turn}" if state is not None else ""
    error.notes = list(getattr(error, "notes", [])) + [
        f"found by a random game with {counted(players, 'player')}, seed {seed}{where}; replay it with: "
        f"{run_command(game, players, seed)}"]
    return Outcome(seed, players, state, f"{counted(players, 'player')}, seed {seed}: {error.message}", error)


def run_command(game: Game, players: int, seed: int) -> str:
    """The `rulelang run` that plays this game again: its mods and param values too, quoted for a shell."""
    words = ["rulelang", "run", str(game.path), "--players", str(players), "--seed", str(seed)]
    for mod in game.mod_paths:
        words += ["--mod", mod]
    for name, value in game.params.items():
        words += ["--param", f"{name}={str(value).lower() if isinstance(value, bool) else value}"]
    return shlex.join(words)


def _first_end_span(game: Game) -> Span | None:
    return game.end[0].span if game.end else None


@dataclass
class Smoke:
    """What a smoke test found: the faults, and how many of its games were played before its time ran out."""

    problems: list[RulelangError]
    played: int = 0
    planned: int = 0
    #: the player counts whose games stopped at the time limit
    cut_short: list[int] = field(default_factory=list)


def smoke_test(game: Game, games: int, first_seed: int = 0, seconds: float | None = None) -> Smoke:
    """Play ``games`` random games at every player count; a located error for each fault found.

    Each player count's games stop once they have taken ``seconds`` of wall-clock time (a game itself is
    bounded by the game's budgets), so a game whose every play is slow cannot hold `validate` for hours.
    """
    smoke = Smoke([], planned=games * (game.max_players - game.min_players + 1))
    seen: set[tuple] = set()
    for players in range(game.min_players, game.max_players + 1):
        deadline = None if seconds is None else time.monotonic() + seconds
        for seed in range(first_seed, first_seed + games):
            if deadline is not None and time.monotonic() >= deadline:
                smoke.cut_short.append(players)
                break
            error = play_random(game, players, seed).error
            smoke.played += 1
            if error is not None:
                if (error.message, error.span) not in seen:   # the same fault at another count: once is enough
                    seen.add((error.message, error.span))
                    smoke.problems.append(error)
                break
    return smoke

