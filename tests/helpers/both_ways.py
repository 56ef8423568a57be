"""A small game played twice from one seed: answered in place by an agent, and through stored decisions.

The speed-ups' harness (``helpers/speedups.py``, ``tests/equivalence/test_speedups.py``) plays the games of
games/ and the examples so; this is for the little games tests write to pin one behaviour.
"""
from __future__ import annotations

import rulelang
from rulelang.agents import RandomAgent, play_out

from .games import shipped
from golden.record import GAMES as GOLDEN

#: The golden games and the OpenSpiel examples: name -> (folder, mods); policies naming every decision play them.
EXAMPLES = {name: (f"examples/{name}", ()) for name in ("kuhn_poker", "leduc_poker", "goofspiel", "liars_dice")}
BOTH_WAYS_GAMES = {**GOLDEN, **EXAMPLES}


def pending_loop(game: rulelang.Game, players: int, seed: int) -> rulelang.State:
    """The game through stored decisions (the frames' way: answering in place off), ``RandomAgent(seed)``
    picking for every seat."""
    return play_out(game.new_state(players, seed), RandomAgent(seed), in_place=False)


def both_ways(game: rulelang.Game, players: int, seed: int) -> rulelang.State:
    """The game played in place by ``RandomAgent(seed)``, checked equal to the game through stored decisions
    (the same event log, the same saved state); the state played in place."""
    in_place = play_out(game.new_state(players, seed), RandomAgent(seed))
    framed = pending_loop(game, players, seed)
    assert in_place.events == framed.events, (players, seed)
    assert in_place.dumps() == framed.dumps(), (players, seed)
    return in_place


def load(folder: str, mods: tuple) -> rulelang.Game:
    return shipped(folder, tuple(mods))


# --- policies: read in place, or asked through the protocol -----------------------------------------------------

class ThroughProtocol:
    """A policy agent with its ``reader`` hidden (the flag off): asked through its seat, each decision left waiting
    (``Table.decide``), as every policy was before policies were read in place."""

    def __init__(self, agent) -> None:
        self.agent = agent

    def choose(self, seat) -> str:
        return self.agent.choose(seat)


def every_decision_policy(game: rulelang.Game, folder) -> str:
    """A policy file naming every decision the game can ask, each with a preference the fallback would not give
    (its last known option, then `last`; `highest` for numbers): a name that did not reach the policy shows."""
    from rulelang.model.decisions import catalogue_options

    lines = ["policy: every decision", "fallback: random", "decisions:"]
    for name, sites in sorted(game.decisions.items()):
        if all(site.numeric for site in sites):
            lines.append(f"  {name}: [highest]")
            continue
        options = catalogue_options(sites)
        first = [options[-1][0]] if options else []
        lines.append(f"  {name}: {[*first, 'last']!r}")
    path = folder / f"{abs(hash(game.path))}.yaml"
    path.write_text("\n".join(lines) + "\n")
    return str(path)


def policy_both_ways(game: rulelang.Game, players: int, seed: int, names: list[str]) -> rulelang.State:
    """One seed played by these agent specs (one per seat, seeded as a batch seeds them) twice: read in place and
    through the protocol; the same event log and saved state, else an AssertionError. The state read in place."""
    from rulelang.lab.simulate import seated_agents

    state = game.new_state(players, seed, before_first_turn=True)
    in_place = play_out(state, seated_agents(tuple(names), seed))
    framed = play_out(game.new_state(players, seed, before_first_turn=True),
                      [ThroughProtocol(agent) for agent in seated_agents(tuple(names), seed)])
    assert in_place.events == framed.events, (game.name, players, seed)
    assert in_place.dumps() == framed.dumps(), (game.name, players, seed)
    return in_place
