"""`--plot`: win rates with their intervals and the distribution of game lengths, as an image.

matplotlib is an optional extra (``pip install 'rulelang[plot]'``); without it
the command says so in one line before playing any game.
"""
from __future__ import annotations

from rulelang.printable import counted

from .report import check_writable
from .stats import player_label

MISSING = "--plot needs matplotlib, which is not installed: pip install 'rulelang[plot]' (or matplotlib>=3.7)"


class PlotUnavailable(Exception):
    """matplotlib cannot be imported."""


def require_matplotlib() -> None:
    """Fail early, before a long batch, when the plot could not be drawn."""
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        raise PlotUnavailable(MISSING) from None


def draw(summary: dict, path: str) -> None:
    """Two panels: each win rate as a bar with its 95% interval, and games per length in turns."""
    check_writable(path)
    import matplotlib
    matplotlib.use("Agg")             # files only: no display needed
    import matplotlib.pyplot as plt

    labels, rates, below, above = _win_rates(summary)
    figure, (left, right) = plt.subplots(1, 2, figsize=(11, max(3.5, 0.4 * len(labels) + 1.5)))
    try:
        positions = list(range(len(labels)))
        left.barh(positions, rates, xerr=[below, above], capsize=4, color="tab:blue")
        left.set_yticks(positions, labels)
        left.invert_yaxis()
        left.set_xlim(0, 1)
        if summary["first_player"]["fair"] is not None:
            left.axvline(summary["first_player"]["fair"], color="grey", linestyle="--", label="fair share")
            left.legend(loc="lower right")
        left.set_xlabel("win rate (95% interval)")
        left.set_title(f"{summary['game']}: {counted(summary['completed'], 'game')}, "
                       f"{counted(summary['players'], 'player')}")
        histogram = summary["turns"]["histogram"]
        right.bar([length for length, _ in histogram], [count for _, count in histogram], width=1.0,
                  color="tab:green")
        right.set_xlabel("game length (turns)")
        right.set_ylabel("games")
        right.set_title("Game length")
        figure.tight_layout()
        figure.savefig(path)
    finally:
        plt.close(figure)


def _win_rates(summary: dict) -> tuple[list[str], list[float], list[float], list[float]]:
    """Seats, then teams, roles and agents (when several), with the distances to each interval's ends."""
    rates = dict(summary["win_rate"])
    rates.update({f"role {k}": v for k, v in summary["role_win_rate"].items()})
    if len(summary["agent_win_rate"]) > 1:
        rates.update({f"agent {k}": v for k, v in summary["agent_win_rate"].items()})
    seats = [player_label(s) for s in range(summary["players"])]
    order = seats + [k for k in rates if k not in seats]
    labels, values, below, above = [], [], [], []
    for label in order:
        rate = rates[label]
        if rate["rate"] is None:
            continue
        labels.append(label)
        values.append(rate["rate"])
        below.append(rate["rate"] - rate["low"])
        above.append(rate["high"] - rate["rate"])
    return labels, values, below, above
