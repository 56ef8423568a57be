"""The packages by stage keep their shape: no import cycle at all.

Every import counts, deferred and type-only ones too (a cycle through a function's own import is still
a cycle a reader has to untangle). A change that makes a cycle anywhere fails here with the cycle named
(docs/architecture.md, "Which package may import which").
"""
from __future__ import annotations

import ast
import functools
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "rulelang"

#: The cycles still allowed: none. (State.from_json asks the loader that logs/saves.py hands over when it is
#: imported, so the engine imports nothing of the logs.)
KNOWN_CYCLES: list[set[str]] = []
#: Modules of rulelang's own beside its packages (__init__ not counted): errors, pipeline, printable,
#: __main__ and moved (the first layout's paths, rulelang.sim, .saves and .chance, found by moved.OldPaths).
MOST_TOP_LEVEL_MODULES = 5


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imported(path: Path, name: str, modules: set[str]) -> set[str]:
    """The rulelang modules one file imports, wherever the import is written (names relative to rulelang)."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            targets = [_local(alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            prefix = _relative_base(package, node) if node.level else _local(node.module or "")
            if prefix is None:
                continue
            submodules = [f"{prefix}.{alias.name}".strip(".") for alias in node.names]
            # `from P import name` reads P's namespace; `from P import module` needs only the module
            targets = submodules + ([prefix] if any(m not in modules for m in submodules) else [])
        else:
            continue
        found.update(t for t in targets if t is not None and t in modules and t != name)
    return found


def _local(dotted: str) -> str | None:
    """``rulelang.x.y`` as ``x.y``; None for anything not of rulelang."""
    if dotted == "rulelang":
        return ""
    return dotted.removeprefix("rulelang.") if dotted.startswith("rulelang.") else None


def _relative_base(package: str, node: ast.ImportFrom) -> str:
    parts = package.split(".") if package else []
    parts = parts[:len(parts) - (node.level - 1)]
    return ".".join(parts + ([node.module] if node.module else []))


@functools.cache
def import_graph() -> dict[str, set[str]]:
    """Each rulelang module and the rulelang modules it imports: every file parsed once for all the tests here."""
    files = {module_name(path): path for path in PACKAGE.rglob("*.py")}
    modules = set(files)
    return {name: imported(path, name, modules) for name, path in files.items()}


def cycles(graph: dict[str, set[str]]) -> list[set[str]]:
    """The strongly connected parts of more than one module (Tarjan's algorithm, without recursion)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    found = []
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                part = set()
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    part.add(member)
                    if member == node:
                        break
                if len(part) > 1:
                    found.append(part)
    return found


def test_no_import_cycle_but_the_known_ones_and_none_grows() -> None:
    grown = [sorted(part) for part in cycles(import_graph()) if not any(part <= known for known in KNOWN_CYCLES)]
    assert grown == [], f"import cycles beyond the known ones: {grown}"


def test_a_cycle_is_found_where_there_is_one() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}, "e": set()}
    assert cycles(graph) == [{"a", "b", "c"}]


def test_the_syntax_layer_imports_nothing_of_the_engine() -> None:
    graph = import_graph()
    reaching = {name: sorted(t for t in targets if t.split(".")[0] in ("engine", "compiler", "logs", "agents"))
                for name, targets in graph.items() if name.startswith("lang.")}
    assert {name: found for name, found in reaching.items() if found} == {}


def test_the_loader_applies_no_mods() -> None:
    assert not any(target.startswith("mods") for target in import_graph()["spec.loader"])


def test_rulelang_keeps_few_modules_of_its_own_beside_its_packages() -> None:
    own = sorted(path.name for path in PACKAGE.glob("*.py") if path.name != "__init__.py")
    assert len(own) <= MOST_TOP_LEVEL_MODULES, own
