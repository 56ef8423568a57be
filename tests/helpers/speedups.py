"""Each speed-up turned off, and the game played both ways: what ``tests/equivalence/test_speedups.py`` runs.

A speed-up is named by its flag (rulelang/engine/speedups.py). ``same_game(flag, name, players, seed)``
plays a game with every speed-up on and again with that one off, and asserts they are the same game:
the decisions offered (who, options, labels), the event log byte for byte as `rulelang run --log` writes
it, the saved game and the generator's state at the end. "No history" is the one speed-up that leaves
something out, so its check is what that feature promises instead (``same_game_without_history``).
"""
from __future__ import annotations

import functools
from collections.abc import Callable
from typing import NamedTuple

import rulelang
from rulelang.agents import RandomAgent, play_new, play_out
from rulelang.engine.records import cards_played, first_seat
from rulelang.engine.speedups import ALL_ON, SWITCHES
from rulelang.logs.logfile import event_line
from rulelang.logs.replay import play_again

from .games import shipped
from golden.record import GAMES as GOLDEN

#: The games every flag is played on in the fast tier: both games of games/ and the examples with scenarios.
GAMES = {name: (f"games/{name}", ()) for name in ("flapjacks", "jacks_friends")} | \
        {name: (f"examples/{name}", ()) for name in ("pig", "hooks", "kuhn_poker", "leduc_poker", "goofspiel",
                                                     "liars_dice")}
#: The games of the slow tier besides: the golden logs' modded games.
MODDED = {name: spec for name, spec in GOLDEN.items() if "+" in name}
ALL_GAMES = GAMES | MODDED

#: The flags a run turns off rather than a load: answered in place (``play_out(in_place=False)``) and no
#: history (``new_state(history=False)`` turns it on). A speed-up switched by a run (fixed policies answered
#: in place, say) adds its flag here and its check to ``CHECKS``; one switched by a load needs neither: it is
#: a field of ``Speedups`` and played by ``same_game_loaded_without`` (and ``engaged`` names what it turns off).
RUN_FLAGS = ("in_place", "no_history")
#: Every speed-up's flag: those of ``Speedups`` (a load's), then a run's.
FLAGS = (*SWITCHES, *RUN_FLAGS)

#: The events a game without history still logs: the start, every decision, every card played or answered,
#: and the rare events of its course.
KEPT_WITHOUT_HISTORY = {"started", "chose", "played", "answered", "phase", "shuffled", "refilled", "revealed",
                        "eliminated", "ended"}
#: What a game is, apart from its log.
PARTS = ("counters", "vars", "zones", "loc", "turn", "winners", "result", "out", "revealed", "rng")
#: More decisions than any of these games takes: a game still going after them is a failure.
MAX_DECISIONS = 100_000


def loaded(name: str, off: str | None = None) -> rulelang.Game:
    """The game ``name`` with every speed-up on, or with the load's flag ``off`` off; loaded once per run."""
    folder, mods = ALL_GAMES[name]
    return shipped(folder, tuple(mods), ALL_ON if off is None else ALL_ON.without(off))


class Played(NamedTuple):
    """One game played to its end, as plain values to compare."""

    asked: tuple        # every decision offered, stored ones only: (kind, player, [(id, label)...], the generator)
    log: bytes          # the event log as `rulelang run --log` writes it
    saved: str | None   # the saved game (a game without history cannot be saved)
    rng: int            # the generator's state at the end
    state: rulelang.State


def play(game: rulelang.Game, players: int, seed: int, in_place: bool = True, history: bool = True) -> Played:
    """``RandomAgent(seed)`` plays the game: in place (``play_out``), or through stored decisions, each one's
    options read and recorded before the agent's pick (the same picks: one generator for the table)."""
    state = game.new_state(players, seed, history=history)
    agent = RandomAgent(seed)
    asked: list = []
    if in_place:
        play_out(state, agent)
    else:
        for _ in range(MAX_DECISIONS):
            decision = state.decision()
            if decision is None:
                break
            player = decision.players[0]
            options = decision.options[player]
            asked.append((decision.kind, player, [(o.id, o.label) for o in options], state.rng))
            state.apply_index(agent.pick_index(player, len(options)), player)
    assert state.over and state.stack == [], (game.name, players, seed)      # a finished game runs nothing
    return Played(tuple(asked), b"".join(event_line(e) for e in state.events),
                  state.dumps() if history else None, state.rng, state)


def same_played(one: Played, other: Played, why: object) -> None:
    """The same game: decisions offered, log, saved game and generator, each told apart if it differs."""
    assert one.asked == other.asked, why
    assert one.log == other.log, why
    assert one.saved == other.saved, why
    assert one.rng == other.rng, why


#: (in place, history) of each way a load's flag is played: answered in place and through stored decisions;
#: kept starts are keyed by the history setting (engine/starts.py), so they are played without it too.
WAYS: dict[str, tuple[tuple[bool, bool], ...]] = {flag: ((True, True), (False, True)) for flag in SWITCHES}
WAYS["kept_starts"] += ((True, False),)


def same_game(flag: str, name: str, players: int, seed: int) -> None:
    """The game ``name`` with the speed-up ``flag`` off is the game with every speed-up on."""
    CHECKS.get(flag, same_game_loaded_without)(flag, name, players, seed)


@functools.lru_cache(maxsize=256)
def played_all_on(name: str, players: int, seed: int, in_place: bool = True, history: bool = True) -> Played:
    """The game with every speed-up on, played once for every flag it is compared against."""
    return play(loaded(name), players, seed, in_place, history)


def same_game_loaded_without(flag: str, name: str, players: int, seed: int) -> None:
    off = loaded(name, flag)
    for in_place, history in WAYS[flag]:
        same_played(played_all_on(name, players, seed, in_place, history), play(off, players, seed, in_place, history),
                    (flag, name, players, seed, in_place, history))


def same_game_asked_through_stored_decisions(flag: str, name: str, players: int, seed: int) -> None:
    """Answered in place or through stored decisions: the same log, saved game and generator."""
    in_place, stored = played_all_on(name, players, seed), played_all_on(name, players, seed, in_place=False)
    same_played(in_place._replace(asked=stored.asked), stored, (flag, name, players, seed))


def same_game_without_history(flag: str, name: str, players: int, seed: int) -> None:
    """Without its history, the same game with fewer records: the same dice, choices, cards and end; a log
    that is the whole one with the step, turn, change, move and roll records taken out; and enough in it to
    play the whole game again (``play_again``), byte for byte."""
    game = loaded(name)
    whole, short = (played_all_on(name, players, seed, history=history).state for history in (True, False))
    why = (flag, name, players, seed)
    for part in PARTS:
        assert getattr(short, part) == getattr(whole, part), (part, why)
    assert short.events == [e for e in whole.events if e["type"] in KEPT_WITHOUT_HISTORY], why
    assert len(short.events) < len(whole.events), why
    assert list(cards_played(short)) == list(cards_played(whole)) and first_seat(short) == first_seat(whole)
    started_before_step = play_new(game, players, seed, RandomAgent(seed), history=False)     # the lab's way
    assert started_before_step.events == short.events, why
    again = play_again(game, short.events)
    assert again.history and again.over
    assert again.events == whole.events and again.dumps() == whole.dumps(), why


#: How a flag that is not a load's is checked (a load's flag: ``same_game_loaded_without``).
CHECKS: dict[str, Callable[[str, str, int, int], None]] = {
    "in_place": same_game_asked_through_stored_decisions,
    "no_history": same_game_without_history,
}


def engaged(flag: str, name: str) -> bool:
    """Whether the flag turns anything off in this game: the harness would pass without it otherwise, so a
    game where the speed-up never applies must be one the test expects (``test_speedups.IDLE``)."""
    if flag in RUN_FLAGS:
        return True
    on, off = loaded(name), loaded(name, flag)
    return {"generated": lambda: on.program is not None and off.program is None,
            "derived": lambda: on.end_first is not None and off.end_first is None,
            "direct": lambda: _in_place(on) and not _in_place(off),
            "card_forms": lambda: len(on.procs) != len(off.procs) or _gated(on) != _gated(off),
            "kept_starts": lambda: on.starts is not None and off.starts is None,
            "batched_draws": lambda: on.batched_draws and not off.batched_draws}[flag]()


def _in_place(game: rulelang.Game) -> bool:
    """Whether a game has a procedure or a whole turn played in place (compiler/direct.py)."""
    return any(f is not None for f in game.direct) or any(p.in_place is not None for p in game.phases)


def _gated(game: rulelang.Game) -> int:
    """How many conditions of a game are told by the kind of card (compiler/forms.py) or skip a seat."""
    zones = sum(gate is not None for z in game.zones for _, _, gate, _ in z.on_enter + z.on_leave)
    return zones + sum(k.answer_gate is not None or k.target_not_me for k in game.cards)
