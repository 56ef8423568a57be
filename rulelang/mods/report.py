"""`rulelang mods GAME --mod A --mod B`: what each mod changes, and every conflict, before anything is played."""
from __future__ import annotations

from rulelang.mods.layers import KIND_WORDS, Layering, layer
from rulelang.printable import counted, printable


def report_mods(game_path: str, paths: list[str], out, err) -> int:
    """Print each mod's changes (file:line, what) and every conflict or mistake; 1 when there is one."""
    from rulelang.spec.loader import load_document, new_budget

    budget = new_budget()
    base = load_document(game_path, budget=budget)
    layering = layer(base, list(paths), budget)
    for mod in layering.mods:
        changes = [c for c in layering.changes if c.mod is mod]
        print(printable(f"{mod.name} ({mod.file}): {counted(len(changes), 'change')}"),
              file=out)
        for change in changes:
            print(printable(f"  {change.span}: {change.what}"), file=out)
    for line in wrap_chains(layering):
        print(printable(line), file=out)
    for error in layering.errors:
        print(error.format(), file=err)
    if layering.errors:
        count = len(layering.errors)
        print(f"rulelang: {counted(count, 'problem')} with these mods", file=err)
        return 1
    count = len(layering.mods)
    print(printable(f"ok: {counted(count, 'mod')} " + ("loads" if count == 1 else "load together") +
                    f" over {base.data.get('game')}"), file=out)
    return 0


def wrap_chains(layering: Layering) -> list[str]:
    """One line per procedure or function wrapped by several mods: who is called first, down to the game's."""
    lines = []
    for (kind, name), mods in layering.wraps.items():
        if len(mods) > 1:
            chain = " -> ".join(f"'{mod.name}'" for mod in reversed(mods))
            lines.append(f"chain: {KIND_WORDS[kind]} '{name}' runs {chain} -> the game's")
    return lines
