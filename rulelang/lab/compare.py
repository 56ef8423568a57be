"""`simulate --compare FILE`: this run's win rates against another run's, each with an interval on the difference.

FILE is what ``simulate --json`` printed (its last line is the summary), read as
untrusted data: a regular file of bounded size, JSON only, every rate checked
to be counts before it is used. Each rate both runs have (seats, teams, roles,
agents) is compared by Newcombe's hybrid score interval of the difference,
which treats the two runs as independent samples; two runs with the same
``--seed`` share their games' seeds, so their difference is usually known
better than that interval says (it errs on the wide side).
"""
from __future__ import annotations

import json
from pathlib import Path

from .stats import newcombe

#: The largest summary read back: a summary of many cards and decisions is some hundred kilobytes.
MAX_BYTES = 32 * 1024 * 1024
_COMPARED = ("win_rate", "role_win_rate", "agent_win_rate")


class CompareError(ValueError):
    """The file to compare with cannot be used: one line saying why."""


def read_summary(path: str) -> dict:
    """The summary in a file ``simulate --json`` wrote (its last non-empty line), or a CompareError."""
    from rulelang.spec import files

    try:
        data = files.read_regular(Path(path), MAX_BYTES)
    except files.FileRefused as refused:
        raise CompareError(f"--compare: '{path}' {refused.reason}") from None
    lines = [line for line in data.decode("utf-8", errors="replace").splitlines() if line.strip()]
    try:
        summary = json.loads(lines[-1]) if lines else None
    except (json.JSONDecodeError, RecursionError):
        summary = None
    if not isinstance(summary, dict) or not isinstance(summary.get("win_rate"), dict):
        raise CompareError(f"--compare: '{path}' does not end with a summary from `rulelang simulate --json` "
                           "(one player count)")
    return summary


def _counts(rate: object) -> tuple[int, int] | None:
    """(wins, of) of a rate read from a file, when they are counts that make sense."""
    if not isinstance(rate, dict):
        return None
    wins, trials = rate.get("wins"), rate.get("of")
    if type(wins) is not int or type(trials) is not int or not 0 <= wins <= trials:
        return None
    return wins, trials


def compare(this: dict, other: dict) -> dict:
    """Per rate both summaries have: each run's wins and games, and this minus other with its 95% interval."""
    out = {}
    for head in _COMPARED:
        mine, theirs = this.get(head) or {}, other.get(head)
        if not isinstance(theirs, dict):
            continue
        for label, rate in mine.items():
            a, b = _counts(rate), _counts(theirs.get(label))
            if a is None or b is None or not a[1] or not b[1]:
                continue
            low, high = newcombe(a[0], a[1], b[0], b[1])
            out[f"{head}.{label}"] = {"this": {"wins": a[0], "of": a[1]}, "other": {"wins": b[0], "of": b[1]},
                                      "difference": round(a[0] / a[1] - b[0] / b[1], 6),
                                      "low": round(low, 6), "high": round(high, 6)}
    return out
