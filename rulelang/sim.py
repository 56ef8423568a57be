"""Deprecated path: ``rulelang.sim`` is now ``rulelang.logs.replay``; this name stays for code written against it."""
# rewrite_imports: leave
from __future__ import annotations

import sys
import warnings

import rulelang.logs.replay as _home

warnings.warn("rulelang.sim moved to rulelang.logs.replay", DeprecationWarning, stacklevel=2)
sys.modules[__name__] = _home
