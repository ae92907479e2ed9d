"""Seeded randomness without a random generator: every draw is a hash of (seed, stream, ...).

A random agent or the referee draws `mix64(seed, ...) % k`, so the same seed makes the same
draw whatever the order, or the process, in which games are played."""

from __future__ import annotations

_MASK = (1 << 64) - 1


def mix64(*values: int) -> int:
    """A 64-bit hash of a sequence of integers (SplitMix64 steps): uniform enough that
    `mix64(...) % k` is a fair draw for any k far below 2**64, and the same on every machine."""
    state = 0x9E3779B97F4A7C15
    for v in values:
        state = (state ^ (int(v) & _MASK)) * 0xBF58476D1CE4E5B9 & _MASK
        state = (state ^ (state >> 27)) * 0x94D049BB133111EB & _MASK
        state ^= state >> 31
        state = (state + 0x9E3779B97F4A7C15) & _MASK
    return state
