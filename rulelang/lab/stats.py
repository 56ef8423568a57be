"""What a batch of games says: win rates with 95% intervals, game lengths, endings, cards.

A win rate from a few hundred games is uncertain by several points, so
every rate carries its Wilson score interval, which stays inside [0, 1] and
behaves at rates near 0 or 1 and at small counts, where the textbook
normal interval does not. Only finished games count; failed ones are
reported apart with their seeds.
"""
from __future__ import annotations

import math
import re
import statistics
from collections import Counter
from dataclasses import dataclass
from statistics import NormalDist

from .simulate import Batch, GameRecord

#: The normal quantile of a two-sided 95% interval (1.959964...).
Z95 = NormalDist().inv_cdf(0.975)


def wilson(wins: int, trials: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of ``wins`` successes in ``trials``; (0, 1) when there are no trials."""
    if trials <= 0:
        return 0.0, 1.0
    p = wins / trials
    z2 = z * z
    scale = 1 + z2 / trials
    centre = (p + z2 / (2 * trials)) / scale
    half = z / scale * math.sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials))
    # at 0 or all wins the bound equals the rate; clamping keeps rounding from putting it a hair inside
    return max(0.0, min(p, centre - half)), min(1.0, max(p, centre + half))


@dataclass(frozen=True)
class Rate:
    """``wins`` out of ``trials``, with its 95% interval."""

    wins: int
    trials: int

    @property
    def rate(self) -> float | None:
        return self.wins / self.trials if self.trials else None

    def to_json(self) -> dict:
        low, high = wilson(self.wins, self.trials)
        rate = self.rate
        return {"rate": _round(rate), "low": _round(low), "high": _round(high), "wins": self.wins,
                "of": self.trials}


def _round(value: float | None) -> float | None:
    return None if value is None else round(value, 6)


def player_label(seat: int) -> str:
    return f"P{seat + 1}"


def winner_label(record: GameRecord) -> str:
    """How a game's result is counted: the winning team, else the winning seats, else 'none'."""
    if record.team:
        return record.team
    return " ".join(player_label(seat) for seat in record.winners) or "none"


def summarize(batch: Batch, records: list[GameRecord], game_name: str, roles: list[str],
              teams: dict[str, list[int]]) -> dict:
    """The whole summary as plain data: the JSON object, and what the table and plot show.

    ``roles`` is each seat's role, ``teams`` each team's seats (as the game's layout has them).
    """
    done = [r for r in records if r.error is None]
    failed = [r for r in records if r.error is not None]
    n = batch.players
    seats = {player_label(s): Rate(sum(s in r.winners for r in done), len(done)) for s in range(n)}
    team_rates = {_team_key(t, seats): Rate(sum(r.team == t for r in done), len(done)) for t in teams}
    return {
        "game": game_name, "games": batch.games, "completed": len(done), "players": n, "seed": batch.seed,
        "agents": list(batch.agents), "roles": list(roles),
        "winners": dict(sorted(Counter(winner_label(r) for r in done).items())),
        "win_rate": {label: rate.to_json() for label, rate in {**seats, **team_rates}.items()},
        "role_win_rate": {role: rate.to_json() for role, rate in _role_rates(done, roles, teams).items()},
        "agent_win_rate": {name: rate.to_json() for name, rate in _agent_rates(done, batch.agents).items()},
        "first_player": _first_player(done, n),
        "turns": lengths([r.turns for r in done]),
        "end_conditions": dict(sorted(Counter(r.condition or "none" for r in done).items())),
        "cards": _cards(done),
        "errors": {"count": len(failed), "seeds": [r.seed for r in failed],
                   "games": [{"index": r.index, "seed": r.seed, "message": _first_line(r.error)} for r in failed]},
    }


def _team_key(team: str, seats: dict) -> str:
    """A team's label in ``win_rate``: its name, unless that is taken by a seat label."""
    return f"team {team}" if team in seats or re.fullmatch(r"P\d+", team) else team


def _role_rates(done: list[GameRecord], roles: list[str], teams: dict[str, list[int]]) -> dict[str, Rate]:
    """Per role, the games some player of it won; only roles that are not already a team of their own."""
    distinct = sorted(set(roles), key=roles.index)
    team_seats = {tuple(seats) for seats in teams.values()}
    rates = {}
    for role in distinct:
        seats = [s for s, r in enumerate(roles) if r == role]
        if len(distinct) > 1 and tuple(seats) not in team_seats:
            rates[role] = Rate(sum(any(s in r.winners for s in seats) for r in done), len(done))
    return rates


def _agent_rates(done: list[GameRecord], agents: tuple[str, ...]) -> dict[str, Rate]:
    """Per agent, the seats it played that won, out of the seats it played."""
    rates = {}
    for name in sorted(set(agents)):
        seats = [s for s, a in enumerate(agents) if a == name]
        rates[name] = Rate(sum(s in r.winners for r in done for s in seats), len(done) * len(seats))
    return rates


def _first_player(done: list[GameRecord], players: int) -> dict:
    """The win rate of whoever moved first, beside the fair share: winners per game over seats."""
    moved = [r for r in done if r.first is not None]
    rate = Rate(sum(r.first in r.winners for r in moved), len(moved)).to_json()
    shares = sum(len(r.winners) for r in done)
    rate["fair"] = _round(shares / (len(done) * players)) if done else None
    return rate


def lengths(turns: list[int]) -> dict:
    """Mean, spread, range, and [length, games] for each length that occurred."""
    if not turns:
        return {"mean": None, "sd": None, "median": None, "min": None, "max": None, "histogram": []}
    return {"mean": _round(statistics.fmean(turns)),
            "sd": _round(statistics.stdev(turns)) if len(turns) > 1 else 0.0,
            "median": statistics.median(turns), "min": min(turns), "max": max(turns),
            "histogram": [[length, count] for length, count in sorted(Counter(turns).items())]}


def _cards(done: list[GameRecord]) -> dict:
    """Per card: times played, games it was played in, and the win rate of the players who played it."""
    out = {}
    for card in sorted({card for r in done for card in r.plays}):
        times = sum(sum(r.plays[card].values()) for r in done if card in r.plays)
        players = [(r, seat) for r in done if card in r.plays for seat in r.plays[card]]
        wins = sum(seat in r.winners for r, seat in players)
        out[card] = {"played": times, "games": sum(card in r.plays for r in done),
                     "win_rate": Rate(wins, len(players)).to_json()}
    return out


def _first_line(text: str | None) -> str:
    return (text or "").splitlines()[0] if text else ""


def histogram_bins(histogram: list[list[int]], most: int = 16) -> list[tuple[int, int, int]]:
    """The length histogram as at most ``most`` (low, high, count) bins of equal width, for a table."""
    counts = dict((length, count) for length, count in histogram)
    if not counts:
        return []
    low, high = min(counts), max(counts)
    width = max(1, math.ceil((high - low + 1) / most))
    bins = []
    for start in range(low, high + 1, width):
        stop = min(start + width - 1, high)
        bins.append((start, stop, sum(v for k, v in counts.items() if start <= k <= stop)))
    return bins
