"""`simulate --skill AGENT`: how much a better agent gains over the run's own agents (skill against luck).

The run's batch (random agents, unless ``--agents`` says otherwise) is the baseline. Beside it, the better
agent plays one seat with the run's agents at the others, the seat turning from game to game as the baseline's
seat of comparison turns: game ``i`` of the baseline is compared at seat ``i mod n``, and the better agent plays
at seat ``s`` in as many games as the baseline compares there (a batch per seat, with the run's seed). The
measure is the better agent's win rate minus the baseline's at the same seats, with Newcombe's interval
(docs/simulate.md gives the formula). In a game of pure luck it is near 0; the more skill counts, the higher.
"""
from __future__ import annotations

from dataclasses import replace

from .simulate import Batch, GameRecord
from .stats import Rate, _difference


def seat_batches(batch: Batch, agent: str) -> list[tuple[int, Batch]]:
    """(seat, batch) for each seat that gets games: ``agent`` at that seat, the run's agents at the others."""
    n, out = batch.players, []
    for seat in range(n):
        games = len(range(seat, batch.games, n))
        if games:
            agents = batch.agents[:seat] + (agent,) + batch.agents[seat + 1:]
            out.append((seat, replace(batch, games=games, agents=agents, quality=False)))
    return out


def baseline_rate(records: list[GameRecord], players: int) -> Rate:
    """The run's own win rate at the turning seat: game ``i`` counts for seat ``i mod players``."""
    done = [r for r in records if r.error is None]
    return Rate(sum(r.index % players in r.winners for r in done), len(done))


def better_rate(runs: list[tuple[int, list[GameRecord]]]) -> Rate:
    """The better agent's win rate over its seats' batches: a game counts as a win when its seat won."""
    done = [(seat, r) for seat, records in runs for r in records if r.error is None]
    return Rate(sum(seat in r.winners for seat, r in done), len(done))


def skill_summary(agent: str, base: Rate, better: Rate) -> dict:
    """The measure as the summary keeps it: both rates and the difference with its 95% interval."""
    return {"agent": agent, "better": better.to_json(), "baseline": base.to_json(),
            "difference": _difference(better.wins, better.trials, base.wins, base.trials)}
