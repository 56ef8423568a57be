"""The suite's shared setup: the Hypothesis profile for this run, and the markers' tiers.

The tests are in folders by area (language, engine, equivalence, safety, tools, adapters, games);
what they share lives in ``helpers/`` (see its ``__init__``). The fast tier is
``pytest -m "not slow"``: it leaves out the cases marked ``slow`` and draws fewer Hypothesis
examples (the ``fast`` profile), and still runs every scenario and every broken-spec case.
"""
from __future__ import annotations

import os

import pytest
from hypothesis import settings

import rulelang.statements  # noqa: F401 - fills the parser's table of statements, as the compiler does

from helpers.examples import register_profiles


def pytest_configure(config: pytest.Config) -> None:
    """Load the Hypothesis profile before any test module is imported (their ``@examples`` read it).

    ``HYPOTHESIS_PROFILE`` decides when set; otherwise a run that leaves the slow tests out is the fast
    tier and gets the ``fast`` profile, and every other run the ``full`` one (today's counts)."""
    register_profiles()
    settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE") or _profile_for(config.option.markexpr))


def _profile_for(markexpr: str) -> str:
    """``fast`` for the fast tier's marker expression (``not slow``), ``full`` for anything else."""
    return "fast" if "not slow" in " ".join(markexpr.split()) else "full"
