"""The `run` command: play one game with random agents, save its log, tell its play-by-play.

Whatever stops a game (its end, a rule error, an interrupt, a crash), ``play`` keeps the state as far as
it went in a ``Played``, and ``finish_run`` saves the log first (it is what lasts), then prints the
play-by-play, the JSON summary and the outcome with its exit code.
"""
from __future__ import annotations

import argparse
import json
import sys
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from rulelang.cli.errors import internal_error, missing_path, say
from rulelang.errors import RulelangError, UsageError
from rulelang.printable import counted, printable

if TYPE_CHECKING:
    from rulelang.engine.state import State


def cmd_run(args: argparse.Namespace) -> int:
    from rulelang import load_game
    from rulelang.logs.logfile import LogFile, LogPathError

    missing = missing_path(args.path)
    if missing:
        raise UsageError(missing)
    game = load_game(args.path, args.mods, args.params)
    if not game.min_players <= args.players <= game.max_players:
        raise UsageError(f"{game.name} is for {game.min_players} to {game.max_players} players, not {args.players}")
    args.as_player = _seat_arg(args.as_player, args.players)
    agents = _agents_arg(game, getattr(args, "agents", None), args.players)
    log = None
    if args.log:
        try:                        # a log that cannot be written is refused before anything is played
            log = LogFile(args.log)
        except LogPathError as error:
            raise UsageError(f"cannot write the log {args.log}: {error}") from None
    try:
        played = play(game, args.players, args.seed, agents)
        return finish_run(game, args, played, log)
    finally:
        if log is not None:
            log.discard_unsaved()


def _agents_arg(game, text: str | None, players: int) -> tuple[str, ...] | None:
    """`--agents A,B,...` -> one agent name per seat (checked as simulate checks them), or None."""
    if text is None:
        return None
    from rulelang.agents.policy import check_policies
    from rulelang.lab.simulate import seat_agents
    try:
        agents = seat_agents(text, players)
    except ValueError as error:
        raise UsageError(str(error)) from None
    check_policies(game, agents)
    return agents


def _seat_arg(text: str | None, players: int) -> int | None:
    """`--as P2` -> seat 1; a name that is not a seat of this game is a usage error."""
    if text is None:
        return None
    from rulelang.engine.names import seat_of
    seat = seat_of(text.strip().upper())
    if seat is None or not 0 <= seat < players:
        raise UsageError(f"--as takes a player of this game, P1 to P{players}, not '{text}'")
    return seat


@dataclass
class Played:
    """A game played as far as it went: to its end, a rule error, an interrupt or a crash."""

    state: State | None = None
    scores_by_turn: dict[int, list[int]] = field(default_factory=dict)
    error: RulelangError | None = None      # a rule error: located, exit 1
    crash: BaseException | None = None      # rulelang itself (or memory) failed: exit 3
    interrupted: bool = False               # SIGINT: exit 130

    @property
    def events(self) -> list[dict]:
        return self.state.events if self.state is not None else []

    @property
    def finished(self) -> bool:
        return self.state is not None and self.error is None and self.crash is None and not self.interrupted


def play(game, players: int, seed: int, agents: tuple[str, ...] | None = None) -> Played:
    """Play one game with random agents (or ``agents``, seeded as a batch seeds them); whatever stops it,
    keep the state as far as it got."""
    from rulelang.agents import RandomAgent, play_out
    from rulelang.lab.simulate import seated_agents

    played = Played()

    def watch(st: State, step: str) -> None:
        """Keep the state from the first step (an interrupt in setup leaves no other handle on it)
        and note each turn's opening scores for the play-by-play (scores are derived, not events)."""
        played.state = st
        if game.score is not None and st.turn not in played.scores_by_turn:
            played.scores_by_turn[st.turn] = st.scores()

    try:
        played.state = game.new_state(players, seed, observer=watch)
        play_out(played.state, RandomAgent(seed) if agents is None else seated_agents(agents, seed))
    except RulelangError as error:
        played.error = error
        played.state = getattr(error, "state", None) or played.state
    except KeyboardInterrupt:
        played.interrupted = True
    except Exception as error:  # noqa: BLE001 - MemoryError, RecursionError, a bug: the log is still kept
        played.crash = error
        played.state = getattr(error, "state", None) or played.state
    return played


def _told_to(game, events: list[dict], seat: int | None) -> list[dict]:
    """The events the play-by-play tells: all of them, or those ``seat`` would see (rulelang.engine.views)."""
    if seat is None:
        return events
    from rulelang.engine.views import events_for
    return events_for(game, events, seat)


def finish_run(game, args: argparse.Namespace, played: Played, log) -> int:
    """Save the log first (it is what lasts), then print the play-by-play, the summary and the outcome."""
    from rulelang.logs.logfile import LogIncomplete
    from rulelang.logs.narrate import Narrator

    events = played.events
    log_problem = None
    if log is not None:
        try:
            log.save(events)
        except LogIncomplete as error:
            log_problem = (f"cannot write all of the log {args.log}: {error.reason}; it holds the first "
                           f"{error.written} of the {counted(len(events), 'event')}")
    if not args.quiet:
        narrator = Narrator(game, played.scores_by_turn)
        for event in _told_to(game, events, getattr(args, "as_player", None)):
            line = narrator.line(event)
            if line is not None:
                print(line)
    if args.json and played.finished:
        print(json.dumps(summary(played.state), sort_keys=True))
    sys.stdout.flush()
    saved = log is not None and log_problem is None
    code = 0
    if played.error is not None:
        report_game_error(played, args, saved)
        code = 1
    if log_problem:
        say(lambda: printable(f"rulelang: error: {log_problem}"))
        code = 1
    if played.interrupted:
        kept = f"; {log_kept(args, events, 'the interrupt')}" if saved else ""
        say(lambda: printable(f"rulelang: interrupted{kept}"))
        return 130
    if played.crash is not None:
        note = "\n" + printable(f"note: {log_kept(args, events, 'it')}") if saved else ""
        say(lambda: internal_error(played.crash) + note)
        return 3
    return code


def log_kept(args: argparse.Namespace, events: list[dict], upto: str) -> str:
    return f"the event log up to {upto} ({counted(len(events), 'event')}) is in {args.log}"


def report_game_error(played: Played, args: argparse.Namespace, saved: bool) -> None:
    error, state = played.error, played.state
    if "seed" not in (error.hint or ""):
        turn = f", turn {state.turn}" if state is not None else ""
        error.notes.append(f"seed {args.seed}{turn}")
    if saved:
        error.notes.append(log_kept(args, played.events, "the error"))
    prefix = "" if error.span is not None else printable(f"{args.path}: ")
    print(prefix + error.format(), file=sys.stderr)


def summary(state) -> dict:
    team = state.winning_team()
    found = {"game": state.game.name, "seed": state.seed, "players": state.n,
             "winners": [team] if team else state.winner_names(), "winning_players": state.winner_names(),
             "team": team, "turns": state.turn, "result": state.result, "events": len(state.events),
             "scores": state.scores()}
    if state.game.returns is not None and state.over:
        found["returns"] = state.returns()
    return found
