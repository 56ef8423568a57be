"""Deprecated path: ``rulelang.chance`` is now ``rulelang.engine.chance``; this name stays for code written against it."""
# rewrite_imports: leave
from __future__ import annotations

import sys
import warnings

import rulelang.engine.chance as _home

warnings.warn("rulelang.chance moved to rulelang.engine.chance", DeprecationWarning, stacklevel=2)
sys.modules[__name__] = _home
