"""Validity checks: what a reviewer measures before accepting a benchmark, in one table per family.

Each family writes ``validity.tsv`` beside its ``counts.tsv`` (docs/design.md § Validity; issue 37):
one row per dataset × stratum × check, with the measured value, the condition it must meet, and
``pass`` or ``flag``. The generic checks live here; each family adds its own (term-pair associations,
WiC leakage, simlex part of speech, analogy abbreviation counts) with :func:`check`.

Columns (:data:`COLUMNS`):

* ``dataset``: the dataset's name in its family (``fsn_syn_hard_levenshtein``, ``test``, ``verbs``).
* ``stratum``: a part of it (a WiC group, a label, a simlex quarter), or empty for the whole dataset.
* ``check``: the check's name (:data:`CHECKS` describes the generic ones).
* ``value``: the measured value (shares and AUCs in [0, 1], counts as integers).
* ``threshold``: the condition a passing value meets, e.g. ``<= 0.55``, ``< 0.95``, ``== 0``; empty
  for a measurement reported without a condition.
* ``status``: ``pass``, ``flag`` (the condition fails, or the value is undefined, e.g. an AUC over one
  label) or ``info`` (no condition).
* ``detail``: counts behind the value and a few examples, for the reader of the report and the card.
"""

from __future__ import annotations

import math
import operator
import os
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from biosem.io import write_text
from biosem.surface import IDENTICAL, SurfaceNormaliser, default_normaliser

COLUMNS = ("dataset", "stratum", "check", "value", "threshold", "status", "detail")
"""Columns of ``validity.tsv``."""

PASS, FLAG, INFO = "pass", "flag", "info"

MAJORITY_MAX = 0.55
"""Majority-class accuracy above which a binary dataset (or stratum) is flagged as unbalanced."""

STRING_BASELINE_MAX = 0.95
"""A string baseline reaching this AUC (or accuracy) flags the dataset "solvable by string matching"."""

CHECKS: dict[str, str] = {
    "label_balance": "share of the minority label",
    "majority_class_accuracy": "accuracy of always answering the more frequent label",
    "exact_match_auc": "AUC of 'same surface key' (biosem.surface) as the score of label 1",
    "exact_match_accuracy": "accuracy of answering 1 exactly when the surface keys are equal",
    "levenshtein_ratio_auc": "AUC of the Levenshtein ratio (rapidfuzz, 0-1) as the score of label 1",
    "levenshtein_ratio_accuracy": "accuracy of the Levenshtein ratio at its best threshold",
    "char3_jaccard_auc": "AUC of the character 3-gram Jaccard similarity as the score of label 1",
    "char3_jaccard_accuracy": "accuracy of the 3-gram Jaccard similarity at its best threshold",
    "surface_variant_negatives": "label-0 pairs whose two strings are one term written differently",
    "surface_variant_pairs": "pairs whose two strings are one term written differently",
    "duplicate_pairs": "pairs that repeat another pair of the dataset (unordered)",
}
"""The generic checks and what their value measures (families document their own in docs/design.md)."""

_OPERATORS: dict[str, Callable[[float, float], bool]] = {
    "<=": operator.le,
    ">=": operator.ge,
    "==": operator.eq,
    "<": operator.lt,
    ">": operator.gt,
}


@dataclass(frozen=True)
class Check:
    """One row of ``validity.tsv`` (see the module docstring for the fields)."""

    dataset: str
    check: str
    value: float
    threshold: str = ""
    stratum: str = ""
    detail: str = ""

    @property
    def status(self) -> str:
        """``pass`` / ``flag`` against :attr:`threshold`; ``info`` without one; ``flag`` for NaN."""
        if not self.threshold:
            return INFO
        if self.value is None or (isinstance(self.value, float) and math.isnan(self.value)):
            return FLAG
        op, bound = parse_threshold(self.threshold)
        return PASS if op(float(self.value), bound) else FLAG

    def row(self) -> dict[str, object]:
        return {
            "dataset": self.dataset,
            "stratum": self.stratum,
            "check": self.check,
            "value": self.value,
            "threshold": self.threshold,
            "status": self.status,
            "detail": self.detail,
        }


def parse_threshold(threshold: str) -> tuple[Callable[[float, float], bool], float]:
    """``"<= 0.55"`` -> (``operator.le``, 0.55).

    Raises:
        ValueError: not an operator among ``<= >= == < >`` followed by a number.
    """
    parts = threshold.split()
    if len(parts) != 2 or parts[0] not in _OPERATORS:
        raise ValueError(
            f"a validity threshold is '<op> <number>' with op one of {' '.join(_OPERATORS)}; got {threshold!r}"
        )
    return _OPERATORS[parts[0]], float(parts[1])


def check(dataset: str, name: str, value: float, threshold: str = "", stratum: str = "", detail: str = "") -> Check:
    """One check; ``threshold`` is the pass condition (``"<= 0.55"``), empty for a reported value.

    Raises:
        ValueError: a malformed ``threshold`` (:func:`parse_threshold`).
    """
    if threshold:
        parse_threshold(threshold)
    return Check(dataset=dataset, check=name, value=value, threshold=threshold, stratum=stratum, detail=detail)


# --- label balance -----------------------------------------------------------------------------


def label_checks(labels: Sequence[int] | np.ndarray, dataset: str, stratum: str = "") -> list[Check]:
    """Label balance (minority share, pass ``>= 0.45``) and majority-class accuracy (pass ``<= 0.55``)
    of binary labels; an empty or one-label set is flagged (its minority share is 0).

    Args:
        labels: 0/1 labels of the dataset or stratum.
    """
    values = np.asarray(labels, dtype=np.int64)
    n = len(values)
    ones = int(values.sum())
    counts = f"n={n}; label 1: {ones}; label 0: {n - ones}"
    if n == 0:
        return [
            check(dataset, "label_balance", math.nan, ">= 0.45", stratum, "no items"),
            check(dataset, "majority_class_accuracy", math.nan, f"<= {MAJORITY_MAX}", stratum, "no items"),
        ]
    majority = max(ones, n - ones) / n
    return [
        check(dataset, "label_balance", round(1 - majority, 6), ">= 0.45", stratum, counts),
        check(dataset, "majority_class_accuracy", round(majority, 6), f"<= {MAJORITY_MAX}", stratum, counts),
    ]


# --- model-free baselines ----------------------------------------------------------------------


class CharNgrams:
    """The character ``n``-gram sets of strings (lowercased; scikit-learn's ``char`` analyser, which pads
    words with one space), each distinct string analysed once however many calls ask for it: the 20
    term-pair datasets of a terminology share most of their terms.

    Args:
        n: the n-gram length (3: character trigrams).
    """

    def __init__(self, n: int = 3) -> None:
        from sklearn.feature_extraction.text import CountVectorizer

        self.n = n
        self._analyse = CountVectorizer(analyzer="char", ngram_range=(n, n), lowercase=True).build_analyzer()
        self._row: dict[str, int] = {}
        self._gram: dict[str, int] = {}
        self._indices: list[int] = []
        self._indptr: list[int] = [0]
        self._matrix = None

    def rows(self, strings: Sequence[str]) -> np.ndarray:
        """The row of each string in :meth:`matrix` (new strings are analysed and added)."""
        out = np.empty(len(strings), dtype=np.int64)
        for i, text in enumerate(strings):
            row = self._row.get(text)
            if row is None:
                grams = sorted({self._gram.setdefault(g, len(self._gram)) for g in self._analyse(text)})
                self._indices.extend(grams)
                self._indptr.append(len(self._indices))
                row = self._row[text] = len(self._row)
                self._matrix = None
            out[i] = row
        return out

    def matrix(self):  # -> scipy.sparse.csr_matrix
        """Binary strings × n-grams matrix of every string seen so far."""
        import scipy.sparse as sp

        if self._matrix is None:
            data = np.ones(len(self._indices), dtype=np.int32)
            shape = (len(self._row), max(len(self._gram), 1))
            self._matrix = sp.csr_matrix((data, np.asarray(self._indices, np.int64), np.asarray(self._indptr)), shape)
        return self._matrix

    def jaccard(self, a: Sequence[str], b: Sequence[str]) -> np.ndarray:
        """Jaccard similarity (0–1) of the n-gram sets of ``a[i]`` and ``b[i]``, aligned pairs (1 for two
        strings without n-grams)."""
        if len(a) == 0:
            return np.zeros(0)
        codes, strings = pd.factorize(pd.Series(list(a) + list(b), dtype=object))
        rows = self.rows(list(strings))[codes]
        grams = self.matrix()
        left, right = grams[rows[: len(a)]], grams[rows[len(a) :]]
        inter = np.asarray(left.multiply(right).sum(axis=1)).ravel()
        union = np.asarray(left.sum(axis=1)).ravel() + np.asarray(right.sum(axis=1)).ravel() - inter
        with np.errstate(invalid="ignore", divide="ignore"):
            return np.where(union > 0, inter / np.maximum(union, 1), 1.0)


def char_ngram_jaccard(a: Sequence[str], b: Sequence[str], n: int = 3) -> np.ndarray:
    """Jaccard similarity (0–1) of the sets of character ``n``-grams of ``a[i]`` and ``b[i]``
    (:class:`CharNgrams`), aligned pairs."""
    return CharNgrams(n).jaccard(a, b)


def levenshtein_ratio(a: Sequence[str], b: Sequence[str]) -> np.ndarray:
    """Normalised Levenshtein similarity (0–1; 1 - distance / max length) of lowercased aligned pairs
    (``rapidfuzz.distance.Levenshtein.normalized_similarity`` through ``process.cpdist``)."""
    from rapidfuzz import process, utils
    from rapidfuzz.distance import Levenshtein

    if len(a) == 0:
        return np.zeros(0)
    return np.asarray(
        process.cpdist(
            list(a), list(b), scorer=Levenshtein.normalized_similarity, processor=utils.default_process, workers=1
        ),
        dtype=np.float64,
    )


def best_threshold_accuracy(scores: np.ndarray, labels: np.ndarray) -> float:
    """The highest accuracy of "label 1 iff score >= t" over every threshold ``t`` (and "never 1"),
    computed over the sorted scores in one pass."""
    n = len(scores)
    if n == 0:
        return math.nan
    order = np.argsort(-scores, kind="stable")
    s, y = scores[order], labels[order]
    ones_above = np.cumsum(y)  # label-1 items among the top k
    k = np.arange(1, n + 1)
    correct = ones_above + (n - k) - (y.sum() - ones_above)  # top k answered 1, the rest 0
    last_of_tie = np.r_[s[1:] != s[:-1], True]  # a threshold can only fall between distinct scores
    best = max(int(correct[last_of_tie].max()), n - int(y.sum()))
    return best / n


def _auc(scores: np.ndarray, labels: np.ndarray) -> float:
    from sklearn.metrics import roc_auc_score

    if len(np.unique(labels)) < 2:
        return math.nan
    return float(roc_auc_score(labels, scores))


def string_baseline_checks(
    a: Sequence[str],
    b: Sequence[str],
    labels: Sequence[int] | np.ndarray,
    dataset: str,
    stratum: str = "",
    normaliser: SurfaceNormaliser | None = None,
    ngrams: CharNgrams | None = None,
) -> list[Check]:
    """Model-free baselines of a binary pair dataset: exact match of surface keys, the Levenshtein
    ratio and the character 3-gram Jaccard similarity, each as AUC and best-threshold accuracy; a
    value ``>= 0.95`` flags the dataset as solvable by string matching (AUC is NaN, and flagged,
    over one label).

    Args:
        a, b: the two strings of each pair (aligned); labels: 0/1 (1 = same concept / similar).
        ngrams: the trigram sets to reuse across datasets that share strings (default: a new one).
    """
    y = np.asarray(labels, dtype=np.int64)
    scores = {
        "exact_match": variant_scores(a, b, normaliser),
        "levenshtein_ratio": levenshtein_ratio(a, b),
        "char3_jaccard": (ngrams or CharNgrams(3)).jaccard(a, b),
    }
    out = []
    for name, score in scores.items():
        detail = f"n={len(y)}; mean score label 1: {_mean(score[y == 1])}; label 0: {_mean(score[y == 0])}"
        out.append(check(dataset, f"{name}_auc", _round(_auc(score, y)), f"< {STRING_BASELINE_MAX}", stratum, detail))
        out.append(
            check(
                dataset,
                f"{name}_accuracy",
                _round(best_threshold_accuracy(score, y)),
                f"< {STRING_BASELINE_MAX}",
                stratum,
                detail,
            )
        )
    return out


def variant_scores(a: Sequence[str], b: Sequence[str], normaliser: SurfaceNormaliser | None = None) -> np.ndarray:
    """1.0 where ``a[i]`` and ``b[i]`` have equal surface keys (:mod:`biosem.surface`), else 0.0."""
    norm = normaliser or default_normaliser()
    return (norm.key_array(a) == norm.key_array(b)).astype(np.float64)


# --- surface variants and duplicates -----------------------------------------------------------


def surface_variant_check(
    a: Sequence[str],
    b: Sequence[str],
    dataset: str,
    name: str = "surface_variant_negatives",
    stratum: str = "",
    normaliser: SurfaceNormaliser | None = None,
    examples: int = 3,
) -> Check:
    """Count of pairs whose strings are surface variants (pass ``== 0``); the detail gives the count
    per normaliser step (:data:`biosem.surface.STEPS`) and up to ``examples`` pairs.

    Args:
        a, b: the pairs to test, e.g. the label-0 pairs of a dataset (aligned).
    """
    norm = normaliser or default_normaliser()
    hits = np.flatnonzero(norm.key_array(a) == norm.key_array(b))
    steps = Counter(norm.variant_step(a[i], b[i]) or "" for i in hits)
    shown = "; ".join(f"{a[i]!r} / {b[i]!r}" for i in hits[:examples])
    detail = ", ".join(f"{step}: {steps[step]}" for step in (IDENTICAL, *norm.steps) if steps[step])
    return check(dataset, name, int(len(hits)), "== 0", stratum, "; ".join(x for x in (detail, shown) if x))


def unordered_pair_keys(a: Iterable[str], b: Iterable[str]) -> pd.Series:
    """One key per pair that is the same for (x, y) and (y, x): ``"x\\x1fy"`` with x <= y."""
    left, right = np.asarray(list(a), dtype=object), np.asarray(list(b), dtype=object)
    low = np.where(left <= right, left, right)
    high = np.where(left <= right, right, left)
    return pd.Series(low, dtype=object) + "\x1f" + pd.Series(high, dtype=object)


def duplicate_check(a: Sequence[str], b: Sequence[str], dataset: str, stratum: str = "", examples: int = 3) -> Check:
    """Count of pairs that repeat an earlier pair of the same dataset, unordered (pass ``== 0``)."""
    keys = unordered_pair_keys(a, b)
    repeated = keys[keys.duplicated()]
    shown = "; ".join(k.replace("\x1f", " / ") for k in repeated.head(examples))
    return check(dataset, "duplicate_pairs", int(len(repeated)), "== 0", stratum, shown)


def overlap_check(
    left: Iterable[str],
    right: Iterable[str],
    dataset: str,
    name: str,
    stratum: str = "",
    examples: int = 3,
    threshold: str = "== 0",
) -> Check:
    """Count of distinct keys present in both ``left`` and ``right`` (pass ``== 0`` by default; an empty
    ``threshold`` reports the count as ``info``): leakage of sentences, term pairs or concept pairs
    between two splits."""
    shared = sorted(set(left) & set(right))
    shown = "; ".join(s.replace("\x1f", " / ") for s in shared[:examples])
    return check(dataset, name, len(shared), threshold, stratum, shown)


# --- the table ---------------------------------------------------------------------------------


def validity_table(checks: Iterable[Check]) -> pd.DataFrame:
    """The rows of ``validity.tsv`` in the order given (:data:`COLUMNS`)."""
    return pd.DataFrame([c.row() for c in checks], columns=list(COLUMNS))


def write_validity(checks: Iterable[Check], path: str | os.PathLike[str]) -> pd.DataFrame:
    """Write ``validity.tsv`` (tab-separated, floats with up to 6 significant decimals); returns the table."""
    table = validity_table(checks)
    write_text(table.to_csv(sep="\t", index=False, lineterminator="\n", float_format="%.6g"), path)
    return table


def read_validity(path: str | os.PathLike[str]) -> pd.DataFrame:
    """A ``validity.tsv`` as written by :func:`write_validity` (empty strings kept as such)."""
    return pd.read_csv(path, sep="\t", dtype={c: str for c in COLUMNS if c != "value"}, keep_default_na=False)


def flagged(table: pd.DataFrame) -> pd.DataFrame:
    """The flagged rows of a validity table."""
    return table[table["status"] == FLAG]


def _mean(values: np.ndarray) -> str:
    return f"{values.mean():.3f}" if len(values) else "-"


def _round(value: float) -> float:
    return value if math.isnan(value) else round(value, 6)


__all__ = [
    "CHECKS",
    "COLUMNS",
    "CharNgrams",
    "FLAG",
    "INFO",
    "MAJORITY_MAX",
    "PASS",
    "STRING_BASELINE_MAX",
    "Check",
    "best_threshold_accuracy",
    "char_ngram_jaccard",
    "check",
    "duplicate_check",
    "flagged",
    "label_checks",
    "levenshtein_ratio",
    "overlap_check",
    "parse_threshold",
    "read_validity",
    "string_baseline_checks",
    "surface_variant_check",
    "unordered_pair_keys",
    "validity_table",
    "variant_scores",
    "write_validity",
]
