"""Event logs read from files: untrusted JSON lines, each checked against schemas/event-log.schema.json.

A log that cannot be read as events (binary junk, a line that is not JSON
or not an object, a line too long to be an event) is a located error
``LOG:line:col: error: ...``. Whether its events are the game's own is for
``sim.verify_log`` to say; it checks a line against
schemas/event-log.schema.json where the line is used (the start, each
choice) or differs from the replayed game's event: a line equal to an event
the engine wrote needs no other check, and checking a whole long log with
jsonschema would cost far more than replaying it.
"""
from __future__ import annotations

import functools
import json
from typing import TYPE_CHECKING, Any

from rulelang.errors import RulelangError, Span
from rulelang.spec.inputs import InputError, decode_text, read_regular_file, schema_validator, schema_words, strict_json
from rulelang.spec.schema import SCHEMA_DIR

if TYPE_CHECKING:
    from jsonschema import Draft202012Validator

#: The types of event (the enum of the schema's `type`).
EVENT_TYPES = frozenset(json.loads((SCHEMA_DIR / "event-log.schema.json").read_text(encoding="utf-8"))
                        ["properties"]["type"]["enum"])

#: The longest line an event can take (a `started` event of 256 players is far below it).
MAX_LINE = 1 << 20


class LogError(RulelangError):
    """A log file that is not a list of events: located at its line and column."""


def event_problem(event: Any) -> str | None:
    """Why a value is not an event of schemas/event-log.schema.json (None when it is one)."""
    if not isinstance(event, dict):
        return f"an event is a JSON object, not {json.dumps(event)[:40]}"
    kind = event.get("type")
    validator = _validators_by_type().get(kind) if isinstance(kind, str) else None
    if validator is None:
        validator = schema_validator("event-log")
    if validator.is_valid(event):
        return None
    errors = sorted(validator.iter_errors(event), key=lambda e: [str(p) for p in e.absolute_path])
    first = errors[0]
    where = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in first.absolute_path)
    return f"{where.lstrip('.') + ': ' if where else ''}{schema_words(first)}"


@functools.cache
def _validators_by_type() -> dict[str, Draft202012Validator]:
    """One validator per event type, holding only the rules of that type.

    The schema says "if type is X then ..." for every type; checking one event
    against all of them costs most of the time of reading a long log.
    """
    validator = schema_validator("event-log")
    schema = validator.schema
    base = {k: v for k, v in schema.items() if k not in ("allOf", "$defs", "$schema", "$id")}
    out = {}
    for kind in schema["properties"]["type"]["enum"]:
        rules = [case["then"] for case in schema.get("allOf", []) if _applies(case["if"], kind)]
        out[kind] = type(validator)({"$defs": schema.get("$defs", {}), "allOf": [base] + rules})
    return out


def _applies(condition: dict, kind: str) -> bool:
    """Whether an `if` of the event schema holds for events of this type."""
    test = condition["properties"]["type"]
    return test.get("const") == kind or kind in test.get("enum", [])


def read_log(path: str) -> list[dict]:
    """The events of a JSON-lines log file, or a LogError at the first line that is not an event."""
    try:
        raw = read_regular_file(path)
    except InputError as error:
        raise LogError(error.message, Span(path, 1, 1), error.hint) from None
    return parse_log(raw, path)


def parse_log(raw: bytes, path: str) -> list[dict]:
    """The events of a log's bytes (``path`` names it in errors)."""
    try:
        text = decode_text(raw, path)
    except InputError as error:
        raise LogError(error.message, error.span, error.hint) from None
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()                       # the newline that ends the last line
    events = [parse_line(path, number, line) for number, line in enumerate(lines, 1)]
    if not events:
        raise LogError("the log is empty: an event log starts with a 'started' event", Span(path, 1, 1))
    return events


def parse_line(path: str, number: int, line: str) -> dict:
    """One line of a log as an event."""
    if len(line) > MAX_LINE:
        raise LogError(f"a line of {len(line):,} characters is no event (at most {MAX_LINE:,})",
                       Span(path, number, MAX_LINE + 1))
    if not line.strip():
        raise LogError("an empty line: every line of a log is one event", Span(path, number, 1))
    try:
        event = strict_json(line)
    except json.JSONDecodeError as error:
        raise LogError(f"not JSON: {error.msg}", Span(path, number, error.colno)) from None
    except ValueError as error:          # a key given twice, NaN, a number too long
        raise LogError(f"not JSON: {error}", Span(path, number, 1)) from None
    except RecursionError:
        raise LogError("not JSON: nested too deeply", Span(path, number, 1)) from None
    if not isinstance(event, dict):
        raise LogError(f"not an event: {event_problem(event)}", Span(path, number, 1),
                       "each line is one event of schemas/event-log.schema.json")
    return event
