"""Check a loaded spec's structure against a JSON Schema, reporting located, plain errors.

The schema (``schemas/<name>.schema.json``) catches typos and wrong shapes
before any DSL text is parsed. jsonschema finds the problems; this module
turns each one into a SpecError at the right key or value of the YAML file,
with a message a designer can act on ("unknown key 'tragets' in card", hint
"did you mean 'target'?") instead of a Python repr.
"""
from __future__ import annotations

import copy
import functools
import json
import re
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rulelang.errors import RulelangError, SpecError, closest, did_you_mean, raise_all
from rulelang.printable import counted
from rulelang.spec import cache
from rulelang.spec.document import Document, value_or_none
from rulelang.spec.rulings import rule_references, ruling_errors

if TYPE_CHECKING:       # jsonschema is imported where a document is checked: it costs a cold command ~0.1 s
    from jsonschema import Draft202012Validator
    from jsonschema.exceptions import ValidationError


def _schema_dir() -> Path:
    """The repository's `schemas/`, or the copy a regular (non-editable) install puts under share/."""
    beside = Path(__file__).resolve().parents[2] / "schemas"
    if beside.is_dir():
        return beside
    return Path(sys.prefix) / "share" / "rulelang" / "schemas"


SCHEMA_DIR = _schema_dir()
NAME_PATTERN = "^[a-z_][a-z0-9_]*$"
NAME_RULE = "names use lowercase letters, digits and '_', and do not start with a digit"


# ---------------------------------------------------------------------------
# Schemas


@functools.cache
def _schema(name: str) -> dict:
    try:
        return json.loads(_schema_text(name))
    except ValueError as error:
        raise SpecError(f"cannot read schema '{name}.schema.json': {error}") from None


@functools.cache
def _schema_text(name: str) -> str:
    """The text of ``schemas/<name>.schema.json``: what ``_schema`` parses, and part of a verdict's hash."""
    if not re.match(NAME_PATTERN, name):
        raise SpecError(f"'{name}' is not a schema name")
    path = SCHEMA_DIR / f"{name}.schema.json"
    if not path.is_file():
        known = [p.name[: -len(".schema.json")] for p in SCHEMA_DIR.glob("*.schema.json")]
        raise SpecError(f"unknown schema '{name}'", None, did_you_mean(name, known))
    try:
        return path.read_text(encoding="utf-8")
    except (OSError, ValueError) as error:
        raise SpecError(f"cannot read schema '{path.name}': {error}") from None


def rulings_applied(doc: Document) -> set[str]:
    """The ruling names a game's entries give with `rule:` (read beside the game schema, not copied)."""
    return {name for _, name in rule_references(_schema("game"), doc.data)}


def load_schema(name: str) -> dict:
    """The schema ``schemas/<name>.schema.json`` (read once; callers get their own copy)."""
    return copy.deepcopy(_schema(name))


@functools.cache
def _validator(name: str) -> Draft202012Validator:
    """A Draft 2020-12 validator for one of our own schemas, built once.

    The schemas ship with rulelang, so they are checked against the metaschema by the tests
    (tests/language/test_schema.py), not on every load: that check alone cost a cold command ~0.1 s.
    """
    return strict_validator_class()(_schema(name))


@functools.cache
def strict_validator_class() -> type[Draft202012Validator]:
    """Draft 2020-12, but an ``integer`` must be written as one: JSON Schema takes ``6.0`` for an integer,
    and a float reaching a game's counts (faces, players, a mod's ``set``) breaks them far from the file."""
    from jsonschema import Draft202012Validator, validators

    checker = Draft202012Validator.TYPE_CHECKER.redefine(
        "integer", lambda _checker, value: isinstance(value, int) and not isinstance(value, bool))
    return validators.extend(Draft202012Validator, type_checker=checker)


def validate_document(doc: Document, schema_name: str = "game", remember: bool = False) -> None:
    """Raise every structural problem of ``doc`` at once (SpecError or ErrorList); None when it fits.

    With ``remember``, a document that fits is remembered by a hash of its data and the schema, in the
    private cache folder (``cache.py``), and the same document is not checked again: importing jsonschema
    and checking a game cost a cold command about a quarter of its time. ``load_game`` remembers; the
    many passing variants of a sweep or a mutation run do not, so they do not push the games out.
    """
    data = _jsonable(doc.data)
    seen = _fingerprint(data, schema_name) if remember else None
    if seen is None or not cache.has_verdict("schema", seen):
        errors: list[RulelangError] = []
        for error in _validator(schema_name).iter_errors(data):
            errors.extend(_report(doc, error))
        raise_all(_without_misspelt_required(_unique(errors)), one_per_place=False)  # e.g. two missing keys
        if seen is not None:
            cache.keep_verdict("schema", seen)
    if schema_name == "game":           # a cross-reference no JSON Schema can state, in a sound structure
        raise_all(_unique(ruling_errors(doc, _schema(schema_name))), one_per_place=False)


#: Part of a verdict's hash: a verdict kept before a change of how the schemas are checked is not trusted.
_CHECKER_VERSION = "integers are written whole"


def _fingerprint(data: Any, schema_name: str) -> str | None:
    """A hash of the document's data as JSON and of the schema, or None when the data is not JSON."""
    try:
        text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    except (TypeError, ValueError):     # a value JSON has no spelling for: check it every time
        return None
    return cache.digest(_schema_text(schema_name), _CHECKER_VERSION, text)


# ---------------------------------------------------------------------------
# Data as JSON sees it


def _json_key(key: Any) -> str:
    """A mapping key as JSON would write it (YAML allows `2:` in table rows)."""
    if key is None:
        return "null"
    if isinstance(key, bool):
        return "true" if key else "false"
    return str(key)


def _jsonable(data: Any) -> Any:
    """The data with string keys only, so every schema keyword can read it."""
    if isinstance(data, dict):
        return {_json_key(k): _jsonable(v) for k, v in data.items()}
    if isinstance(data, list):
        return [_jsonable(item) for item in data]
    return data


def _doc_path(data: Any, json_path: Any) -> tuple:
    """Turn a path into the JSON view back into a path into the document's data."""
    path: list = []
    for step in json_path:
        if isinstance(data, dict):
            step = step if step in data else next((k for k in data if _json_key(k) == step), step)
            data = data.get(step)
        elif isinstance(data, list) and isinstance(step, int) and 0 <= step < len(data):
            data = data[step]
        else:
            data = None
        path.append(step)
    return tuple(path)


def _original_key(doc: Document, path: tuple, key: str) -> Any:
    node = value_or_none(doc.data, path)
    if isinstance(node, dict) and key not in node:
        return next((k for k in node if _json_key(k) == key), key)
    return key


# ---------------------------------------------------------------------------
# Words


def _field(path: tuple) -> str:
    """How a message names the value at ``path``."""
    if not path:
        return "the file"
    last = path[-1]
    if isinstance(last, int):
        parent = f"'{path[-2]}'" if len(path) >= 2 else "the list"
        return f"item {last + 1} of {parent}"
    return f"'{last}'"


def _what(error: ValidationError, path: tuple) -> str:
    """The name of the mapping an error is about: the schema's title, else its key."""
    title = error.schema.get("title") if isinstance(error.schema, dict) else None
    return title or (_field(path) if path else "the file")


_EXPECTED = {
    "string": "a string",
    "integer": "a number",
    "number": "a number",
    "boolean": "true or false",
    "array": "a list",
    "object": "a mapping",
    "null": "nothing",
}


def _expected(types: Any, instance: Any) -> str:
    names = [types] if isinstance(types, str) else list(types)
    words = ["a whole number" if t == "integer" and isinstance(instance, float) else _EXPECTED.get(t, t)
             for t in names]
    return " or ".join(dict.fromkeys(words))


def _got(instance: Any) -> str:
    if instance is None:
        return "nothing"
    if isinstance(instance, bool):
        return "true" if instance else "false"
    if isinstance(instance, int):
        return "a number"
    if isinstance(instance, float):
        return "a decimal number"
    if isinstance(instance, str):
        return "a string"
    return "a list" if isinstance(instance, list) else "a mapping"


def _shown(value: Any) -> str:
    """A short quoted rendering of a scalar (never a big repr)."""
    if isinstance(value, (dict, list)):
        return _got(value)
    text = value if isinstance(value, str) else json.dumps(value)
    return f"'{text}'" if len(text) <= 40 else f"'{text[:37]}...'"


def _description(schema: Any) -> str | None:
    return schema.get("description") if isinstance(schema, dict) else None


# ---------------------------------------------------------------------------
# One jsonschema error -> SpecErrors


Handler = Callable[[Document, "ValidationError", tuple], list[RulelangError]]


def _report(doc: Document, error: ValidationError) -> list[RulelangError]:
    path = _doc_path(doc.data, error.absolute_path)
    handler = _HANDLERS.get(str(error.validator), _other)
    return handler(doc, error, path)


def _unknown_keys(doc: Document, error: ValidationError, path: tuple) -> list[RulelangError]:
    schema = error.schema
    known = list(schema.get("properties", {}))
    patterns = list(schema.get("patternProperties", {}))
    extras = [k for k in error.instance if k not in known and not any(re.search(p, k) for p in patterns)]
    where = _what(error, path)
    out: list[RulelangError] = []
    for key in extras:
        close = closest(key, known)
        found = SpecError(f"unknown key '{key}' in {where}", doc.key_span(path + (_original_key(doc, path, key),)),
                          did_you_mean(key, known))
        found.misspells = (path, close) if close else None  # type: ignore[attr-defined]
        out.append(found)
    return out


def _missing_keys(doc: Document, error: ValidationError, path: tuple) -> list[RulelangError]:
    properties = error.schema.get("properties", {})
    missing = [key for key in error.validator_value if key not in error.instance]
    out: list[RulelangError] = []
    for key in missing:
        about = _description(properties.get(key))
        found = SpecError(f"{_what(error, path)} is missing required key '{key}'", doc.span(path),
                          f"add '{key}': {about}" if about else None)
        found.missing = (path, key)  # type: ignore[attr-defined]
        out.append(found)
    return out


def _without_misspelt_required(errors: list[RulelangError]) -> list[RulelangError]:
    """Drop "missing required key 'turn'" when the same mapping has an unknown key 'tur' that is that key misspelt.

    The unknown key's "did you mean 'turn'?" already says everything.
    """
    misspelt = {getattr(e, "misspells", None) for e in errors} - {None}
    return [e for e in errors if getattr(e, "missing", None) not in misspelt]


def _wrong_type(doc: Document, error: ValidationError, path: tuple) -> list[RulelangError]:
    message = f"expected {_expected(error.validator_value, error.instance)} for {_field(path)}, got {_got(error.instance)}"
    return [SpecError(message, doc.span(path), _description(error.schema))]


def _not_in_enum(doc: Document, error: ValidationError, path: tuple) -> list[RulelangError]:
    allowed = [str(v) for v in error.validator_value]
    hint = did_you_mean(error.instance, allowed) if isinstance(error.instance, str) else None
    message = f"{_shown(error.instance)} is not allowed for {_field(path)}: expected one of {', '.join(allowed)}"
    return [SpecError(message, doc.span(path), hint or _description(error.schema))]


def _bad_pattern(doc: Document, error: ValidationError, path: tuple) -> list[RulelangError]:
    if "propertyNames" in error.schema_path:
        key = _original_key(doc, path, error.instance)
        span = doc.key_span(path + (key,))
        subject = f"key in {_field(path)}" if path else "top-level key"
    else:
        span, subject = doc.span(path), f"value for {_field(path)}"
    if error.validator_value == NAME_PATTERN:
        return [SpecError(f"{_shown(error.instance)} is not a valid name", span, NAME_RULE)]
    return [SpecError(f"{_shown(error.instance)} is not a valid {subject}", span, _description(error.schema))]


def _out_of_range(doc: Document, error: ValidationError, path: tuple) -> list[RulelangError]:
    bound = {"minimum": "at least", "exclusiveMinimum": "more than",
             "maximum": "at most", "exclusiveMaximum": "less than"}[str(error.validator)]
    return [SpecError(f"{_field(path)} must be {bound} {error.validator_value}, got {_shown(error.instance)[1:-1]}",
                      doc.span(path), _description(error.schema))]


def _too_few(doc: Document, error: ValidationError, path: tuple) -> list[RulelangError]:
    count = error.validator_value
    if error.validator == "minLength":
        return [SpecError(f"{_field(path)} must not be empty", doc.span(path), _description(error.schema))]
    return [SpecError(f"{_field(path)} needs at least {counted(count, 'entry', 'entries')}", doc.span(path), _description(error.schema))]


def _repeated(doc: Document, error: ValidationError, path: tuple) -> list[RulelangError]:
    seen: list = []
    for index, item in enumerate(error.instance):
        if item in seen:
            return [SpecError(f"{_field(path)} lists {_shown(item)} twice", doc.span(path + (index,)),
                              "remove the second one")]
        seen.append(item)
    return [SpecError(f"{_field(path)} lists a value twice", doc.span(path))]


def _alternatives(doc: Document, error: ValidationError, path: tuple) -> list[RulelangError]:
    """anyOf/oneOf: one message for 'wrong type for every branch', else the most specific branch error."""
    context = list(error.context or [])
    if context and all(e.validator == "type" and not e.relative_path for e in context):
        types: list[str] = []
        for sub in context:
            value = sub.validator_value
            types.extend([value] if isinstance(value, str) else value)
        message = f"expected {_expected(types, error.instance)} for {_field(path)}, got {_got(error.instance)}"
        return [SpecError(message, doc.span(path), _description(error.schema))]
    word = _word_for_a_list_of_words(error)
    if word is not None:
        return _report(doc, word)
    best = _most_specific(error)
    return _other(doc, error, path) if best is error else _report(doc, best)


def _word_for_a_list_of_words(error: ValidationError) -> ValidationError | None:
    """The enum branch's error when a plain word was written where a list of words is one of the forms
    (`type: crd` is a misspelt 'card', not a tuple type written wrong), else None."""
    if not isinstance(error.instance, str) or re.match(NAME_PATTERN, error.instance) is None:
        return None
    return next((e for e in error.context or [] if e.validator == "enum" and not e.relative_path), None)


def _most_specific(error: ValidationError) -> ValidationError:
    """The branch error that says most: jsonschema's best match, else the deepest one."""
    from jsonschema.exceptions import best_match

    best = best_match([error])
    if best is not None and best is not error:
        return best
    return max(error.context or [error], key=lambda e: len(e.absolute_path))


def _other(doc: Document, error: ValidationError, path: tuple) -> list[RulelangError]:
    return [SpecError(f"invalid value for {_field(path)}", doc.span(path), _description(error.schema))]


_HANDLERS: dict[str, Handler] = {
    "additionalProperties": _unknown_keys,
    "unevaluatedProperties": _unknown_keys,
    "required": _missing_keys,
    "type": _wrong_type,
    "enum": _not_in_enum,
    "pattern": _bad_pattern,
    "minimum": _out_of_range,
    "exclusiveMinimum": _out_of_range,
    "maximum": _out_of_range,
    "exclusiveMaximum": _out_of_range,
    "minItems": _too_few,
    "minLength": _too_few,
    "minProperties": _too_few,
    "uniqueItems": _repeated,
    "anyOf": _alternatives,
    "oneOf": _alternatives,
}


def _unique(errors: list[RulelangError]) -> list[RulelangError]:
    """Drop repeats (the same message at the same place), keeping the first."""
    seen: set = set()
    out: list[RulelangError] = []
    for error in errors:
        key = (error.message, error.span)
        if key not in seen:
            seen.add(key)
            out.append(error)
    return out
