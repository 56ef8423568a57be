"""Where a game's random stream starts, and its numbers worked out many at a time.

The engine draws from SplitMix64, whose whole state is one 64-bit int that
advances by a fixed step per draw. Starting it at ``seed * step`` (as it once
did) made seed s+1 replay seed s's numbers one draw later, so consecutive
seeds, which every batch of games uses, were one correlated stream. Here a seed
of any size is hashed to its starting state instead, so every seed starts at an
unrelated point of the 2**64 cycle. ``outputs`` gives the numbers ahead of a
state in one go, for games that draw many (State.randbelow).
"""
from __future__ import annotations

import functools
import hashlib
import sys
from array import array

MASK64 = (1 << 64) - 1
#: SplitMix64's constants: the step its state advances by, and the two multipliers of its output mix.
STEP, MIX1, MIX2 = 0x9E3779B97F4A7C15, 0xBF58476D1CE4E5B9, 0x94D049BB133111EB
JSON_SAFE = (1 << 53) - 1          # the largest whole number a JSON double holds exactly
_BIG_ENDIAN = sys.byteorder == "big"   # words read from bytes are swapped to their little-endian value there


#: BLAKE2b with the engine's personalisation, set up once: every hash starts from a copy of it.
_HASH = hashlib.blake2b(digest_size=8, person=b"rulelang-rng")


def _hash_text(text: str) -> int:
    """A 64-bit hash of a text: of whole numbers, their decimal texts joined by commas (``f"{seed},{index}"``)."""
    hashed = _HASH.copy()
    hashed.update(text.encode("ascii"))
    return int.from_bytes(hashed.digest(), "little")


def start_state(seed: int) -> int:
    """The RNG state a game with this seed starts from: the hash of the seed's decimal text."""
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
    return _hash_text(f"{int(seed)},{int(index)}") & JSON_SAFE


#: BLAKE2b for the streams of agents, with a personalisation of its own: no agent's stream is a game's.
_BLOCKS = hashlib.blake2b(digest_size=64, person=b"rulelang-agent")


def stream_block(seed: int, block: int) -> list[int]:
    """Block ``block`` of the stream keyed by ``seed``: eight 64-bit numbers, the last first (``pop()`` gives the next).

    An agent draws a handful of numbers a game, and a batch seeds four agents a game. Seeding a Mersenne
    Twister costs about 4 µs; one hash gives a block of eight numbers in under 1 µs. Each block is the
    hash of its seed and its index (counter mode), so a stream needs no state but where it is.
    """
    hashed = _BLOCKS.copy()
    hashed.update(b"%d,%d" % (seed, block))
    words = array("Q", hashed.digest())
    if _BIG_ENDIAN:
        words.byteswap()
    out = words.tolist()
    out.reverse()
    return out


def outputs(state: int, count: int) -> list[int]:
    """The next ``count`` raw outputs of SplitMix64 from ``state``, the last first (``pop()`` gives the next).

    One draw at a time, SplitMix64 costs a dozen Python operations on big ints. Here the ``count`` states
    ahead are packed into one int, 128 bits each (a lane's product of two 64-bit numbers never reaches the
    next lane), so each operation is done once for all of them, in C, and the lanes are read back as
    64-bit words. The numbers are the ones a draw at a time gives (tests/engine/test_seeds.py holds them to it).
    """
    ones, lanes_mask, ramp, size = _lanes(count)
    x = (state * ones + ramp) & lanes_mask
    x = ((x ^ (x >> 30)) & lanes_mask) * MIX1 & lanes_mask
    x = ((x ^ (x >> 27)) & lanes_mask) * MIX2 & lanes_mask
    x = (x ^ (x >> 31)) & lanes_mask
    words = array("Q")                  # 8 bytes wherever CPython runs (an unsigned long long)
    words.frombytes(x.to_bytes(size, "little"))
    if _BIG_ENDIAN:
        words.byteswap()
    out = words[::2].tolist()
    out.reverse()
    return out


@functools.lru_cache(maxsize=8)
def _lanes(count: int) -> tuple[int, int, int, int]:
    """(a one in every lane, the low 64 bits of every lane, the k-th step in lane k, the size in bytes)."""
    ones = sum(1 << (128 * k) for k in range(count))
    ramp = sum(((k + 1) * STEP) << (128 * k) for k in range(count))
    return ones, MASK64 * ones, ramp, 16 * count


def draw_below(state: int, n: int) -> tuple[int, int]:
    """One draw from ``state``: the state it moves on to, and a number below ``n`` (``State.randbelow``'s own,
    which keeps this arithmetic inline on its hot path)."""
    state = (state + STEP) & MASK64
    x = ((state ^ (state >> 30)) * MIX1) & MASK64
    x = ((x ^ (x >> 27)) * MIX2) & MASK64
    return state, ((x ^ (x >> 31)) * n) >> 64
