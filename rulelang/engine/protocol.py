"""The decision protocol: how the rules ask players to choose and how a choice is taken.

An instruction that needs a choice calls ``ask``, which stores the pending
decision in the state as plain data (kind, prompt, players, option ids and
labels, the values behind them, who has chosen what) and stops the run loop.
Players and agents read it through ``decision()`` (typed ``Decision`` and
``Option``s), ``waiting()`` (the cheap form play loops use) or ``legal()``,
and answer with ``apply`` or ``apply_index``; once every chooser has chosen,
``_take`` hands the values to the waiting instruction and runs on. These are
methods of ``State`` (``DecisionProtocol`` is one of its bases).
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from rulelang.engine import records
from rulelang.engine.board import Board
from rulelang.engine.interpreter import answered_in_place, run
from rulelang.engine.views import hidden_option, player_name
from rulelang.errors import RuleError, RulelangError
from rulelang.model.decisions import PUBLIC_KINDS

if TYPE_CHECKING:
    from rulelang.engine.interpreter import Frame
    from rulelang.model.decisions import DecisionSite


@dataclass(frozen=True)
class Option:
    """One thing a player may choose: a stable id (what ``apply`` takes) and the words shown for it."""

    id: str
    label: str


@dataclass(frozen=True)
class Decision:
    """Who must choose now, and every legal option of each of them.

    ``name`` is the decision's stable name from the spec (``roll.choice``,
    ``2_draw.n``: see rulelang/model/decisions.py) and ``rule`` the rulings of
    the step, procedure or card that asks it.
    """

    kind: str
    prompt: str
    players: tuple[int, ...]
    options: dict[int, tuple[Option, ...]]
    name: str = ""
    rule: tuple[str, ...] = ()

    @property
    def player(self) -> int:
        return self.players[0]

    @property
    def simultaneous(self) -> bool:
        return self.kind == "secret"

    def without(self, player: int) -> Decision | None:
        """The same decision once ``player`` has chosen: the others' options are kept, not built again.

        So a secret choice of k players builds its options once, not once per player still to choose.
        """
        players = tuple(p for p in self.players if p != player)
        if not players:
            return None
        return Decision(self.kind, self.prompt, players, {p: self.options[p] for p in players}, self.name, self.rule)


class DecisionProtocol(Board):
    """The decision methods of ``State``: a ``Board`` that asks and takes decisions."""

    __slots__ = ()
    stack: list[Frame]
    _decision: Decision | None    # ``decision()``'s answer, until the pending decision changes
    autopick: Callable[[int, int], int] | None   # (player, number of options) -> index, asked in place

    def decision(self) -> Decision | None:
        """Who must choose now and their options; None once the game is over."""
        pend = self.pending
        if pend is None or self.over:
            return None
        if self._decision is None:
            players, options = [], {}
            for i, p in enumerate(pend["players"]):
                if pend["chosen"][i] is None:
                    players.append(p)
                    options[p] = tuple(Option(o[0], o[1]) for o in pend["options"][i])
            site = self.site()
            kind = pend["kind"]
            self._decision = Decision(PUBLIC_KINDS.get(kind, kind), pend["prompt"], tuple(players), options,
                                      site.name if site else "", site.rule if site else ())
        return self._decision

    def waiting(self) -> tuple[int, int] | None:
        """The first player still to choose and how many options they have; None if no one must choose.

        What a play loop needs, without building the options (``decision()`` does).
        """
        pend = self.pending
        if pend is None or self.over:
            return None
        i = pend["chosen"].index(None)
        return pend["players"][i], len(pend["options"][i])

    def lone_chooser(self) -> tuple[int, list[list[str]]] | None:
        """The player who must choose now and their ``[id, label]`` options as stored, when they choose alone
        (the last chooser left, not of a secret choice); None when the game is over, nobody must choose, or
        several choose at once. What an adapter asks once per action (who moves, and what they may do)."""
        pend = self.pending
        if pend is None or self.over or pend["kind"] == "secret":
            return None
        chosen = pend["chosen"]
        if len(chosen) == 1 and chosen[0] is None:     # the usual: one chooser
            return pend["players"][0], pend["options"][0]
        if chosen.count(None) != 1:
            return None
        i = chosen.index(None)
        return pend["players"][i], pend["options"][i]

    def choices_left(self) -> list[tuple[int, list[list[str]]]]:
        """Each player still to choose, in order, with their ``[id, label]`` options as stored (nothing built);
        none once the game is over."""
        pend = self.pending
        if pend is None or self.over:
            return []
        options = pend["options"]
        return [(p, options[i]) for i, (p, c) in enumerate(zip(pend["players"], pend["chosen"])) if c is None]

    def choosers(self) -> tuple[int, ...]:
        """The players still to choose, in order (none once the game is over), without building their options."""
        return tuple(p for p, _ in self.choices_left())

    def options_of(self, player: int) -> list[list[str]] | None:
        """The ``[id, label]`` options of ``player`` if they must choose now, else None (as stored: nothing built)."""
        return next((options for p, options in self.choices_left() if p == player), None)

    def site(self) -> DecisionSite | None:
        """The place in the rules that asks the waiting decision: the instruction the top frame stands on."""
        if self.pending is None or not self.stack:
            return None
        frame = self.stack[-1]
        return self.game.procs[frame.proc].sites.get(frame.pc)

    def legal(self, player: int | None = None) -> list[str]:
        """The option ids of a player who must choose (the first one by default)."""
        pend = self.pending
        if pend is None:
            return []
        i = _chooser_index(pend, player)
        return [o[0] for o in pend["options"][i]]

    def apply(self, option: str, player: int | None = None) -> None:
        """Take one option, by id, for ``player`` (default: the first who must choose)."""
        pend = self.pending
        if pend is None or self.over:
            raise RulelangError("no decision is waiting")
        i = _chooser_index(pend, player)
        for j, known in enumerate(pend["options"][i]):
            if known[0] == option:
                self._take(pend, i, j)
                return
        ids = [o[0] for o in pend["options"][i]]
        raise RulelangError(f"'{option}' is not an option of {player_name(pend['players'][i])}",
                            hint="options: " + ", ".join(ids))

    def apply_index(self, j: int, player: int | None = None) -> None:
        """Take the j-th option of ``player``: the fast path for simulations."""
        pend = self.pending
        if pend is None or self.over:
            raise RulelangError("no decision is waiting")
        try:
            i = pend["chosen"].index(None)          # the first still to choose: the one asked, nearly always
        except ValueError:
            i = _chooser_index(pend, player)        # nobody is: told there
        if player is not None and pend["players"][i] != player:
            i = _chooser_index(pend, player)
        if not 0 <= j < len(pend["options"][i]):
            raise RulelangError(f"option {j} is out of range")
        self._take(pend, i, j)

    def _take(self, pend: dict, i: int, j: int) -> None:
        chosen = pend["chosen"]
        chosen[i] = j
        player = pend["players"][i]
        known = self._decision
        if known is not None:
            self._decision = known.without(player)
        self.log.append((_CHOSE, self.turn, player, pend["options"][i][j][0], pend["kind"]))
        if None not in chosen:
            values = pend["values"]
            if len(chosen) == 1:                    # one chooser, the commonest decision
                self.answer = [values[0][j]]
            else:
                self.answer = [values[k][c] for k, c in enumerate(chosen)]
            self.pending = None
            run(self)

    def asks(self, count: int) -> bool:
        """Whether one player's decision among ``count`` options is asked: more than one, or one when the game
        asks single options. Otherwise its one option (or none: None) is taken at once."""
        return count > 1 or count == 1 and self.ask_single

    def forced(self, kind: str, player: int | None, option: str, cards: list[int] | None) -> None:
        """A decision with one option, taken without asking: logged as a choice (``forced`` in the full log)
        when the other players would not see the option, so that their account of the game shows them a
        choice they cannot tell from a free one. ``cards`` are the card instances the option holds (None:
        not known): when every one lies face up on the table, everyone sees it and nothing is logged. A game
        declaring `forced_choices: shown` leaves no event."""
        if player is not None and self.forced_unseen(kind, option, cards):
            self.log.append((_CHOSE, self.turn, player, option, kind, True))

    def forced_unseen(self, kind: str, option: str, cards: list[int] | None) -> bool:
        """Whether the others could not see a forced choice of this option, in a game that hides forced
        choices: it names a card kind (``views.hidden_option``) and not every card it holds lies face up."""
        game = self.game
        if not (game.forced_choices_hidden and hidden_option(game, kind, option)):
            return False
        return cards is None or not self.all_face_up(cards)

    def all_face_up(self, cards: list[int]) -> bool:
        """Whether every player sees these cards where they lie: each lies in a public zone."""
        zones, loc = self.lay.zones, self.loc
        return all(zones[loc[c]][0].visibility == "public" for c in cards)

    def ask(self, kind: str, prompt: str, players: list[int], options: list[list], values: list[list]) -> bool:
        """Called by an instruction: wait for these players to choose."""
        if None in players:
            raise _missing_player()
        if self.autopick is not None:
            self.answer = self._picks_now(kind, players, options, values)
            return True
        self.pending = {"kind": kind, "prompt": prompt, "players": players, "options": options,
                        "values": values, "chosen": [None] * len(players)}
        self._decision = None
        return True

    def answer_in_place(self, kind: str, players: list[int], options: list[list], values: list[list]) -> list:
        """``ask`` for a step played in place (compiler/direct.py): the answer itself, at once, counted as a
        decision of the play-out (``interpreter.answered_in_place``)."""
        if None in players:
            raise _missing_player()
        answer = self._picks_now(kind, players, options, values)
        answered_in_place(self)
        return answer

    def same_answers_in_place(self, kind: str, players: list[int], offered: list, values: list) -> list:
        """``answer_in_place`` for choosers who all have the same options (a secret choice among fixed
        options, compiler/direct.py): the values picked, in the choosers' order, with no list of options
        per chooser. Each pick is ``_pick_now``'s, written out in the loop: called once per chooser, it made
        Jack's Friends' random games 4.6% slower."""
        if None in players:
            raise _missing_player()
        pick, log, turn, count = self.autopick, self.log, self.turn, len(offered)
        answer = []
        for player in players:
            j = pick(player, count)
            if not 0 <= j < count:
                raise RulelangError(f"option {j} is out of range")
            log.append((_CHOSE, turn, player, offered[j][0], kind))
            answer.append(values[j])
        answered_in_place(self)
        return answer

    def answer_one_in_place(self, kind: str, player: int, options: list, values: list) -> Any:
        """``answer_in_place`` for one chooser, the commonest decision: the value picked."""
        value = values[self._pick_now(kind, player, options)]
        answered_in_place(self)
        return value

    def number_in_place(self, player: int | None, lo: int, count: int) -> int:
        """``answer_one_in_place`` for a choice of one of ``count`` numbers from ``lo`` (compiler/direct.py):
        the number, with no list of options built; the option logged is the number, as its id is."""
        if not self.asks(count):
            return lo
        value = lo + self._pick_by_count(player, count)
        self.log.append((_CHOSE, self.turn, player, str(value), "number"))
        answered_in_place(self)
        return value

    def branch_in_place(self, player: int | None, open_: list[int], ids: list[str], kind: str = "branch") -> int | None:
        """``answer_one_in_place`` for `P chooses one:` (compiler/direct.py): the branch picked among those
        open (none open: None), by number, with no list of options built; the option logged is its id.
        ``kind``: "branch publicly" for `P publicly chooses one:`."""
        if not self.asks(len(open_)):
            if not open_:
                return None
            self.forced(kind, player, ids[open_[0]], None)
            return open_[0]
        k = open_[self._pick_by_count(player, len(open_))]
        self.log.append((_CHOSE, self.turn, player, ids[k], kind))
        answered_in_place(self)
        return k

    def _pick_by_count(self, player: int | None, count: int) -> int:
        """A chooser's pick among ``count`` options from ``autopick``, checked; the caller logs the option."""
        if player is None:
            raise _missing_player()
        j = self.autopick(player, count)
        if not 0 <= j < count:
            raise RulelangError(f"option {j} is out of range")
        return j

    def _picks_now(self, kind: str, players: list[int], options: list[list], values: list[list]) -> list:
        """Every chooser's pick from ``autopick`` at once, in the order a play loop would ask them.

        Nothing is kept pending: ``ask`` leaves the answer in ``answer`` for the instruction, which takes it
        when the run loop goes on (``agents.play_out`` runs it again), and the log is what ``_take`` writes.
        """
        return [values[i][self._pick_now(kind, player, options[i])] for i, player in enumerate(players)]

    def _pick_now(self, kind: str, player: int, offered: list) -> int:
        """One chooser's pick from ``autopick``, checked and written to the log as ``_take`` writes it
        (``_pick_by_count``'s checks written out: this runs at every card play and answer of a play-out)."""
        if player is None:
            raise _missing_player()
        count = len(offered)
        if not count:
            raise RuleError(f"{player_name(player)} must choose but has no legal option")
        j = self.autopick(player, count)
        if not 0 <= j < count:
            raise RulelangError(f"option {j} is out of range")
        self.log.append((_CHOSE, self.turn, player, offered[j][0], kind))
        return j


#: The record of a choice in the log (records.py), read once: it is written at every decision.
_CHOSE = records.chose


def _missing_player() -> RuleError:
    return RuleError("a decision waits for a player who is none",
                     hint="the player before 'chooses' can be none here; test it first (if p != none:)")


def _chooser_index(pend: dict, player: int | None) -> int:
    for i, p in enumerate(pend["players"]):
        if pend["chosen"][i] is None and (player is None or p == player):
            return i
    raise RulelangError(f"{player_name(player) if player is not None else 'nobody'} has nothing to choose now")

