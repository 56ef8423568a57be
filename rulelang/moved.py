"""The module paths of rulelang's first layout, still importable, each with a DeprecationWarning naming its home.

Before the packages by stage, ``rulelang.sim``, ``rulelang.saves`` and ``rulelang.chance`` were modules of
their own. Code written against them still imports them: ``import rulelang`` puts this finder last on
``sys.meta_path``, and it answers only those three names, with a module holding the names of their homes.
"""
from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import importlib.util
import sys
import types
import warnings
from collections.abc import Sequence

#: Each old path, and the modules that now hold its names (the warning names the first two).
MOVED: dict[str, tuple[str, ...]] = {
    "rulelang.sim": ("rulelang.logs.replay", "rulelang.testing.smoke", "rulelang.engine.limits"),
    "rulelang.saves": ("rulelang.logs.saves",),
    "rulelang.chance": ("rulelang.engine.chance",),
}


class OldPaths(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Finds and loads the old paths of ``MOVED``, and nothing else."""

    def find_spec(self, fullname: str, path: Sequence[str] | None, target: types.ModuleType | None = None,
                  ) -> importlib.machinery.ModuleSpec | None:
        return importlib.util.spec_from_loader(fullname, self) if fullname in MOVED else None

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> types.ModuleType | None:
        return None                     # the default: a fresh module, which exec_module fills

    def exec_module(self, module: types.ModuleType) -> None:
        homes = MOVED[module.__name__]
        warnings.warn(f"{module.__name__} moved to {' and '.join(homes[:2])}", DeprecationWarning, stacklevel=2)
        for home in reversed(homes):    # the first home's names win where two homes share one
            module.__dict__.update({name: value for name, value in vars(importlib.import_module(home)).items()
                                    if not name.startswith("__")})


def install() -> None:
    """Put the finder on ``sys.meta_path`` once, after every other finder."""
    if not any(isinstance(finder, OldPaths) for finder in sys.meta_path):
        sys.meta_path.append(OldPaths())
