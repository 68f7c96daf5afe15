"""Word-in-context baselines on BioWiC-style splits (Rouhizadeh et al., Scientific Data 2024).

An instance is two sentences with a target span each (``start``/``end`` character offsets) and a
label (1: the two targets denote the same concept). Baselines:

* **random**: a seeded fair coin per instance (the paper's random baseline, accuracy about 0.50);
* **context cosine**: each target's context vector is the mean word vector of up to ``window``
  words left and right of the target (the target's own words excluded, so identical strings do
  not decide); label 1 when the cosine of the two context vectors is at least a threshold, the
  accuracy-maximising threshold on the dev split (:func:`biosem.evaluate.stats.best_threshold`).
  Instances without any known context word take the dev split's majority label.

Accuracy is reported per group (``cat``: identity, abbreviation, synonym, label similarity) and
overall, with BCa bootstrap intervals.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

import numpy as np
import pandas as pd

from biosem.evaluate.models import TOKEN_PATTERN, Representation, rowwise_cosine
from biosem.evaluate.results import result_row
from biosem.evaluate.stats import best_threshold, mean_ci

log = logging.getLogger(__name__)

METRIC_COSINE = "context_cosine"
METRIC_RANDOM = "random"


def context_window(sentence: str, start: int, end: int, window: int) -> list[str]:
    """Up to ``window`` words before and after ``sentence[start:end]`` (words overlapping the
    target excluded), in sentence order; words as in :data:`TOKEN_PATTERN` (case kept)."""
    left: list[str] = []
    right: list[str] = []
    for match in TOKEN_PATTERN.finditer(sentence):
        if match.end() <= start:
            left.append(match.group())
        elif match.start() >= end:
            right.append(match.group())
            if len(right) >= window:
                break
    return left[-window:] + right if window > 0 else []


def context_strings(frame: pd.DataFrame, window: int) -> tuple[list[str], list[str]]:
    """Per instance, the context words of each target (:func:`context_window`) joined by single spaces: the
    phrases whose vectors :func:`context_cosines` compares. ``frame``: columns ``sentence1, start1, end1,
    sentence2, start2, end2``."""
    ctx1 = [
        " ".join(context_window(s, int(a), int(b), window))
        for s, a, b in zip(frame["sentence1"], frame["start1"], frame["end1"])
    ]
    ctx2 = [
        " ".join(context_window(s, int(a), int(b), window))
        for s, a, b in zip(frame["sentence2"], frame["start2"], frame["end2"])
    ]
    return ctx1, ctx2


def context_cosines(model: Representation, frame: pd.DataFrame, window: int) -> tuple[np.ndarray, np.ndarray]:
    """Cosine of the two targets' context vectors per instance, and coverage (float64, bool).

    ``frame``: columns ``sentence1, start1, end1, sentence2, start2, end2``. Uncovered: a side
    with no known context word (NaN cosine).
    """
    ctx1, ctx2 = context_strings(frame, window)
    v1, c1 = model.phrase_vectors(ctx1, require_all=False)
    v2, c2 = model.phrase_vectors(ctx2, require_all=False)
    covered = c1 & c2
    return np.where(covered, rowwise_cosine(v1, v2), np.nan), covered


def _accuracy_rows(
    model: str,
    dataset: str,
    metric: str,
    frame: pd.DataFrame,
    correct: np.ndarray,
    coverage: np.ndarray,
    rng_for: Callable[[str], np.random.Generator],
    n_resamples: int,
    confidence_level: float,
) -> list[dict[str, object]]:
    rows = []
    groups = [("all", np.ones(len(frame), dtype=bool))]
    groups += [(str(cat), (frame["cat"] == cat).to_numpy()) for cat in sorted(frame["cat"].unique())]
    for name, sel in groups:
        if not sel.any():
            continue
        low, high = mean_ci(correct[sel], rng_for(f"{dataset}/{name}"), n_resamples, confidence_level)
        rows.append(
            result_row(
                model,
                dataset,
                name,
                f"{metric}:accuracy",
                float(correct[sel].mean()),
                int(sel.sum()),
                float(coverage[sel].mean()),
                low,
                high,
            )
        )
    return rows


def evaluate_context_cosine(
    model: Representation,
    dev: pd.DataFrame,
    test: pd.DataFrame,
    window: int,
    rng_for: Callable[[str], np.random.Generator],
    n_resamples: int = 1000,
    confidence_level: float = 0.95,
) -> list[dict[str, object]]:
    """Threshold-on-cosine baseline: tune on ``dev``, report accuracy on ``dev`` and ``test``.

    Rows: ``wic/dev`` subset ``all`` metric ``context_cosine:threshold`` (value = threshold, n =
    covered dev instances), and ``context_cosine:accuracy`` per group and ``all`` on ``wic/dev``
    and ``wic/test``.

    Raises:
        ValueError: the dev split has no covered instance (nothing to tune on).
    """
    dev_cos, dev_cov = context_cosines(model, dev, window)
    dev_labels = dev["label"].to_numpy(dtype=np.int64)
    if not dev_cov.any():
        raise ValueError(f"{model.name}: no dev instance has a known context word; cannot tune a threshold")
    th = best_threshold(dev_labels[dev_cov], dev_cos[dev_cov])
    majority = int(dev_labels.mean() >= 0.5)
    log.info(
        "%s WiC: threshold %.4f (dev accuracy %.4f on %d covered; fallback label %d)",
        model.name,
        th.threshold,
        th.accuracy,
        th.n,
        majority,
    )
    rows = [
        result_row(
            model.name, "wic/dev", "all", f"{METRIC_COSINE}:threshold", th.threshold, th.n, float(dev_cov.mean())
        )
    ]
    for split, frame, cos, cov in (
        ("dev", dev, dev_cos, dev_cov),
        ("test", test, *context_cosines(model, test, window)),
    ):
        predicted = np.where(cov, (np.nan_to_num(cos, nan=-np.inf) >= th.threshold).astype(np.int64), majority)
        correct = predicted == frame["label"].to_numpy(dtype=np.int64)
        rows += _accuracy_rows(
            model.name, f"wic/{split}", METRIC_COSINE, frame, correct, cov, rng_for, n_resamples, confidence_level
        )
        log.info(
            "%s WiC %s: accuracy %.4f (coverage %.3f)",
            model.name,
            split,
            correct.mean() if len(correct) else float("nan"),
            cov.mean() if len(cov) else float("nan"),
        )
    return rows


def evaluate_random(
    splits: dict[str, pd.DataFrame],
    rng_for: Callable[[str], np.random.Generator],
    n_resamples: int = 1000,
    confidence_level: float = 0.95,
) -> list[dict[str, object]]:
    """The random baseline (model ``random``): a seeded coin flip per instance, per split."""
    rows = []
    for split in sorted(splits):
        frame = splits[split]
        guess = rng_for(f"guess/{split}").integers(0, 2, size=len(frame))
        correct = guess == frame["label"].to_numpy(dtype=np.int64)
        rows += _accuracy_rows(
            "random",
            f"wic/{split}",
            METRIC_RANDOM,
            frame,
            correct,
            np.ones(len(frame)),
            rng_for,
            n_resamples,
            confidence_level,
        )
    return rows
