"""Turn flow: starting a game, ending a turn, ending the game.

``start_game`` makes the state of a new game (``Game.new_state``): who goes
first, the ``started`` event, then the turn loop runs to the first decision.
The turn loop itself is compiled with the rules (compiler/__init__.py);
``end_turn`` unwinds to it, and ``check_end`` asks the end conditions in order.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Callable

from .errors import RulelangError
from .interpreter import run
from .state import State
from .views import player_name

if TYPE_CHECKING:
    from .game import Game


def start_game(game: Game, players: int, seed: int, observer: Callable | None, before_first_turn: bool,
               ask_single_options: bool | None) -> State:
    """A new game for ``players`` seats, played until its first decision (see ``Game.new_state``)."""
    if not game.min_players <= players <= game.max_players:
        raise RulelangError(
            f"{game.name} is for {game.min_players} to {game.max_players} players, not {players}")
    lay = game.layout(players)
    missing = [name for name in game.tables if name not in lay.tables]
    if missing:
        raise RulelangError(f"table '{missing[0]}' has no row for {players} players")
    ask_single = game.ask_single_options if ask_single_options is None else bool(ask_single_options)
    st = State.start(game, lay, seed, observer, ask_single)
    first = game.phases[0]
    if first.order == "seat" and first.first == "random":
        st.active = st.randbelow(players)
    started = {"type": "started", "game": game.name, "players": players, "seed": seed,
               "roles": lay.roles, "first": player_name(st.active)}
    if game.params:                   # only a game that declares params records them: old logs stay the same
        started["params"] = dict(game.params)
    st.events.append(started)
    if game.named_phases:
        st.events.append({"type": "phase", "turn": 0, "phase": first.name})
    if before_first_turn and game.step_pcs:
        st.halt = [1, next(iter(game.step_pcs))]
    run(st)
    return st


def end_turn(st: State) -> None:
    """Unwind to the turn loop, which moves on to the next turn."""
    del st.stack[1:]
    st.stack[0].pc = st.game.phases[st.phase].end_pc
    st.fired.clear()


def check_end(st: State, L: dict) -> bool:
    """The first end condition that holds ends the game."""
    game = st.game
    seat = game.phases[st.phase].order == "seat"
    local = {"me": st.active} if seat else {}    # `me` in end conditions: the active player
    for cond in game.end:
        if cond.when(st, local):
            won = cond.winner(st, local)
            st.winners = [won] if isinstance(won, int) else sorted(set(won or []))
            st.over = True
            st.result = cond.name
            event = {"type": "ended", "turn": st.turn, "condition": cond.name,
                     "winners": st.winner_names(), "team": st.winning_team()}
            if game.score is not None:
                event["scores"] = st.scores()
            if game.returns is not None:          # only when declared: other games' logs stay the same
                event["returns"] = st.returns()
            st.events.append(event)
            return True
    return False

