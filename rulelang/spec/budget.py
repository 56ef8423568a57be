"""The limits that hold for a whole spec (all its files together) and what its files have used of them so far.

Its own module, below both YAML readers: the composer counts values and aliases against the budget as it goes,
the file reader counts bytes and lines, the loader and the mods share one budget for every file they read.
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Limits:
    """Limits for a whole spec (all its files together), so that no input makes loading slow or huge."""

    bytes: int
    lines: int
    values: int         # mapping keys count; aliases expanded
    aliases: int
    depth: int          # nesting of lists and mappings


@dataclass
class Budget:
    """What a spec's files have used so far of the limits that hold for all of them together."""

    limits: Limits
    bytes: int = 0
    lines: int = 0
    values: int = 0
    aliases: int = 0
    spent: bool = False     # a limit was reached: read no more files

    def bytes_left(self) -> int:
        return max(self.limits.bytes - self.bytes, 0)
