"""The spec model built from a loaded, schema-checked document: every default of the language applied here, once.

The schema has checked the shapes (a card is a mapping with an id, a zone's
owner is `table` or `player`, ...), so this reads values without checking them
again; what only makes sense across declarations (an unknown zone, a name used
twice) is left for ``check_decls``.
"""
from __future__ import annotations

from typing import Any

from rulelang.lang.types import BOOL, INT, INT64, UNKNOWN, Type, declared_type, tuple_items
from rulelang.model.spec import (
    CALL_DEPTH,
    EVENT_LIMIT,
    GAME_BUDGET,
    STEP_BUDGET,
    Card,
    CardAnswer,
    CardPlay,
    Die,
    EndCondition,
    FirstSeat,
    Function,
    Limits,
    Owner,
    Param,
    Phase,
    Place,
    Players,
    Procedure,
    Role,
    RuleText,
    Spec,
    Step,
    Table,
    Trigger,
    TurnOrder,
    Var,
    Zone,
    read_on,
)
from rulelang.spec.document import Document, value_or_none

#: Keys of a location or counter that are words for people, not properties rules can read.
WORDS_KEYS = ("label", "rule", "text")

DEFAULT_PHASE_LIMIT = 1000      # turns after which a phase stops the game with an error


class _Reader:
    """Reads one document's data into model values (``span`` and ``text`` by path)."""

    def __init__(self, doc: Document):
        self.doc = doc
        self.data = doc.data if isinstance(doc.data, dict) else {}

    def span(self, path: tuple):
        return self.doc.span(path)

    def text(self, path: tuple) -> RuleText | None:
        """The rule text at ``path``, or None where the spec writes none."""
        value = value_or_none(self.data, path)
        return None if value is None else RuleText(path, value)

    def section(self, key: str) -> dict:
        return self.data.get(key) or {}


def build_spec(doc: Document) -> Spec:
    """The typed model of a schema-checked document."""
    r = _Reader(doc)
    data = r.data
    players = data.get("players") or {}
    low = players.get("min", 2)
    return Spec(
        name=str(data.get("game", "untitled")), path=str(doc.path), span=r.span(()),
        players=Players(low, players.get("max", low), r.span(("players",))),
        params={name: _param(r, name, decl) for name, decl in _mapping(data.get("params")).items()},
        roles=tuple(_role(r, i, role) for i, role in enumerate(data.get("roles") or [])),
        locations={name: _place(r, "locations", name, decl) for name, decl in r.section("locations").items()},
        counters={name: _place(r, "counters", name, decl) for name, decl in r.section("counters").items()},
        vars={name: _var(r, name, decl or {}) for name, decl in r.section("vars").items()},
        tables={name: _table(r, name, decl) for name, decl in r.section("tables").items()},
        dice={name: _die(r, name, decl) for name, decl in r.section("dice").items()},
        zones={name: _zone(r, name, decl or {}) for name, decl in r.section("zones").items()},
        declared_tags=None if data.get("tags") is None else tuple(data["tags"]),
        card_props=dict(r.section("card_props")),
        cards=tuple(_card(r, i, card) for i, card in enumerate(data.get("cards") or [])),
        setup=r.text(("setup",)),
        has_turn=bool(data.get("turn")), has_phases=bool(data.get("phases")),
        phases=tuple(_phase(r, k, path, phase) for k, (path, phase) in enumerate(phase_specs(data))),
        score=r.text(("score",)) if not isinstance(data.get("score"), dict) else None,
        score_parts=_score_parts(r),
        heuristic=r.text(("heuristic",)), returns=_returns(r), returns_bounds=_returns_bounds(r),
        procedures={name: _procedure(r, name, decl) for name, decl in r.section("procedures").items()},
        functions={name: _function(r, name, decl) for name, decl in r.section("functions").items()},
        triggers=tuple(_trigger(r, i, trig) for i, trig in enumerate(data.get("triggers") or [])),
        end=tuple(_end(r, i, cond) for i, cond in enumerate(data.get("end") or [])),
        limits=Limits(data.get("step_budget", STEP_BUDGET), data.get("game_budget", GAME_BUDGET),
                      data.get("event_limit", EVENT_LIMIT), data.get("call_depth", CALL_DEPTH),
                      data.get("number_limit", INT64), bool(data.get("ask_single_options", False)),
                      str(data.get("forced_choices", "hidden"))),
    )


def _mapping(value: Any) -> dict:
    return value if isinstance(value, dict) else {}


def _param(r: _Reader, name: str, decl: Any) -> Param:
    decl = decl or {}
    return Param(name, decl.get("type"), decl.get("default"), decl, r.span(("params", name)))


def _role(r: _Reader, i: int, role: dict) -> Role:
    return Role(role["name"], role.get("count"), role.get("team", role["name"]), r.span(("roles", i)), role.get("label"))


def _place(r: _Reader, group: str, name: str, decl: Any) -> Place:
    decl = decl or {}
    props = {k: v for k, v in decl.items() if k not in WORDS_KEYS}
    return Place(name, decl.get("label", name.replace("_", " ")), props, r.span((group, name)))


def _var(r: _Reader, name: str, decl: dict) -> Var:
    kind = declared_type(decl.get("type", "int")) or INT
    initial = decl.get("initial", _default_value(kind))
    return Var(name, kind, initial, decl.get("visibility", "public"), r.span(("vars", name)), decl.get("label"))


def _default_value(kind: Type) -> Any:
    """What a variable holds when its declaration gives no `initial`: 0, false, none, or a tuple of those."""
    elements = tuple_items(kind)
    if elements is not None:
        return [_default_value(k) for k in elements]
    return 0 if kind == INT else False if kind == BOOL else None


def _table(r: _Reader, name: str, decl: dict) -> Table:
    return Table(name, decl.get("by", "players"), tuple(decl.get("columns") or []), dict(decl.get("rows") or {}),
                 r.span(("tables", name)))


def _die(r: _Reader, name: str, decl: dict) -> Die:
    outcomes = {outcome: tuple(faces) for outcome, faces in (decl.get("outcomes") or {}).items()}
    return Die(name, decl.get("faces", 6), outcomes, decl.get("visibility", "public"), r.span(("dice", name)))


def _zone(r: _Reader, name: str, decl: dict) -> Zone:
    return Zone(name, Owner(decl.get("owner", "table")), decl.get("visibility", "public"), decl.get("label", name),
                decl.get("unique") == "slot", decl.get("refill_from"), decl.get("discard"),
                tuple(decl.get("unique_with") or []), r.span(("zones", name)))


def _card(r: _Reader, i: int, card: dict) -> Card:
    path = ("cards", i)
    play, answer = card.get("play"), card.get("answer")
    duration = card.get("discard_after")
    return Card(
        index=i, id=card["id"], name=card.get("name", card["id"]), count=card.get("count", 1),
        zone=card.get("zone"), discard=card.get("discard"), token=bool(card.get("token")),
        slot=card.get("slot", card["id"]), named_slot=bool(card.get("slot")), tags=tuple(card.get("tags") or []), props=dict(card.get("props") or {}),
        text=card.get("text", ""),
        play=None if play is None else CardPlay(r.text(path + ("play", "target")), r.text(path + ("play", "to")),
                                                r.text(path + ("play", "effect")), r.span(path + ("play",))),
        answer=None if answer is None else CardAnswer(r.text(path + ("answer", "when")),
                                                      r.text(path + ("answer", "effect")),
                                                      r.span(path + ("answer",))),
        discard_when=r.text(path + ("discard_when",)), lasts_in=card.get("lasts_in"),
        discard_after_roll=None if duration is None else duration["roll"],
        span=r.span(path), zone_span=r.span(path + ("zone",)))


def _phase(r: _Reader, k: int, path: tuple, phase: dict) -> Phase:
    steps = tuple(Step(step.get("name", f"step {i + 1}"), r.text(path + ("steps", i, "effect")),
                       path + ("steps", i), r.span(path + ("steps", i)))
                  for i, step in enumerate(phase.get("steps") or []))
    first = phase.get("first", "first" if k == 0 else "next")
    return Phase(phase.get("name", "turn"), TurnOrder(phase.get("order", "seat")), FirstSeat(first),
                 phase.get("limit", DEFAULT_PHASE_LIMIT), steps, r.text(path + ("until",)), path, r.span(path),
                 r.span(path + ("limit",)) if "limit" in phase else None,
                 r.span(path + ("until",)) if "until" in phase else None)


def _score_parts(r: _Reader) -> dict[str, RuleText] | None:
    spec = r.data.get("score")
    if not isinstance(spec, dict):
        return None
    parts = {name: r.text(("score", "parts", name)) for name in (spec.get("parts") or {})}
    return {name: text for name, text in parts.items() if text is not None}


def _returns(r: _Reader) -> RuleText | None:
    """`returns:` as an expression alone, or as the `value` of {value, min, max}."""
    return r.text(("returns", "value") if isinstance(r.data.get("returns"), dict) else ("returns",))


def _returns_bounds(r: _Reader) -> tuple[int, int] | None:
    """The least and most return of {value, min, max} (None for an expression alone)."""
    spec = r.data.get("returns")
    return (spec["min"], spec["max"]) if isinstance(spec, dict) else None


def _procedure(r: _Reader, name: str, decl: dict) -> Procedure:
    returns = decl.get("returns")
    return Procedure(name, _params(decl), None if returns is None else declared_type(returns) or UNKNOWN,
                     r.text(("procedures", name, "effect")), r.span(("procedures", name)))


def _function(r: _Reader, name: str, decl: dict) -> Function:
    return Function(name, _params(decl), r.text(("functions", name, "value")), r.span(("functions", name)))


def _params(decl: dict) -> dict[str, Type]:
    """A procedure's or function's params with the types their words name (UNKNOWN for a word that names none)."""
    return {param: declared_type(word) or UNKNOWN for param, word in (decl.get("params") or {}).items()}


def _trigger(r: _Reader, i: int, trig: dict) -> Trigger:
    path = ("triggers", i)
    return Trigger(i, str(trig.get("name", i + 1)), read_on(trig.get("on", "")), r.text(path + ("if",)),
                   r.text(path + ("effect",)), r.span(path), r.span(path + ("on",)))


def _end(r: _Reader, i: int, cond: dict) -> EndCondition:
    path = ("end", i)
    return EndCondition(cond.get("name", f"end condition {i + 1}"), r.text(path + ("when",)),
                        r.text(path + ("winner",)), r.span(path))


# --- the checker's table of names ---------------------------------------------------------------

def phase_specs(data: dict) -> list[tuple[tuple, dict]]:
    """The turn structures of a spec with their paths: `phases:`, or `turn:` as the one phase."""
    if data.get("phases"):
        return [(("phases", k), phase or {}) for k, phase in enumerate(data["phases"])]
    return [(("turn",), data.get("turn") or {})]
