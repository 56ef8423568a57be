"""The compiler: a checked game (``check.game.CheckedGame``) becomes a ``Game`` of closures and generated code.

Every rule text was parsed and checked once, by the check stage; what comes out here is a
``Game`` whose procedures are lists of closures, so nothing is parsed while a
game is played. ``expressions`` turns expressions into ``f(state, locals)``,
``statements`` turns statements into instructions ``op(state, frame)``, and
this module assembles the whole spec: declarations, cards, triggers, the
turn loop and the end conditions.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from rulelang.check.decls import plays_to_player_zone
from rulelang.check.game import CheckedGame, RuleTextJob, check_game, tree_at
from rulelang.engine.cards import after_resolving, discard_played, place_played, targets_asking
from rulelang.engine.game import Game
from rulelang.engine.rules import CardType, EndCondition, Phase, Proc, ZoneDecl
from rulelang.engine.speedups import ALL_ON, Speedups
from rulelang.lang import nodes as n
from rulelang.lang.bindings import BINDINGS, Rule
from rulelang.lang.refs import RefKind
from rulelang.lang.types import LOCATION, Type, tuple_items
from rulelang.model.decisions import place_of
from rulelang.model.spec import Event, RuleText
from rulelang.spec.document import Document

from ..errors import SpecError
from .derived import mark_zones, reads_locals, reads_only_zones, zones_read
from .direct import Parts, PhaseStep, compile_direct
from .expressions import ExprCompiler, Fn, is_of_kind, zone_decl
from .forms import card_gate, target_form
from .hook_decls import HookDeclarations
from .naming import identifier
from .program import Program
from .statements import Builder, StmtCompiler
from .turn_loop import assemble_turn_loop

__all__ = ["compile_checked", "compile_game", "GameCompiler"]

class GameCompiler(HookDeclarations):
    """Builds a ``Game`` from a loaded, schema-checked document."""

    def __init__(self, checked: CheckedGame, python: bool = True, speedups: Speedups = ALL_ON):
        self.checked = checked
        self.doc = checked.doc
        self.speedups = speedups if python else replace(speedups, generated=False)
        self.python = self.speedups.generated
        self.data = checked.doc.data
        self.spec = checked.spec
        self.sym = checked.sym
        self.function_order = checked.function_order
        self.game = Game()
        self.seat = self.spec.seat_turns

    # -- the pipeline ------------------------------------------------------------------

    def compile(self) -> Game:
        """The game's tables from its declarations, then the code of every checked rule text."""
        self.declare()
        self.game.card_counters = self.checked.card_counters
        self.game.warnings = self.checked.warnings
        self.generate(self.checked.jobs)
        return self.game

    # -- declarations --------------------------------------------------------------------

    def declare(self) -> None:
        """The ``Game``'s tables from the declarations (which ``check_decls`` passed)."""
        g, spec = self.game, self.spec
        g.name, g.path = spec.name, spec.path
        g.origin = self.doc.origin
        g.min_players, g.max_players = spec.players.min, spec.players.max
        g.locations = list(spec.locations)
        g.player_holder = 1 + len(g.locations)
        g.location_labels = {name: place.label for name, place in spec.locations.items()}
        g.counters = list(spec.counters)
        g.counter_labels = {name: place.label for name, place in spec.counters.items()}
        g.params = dict(self.sym.params)
        self.declare_vars()
        g.tables = {name: {"columns": list(t.columns), "rows": {k: list(row) for k, row in t.rows.items()}}
                    for name, t in spec.tables.items()}
        for name, die in spec.dice.items():
            faces = {face: outcome for outcome, values in die.outcomes.items() for face in values}
            g.dice[name] = {f: faces.get(f) for f in range(1, die.faces + 1)}
            g.dice_visibility[name] = die.visibility
        self.declare_roles()
        self.declare_zones()
        self.declare_cards()
        g.named_phases = spec.has_phases
        g.phases = [Phase(p.name, p.order, p.first, p.limit, span=p.span) for p in spec.phases]
        limits = spec.limits
        g.step_budget, g.call_depth, g.number_limit = limits.step_budget, limits.call_depth, limits.number_limit
        g.game_budget, g.event_limit = limits.game_budget, limits.event_limit
        g.ask_single_options = limits.ask_single_options
        g.forced_choices_hidden = limits.forced_choices == "hidden"

    def declare_vars(self) -> None:
        g = self.game
        for var in self.spec.vars.values():
            elements = tuple_items(var.type)
            if elements is None:
                initial = self.initial_value(var.type, var.initial)
            else:               # a tuple is a list at run time: saved games and logs hold it as it is
                initial = [self.initial_value(k, v) for k, v in zip(elements, var.initial)]
            g.var_names.append(var.name)
            g.var_initial.append(initial)
            g.var_types.append(var.type)
            g.var_visibility.append(var.visibility)
            if var.label is not None:
                g.var_labels[var.name] = var.label

    def initial_value(self, kind: Type, value: Any) -> Any:
        """A variable's declared `initial` as the rules hold it: a location by its holder id."""
        if kind == LOCATION and value is not None:
            return 1 + self.game.locations.index(value)
        return value

    def declare_roles(self) -> None:
        g = self.game
        g.roles = [{"name": role.name, "count": role.count} for role in self.spec.roles]
        g.role_labels = {role.name: role.label for role in self.spec.roles if role.label}
        g.teams = {team: list(members) for team, members in self.sym.teams.items()}
        for role in self.spec.roles:
            members = g.teams.setdefault(role.team, [])
            if role.name not in members:
                members.append(role.name)

    def declare_zones(self) -> None:
        g = self.game
        for zone in self.spec.zones.values():
            group = g.table_zones if zone.owner == "table" else g.player_zones
            z = ZoneDecl(zone.name, len(group), zone.owner.value, zone.visibility, zone.label, unique=zone.unique)
            group.append(z)
            g.zones.append(z)
        index = {z.name: i for i, z in enumerate(g.zones)}
        for zone, z in zip(self.spec.zones.values(), g.zones):
            z.refill_from = index.get(zone.refill_from)
            z.discard = index.get(zone.discard)
            z.unique_with.extend(index[other] for other in zone.unique_with)

    def declare_cards(self) -> None:
        g, sym = self.game, self.sym
        index = {z.name: i for i, z in enumerate(g.zones)}
        for card in self.spec.cards:
            zone = index[card.zone]
            discard = index[card.discard] if card.discard is not None else zone if card.token \
                else g.zones[zone].discard
            ctype = CardType(card.id, card.name, len(g.cards), card.slot, zone, discard,
                             dict(sym.card_props) | dict(card.props), card.tags, card.text, span=card.span,
                             token=card.token, zone_span=card.zone_span)
            g.cards.append(ctype)
            for _ in range(card.count):
                g.card_type.append(ctype)
                g.slot_of.append(ctype.slot)

    # -- code ------------------------------------------------------------------------------

    def new_proc(self, name: str) -> int:
        self.game.procs.append(Proc(name, [], []))
        return len(self.game.procs) - 1

    def finish(self, index: int, b: Builder) -> None:
        proc = self.game.procs[index]
        proc.code, proc.spans, proc.sites = b.code, b.spans, b.sites

    def generate(self, jobs: dict[tuple, RuleTextJob]) -> None:
        g, data, spec = self.game, self.data, self.spec
        main = self.new_proc("the turn loop")
        proc_ids = {name: self.new_proc(f"procedure {name}") for name in spec.procedures}
        ec = ExprCompiler(g, self.sym, proc_ids)
        self.roll_hooks = {t.on.subject: ([], []) for t in spec.triggers if t.on is not None and t.on.event.on_roll}
        self.action_hooks: dict[Event, list[int]] = {t.on.event: [] for t in spec.triggers
                                                     if t.on is not None and t.on.event.on_action}
        zone_triggers = frozenset(t.on.subject for t in spec.triggers if t.on is not None and t.on.event.on_card)
        if zone_triggers and not self.speedups.card_forms:
            zone_triggers = None            # no draw is known quiet (statements/draw.py: Draw.quiet): each runs as an instruction
        sc = StmtCompiler(ec, has_triggers=bool(spec.triggers), roll_hooks=self.roll_hooks,
                          zone_triggers=zone_triggers, action_hooks=self.action_hooks)
        if self.python:
            g.program = ec.program = sc.program = Program(ec, sc, data, self.doc.lines_of)

        def declare(path: tuple, expression: bool = False) -> str:
            """Functions made now are the rule text's at ``path``: named after it (compiler/naming.py)."""
            return g.program.declare(path, expression) if g.program is not None else ""

        def expr(text: RuleText | None) -> Fn | None:
            job = jobs.get(text.path) if text is not None else None
            if job is None:
                return None
            declare(job.path, expression=True)
            return ec.expr(job.tree)

        def block(text: RuleText | None, label, prefix: list | None = None, suffix: list | None = None) -> int:
            index = self.new_proc(label)
            b = Builder(label)
            for op, span in prefix or []:
                b.emit(op, span)
            job = jobs.get(text.path) if text is not None else None
            name = identifier(label, "rules")       # a card with no effect: its play's own instructions only
            if job is not None:
                sc.place = place_of(data, job.path)
                name = declare(job.path)
                sc.block(job.tree, b)
            b.exit.pc = b.here()
            for op, span in suffix or []:
                b.emit(op, span)
            self.finish(index, b)
            blocks[index] = Parts(job.tree if job is not None else [], sc.place, prefix or [], suffix or [], name=name)
            return index

        for name in self.function_order:            # callees first: a call takes its callee's closure
            value = spec.functions[name].value
            ec.function_trees[name] = jobs[value.path].tree
            ec.functions[name] = (list(self.sym.functions[name]), expr(value))
        blocks: dict[int, Parts] = {}      # each procedure's parts, for its direct function (compiler/direct.py)
        framed_steps: dict[str, Parts] = {}
        for name, index in proc_ids.items():
            b = Builder(f"procedure {name}")
            job = jobs[spec.procedures[name].effect.path]
            sc.place = place_of(data, job.path)
            blocks[index] = Parts(job.tree, sc.place, given=tuple(self.sym.procedures[name]), name=declare(job.path))
            sc.block(job.tree, b)
            b.exit.pc = b.here()
            self.finish(index, b)
        resolve = self.generate_triggers(expr, block, jobs, ec)
        self.generate_cards(jobs, expr, block, resolve, ec)
        for cond in spec.end:
            g.end.append(EndCondition(cond.name, expr(cond.when), expr(cond.winner), cond.span))
        if self.python and self.speedups.derived and spec.end:
            conditions = [jobs[cond.when.path].tree for cond in spec.end]
            g.end_first, g.end_kept, unit = g.program.first_true(conditions, reads_only_zones)
            g.end_reads_locals = reads_locals(unit)
            g.end_all = (1 << len(conditions)) - 1
            mark_zones(list(g.zones), [zones_read([c], ec.function_trees) for c in conditions] if g.end_kept else [])
        g.score = self.score(expr)
        g.score_span = self.doc.span(("score",)) if g.score is not None else None
        g.returns = expr(spec.returns)
        g.returns_span = self.doc.span(spec.returns.path) if spec.returns is not None else None
        g.returns_bounds = spec.returns_bounds
        g.heuristic = expr(spec.heuristic)
        setup = block(spec.setup, "setup") if spec.setup is not None and spec.setup.text else None
        phases, in_place = [], []
        for k, phase in enumerate(spec.phases):
            g.phases[k].until = expr(phase.until)
            steps, whole_turn = [], []
            for step in phase.steps:
                span = self.doc.span(step.path + ("effect",))
                job = jobs[step.effect.path]
                declare(job.path)
                inline = None if self.turn_hooks.get(("before step", step.name)) else sc.inline_body(job.tree)
                if inline is not None:      # a step that never waits runs in place, with no frame
                    steps.append((step.name, inline, span))
                    whole_turn.append(PhaseStep(step.name, Parts(job.tree, place_of(data, job.path),
                                                                 name=declare(job.path)), None))
                else:
                    index = block(step.effect, f"step '{step.name}'")
                    steps.append((step.name, index, span))
                    if not self.turn_hooks.get(("before step", step.name)):
                        framed_steps[step.name] = blocks.pop(index)
                        whole_turn.append(PhaseStep(step.name, framed_steps[step.name], index))
            phases.append((phase, steps))
            in_place.append(whole_turn if len(whole_turn) == len(steps) else None)     # a step with a hook: never
        played = {c.play_proc for c in g.cards if c.play_proc is not None}
        for index in played:                # what plays.rest_in_place gives a card's effect
            blocks[index].given = tuple(BINDINGS[Rule.CARD_PLAY].names)
        procedures = {index: parts for index, parts in blocks.items() if index in played or index in proc_ids.values()}
        self.direct_steps, turns = compile_direct(self, sc, g.program, procedures, framed_steps, in_place) \
            if self.python and self.speedups.direct else ({}, [None] * len(phases))
        self.finish(main, assemble_turn_loop(g, self.turn_hooks, self.direct_steps, turns, setup, phases))
        g.main = main
        g.code = [p.code for p in g.procs]
        g.reaction_types = [c for c in g.cards if c.answer_when is not None]
        if not self.speedups.kept_starts:
            g.starts = None                 # every new game plays its setup (engine/starts.py)
        g.batched_draws = self.speedups.batched_draws

    def generate_cards(self, jobs, expr, block, resolve: list, ec: ExprCompiler) -> None:
        g = self.game
        watched: set[int] = set()
        for card, ctype in zip(self.spec.cards, g.cards):
            to_tree = tree_at(jobs, card.path + ("play", "to"))
            if card.play is not None:
                ctype.play_target = expr(card.play.target)
                if card.play.target is not None:
                    target = tree_at(jobs, card.play.target.path)
                    if self.speedups.card_forms:
                        ctype.target_not_me, ctype.target_others = target_form(target)
                    if not ctype.target_others:     # else legal_plays asks no condition: every other seat is one
                        ctype.play_targets = g.program.targets(target) if g.program is not None \
                            else targets_asking(ctype.play_target)
                to = expr(card.play.to)
                after = [(after_resolving(cond, proc), span) for cond, proc, ref, span in resolve
                         if is_of_kind(ctype, ref)]
                ctype.play_proc = block(card.play.effect, f"card {ctype.id}",
                                        [(place_played(to) if to else discard_played, card.play.span)], after)
                if plays_to_player_zone(to_tree):
                    watched.add(zone_decl(g, to_tree.name).index + len(g.table_zones))
            lasts = self.lasts_in(card)
            if lasts is not None and card.discard_when is not None:
                watched.add(lasts.index + (len(g.table_zones) if lasts.owner == "player" else 0))
            if card.answer is not None:
                ctype.answer_when = expr(card.answer.when)
                ctype.answer_personal = _reads_locals(tree_at(jobs, card.answer.when.path), {"me", "this"})
                ctype.answer_gate, ctype.answer_exact = self.gate(tree_at(jobs, card.answer.when.path), ec)
                ctype.answer_proc = block(card.answer.effect, f"answer {ctype.id}")
            if card.discard_when is not None:
                ctype.discard_when = expr(card.discard_when)
            if card.discard_after_roll is not None:
                self.declare_duration(card.discard_after_roll, ctype,
                                      lasts if lasts is not None else zone_decl(g, to_tree.name))
        if any(c.discard_when is not None for c in g.cards):
            for z in g.zones:
                key = z.index + (len(g.table_zones) if z.owner == "player" else 0)
                z.watched = key in watched or not watched

    def gate(self, tree: Any, ec: ExprCompiler) -> tuple[list[bool] | None, bool]:
        """The per-card table of a condition that tests the kind of ``card`` (compiler/forms.py), unless card
        forms are off: then no table, and the condition is asked for every card."""
        return card_gate(tree, ec) if self.speedups.card_forms else (None, False)

    def declare_duration(self, die: str, ctype: CardType, decl: ZoneDecl) -> None:
        """`discard_after: {roll: DIE}`: the card leaves its play zone ``decl`` after its owner's next roll of DIE."""
        g = self.game
        marked, decls = g.discard_after_roll.setdefault(die, ([False] * len(g.card_type), []))
        for instance, kind in enumerate(g.card_type):
            if kind is ctype:
                marked[instance] = True
        if decl not in decls:
            decls.append(decl)

    def generate_triggers(self, expr, block, jobs: dict[tuple, RuleTextJob], ec: ExprCompiler) -> list:
        """Zone triggers attach to their zones; resolve triggers are returned for the cards."""
        g = self.game
        resolve = []
        self.turn_hooks: dict[tuple[str, str], list[int]] = {}
        for trig in self.spec.triggers:
            event, subject = trig.on.event, trig.on.subject
            if not event.on_card and event is not Event.RESOLVE:
                self.hook_trigger(trig, expr, block)
                continue
            proc = block(trig.effect, f"trigger '{trig.name}'")
            cond = expr(trig.cond)
            if event is Event.RESOLVE:
                resolve.append((cond, proc, self.sym.class_ref(subject), trig.span))
                continue
            decl = next(z for z in g.zones if z.name == subject)
            gate, exact = self.gate(tree_at(jobs, trig.cond.path), ec) if trig.cond is not None else (None, False)
            (decl.on_enter if event is Event.ENTER else decl.on_leave).append((cond, proc, gate, exact))
        return resolve


def _reads_locals(tree: Any, names: set[str]) -> bool:
    """Whether a checked rule text reads any of these bound names."""
    return tree is not None and any(isinstance(node, n.Name) and node.ref and node.ref.kind == RefKind.LOCAL
                                    and node.ref.name in names for node in n.walk(tree))


def compile_checked(checked: CheckedGame, python: bool = True, speedups: Speedups = ALL_ON) -> Game:
    """The ``Game`` of a checked game (``check.game.check_game``).

    With ``python`` (the default) rule texts are compiled to generated Python where the generator
    knows the node (rulelang/compiler/program.py); without, every rule is a closure: the reference the
    generated code is tested against (``python=False`` is ``speedups.generated`` off). ``speedups``
    turns speed-ups off for this game (rulelang/engine/speedups.py): the same game, doing more work.

    Raises SpecError, never a Python error of size.
    """
    doc = checked.doc
    try:
        return GameCompiler(checked, python, speedups).compile()
    except RecursionError:
        raise SpecError("the spec nests too deeply to compile", doc.span(()),
                        "split deep rule texts into functions or procedures") from None
    except MemoryError:
        raise SpecError("the spec is too large to compile (out of memory)", doc.span(())) from None


def compile_game(doc: Document, params: Mapping[str, Any] | None = None, python: bool = True,
                 speedups: Speedups = ALL_ON) -> Game:
    """Check (``check.game.check_game``) and compile (``compile_checked``) a loaded, schema-checked document
    for this instance's param values: a ParamError for a value the game refuses, else SpecErrors, located."""
    return compile_checked(check_game(doc, params), python, speedups)
