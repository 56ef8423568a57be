"""Checking statements: one ``stmt_<Class>`` method a statement class, with the helpers they share.

A mixin of ``check.Checker``: it checks what each statement of a rule text moves, sets, chooses or
calls (targets that can be assigned, holders of counters, cards, lists to loop over, who decides),
and declares the locals a statement introduces in its ``Scope``. It relies on the Checker's
``expr``, ``expect``, ``fits``, ``block`` and ``error`` and on ``ExpressionChecks._is_global``.
A statement kept in one home (``rulelang/statements/``) has its check there, using these helpers.
"""
from __future__ import annotations

from rulelang.check.hooks import is_proc_call
from rulelang.check.types import Scope, describe, item_of
from rulelang.errors import did_you_mean_or_list
from rulelang.lang import nodes as n
from rulelang.lang.bindings import BOUND_WORDS
from rulelang.lang.refs import Ref, RefKind
from rulelang.lang.types import (
    BOOL,
    CARD,
    CLASS,
    COUNTER,
    GAME,
    INT,
    LOCATION,
    NONE,
    PLAYER,
    UNKNOWN,
    ZONE,
    Type,
    list_of,
    roll_of,
    tuple_items,
)
from rulelang.model.decisions import branch_id


class StatementChecks:
    """The statement checks of ``check.Checker``; errors are recorded through ``self.error``."""

    def stmt_Assign(self, s: n.Assign, scope: Scope) -> None:
        if is_proc_call(s.value, self.sym.procedures):
            kind = self.proc_value(s.value, scope)
            if isinstance(s.target, n.Name) and s.target.id not in scope.names and not self._is_global(s.target.id):
                scope.names[s.target.id] = kind
                s.target.ref, s.target.type = Ref(RefKind.LOCAL, s.target.id), kind
            elif kind != UNKNOWN and not self.fits(kind, self.assignable(s.target, scope)):
                self.error(f"the value must be {describe(s.target.type or UNKNOWN)}, not {describe(kind)}",
                           s.value.span)
            return
        if isinstance(s.target, n.Name) and s.target.id not in scope.names and not self._is_global(s.target.id):
            kind = self.values_first(s.value, scope)
            if kind in (NONE, UNKNOWN):
                kind = UNKNOWN
            scope.names[s.target.id] = kind
            s.target.ref = Ref(RefKind.LOCAL, s.target.id)
            s.target.type = kind
            return
        kind = self.assignable(s.target, scope)
        if kind != UNKNOWN:
            self.values_first(s.value, scope, kind, "the value")

    def stmt_AugAssign(self, s: n.AugAssign, scope: Scope) -> None:
        kind = self.assignable(s.target, scope)
        if kind not in (INT, UNKNOWN):
            self.error(f"'{s.op}' needs a number to change, not {describe(kind)}", s.target.span)
        self.values_first(s.value, scope, INT, "the amount")

    def assignable(self, target: n.Expr, scope: Scope) -> Type:
        if isinstance(target, n.Name):
            if target.id in scope.names and target.id not in BOUND_WORDS:
                target.ref = Ref(RefKind.LOCAL, target.id)
                target.type = scope.names[target.id]
                return target.type
            return self.error(f"cannot assign to '{target.id}'", target.span,
                              "assign to a local name, a player variable or a counter, like p.score")
        if isinstance(target, (n.Attr, n.Index)):
            kind = self.expr(target, scope)
            ref = getattr(target, "ref", None)
            if isinstance(target, n.Index) and tuple_items(target.obj.type) is not None:
                return self.error("an element of a tuple cannot be set", target.span,
                                  "set the whole tuple: t = (a, b)")
            if isinstance(target, n.Index) or (ref and ref.kind in (RefKind.PCOUNTER, RefKind.HCOUNTER, RefKind.GCOUNTER, RefKind.CCOUNTER, RefKind.PVAR)):
                return kind
            return self.error("this cannot be assigned", target.span,
                              "only counters and player variables can be set")
        return self.error("this cannot be assigned", target.span)

    def stmt_MoveCounter(self, s: n.MoveCounter, scope: Scope) -> None:
        if s.amount is not None:
            self.expect(s.amount, scope, INT, "the amount")
        self.expect(s.counter, scope, COUNTER, "what is moved")
        self.holder(s.source, scope)
        self.holder(s.dest, scope)

    def holder(self, expr: n.Expr, scope: Scope) -> Type:
        """Something that holds counters: a player, a location, a card or the game."""
        return self.holder_type(self.expr(expr, scope), expr)

    def holder_type(self, kind: Type, expr: n.Expr) -> Type:
        """The type of ``expr`` (checked already), which must hold counters."""
        if kind == CARD:
            self.uses_card_counters = True
        elif kind not in (PLAYER, LOCATION, GAME, UNKNOWN):
            self.error(f"only players, locations, cards and the game hold counters, not {describe(kind)}",
                       expr.span)
        return kind

    def stmt_MoveCards(self, s: n.MoveCards, scope: Scope) -> None:
        self.cards(s.cards, scope)
        self.expect(s.dest, scope, ZONE, "the destination")

    def cards(self, expr: n.Expr, scope: Scope) -> Type:
        kind = self.expr(expr, scope)
        if kind not in (CARD, ZONE, list_of(CARD), UNKNOWN, NONE):
            hint = "a kind names cards: pick them with (c in ZONE where c is KIND)" if kind == CLASS else None
            self.error(f"expected a card or cards, not {describe(kind)}", expr.span, hint)
        return kind

    def stmt_Discard(self, s: n.Discard, scope: Scope) -> None:
        self.cards(s.cards, scope)

    def stmt_Draw(self, s: n.Draw, scope: Scope) -> None:
        self.expect(s.amount, scope, INT, "the number of cards")
        self.expect(s.source, scope, ZONE, "the zone drawn from")
        self.expect(s.dest, scope, ZONE, "the zone drawn to")

    def stmt_Reveal(self, s: n.Reveal, scope: Scope) -> None:
        self.cards(s.cards, scope)
        if s.to is not None:
            self.expect(s.to, scope, PLAYER, "whom the cards are shown to")

    def stmt_Roll(self, s: n.Roll, scope: Scope) -> None:
        self.expect(s.amount, scope, INT, "the number of dice")
        if s.player is not None:
            self.expect(s.player, scope, PLAYER, "who rolls")
        if s.for_player is not None:
            self.expect(s.for_player, scope, PLAYER, "whom the roll is for")
        if s.die not in self.sym.dice:
            self.error(f"unknown die '{s.die}'", s.die_span or s.span,
                       did_you_mean_or_list(s.die, self.sym.dice, "dice", "dice"))
            scope.names[s.var] = UNKNOWN
        else:
            scope.names[s.var] = roll_of(s.die)

    def iterable(self, expr: n.Expr, scope: Scope) -> Type:
        kind = self.expr(expr, scope)
        item = item_of(kind)
        if item is None:
            if kind != UNKNOWN:
                self.error(f"expected a list, not {describe(kind)}", expr.span)
            return UNKNOWN
        return item

    def decider(self, expr: n.Expr, scope: Scope) -> None:
        self.expect(expr, scope, PLAYER, "who chooses")

    def choice_target(self, target: n.Expr, kind: Type, scope: Scope) -> None:
        if isinstance(target, n.Name) and (target.id not in scope.names or scope.names[target.id] in (UNKNOWN, kind)):
            if self._is_global(target.id) and target.id not in scope.names:
                self.error(f"'{target.id}' is already a name of the game", target.span,
                           "choose into a new local name")
                return
            scope.names[target.id] = kind
            target.ref = Ref(RefKind.LOCAL, target.id)
            target.type = kind
            return
        wanted = self.assignable(target, scope)
        if wanted != UNKNOWN and kind != UNKNOWN and wanted != kind:
            self.error(f"the choice is {describe(kind)} but this holds {describe(wanted)}", target.span)

    def stmt_ChooseIn(self, s: n.ChooseIn, scope: Scope) -> None:
        self.decider(s.player, scope)
        item = self.iterable(s.source, scope)
        self.choice_target(s.target, item, scope)
        if s.cond is not None and isinstance(s.target, n.Name):
            self.expect(s.cond, scope, BOOL, "the filter")
        elif s.cond is not None:
            self.error("a filtered choice must choose into a local name", s.target.span)

    def stmt_ChooseRange(self, s: n.ChooseRange, scope: Scope) -> None:
        self.decider(s.player, scope)
        self.expect(s.low, scope, INT, "the lowest choice")
        self.expect(s.high, scope, INT, "the highest choice")
        self.choice_target(s.target, INT, scope)

    def stmt_ChooseOne(self, s: n.ChooseOne, scope: Scope) -> None:
        self.decider(s.player, scope)
        seen: set[str] = set()
        ids: set[str] = set()
        for branch in s.branches:
            if isinstance(branch, n.EachBranch):
                self.each_branch(branch, scope)
                continue
            if branch.label in seen:
                self.error(f"two branches are labelled \"{branch.label}\"", branch.span)
            elif branch_id(branch) in ids:
                self.error(f"two branches have the option id '{branch_id(branch)}'", branch.span,
                           "give one an id of its own: \"label\" as some_id:")
            seen.add(branch.label)
            ids.add(branch_id(branch))
            if branch.cond is not None:
                self.expect(branch.cond, scope, BOOL, "the branch condition")
            self.block(branch.body, scope)

    def each_branch(self, branch: n.EachBranch, scope: Scope) -> None:
        """`for x in LIST where C:` among the branches: x names the item chosen in the filter and the body."""
        item = self.iterable(branch.source, scope)
        known = scope.names.get(branch.var, UNKNOWN)
        if self._is_global(branch.var) and branch.var not in scope.names:
            self.error(f"'{branch.var}' is already a name of the game", branch.span, "name the item with a new name")
        elif known not in (UNKNOWN, item) and item != UNKNOWN:
            self.error(f"'{branch.var}' holds {describe(known)} here, not {describe(item)}", branch.span,
                       "name the item with a new name")
        scope.names[branch.var] = item
        if branch.cond is not None:
            self.expect(branch.cond, scope, BOOL, "the filter")
        self.block(branch.body, scope)

    def stmt_SecretChoose(self, s: n.SecretChoose, scope: Scope) -> None:
        inner = scope.child()
        item = self.iterable(s.players, scope)
        if item not in (PLAYER, UNKNOWN):
            self.error("simultaneous choices are made by a list of players", s.players.span)
        inner.names[s.var] = PLAYER
        if s.players_cond is not None:
            self.expect(s.players_cond, inner, BOOL, "the filter")
        option = self.iterable(s.source, inner)
        if not isinstance(s.target, (n.Attr, n.Index)):
            self.error("a simultaneous choice is stored in a player variable, like p.choice", s.target.span)
            return
        wanted = self.assignable(s.target, inner)
        if wanted != UNKNOWN and option != UNKNOWN and wanted != option:
            self.error(f"the choice is {describe(option)} but this holds {describe(wanted)}", s.target.span)
        if s.cond is not None:
            self.error("filter the options of a simultaneous choice in its list", s.cond.span)

    def stmt_Play(self, s: n.Play, scope: Scope) -> None:
        self.expect(s.zone, scope, ZONE, "the zone played from")
        if not any(card.play is not None for card in self.sym.cards.values()):
            self.error("no card of this game can be played", s.span, "give cards a 'play:' section")

    def stmt_CheckEnd(self, s: n.CheckEnd, scope: Scope) -> None:
        pass

    def stmt_Pass(self, s: n.Pass, scope: Scope) -> None:
        pass

    def arguments(self, call: n.Call, params: dict[str, Type], scope: Scope) -> None:
        if len(call.args) != len(params):
            self.error(f"'{call.func}' takes {len(params)} argument(s), got {len(call.args)}", call.span)
            return
        for arg, (pname, ptype) in zip(call.args, params.items()):
            if arg.var is not None:
                self.error("a filter cannot be passed here", arg.span)
                continue
            self.expect(arg.value, scope, ptype, f"argument '{pname}'")
