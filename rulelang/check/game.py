"""Checking a game: its declarations, then every rule text parsed and checked in the names its place binds.

The stage between the model and the compiler (``pipeline``: read -> mods -> schema -> model -> parse ->
check -> compile). ``check_game`` gives a ``CheckedGame``: the typed ``Spec``, the symbols (the param
values, the functions' types), the checked tree of each rule text by its path in the data, and the
warnings. The compiler generates code from it; the rulebook, `explain`, the language server and the
mutants read it, so all of them see what the checker saw. Errors are raised together, located.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from rulelang.check.calls import function_order, too_deep_functions
from rulelang.check.checker import RETURNS, Checker
from rulelang.check.decls import card_link_errors, check_declarations, trigger_errors
from rulelang.check.types import Scope, Symbols, symbols_of
from rulelang.check.unused import spec_warnings
from rulelang.errors import RulelangError, SpecError, in_file_order, raise_all
from rulelang.lang import nodes as n
from rulelang.lang.bindings import Rule
from rulelang.lang.bindings import scope as bound
from rulelang.lang.parser import parse_block, parse_expression
from rulelang.lang.types import BOOL, INT, PLAYER, UNKNOWN, ZONE, Type, list_of, roll_of
from rulelang.model.build import build_spec
from rulelang.model.spec import FUNCTION_DEPTH, Event, RuleText, Spec, Trigger
from rulelang.spec.document import Document
from rulelang.spec.yaml_errors import without_bar_hint

#: What an end condition's `winner:` must be: not one type but either of two (a player, a list of players).
WINNER = "winner"


#: The binding of a trigger's texts, by what it is on (a trigger whose `on:` is unreadable is checked as `enter`).
TRIGGER_RULES = {Event.ENTER: Rule.ON_MOVE, Event.LEAVE: Rule.ON_MOVE, Event.RESOLVE: Rule.ON_RESOLVE,
                 Event.BEFORE_ROLL: Rule.BEFORE_ROLL, Event.AFTER_ROLL: Rule.AFTER_ROLL,
                 Event.START_TURN: Rule.ON_TURN, Event.END_TURN: Rule.ON_TURN,
                 Event.BEFORE_STEP: Rule.ON_TURN, Event.AFTER_STEP: Rule.ON_TURN,
                 Event.BEFORE_DRAW: Rule.BEFORE_DRAW, Event.BEFORE_PLAY: Rule.BEFORE_PLAY}


class RuleTextJob:
    """One rule text of the spec: where it is, how to parse it, what it must be (a type, WINNER or None)."""

    def __init__(self, text: RuleText, block: bool, scope: dict[str, Type], want: Type | str | None = None,
                 where: str = "rule"):
        self.text = text
        self.where = where          # what starts the text, where a statement is said only there (`cancel roll`)
        self.path = text.path
        self.block = block
        self.scope = scope
        self.want = want
        self.tree: Any = None


@dataclass
class CheckedGame:
    """A game that passed every check: what the compiler, the rulebook and the tools read."""

    doc: Document
    spec: Spec
    sym: Symbols
    jobs: dict[tuple, RuleTextJob]
    function_order: list[str]                # callees first
    card_counters: bool                      # whether any rule reads a card's own counters
    warnings: list[RulelangError] = field(default_factory=list)

    def tree(self, path: tuple) -> Any:
        """The checked tree of the rule text at ``path`` (None where the spec has none)."""
        return tree_at(self.jobs, path)


class GameChecker:
    """Checks a loaded, schema-checked document; ``parse`` may be replaced (the language server keeps parses)."""

    def __init__(self, doc: Document, params: Mapping[str, Any] | None = None):
        self.doc = doc
        self.spec = build_spec(doc)
        self.errors: list[RulelangError] = []
        self.sym = symbols_of(self.spec)
        self.given_params = params
        self.seat = self.spec.seat_turns
        self.function_order: list[str] = []

    def run(self) -> CheckedGame:
        """Declarations, then every rule text parsed, then checked (functions first, callees before callers,
        since their types are needed); every error found at once, else the checked game."""
        self.errors, self.sym.params = check_declarations(self.spec, self.doc, self.given_params)
        jobs = self.jobs()
        for job in jobs.values():
            self.parse(job)
        checker = Checker(self.sym)
        self.order_functions(jobs)
        for name in self.function_order:
            job = jobs[("functions", name, "value")]
            self.check(job, checker)
            if job.tree is not None:
                self.sym.function_types[name] = job.tree.type or UNKNOWN
        for key, job in jobs.items():
            if key[0] != "functions":
                self.check(job, checker)
        self.errors.extend(checker.errors)
        raise_all(self.errors)
        raise_all(trigger_errors(self.spec, self.doc, self.sym.classes()))
        raise_all(card_link_errors(self.spec, self.doc, lambda card: tree_at(jobs, card.path + ("play", "to"))))
        warnings = in_file_order(spec_warnings(self.spec, self.doc, {p: j.tree for p, j in jobs.items()}))
        return CheckedGame(self.doc, self.spec, self.sym, jobs, self.function_order, checker.uses_card_counters,
                           warnings)

    def parse(self, job: RuleTextJob) -> None:
        text = job.text.text
        path = job.path

        def locate(line, col, end_line, end_col):
            return self.doc.text_span(path, line, col, end_line, end_col)
        try:
            job.tree = parse_block(text, locate) if job.block else parse_expression(text, locate)
        except SpecError as error:
            if job.block and self.doc.joined_lines(path):
                error.hint = without_bar_hint(path[-1], self.doc.key_span(path).line)
            self.errors.append(error)
            return
        _rename_calls(job.tree, self.doc.call_renames(path))

    def check(self, job: RuleTextJob, checker: Checker) -> None:
        if job.tree is None:
            return
        scope = Scope(dict(job.scope), job.where)
        if job.block:
            checker.block(job.tree, scope)
        elif job.want is None:
            checker.expr(job.tree, scope)
        elif isinstance(job.want, str):         # WINNER, the one want that is no type
            kind = checker.expr(job.tree, scope)
            if kind not in (PLAYER, list_of(PLAYER), UNKNOWN):
                checker.error("the winner must be a player or a list of players (a role or a team)",
                              job.tree.span)
        else:
            checker.expect(job.tree, scope, job.want, "this")

    def order_functions(self, jobs: dict[tuple, RuleTextJob]) -> None:
        """Functions are values, not loops: refuse one that reaches itself, or a chain too deep to run.

        Keeps ``self.function_order`` (callees first) for checking and compiling.
        """
        calls: dict[str, list[n.Call]] = {}
        for name in self.sym.functions:
            job = jobs.get(("functions", name, "value"))
            calls[name] = [c for c in calls_in(job.tree) if c.func in self.sym.functions] if job and job.tree else []
        self.function_order, loops = function_order(calls)
        for name, call in loops:
            via = "" if call.func == name else f" (through '{call.func}')"
            self.errors.append(SpecError(f"function '{name}' calls itself{via}", call.span,
                                         "a function computes a value from its arguments; loop with "
                                         "'for each' in a procedure instead"))
        for name, call in too_deep_functions(self.function_order, calls):
            self.errors.append(SpecError(f"function '{name}' calls functions more than {FUNCTION_DEPTH} deep",
                                         call.span, "compute the value in fewer steps, or in a procedure"))
        raise_all(self.errors)

    def jobs(self) -> dict[tuple, RuleTextJob]:
        """Every rule text of the spec with the names its scope binds (``rulelang.lang.bindings``)."""
        spec, seat, out = self.spec, self.seat, {}

        def add(text: RuleText | None, block: bool, scope: dict, want: Type | str | None = None,
                where: str = "rule") -> None:
            if text is not None:
                out[text.path] = RuleTextJob(text, block, scope, want, where)

        for name, fn in spec.functions.items():
            add(fn.value, False, bound(Rule.FUNCTION) | self.sym.functions[name])
        for name, proc in spec.procedures.items():
            returns = {RETURNS: self.sym.proc_returns[name]} if name in self.sym.proc_returns else {}
            add(proc.effect, True, bound(Rule.PROCEDURE, seat) | self.sym.procedures[name] | returns)
        add(spec.setup, True, bound(Rule.SETUP))
        for phase in spec.phases:
            for step in phase.steps:
                add(step.effect, True, bound(Rule.STEP, phase.seat))
            add(phase.until, False, bound(Rule.STEP, phase.seat), BOOL)
        for card in spec.cards:
            if card.play is not None:
                for text, want in ((card.play.target, BOOL), (card.play.to, ZONE), (card.play.effect, None)):
                    add(text, want is None, bound(Rule.CARD_PLAY), want)
            if card.answer is not None:
                add(card.answer.when, False, bound(Rule.ANSWER), BOOL)
                add(card.answer.effect, True, bound(Rule.ANSWER))
            add(card.discard_when, False, bound(Rule.DISCARD_WHEN), BOOL)
        for trig in spec.triggers:
            scope = self.trigger_scope(trig)
            add(trig.cond, False, scope, BOOL)
            add(trig.effect, True, dict(scope), where=trig.on.event.value if trig.on is not None else "rule")
        for part in (spec.score_parts or {}).values():
            add(part, False, bound(Rule.PLAYER_VALUE), INT)
        for text in (spec.score, spec.heuristic):
            add(text, False, bound(Rule.PLAYER_VALUE), INT)
        add(spec.returns, False, bound(Rule.RETURNS), INT)
        for cond in spec.end:
            add(cond.when, False, bound(Rule.END, seat), BOOL)
            add(cond.winner, False, bound(Rule.END, seat), WINNER)
        return out

    def trigger_scope(self, trig: Trigger) -> dict:
        """The names a trigger's `if:` and effect may use, by what it is on."""
        event = trig.on.event if trig.on is not None else Event.ENTER
        die = trig.on.subject if trig.on is not None else ""
        return bound(TRIGGER_RULES[event], self.seat, roll_of(die) if die in self.sym.dice else UNKNOWN)


def check_game(doc: Document, params: Mapping[str, Any] | None = None) -> CheckedGame:
    """The checked game of a loaded, schema-checked document and this instance's param values.

    Raises SpecError (never a Python error of size), or ParamError for a param value the game refuses."""
    try:
        return GameChecker(doc, params).run()
    except RecursionError:
        raise SpecError("the spec nests too deeply to compile", doc.span(()),
                        "split deep rule texts into functions or procedures") from None
    except MemoryError:
        raise SpecError("the spec is too large to compile (out of memory)", doc.span(())) from None


def _rename_calls(tree: Any, renames: dict[str, str]) -> None:
    """Point the calls a chained mod wrapper makes to ``original_NAME`` at the wrapper below it."""
    if renames:
        for call in calls_in(tree):
            call.func = renames.get(call.func, call.func)


def calls_in(node: Any) -> list[n.Call]:
    """Every call in an expression tree (in the order of the walk: the order does not matter here)."""
    return [item for item in n.walk(node) if isinstance(item, n.Call)]


def tree_at(jobs: dict[tuple, RuleTextJob], path: tuple) -> Any:
    """The checked tree of the rule text at ``path`` (None where the spec has none)."""
    job = jobs.get(path)
    return job.tree if job is not None else None
