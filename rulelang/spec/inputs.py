"""Reading a file a user names (a saved state, an event log): untrusted, so bounded and regular only.

A FIFO would block forever and a device can be endless, so the file is
opened without blocking, checked to be a regular file through its open
handle (no race with a swapped path), and read up to a limit plus one byte.
"""
from __future__ import annotations

import functools
import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rulelang.errors import RulelangError, Span
from rulelang.spec import files

if TYPE_CHECKING:
    from jsonschema import Draft202012Validator

#: Largest saved state or event log read (bytes).
MAX_INPUT_BYTES = 64 * 1024 * 1024


#: Most digits of a whole number read from text: far past any count, and never slow (or refused) by ``int``.
MAX_WHOLE_DIGITS = 30


def whole_number(text: Any, signed: bool = True) -> int | None:
    """The int ``text`` writes in ASCII digits (after one sign, if ``signed``), or None. ``str.isdigit``
    also takes '²', which ``int`` refuses, and ``lstrip('-')`` takes '--5': text from outside is read here."""
    if not isinstance(text, str):
        return None
    digits = text[1:] if signed and text.startswith(("+", "-")) else text
    if not (digits.isascii() and digits.isdigit()) or len(digits) > MAX_WHOLE_DIGITS:
        return None
    return int(text)


class InputError(RulelangError):
    """A file that cannot be read as the input it should be; located in the file when possible."""


def read_regular_file(path: str, limit: int = MAX_INPUT_BYTES) -> bytes:
    """The bytes of a regular file of at most ``limit`` bytes (see ``files.read_regular``), or an InputError."""
    try:
        return files.read_regular(Path(path), limit)
    except files.FileRefused as refused:
        raise InputError(f"{path} {refused.reason}", hint=refused.hint) from None


def decode_text(raw: bytes, path: str) -> str:
    """UTF-8 text without NUL bytes, or an InputError at the first bad byte."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as error:
        raise _at_offset(raw, error.start, path, "the file is not UTF-8 text (binary data?)") from None
    nul = text.find("\0")
    if nul >= 0:
        raise _at_offset(raw, len(text[:nul].encode("utf-8")), path, "the file holds a NUL byte (binary data?)")
    return text


def _at_offset(raw: bytes, offset: int, path: str, message: str) -> InputError:
    """An error at a byte offset, told as line and column."""
    line = raw.count(b"\n", 0, offset) + 1
    col = offset - (raw.rfind(b"\n", 0, offset) + 1) + 1
    return InputError(message, Span(path, line, col))


def strict_json(text: str) -> Any:
    """json.loads without NaN/Infinity and without a key given twice (a second value could hide a forgery)."""
    return json.loads(text, parse_constant=_no_constant, object_pairs_hook=_unique_keys)


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict:
    out: dict = {}
    for key, value in pairs:
        if key in out:
            raise ValueError(f"the key '{key}' is given twice")
        out[key] = value
    return out


def canonical(value: Any) -> str:
    """One spelling of a JSON value: compares true with 1, or 1.0 with 1, as different (Python does not)."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


def schema_words(error: Any) -> str:
    """A jsonschema error in a sentence, without a Python repr of a big value."""
    if error.validator in ("required", "additionalProperties", "enum", "type"):
        text = error.message
        return text if len(text) <= 200 else text[:197] + "..."
    value = canonical(error.instance)
    shown = value if len(value) <= 60 else value[:57] + "..."
    rule = canonical(error.validator_value)
    return f"{shown} does not fit ({error.validator}: {rule if len(rule) <= 60 else rule[:57] + '...'})"


@functools.cache
def schema_validator(name: str) -> Draft202012Validator:
    """The validator of the repository's ``schemas/<name>.schema.json``, read once.

    Our own schemas are checked against the metaschema by the tests, not at run time. jsonschema is
    imported here, when a file is first checked: importing it costs a cold command about 0.1 s.
    """
    from rulelang.spec.schema import SCHEMA_DIR, strict_validator_class

    schema = json.loads((SCHEMA_DIR / f"{name}.schema.json").read_text(encoding="utf-8"))
    return strict_validator_class()(schema)
