"""How many examples a Hypothesis property draws: its full-run count, scaled by the profile in force.

Two profiles, chosen once per run by ``conftest.py``:

- ``full``: every property draws the count its test names (``@examples(200)`` draws 200), as the
  suite always has; the default, and what CI runs.
- ``fast``: a quarter of that (at least one): the fast tier's profile, so `pytest -m "not slow"`
  still tries every property, with fewer draws.

Set ``HYPOTHESIS_PROFILE=full`` (or ``fast``) to choose one yourself. A test that states no count
draws the profile's own ``max_examples`` (100 in the full run, Hypothesis' default).
"""
from __future__ import annotations

from typing import Any

from hypothesis import settings

#: The full run's examples per property; the counts tests name are read against it.
FULL_EXAMPLES = 100
#: The fast profile's share of each count.
FAST_EXAMPLES = 25
PROFILES = {"full": FULL_EXAMPLES, "fast": FAST_EXAMPLES}


def register_profiles() -> None:
    """Register ``full`` and ``fast``. No deadline in either: the suite shares a busy machine, and a slow
    example is the ``slow`` marker's business, not a failure."""
    for name, count in PROFILES.items():
        settings.register_profile(name, max_examples=count, deadline=None)


def examples(full: int, **more: Any) -> settings:
    """Settings that draw ``full`` examples in the full run and the loaded profile's share of them otherwise."""
    scaled = max(1, full * settings().max_examples // FULL_EXAMPLES)
    return settings(max_examples=scaled, **more)
