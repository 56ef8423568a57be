"""Decisions by name: where in the spec each one is asked, and what it can offer.

A policy, a test or a person reading a log needs to tell decisions apart by
something that does not change when the game is played differently or a
label is reworded. Every instruction that asks for a decision is a *site*
with a name made from the spec alone:

    WHERE.WHAT

WHERE is the procedure's name, the slug of the step's name (``3. Build`` is
``3_build``), the card's id (``ID_answer`` for its answer effect), the slug of
a trigger's name, or ``setup``. WHAT is the ``as NAME`` the statement gives,
else the variable it chooses into (``n``, ``p.pick`` gives ``pick``), else
``choice`` for ``chooses one``, ``play`` for ``play from``, and ``answer``
for the window in which the other players may answer a played card. Two
sites of one name are the same decision to a policy.

The sites of a compiled game are kept by instruction (``Proc.sites``), so a
waiting state finds its decision's name from where its rules stand, with
nothing added to the state or its events.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rulelang.spec.document import value_at

#: The kinds of decision a site asks. ``play`` sites ask ``discard`` when nothing can be played.
KINDS = ("choose", "number", "branch", "secret", "play", "answer")

#: The kind a decision asked `publicly` waits with, and the kind it is: its record in the log is that kind's,
#: with ``"public": true`` (rulelang/engine/records.py), so every player's account names the option taken.
PUBLIC_KINDS = {"choose publicly": "choose", "branch publicly": "branch"}


@dataclass(frozen=True)
class DecisionSite:
    """One place in the rules that asks for a decision.

    ``options`` lists every (id, label) the site could ever offer when that is
    known from the spec, else None (then any option id of the right sort may
    come). ``numeric`` sites offer whole numbers.
    """

    name: str
    kind: str
    rule: tuple[str, ...]
    options: tuple[tuple[str, str], ...] | None
    numeric: bool = False
    span: Any = None


@dataclass(frozen=True)
class Place:
    """Where statements being compiled stand: the WHERE of their decisions' names and its ruling."""

    where: str
    rule: tuple[str, ...] = ()


def slug(text: str) -> str:
    """Lower-case words joined by ``_``: ``2. Draw a Card`` is ``2_draw_a_card``."""
    return "_".join("".join(ch if ch.isalnum() else " " for ch in str(text).lower()).split())


def branch_id(branch: Any) -> str:
    """A branch's option id: its `as ID`, else its label as lower-case words joined by ``-`` (``roll-again``).

    The slug is what every spec used before ids could be given, so old
    scenarios and logs keep their ids; an explicit id survives rewording.
    """
    if branch.id is not None:
        return branch.id
    return "-".join("".join(ch if ch.isalnum() else " " for ch in branch.label.lower()).split()) or "option"


def rules_of(entry: Any) -> tuple[str, ...]:
    """The `rule:` of a spec entry (one id or a list) as a tuple of ruling ids."""
    rule = entry.get("rule") if isinstance(entry, dict) else None
    if isinstance(rule, str):
        return (rule,)
    if isinstance(rule, list):
        return tuple(str(r) for r in rule)
    return ()


def place_of(data: dict, path: tuple) -> Place:
    """The place of the rule text at ``path`` of a spec (a procedure, step, card, trigger or setup effect)."""
    head = path[0]
    if head == "procedures":
        return Place(str(path[1]), rules_of(data["procedures"][path[1]]))
    if head == "cards":
        card = data["cards"][path[1]]
        suffix = "" if path[2] == "play" else "_" + str(path[2])
        return Place(str(card.get("id", f"card_{path[1] + 1}")) + suffix, rules_of(card))
    if head == "triggers":
        trigger = data["triggers"][path[1]]
        return Place(slug(trigger.get("name") or f"trigger {path[1] + 1}"), rules_of(trigger))
    if "steps" in path:
        at = path.index("steps")
        step = value_at(data, path[:at + 2])
        return Place(slug(step.get("name") or f"step {path[at + 1] + 1}"), rules_of(step))
    return Place(slug(head) or "rules")


def catalogue_options(sites: list[DecisionSite]) -> tuple[tuple[str, str], ...] | None:
    """Every option the sites of one name may offer, in order, or None when some site's are open."""
    seen: dict[str, str] = {}
    for site in sites:
        if site.options is None:
            return None
        for oid, label in site.options:
            seen.setdefault(oid, label)
    return tuple(seen.items())
