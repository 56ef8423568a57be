"""The compiler: a checked spec becomes a ``Game`` of closures.

Every rule text is parsed and checked once here; what comes out is a
``Game`` whose procedures are lists of closures, so nothing is parsed while a
game is played. ``expressions`` turns expressions into ``f(state, locals)``,
``statements`` turns statements into instructions ``op(state, frame)``, and
this module assembles the whole spec: declarations, cards, triggers, the
turn loop and the end conditions.
"""
from __future__ import annotations

from typing import Any, Callable, Mapping

from .. import nodes as n
from ..check import (BOOL, CARD, INT, LOCATION, PLAYER, ZONE, Checker, Scope, Symbols, build_symbols, list_of,
                     phase_specs)
from ..decisions import place_of
from ..cards import after_resolving, discard_played, place_played
from ..game import CardType, EndCondition, Game, Phase, Proc, ZoneDecl
from ..errors import RulelangError, SpecError, did_you_mean, raise_all
from ..interpreter import Frame
from ..loader import Document
from ..params import declaration_problems as param_problems, declarations as param_declarations
from ..params import resolve as resolve_params
from ..parser import parse_block, parse_expression
from ..limits import FUNCTION_DEPTH, shown
from ..turns import begin_turn, call_step, next_turn
from .bounds import MAX_CARDS, card_total, function_order, numbers_out_of_range, read_limits, too_deep_functions
from .program import Program
from .expressions import ExprCompiler, is_of_kind, zone_decl
from .statements import Builder, StmtCompiler
from .hook_decls import HookDeclarations
from .hooks import ON_FORMS, fire_turn_hooks, hooked_dice, trigger_kind
from ..check_hooks import RETURNS

__all__ = ["compile_game", "GameCompiler"]


class _Job:
    """One rule text of the spec: where it is, how to parse it, what it must be."""

    def __init__(self, path: tuple, block: bool, scope: dict[str, str], want: str | None = None):
        self.path = path
        self.block = block
        self.scope = scope
        self.want = want
        self.tree: Any = None


class GameCompiler(HookDeclarations):
    """Builds a ``Game`` from a loaded, schema-checked document."""

    def __init__(self, doc: Document, params: Mapping[str, Any] | None = None, python: bool = True):
        self.doc = doc
        self.python = python
        self.data = doc.data
        self.errors: list[RulelangError] = []
        self.sym = build_symbols(self.data)
        self.given_params = params
        self.game = Game()
        self.seat = self.sym.seat_turns

    # -- helpers -------------------------------------------------------------------

    def error(self, message: str, path: tuple, hint: str | None = None, key: bool = False) -> None:
        span = self.doc.key_span(path) if key else self.doc.span(path)
        self.errors.append(SpecError(message, span, hint))

    def parse(self, job: _Job) -> None:
        text = _get(self.data, job.path)
        path = job.path

        def locate(line, col, end_line, end_col):
            return self.doc.text_span(path, line, col, end_line, end_col)
        try:
            job.tree = parse_block(text, locate) if job.block else parse_expression(text, locate)
        except SpecError as error:
            self.errors.append(error)

    def check(self, job: _Job, checker: Checker) -> None:
        if job.tree is None:
            return
        scope = Scope(dict(job.scope))
        if job.block:
            checker.block(job.tree, scope)
        elif job.want is None:
            checker.expr(job.tree, scope)
        elif job.want == "winner":
            kind = checker.expr(job.tree, scope)
            if kind not in (PLAYER, list_of(PLAYER), "?"):
                checker.error("the winner must be a player or a list of players (a role or a team)",
                              job.tree.span)
        else:
            checker.expect(job.tree, scope, job.want, "this")

    # -- the pipeline ------------------------------------------------------------------

    def compile(self) -> Game:
        self.declare()
        jobs = self.jobs()
        for job in jobs.values():
            self.parse(job)
        checker = Checker(self.sym)
        self.order_functions(jobs)
        for name in self.function_order:            # functions first, callees before callers: types are needed
            job = jobs[("functions", name, "value")]
            self.check(job, checker)
            if job.tree is not None:
                self.sym.function_types[name] = job.tree.type or "?"
        for key, job in jobs.items():
            if key[0] != "functions":
                self.check(job, checker)
        self.errors.extend(checker.errors)
        raise_all(self.errors)
        self.game.card_counters = checker.uses_card_counters
        self.generate(jobs)
        return self.game

    def order_functions(self, jobs: dict[tuple, _Job]) -> None:
        """Functions are values, not loops: refuse one that reaches itself, or a chain too deep to run.

        Keeps ``self.function_order`` (callees first) for checking and compiling.
        """
        calls: dict[str, list[n.Call]] = {}
        for name in self.sym.functions:
            job = jobs.get(("functions", name, "value"))
            calls[name] = [c for c in _calls_in(job.tree) if c.func in self.sym.functions] if job and job.tree else []
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

    def jobs(self) -> dict[tuple, _Job]:
        """Every rule text of the spec with the names its scope binds."""
        me = {"me": PLAYER} if self.seat else {}
        data, out = self.data, {}

        def add(path: tuple, block: bool, scope: dict, want: str | None = None) -> None:
            if _get(data, path) is not None:
                out[path] = _Job(path, block, scope, want)

        for name, fn in (data.get("functions") or {}).items():
            add(("functions", name, "value"), False, dict(self.sym.functions[name]))
        for name in (data.get("procedures") or {}):
            returns = {RETURNS: self.sym.proc_returns[name]} if name in self.sym.proc_returns else {}
            add(("procedures", name, "effect"), True, me | dict(self.sym.procedures[name]) | returns)
        add(("setup",), True, {})
        for path, phase in phase_specs(data):
            own = {"me": PLAYER} if phase.get("order", "seat") == "seat" else {}
            for i, _ in enumerate(phase.get("steps") or []):
                add(path + ("steps", i, "effect"), True, dict(own))
            add(path + ("until",), False, dict(own), BOOL)
        card_scope = {"me": PLAYER, "target": PLAYER, "this": CARD}
        answer_scope = {"me": PLAYER, "card": CARD, "this": CARD, "player": PLAYER}
        watch_scope = {"me": PLAYER, "owner": PLAYER, "this": CARD}
        for i, card in enumerate(data.get("cards") or []):
            add(("cards", i, "play", "target"), False, card_scope, BOOL)
            add(("cards", i, "play", "to"), False, card_scope, ZONE)
            add(("cards", i, "play", "effect"), True, card_scope)
            add(("cards", i, "answer", "when"), False, answer_scope, BOOL)
            add(("cards", i, "answer", "effect"), True, answer_scope)
            add(("cards", i, "discard_when"), False, watch_scope, BOOL)
        move_scope = {"me": PLAYER, "owner": PLAYER, "card": CARD}
        resolve_scope = {"me": PLAYER, "target": PLAYER, "card": CARD}
        for i, trig in enumerate(data.get("triggers") or []):
            scope = self.trigger_scope(trig, resolve_scope, move_scope)
            add(("triggers", i, "if"), False, scope, BOOL)
            add(("triggers", i, "effect"), True, scope)
        if isinstance(data.get("score"), dict):
            for part in (data["score"].get("parts") or {}):
                add(("score", "parts", part), False, {"p": PLAYER}, INT)
        else:
            add(("score",), False, {"p": PLAYER}, INT)
        add(("heuristic",), False, {"p": PLAYER}, INT)
        add(("returns",), False, {"p": PLAYER}, INT)
        for i, _ in enumerate(data.get("end") or []):
            add(("end", i, "when"), False, dict(me), BOOL)
            add(("end", i, "winner"), False, dict(me), "winner")
        return out

    # -- declarations --------------------------------------------------------------------

    def declare(self) -> None:
        g, data = self.game, self.data
        g.name = str(data.get("game", "untitled"))
        g.path = str(self.doc.path)
        players = data.get("players") or {}
        g.min_players, g.max_players = players.get("min", 2), players.get("max", players.get("min", 2))
        if g.max_players < g.min_players:
            self.error(f"'max' ({g.max_players}) must be at least 'min' ({g.min_players})", ("players", "max"))
        g.locations = list(self.sym.locations)
        g.location_labels = {k: (v or {}).get("label", k.replace("_", " ")) for k, v in self.sym.locations.items()}
        g.counters = list(self.sym.counters)
        g.counter_labels = {k: (v or {}).get("label", k.replace("_", " ")) for k, v in self.sym.counters.items()}
        self.declare_params()
        self.declare_names_once()
        self.declare_vars()
        self.declare_tables()
        self.declare_dice()
        self.declare_roles()
        self.declare_zones()
        self.declare_cards()
        self.declare_phases()
        read_limits(g, data)
        for path, value in numbers_out_of_range(data, g.number_limit):
            self.error(f"{shown(value)} is past the game's number_limit of {g.number_limit:,}", path,
                       "numbers in a game lie between -number_limit and number_limit")
        if card_total(data) > MAX_CARDS:
            self.error(f"the game has {card_total(data):,} cards: at most {MAX_CARDS:,} are allowed", ("cards",),
                       hint="a pile of many equal things is a counter (counters: ...)")

    def declare_phases(self) -> None:
        """`turn:` is one phase; `phases:` several, each with its own turn structure."""
        g, data = self.game, self.data
        if data.get("turn") and data.get("phases"):
            self.error("a game has either 'turn' or 'phases', not both", ("phases",), key=True,
                       hint="put the turn structure in a phase")
        elif not data.get("turn") and not data.get("phases"):
            self.error("the game has no turns: add 'turn:' (or 'phases:')", (),
                       hint="turn: {order: seat, steps: [{name: ..., effect: ...}]}")
        g.named_phases = bool(data.get("phases"))
        names: dict[str, tuple] = {}
        for k, (path, phase) in enumerate(phase_specs(data)):
            name = phase.get("name", "turn")
            g.phases.append(Phase(name, phase.get("order", "seat"), phase.get("first", "first" if k == 0 else "next"),
                                  phase.get("limit", 1000), span=self.doc.span(path)))
            for i, step in enumerate(phase.get("steps") or []):
                step_name = step.get("name", f"step {i + 1}")
                if step_name in names:
                    self.error(f"two steps are named '{step_name}'", path + ("steps", i, "name"),
                               "step names are unique across the game: scenarios and tools find steps by name")
                names[step_name] = path + ("steps", i)

    def declare_params(self) -> None:
        """This instance's param values: a contradictory declaration is a spec error, a bad value a ParamError."""
        declared = param_declarations(self.data)
        problems = param_problems(declared)
        for name, key, message in problems:
            self.error(message, ("params", name, key))
        self.sym.params = {k: d.get("default") for k, d in declared.items()}
        if not problems:
            self.sym.params = resolve_params(declared, self.given_params)
        elif self.given_params:
            raise_all(self.errors)
        self.game.params = dict(self.sym.params)

    def declare_names_once(self) -> None:
        """A name means one thing: a location may not also be a zone, say."""
        seen: dict[str, str] = {}
        groups = [("location", self.sym.locations), ("counter", self.sym.counters), ("zone", self.sym.zones),
                  ("role", self.sym.roles), ("table", self.sym.tables), ("card", self.sym.cards),
                  ("param", self.sym.params)]
        for name in self.sym.card_props:
            if name in self.sym.counters:     # `card.name` must mean one thing
                self.error(f"'{name}' names both a card property and a counter", ("card_props", name), key=True,
                           hint="rename one of them, e.g. the property to 'needs' or the counter to 'tokens'")
        for kind, names in groups:
            for name in names:
                if name in seen and not (kind == "card" and seen[name] == "card"):
                    path = {"location": ("locations", name), "counter": ("counters", name),
                            "zone": ("zones", name), "table": ("tables", name),
                            "param": ("params", name)}.get(kind, ())
                    self.error(f"'{name}' names both a {seen[name]} and a {kind}", path, key=bool(path))
                seen.setdefault(name, kind)
        reserved = {"me", "target", "this", "card", "owner", "players", "others", "game", "turn", "none",
                    "true", "false"}
        for kind, names in groups:
            for name in names:
                if name in reserved:
                    self.error(f"'{name}' is a reserved word of the language", (kind + "s", name), key=True)

    def declare_vars(self) -> None:
        g = self.game
        for name, decl in (self.data.get("vars") or {}).items():
            decl = decl or {}
            kind = self.sym.vars[name]
            initial = decl.get("initial", 0 if kind == INT else False if kind == BOOL else None)
            if kind == LOCATION and initial is not None:
                if initial not in g.locations:
                    self.error(f"unknown location '{initial}'", ("vars", name, "initial"),
                               did_you_mean(str(initial), g.locations))
                    initial = None
                else:
                    initial = 1 + g.locations.index(initial)
            g.var_names.append(name)
            g.var_initial.append(initial)
            g.var_types.append(kind)
            g.var_visibility.append(decl.get("visibility", "public"))

    def declare_tables(self) -> None:
        g = self.game
        for name, table in (self.data.get("tables") or {}).items():
            columns = list(table.get("columns") or [])
            rows = {}
            for key, row in (table.get("rows") or {}).items():
                if not isinstance(key, int) or isinstance(key, bool):
                    self.error(f"table rows are keyed by player count, not '{key}'", ("tables", name, "rows", key),
                               key=True)
                    continue
                if len(row) != len(columns):
                    self.error(f"this row has {len(row)} values for {len(columns)} columns",
                               ("tables", name, "rows", key))
                rows[key] = list(row)
            if table.get("by", "players") == "players":
                for count in range(g.min_players, g.max_players + 1):
                    if count not in rows:
                        self.error(f"table '{name}' has no row for {count} players", ("tables", name, "rows"),
                                   f"add a row '{count}: [...]' or change players: min/max")
            g.tables[name] = {"columns": columns, "rows": rows}

    def declare_dice(self) -> None:
        for name, die in (self.data.get("dice") or {}).items():
            faces = die.get("faces", 6)
            table = {f: None for f in range(1, faces + 1)}
            for outcome, values in (die.get("outcomes") or {}).items():
                for face in values:
                    if face not in table:
                        which = shown(face) if isinstance(face, int) else face    # a YAML int may be huge
                        self.error(f"die '{name}' has no face {which}", ("dice", name, "outcomes", outcome))
                    else:
                        table[face] = outcome
            self.game.dice[name] = table

    def declare_roles(self) -> None:
        g = self.game
        roles = self.data.get("roles") or []
        if sum(1 for r in roles if r.get("count") is None) > 1:
            self.error("only one role may leave out 'count' (it takes the remaining seats)", ("roles",))
        g.roles = [dict(r) for r in roles]
        g.teams = {team: list(members) for team, members in self.sym.teams.items()}
        for role in roles:
            g.teams.setdefault(role.get("team", role["name"]), [])
            if role["name"] not in g.teams[role.get("team", role["name"])]:
                g.teams[role.get("team", role["name"])].append(role["name"])

    def declare_zones(self) -> None:
        g = self.game
        zones = self.data.get("zones") or {}
        for name, decl in zones.items():
            decl = decl or {}
            owner = decl.get("owner", "table")
            group = g.table_zones if owner == "table" else g.player_zones
            z = ZoneDecl(name, len(group), owner, decl.get("visibility", "public"), decl.get("label", name),
                         unique=decl.get("unique") == "slot")
            group.append(z)
            g.zones.append(z)
        index = {z.name: i for i, z in enumerate(g.zones)}
        for name, decl in zones.items():
            decl = decl or {}
            z = g.zones[index[name]]
            for key in ("refill_from", "discard"):
                other = decl.get(key)
                if other is None:
                    continue
                if other not in index:
                    self.error(f"unknown zone '{other}'", ("zones", name, key), did_you_mean(other, index))
                elif g.zones[index[other]].owner != z.owner and key == "refill_from":
                    self.error(f"'{other}' must have the same owner as '{name}' to refill it", ("zones", name, key))
                else:
                    setattr(z, key, index[other])
            for other in decl.get("unique_with") or []:
                if other not in index:
                    self.error(f"unknown zone '{other}'", ("zones", name, "unique_with"), did_you_mean(other, index))
                else:
                    z.unique_with.append(index[other])

    def declare_cards(self) -> None:
        g, sym = self.game, self.sym
        index = {z.name: i for i, z in enumerate(g.zones)}
        declared_tags = self.data.get("tags")
        seen: set[str] = set()
        for i, card in enumerate(self.data.get("cards") or []):
            cid = card["id"]
            if cid in seen:
                self.error(f"card id '{cid}' is used twice", ("cards", i, "id"))
            seen.add(cid)
            zone = card.get("zone")
            if zone not in index:
                self.error(f"unknown zone '{zone}'", ("cards", i, "zone"),
                           did_you_mean(str(zone), index) or "cards start in a zone declared under 'zones:'")
                continue
            discard = card.get("discard")
            if discard is not None and discard not in index:
                self.error(f"unknown zone '{discard}'", ("cards", i, "discard"), did_you_mean(discard, index))
                discard = None
            token = bool(card.get("token"))
            if token and g.zones[index[zone]].owner != "table":
                self.error("a token's zone is its supply, a table zone out of play", ("cards", i, "zone"),
                           "declare a zone like 'supply: {owner: table, visibility: hidden}' for it")
            discard_index = index[discard] if discard is not None else index[zone] if token \
                else g.zones[index[zone]].discard
            tags = tuple(card.get("tags") or [])
            for t, tag in enumerate(tags):
                if declared_tags is not None and tag not in declared_tags:
                    self.error(f"unknown tag '{tag}'", ("cards", i, "tags", t),
                               did_you_mean(tag, declared_tags) or "declare it under 'tags:'")
            props = dict(sym.card_props)
            for key, value in (card.get("props") or {}).items():
                if key not in sym.card_props:
                    self.error(f"unknown card property '{key}'", ("cards", i, "props", key),
                               did_you_mean(key, sym.card_props) or "declare it under 'card_props:'", key=True)
                props[key] = value
            ctype = CardType(cid, card.get("name", cid), len(g.cards), card.get("slot", cid), index[zone],
                             discard_index, props, tags, card.get("text", ""), span=self.doc.span(("cards", i)),
                             token=token, zone_span=self.doc.span(("cards", i, "zone")))
            g.cards.append(ctype)
            for _ in range(card.get("count", 1)):
                g.card_type.append(ctype)
                g.slot_of.append(ctype.slot)
        if declared_tags is None:
            sym.tags = {t for c in g.cards for t in c.tags}

    # -- code ------------------------------------------------------------------------------

    def new_proc(self, name: str) -> int:
        self.game.procs.append(Proc(name, [], []))
        return len(self.game.procs) - 1

    def finish(self, index: int, b: Builder) -> None:
        proc = self.game.procs[index]
        proc.code, proc.spans, proc.sites = b.code, b.spans, b.sites

    def generate(self, jobs: dict[tuple, _Job]) -> None:
        g, data = self.game, self.data
        main = self.new_proc("the turn loop")
        proc_ids = {name: self.new_proc(f"procedure {name}") for name in (data.get("procedures") or {})}
        ec = ExprCompiler(g, self.sym, proc_ids)
        self.roll_hooks = {die: ([], []) for die in hooked_dice(data.get("triggers")) if die in g.dice}
        sc = StmtCompiler(ec, has_triggers=bool(data.get("triggers")), roll_hooks=self.roll_hooks)
        if self.python:
            g.program = ec.program = sc.program = Program(ec, sc)

        def expr(path):
            job = jobs.get(path)
            return ec.expr(job.tree) if job is not None else None

        def block(path, name, prefix: list | None = None, suffix: list | None = None) -> int:
            index = self.new_proc(name)
            b = Builder(name)
            for op, span in prefix or []:
                b.emit(op, span)
            job = jobs.get(path)
            if job is not None:
                sc.place = place_of(data, path)
                sc.block(job.tree, b)
            b.exit.pc = b.here()
            for op, span in suffix or []:
                b.emit(op, span)
            self.finish(index, b)
            return index

        for name in self.function_order:            # callees first: a call takes its callee's closure
            ec.function_trees[name] = jobs[("functions", name, "value")].tree
            ec.functions[name] = (list(self.sym.functions[name]), expr(("functions", name, "value")))
        for name, index in proc_ids.items():
            b = Builder(f"procedure {name}")
            sc.place = place_of(data, ("procedures", name, "effect"))
            sc.block(jobs[("procedures", name, "effect")].tree, b)
            b.exit.pc = b.here()
            self.finish(index, b)
        resolve = self.generate_triggers(jobs, expr, block, ec)
        self.generate_cards(jobs, ec, expr, block, resolve)
        for i, cond in enumerate(data.get("end") or []):
            g.end.append(EndCondition(cond.get("name", f"end condition {i + 1}"), expr(("end", i, "when")),
                                      expr(("end", i, "winner")), self.doc.span(("end", i))))
        g.score = self.score(expr)
        g.score_span = self.doc.span(("score",)) if g.score is not None else None
        g.returns = expr(("returns",))
        g.returns_span = self.doc.span(("returns",)) if g.returns is not None else None
        g.heuristic = expr(("heuristic",))
        setup = block(("setup",), "setup") if data.get("setup") else None
        phases = []
        for k, (path, phase) in enumerate(phase_specs(data)):
            g.phases[k].until = expr(path + ("until",))
            steps = []
            for i, step in enumerate(phase.get("steps") or []):
                name = step.get("name", f"step {i + 1}")
                tree = jobs[path + ("steps", i, "effect")].tree
                inline = None if self.turn_hooks.get(("before step", name)) else sc.inline_body(tree)
                if inline is not None:      # a step that never waits runs in place, with no frame
                    steps.append((name, inline, self.doc.span(path + ("steps", i, "effect"))))
                else:
                    steps.append((name, block(path + ("steps", i, "effect"), f"step '{name}'"),
                                  self.doc.span(path + ("steps", i, "effect"))))
            phases.append((path, phase, steps))
        self.generate_main(main, setup, phases)
        g.code = [p.code for p in g.procs]
        g.reaction_types = [c for c in g.cards if c.answer_when is not None]

    def generate_cards(self, jobs, ec: ExprCompiler, expr, block, resolve: list) -> None:
        g = self.game
        watched: set[int] = set()
        for i, (card, ctype) in enumerate(zip(self.data.get("cards") or [], g.cards)):
            play = card.get("play")
            if play is not None:
                ctype.play_target = expr(("cards", i, "play", "target"))
                to = expr(("cards", i, "play", "to"))
                after = [(after_resolving(cond, proc), span) for cond, proc, ref, span in resolve
                         if is_of_kind(ctype, ref)]
                ctype.play_proc = block(("cards", i, "play", "effect"), f"card {ctype.id}",
                                        [(place_played(to) if to else discard_played, self.doc.span(("cards", i, "play")))],
                                        after)
                to_job = jobs.get(("cards", i, "play", "to"))
                if to_job is not None and isinstance(to_job.tree, n.Attr) and to_job.tree.ref[0] == "pzone":
                    watched.add(zone_decl(g, to_job.tree.name).index + len(g.table_zones))
            lasts = self.lasts_in(i, card)
            if lasts is not None and card.get("discard_when") is not None:
                watched.add(lasts.index + (len(g.table_zones) if lasts.owner == "player" else 0))
            answer = card.get("answer")
            if answer is not None:
                ctype.answer_when = expr(("cards", i, "answer", "when"))
                ctype.answer_proc = block(("cards", i, "answer", "effect"), f"answer {ctype.id}")
            if card.get("discard_when") is not None:
                ctype.discard_when = expr(("cards", i, "discard_when"))
            if card.get("discard_after") is not None:
                self.declare_duration(i, card, ctype, jobs, ec)
        if any(c.discard_when is not None for c in g.cards):
            for z in g.zones:
                key = z.index + (len(g.table_zones) if z.owner == "player" else 0)
                z.watched = key in watched or not watched
        raise_all(self.errors)

    def declare_duration(self, i: int, card: dict, ctype: CardType, jobs: dict, ec: ExprCompiler) -> None:
        """`discard_after: {roll: DIE}`: the card leaves its play zone after its owner's next roll of DIE."""
        g = self.game
        die = card["discard_after"]["roll"]
        if die not in g.dice:
            self.error(f"unknown die '{die}'", ("cards", i, "discard_after", "roll"),
                       did_you_mean(die, g.dice) or "declare it under 'dice:'")
            return
        to_job = jobs.get(("cards", i, "play", "to"))
        lasts = self.lasts_in(i, card)
        if lasts is None and (to_job is None or not (isinstance(to_job.tree, n.Attr)
                                                      and to_job.tree.ref[0] == "pzone")):
            self.error("a card that lasts until a roll must stay in a player's zone: play it there "
                       "(play: to: target.ZONE) or name the zone with 'lasts_in: ZONE'", ("cards", i, "discard_after"))
            return
        marked, decls = g.discard_after_roll.setdefault(die, ([False] * len(g.card_type), []))
        for instance, kind in enumerate(g.card_type):
            if kind is ctype:
                marked[instance] = True
        decl = lasts if lasts is not None else zone_decl(g, to_job.tree.name)
        if decl not in decls:
            decls.append(decl)

    def generate_triggers(self, jobs, expr, block, ec: ExprCompiler) -> list:
        """Zone triggers attach to their zones; resolve triggers are returned for the cards."""
        g = self.game
        resolve = []
        self.turn_hooks: dict[tuple[str, str], list[int]] = {}
        for i, trig in enumerate(self.data.get("triggers") or []):
            kind = trigger_kind(trig.get("on", ""))
            if kind is None:
                self.error(f"'on' reads {ON_FORMS}", ("triggers", i, "on"))
                continue
            if kind[0] not in ("enter", "leave", "resolve"):
                self.hook_trigger(i, trig, kind, expr, block)
                continue
            words = list(kind)
            proc = block(("triggers", i, "effect"), f"trigger '{trig.get('name', i + 1)}'")
            cond = expr(("triggers", i, "if"))
            if words[0] == "resolve":
                ref = _class_of(self.sym, words[1])
                if ref is None:
                    self.error(f"unknown card kind '{words[1]}'", ("triggers", i, "on"),
                               did_you_mean(words[1], self.sym.classes()))
                    continue
                resolve.append((cond, proc, ref, self.doc.span(("triggers", i))))
                continue
            decl = next((z for z in g.zones if z.name == words[1]), None)
            if decl is None:
                self.error(f"unknown zone '{words[1]}'", ("triggers", i, "on"),
                           did_you_mean(words[1], [z.name for z in g.zones]))
                continue
            (decl.on_enter if words[0] == "enter" else decl.on_leave).append((cond, proc))
        raise_all(self.errors)
        return resolve

    def generate_main(self, main: int, setup: int | None, phases: list[tuple[tuple, dict, list]]) -> None:
        """The turn loop: setup, then each phase's turns of steps, until an end condition holds."""
        g = self.game
        b = Builder("the turn loop")
        if setup is not None:
            b.emit(lambda st, fr: st.stack.append(Frame(setup, 0, {})), None)
        for k, (path, spec, steps) in enumerate(phases):
            phase = g.phases[k]
            seat = phase.order == "seat"
            hooks = self.turn_hooks
            phase.begin_pc = b.emit(begin_turn(phase), self.doc.span(path + ("limit",)) if "limit" in spec
                                    else self.doc.span(path))
            if hooks.get(("start turn", "")):
                b.emit(fire_turn_hooks(hooks[("start turn", "")], seat), None)
            for name, proc, span in steps:      # an inline step's failure without a place of its own points here
                g.step_pcs[name] = b.emit(call_step(name, proc, seat, _before_step(hooks, name, seat)), span)
                g.step_phase[name] = k
                if hooks.get(("after step", name)):
                    b.emit(fire_turn_hooks(hooks[("after step", name)], seat), None)
            if hooks.get(("end turn", "")):
                phase.end_pc = b.emit(fire_turn_hooks(hooks[("end turn", "")], seat), None)
                b.emit(next_turn(g, k), self.doc.span(path + ("until",)) if "until" in spec else None)
            else:
                phase.end_pc = b.emit(next_turn(g, k), self.doc.span(path + ("until",)) if "until" in spec
                                      else None)
        self.finish(main, b)
        g.main = main


def _before_step(hooks: dict, name: str, seat: bool) -> Callable | None:
    """The instruction that starts a step's `before step` triggers, if it has any."""
    before = hooks.get(("before step", name))
    return fire_turn_hooks(before, seat) if before else None


def _class_of(sym: Symbols, name: str) -> tuple | None:
    if name in sym.cards:
        return ("card", name)
    if name in sym.tags:
        return ("tag", name)
    if name in sym.slots:
        return ("slot", name)
    return None


def _calls_in(node: Any) -> list[n.Call]:
    """Every call in an expression tree."""
    found = []
    stack = [node]
    while stack:
        item = stack.pop()
        if isinstance(item, n.Call):
            found.append(item)
        if isinstance(item, n.Node):
            stack.extend(v for v in vars(item).values() if isinstance(v, (n.Node, list)))
        elif isinstance(item, list):
            stack.extend(item)
    return found


def _get(data: Any, path: tuple) -> Any:
    for key in path:
        if isinstance(data, dict):
            data = data.get(key)
        elif isinstance(data, list) and isinstance(key, int) and key < len(data):
            data = data[key]
        else:
            return None
    return data


def compile_game(doc: Document, params: Mapping[str, Any] | None = None, python: bool = True) -> Game:
    """A checked, compiled ``Game`` from a loaded document and this instance's param values.

    With ``python`` (the default) rule texts are compiled to generated Python where the generator
    knows the node (rulelang/compiler/program.py); without, every rule is a closure: the reference the
    generated code is tested against.

    Raises SpecError (never a Python error of size), or ParamError for a param value the game refuses.
    """
    try:
        return GameCompiler(doc, params, python).compile()
    except RecursionError:
        raise SpecError("the spec nests too deeply to compile", doc.span(()),
                        "split deep rule texts into functions or procedures") from None
    except MemoryError:
        raise SpecError("the spec is too large to compile (out of memory)", doc.span(())) from None
