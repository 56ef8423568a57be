"""Play a batch of games with agents, in one process or several, with the same results.

Game ``i`` of a batch started with seed ``S`` is a function of (S, i) only:
its seed is ``batch_seed(S, i)`` and each seat's agent is seeded from that
game seed and the seat. Which process plays it, and in what order, cannot
change it, so ``--workers`` changes the speed and nothing else.

A game that fails (a rule error, a player with no legal option, a game
that is stuck or never ends) becomes a record with its error and seed; the
batch goes on.
"""
from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass, field

from rulelang.engine.game import Game
from rulelang.engine.interpreter import current_span
from rulelang.engine.limits import MAX_DECISIONS
from rulelang.engine.records import answered, chose, first_seat, played
from rulelang.engine.rng import batch_seed
from rulelang.engine.state import State
from rulelang.lab.workers import ignore_interrupt, quiet_workers, worker_count
from rulelang.printable import counted

from ..agents import make_agent, parse_agent, play_out
from ..agents.play import DecisionLimit, all_blind
from ..errors import RuleError, RulelangError


@dataclass(frozen=True)
class Batch:
    """What to play: the same for every worker."""

    path: str
    players: int
    games: int
    seed: int
    agents: tuple[str, ...]          # the agent's name at each seat
    mods: tuple[str, ...] = ()       # mod files laid over the game, in order
    params: tuple[tuple[str, object], ...] = ()   # the game's param values given, as (name, value) pairs
    quality: bool = False            # keep each turn's scores for the game-quality measures (slower)

    @property
    def source(self) -> tuple:
        """What a worker loads: the game, its mods and its param values."""
        return (self.path, self.mods, self.params)


@dataclass
class GameRecord:
    """What one game leaves for the statistics: small, so workers send it back cheaply.

    Its sequences are tuples of plain values, never lists: the garbage collector soon stops watching such a
    tuple, while it walks every list a batch keeps (tens of thousands of records) at each collection. With
    lists a batch kept four watched objects a game; with tuples, one (the record)."""

    index: int
    seed: int
    turns: int = 0
    winners: tuple[int, ...] = ()
    team: str | None = None
    condition: str | None = None      # the end condition that ended it
    first: int | None = None          # the seat that moved first
    plays: dict[str, dict[int, int]] = field(default_factory=dict)   # card -> seat -> times played
    error: str | None = None          # the located report of a game that failed
    choices: tuple[tuple, ...] = ()                          # each choice as (turn, seat, option, kind)
    counters: tuple[tuple[int, ...], ...] = ()               # the counter rows at the end: game, locations, players
    scores: tuple[int, ...] | None = None                    # each seat's score at the end, if the game has one
    score_turns: tuple[tuple[int, ...], ...] = ()            # with Batch.quality: scores as each turn began
    #: with Batch.quality: each decision asked, as (its name, its number of options), in order
    branching: tuple[tuple[str, int], ...] = ()

def seated_agents(names: tuple[str, ...], game_seed: int) -> list:
    """The agents of one game, each seeded from the game's seed and its seat: the one home of that rule,
    so `rulelang run --agents A --seed S` plays the game a batch plays with game seed S."""
    return [make_agent(name, batch_seed(game_seed, seat)) for seat, name in enumerate(names)]


def seat_agents(names: str, players: int) -> tuple[str, ...]:
    """One agent spec for every seat, from ``random`` (all seats) or ``a,b,c`` (one per seat).

    A spec may carry settings (``mcts:iterations=200``) or name the user's own
    class (``mybots:Smart``); see rulelang/agents/registry.py. A ValueError
    says what is wrong, for a usage error.
    """
    parts = [part.strip() for part in names.split(",")]
    for part in parts:
        parse_agent(part)
    if len(parts) == 1:
        return tuple(parts * players)
    if len(parts) != players:
        raise ValueError(f"--agents names {counted(len(parts), 'agent')} for {counted(players, 'player')}; "
                         "give one, or one per seat")
    return tuple(parts)


def play_game(game: Game, batch: Batch, index: int) -> GameRecord:
    """Game ``index`` of the batch, played to its end or to its error."""
    seed = batch_seed(batch.seed, index)
    record = GameRecord(index, seed)
    state: State | None = None
    try:
        agents = seated_agents(batch.agents, seed)
        # played in place from the start (play_new); agents that read nothing of the game (random ones) need
        # none of its history, and the statistics read only what a game without it keeps (records.py)
        trail: list[tuple[int, ...]] = []
        asked: list[tuple[str, int]] = []
        watch = _score_watcher(trail) if batch.quality and game.score is not None else None
        state = game.new_state(batch.players, seed, observer=watch, before_first_turn=True,
                               history=not all_blind(agents))
        _play(state, agents, _tally(asked) if batch.quality else None)
        record.score_turns, record.branching = tuple(trail), tuple(asked)
    except RulelangError as error:
        record.error = _located(error, state or getattr(error, "state", None), batch, record)
        return record
    except Exception as error:  # noqa: BLE001 - a bug of rulelang: counted with its seed, not fatal to the batch
        failure = RuleError(f"rulelang failed while playing ({type(error).__name__}: {error})",
                            hint="this is a bug in rulelang itself; please report it with the seed")
        record.error = _located(failure, state, batch, record)
        return record
    _note_result(record, state)
    return record


def _score_watcher(trail: list[tuple[int, ...]]) -> Callable:
    """An observer that notes the scores as each turn begins (``--quality``): what lead changes are read from."""
    seen = [None]

    def watch(state: State, step: str) -> None:
        if state.turn != seen[0]:
            seen[0] = state.turn
            trail.append(tuple(state.scores()))
    return watch


def _tally(asked: list[tuple[str, int]]) -> Callable[[str, int], None]:
    """What notes each decision asked and its number of options (``--quality``: the branching factor)."""
    note = asked.append
    return lambda name, count: note((name, count))


def _play(state: State, agents: list, tally: Callable[[str, int], None] | None = None) -> None:
    """Ask each seat's agent until the game ends (``play_out``); a game that cannot go on raises a RuleError."""
    try:
        play_out(state, agents, MAX_DECISIONS, tally)          # agents get their seats, never the state
    except DecisionLimit:
        raise RuleError(f"the game did not end after {MAX_DECISIONS:,} decisions",
                        hint="check that an end condition can hold, and that 'check end' runs") from None
    if not state.over:
        raise RuleError("the game is stuck: it is not over and waits for no decision")


def _located(error: RulelangError, state: State | None, batch: Batch, record: GameRecord) -> str:
    """The error's report, placed at the running instruction if it has no place, naming the game."""
    if error.span is None and state is not None:
        error.span = current_span(state)
    turn = f", turn {state.turn}" if state is not None else ""
    error.notes = list(error.notes) + [
        f"game {record.index} of the batch with seed {batch.seed} (game seed {record.seed}{turn}; "
        f"agents {','.join(batch.agents)})"]
    return error.format()


def _note_result(record: GameRecord, state: State) -> None:
    """Copy what the statistics need out of a finished game and its events."""
    record.turns = state.turn
    record.winners = tuple(state.winners)
    record.team = state.winning_team()
    record.condition = state.result
    record.first = first_seat(state)
    read_log(state, record)
    game = state.game
    record.counters = tuple(map(tuple, state.counters[:game.player_holder + state.n]))   # named when counted
    if game.score is not None:
        record.scores = tuple(state.scores())


def read_log(state: State, record: GameRecord) -> None:
    """The cards each seat played (an answer is a card played too) and every choice's record,
    in one pass over the log without expanding it: what ``records.cards_played`` and ``choices_taken`` read,
    at the cost of one walk instead of two (the walk is most of what a batch adds to a game)."""
    plays, types = record.plays, state.game.card_type
    taken: list[tuple] = []
    for entry in state.log:
        if entry.__class__ is tuple:
            kind = entry[0]
            if kind is chose:
                taken.append(entry[1:5])     # plain values only, so the collector soon stops looking at it
            elif kind is played or kind is answered:
                seats = plays.setdefault(types[entry[3]].id, {})
                seats[entry[2]] = seats.get(entry[2], 0) + 1
        elif entry["type"] == "chose":
            taken.append(_chose_event(entry))
        elif entry["type"] in ("played", "answered"):
            seats = plays.setdefault(entry["card"], {})
            seat = int(entry["player"][1:]) - 1
            seats[seat] = seats.get(seat, 0) + 1
    record.choices = tuple(taken)


def choices_taken(state: State) -> tuple[tuple, ...]:
    """Every choice as (turn, seat, option, kind), from the `chose` records even a game without history keeps."""
    record = GameRecord(0, 0)
    read_log(state, record)
    return record.choices


def _chose_event(event: dict) -> tuple:
    """A `chose` event already expanded to its dict (a game an agent read), in its record's shape."""
    return event["turn"], int(event["player"][1:]) - 1, event["option"], event["decision"]


# --- batches ----------------------------------------------------------------------

#: The game each worker process plays, by path and mods: loaded once per process.
_LOADED: dict[tuple, Game] = {}


def _start_worker(source: tuple) -> None:
    """Load the game once per worker (a forked worker already has it); Ctrl-C is the parent's to handle."""
    ignore_interrupt()
    if source not in _LOADED:
        from rulelang import load_game
        path, mods, params = source
        _LOADED[source] = load_game(path, mods, dict(params))


def _play_range(batch: Batch, start: int, stop: int) -> list[GameRecord]:
    game = _LOADED[batch.source]
    return [play_game(game, batch, index) for index in range(start, stop)]


class BatchInterrupted(Exception):
    """Ctrl-C stopped a batch: ``records`` holds the games that finished before it, in index order."""

    def __init__(self, records: list[GameRecord]) -> None:
        super().__init__("interrupted")
        self.records = records


def run_batch(game: Game, batch: Batch, workers: int = 1,
              progress: Callable[[int], None] | None = None) -> list[GameRecord]:
    """Every game of the batch in index order; ``progress(n)`` is told as each n more games finish.

    Ctrl-C raises BatchInterrupted with the games played so far, so what was played is not lost.
    """
    workers = worker_count(workers, batch.games)
    records: list[GameRecord] = []
    try:
        if workers <= 1:
            for index in range(batch.games):
                records.append(play_game(game, batch, index))
                if progress is not None:
                    progress(1)
            return records
        return _run_in_pool(game, batch, workers, progress, records)
    except KeyboardInterrupt:
        records.sort(key=lambda record: record.index)
        raise BatchInterrupted(records) from None


def _run_in_pool(game: Game, batch: Batch, workers: int, progress: Callable[[int], None] | None,
                 records: list[GameRecord]) -> list[GameRecord]:
    """The batch in ``workers`` processes, a chunk of games at a time; ``records`` fills as chunks finish."""
    _LOADED[batch.source] = game
    chunk = max(1, min(100, batch.games // (workers * 8)))
    pool = ProcessPoolExecutor(max_workers=workers, initializer=_start_worker,
                               initargs=(batch.source,))
    try:
        with quiet_workers():           # a forking pool starts its processes on the first submit
            pending: set[Future] = {pool.submit(_play_range, batch, start, min(start + chunk, batch.games))
                                    for start in range(0, batch.games, chunk)}
        while pending:
            done, pending = wait(pending, return_when=FIRST_COMPLETED)
            for future in done:
                finished = future.result()
                records.extend(finished)
                if progress is not None:
                    progress(len(finished))
    finally:
        pool.shutdown(wait=True, cancel_futures=True)
    records.sort(key=lambda record: record.index)
    return records
