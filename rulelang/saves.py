"""Deprecated path: ``rulelang.saves`` is now ``rulelang.logs.saves``; this name stays for code written against it."""
# rewrite_imports: leave
from __future__ import annotations

import sys
import warnings

import rulelang.logs.saves as _home

warnings.warn("rulelang.saves moved to rulelang.logs.saves", DeprecationWarning, stacklevel=2)
sys.modules[__name__] = _home
