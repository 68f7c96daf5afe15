"""Seeded random generators, one per (rule, dataset), independent of execution order."""

from __future__ import annotations

import zlib

import numpy as np


def generator(seed: int, *keys: str) -> np.random.Generator:
    """A ``numpy.random.Generator`` from the config seed and string keys (e.g. source, dataset).

    The keys are hashed with CRC-32 into a ``SeedSequence``, so each dataset's stream depends only on
    the seed and its own name: the same config gives the same output whatever runs in parallel.
    """
    entropy = [int(seed)] + [zlib.crc32(k.encode("utf-8")) for k in keys]
    return np.random.default_rng(np.random.SeedSequence(entropy))
