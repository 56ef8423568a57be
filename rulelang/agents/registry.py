"""Agents by name, as a command line gives them: ``random``, ``mcts:iterations=200``, ``mybots:Smart``.

An agent spec is ``NAME`` or ``NAME:KEY=VALUE[:KEY=VALUE...]``. NAME is a
built-in agent, or a plug-in ``MODULE:CLASS`` where MODULE is an importable
module (``mybots``, ``my.bots``) or a Python file (``bots/smart.py``). A
plug-in is the user's own code, imported only because their command line asks
for it; a spec file can never name one. Every agent is made as
``Class(seed, **params)``: numbers in VALUE are passed as numbers.
"""
from __future__ import annotations

import importlib
import importlib.util
import re
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rulelang.agents.policy import PolicyAgent, is_policy_spec, policy_path

from ..errors import closest
from .basic import FirstAgent, RandomAgent
from .greedy import GreedyAgent
from .mcts import MctsAgent

#: Agents by the name a command line uses; each is made from a seed (its own random stream).
AGENTS: dict[str, type] = {"random": RandomAgent, "first": FirstAgent, "greedy": GreedyAgent, "mcts": MctsAgent}

_PARAM = re.compile(r"^([A-Za-z_][A-Za-z0-9_]*)=(.*)$")
_CLASS = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


@dataclass(frozen=True)
class AgentSpec:
    """A parsed agent spec: what to make, and with which settings."""

    text: str
    factory: type
    params: tuple[tuple[str, Any], ...]

    def make(self, seed: int) -> Any:
        if not self.params:             # the common case, made for every seat of every game of a batch
            return self.factory(seed)
        return self.factory(seed, **dict(self.params))


def parse_agent(text: str) -> AgentSpec:
    """The agent a spec names, checked by making one; a ValueError says what is wrong."""
    if is_policy_spec(text):           # a policy file (rulelang/agents/policy.py), read and checked now
        return _made(AgentSpec(text, PolicyAgent, (("path", policy_path(text)),)))
    parts = text.split(":")
    head, rest = parts[0].strip(), parts[1:]
    if head in AGENTS:
        factory = AGENTS[head]
    elif rest and _CLASS.match(rest[0].strip()):
        factory, rest = plugin_class(head, rest[0].strip()), rest[1:]
    else:
        near = closest(head, AGENTS)
        hint = f" (did you mean '{near}'?)" if near else ""
        raise ValueError(f"unknown agent '{head}'{hint}; known agents: {', '.join(sorted(AGENTS))}, "
                         f"or MODULE:CLASS for your own")
    params = tuple(parse_param(text, part.strip()) for part in rest)
    return _made(AgentSpec(text, factory, params))


def _made(spec: AgentSpec) -> AgentSpec:
    """The spec, once one agent has been made from it: settings of the wrong kind are a ValueError."""
    try:
        spec.make(0)
    except (TypeError, ValueError) as error:
        raise ValueError(f"agent '{spec.text}': {error}") from None
    return spec


def parse_param(text: str, part: str) -> tuple[str, Any]:
    match = _PARAM.match(part)
    if match is None:
        raise ValueError(f"agent '{text}': '{part}' is not KEY=VALUE (e.g. mcts:iterations=200)")
    return match.group(1), number_or_text(match.group(2).strip())


def number_or_text(value: str) -> Any:
    for kind in (int, float):
        try:
            return kind(value)
        except ValueError:
            pass
    return value


def plugin_class(module: str, name: str) -> type:
    """The class ``name`` of the user's module (a module name or a .py file), imported now."""
    try:
        loaded = load_module(module)
    except ImportError as error:
        raise ValueError(f"cannot import the agent module '{module}': {error}") from None
    except Exception as error:  # noqa: BLE001 - the user's module failed while importing
        raise ValueError(f"the agent module '{module}' failed while importing: "
                         f"{type(error).__name__}: {error}") from None
    found = getattr(loaded, name, None)
    if not isinstance(found, type):
        raise ValueError(f"the agent module '{module}' has no class '{name}'")
    if not callable(getattr(found, "choose", None)):
        raise ValueError(f"{module}:{name} has no choose(seat) method, so it is not an agent")
    return found


def load_module(module: str) -> Any:
    """A module by import name, or by the path of a .py file (run as the user asked)."""
    if not module.endswith(".py"):
        return importlib.import_module(module)
    path = Path(module).resolve()
    key = f"rulelang_agent_{abs(hash(str(path)))}"
    if key in sys.modules:
        return sys.modules[key]
    spec = importlib.util.spec_from_file_location(key, path)
    if spec is None or spec.loader is None or not path.is_file():
        raise ImportError(f"no Python file {module}")
    loaded = importlib.util.module_from_spec(spec)
    sys.modules[key] = loaded
    try:
        spec.loader.exec_module(loaded)
    except BaseException:
        del sys.modules[key]
        raise
    return loaded


_PARSED: dict[str, AgentSpec] = {}


def make_agent(text: str, seed: int) -> Any:
    """The agent a spec names (``random``, ``mcts:ms=50``, ``mybots:Smart``), seeded; ValueError if none."""
    spec = _PARSED.get(text)
    if spec is None:
        spec = _PARSED[text] = parse_agent(text)
    return spec.make(seed)
