"""How many processes a batch runs in, and how they leave Ctrl-C to the command that started them.

``--workers`` is a wish: more processes than CPUs only take turns on them,
and more than there are pieces of work only start, load the game and wait.
Forty workers for four games cost forty loads and nothing back, so every
pool (``simulate``, ``sweep``, ``test --coverage``) takes ``worker_count``.

A Ctrl-C at a terminal reaches every process of the foreground group. The
command stops the batch and says one line; a worker that took the signal
too would print its own traceback, so a pool starts inside ``quiet_workers``
and each worker's initializer begins with ``ignore_interrupt``.
"""
from __future__ import annotations

import contextlib
import os
import signal
import threading
from collections.abc import Iterator


def usable_cpus() -> int:
    """The CPUs this process may run on (its affinity, where the system tells it), at least one."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


def worker_count(asked: int, work: int) -> int:
    """The processes worth starting for ``work`` pieces of work when ``asked`` were asked for (at least one)."""
    return max(1, min(asked, usable_cpus(), work))


def ignore_interrupt() -> None:
    """A worker's first step: Ctrl-C is the parent's to handle."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


@contextlib.contextmanager
def quiet_workers() -> Iterator[None]:
    """Start a pool inside this: a Ctrl-C while its processes fork is only noted (they inherit that, so
    none prints a traceback before its initializer ignores the signal); the parent takes it as the block ends."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    noted: list[int] = []
    before = signal.signal(signal.SIGINT, lambda number, _frame: noted.append(number))
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, before)
    if noted and before is not signal.SIG_IGN:
        raise KeyboardInterrupt
