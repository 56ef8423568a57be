"""Deprecated path: ``rulelang.sim`` is now ``rulelang.logs.replay`` (replays) and ``rulelang.testing.smoke``
(the smoke test); this name stays for code written against it."""
# rewrite_imports: leave
from __future__ import annotations

import warnings

from rulelang.engine.limits import MAX_DECISIONS  # noqa: F401
from rulelang.logs.replay import LogCheck, play_again, replay, verify_log  # noqa: F401
from rulelang.testing.smoke import Outcome, play_random, smoke_test  # noqa: F401

warnings.warn("rulelang.sim moved to rulelang.logs.replay and rulelang.testing.smoke", DeprecationWarning,
              stacklevel=2)
