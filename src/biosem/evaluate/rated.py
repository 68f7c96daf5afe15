"""Rated word pairs (SimLex-999, SimVerb-3500, Bio-SimLex, Bio-SimVerb, UMNSRS, MayoSRS, ...).

The model's similarity of a pair is the cosine of its two items' vectors (a multi-word item is the
mean of its words' vectors); the score is Spearman's rho between model and human ratings, tied
values given their average rank (scipy). As in wvlib's ``evalrank.py`` (the Bio-SimLex/Bio-SimVerb
evaluation code), a pair with an out-of-vocabulary item is skipped by default (``oov_policy:
skip``); ``oov_policy: mean`` instead gives every unknown item the mean of all the model's vectors,
so every pair is scored. Coverage (the fraction of pairs whose two items the model knows) is always
reported, with a BCa bootstrap 95% interval of rho (``scipy.stats.bootstrap``).

Frequency bands (Chiu et al. 2018, Bio-SimLex/Bio-SimVerb, Figures 1-2): the subset of pairs whose
two items fall in the same corpus-frequency band ``[lo, hi)`` of configured edges; an item's
frequency is its count in the frequency corpus (``evaluate.rated.frequency_corpus``: the training
corpora by default, whichever model is scored; the smallest count of its words for a multi-word item).
Band rows name that corpus in their ``corpus`` column.
"""

from __future__ import annotations

import itertools
import logging
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from biosem.evaluate.models import Representation, rowwise_cosine, tokenize
from biosem.evaluate.results import result_row
from biosem.evaluate.stats import spearman, spearman_ci

log = logging.getLogger(__name__)

OOV_POLICIES = ("skip", "mean")
METRIC = "cosine:spearman"


@dataclass(frozen=True)
class RatedParams:
    """How rated pairs are scored (config ``evaluate.rated``)."""

    oov_policy: str = "skip"
    require_all_words: bool = True
    n_resamples: int = 2000
    confidence_level: float = 0.95
    frequency_bands: tuple[int, ...] = (1, 10, 100, 1000)
    min_band_pairs: int = 10
    frequency_corpus: str = "training"


def score_pairs(
    pairs: pd.DataFrame, model: Representation, oov_policy: str = "skip", require_all_words: bool = True
) -> pd.DataFrame:
    """Cosine of each pair under ``model``.

    Args:
        pairs: columns ``word1, word2, score`` (human rating, any scale).
        model: a representation (:mod:`biosem.evaluate.models`).
        oov_policy: ``skip`` (uncovered pairs get NaN cosine) or ``mean`` (unknown items take the
            model's mean vector).
        require_all_words: a multi-word item needs all its words known (else: any one).

    Returns:
        ``pairs`` with ``cosine`` (float64, NaN when skipped) and ``covered`` (both items known).

    Raises:
        ValueError: unknown ``oov_policy``.
    """
    if oov_policy not in OOV_POLICIES:
        raise ValueError(f"unknown oov_policy {oov_policy!r}; expected one of {OOV_POLICIES}")
    items = sorted(set(pairs["word1"]) | set(pairs["word2"]))
    vectors, covered = model.phrase_vectors(items, require_all=require_all_words)
    if oov_policy == "mean" and not covered.all():
        if not hasattr(model, "mean_vector"):
            raise ValueError(f"oov_policy 'mean' needs word vectors; {model.name} has none")
        vectors = vectors.copy()
        vectors[~covered] = model.mean_vector()
    index = {item: i for i, item in enumerate(items)}
    i1 = pairs["word1"].map(index).to_numpy(dtype=np.int64)
    i2 = pairs["word2"].map(index).to_numpy(dtype=np.int64)
    out = pairs.copy()
    out["covered"] = covered[i1] & covered[i2]
    cos = rowwise_cosine(vectors[i1], vectors[i2])
    if oov_policy == "skip":
        cos = np.where(out["covered"].to_numpy(), cos, np.nan)
    out["cosine"] = cos
    return out


def item_frequency(items: Sequence[str], token_counts: Mapping[str, int]) -> np.ndarray:
    """Corpus frequency of each item: its token count, or the smallest of its words' (int64)."""
    out = np.zeros(len(items), dtype=np.int64)
    for i, item in enumerate(items):
        toks = tokenize(item)
        out[i] = min((int(token_counts.get(t, 0)) for t in toks), default=0)
    return out


def band_labels(edges: Sequence[int]) -> list[str]:
    """``band:<lo>-<hi>`` for each half-open band ``[lo, hi)``; the last is ``band:<lo>+``."""
    labels = [f"band:{lo}-{hi}" for lo, hi in itertools.pairwise(edges)]
    return labels + [f"band:{edges[-1]}+"]


def pair_bands(pairs: pd.DataFrame, token_counts: Mapping[str, int], edges: Sequence[int]) -> pd.Series:
    """The band label of each pair whose two items fall in the same band; None otherwise."""
    edges = list(edges)
    if sorted(edges) != edges or len(set(edges)) != len(edges) or not edges or edges[0] < 1:
        raise ValueError(f"frequency band edges must be increasing integers >= 1, got {edges}")
    labels = band_labels(edges)
    f1 = item_frequency(list(pairs["word1"]), token_counts)
    f2 = item_frequency(list(pairs["word2"]), token_counts)
    b1 = np.searchsorted(edges, f1, side="right") - 1  # -1: below the first edge (or unseen)
    b2 = np.searchsorted(edges, f2, side="right") - 1
    same = (b1 == b2) & (b1 >= 0)
    return pd.Series([labels[b] if s else None for b, s in zip(b1, same)], index=pairs.index, dtype=object)


def evaluate_scored(
    scored: pd.DataFrame, rng: np.random.Generator, n_resamples: int, confidence_level: float
) -> dict[str, Any]:
    """Spearman, its CI, n and coverage of scored pairs (output of :func:`score_pairs`)."""
    usable = scored[scored["cosine"].notna()]
    rho = spearman(usable["score"].to_numpy(), usable["cosine"].to_numpy())
    low, high = spearman_ci(usable["score"].to_numpy(), usable["cosine"].to_numpy(), rng, n_resamples, confidence_level)
    coverage = float(scored["covered"].mean()) if len(scored) else float("nan")
    return {"value": rho, "n": len(usable), "coverage": coverage, "ci_low": low, "ci_high": high}


def evaluate_rated_dataset(
    model: Representation,
    dataset: str,
    pairs: pd.DataFrame,
    params: RatedParams,
    rng_for: Callable[[str], np.random.Generator],
    token_counts: Mapping[str, int] | None = None,
    band_corpus: str | None = None,
) -> list[dict[str, object]]:
    """Result rows (:func:`biosem.evaluate.results.result_row`) of one model on one rated dataset.

    Subsets: ``all``, and one per frequency band with at least ``min_band_pairs`` scored pairs when
    ``token_counts`` (token -> count in the corpus named ``band_corpus``) is given; band rows carry
    ``corpus = band_corpus``. ``rng_for(subset)`` gives the bootstrap generator of a subset.

    Raises:
        ValueError: ``token_counts`` given without ``band_corpus``.
    """
    if token_counts is not None and not band_corpus:
        raise ValueError("frequency bands need the name of the corpus their token counts come from")
    scored = score_pairs(pairs, model, params.oov_policy, params.require_all_words)
    rows = []
    stats = evaluate_scored(scored, rng_for("all"), params.n_resamples, params.confidence_level)
    rows.append(result_row(model.name, dataset, "all", METRIC, **stats))
    log.info(
        "%s on %s: rho %.4f on %d of %d pairs (coverage %.3f, OOV policy %s)",
        model.name,
        dataset,
        stats["value"],
        stats["n"],
        len(pairs),
        stats["coverage"],
        params.oov_policy,
    )
    if token_counts is not None and params.frequency_bands:
        bands = pair_bands(scored, token_counts, params.frequency_bands)
        for label in band_labels(params.frequency_bands):
            sub = scored[bands == label]
            usable = int(sub["cosine"].notna().sum())
            if usable < params.min_band_pairs:
                log.info(
                    "%s %s: %d scored pairs (< %d), band not scored", dataset, label, usable, params.min_band_pairs
                )
                continue
            s = evaluate_scored(sub, rng_for(label), params.n_resamples, params.confidence_level)
            rows.append(result_row(model.name, dataset, label, METRIC, **s, corpus=band_corpus))
            log.info("%s %s: rho %.4f on %d pairs", dataset, label, s["value"], s["n"])
    return rows


def evaluate_rated_datasets(
    model: Representation,
    datasets: Mapping[str, pd.DataFrame],
    params: RatedParams,
    seed: int,
    token_counts: Mapping[str, int] | None = None,
    band_corpus: str | None = None,
) -> list[dict[str, object]]:
    """Result rows of one model on every rated dataset (name -> pairs), datasets in name order
    (:func:`evaluate_rated_dataset`).

    Bootstrap generators are seeded from (seed, "evaluate", "rated", model, dataset, subset).
    """
    from biosem.seeds import generator

    def rng_for(dataset: str) -> Callable[[str], np.random.Generator]:
        return lambda subset: generator(seed, "evaluate", "rated", model.name, dataset, subset)

    rows: list[dict[str, object]] = []
    for name in sorted(datasets):
        rows += evaluate_rated_dataset(model, name, datasets[name], params, rng_for(name), token_counts, band_corpus)
    return rows
