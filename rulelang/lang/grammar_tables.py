"""The grammar's parse tables as plain data: a parser in milliseconds, without analysing the grammar or a pickle.

Analysing ``grammar.lark`` into LALR tables takes most of a second; Lark rebuilds a parser from the
tables it computed in a few milliseconds. Those tables are lists, dicts, strings and numbers (Lark's
``memo_serialize``, the form its standalone generator writes out), kept here as JSON: reading JSON
builds data and never runs code. They come, first that fits:

1. from ``grammar_tables.json`` beside the grammar, shipped with the package. Its first line is a stamp
   (the hash of the grammar, the Lark version, this file's format); tables whose stamp differs from
   today's grammar and Lark are not used. tests/language/test_grammar_tables.py checks that the shipped file is
   what the grammar gives; after editing the grammar (or for another Lark), write it afresh with
   ``python -m rulelang.lang.parser``;
2. from the private cache folder (``cache.py``), under a name hashed from the same stamp;
3. from the grammar, analysed afresh; then they are kept in the cache folder for the next run.

The tables are written in one order (tokens by name, states in the order a walk from the start states
meets them), since Lark numbers them differently from run to run: one grammar gives one file, byte for byte.
"""
from __future__ import annotations

import json
from collections import deque
from pathlib import Path
from typing import Any

import lark
from lark import Lark
from lark.grammar import Rule
from lark.lexer import TerminalDef

from rulelang.spec import cache

SHIPPED = Path(__file__).with_name("grammar_tables.json")
#: The layout of the file; a new layout is a new number, so old files are not misread.
FORMAT = 1
#: Largest tables file read from the cache folder (the grammar's are about 170 KB).
MAX_BYTES = 4 << 20
#: JSON keys objects by strings only; a dict keyed by numbers is written {"#": [[key, value], ...]}.
_NUMBER_KEYED = "#"
#: Lark's options that are objects, not data: given again when a parser is rebuilt.
_NOT_DATA = ("postlex",)
#: Lark's parse-table action that moves to a state (the other, 1, reduces by a rule).
_SHIFT = 0


def stamp(grammar: str) -> str:
    """The first line of a tables file made from ``grammar`` by this Lark, in this format."""
    return json.dumps({"format": FORMAT, "grammar": cache.digest(grammar), "lark": lark.__version__},
                      sort_keys=True)


def load(grammar: str, postlex: Any) -> Lark | None:
    """A parser from the shipped tables, else from the cached ones, when they were made from ``grammar``."""
    try:
        shipped = SHIPPED.read_bytes()
    except OSError:
        shipped = b""
    parser = from_tables(shipped, grammar, postlex)
    if parser is None:
        cached = cache.read(_cache_name(grammar), MAX_BYTES)
        parser = None if cached is None else from_tables(cached, grammar, postlex)
    return parser


def keep(parser: Lark, grammar: str) -> None:
    """Keep the tables of a parser just analysed from ``grammar`` in the cache folder, for the next run."""
    cache.write(_cache_name(grammar), tables_of(parser, grammar))


def from_tables(raw: bytes, grammar: str, postlex: Any) -> Lark | None:
    """The parser those tables describe, or None unless they carry the stamp of ``grammar`` and this Lark.

    A file that is damaged in any way also gives None: the caller then analyses the grammar afresh.
    """
    head, _, body = raw.partition(b"\n")
    if head.decode("utf-8", "replace") != stamp(grammar):
        return None
    try:
        tables = json.loads(body, object_hook=_number_keyed)
        return Lark._load_from_dict(tables["data"], tables["memo"], postlex=postlex)
    except Exception:                   # noqa: BLE001 -- any damage means "analyse afresh", never a crash
        return None


def tables_of(parser: Lark, grammar: str) -> bytes:
    """The tables file of a parser analysed from ``grammar``: its stamp line, then the tables as JSON."""
    data, memo = parser.memo_serialize([TerminalDef, Rule])
    data["options"] = {name: value for name, value in data["options"].items() if name not in _NOT_DATA}
    data["parser"]["parser"] = _in_order(data["parser"]["parser"])
    body = json.dumps(_as_json({"data": data, "memo": memo}), separators=(",", ":"), ensure_ascii=True)
    return f"{stamp(grammar)}\n{body}\n".encode("ascii")


def _cache_name(grammar: str) -> str:
    return f"grammar-{cache.digest(stamp(grammar))[:32]}.json"


def _in_order(table: dict[str, Any]) -> dict[str, Any]:
    """Lark's parse table with tokens numbered by name and states by a walk from the start states."""
    names: dict[int, str] = table["tokens"]
    token = {name: number for number, name in enumerate(sorted(names.values()))}
    states = table["states"]
    old_states = _walk(states, names, [table["start_states"][start] for start in sorted(table["start_states"])])
    state = {old: new for new, old in enumerate(old_states)}

    def actions(old: int) -> dict[int, tuple[int, Any]]:
        ordered = sorted(states[old].items(), key=lambda item: names[item[0]])
        return {token[names[t]]: (kind, state[arg] if kind == _SHIFT else arg) for t, (kind, arg) in ordered}

    return {"tokens": {number: name for name, number in token.items()},
            "states": {state[old]: actions(old) for old in old_states},
            "start_states": {start: state[old] for start, old in sorted(table["start_states"].items())},
            "end_states": {start: state[old] for start, old in sorted(table["end_states"].items())}}


def _walk(states: dict[int, dict], names: dict[int, str], starts: list[int]) -> list[int]:
    """Every state, in the order a breadth-first walk meets them from ``starts`` (moves taken by token name)."""
    order: list[int] = []
    seen = set(starts)
    todo = deque(starts)
    while todo:
        current = todo.popleft()
        order.append(current)
        for _symbol, (kind, arg) in sorted(states[current].items(), key=lambda item: names[item[0]]):
            if kind == _SHIFT and arg not in seen:
                seen.add(arg)
                todo.append(arg)
    unreached = set(states) - seen
    if unreached:
        raise ValueError(f"{len(unreached)} states of the parse table cannot be reached from its start states")
    return order


def _as_json(value: Any) -> Any:
    """Lark's data with tuples as lists and number-keyed dicts in the form JSON can hold."""
    if isinstance(value, dict):
        if value and all(isinstance(key, int) for key in value):
            return {_NUMBER_KEYED: [[key, _as_json(item)] for key, item in value.items()]}
        return {key: _as_json(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [_as_json(item) for item in value]
    return value


def _number_keyed(obj: dict[str, Any]) -> dict[Any, Any]:
    """``json.loads``' hook: a number-keyed dict back from its JSON form."""
    if len(obj) == 1 and _NUMBER_KEYED in obj:
        return {key: item for key, item in obj[_NUMBER_KEYED]}
    return obj
