"""Saved games are untrusted: check one fully before it becomes a State.

A saved state could be damaged or forged: a card in two zones, a negative
counter, a decision offering an option the rules never would, a game won by
a seat that does not exist. ``load_state`` refuses each with a plain
SavedStateError naming the place in the saved data as a JSON path
(``zones.hand.P2[3]``) and the file, never with a KeyError. It checks the
shape (schemas/state.schema.json), then the game's own invariants, then asks
the rules themselves: the waiting decision is computed again from where the
rules stopped, and a finished game's end conditions are evaluated again.
"""
from __future__ import annotations

from typing import Any

from rulelang.engine.game import Game
from rulelang.engine.names import player_name
from rulelang.engine.state import State, check_saved_games_with
from rulelang.errors import RulelangError
from rulelang.lang.types import BOOL, CARD, COUNTER, INT, INT64, LOCATION, PLAYER, Type, tuple_items
from rulelang.printable import counted, printable_lines
from rulelang.spec.inputs import (
    InputError,
    canonical,
    decode_text,
    read_regular_file,
    schema_validator,
    schema_words,
    strict_json,
)

#: Bounds of what the rules' own locals may hold in a saved frame.
MAX_LOCAL_DEPTH = 6
MAX_LOCAL_ITEMS = 10_000


class SavedStateError(RulelangError):
    """A saved state that is not a position of this game: where (a JSON path) and what is wrong."""

    def __init__(self, message: str, path: str = "", source: str | None = None, hint: str | None = None):
        super().__init__(f"{path}: {message}" if path else message, hint=hint)
        self.path = path
        self.source = source

    def format(self) -> str:
        where = f"{self.source}: " if self.source else ""
        out = [f"{where}error: saved state: {self.message}"]
        if self.hint:
            out.append(f"hint: {self.hint}")
        out.extend(f"note: {note}" for note in self.notes)
        return printable_lines(out)


def read_state_file(game: Game, path: str, replay: bool = False) -> State:
    """A saved state read from a JSON file (regular, bounded, strict JSON), checked in full."""
    try:
        data = strict_json(decode_text(read_regular_file(path), path))
    except InputError as error:
        raise SavedStateError(error.message if error.span is None else
                              f"line {error.span.line}, column {error.span.col}: {error.message}",
                              source=path, hint=error.hint) from None
    except ValueError as error:          # JSONDecodeError included
        raise SavedStateError(f"not JSON: {error}", source=path) from None
    except RecursionError:
        raise SavedStateError("not JSON: nested too deeply", source=path) from None
    return load_state(game, data, path, replay)


def load_state(game: Game, data: Any, source: str | None = None, replay: bool = False) -> State:
    """A State from saved data, or a SavedStateError saying what is wrong and where.

    ``replay`` also replays the saved events and requires the very same state:
    proof against any change, but it refuses positions set up by hand (scenarios, tools).
    """
    check = _Check(game, source)
    check.shape(data)
    check.invariants(data)
    state = State._restore(game, data)
    check.decision(state)
    check.ending(state)
    if replay:
        check.replayed(state)
    return state


def json_path(parts: list) -> str:
    """``['zones', 'hand.P2', 3]`` -> ``zones.hand.P2[3]``."""
    out = ""
    for part in parts:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += ("." if out else "") + str(part)
    return out or "(the state)"


class _Check:
    """The checks of one saved state against one game, in order; each raises at the first problem."""

    def __init__(self, game: Game, source: str | None) -> None:
        self.game = game
        self.source = source
        self.n = 0

    def fail(self, parts: list, message: str, hint: str | None = None) -> None:
        raise SavedStateError(message, json_path(parts), self.source, hint)

    # -- names of places in the saved data -----------------------------------

    def named(self, parts: list) -> list:
        """A path by names where the game knows them: zones.hand.P2 rather than zones[7]."""
        game, out = self.game, list(parts)
        if len(out) < 2 or not isinstance(out[1], int) or not game.min_players <= self.n <= game.max_players:
            return out
        index = out[1]
        if out[0] == "zones" and index < len(game.layout(self.n).zone_labels):
            out[1] = game.layout(self.n).zone_labels[index].replace(":", ".")
        elif out[0] == "counters" and index < game.player_holder + self.n + len(game.card_type):
            out[1] = self.holder(index)
            if len(out) > 2 and isinstance(out[2], int) and out[2] < len(game.counters):
                out[2] = game.counters[out[2]]
        elif out[0] == "vars" and index < self.n:
            out[1] = player_name(index)
            if len(out) > 2 and isinstance(out[2], int) and out[2] < len(game.var_names):
                out[2] = game.var_names[out[2]]
        return out

    def holder(self, h: int) -> str:
        game = self.game
        if h == 0:
            return "game"
        if h < game.player_holder:
            return game.locations[h - 1]
        if h < game.player_holder + self.n:
            return player_name(h - game.player_holder)
        card = h - game.player_holder - self.n
        return f"{game.card_type[card].id}#{card}"

    # -- the shape -------------------------------------------------------------

    def shape(self, data: Any) -> None:
        if not isinstance(data, dict):
            self.fail([], f"a saved state is a JSON object, not {type(data).__name__}")
        n = data.get("n")
        self.n = n if type(n) is int else 0
        errors = sorted(schema_validator("state").iter_errors(data), key=lambda e: [str(p) for p in e.absolute_path])
        if errors:
            first = errors[0]
            more = f" (and {len(errors) - 1} more problems)" if len(errors) > 1 else ""
            self.fail(self.named(list(first.absolute_path)), schema_words(first) + more,
                      "the file is damaged, or was not written by State.to_json()")

    # -- the game's invariants -------------------------------------------------------

    def invariants(self, data: dict) -> None:
        game = self.game
        if data["game"] != game.name:
            self.fail(["game"], f"this is a saved game of '{data['game']}', not of '{game.name}'")
        if not game.min_players <= data["n"] <= game.max_players:
            self.fail(["n"], f"{game.name} is for {game.min_players} to {game.max_players} players, "
                             f"not {data['n']}")
        self.n = data["n"]
        self.sizes(data)
        self.counters(data)
        self.cards(data)
        self.reveals(data)
        self.variables(data)
        self.places(data)
        self.outcome(data)
        self.frames(data)
        self.history(data)

    def sizes(self, data: dict) -> None:
        game, n = self.game, self.n
        holders = game.player_holder + n + len(game.card_type)
        expect = {"counters": (holders, len(game.counters)), "vars": (n, len(game.var_names)),
                  "zones": (len(game.layout(n).zones), None), "loc": (len(game.card_type), None)}
        for key, (rows, width) in expect.items():
            if len(data[key]) != rows:
                self.fail([key], f"{counted(len(data[key]), 'entry', 'entries')}, but this game has {rows} for "
                                f"{counted(n, 'player')}")
            if width is not None:
                for i, row in enumerate(data[key]):
                    if len(row) != width:
                        self.fail(self.named([key, i]), f"{counted(len(row), 'value')}, but this game has {width}")

    def counters(self, data: dict) -> None:
        """Every counter within the game's own number_limit (the schema only knows 0 to 2**63-1)."""
        limit = self.game.number_limit
        for h, row in enumerate(data["counters"]):
            for c, value in enumerate(row):
                if value > limit:
                    self.fail(self.named(["counters", h, c]),
                              f"{value:,} is past the game's number_limit of {limit:,}")

    def cards(self, data: dict) -> None:
        """Every card instance in exactly one zone, and `loc` saying which."""
        types, seen = self.game.card_type, {}
        for zid, cards in enumerate(data["zones"]):
            for k, card in enumerate(cards):
                where = self.named(["zones", zid, k])
                if card >= len(types):
                    self.fail(where, f"no card {card}: this game has {len(types)} cards (0 to {len(types) - 1})")
                if card in seen:
                    self.fail(where, f"card {card} ({types[card].id}) is also at {json_path(self.named(seen[card]))}",
                              "a card is in exactly one place")
                seen[card] = ["zones", zid, k]
                if data["loc"][card] != zid:
                    self.fail(["loc", card], f"card {card} ({types[card].id}) is at {json_path(where)}, "
                                             f"but loc says zone {data['loc'][card]}")
        for card in range(len(types)):
            if card not in seen:
                self.fail(["loc", card], f"card {card} ({types[card].id}) is in no zone")

    def reveals(self, data: dict) -> None:
        """Each revealed card a real card shown to a real player, once."""
        seen = set()
        for i, (card, seat) in enumerate(data.get("revealed", [])):
            if card >= len(self.game.card_type):
                self.fail(["revealed", i, 0], f"no card {card}: this game has {len(self.game.card_type)} cards")
            if seat >= self.n:
                self.fail(["revealed", i, 1], f"no player {seat}: the game has {self.n} players (0 to {self.n - 1})")
            if (card, seat) in seen:
                self.fail(["revealed", i], f"card {card} is revealed to player {seat} twice")
            seen.add((card, seat))

    def variables(self, data: dict) -> None:
        for p, row in enumerate(data["vars"]):
            for vi, (kind, value) in enumerate(zip(self.game.var_types, row)):
                problem = self.bad_value(kind, value)
                if problem:
                    self.fail(self.named(["vars", p, vi]), problem)

    def bad_value(self, kind: Type, value: Any) -> str | None:
        """Why a value cannot be held by a variable of this type (None when it can)."""
        game = self.game
        elements = tuple_items(kind)
        if elements is not None:
            if type(value) is not list or len(value) != len(elements):
                return f"a {kind} variable holds a list of {len(elements)} values, not {canonical(value)}"
            return next(filter(None, (self.bad_value(k, v) for k, v in zip(elements, value))), None)
        if kind == BOOL:
            return None if type(value) is bool else f"a bool variable holds true or false, not {canonical(value)}"
        if kind == INT:
            if type(value) is int and -INT64 - 1 <= value <= INT64:
                return None
            return f"an int variable holds a whole number (64-bit), not {canonical(value)}"
        sizes = {PLAYER: (0, self.n), LOCATION: (1, 1 + len(game.locations)),
                 CARD: (0, len(game.card_type)), COUNTER: (0, len(game.counters))}
        if kind not in sizes or value is None:
            return None
        low, high = sizes[kind]
        if type(value) is not int or not low <= value < high:
            return f"a {kind} variable holds a {kind} of this game or none, not {canonical(value)}"
        return None

    def places(self, data: dict) -> None:
        game, n = self.game, self.n
        if data["phase"] >= len(game.phases):
            self.fail(["phase"], f"no phase {data['phase']}: this game has {len(game.phases)}")
        for key in ("active", "next_player"):
            if data[key] is not None and data[key] >= n:
                self.fail([key], f"P{data[key] + 1} is not a seat of a {n}-player game")
        if len(data["out"]) != n:
            self.fail(["out"], f"a {n}-player game has {n} eliminated flags, not {len(data['out'])}")

    def outcome(self, data: dict) -> None:
        n, names = self.n, [e.name for e in self.game.end]
        for i, seat in enumerate(data["winners"]):
            if seat >= n:
                self.fail(["winners", i], f"P{seat + 1} is not a seat of a {n}-player game")
        if data["winners"] != sorted(data["winners"]):
            self.fail(["winners"], "winners are listed in seat order")
        if not data["over"]:
            if data["winners"] or data["result"] is not None:
                self.fail(["over"], "a game that is not over has no winners and no result")
            return
        if data["result"] not in names:
            self.fail(["result"], f"no end condition '{data['result']}' in {self.game.name}",
                      "end conditions: " + ", ".join(names))
        if data["pending"] is not None:
            self.fail(["pending"], "a game that is over waits for no decision")

    def frames(self, data: dict) -> None:
        """The rules' place: real procedures, real instructions, plain locals."""
        game, stack = self.game, data["stack"]
        if not stack and not data["over"]:
            self.fail(["stack"], "a game in progress is somewhere in its rules; this stack is empty")
        for i, (proc, pc, local) in enumerate(stack):
            if proc >= len(game.procs):
                self.fail(["stack", i, 0], f"no procedure {proc}: this game has {len(game.procs)}")
            if (proc == game.main) != (i == 0):
                self.fail(["stack", i, 0], "the turn loop is the first frame, and only the first")
            if pc > len(game.code[proc]):
                self.fail(["stack", i, 1], f"{game.procs[proc].name} has {len(game.code[proc])} instructions, "
                                           f"not {pc}")
            self.plain(["stack", i, 2], local, 0, [0])

    def plain(self, parts: list, value: Any, depth: int, count: list[int]) -> None:
        """Locals hold numbers, conditions, none, texts and lists of them, in bounded amounts."""
        count[0] += 1
        if depth > MAX_LOCAL_DEPTH or count[0] > MAX_LOCAL_ITEMS:
            self.fail(parts, "the rules never keep this much in one frame")
        if isinstance(value, dict):
            for key, item in value.items():
                self.plain(parts + [key], item, depth + 1, count)
        elif isinstance(value, list):
            for k, item in enumerate(value):
                self.plain(parts + [k], item, depth + 1, count)
        elif type(value) is int and not -INT64 - 1 <= value <= INT64:
            self.fail(parts, "a number out of the 64-bit range")
        elif not isinstance(value, (int, bool, str)) and value is not None:
            self.fail(parts, f"not a value the rules keep: {canonical(value)}")

    def history(self, data: dict) -> None:
        """The events so far: a log of this very game, as far as can be told without replaying it.

        Every event has a known type and turn; the first and the last are checked
        in full. ``load_state(..., replay=True)`` replays the log itself.
        """
        from rulelang.logs.eventlog import EVENT_TYPES, event_problem

        events = data["events"]
        for i, event in enumerate(events):
            turn = event.get("turn", 0)
            kind = event.get("type")
            if not isinstance(kind, str) or kind not in EVENT_TYPES or type(turn) is not int or turn < 0:
                self.fail(["events", i], event_problem(event) or "not an event")
        for i in {0, len(events) - 1}:
            problem = event_problem(events[i])
            if problem:
                self.fail(["events", i], problem)
        start = events[0]
        if start["type"] != "started":
            self.fail(["events", 0], "the events start with a 'started' event")
        for key, field in (("game", "game"), ("n", "players"), ("seed", "seed")):
            if canonical(start[field]) != canonical(data[key]):
                self.fail(["events", 0, field], f"{canonical(start[field])}, but the state's {key} is "
                                                f"{canonical(data[key])}")
        saved_params = start.get("params", {})
        if canonical(saved_params) != canonical(self.game.params):     # a game compiled for other param values
            self.fail(["events", 0, "params"], f"{canonical(saved_params)}, but the game was loaded with params "
                                               f"{canonical(self.game.params)}")
        if data["over"]:
            last = events[-1]
            told = [player_name(p) for p in data["winners"]]
            if last["type"] != "ended" or last["condition"] != data["result"] or last["winners"] != told:
                self.fail(["events", len(events) - 1],
                          f"a finished game's last event is 'ended' by {data['result']} won by {told}")

    def replayed(self, state: State) -> None:
        """The saved events, replayed from their start and choices, give this very state."""
        from rulelang.logs.replay import verify_log

        check = verify_log(self.game, state.events, partial=True)
        if not check.ok:
            self.fail(["events", check.line - 1], f"the events are not this game's: {check.reason}")
        if check.error is not None or check.state.dumps() != state.dumps():
            self.fail([], "replaying the saved events gives another position than the one saved",
                      "the state was changed after it was saved (or set up by hand)")

    # -- what the rules themselves say ------------------------------------------------

    def decision(self, state: State) -> None:
        """The waiting decision must be the one the rules ask at this point, asked again here."""
        if state.over:
            return
        if state.pending is None:
            self.halted(state)
            return
        fresh = state.copy()
        fresh.pending = None
        frame = fresh.stack[-1]
        pc = frame.pc
        code = self.game.code[frame.proc]
        if pc >= len(code):
            self.fail(["stack", len(state.stack) - 1, 1], "no instruction here asks for a decision")
        frame.pc = pc + 1                  # as the interpreter does before running an instruction
        try:
            waiting = code[pc](fresh, frame)
        except Exception:  # noqa: BLE001 - forged locals can make a rule fail in any way; refuse the state
            waiting = False
        if not waiting or fresh.pending is None:
            self.fail(["pending"], "the rules ask no decision at this point of the game",
                      "the saved decision or the saved place in the rules was changed")
        self.same_decision(state.pending, fresh.pending)
        fresh.pending["chosen"] = list(state.pending["chosen"])
        if fresh.dumps() != state.dumps():   # asking again changed something: the saved locals were not the rules'
            self.fail(["stack", len(state.stack) - 1, 2], "the rules keep other values here while they wait",
                      "the saved place in the rules was changed")

    def same_decision(self, saved: dict, asked: dict) -> None:
        for key in ("kind", "prompt", "players", "options", "values"):
            if canonical(saved[key]) != canonical(asked[key]):
                self.fail(["pending", key], f"the rules ask {canonical(asked[key])} here, "
                                            f"not {canonical(saved[key])}",
                          "the saved decision was changed")
        chosen = saved["chosen"]
        if len(chosen) != len(saved["players"]) or None not in chosen:
            self.fail(["pending", "chosen"], "one entry per player who must choose, and someone still to choose")
        for i, pick in enumerate(chosen):
            if pick is not None and pick >= len(saved["options"][i]):
                self.fail(["pending", "chosen", i], f"{player_name(saved['players'][i])} has "
                                                    f"{len(saved['options'][i])} options, not option {pick}")

    def halted(self, state: State) -> None:
        """With no decision and no end, the game stopped before a step of its turn loop, and nowhere else."""
        game = self.game
        if len(state.stack) != 1 or state.stack[0].pc not in game.step_pcs.values() or state.stack[0].locals:
            self.fail(["pending"], "a game in progress waits for a decision, or stands before a step",
                      "the saved decision was removed, or the place in the rules was changed")

    def ending(self, state: State) -> None:
        """A finished game: its end conditions, evaluated again, pick the same result and winners."""
        if not state.over:
            return
        game = self.game
        local = {"me": state.active} if game.phases[state.phase].by_seat else {}
        try:
            cond = next((c for c in game.end if c.when(state, local)), None)
            won = None if cond is None else cond.winner(state, local)
        except Exception:  # noqa: BLE001 - a forged position can make a condition fail; refuse the state
            self.fail(["result"], "the end conditions cannot be evaluated on this position")
        if cond is None:
            self.fail(["over"], "no end condition holds in this position")
        winners = [won] if isinstance(won, int) else sorted(set(won or []))
        if cond.name != state.result:
            self.fail(["result"], f"the end condition that holds is '{cond.name}', not '{state.result}'")
        if winners != state.winners:
            self.fail(["winners"], f"{cond.name} is won by {[player_name(p) for p in winners]}, "
                                   f"not {state.winner_names()}")


check_saved_games_with(load_state)        # State.from_json: the engine asks this module, never imports it
