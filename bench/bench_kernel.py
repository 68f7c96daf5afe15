"""Benchmark: the bit-parallel Levenshtein kernel against ``rapidfuzz.process.cdist``, per pair.

On the lowercased description terms of an RF2 release (``bench/generate_snomed/``), for first terms
of a few lengths, times :func:`biosem.levenshtein.kernels.distances` and ``rapidfuzz.process.cdist`` (one
thread each, no cutoff) on the same block: 64 queries of one length against every term within 8
characters of it in length, the shape of one ring of the length-ordered scan. The distances must be
equal; the figure reported is the ratio of times (rapidfuzz / kernel). For query lengths over 32 it
also times :func:`biosem.levenshtein.kernels.screened_distances` with every pair passing the bag-distance
screen (all-zero histograms) at a limit of ``--band-limit`` edits, so that the blocks go to the banded
kernel: distances within the limit must equal rapidfuzz's and the others be ``PRUNED`` (or exact, in
blocks the band does not take: strings of up to 32 characters); the figure is the ratio of the plain
kernel's time to the banded one's. Last, it times :func:`biosem.levenshtein.kernels.screened_pairs` as the scan
calls it (real histograms, a limit of a quarter of the query length + 2) on the numba kernels and on
the compiled AVX-512 ones where the machine has them: the same rows, and the ratio of their times.

Usage::

    python -m bench.generate_snomed --out /tmp/snomed_scale
    python bench/bench_kernel.py --release /tmp/snomed_scale/Snapshot [--out bench/out/kernel.json]
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import numpy as np
from rapidfuzz import process
from rapidfuzz.distance import Levenshtein

from biosem.levenshtein.kernels import (
    BUCKETS,
    KERNEL,
    PRUNED,
    Alphabet,
    codepoints,
    distances,
    histograms,
    screened_distances,
    screened_pairs,
)
from biosem.terminology.rf2 import read_rf2

Encoded = tuple[np.ndarray, Alphabet, np.ndarray, np.ndarray]


def encode(pool: list[str]) -> Encoded:
    """(lengths, alphabet, symbol ids, starts) of the pool, encoded once for every term length."""
    codes, starts = codepoints(pool)
    alphabet = Alphabet(codes)
    return np.diff(starts), alphabet, alphabet.ids(codes), starts


def measure(
    pool: list[str], encoded: Encoded, qlen: int, n_queries: int, rng: np.random.Generator, band_limit: int
) -> dict[str, float]:
    """Kernel vs cdist for ``n_queries`` pool terms of length ``qlen`` against the length-sorted pool
    strings within 8 characters of ``qlen`` (``encoded`` is :func:`encode` of the pool), and for
    ``qlen`` over 32 the banded kernel at ``band_limit`` edits; raises AssertionError if any distance
    differs."""
    lengths, alphabet, symbols, starts = encoded
    lo = int(np.searchsorted(lengths, qlen - 8, side="left"))
    hi = int(np.searchsorted(lengths, qlen + 8, side="right"))
    same = [s for s in pool[lo:hi] if len(s) == qlen]
    queries = [str(s) for s in rng.choice(same, size=n_queries)]
    qsym = alphabet.ids(codepoints(queries)[0]).reshape(-1, qlen)
    distances(qsym[:1], symbols, starts, lo, lo + 1, alphabet.size)  # compile outside the timing
    t0 = time.perf_counter()
    got = distances(qsym, symbols, starts, lo, hi, alphabet.size)
    t_kernel = time.perf_counter() - t0
    t0 = time.perf_counter()
    want = process.cdist(queries, pool[lo:hi], scorer=Levenshtein.distance, dtype=np.int32, workers=1)
    t_cdist = time.perf_counter() - t0
    if not np.array_equal(got, want):
        raise AssertionError(f"kernel disagrees with rapidfuzz at query length {qlen}")
    pairs = got.size
    row: dict[str, float] = {
        "query_length": qlen,
        "pool_strings": hi - lo,
        "pairs": pairs,
        "kernel_ns_per_pair": round(t_kernel / pairs * 1e9, 1),
        "cdist_ns_per_pair": round(t_cdist / pairs * 1e9, 1),
        "ratio_cdist_over_kernel": round(t_cdist / t_kernel, 2),
    }
    if qlen > 32:
        # Zero histograms: every pair passes the bag-distance screen, so only the band limits the work.
        hist = np.zeros((BUCKETS, starts.size - 1), np.uint8)
        query_hist = np.zeros((n_queries, BUCKETS), np.uint8)
        limit = np.full(n_queries, band_limit, np.int64)
        screened_distances(qsym[:1], symbols, starts, lo, lo + 1, alphabet.size, hist, query_hist[:1], limit[:1])
        t0 = time.perf_counter()
        banded, _ = screened_distances(qsym, symbols, starts, lo, hi, alphabet.size, hist, query_hist, limit)
        t_band = time.perf_counter() - t0
        # Blocks of strings up to 32 characters (or that no band holds) are computed in full.
        within = want <= band_limit
        beyond = banded[~within]
        if (
            not np.array_equal(banded[within], want[within])
            or not ((beyond == PRUNED) | (beyond == want[~within])).all()
        ):
            raise AssertionError(f"banded kernel disagrees with rapidfuzz at query length {qlen}")
        row.update(
            {
                "band_limit": band_limit,
                "band_ns_per_pair": round(t_band / pairs * 1e9, 1),
                "ratio_kernel_over_band": round(t_kernel / t_band, 2),
            }
        )
    row.update(measure_screened(qsym, encoded, lo, hi, want))
    return row


def measure_screened(qsym: np.ndarray, encoded: Encoded, lo: int, hi: int, want: np.ndarray) -> dict[str, float]:
    """:func:`biosem.levenshtein.kernels.screened_pairs` as the scan calls it, on each kernel this machine
    has: the real histograms, a limit of a quarter of the query length plus the resume slack (the
    term pairs' bounds, README § Benchmarks); the rows must be exactly the pairs within the limit,
    with rapidfuzz's distances (``want``). Reports ns per pair of the length ring and the share of
    pairs computed."""
    _, alphabet, symbols, starts = encoded
    n_queries, qlen = qsym.shape
    hist = histograms(symbols, starts, alphabet)
    query_hist = np.ascontiguousarray(histograms(qsym.ravel(), np.arange(n_queries + 1) * qlen, alphabet).T)
    limit = np.full(n_queries, qlen // 4 + 2, np.int64)
    expected = set(zip(*np.nonzero(want <= limit[:, None])))
    row: dict[str, float] = {"screened_limit": int(limit[0])}
    times = {}
    for kernel in ["numba"] + (["avx512"] if KERNEL == "avx512" else []):
        screened_pairs(
            qsym[:1], symbols, starts, lo, lo + 1, alphabet.size, hist, query_hist[:1], limit[:1], kernel=kernel
        )  # compile outside the timing
        t0 = time.perf_counter()
        r, c, d, computed = screened_pairs(
            qsym, symbols, starts, lo, hi, alphabet.size, hist, query_hist, limit, kernel=kernel
        )
        times[kernel] = time.perf_counter() - t0
        if set(zip(r.tolist(), c.tolist())) != {(int(i), int(j)) for i, j in expected} or not np.array_equal(
            d, want[r, c]
        ):
            raise AssertionError(f"{kernel} screened pairs disagree with rapidfuzz at query length {qlen}")
        row[f"{kernel}_screened_ns_per_pair"] = round(times[kernel] / want.size * 1e9, 2)
        row["screened_share_computed"] = round(computed / want.size, 3)
    if "avx512" in times:
        row["ratio_numba_over_avx512"] = round(times["numba"] / times["avx512"], 2)
    return row


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--release", required=True, help="folder of the generated RF2 release")
    ap.add_argument("--lengths", type=int, nargs="+", default=[12, 20, 30, 38, 50, 60, 75, 100])
    ap.add_argument("--queries", type=int, default=64)
    ap.add_argument("--band-limit", type=int, default=20, help="limit of the banded measurement (edits)")
    ap.add_argument("--out", default="bench/out/kernel.json")
    args = ap.parse_args(argv)
    terms = read_rf2(args.release, "snomed_scale")["terms"].column("term").to_pylist()
    pool = sorted({t.lower() for t in terms}, key=lambda s: (len(s), s))
    rng = np.random.default_rng(0)
    encoded = encode(pool)
    rows = [measure(pool, encoded, qlen, args.queries, rng, args.band_limit) for qlen in args.lengths]
    for row in rows:
        print(json.dumps(row), flush=True)
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps({"release": args.release, "pool": len(pool), "rows": rows}, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
