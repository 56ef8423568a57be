"""Where a game's random stream starts.

The engine draws from SplitMix64, whose whole state is one 64-bit int that
advances by a fixed step per draw. Starting it at ``seed * step`` (as it once
did) made seed s+1 replay seed s's numbers one draw later, so consecutive
seeds, which every batch of games uses, were one correlated stream. Here a seed
of any size is hashed to its starting state instead, so every seed starts at an
unrelated point of the 2**64 cycle.
"""
from __future__ import annotations

import hashlib

MASK64 = (1 << 64) - 1
JSON_SAFE = (1 << 53) - 1          # the largest whole number a JSON double holds exactly


#: BLAKE2b with the engine's personalisation, set up once: every hash starts from a copy of it.
_HASH = hashlib.blake2b(digest_size=8, person=b"rulelang-rng")


def _digest64(*parts: int) -> int:
    """A 64-bit hash of whole integers of any size or sign (their decimal texts joined by commas)."""
    text = ",".join(str(int(part)) for part in parts)
    return _hash_text(text)


def _hash_text(text: str) -> int:
    hashed = _HASH.copy()
    hashed.update(text.encode("ascii"))
    return int.from_bytes(hashed.digest(), "little")


def start_state(seed: int) -> int:
    """The RNG state a game with this seed starts from (``_digest64(seed)``, without its general join)."""
    return _hash_text(str(int(seed)))


def batch_seed(seed: int, index: int) -> int:
    """The seed of game ``index`` of a batch started with ``seed``.

    Every game of a batch gets its own stream, a function of (seed, index)
    only, so a batch gives the same games however it is split between
    processes. The same hash derives a seat's agent seed from a game seed.
    Seeds are kept below 2**53 so that every JSON reader (JavaScript, jq)
    keeps a failed game's seed exactly; the stream still starts from a
    64-bit hash of it.
    """
    return _digest64(seed, index) & JSON_SAFE
