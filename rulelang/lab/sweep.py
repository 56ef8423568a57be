"""`rulelang sweep`: simulate every combination of spec values and say which meet a target.

Each setting (one value per ``--vary``) is applied to the loaded spec data,
then checked and compiled like any spec, once; a value that makes the spec
invalid is the spec's own located error, with a note naming the ``--vary``.
Every setting plays the same batch: game ``i`` gets the seed
``batch_seed(S, i)`` whatever the setting, so settings are compared on the
same dice and shuffles (common random numbers) and their differences are not
luck of the draw. Games are played in one process or several with the same
results: they are put back in (setting, game) order before counting.
"""
from __future__ import annotations

import itertools
import math
import re
from collections.abc import Callable
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass

from rulelang.engine.game import Game
from rulelang.lab.workers import ignore_interrupt, quiet_workers, worker_count
from rulelang.lang.types import INT64
from rulelang.spec.document import Document
from rulelang.spec.paths import Address, number_text, resolve, unread_at, with_values

from ..errors import ErrorList, RulelangError, did_you_mean
from .simulate import Batch, GameRecord, play_game
from .stats import Rate, game_summary

MAX_SETTINGS = 10_000
_NUMBER = r"[-+]?(?:\d+(?:\.\d*)?|\.\d+)"


@dataclass(frozen=True)
class Vary:
    """One ``--vary KEY=V1,V2,...``: a key and the values it takes, in the order given."""

    key: str
    values: tuple[float, ...]
    text: str


@dataclass(frozen=True)
class Target:
    """``METRIC in [LO,HI]``: met when the metric's 95% interval lies inside [LO, HI]."""

    metric: str
    low: float
    high: float


@dataclass(frozen=True)
class Measure:
    """A metric of one setting: its value and 95% interval (the value itself when it has no interval)."""

    value: float | None
    low: float | None
    high: float | None
    has_interval: bool


def parse_vary(text: str) -> Vary:
    """``KEY=V1,V2,...``, where a value may also be a whole range ``LO..HI``; ValueError says what is wrong."""
    key, sep, listed = text.partition("=")
    key = key.strip()
    if not sep or not key or not listed.strip():
        raise ValueError(f"--vary {text!r}: expected KEY=V1,V2,... such as tables.TABLE.ROW.COLUMN=6,8,10")
    values: list[float] = []
    for part in (p.strip() for p in listed.split(",")):
        values.extend(_values_of(part, text))
    if len(set(values)) != len(values):
        raise ValueError(f"--vary {text!r}: a value is given twice")
    return Vary(key, tuple(values), text)


def _values_of(part: str, text: str) -> list[float]:
    span = re.fullmatch(r"(-?\d+)\.\.(-?\d+)", part)
    if span:
        low, high = (int(_within_a_game(end, text)) for end in span.groups())
        if high < low or high - low >= MAX_SETTINGS:
            raise ValueError(f"--vary {text!r}: the range {part} must go up, by fewer than {MAX_SETTINGS:,} values")
        return [float(v) for v in range(low, high + 1)]
    if not re.fullmatch(_NUMBER, part):
        raise ValueError(f"--vary {text!r}: {part!r} is not a number (values are numbers like 8, 2.5, or a range 6..10)")
    return [_within_a_game(part, text)]


def _within_a_game(number: str, text: str) -> float:
    """A number of ``--vary`` as a float, refused past what a game holds: a 400-digit value became ``inf``,
    which a rule text then read as a name."""
    digits = len(number.lstrip("+-").split(".")[0].lstrip("0"))
    if digits > len(str(INT64)):
        value: float = math.inf
    else:
        value = float(number) if "." in number else int(number)
    if abs(value) > INT64:
        shown = number if len(number) <= 24 else number[:21] + "..."
        raise ValueError(f"--vary {text!r}: {shown} is too large: a game's numbers are at most {INT64:,}")
    return float(value)


def parse_target(text: str) -> Target:
    """``METRIC in [LO,HI]`` with LO <= HI; bounds may be written as percentages (``[50%,60%]``)."""
    found = re.fullmatch(r"\s*(\S+)\s+in\s+\[\s*(" + _NUMBER + r")(%?)\s*,\s*(" + _NUMBER + r")(%?)\s*\]\s*", text)
    if not found:
        raise ValueError(f"--target {text!r}: expected \"METRIC in [LO,HI]\", such as \"win_rate.P1 in [0.2,0.3]\"")
    metric, low, low_pc, high, high_pc = found.groups()
    low_value = float(low) / (100 if low_pc else 1)
    high_value = float(high) / (100 if high_pc else 1)
    if low_value > high_value:
        raise ValueError(f"--target {text!r}: the low end {low} is above the high end {high}")
    return Target(metric, low_value, high_value)


# --- metrics ---------------------------------------------------------------------------------

_RATES = ("win_rate", "role_win_rate", "agent_win_rate")
_SHARES = ("end_conditions", "winners")           # counts, read as shares of the finished games
_ALIASES = {"first_player_advantage": "first_player"}
_TURNS = ("mean", "sd", "median", "min", "max")


def metric_names(summary: dict, end_names: list[str]) -> list[str]:
    """Every metric a summary of this game has (cards and winners appear once games are played)."""
    names = [f"{head}.{label}" for head in _RATES for label in summary[head]]
    if summary["first_player"]["symmetric"]:           # a fair share means nothing when seats differ
        names += ["first_player_advantage", "first_player.fair"]
    names += [f"turns.{t}" for t in _TURNS]
    names += [f"end_conditions.{_slug(name)}" for name in end_names]
    return names


def check_metric(metric: str, known: list[str]) -> None:
    """A ValueError with a did-you-mean when the metric is not one the summary will have."""
    head = _ALIASES.get(metric.split(".", 1)[0], metric.split(".", 1)[0])
    if head in ("winners", "cards") and "." in metric:
        return                       # named by what the games produce: checked when they are counted
    if metric in known or (head == "end_conditions" and _slug(metric) in {_slug(k) for k in known}):
        return
    near = did_you_mean(metric, known)
    raise ValueError(f"--target: unknown metric '{metric}'" + (f"; {near}" if near else "")
                     + f" (metrics: {', '.join(known)}, winners.LABEL, cards.ID.win_rate)")


def measure(summary: dict, metric: str) -> Measure:
    """The metric's value in one setting's summary; an absent rate (no game finished) is None."""
    head, _, rest = metric.partition(".")
    head = _ALIASES.get(head, head)
    if head in _RATES:
        return _rate(summary[head].get(rest))
    if head == "first_player":
        return _plain(summary[head]["fair"]) if rest == "fair" else _rate(summary[head])
    if head == "turns":
        return _plain(summary["turns"].get(rest))
    if head in _SHARES:
        counts = {_slug(k): v for k, v in summary[head].items()}
        return _rate(Rate(counts.get(_slug(rest), 0), summary["completed"]).to_json())
    if head == "cards":
        card, _, field = rest.partition(".")
        entry = summary["cards"].get(card)
        if entry is None:
            return Measure(None, None, None, field != "played")
        return _rate(entry["win_rate"]) if field in ("", "win_rate") else _plain(entry.get(field))
    return Measure(None, None, None, False)


def _rate(rate: dict | None) -> Measure:
    if rate is None or rate["rate"] is None:
        return Measure(None, None, None, True)
    return Measure(rate["rate"], rate["low"], rate["high"], True)


def _plain(value: float | None) -> Measure:
    return Measure(value, value, value, False)


def _slug(text: str) -> str:
    return re.sub(r"[\s_]+", "_", text.strip().lower())


def meets(found: Measure, target: Target) -> tuple[bool, bool]:
    """(its 95% interval lies inside the target, its point estimate does)."""
    if found.value is None:
        return False, False
    return target.low <= found.low and found.high <= target.high, target.low <= found.value <= target.high


# --- settings and variants ----------------------------------------------------------------------

def combinations(varies: list[Vary]) -> list[tuple[float, ...]]:
    """Every setting, the last --vary changing fastest; too many is a ValueError, before any work."""
    total = 1
    for vary in varies:
        total *= len(vary.values)
    if total > MAX_SETTINGS:
        raise ValueError(f"the --vary values make {total:,} settings; at most {MAX_SETTINGS:,}")
    return list(itertools.product(*(vary.values for vary in varies)))


def describe(varies: list[Vary], values: tuple[float, ...]) -> str:
    return ", ".join(f"{vary.key}={number_text(value)}" for vary, value in zip(varies, values))


def addresses(doc: Document, varies: list[Vary], players: int) -> list[Address]:
    """Each key's address; every unknown key is reported, not only the first, and a number the games at
    ``players`` never read is a ValueError (a usage mistake), not a sweep of identical results."""
    found, errors = [], []
    for vary in varies:
        try:
            found.append(resolve(doc, vary.key))
        except RulelangError as error:
            errors.append(error)
    if errors:
        raise errors[0] if len(errors) == 1 else ErrorList(errors)
    seen: dict[tuple, str] = {}
    for vary, address in zip(varies, found):
        place = (address.path, address.number_in_text)
        if place in seen:
            raise ValueError(f"--vary {seen[place]} and --vary {vary.key} name the same number; vary it once")
        seen[place] = vary.key
        unread = unread_at(doc, address, players)
        if unread:
            raise ValueError(unread)
    return found


def build_variant(doc: Document, places: list[Address], values: tuple[float, ...], label: str,
                  params: dict | None = None) -> Game:
    """The game with these values: checked and compiled like a spec read from disk."""
    from rulelang.spec.schema import validate_document

    from ..compiler import compile_game

    changed = with_values(doc, list(zip(places, values)))
    try:
        validate_document(changed)
        return compile_game(changed, params)
    except RulelangError as error:
        for each in (error.errors if isinstance(error, ErrorList) else [error]):
            each.notes = list(each.notes) + [f"with the sweep setting {label}: the spec is not valid with this value"]
        raise


# --- playing ---------------------------------------------------------------------------------

#: Compiled variants, by (path, settings): built once in the parent, which forked workers inherit.
_VARIANTS: dict[tuple, Game] = {}


def _variant(source: tuple, setting: tuple) -> Game:
    """A variant in a worker: inherited when forked, built again when the process was spawned."""
    key = (source, setting)
    if key not in _VARIANTS:
        from rulelang.pipeline import read_spec
        path, mods, params = source
        places, values = zip(*setting) if setting else ((), ())
        _VARIANTS[key] = build_variant(read_spec(path, mods=mods), list(places), tuple(values), "",
                                       dict(params))
    return _VARIANTS[key]


def _play_chunk(batch: Batch, setting: tuple, number: int, start: int, stop: int) -> tuple[int, list[GameRecord]]:
    game = _variant(batch.source, setting)
    return number, [play_game(game, batch, index) for index in range(start, stop)]


class SweepInterrupted(Exception):
    """Ctrl-C stopped a sweep: ``results`` holds what was played (records per setting in ``play_settings``,
    then the SweepResults of the settings whose every game finished, in ``run_sweep``)."""

    def __init__(self, results: list) -> None:
        super().__init__("interrupted")
        self.results = results


def play_settings(batch: Batch, settings: list[tuple], workers: int,
                  progress: Callable[[int], None] | None = None) -> list[list[GameRecord]]:
    """The batch under every setting (a tuple of (address, value) pairs), records in game order.

    Ctrl-C raises SweepInterrupted with the records played so far."""
    results: list[list[GameRecord]] = [[] for _ in settings]
    workers = worker_count(workers, batch.games * len(settings))
    try:
        return _play_all(batch, settings, workers, progress, results)
    except KeyboardInterrupt:
        for records in results:
            records.sort(key=lambda record: record.index)
        raise SweepInterrupted(results) from None


def _play_all(batch: Batch, settings: list[tuple], workers: int, progress: Callable[[int], None] | None,
              results: list[list[GameRecord]]) -> list[list[GameRecord]]:
    if workers <= 1:
        for number, setting in enumerate(settings):
            game = _variant(batch.source, setting)
            for index in range(batch.games):
                results[number].append(play_game(game, batch, index))
                if progress is not None:
                    progress(1)
        return results
    chunk = max(1, min(100, batch.games * len(settings) // (workers * 8)))
    pool = ProcessPoolExecutor(max_workers=workers, initializer=ignore_interrupt)
    try:
        with quiet_workers():           # a forking pool starts its processes on the first submit
            pending: set[Future] = {pool.submit(_play_chunk, batch, setting, number, start,
                                                min(start + chunk, batch.games))
                                    for number, setting in enumerate(settings)
                                    for start in range(0, batch.games, chunk)}
        while pending:
            done, pending = wait(pending, return_when=FIRST_COMPLETED)
            for future in done:
                number, records = future.result()
                results[number].extend(records)
                if progress is not None:
                    progress(len(records))
    finally:
        pool.shutdown(wait=True, cancel_futures=True)
    for records in results:
        records.sort(key=lambda record: record.index)
    return results


@dataclass
class SweepResult:
    """One setting's values, its summary, and how its metric stands against the target."""

    values: tuple[float, ...]
    summary: dict
    measure: Measure
    meets: bool
    in_range: bool


def run_sweep(doc: Document, path: str, varies: list[Vary], batch: Batch, metric: str, target: Target | None,
              workers: int = 1, progress: Callable[[int], None] | None = None) -> list[SweepResult]:
    """Compile every variant (all errors before any game), play them, and measure the metric."""
    places = addresses(doc, varies, batch.players)
    every = combinations(varies)
    settings = [tuple(zip(places, values)) for values in every]
    games = [build_variant(doc, places, values, describe(varies, values), dict(batch.params)) for values in every]
    for values, game in zip(every, games):
        if not game.min_players <= batch.players <= game.max_players:
            raise ValueError(f"with {describe(varies, values)}, {game.name} is for {game.min_players} to "
                             f"{game.max_players} players, not {batch.players}")
    for setting, game in zip(settings, games):
        _VARIANTS[(batch.source, setting)] = game
    try:
        played = play_settings(batch, settings, workers, progress)
    except SweepInterrupted as stop:
        finished = [(values, game, records) for values, game, records in zip(every, games, stop.results)
                    if len(records) == batch.games]
        raise SweepInterrupted(_measured(finished, batch, metric, target)) from None
    finally:
        for setting in settings:
            _VARIANTS.pop((batch.source, setting), None)
    return _measured(list(zip(every, games, played)), batch, metric, target)


def _measured(played: list[tuple], batch: Batch, metric: str, target: Target | None) -> list[SweepResult]:
    """Each setting's summary and its metric against the target."""
    results = []
    for values, game, records in played:
        summary = game_summary(game, batch, records)
        found = measure(summary, metric)
        ok, in_range = meets(found, target) if target else (False, False)
        results.append(SweepResult(values, summary, found, ok, in_range))
    return results
