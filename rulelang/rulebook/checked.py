"""A game loaded and checked as the compiler checks it, without generating its code: the model and the trees.

The rulebook and `explain` read exactly what the checker read (``check.game``'s own rule-text jobs, its
own scopes and types), so what they say is what runs; stopping before code generation keeps them quick.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rulelang.model.spec import Spec
from rulelang.pipeline import read_spec
from rulelang.spec.document import Document
from rulelang.spec.rulings import rule_references
from rulelang.spec.schema import load_schema, validate_document

from ..check.game import check_game


@dataclass
class Checked:
    """A game's model, the checked tree of each rule text (by its path in the data) and its `rule:` names."""

    spec: Spec
    doc: Document
    trees: dict[tuple, Any]
    rulings: dict[tuple, list[str]] = field(default_factory=dict)

    def tree(self, text: Any) -> Any:
        """The checked tree of a ``RuleText`` (None for no text)."""
        return self.trees.get(text.path) if text is not None else None

    def rulings_of(self, path: tuple) -> list[str]:
        """The rulings the entry at ``path`` names with `rule:`."""
        return self.rulings.get(tuple(path), [])

    def ruling_text(self, name: str) -> str:
        entry = (self.doc.data.get("rulings") or {}).get(name)
        return str(entry.get("text", "")) if isinstance(entry, dict) else ""

    def ruling_section(self, name: str) -> str:
        entry = (self.doc.data.get("rulings") or {}).get(name)
        return str(entry.get("section", "")) if isinstance(entry, dict) else ""


def load_checked(path: str | Path, mods: Sequence[str | Path] = ()) -> Checked:
    """Load, schema-check and check a game (mods laid over it); raises the same errors `validate` reports."""
    doc = read_spec(path, mods=mods)
    validate_document(doc, remember=True)
    checked = check_game(doc)
    trees: dict[tuple, Any] = {path: job.tree for path, job in checked.jobs.items()}
    return Checked(checked.spec, doc, trees, _rule_names(doc))


def _rule_names(doc: Document) -> dict[tuple, list[str]]:
    """Each entry's `rule:` names, keyed by the entry's path (the path of its `rule:` key, less the key)."""
    names: dict[tuple, list[str]] = {}
    for path, name in rule_references(load_schema("game"), doc.data):
        at = path.index("rule") if "rule" in path else len(path)
        names.setdefault(tuple(path[:at]), []).append(name)
    return names
