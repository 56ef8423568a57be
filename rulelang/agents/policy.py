"""Fixed policies as data: a designer's preferences per named decision, played as an agent.

A policy file (schemas/policy.schema.json, docs/policies.md) says, for each
decision the game names (``PROCEDURE.choice``, ``STEP.VARIABLE``: rulelang/model/decisions.py),
which options to take in order of preference, or a simple rule (``highest``,
``lowest``, ``first``, ``last``, ``random``); a ``fallback`` covers the rest.
It is loaded with the project's YAML loader and checked against the game
it plays: an unknown decision name or option is a located error with a
did-you-mean, before any game is played.

On a command line the agent is ``policy:PATH`` or simply ``PATH.yaml``.
"""
from __future__ import annotations

import weakref
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rulelang.engine.game import Game
from rulelang.engine.protocol import Option
from rulelang.engine.state import State
from rulelang.errors import RulelangError, SpecError, did_you_mean, raise_all
from rulelang.model.decisions import catalogue_options
from rulelang.spec.document import Document
from rulelang.spec.inputs import whole_number
from rulelang.spec.loader import load_document
from rulelang.spec.schema import validate_document

from .basic import RandomAgent

PREFIX = "policy:"
RULES = ("highest", "lowest", "first", "last", "random")
FALLBACKS = ("random", "first", "last")


@dataclass(frozen=True)
class Pick:
    """One compiled preference: an option id to look for, or a rule."""

    option: str | None = None
    rule: str | None = None


@dataclass
class Policy:
    """A policy file as written, and its preferences compiled for each game it is checked against."""

    name: str
    path: str
    doc: Document
    fallback: str = "random"
    role: str | None = None
    game_name: str | None = None
    decisions: dict[str, list[Any]] = field(default_factory=dict)
    _compiled: weakref.WeakKeyDictionary[Game, dict[str, tuple[Pick, ...]]] = field(
        default_factory=weakref.WeakKeyDictionary, repr=False)

    def picks(self, game: Game) -> dict[str, tuple[Pick, ...]]:
        """The preferences as picks against this game's decisions; a SpecError (located) if they do not fit."""
        compiled = self._compiled.get(game)
        if compiled is None:
            compiled = self._compiled[game] = compile_policy(self, game)
        return compiled


# --- loading --------------------------------------------------------------------------------

_LOADED: dict[str, Policy] = {}


def is_policy_spec(text: str) -> bool:
    """Does an --agents entry name a policy file (``policy:PATH`` or ``PATH.yaml``)?"""
    text = text.strip()
    return text.startswith(PREFIX) or text.lower().endswith((".yaml", ".yml"))


def policy_path(text: str) -> str:
    text = text.strip()
    return text[len(PREFIX):].strip() if text.startswith(PREFIX) else text


def load_policy(path: str | Path) -> Policy:
    """Read and check the structure of a policy file (once per process); a located SpecError if it is wrong."""
    key = str(path)
    known = _LOADED.get(key)
    if known is not None:
        return known
    if not str(path):
        raise SpecError("a policy agent needs a file: policy:PATH", hint="e.g. policy:games/GAME/policies/NAME.yaml")
    if Path(path).is_dir():
        raise SpecError(f"'{path}' is a folder; a policy is one YAML file", hint="e.g. policy:FOLDER/NAME.yaml")
    doc = load_document(path, includes=False)
    if not isinstance(doc.data, dict) or "policy" not in doc.data:
        raise SpecError("this is not a policy file: it has no 'policy:' key", doc.span(()),
                        "a policy file starts with 'policy: NAME' and lists 'decisions:'; see docs/policies.md")
    validate_document(doc, "policy")
    data = doc.data
    policy = Policy(str(data["policy"]), key, doc, data.get("fallback", "random"), data.get("role"),
                    data.get("game"), {str(k): _as_list(v) for k, v in data["decisions"].items()})
    _LOADED[key] = policy
    return policy


def _as_list(value: Any) -> list[Any]:
    return list(value) if isinstance(value, list) else [value]


# --- checking against a game ------------------------------------------------------------------

def compile_policy(policy: Policy, game: Game) -> dict[str, tuple[Pick, ...]]:
    """Each decision's preferences as picks; every name, option and rule is checked against the game."""
    doc, errors = policy.doc, []
    if policy.game_name is not None and policy.game_name != game.name:
        errors.append(SpecError(f"this policy is for '{policy.game_name}', not '{game.name}'", doc.span(("game",))))
    if policy.role is not None and policy.role not in [r["name"] for r in game.roles]:
        errors.append(SpecError(f"'{game.name}' has no role '{policy.role}'", doc.span(("role",)),
                                _known_hint(policy.role, [r["name"] for r in game.roles], "roles")))
    compiled: dict[str, tuple[Pick, ...]] = {}
    for name, items in policy.decisions.items():
        sites = game.decisions.get(name)
        if sites is None:
            errors.append(SpecError(f"'{game.name}' asks no decision named '{name}'", doc.key_span(("decisions", name)),
                                    _known_hint(name, list(game.decisions), "decisions")))
            continue
        picks = []
        for i, item in enumerate(items):
            where = ("decisions", name, i) if isinstance(doc.data["decisions"][name], list) else ("decisions", name)
            try:
                picks.append(_pick(item, sites))
            except ValueError as error:
                message, hint = error.args
                errors.append(SpecError(message, doc.span(where), hint))
        compiled[name] = tuple(picks)
    raise_all(errors)
    return compiled


def _pick(item: Any, sites: list) -> Pick:
    """One preference against the decision's possible options: an option by id or label, or a rule."""
    numeric = all(site.numeric for site in sites)
    options = catalogue_options(sites)
    text = str(item)
    if numeric:
        number = item if isinstance(item, int) else whole_number(text)
        if number is not None:
            return Pick(option=str(number))
        if text in RULES:
            return Pick(rule=text)
        raise ValueError(f"'{text}' is not a number or a rule", f"a choice of a number takes numbers or {_rules()}")
    if options is not None:
        for oid, label in options:
            if text in (oid, label):
                return Pick(option=oid)
    if text in RULES:
        if text in ("highest", "lowest"):
            raise ValueError(f"'{text}' compares numbers, and '{sites[0].name}' is not a choice of a number",
                             "use first, last or random, or list the options in order")
        return Pick(rule=text)
    if options is None:
        return Pick(option=text)        # the spec does not fix the options: take the id as written
    base = text.split(">", 1)[0]        # a card played on a target, CARD>P2, is the card's option
    if ">" in text and any(base == oid for oid, _ in options):
        return Pick(option=text)
    ids = [oid for oid, _ in options]
    close = did_you_mean(text, ids + [label for _, label in options])
    listed = f"its options: {', '.join(ids[:12])}{', ...' if len(ids) > 12 else ''}; or a rule: {_rules()}"
    raise ValueError(f"'{sites[0].name}' has no option '{text}'", f"{close} ({listed})" if close else listed)


def _rules() -> str:
    return ", ".join(RULES)


def _known_hint(name: str, known: list[str], what: str) -> str:
    close = did_you_mean(name, known)
    listed = f"its {what}: " + (", ".join(sorted(known)) or "none")
    return f"{close} ({listed})" if close else listed


def check_policies(game: Game, agents: tuple[str, ...] | list[str]) -> None:
    """Check every policy among a batch's seat agents against the game and its seat's role, before play."""
    roles = game.layout(len(agents)).roles if game.min_players <= len(agents) <= game.max_players else None
    errors: list[RulelangError] = []
    for seat, text in enumerate(agents):
        if not is_policy_spec(text):
            continue
        policy = load_policy(policy_path(text))
        try:
            policy.picks(game)
        except RulelangError as error:
            errors.extend(getattr(error, "errors", [error]))
            continue
        if roles is not None and policy.role is not None and roles[seat] != policy.role:
            errors.append(SpecError(f"the policy is for the role '{policy.role}', but P{seat + 1} is "
                                    f"'{roles[seat]}'", policy.doc.span(("role",)),
                                    "give each seat its own policy in --agents, in seat order"))
    raise_all(errors)


# --- the agent ----------------------------------------------------------------------------------

class PolicyAgent:
    """Plays a policy file: the first preference the decision offers, else the policy's fallback.

    Its random choices (``random`` and the default fallback) come from its
    own seeded stream, one draw per choice, as the ``random`` agent draws: a
    policy that says nothing plays exactly the games ``random`` plays.
    """

    def __init__(self, seed: int = 0, path: str = "", policy: Policy | None = None):
        self.policy = policy if policy is not None else load_policy(path)
        self.by_count = RandomAgent(seed)     # its random picks, as the ``random`` agent makes them (``pick_index``)
        self.name = self.policy.name

    def choose(self, where: Any, player: int | None = None) -> str:
        """An option id for the decision waiting: ``choose(state, player)``, or ``choose(seat)``."""
        game, name, options = _waiting(where, player)
        return options[self.index(self.policy.picks(game).get(name, ()), [[o.id] for o in options])].id

    def reader(self, game: Game) -> Callable[[int, int, str, list], int]:
        """How the rules ask this agent in place (``State.autoread``): ``(player, count, name, offered)``, the
        option ids being ``offered[j][0]``, gives the index ``choose`` would take. A policy reads nothing but the
        decision's name and its options, so its games need no history and no decision is left waiting."""
        picks, fallback, draw = self.policy.picks(game), self.policy.fallback, self.by_count.pick_index

        def read(player: int, count: int, name: str, offered: list) -> int:
            wanted = picks.get(name)
            if wanted is None:              # a decision the policy does not name: its fallback, by count alone
                return draw(player, count) if fallback == "random" else 0 if fallback == "first" else count - 1
            return self.index(wanted, offered)
        return read

    def index(self, picks: tuple[Pick, ...], offered: list) -> int:
        """The index of the first preference offered (ids ``offered[j][0]``), else of the fallback's pick."""
        for pick in picks:
            found = self.take(pick, offered)
            if found is not None:
                return found
        taken = self.take(Pick(rule=self.policy.fallback), offered)
        assert taken is not None            # a fallback (random, first, last) always takes one
        return taken

    def take(self, pick: Pick, offered: list) -> int | None:
        """The index of the option a pick takes among those offered (ids ``offered[j][0]``), or None when it
        is not offered."""
        if pick.option is not None:
            wanted = pick.option
            for j, option in enumerate(offered):
                oid = option[0]
                if oid == wanted or oid.split(">", 1)[0] == wanted:
                    return j
            return None
        rule = pick.rule
        if rule == "random":
            return self.by_count.pick_index(None, len(offered))
        if rule == "first":
            return 0
        if rule == "last":
            return len(offered) - 1
        numbers = [(number, o[0], j) for j, o in enumerate(offered) if (number := whole_number(o[0])) is not None]
        if not numbers:
            return None
        return (max(numbers) if rule == "highest" else min(numbers))[2]


def _waiting(where: Any, player: int | None) -> tuple[Game, str, tuple[Option, ...]]:
    """The game, the decision's name and the options of the player whose agent is asked."""
    if isinstance(where, State):
        decision = where.decision()
        if decision is None:
            raise RulelangError("no decision is waiting")
        return where.game, decision.name, decision.options[decision.players[0] if player is None else player]
    if hasattr(where, "decision"):      # a Seat (rulelang/agents/seat.py): the decision as its player sees it
        decision = where.decision()
        if decision is None:
            raise RulelangError("no decision is waiting for this seat")
        return where.game, decision.name, decision.options[decision.players[0]]
    view = where.view()                 # anything else that shows a player's view, options and rules
    return where.game, view["decision"]["name"], tuple(where.options)


def make_policy_agent(text: str, seed: int) -> PolicyAgent:
    """The agent of an --agents entry ``policy:PATH`` or ``PATH.yaml``."""
    return PolicyAgent(seed, policy_path(text))
