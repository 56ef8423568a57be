"""A wall-time limit for code that must never hang."""
from __future__ import annotations

import signal
from collections.abc import Iterator
from contextlib import contextmanager

LIMIT_SECONDS = 20      # wall time that means a hang, not a slow machine (tests share a busy host)


@contextmanager
def time_limit(seconds: float = LIMIT_SECONDS) -> Iterator[None]:
    """Fail (instead of hanging) when the body runs longer than ``seconds``."""
    def expired(signum, frame):
        raise TimeoutError(f"took longer than {seconds}s: a hang?")
    previous = signal.signal(signal.SIGALRM, expired)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
