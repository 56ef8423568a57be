"""One usage-error type: every mistake in how rulelang is called is a rulelang.errors.UsageError (exit code 2)."""
from __future__ import annotations

from pathlib import Path

import pytest

from rulelang.errors import UsageError
from rulelang.lab.command import game_and_agents
from rulelang.model.params import ParamError, parse_assignments

ROOT = Path(__file__).resolve().parents[2]


def test_a_refused_param_is_a_usage_error_and_still_a_value_error() -> None:
    with pytest.raises(UsageError, match="NAME=VALUE"):
        parse_assignments(["no equals sign"])
    assert issubclass(ParamError, ValueError)


def test_the_lab_refuses_an_unknown_agent_with_the_same_type() -> None:
    with pytest.raises(UsageError, match="unknown agent 'nobody'"):
        game_and_agents(str(ROOT / "examples" / "pig"), 2, "nobody")
