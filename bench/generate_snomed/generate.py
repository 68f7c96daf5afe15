"""The generator's entry point: :func:`generate_rf2`, and the string statistics it reports.

:func:`generate_rf2` loads the vocabulary of the source mirror (:mod:`.vocabulary`), draws the release
(:func:`.concepts.build_tables`) and writes its RF2 files (:func:`.writer.write_release`). With
``verbose`` it prints the row counts and the statistics the generator is calibrated on
(:func:`term_statistics`: FSN name lengths, FSN-SYN and association Levenshtein distances; optionally
:func:`nearest_neighbour_sample`: the distance from sampled FSNs to the nearest term of another
concept).
"""

from __future__ import annotations

import os
import re
import time
from collections import defaultdict
from pathlib import Path

import numpy as np

from .concepts import Tables, build_tables, log_progress
from .rf2 import FIXED_CONCEPTS, MODEL_MODULE
from .vocabulary import default_data_dir, load_vocabulary
from .writer import write_release

DEFAULT_CONCEPTS = 360_000

_MARKER_RE = re.compile(r"^\s*\[D\]\s*|\s*\[D\]\s*$")


def _strip_fsn(fsn: str) -> str:
    name = fsn.rsplit(" (", 1)[0] if fsn.endswith(")") else fsn
    return _MARKER_RE.sub("", name)


def term_statistics(tb: Tables) -> dict[str, float]:
    """String statistics of the release (FSN lengths; FSN-SYN Levenshtein as termpairs computes)."""
    n_fixed = len(FIXED_CONCEPTS)
    fsn_of: dict[int, str] = {}
    syns: dict[int, list[str]] = defaultdict(list)
    for c, term, fsn, act in zip(tb.d_concept, tb.d_term, tb.d_fsn, tb.d_active):
        if c < n_fixed or not act or not tb.c_active[c] or tb.c_module[c] == MODEL_MODULE:
            continue
        if fsn:
            fsn_of[c] = _strip_fsn(term)
        else:
            syns[c].append(term)
    lengths = np.array([len(v) for v in fsn_of.values()], dtype=np.float64)
    multi = np.mean([" " in v for v in fsn_of.values()])
    stats: dict[str, float] = {
        "fsn_name_mean_length": float(lengths.mean()),
        "fsn_name_min_length": float(lengths.min()),
        "fsn_name_max_length": float(lengths.max()),
        "fsn_name_multiword_share": float(multi),
    }
    pairs_a: list[str] = []
    pairs_b: list[str] = []
    for c, name in fsn_of.items():
        low = name.lower()
        done = {low}
        for s in syns.get(c, ()):
            sl = s.lower()
            if sl in done:
                continue
            done.add(sl)
            pairs_a.append(low)
            pairs_b.append(sl)
    stats["fsn_syn_pairs"] = float(len(pairs_a))
    try:
        from rapidfuzz.distance import Levenshtein
    except ImportError:  # pragma: no cover - the statistics are optional
        return stats
    d = np.array([Levenshtein.distance(a, b) for a, b in zip(pairs_a, pairs_b)], dtype=np.float64)
    stats["fsn_syn_levenshtein_mean"] = float(d.mean()) if len(d) else float("nan")
    stats["fsn_syn_easy_share"] = float((d <= 5).mean()) if len(d) else float("nan")
    by_kind: dict[str, list[int]] = defaultdict(list)
    for src, dst, kind in zip(tb.a_src, tb.a_dst, tb.a_kind):
        a = _strip_fsn(f"{tb.c_name[src]} (x)").lower()
        b = _strip_fsn(f"{tb.c_name[dst]} (x)").lower()
        if a != b:
            by_kind[kind].append(Levenshtein.distance(a, b))
    for k, v in sorted(by_kind.items()):
        stats[f"{k}_levenshtein_mean"] = float(np.mean(v))
        stats[f"{k}_easy_share"] = float(np.mean(np.array(v) <= 5))
    return stats


def nearest_neighbour_sample(tb: Tables, n_queries: int, seed: int) -> dict[str, float]:
    """Mean distance from sampled FSN names to the nearest term of *another* concept (rapidfuzz)."""
    from rapidfuzz import process
    from rapidfuzz.distance import Levenshtein

    n_fixed = len(FIXED_CONCEPTS)
    terms: list[str] = []
    owner: list[int] = []
    fsn_pos: list[int] = []
    for c, term, fsn, act in zip(tb.d_concept, tb.d_term, tb.d_fsn, tb.d_active):
        if c < n_fixed or not act or not tb.c_active[c] or tb.c_module[c] == MODEL_MODULE:
            continue
        if fsn:
            fsn_pos.append(len(terms))
            term = _strip_fsn(term)
        terms.append(term.lower())
        owner.append(c)
    own = np.array(owner)
    rng = np.random.default_rng([seed, 2])
    qs = rng.choice(np.array(fsn_pos), size=min(n_queries, len(fsn_pos)), replace=False)
    nn = np.empty(len(qs), dtype=np.int64)
    for start in range(0, len(qs), 32):
        block = qs[start : start + 32]
        dist = process.cdist([terms[q] for q in block], terms, scorer=Levenshtein.distance, dtype=np.int32, workers=-1)
        for row, q in enumerate(block):
            dist[row, own == own[q]] = np.iinfo(np.int32).max
        nn[start : start + len(block)] = dist.min(axis=1)
    return {
        "nn_queries": float(len(qs)),
        "nn_levenshtein_mean": float(nn.mean()),
        "nn_levenshtein_median": float(np.median(nn)),
        "nn_share_le_5": float((nn <= 5).mean()),
    }


def generate_rf2(
    out_dir: str | os.PathLike[str],
    n_concepts: int = DEFAULT_CONCEPTS,
    seed: int = 0,
    *,
    data_dir: str | os.PathLike[str] | None = None,
    verbose: bool = False,
    nn_sample: int = 0,
) -> dict[str, int]:
    """Write a synthetic RF2 Snapshot release of ``n_concepts`` concepts under ``out_dir``/Snapshot and
    return the row counts by kind. The same ``n_concepts``, ``seed`` and source mirror (``data_dir``,
    default :func:`.vocabulary.default_data_dir`) give byte-identical files."""
    t0 = time.perf_counter()
    voc = load_vocabulary(str(Path(data_dir) if data_dir else default_data_dir()))
    log_progress(verbose, t0, "vocabulary: " + ", ".join(f"{k}={v:,}" for k, v in voc.sources.items()))
    tb = build_tables(int(n_concepts), int(seed), voc, verbose, t0)
    counts = write_release(tb, Path(out_dir), int(seed), voc)
    log_progress(verbose, t0, f"wrote {Path(out_dir) / 'Snapshot'}")
    if verbose:
        for k, v in counts.items():
            print(f"{k:40s} {v:>12,}")
        stats = term_statistics(tb)
        if nn_sample:
            stats.update(nearest_neighbour_sample(tb, nn_sample, seed))
        for key, value in stats.items():
            print(f"{key:40s} {value:>12.3f}" if not float(value).is_integer() else f"{key:40s} {int(value):>12,}")
        log_progress(verbose, t0, "done")
    return counts
