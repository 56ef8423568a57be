"""Decisions as instructions: `chooses ... in`, `from ... to`, `chooses one:`, and secret choices.

A decision's instruction offers options, waits for the answer (the run loop pauses), and runs
again to keep it. One option (or none) is taken at once unless the game asks single options.
StmtCompiler takes these methods as a mixin (it provides ``ec``, ``game``, ``sites``, ``block``,
``setter`` and ``fresh``).
"""
from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from rulelang.check.types import item_of
from rulelang.engine import records
from rulelang.engine.limits import MAX_OPTIONS, spend
from rulelang.engine.names import NAMES
from rulelang.engine.state import State
from rulelang.lang import nodes as n
from rulelang.lang.types import BOOL, CARD, COUNTER, INT, LOCATION, PLAYER, UNKNOWN, Type, tuple_items
from rulelang.model.decisions import branch_id

from ..errors import RuleError
from .hooks import Label, goto
from .sites import CHOICE, target_word
from .tuples import tuple_option_text

if TYPE_CHECKING:
    from ..statements.choose_in import ChooseIn
    from ..statements.choose_one import ChooseOne
    from ..statements.choose_range import ChooseRange
    from ..statements.secret_choose import SecretChoose


class ChoiceStatements:
    """StmtCompiler's decisions."""

    # -- labels of choices ---------------------------------------------------------

    def option_text(self, kind: Type) -> Callable[[State, Any], tuple[str, str]]:
        game = self.game
        elements = tuple_items(kind)
        if elements is not None:
            return tuple_option_text([self.option_text(k) for k in elements])
        if kind == PLAYER:
            return lambda st, v: (NAMES[v], NAMES[v])
        if kind == CARD:
            return lambda st, v: (game.card_type[v].id, game.card_type[v].name)
        if kind == LOCATION:
            return lambda st, v: (game.locations[v - 1], game.location_labels[game.locations[v - 1]])
        if kind == COUNTER:
            return lambda st, v: (game.counters[v], game.counter_labels[game.counters[v]])
        return lambda st, v: (str(v).lower(), str(v))

    # -- decisions -----------------------------------------------------------------------

    def item_decision(self, s: ChooseIn, b: Any) -> None:
        """`P chooses X in LIST` (``statements/choose_in.py``): one instruction offering each item that passes."""
        ec = self.ec
        who, items = ec.expr(s.player), ec.as_list(s.source, copy=True)
        cond = ec.expr(s.cond) if s.cond is not None else None
        var = s.target.id if isinstance(s.target, n.Name) else None
        store = self.setter(s.target)
        text = self.option_text(item_of(s.source.type) or UNKNOWN)
        kind = "choose publicly" if s.public else "choose"

        def offer(st, L):
            options: list[list[str]] = []
            values: list[Any] = []
            add_items(st, L, items(st, L), var, cond, text, options, values, set())
            return who(st, L), kind, "choose", options, values
        what = s.name or target_word(s.target)
        pc = b.emit(_decision(offer, store, card_finder(item_of(s.source.type) or UNKNOWN), self.sites.name(what)),
                    s.span)
        self.sites.add(b.sites, pc, "choose", what, s.span,
                       self.sites.items(item_of(s.source.type) or UNKNOWN, ec.constant(s.source), text))

    def number_decision(self, s: ChooseRange, b: Any) -> None:
        """`P chooses X from LO to HI` (``statements/choose_range.py``): one instruction offering each number."""
        ec = self.ec
        who, low, high, store = ec.expr(s.player), ec.expr(s.low), ec.expr(s.high), self.setter(s.target)
        name = s.target.id if isinstance(s.target, n.Name) else "how many"

        def offer(st, L):
            lo = low(st, L)
            values = list(range(lo, lo + numbers_offered(st, lo, high(st, L))))
            return who(st, L), "number", f"choose {name}", [[str(v), str(v)] for v in values], values
        what = s.name or target_word(s.target)
        pc = b.emit(_decision(offer, store, None, self.sites.name(what)), s.span)
        self.sites.add(b.sites, pc, "number", what, s.span, None, numeric=True)

    def branch_decision(self, s: ChooseOne, b: Any) -> None:
        """`P chooses one:` (``statements/choose_one.py``): the decision, a jump to the branch taken, each branch."""
        choose, picked, guards = self.choose_one(s)
        starts = [Label() for _ in s.branches]
        end = Label()

        def dispatch(st, fr):
            k = take_branch(fr.locals, picked, guards)
            fr.pc = end.pc if k is None else starts[k].pc

        pc = b.emit(choose, s.span)
        self.sites.add(b.sites, pc, "branch", s.name or CHOICE, s.span, self.branch_options(s.branches, guards))
        b.emit(dispatch, s.span)
        for label, branch in zip(starts, s.branches):
            label.pc = b.here()
            self.block(branch.body, b)
            b.emit(goto(end), None)
        end.pc = b.here()

    def choose_one(self, s: ChooseOne) -> tuple[Callable, str, list]:
        """The instruction asking which branch of a `chooses one` (it keeps the pick in a hidden local), the
        local's name, and the branches' guards (for ``take_branch``)."""
        ec = self.ec
        who = ec.expr(s.player)
        guards = [self.each_branch(br) if isinstance(br, n.EachBranch) else
                  (br.label, branch_id(br), ec.expr(br.cond) if br.cond is not None else None)
                  for br in s.branches]
        picked = self.fresh("branch")
        kind = "branch publicly" if s.public else "branch"
        items_offered = any(g[0] is None for g in guards)

        # each labelled branch's option, made once: options are only read, by the protocol and the views
        pairs = [None if guard[0] is None else [guard[1], guard[0]] for guard in guards]
        numbered = list(enumerate(zip(guards, pairs)))

        def offer(st, L):
            options, values = [], []
            for k, (guard, pair) in numbered:
                label, slug, cond = guard[0], guard[1], guard[2]
                if label is None:                 # `for x in LIST where C:` offers an option per item
                    slug(st, L, k, options, values)
                elif (cond is None or cond(st, L)) and not (items_offered and any(o[0] == slug for o in options)):
                    options.append(pair)            # (an item of the same id came first: it is the option)
                    values.append(k)
            return who(st, L), kind, "choose one", options, values

        def pick(st, L, k):
            L[picked] = k

        return _decision(offer, pick, self.branch_cards(guards), self.sites.name(s.name or CHOICE)), picked, guards

    def each_branch(self, br: n.EachBranch) -> tuple[None, Callable, str, Callable, tuple, Callable | None]:
        """A `for x in LIST where C:` branch as a guard: (None, a function adding its options, x, its text, the
        list, the cards an item holds: ``card_finder``).

        Each item that passes the filter is one option, with the item's id and label; its value
        is ``[branch number, item]``, so the branch can bind x to the item it runs for. Two
        items of one id are one option, as in `chooses x in LIST`.
        """
        ec = self.ec
        items, var = ec.as_list(br.source), br.var
        cond = ec.expr(br.cond) if br.cond is not None else None
        kind = item_of(br.source.type) or UNKNOWN
        text = self.option_text(kind)

        def add(st, L, k, options, values):
            add_items(st, L, items(st, L), var, cond, text, options, values, {o[0] for o in options}, branch=k)
        return None, add, var, text, ec.constant(br.source), card_finder(kind)

    def branch_options(self, branches: list, guards: list) -> tuple[tuple[str, str], ...] | None:
        """Every option a `chooses one` may offer: its labelled branches, and each item of its `for` branches."""
        options: list[tuple[str, str]] = []
        for br, guard in zip(branches, guards):
            if not isinstance(br, n.EachBranch):
                options.append((guard[1], guard[0]))
                continue
            listed = self.sites.items(item_of(br.source.type) or UNKNOWN, guard[4], guard[3])
            if listed is None:
                return None
            options.extend(listed)
        unique: dict[str, str] = {}
        for oid, label in options:
            unique.setdefault(oid, label)
        return tuple(unique.items())

    def branch_cards(self, guards: list) -> Callable[[Any], list[int] | None] | None:
        """The cards the options of a `chooses one` hold, for a forced choice (``branch_cards``)."""
        return branch_cards(guards, {card.id for card in self.game.cards})

    def secret_decision(self, s: SecretChoose, b: Any) -> None:
        """`each p in PLAYERS secretly chooses ...` (``statements/secret_choose.py``): one instruction gathering
        the choosers and their options, asking them all at once, and keeping the answers."""
        ec = self.ec
        people = ec.as_list(s.players, copy=True)
        pcond = ec.expr(s.players_cond) if s.players_cond is not None else None
        items = ec.as_list(s.source, copy=True)
        store = self.setter(s.target)
        var = s.var
        text = self.option_text(item_of(s.source.type) or UNKNOWN)
        cards = card_finder(item_of(s.source.type) or UNKNOWN)
        waiting = self.fresh("secret")
        known, values = ec.constant(s.source)
        fixed = distinct_options(text, values) if known else None
        what = s.name or target_word(s.target)
        name = self.sites.name(what)

        def keep(st, L, choosers, answer):
            """The answers, revealed all at once, then stored in order."""
            st.log.append((records.revealed_choices, st.turn, text, choosers, answer))
            for p, v in zip(choosers, answer):
                L[var] = p
                store(st, L, v)

        def alone(st, option, value) -> bool:
            """A single option taken at once: unless the game asks single options, or the others could not
            see it (then the player is asked as the others are, and nobody learns that they had no choice).
            A fixed list is the same for everyone: its single option is no one's secret."""
            if st.ask_single:
                return False
            if fixed is not None or cards is None:
                return True
            return not st.forced_unseen("choose", option[0], cards(value))

        def gather(st, L):
            """(choosers, their options, their values): a player with one option takes it at once (``alone``)."""
            choosers, options, values = [], [], []
            everyone = people(st, L)
            spend(st, len(everyone))
            for p in everyone:
                L[var] = p
                if pcond is not None and not pcond(st, L):
                    continue
                if fixed is not None:
                    opts, vals = fixed
                else:
                    opts, vals = [], []
                    add_items(st, L, items(st, L), None, None, text, opts, vals, set())
                if len(vals) == 1 and alone(st, opts[0], vals[0]):
                    store(st, L, vals[0])
                elif vals:
                    choosers.append(p)
                    options.append(opts)
                    values.append(vals)
            return choosers, options, values

        def op(st, fr):
            L = fr.locals
            answer = st.answer
            if answer is not None:
                st.answer = None
                keep(st, L, L.pop(waiting), answer)
                return False
            choosers, options, values = gather(st, L)
            if not choosers:
                return False
            L[waiting] = choosers
            asked = st.ask("secret", "choose secretly", choosers, options, values, name)
            fr.pc -= 1             # run again with the answers
            return asked
        op.gather, op.keep = gather, keep      # how a step played in place asks it (compiler/direct.py)
        gather.site = name
        pc = b.emit(op, s.span)
        self.sites.add(b.sites, pc, "secret", what, s.span,
                       self.sites.items(item_of(s.source.type) or UNKNOWN, (known, values), text))


def numbers_offered(st: State, lo: int, hi: int) -> int:
    """How many numbers `P chooses X from LO to HI` offers, LO first (LO alone when HI is not above it):
    charged as work, and refused past MAX_OPTIONS. Its instruction and its direct form (compiler/direct.py)
    both count them here."""
    if hi - lo >= MAX_OPTIONS:
        raise RuleError(f"a choice from {lo} to {hi} has more than the {MAX_OPTIONS} options a decision may have")
    count = hi - lo + 1 if hi > lo else 1
    spend(st, count)
    return count


def add_items(st: State, L: dict, xs: list, var: str | None, cond: Callable | None, text: Callable,
              options: list, values: list, seen: set, branch: int | None = None) -> None:
    """Each item of ``xs`` that passes ``cond`` (with ``var`` bound to it) as an option, its id and label by ``text``.

    Each item looked at is work. Items of one id (two copies of a card) are one option: ``seen`` holds the ids
    offered so far. The value is the item, or ``[branch, item]`` for a `for` branch of `chooses one`.
    """
    spend(st, len(xs))
    for x in xs:
        if cond is not None:
            L[var] = x
            if not cond(st, L):
                continue
        oid, label = text(st, x)
        if oid not in seen:
            seen.add(oid)
            options.append([oid, label])
            values.append(x if branch is None else [branch, x])


def distinct_options(text: Callable, values: list) -> tuple[list[list[str]], list]:
    """The options of a choice among fixed values, made once: one per id, the first value of each
    (two items of one id are one option, as ``add_items`` offers them)."""
    options: list[list[str]] = []
    kept: list = []
    seen: set[str] = set()
    for v in values:
        oid, label = text(None, v)
        if oid not in seen:
            seen.add(oid)
            options.append([oid, label])
            kept.append(v)
    return options, kept


def take_branch(L: dict, picked: str, guards: list) -> int | None:
    """The branch a `chooses one` took (None: no branch), out of its hidden local; the item of a `for`
    branch is bound to the branch's name."""
    k = L.pop(picked)
    if isinstance(k, list):
        k, item = k
        L[guards[k][2]] = item
    return k


#: What a choice holds no card instances in: its values say nothing of where a card lies.
NO_CARDS = (INT, BOOL, PLAYER, LOCATION, COUNTER)


def card_finder(kind: Type) -> Callable[[Any], list[int] | None] | None:
    """For ``State.forced``: the card instances a value of ``kind`` holds (a card, or the cards of a tuple),
    or None from it when the value names a card kind without one (a kind, or a tuple holding one). None
    itself when no value of ``kind`` names a card: a forced choice among such values is never logged."""
    if kind == CARD:
        return lambda v: [] if v is None else [v]
    if kind in NO_CARDS:
        return None
    elements = tuple_items(kind)
    if elements is None:
        return _unknown_cards
    finders = [card_finder(k) for k in elements]
    if all(find is None for find in finders):
        return None
    if any(find is _unknown_cards for find in finders):
        return _unknown_cards
    held = [(i, find) for i, find in enumerate(finders) if find is not None]
    return lambda v: [c for i, find in held for c in (find(v[i]) or ())]


def _unknown_cards(value: Any) -> None:
    """A value that names a card kind, not a card: where such a card lies is not known."""
    return None


def branch_cards(guards: list, card_ids: set[str]) -> Callable[[Any], list[int] | None] | None:
    """``card_finder`` of a `chooses one`: a `for` branch's value is [branch, item]; a labelled branch whose
    id reads as a card kind holds no card to look at (None from it). None when no option can name a card."""
    finders = [guard[5] if guard[0] is None else _unknown_cards if guard[1] in card_ids else None
               for guard in guards]
    if all(find is None for find in finders):
        return None

    def cards(v: Any) -> list[int] | None:
        if not isinstance(v, list):
            return None
        find = finders[v[0]]
        return [] if find is None else find(v[1])
    return cards


def _decision(offer: Callable, take: Callable, cards: Callable[[Any], list[int] | None] | None = None,
              name: str = "") -> Callable:
    """An instruction for one player's decision.

    ``offer(st, L)`` gives (player, kind, prompt, options, values); ``take(st, L,
    value)`` keeps the pick. One option (or none: None) is taken at once, unless the state asks single
    options; otherwise the instruction waits, and runs again with the answer. ``cards(value)`` gives the card
    instances a value holds (None: unknown), which tells ``State.forced`` whether the others see it. ``name``:
    the decision's, for an agent that reads it in place (``State.autoread``).
    """
    def op(st, fr):
        L = fr.locals
        answer = st.answer
        if answer is not None:
            st.answer = None
            take(st, L, answer[0])
            return False
        player, kind, prompt, options, values = offer(st, L)
        if not st.asks(len(values)):
            if values and cards is not None:
                st.forced(kind, player, options[0][0], cards(values[0]))
            take(st, L, values[0] if values else None)
            return False
        waiting = st.ask(kind, prompt, [player], [options], [values], name)
        fr.pc -= 1                 # run again with the answer
        return waiting
    op.offer, op.take = offer, take        # how a step played in place asks it (compiler/direct.py)
    offer.cards = cards
    offer.site = name
    return op
