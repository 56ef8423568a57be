"""What a batch of games says: win rates with 95% intervals, game lengths, endings, cards.

A win rate from a few hundred games is uncertain by several points, so
every rate carries its Wilson score interval, which stays inside [0, 1] and
behaves at rates near 0 or 1 and at small counts, where the textbook
normal interval does not. Only finished games count; failed ones are
reported apart with their seeds.
"""
from __future__ import annotations

import functools
import gc
import math
import operator
import re
import statistics
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from itertools import chain
from statistics import NormalDist
from typing import TYPE_CHECKING, ParamSpec, TypeVar

from .simulate import Batch, GameRecord

if TYPE_CHECKING:
    from rulelang.engine.game import Game

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


_P = ParamSpec("_P")
_R = TypeVar("_R")


def without_collection(work: Callable[_P, _R]) -> Callable[_P, _R]:
    """Run ``work`` with the garbage collector paused.

    A summary reads tens of thousands of records and builds plain lists, tuples and counters that form no
    cycles; each collection the collector starts meanwhile walks every record again, which made a third of
    a 20,000-game summary's time. It is switched back on (if it was on) however the work ends."""
    @functools.wraps(work)
    def paused(*args: _P.args, **kwargs: _P.kwargs) -> _R:
        was_on = gc.isenabled()
        gc.disable()
        try:
            return work(*args, **kwargs)
        finally:
            if was_on:
                gc.enable()
    return paused


@without_collection
def summarize(batch: Batch, records: list[GameRecord], game_name: str, roles: list[str],
              teams: dict[str, list[int]], card_names: dict[str, str] | None = None,
              holders: Sequence[str] = (), counter_names: Sequence[str] = (), rounds: bool = False) -> dict:
    """The whole summary as plain data: the JSON object, and what the table and plot show.

    ``rounds``: every turn of the game is played by all seats at once (turn order ``round`` in every phase),
    so no one moves first and there is no first-player figure.

    ``roles`` is each seat's role, ``teams`` each team's seats (as the game's layout has them),
    ``card_names`` each card id's name (the id stands for itself when it has none); ``holders`` names the
    counter rows before the players' (the game, its locations) and ``counter_names`` the counters.
    """
    done = [r for r in records if r.error is None]
    failed = [r for r in records if r.error is not None]
    n = batch.players
    won = Counter(r.winners for r in done)        # a batch has tens of thousands of games, and few sets of winners
    seats = {player_label(s): Rate(_games_won_by(won, (s,)), len(done)) for s in range(n)}
    team_won = Counter(r.team for r in done)
    team_rates = {_team_key(t, seats): Rate(team_won[t], len(done)) for t in teams}
    units = win_units(n, teams)
    return {
        "game": game_name, "games": batch.games, "completed": len(done), "players": n, "seed": batch.seed,
        "agents": list(batch.agents), "roles": list(roles), "symmetric": symmetric(roles, teams),
        "winners": dict(sorted(Counter(winner_label(r) for r in done).items())),
        "win_rate": {label: rate.to_json() for label, rate in {**seats, **team_rates}.items()},
        "role_win_rate": {role: rate.to_json() for role, rate in _role_rates(won, len(done), roles).items()},
        "agent_win_rate": {name: rate.to_json() for name, rate in _agent_rates(won, len(done), batch.agents, roles,
                                                                                units).items()},
        "first_player": _no_first_mover() if rounds else _first_player(done, n, roles, teams),
        "turns": distribution([r.turns for r in done]),
        "end_conditions": dict(sorted(Counter(r.condition or "none" for r in done).items())),
        "cards": _cards(done, n, card_names or {}),
        "decisions": _decisions(done, roles),
        "final_counters": _final_counters(done, holders, counter_names),
        "player_counters": _seat_counters(done, len(holders), counter_names),
        "quality": quality(done) if batch.quality else None,
        "errors": {"count": len(failed), "seeds": [r.seed for r in failed],
                   "games": [{"index": r.index, "seed": r.seed, "message": _first_line(r.error)} for r in failed]},
    }


def symmetric(roles: list[str], teams: dict[str, list[int]]) -> bool:
    """Every seat plays the same role, and no team is bigger than another: a fair share means something."""
    return len(set(roles)) <= 1 and len({len(seats) for seats in teams.values()}) <= 1


def win_units(players: int, teams: dict[str, list[int]]) -> list[tuple[int, ...]]:
    """The groups of seats that win or lose together: each team, and each seat in no team on its own.

    An interval counts these, not seats: three seats of one team are one result per game, not three.
    """
    units = [tuple(sorted(seats)) for seats in teams.values() if seats]
    placed = {seat for unit in units for seat in unit}
    return units + [(seat,) for seat in range(players) if seat not in placed]


def _team_key(team: str, seats: dict) -> str:
    """A team's label in ``win_rate``: its name, unless that is taken by a seat label."""
    return f"team {team}" if team in seats or re.fullmatch(r"P\d+", team) else team


def _games_won_by(won: Counter[tuple[int, ...]], seats: Iterable[int]) -> int:
    """The games some of ``seats`` won, from the count of games per set of winners."""
    return sum(games for winners, games in won.items() if any(seat in winners for seat in seats))


def _role_rates(won: Counter[tuple[int, ...]], games: int, roles: list[str]) -> dict[str, Rate]:
    """Per role, when seats play different roles: the games some player of that role won."""
    distinct = sorted(set(roles), key=roles.index)
    if len(distinct) < 2:
        return {}
    return {role: Rate(_games_won_by(won, [s for s, r in enumerate(roles) if r == role]), games)
            for role in distinct}


def agent_groups(agents: tuple[str, ...], roles: list[str]) -> dict[str, list[int]]:
    """Each agent's seats; an agent that plays seats of different roles gets one group per role
    (``NAME as ROLE``), so the wins of one role are never averaged with another's."""
    groups: dict[str, list[int]] = {}
    for name in sorted(set(agents)):
        seats = [s for s, a in enumerate(agents) if a == name]
        played = sorted({roles[s] for s in seats}, key=roles.index) if roles else []
        if len(played) < 2:
            groups[name] = seats
            continue
        for role in played:
            groups[f"{name} as {role}"] = [s for s in seats if roles[s] == role]
    return groups


def _agent_rates(won: Counter[tuple[int, ...]], games: int, agents: tuple[str, ...], roles: list[str],
                 units: list[tuple[int, ...]]) -> dict[str, Rate]:
    """Per agent (and role): of the groups of seats it played that win together, how many won.

    A team counts once per game, however many of its seats the agent played; seats in no team count one each.
    """
    rates = {}
    for name, seats in agent_groups(agents, roles).items():
        mine = [tuple(seat for seat in unit if seat in seats) for unit in units if any(seat in seats for seat in unit)]
        rates[name] = Rate(sum(_games_won_by(won, played) for played in mine), games * len(mine))
    return rates


def _first_player(done: list[GameRecord], players: int, roles: list[str], teams: dict[str, list[int]]) -> dict:
    """The win rate of whoever moved first, beside the fair share: winners per game over seats.

    Only where seats are symmetric; otherwise ``fair`` is None and ``by_role`` compares, for each role
    whose seats do not all win together, the first mover of that role with that role's seats in the same games.
    """
    if not symmetric(roles, teams):
        out = Rate(0, 0).to_json()
        out.update({"fair": None, "symmetric": False, "by_role": _first_player_by_role(done, roles, teams)})
        return out
    moved = [r for r in done if r.first is not None]
    rate = Rate(sum(r.first in r.winners for r in moved), len(moved)).to_json()
    shares = sum(len(r.winners) for r in done)
    rate["fair"] = _round(shares / (len(done) * players)) if done else None
    rate["symmetric"] = True
    return rate


def _no_first_mover() -> dict:
    """The first-player figure of a game played only in rounds, where every seat acts at once: none."""
    out = Rate(0, 0).to_json()
    out.update({"fair": None, "symmetric": False, "by_role": {}, "rounds": True})
    return out


def _first_player_by_role(done: list[GameRecord], roles: list[str], teams: dict[str, list[int]]) -> dict:
    together = [set(seats) for seats in teams.values()]
    out = {}
    for role in sorted(set(roles), key=roles.index):
        seats = {s for s, r in enumerate(roles) if r == role}
        if len(seats) < 2 or any(seats <= team for team in together):
            continue
        moved = [r for r in done if r.first in seats]
        rate = Rate(sum(r.first in r.winners for r in moved), len(moved)).to_json()
        shares = sum(len(seats.intersection(r.winners)) for r in moved)
        rate["fair"] = _round(shares / (len(moved) * len(seats))) if moved else None
        out[role] = rate
    return out


def distribution(values: Iterable[int]) -> dict:
    """Mean, spread, range, and [value, times] for each value that occurred (game lengths, final counters).

    Worked out from the histogram, in whole numbers until the last division: a batch of 40,000 games has a
    few dozen distinct lengths, and ``statistics.stdev`` on the values themselves (exact fractions, value by
    value) took longer than the statistics' every other figure together. The figures are ``statistics``'
    own: ``fmean``, ``stdev`` (the sample's), and ``median`` (an even count: the mean of the middle two).
    """
    return histogram_figures(Counter(values))


def histogram_figures(counts: Counter) -> dict:
    """``distribution``'s figures of the values a Counter counts."""
    histogram = sorted(counts.items())
    if not histogram:
        return {"mean": None, "sd": None, "median": None, "min": None, "max": None, "histogram": []}
    n = sum(times for _, times in histogram)
    total = sum(value * times for value, times in histogram)
    squares = sum(value * value * times for value, times in histogram)
    spread = n * squares - total * total            # n * (n - 1) times the sample variance, exactly
    return {"mean": _round(total / n),
            "sd": _round(math.sqrt(spread / (n * (n - 1)))) if n > 1 else 0.0,
            "median": _median(histogram, n), "min": histogram[0][0], "max": histogram[-1][0],
            "histogram": [[value, times] for value, times in histogram]}


def _median(histogram: list[tuple[int, int]], n: int) -> float | int:
    """The median of the ``n`` values a sorted histogram counts: the middle one, or the mean of the middle two."""
    if n % 2:
        return _value_at(histogram, n // 2)
    return (_value_at(histogram, n // 2 - 1) + _value_at(histogram, n // 2)) / 2


def _value_at(histogram: list[tuple[int, int]], k: int) -> int:
    """The value at place ``k`` (from 0) of the values a sorted histogram counts, in order."""
    seen = 0
    for value, times in histogram:
        seen += times
        if seen > k:
            return value
    raise IndexError(k)


def _decisions(done: list[GameRecord], roles: list[str]) -> dict:
    """Per decision (its kind, and the chooser's role where roles differ): each option's times and share.

    A game keeps, for each choice, its chooser, its kind (choose, number, secret, ...) and the option: the
    decision's name in the rules is not kept, so the kind and the role stand for it.
    """
    several = len(set(roles)) > 1
    counts: dict[str, Counter] = {}
    taken = Counter(chain.from_iterable(r.choices for r in done))      # counted whole, at C speed; turns dropped next
    for (_, seat, option, kind), times in taken.items():
        label = f"{roles[seat]} {kind}" if several else kind
        counts.setdefault(label, Counter())[str(option)] += times
    out = {}
    for label in sorted(counts):
        total = sum(counts[label].values())
        out[label] = {option: {"times": times, "share": _round(times / total),
                               "per_game": _round(times / len(done))}
                      for option, times in sorted(counts[label].items(), key=lambda item: (-item[1], item[0]))}
    return out


def _final_counters(done: list[GameRecord], holders: Sequence[str], counters: Sequence[str]) -> dict:
    """The distribution of each counter of the game and of each location at the end (those not always 0)."""
    rows = [r.counters for r in done if r.counters]
    out = {}
    for h, holder in enumerate(holders):
        for name, values in zip(counters, zip(*(row[h] for row in rows))):     # each counter over the games
            if any(values):
                out[f"{holder}.{name}"] = distribution(values)
    return out


def _seat_counters(done: list[GameRecord], first_seat_row: int, counters: Sequence[str]) -> dict:
    """Each player counter (not always 0) and the score at the end: over every seat, and the margin of victory.

    A batch has tens of thousands of games and a few ways they end (which seats won), so the games are taken
    a group of the same winners at a time, each counter seat by seat as a column over the group's games, and
    the margins are worked out column against column (``map``), not game by game."""
    width = len(counters)
    names = [*counters, "score"]
    values: list[list[int]] = [[] for _ in names]
    margins: list[list[int]] = [[] for _ in names]
    for (winners, seats, has_counters, has_scores), games in _by_result(done, first_seat_row).items():
        losers = tuple(s for s in range(seats) if s not in winners)
        columns = _counter_columns(games, first_seat_row, seats, width) if has_counters else [None] * width
        columns.append(list(zip(*(r.scores for r in games))) if has_scores else None)
        for c, by_seat in enumerate(columns):
            if by_seat is None:
                continue
            values[c].extend(chain.from_iterable(by_seat))
            if winners and losers:
                margins[c].extend(map(operator.sub, _best(by_seat, winners), _best(by_seat, losers)))
    shown = [c for c in range(width) if any(values[c])] + ([width] if values[width] else [])
    return {names[c]: {"all": distribution(values[c]), "margin": distribution(margins[c])} for c in shown}


def _by_result(done: list[GameRecord], first_seat_row: int) -> dict[tuple, list[GameRecord]]:
    """The games grouped by (winners, seats, whether they kept counters, whether they kept scores)."""
    groups: dict[tuple, list[GameRecord]] = {}
    for r in done:
        seats = len(r.counters) - first_seat_row if r.counters else len(r.scores or ())
        groups.setdefault((r.winners, seats, bool(r.counters), r.scores is not None), []).append(r)
    return groups


def _counter_columns(games: list[GameRecord], first_seat_row: int, seats: int, width: int) -> list:
    """For each of the first ``width`` counters, for each seat, its values over the games (columns made by ``zip``)."""
    by_seat = [list(zip(*(r.counters[first_seat_row + s] for r in games)))[:width] for s in range(seats)]
    return [[counters_of_seat[c] for counters_of_seat in by_seat] for c in range(width)]


def _best(by_seat: Sequence[Sequence[int]], seats: tuple[int, ...]) -> Iterable[int]:
    """Game by game, the highest value among ``seats`` (each seat's column of values over the same games)."""
    if len(seats) == 1:
        return by_seat[seats[0]]
    return map(max, *(by_seat[s] for s in seats))


def leaders(scores: tuple[int, ...]) -> frozenset[int]:
    """The seats with the highest score (all of them when tied)."""
    top = max(scores)
    return frozenset(seat for seat, score in enumerate(scores) if score == top)


def lead_changes(trail: list[tuple[int, ...]]) -> int:
    """How many times the set of leaders differs from the one the turn before."""
    return sum(leaders(a) != leaders(b) for a, b in zip(trail, trail[1:]))


def decided_at(trail: list[tuple[int, ...]], winners: tuple[int, ...]) -> float:
    """How far into the game (0: from the start, 1: only at the end) a winner leads for good:
    k / (len(trail) - 1) for the first k from which some winner is a leader at every point."""
    k = len(trail) - 1
    while k > 0 and leaders(trail[k - 1]) & set(winners):
        k -= 1
    return k / (len(trail) - 1) if len(trail) > 1 else 0.0


def deficit(trail: list[tuple[int, ...]], winners: tuple[int, ...]) -> int:
    """The most points the eventual winner was ever behind the leader (0: never behind)."""
    return max(max(scores) - max(scores[w] for w in winners) for scores in trail)


def quality(done: list[GameRecord]) -> dict:
    """Browne's measures of a game's quality as far as the records keep them (docs/simulate.md gives the formulas).

    Duration: turns and decisions a game. Lead changes, decisiveness and drama follow the scores as each turn
    began and at the end: only for a game that declares a score; games without winners have no decisiveness.
    """
    out: dict[str, object] = {"duration": distribution([r.turns for r in done]),
           "decisions": distribution([len(r.choices) for r in done])}
    trails = [(r, [*r.score_turns, r.scores]) for r in done if r.scores is not None and r.score_turns]
    won = [(r, trail) for r, trail in trails if r.winners]
    out["scored_games"] = len(trails)
    out["lead_changes"] = distribution([lead_changes(trail) for _, trail in trails])
    out["lead_changes_per_turn"] = _round(statistics.fmean(
        lead_changes(trail) / (len(trail) - 1) for _, trail in trails)) if trails else None
    out["decisiveness"] = _round(statistics.fmean(decided_at(trail, r.winners) for r, trail in won)) if won else None
    deficits = [deficit(trail, r.winners) for r, trail in won]
    out["drama"] = distribution(deficits)
    out["comebacks"] = _round(sum(d > 0 for d in deficits) / len(deficits)) if deficits else None
    out["branching"] = branching(done)
    return out


def branching(done: list[GameRecord]) -> dict:
    """The branching factor: the options of each decision asked, over every decision of every game (``all``) and
    per named decision (``by_decision``, by name), each a distribution whose mean is the factor."""
    counts: dict[str, list[int]] = {}
    for record in done:
        for name, count in record.branching:
            counts.setdefault(name, []).append(count)
    return {"all": distribution([c for values in counts.values() for c in values]),
            "by_decision": {name: distribution(counts[name]) for name in sorted(counts)}}


def _cards(done: list[GameRecord], players: int, names: dict[str, str]) -> dict:
    """Per card: times played, games it was played in, and a baseline for the win rate of its players.

    ``win_rate``: the seats that played it at least once and won. ``others``: the other seats of the same
    games (those that did not play it), so a card played in long games is not credited with what long
    games do. ``difference``: the first minus the second, with Newcombe's interval.
    """
    out = {}
    for card in sorted({card for r in done for card in r.plays}):
        games = [r for r in done if card in r.plays]
        times = sum(sum(r.plays[card].values()) for r in games)
        seats_played = sum(len(r.plays[card]) for r in games)
        wins = sum(seat in r.winners for r in games for seat in r.plays[card])
        others = len(games) * players - seats_played
        other_wins = sum(len(r.winners) for r in games) - wins
        out[card] = {"name": names.get(card, card), "played": times, "games": len(games),
                     "win_rate": Rate(wins, seats_played).to_json(), "others": Rate(other_wins, others).to_json(),
                     "difference": _difference(wins, seats_played, other_wins, others)}
    return out


def _difference(wins: int, trials: int, other_wins: int, others: int) -> dict:
    """The first rate minus the second, with Newcombe's 95% interval (all None without both)."""
    if not trials or not others:
        return {"value": None, "low": None, "high": None}
    low, high = newcombe(wins, trials, other_wins, others)
    return {"value": _round(wins / trials - other_wins / others), "low": _round(low), "high": _round(high)}


def newcombe(wins1: int, trials1: int, wins2: int, trials2: int, z: float = Z95) -> tuple[float, float]:
    """Newcombe's hybrid score interval (his method 10) of p1 - p2, from each rate's Wilson interval.

    It stays in [-1, 1] and behaves at small counts and rates near 0 or 1, as the Wilson interval does.
    """
    if trials1 <= 0 or trials2 <= 0:
        return -1.0, 1.0
    p1, p2 = wins1 / trials1, wins2 / trials2
    l1, u1 = wilson(wins1, trials1, z)
    l2, u2 = wilson(wins2, trials2, z)
    d = p1 - p2
    return d - math.hypot(p1 - l1, u2 - p2), d + math.hypot(u1 - p1, p2 - l2)


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


def game_summary(game: Game, batch: Batch, records: list[GameRecord]) -> dict:
    """``summarize`` with the game's own layout (roles, teams) at the batch's player count, and its card names."""
    layout = game.layout(batch.players)
    names = {card.id: card.name for card in game.card_type}
    return summarize(batch, records, game.name, layout.roles, layout.team_players, names,
                     ["game"] + list(game.locations), list(game.counters), rounds=played_in_rounds(game))


def played_in_rounds(game: Game) -> bool:
    """Whether every turn is played by all seats at once (no phase takes its turns in seat order)."""
    return bool(game.phases) and not any(phase.by_seat for phase in game.phases)
