"""Rules compiled to Python: the one module that turns generated source into functions.

Checked syntax trees become Python source (``source_expr``, ``source_stmt``) and are
compiled here, once per game, as Jinja2 compiles a template. Nothing of a spec's text
reaches the source except as ``repr`` literals (names of locals, counters, texts),
integers and the names of functions (a declaration's names as lower-case ASCII words,
``naming.py``); every other value the code needs (tables, spans, closures) is bound in the
unit's own namespace under a name the generator makes up (``_k3``). The namespace holds
no builtins but the few listed in ``HELPERS``, so generated code can reach nothing else.

A failure inside a generated function is told at the statement it belongs to through a
line table (generated line -> spec span), read only when something fails: the happy path
pays nothing for it.
"""
from __future__ import annotations

import itertools
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from types import TracebackType
from typing import Any

from rulelang.engine import records
from rulelang.engine.cards import create_tokens, discard_card, draw_cards, end_roll_durations, move_card, shuffle_zone
from rulelang.engine.elimination import live_from, live_players, next_live
from rulelang.engine.interpreter import (
    FAILURES,
    call_in_place,
    decide,
    decide_secretly,
    fired_in_place,
    instruction_in_place,
    located,
    within,
)
from rulelang.engine.limits import over_budget, roll_dice, spend, too_big
from rulelang.engine.names import NAMES
from rulelang.engine.reveals import reveal_cards, revealed_to_nobody
from rulelang.engine.rolls import add_dice, change_face, remove_dice, reroll_all, reroll_face, roll_for_event
from rulelang.engine.turns import check_end

from ..errors import RuleError, Span
from ..printable import printable
from .aggregates import any_of_kind, numbers_between
from .expressions import every_players_cards
from .kinds import kind_is

#: The file name generated code is compiled under (tracebacks and the line table use it).
FILENAME = "<rulelang generated>"

#: Source that may read the locals ``L``: the name, not part of another name or next to a string's quote (a name
#: inside a string literal only makes the locals kept when they need not be).
READS_LOCALS = re.compile(r"(?<![\w.'\"])L\b")

#: How generated instructions read their frame's locals.
FRAME_LOCALS = "fr.locals"
#: How generated instructions jump: the frame's program counter.
FRAME_PC = "fr.pc"

#: Every name generated code may call, besides the unit's own constants.
HELPERS: dict[str, Any] = {
    "len": len, "list": list, "max": max, "min": min, "sum": sum, "any": any, "all": all, "range": range, "zip": zip,
    "_FAILURES": FAILURES, "_NAMES": NAMES,
    "_live_from": live_from, "_live_players": live_players, "_next_live": next_live,
    "_check_end": check_end, "_discard_card": discard_card, "_draw_cards": draw_cards,
    "_end_roll_durations": end_roll_durations, "_move_card": move_card,
    "_shuffle_zone": shuffle_zone,
    "_over_budget": over_budget, "_roll_dice": roll_dice,
    "_within": within, "_enter": call_in_place, "_decide": decide, "_op": instruction_in_place,
    "_fired": fired_in_place, "_decide_secretly": decide_secretly,
    "_add_dice": add_dice, "_remove_dice": remove_dice, "_change_face": change_face, "_reroll_all": reroll_all,
    "_reroll_face": reroll_face, "_reveal_cards": reveal_cards, "_revealed_to_nobody": revealed_to_nobody,
    "_create_tokens": create_tokens, "_roll_for_event": roll_for_event,
}

_units = itertools.count()


def _too_big_now(value: int, limit: int, span: Span | None) -> None:
    raise too_big(value, limit, span)


def _zero_division(span: Span | None) -> None:
    raise RuleError("division by zero", span)


def _charge(st: Any, items: list) -> bool:
    """Each item of a list looked at is a unit of work; True, so it can stand in an `and`."""
    spend(st, len(items))
    return True


def _metered(st: Any, items: list) -> list:
    """The items of an aggregate, each one charged as a unit of work."""
    spend(st, len(items))
    return items


def _count_in(st: Any, rolled: list, faces: frozenset) -> int:
    """How many dice of a roll show one of these faces, each die charged as a unit of work (a plain loop, one
    call: a roll holds a few dice, and a generator costs more to start than this loop takes)."""
    st.work -= len(rolled)
    if st.work < 0:
        raise over_budget(st)
    count = 0
    for face in rolled:
        if face in faces:
            count += 1
    return count


#: "No saved value": a comprehension's variable that was not bound before it.
_MISSING = object()

HELPERS.update(_too_big_now=_too_big_now, _zero_division=_zero_division, _charge=_charge, _metered=_metered,
               _has=any_of_kind, _count_in=_count_in, _MISSING=_MISSING,
               _transferred=records.transferred, _counter_set=records.set_counter, _set_var=records.set_var,
               _rolled=records.rolled, _numbers_between=numbers_between, _every_players_cards=every_players_cards,
               _kind_is=kind_is)


@dataclass
class Unit:
    """One compilation: the functions of one instruction or expression, their constants and line table."""

    constants: dict[str, Any] = field(default_factory=dict)
    by_identity: dict[int, str] = field(default_factory=dict)
    functions: list[list[str]] = field(default_factory=list)
    spans: dict[int, dict[int, Span | None]] = field(default_factory=dict)
    temps: itertools.count = field(default_factory=itertools.count)
    headers: list[str] = field(default_factory=list)
    names: list[str] = field(default_factory=list)
    about: dict[str, str] = field(default_factory=dict)
    source: str = ""                    #: the whole generated text, once built (`rulelang compile --python`)
    #: the name of its first function (``naming.py``); its helpers' names start with it. Empty: the kind's own
    name: str = ""
    #: the rule text it comes from, line by line, quoted above it in the listing (``Program.add``)
    quoted: list[str] = field(default_factory=list)
    #: what lines read or write of the state, in the spec's words (``t.coins``), by function and line as
    #: ``spans``: a trailing comment in the listing only, never in the compiled source
    notes: dict[int, dict[int, list[str]]] = field(default_factory=dict)
    #: words said of the state since the last line was written: the next line written gets them (``note``)
    pending: list[str] = field(default_factory=list)

    def note(self, words: str) -> None:
        """The next line written reads or writes what ``words`` name (``t.coins``, ``deck``)."""
        if words and words not in self.pending:
            self.pending.append(words)

    def constant(self, value: Any, about: str = "") -> str:
        """Source for a value: a literal when Python can write it, else a name bound in the namespace.

        ``about`` says what the value is, for the listing of `rulelang compile --python`.
        """
        if value is None or isinstance(value, (bool, int, str)):
            return repr(value)
        key = id(value)
        if key not in self.by_identity:
            name = f"_k{len(self.constants)}"
            self.constants[name] = value
            self.by_identity[key] = name
            if about:
                self.about[name] = about
        return self.by_identity[key]

    def temp(self, what: str = "t") -> str:
        """A fresh Python local for a generated function (never a spec name).

        Never ``_k<n>``: that is a constant's name, and a local of the same name would hide it; nor
        ``_a<n>``: that is a parameter of an inlined function's body (source_expr.inlined).
        """
        if what in ("k", "a"):
            raise ValueError(f"a temporary named _{what}<n> is reserved (a constant, or an inlined parameter)")
        return f"_{what}{next(self.temps)}"

    def mark(self) -> int:
        """Where the unit's functions end now: ``rollback`` forgets every function made after it."""
        return len(self.functions)

    def rollback(self, mark: int) -> None:
        """Forget the functions made since ``mark`` (source written, then not used)."""
        for made in (self.functions, self.headers, self.names):
            del made[mark:]
        for table in (self.spans, self.notes):
            for index in [k for k in table if k >= mark]:
                del table[index]

    def new_function(self, what: str, args: str = "st, L") -> Body:
        """A function of this unit; the first one made is the one ``build`` returns."""
        lines: list[str] = []
        self.functions.append(lines)
        helper = f"{self.name}_{what}" if self.name else what
        name = f"{helper}{len(self.functions) - 1}" if self.functions[1:] else self.name or what
        self.headers.append(f"def {name}({args}):")
        self.names.append(name)
        return Body(self, lines, len(self.functions) - 1, name=name)


@dataclass
class Body:
    """The lines of one generated function, each tagged with the statement it belongs to."""

    unit: Unit
    lines: list[str]
    index: int
    depth: int = 1
    name: str = ""
    #: lines that bind a loop's name to its last item after the loop (``StmtSource.after_loop``): dead where
    #: nothing after them reads ``L`` (a whole turn's step drops its locals at its end: compiler/direct.py)
    late_binds: list[int] = field(default_factory=list)

    def line(self, text: str, span: Span | None = None) -> None:
        self.lines.append("    " * self.depth + text)
        self.unit.spans.setdefault(self.index, {})[len(self.lines)] = span
        if self.unit.pending:
            self.unit.notes.setdefault(self.index, {})[len(self.lines)] = self.unit.pending
            self.unit.pending = []

    def record(self, entry: str, span: Span | None = None, note: str = "") -> None:
        """A line appending ``entry`` to the log when the game keeps its history (``State.history``): the records
        of the game's course, which a game that keeps only what a replay needs leaves out (records.py)."""
        self.line(f"if st.history: st.log.append({entry}){note}", span)

    def comment_out(self, index: int) -> None:
        """Line ``index`` (from 0) kept as a comment, not run: the lines after it keep their numbers (the line table)."""
        self._rewrite(index, "# {}")

    def pass_instead(self, index: int, why: str) -> None:
        """Line ``index`` made a ``pass`` that shows it and ``why``: like ``comment_out``, but the line may be
        all a block holds."""
        self._rewrite(index, f"pass  # {{}} ({why})")

    def _rewrite(self, index: int, form: str) -> None:
        line = self.lines[index]
        body = line.lstrip()
        self.lines[index] = line[:len(line) - len(body)] + form.format(body)

    def mark(self) -> tuple[int, int]:
        """Where this function and its unit end now: ``rollback`` forgets every line and function written since."""
        return len(self.lines), self.unit.mark()

    def rollback(self, mark: tuple[int, int]) -> None:
        lines, functions = mark
        del self.lines[lines:]
        self.late_binds = [k for k in self.late_binds if k < lines]
        for table in (self.unit.spans.get(self.index, {}), self.unit.notes.get(self.index, {})):
            for k in [k for k in table if k > lines]:
                del table[k]
        self.unit.rollback(functions)

    def charge(self, units: str, span: Span | None = None) -> None:
        """Lines taking ``units`` (source of a number) of work from the budget, as ``limits.spend`` does,
        written out: a loop's pass, a list looked over."""
        self.line(f"st.work -= {units}", span)
        self.line("if st.work < 0:", span)
        self.line("    raise _over_budget(st)", span)

    def indented(self) -> Indent:
        return Indent(self)


class Indent:
    """``with body.indented():`` writes the lines inside one level deeper."""

    def __init__(self, body: Body):
        self.body = body

    def __enter__(self) -> None:
        self.body.depth += 1

    def __exit__(self, *exc: object) -> None:
        self.body.depth -= 1


def assemble(unit: Unit) -> list[int]:
    """Put the unit's functions together as ``unit.source`` (what is compiled, and ``derived.py`` reads);
    the line number of each function's header."""
    source, offsets = [], []
    for header, lines in zip(unit.headers, unit.functions):
        offsets.append(len(source) + 1)         # the header's line number
        source.append(header)
        source.extend(lines or ["    pass"])
    unit.source = "\n".join(source)
    return offsets


def listing(unit: Unit) -> str:
    """The unit's source as `rulelang compile --python` shows it: each line that reads or writes the state
    ends with a comment naming what, in the spec's words (``# t.coins``), made ``printable`` so a line break
    in a name cannot end the comment."""
    source = []
    for i, (header, lines) in enumerate(zip(unit.headers, unit.functions)):
        notes = unit.notes.get(i, {})
        source.append(header)
        for k, line in enumerate(lines or ["    pass"], 1):
            said = notes.get(k)
            source.append(f"{line}  # {printable(', '.join(said))}" if said else line)
    return "\n".join(source)


def build(unit: Unit) -> Callable:
    """Compile a unit's functions; return its first (the others are its helpers, such as aggregates)."""
    offsets = assemble(unit)
    tag = next(_units)
    filename = f"{FILENAME} {tag}"
    namespace: dict[str, Any] = {"__builtins__": {}, **HELPERS, **unit.constants}
    line_spans: dict[int, Span | None] = {}
    for i, start in enumerate(offsets):
        for k, span in unit.spans.get(i, {}).items():
            line_spans[start + k] = span
    namespace["_line_spans"] = line_spans
    namespace["_blame"] = blame
    code = compile(unit.source + "\n", filename, "exec")
    exec(code, namespace)                       # our own source, built from checked trees only
    return namespace[unit.names[0]]


def blame(error: BaseException, line_spans: dict[int, Span | None]) -> BaseException:
    """The statement a failure belongs to, found from the generated line it passed through."""
    tb: TracebackType | None = error.__traceback__
    span = line_spans.get(tb.tb_lineno) if tb is not None else None
    return located(error, span)


#: The state's lists that generated code reads most and nothing reassigns while a game is played (their items
#: change; the lists stay), each with the local a direct function may read it into once (``hoist_state_lists``);
#: the run loop's stack (changed in place: only a new state, a copy or a restored one has a new one); and whether
#: the game keeps its history, which is set as the game starts.
STATE_LISTS = {"counters": "_counters", "vars": "_vars", "zones": "_zones", "log": "_log", "stack": "_stack",
               "history": "_history"}
_STATE_LIST = re.compile(
    r"""('(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*")|\bst\.(counters|vars|zones|log|stack|history)\b""")


#: The players of a role, as generated code reads them (source_expr.py, direct.py): the layout's lists, the same
#: for the whole game (``Layout.role_players``), so a function may read each once.
_ROLE_LIST = re.compile(r"""('(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*")|\bst\.lay\.role_players\['(\w+)'\]""")


def hoist_state_lists(body: Body) -> None:
    """Read each of ``STATE_LISTS`` that a function's lines name more than once from ``st`` once, at its start,
    into a local (a whole turn names them a hundred times), and so each role's players (a whole turn may name
    one role's six times: 1.4% of such a game's machine instructions). String literals (the reprs of names)
    are left as they are."""
    _hoist(body, _ROLE_LIST, lambda roles: {role: f"_roles_{i}" for i, role in enumerate(roles)},
           lambda role: f"st.lay.role_players[{role!r}]")
    _hoist(body, _STATE_LIST, lambda names: {name: STATE_LISTS[name] for name in names}, lambda name: f"st.{name}")


def _hoist(body: Body, reads: re.Pattern, locals_for: Callable[[list[str]], dict[str, str]],
           source: Callable[[str], str]) -> None:
    """Each thing ``reads`` finds (its group 2; group 1 is a string literal, passed over) named more than once:
    read into its local (``locals_for`` the names) in a line put first, and that local read where it was."""
    named: dict[str, int] = {}
    for match in reads.finditer("\n".join(body.lines)):
        if match.group(2):
            named[match.group(2)] = named.get(match.group(2), 0) + 1
    hoisted = locals_for([name for name, times in named.items() if times > 1])
    if not hoisted:
        return

    def local(match: re.Match) -> str:
        name = match.group(2)
        return match.group(0) if name is None or name not in hoisted else hoisted[name]
    body.lines[:] = [reads.sub(local, line) for line in body.lines]
    shift_lines(body, 1)
    body.lines.insert(0, "    " + ", ".join(hoisted.values()) + " = " + ", ".join(map(source, hoisted)))


def guarded_lines(body: Body) -> None:
    """Wrap a function body so a failure is told at its statement (see ``blame``)."""
    inner = body.lines[:]
    body.lines.clear()
    shift_lines(body, 1)
    body.lines.append("    try:")
    body.lines.extend("    " + text for text in inner)
    body.lines.append("    except _FAILURES as error:")
    body.lines.append("        raise _blame(error, _line_spans) from None")


def shift_lines(body: Body, by: int) -> None:
    """What is kept by line of a function (its spans, its notes) moved ``by`` lines down: lines were put first."""
    _shift(body.unit.spans, body.index, by)
    _shift(body.unit.notes, body.index, by)


def _shift(table: dict[int, dict[int, Any]], index: int, by: int) -> None:
    if index in table:
        table[index] = {k + by: value for k, value in table[index].items()}
