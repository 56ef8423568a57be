"""Events in words: the play-by-play that `rulelang run` prints."""
from __future__ import annotations

from functools import lru_cache

from rulelang.engine.game import Game
from rulelang.printable import printable

#: Events whose line is a heading, printed after a blank line.
_HEADINGS = frozenset({"turn", "phase", "ended"})


def narrate(game: Game, event: dict, scores_by_turn: dict[int, list[int]] | None = None) -> str | None:
    """One readable line for an event, or None for events too small to show.

    ``scores_by_turn`` (turn -> scores at its start), when the caller watched the
    game, adds the scores to each turn's heading. The line is printable (names
    and labels come from the spec: ``printable``); a heading comes after a blank line.
    """
    kind = event["type"]
    if kind == "turn" and scores_by_turn and event["turn"] in scores_by_turn:
        event = dict(event, scores=scores_by_turn[event["turn"]])
    say = _SAYINGS.get(kind)
    line = say(game, event) if say else None
    if line is None:
        return None
    return "\n" + printable(line) if kind in _HEADINGS else printable(line)


@lru_cache(maxsize=8)
def _words(game: Game) -> tuple[dict[str, str], dict[str, str]]:
    """Card names by id and zone labels by name, looked up once per game, not once per event."""
    return {c.id: c.name for c in game.cards}, {z.name: z.label.replace("_", " ") for z in game.zones}


def _card(game: Game, card_id: str) -> str:
    return _words(game)[0].get(card_id, card_id)


def _started(game: Game, e: dict) -> str:
    seats = ", ".join(f"P{i + 1} {role}" for i, role in enumerate(e["roles"]))
    return f"{e['game']}: {e['players']} players, seed {e['seed']} ({seats}); {e['first']} starts"


def _turn(game: Game, e: dict) -> str:
    who = f": {e['player']}" if "player" in e else ""
    return f"== Turn {e['turn']}{who} ==" + _scores(e)


def _scores(e: dict) -> str:
    if e.get("scores") is None:
        return ""
    return "  (scores: " + ", ".join(f"P{i + 1} {s}" for i, s in enumerate(e["scores"])) + ")"


def _zone(game: Game, label: str) -> str:
    """'hand:P2' reads "P2's hand"; a zone's own `label` is used where the spec gives one."""
    name, _, owner = label.partition(":")
    words = _words(game)[1].get(name, name.replace("_", " "))
    return f"{owner}'s {words}" if owner else words


def _moved(game: Game, e: dict) -> str:
    name = _card(game, e["card"])
    how = e.get("how", "move")
    zone, _, owner = e["to"].partition(":")
    if how == "draw":
        where = f" to their {_zone(game, zone)}" if owner else f" to {_zone(game, e['to'])}"
        return f"  {owner or 'the table'} draws {name}{where}"
    if how == "play":
        return f"  {name} goes to {_zone(game, e['to'])}"
    reasons = {"replaced": "is replaced", "cancelled": "is cancelled", "answered": "is spent",
               "resolved": "resolves", "discarded": "is discarded", "expired": "is used up",
               "created": "is created"}
    reason = reasons.get(how, "moves")
    return f"  {name} {reason}: {_zone(game, e['from'])} -> {_zone(game, e['to'])}"


def _revealed(game: Game, e: dict) -> str:
    """Secret choices shown together, or cards shown to a player (or to all) where they lie."""
    if "choices" in e:
        return "  revealed: " + ", ".join(f"{p} {c}" for p, c in e["choices"].items())
    whom = "everyone" if e["to"] == "all" else e["to"]
    shown = ", ".join(f"{_card(game, c)} ({_zone(game, z)})" for c, z in zip(e["cards"], e["zones"]))
    return f"  shown to {whom}: {shown}"


def _rolled(game: Game, e: dict) -> str:
    who = f"{e['player']} rolls" if e.get("player") else "roll:"
    whose = f" for {e['for']}" if e.get("for") else ""
    faces = " ".join(str(f) for f in e["faces"]) or "no dice"
    return f"  {who} {len(e['faces'])} {e['die']}{whose}: {faces}"


def _set(game: Game, e: dict) -> str | None:
    if "var" in e:
        if e["value"] is None or e["value"] is False:
            return None            # a variable cleared for the next turn: bookkeeping, not play
        label = game.var_labels.get(e["var"])
        if label is not None:
            return f"  {e['player']} {label}: {_value(e['value'])}"
        return f"  {e['player']}.{e['var']} = {_value(e['value'])}"
    return f"  {_holder(game, e['holder'])}.{e['counter']} = {e['value']}"


def _holder(game: Game, holder: str) -> str:
    """A card holding counters ('id#instance') is named as players see it."""
    card_id, hash_, _ = holder.partition("#")
    return _card(game, card_id) if hash_ else holder


def _value(value) -> str:
    if value is None:
        return "none"
    if value is True:
        return "yes"
    if value is False:
        return "no"
    if isinstance(value, list):         # a tuple, as the rules write it
        return "(" + ", ".join(_value(v) for v in value) + ")"
    return str(value)


_SAYINGS = {
    "started": _started,
    "turn": _turn,
    "step": lambda g, e: f" - {e['step']}",
    "phase": lambda g, e: f"###### Phase: {e['phase']} ######",
    "chose": lambda g, e: None if e.get("decision") in ("secret", "play", "answer")
    else f"  {e['player']} chooses {e['option']}",
    "revealed": lambda g, e: _revealed(g, e),
    "transferred": lambda g, e: f"  {e['amount']} {e['counter']}: {e['from']} -> {e['to']}",
    "set": _set,
    "moved": _moved,
    "rolled": _rolled,
    "roll_changed": lambda g, e: f"  the roll of {e['die']} is cancelled" if e["how"] == "cancelled"
    else f"  {e['die']} {e['how']}: " + (" ".join(str(f) for f in e["faces"]) or "no dice"),
    "cancelled": lambda g, e: f"  the draw of {e['player'] or 'the table'} is cancelled" if e["action"] == "draw"
    else f"  {e['player']}'s play of {_card(g, e['card'])} is cancelled",
    "played": lambda g, e: f"  {e['player']} plays {_card(g, e['card'])}"
                           + (f" on {e['target']}" if e["target"] != e["player"] else ""),
    "answered": lambda g, e: f"  {e['player']} answers with {_card(g, e['card'])}, cancelling "
                             f"{_card(g, e['cancels'])}",
    "skipped": lambda g, e: f"  {e['player']} skips this turn",
    "another_turn": lambda g, e: f"  {e['player']} takes another turn",
    "eliminated": lambda g, e: f"  {e['player']} is eliminated",
    "cleared": lambda g, e: f"  the counters on the {_holder(g, e['holder'])} fall off",
    "shuffled": lambda g, e: f"  {_zone(g, e['zone'])} is shuffled",
    "refilled": lambda g, e: f"  {_zone(g, e['zone'])} is refilled from {_zone(g, e['from'])}",
    "ended": lambda g, e: f"Game over on turn {e['turn']}: {e['condition']}. Winners: "
                          f"{e['team'] or ', '.join(e['winners']) or 'nobody'}"
                          + (f" ({', '.join(e['winners'])})" if e.get("team") else "") + _scores(e),
}
