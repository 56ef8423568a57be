"""The MCTS agent: information-set Monte Carlo tree search from one player's view.

Each iteration:

1. draws a sample of the game that agrees with the agent's view
   (``seat.sample``: hidden cards dealt again, new dice, secret choices of
   others asked again), so the search never reads the true hidden cards;
2. walks down the tree of the agent's own decisions, choosing at each by UCT
   among the options this sample offers (an option's count of chances is
   the times it was offered, as information-set MCTS does, since samples
   offer different options), and adds one new node;
3. plays on with uniformly random choices to the end of the game;
4. scores the result for the agent: 1 for a win alone, the share of a win
   with others (a team's win, or a tie), 0 otherwise, and adds it along the
   path.

Other players' decisions are not nodes of the tree: in every iteration they,
and chance, are drawn at random, so a node stands for a sequence of the
agent's own choices (single-observer, open loop). That models the others as
random players: right against random agents, optimistic against strong ones.

The move played is the option of the root tried most often. The budget is a
number of iterations (the same seed then gives the same choices) or a time
in milliseconds per decision (faster, not reproducible).
"""
from __future__ import annotations

import math
import random
import time

from rulelang.engine.state import State

from ..errors import RulelangError
from .seat import Seat

#: A rollout that has not ended after this many decisions counts as a loss (a game that never ends).
ROLLOUT_LIMIT = 100_000


class Node:
    """One point of the agent's own decisions: statistics per option id."""

    __slots__ = ("visits", "wins", "offered", "children")

    def __init__(self) -> None:
        self.visits: dict[str, int] = {}
        self.wins: dict[str, float] = {}
        self.offered: dict[str, int] = {}
        self.children: dict[str, Node] = {}

    def pick(self, ids: list[str], rng: random.Random, c: float) -> tuple[str, bool]:
        """UCT among the options offered now; (option, is it new to this node)."""
        for oid in ids:
            self.offered[oid] = self.offered.get(oid, 0) + 1
        untried = [oid for oid in ids if oid not in self.visits]
        if untried:
            return untried[rng.randrange(len(untried))], True
        visits, wins, offered = self.visits, self.wins, self.offered
        best, best_value = ids[0], -math.inf
        for oid in ids:
            n = visits[oid]
            value = wins[oid] / n + c * math.sqrt(math.log(offered[oid]) / n)
            if value > best_value:
                best, best_value = oid, value
        return best, False

    def record(self, oid: str, reward: float) -> None:
        self.visits[oid] = self.visits.get(oid, 0) + 1
        self.wins[oid] = self.wins.get(oid, 0.0) + reward


class MctsAgent:
    """Search the agent's own options on sampled games; play the most tried."""

    def __init__(self, seed: int = 0, iterations: int | None = None, ms: float | None = None, c: float = 0.7):
        if iterations is not None and ms is not None:
            raise ValueError("give iterations or ms, not both")
        if iterations is None and ms is None:
            iterations = 200
        if iterations is not None and not (is_whole(iterations) and iterations >= 1):
            raise ValueError(f"iterations must be a whole number of at least 1, not {iterations!r}")
        if ms is not None and not (is_number(ms) and ms > 0):
            raise ValueError(f"ms must be a number more than 0, not {ms!r}")
        if not (is_number(c) and c >= 0):
            raise ValueError(f"c must be a number of 0 or more, not {c!r}")
        self.rng = random.Random(seed)
        self.iterations = iterations
        self.ms = ms
        self.c = c

    def choose(self, seat: Seat) -> str:
        options = [o.id for o in seat.options]
        if len(options) == 1:
            return options[0]
        root = Node()
        deadline = None if self.ms is None else time.perf_counter() + self.ms / 1000
        done = 0
        while True:
            self.iterate(seat, root)
            done += 1
            if deadline is None:
                if done >= self.iterations:
                    break
            elif time.perf_counter() >= deadline:
                break
        return most_tried(root, options)

    def iterate(self, seat: Seat, root: Node) -> None:
        """One sample, one walk down the tree, one random playout, one update."""
        rng, me = self.rng, seat.player
        state = seat.sample(rng)
        path: list[tuple[Node, str]] = []
        node: Node | None = root
        try:
            for _ in range(ROLLOUT_LIMIT):
                pend = state.pending
                if state.over or pend is None:
                    break
                i = pend["chosen"].index(None)
                player = pend["players"][i]
                options = pend["options"][i]
                if player == me and node is not None:
                    oid, new = node.pick([o[0] for o in options], rng, self.c)
                    path.append((node, oid))
                    child = node.children.setdefault(oid, Node())
                    node = None if new else child          # one new node per iteration, then play on
                    state.apply(oid, me)
                else:
                    state.apply_index(rng.randrange(len(options)), player)
        except RulelangError:
            pass                     # a sample the rules cannot play on scores nothing
        reward = share(state, me)
        for visited, oid in path:
            visited.record(oid, reward)


def is_whole(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def is_number(value: object) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


def share(state: State, player: int) -> float:
    """The agent's part of the result: 1 alone, 1/k of a win shared by k, else 0."""
    if not state.over or player not in state.winners:
        return 0.0
    return 1.0 / len(state.winners)


def most_tried(root: Node, options: list[str]) -> str:
    """The true option tried most often (the first of them on a tie)."""
    return max(options, key=lambda oid: root.visits.get(oid, 0))
