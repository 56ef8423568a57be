"""Batches of games with random agents: the smoke test of `validate`, and the bench.

The smoke test turns every way a random game can go wrong (a rule error, a
decision nobody can take, a game that is stuck or never ends) into a located
error that names the seed, so the designer can replay it with `rulelang run`.
"""
from __future__ import annotations

from dataclasses import dataclass

from .agents import RandomAgent
from .engine import Game, State
from .errors import RuleError, RulelangError, Span

MAX_DECISIONS = 100_000


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
        state = game.new_state(players, seed)
        agent = RandomAgent(seed)
        for _ in range(MAX_DECISIONS):
            pend = state.pending
            if state.over or pend is None:
                break
            for i, p in enumerate(pend["players"]):
                if pend["chosen"][i] is None:
                    if not pend["options"][i]:
                        return _problem(game, players, seed, state, RuleError(
                            f"P{p + 1} must choose but has no legal option"))
                    state.apply(agent.choose(state, p), p)
                    break
        else:
            return _problem(game, players, seed, state, RuleError(
                f"the game did not end after {MAX_DECISIONS:,} decisions",
                _first_end_span(game), "check that an end condition can hold, and that 'check end' runs"))
        if not state.over:
            return _problem(game, players, seed, state, RuleError(
                "the game is stuck: it is not over and waits for no decision"))
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
        error.span = _current_span(state)
    where = f", turn {state.turn}" if state is not None else ""
    error.notes = list(getattr(error, "notes", [])) + [
        f"found by a random game with {players} players, seed {seed}{where}; replay it with: "
        f"rulelang run {game.path} --players {players} --seed {seed}"]
    return Outcome(seed, players, state, f"{players} players, seed {seed}: {error.message}", error)


def _current_span(state: State) -> Span | None:
    """The spec location of the instruction the state stopped at, if it has one."""
    for frame in reversed(state.stack):
        proc = state.game.procs[frame[0]]
        if proc.spans:
            span = proc.spans[max(0, min(frame[1] - 1, len(proc.spans) - 1))]
            if span is not None:
                return span
    return None


def _first_end_span(game: Game) -> Span | None:
    return game.end[0].span if game.end else None


def smoke_test(game: Game, games: int, first_seed: int = 0) -> list[RulelangError]:
    """Play ``games`` random games at every player count; a located error for each fault found."""
    problems: list[RulelangError] = []
    seen: set[tuple] = set()
    for players in range(game.min_players, game.max_players + 1):
        for seed in range(first_seed, first_seed + games):
            error = play_random(game, players, seed).error
            if error is not None:
                if (error.message, error.span) not in seen:   # the same fault at another count: once is enough
                    seen.add((error.message, error.span))
                    problems.append(error)
                break
    return problems


def replay(game: Game, events: list[dict]) -> State:
    """Play a game again from its event log: the `started` event and every `chose` event.

    Chance comes from the seed, so the choices are all a log must keep; the
    replayed game's events equal the log's.
    """
    start = events[0]
    if start.get("type") != "started":
        raise RulelangError("an event log starts with a 'started' event")
    state = game.new_state(start["players"], start["seed"])
    names = {f"P{p + 1}": p for p in range(state.n)}
    for event in events:
        if event["type"] == "chose":
            state.apply(event["option"], names[event["player"]])
    return state
