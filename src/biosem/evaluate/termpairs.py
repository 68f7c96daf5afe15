"""Term-pair similarity evaluation (Schulz & Juric, AAAI 2020) and category separation.

Similarity of two terms from their word vectors (OOV words ignored by default, as the reference
sentence-similarity code does; a term with no known word is not covered):

* ``avg_cos``: cosine of the mean word vectors (``avg_cosine`` in babylonhealth/fuzzymax);
* ``pair_cos``: mean cosine over all (word of term 1, word of term 2) pairs, which equals the dot
  product of the two means of unit word vectors;
* ``pearson`` / ``spearman`` / ``kendall``: correlation *across dimensions* of the two mean vectors
  (Zhelezniak et al., NAACL 2019; babylonhealth/corrsim ``similarity/correlation.py``); Kendall is
  tau-b (ties corrected), as ``scipy.stats.kendalltau``;
* ``fuzzy_jaccard``: DynaMax-Jaccard (Zhelezniak et al., ICLR 2019; fuzzymax
  ``dynamax_jaccard``): the universe U is the words of both terms, a term's membership vector is
  ``max(0, max_w w . U)`` over its words, similarity = sum(min) / sum(max);
* ``max_jaccard``: MaxPool-Jaccard (fuzzymax ``max_jaccard``): a term's max-pooled word vector,
  clipped at 0, similarity = sum(min) / sum(max).

Scores per dataset: ROC AUC (scikit-learn) on every covered pair; accuracy of the
accuracy-maximising threshold chosen on a seeded half of the pairs (the same half for every
model) and applied to the other half, reported with the threshold; McNemar's test between models on
the shared held-out half. Category separation: overlap O of the within-category and
between-category similarity distributions of three configured categories (see
:func:`category_overlap`).
"""

from __future__ import annotations

import itertools
import logging
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import numba
import numpy as np
import pandas as pd
from scipy import sparse, stats
from scipy.sparse.csgraph import breadth_first_order

from biosem.evaluate.models import PhraseWords, Representation, WordVectors, rowwise_cosine, unit_rows
from biosem.evaluate.results import result_row
from biosem.evaluate.stats import auc, best_threshold, mcnemar_test, mean_ci, threshold_accuracy

log = logging.getLogger(__name__)

SIMILARITIES = ("avg_cos", "pair_cos", "pearson", "spearman", "kendall", "fuzzy_jaccard", "max_jaccard")
ENCODER_SIMILARITIES = ("avg_cos",)


@dataclass(frozen=True)
class TermPairEvalParams:
    """Config ``evaluate.termpairs`` (see config/README.md)."""

    similarities: tuple[str, ...] = SIMILARITIES
    require_all_words: bool = False
    n_resamples: int = 1000
    confidence_level: float = 0.95


# --------------------------------------------------------------------------------------------------
# Similarity functions on word-vector sets
# --------------------------------------------------------------------------------------------------
def _ratio(num: np.ndarray, den: np.ndarray) -> np.ndarray:
    return np.divide(num, den, out=np.zeros_like(num, dtype=np.float64), where=den > 0)


def rowwise_pearson(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Pearson r across dimensions of corresponding rows (0 where a row is constant)."""
    x = np.asarray(x, dtype=np.float64)
    y = np.asarray(y, dtype=np.float64)
    return rowwise_cosine(x - x.mean(axis=1, keepdims=True), y - y.mean(axis=1, keepdims=True))


def rowwise_spearman(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Spearman rho across dimensions of corresponding rows (average ranks for ties)."""
    return rowwise_pearson(stats.rankdata(x, axis=1), stats.rankdata(y, axis=1))


def rowwise_kendall(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Kendall tau-b across dimensions of corresponding rows of finite ``x``, ``y`` ``[n, d]``.

    tau-b = sum(sign(dx) sign(dy)) / sqrt(#pairs with dx != 0 * #pairs with dy != 0) over the
    d (d - 1) / 2 dimension pairs, the statistic of ``scipy.stats.kendalltau`` (default
    ``variant="b"``); 0 where undefined. One compiled loop per row (numba): the counts are exact
    integers, so the value does not depend on the order of the sums.
    """
    x = np.ascontiguousarray(x, dtype=np.float64)
    y = np.ascontiguousarray(y, dtype=np.float64)
    num = np.zeros(len(x), dtype=np.float64)
    den = np.zeros(len(x), dtype=np.float64)
    if len(x):
        _kendall_counts(x, y, num, den)
    return _ratio(num, np.sqrt(den))


@numba.njit(nogil=True, cache=True, boundscheck=False, error_model="numpy")
def _kendall_counts(x: np.ndarray, y: np.ndarray, num: np.ndarray, den: np.ndarray) -> None:
    """Per row: num = concordant - discordant dimension pairs; den = (#dx != 0) * (#dy != 0).

    Every ordered pair (i, j) is visited and the sums halved: sign(dx) sign(dy) and sign(dx)^2 are
    the same for (i, j) and (j, i), and a loop over the whole row vectorises where one from i + 1
    does not."""
    n, d = x.shape
    for r in range(n):
        xr = x[r]
        yr = y[r]
        s = 0
        nx = 0
        ny = 0
        for i in range(d):
            xi = xr[i]
            yi = yr[i]
            si = np.int32(0)
            nxi = np.int32(0)
            nyi = np.int32(0)
            for j in range(d):
                sx = np.int32(xi > xr[j]) - np.int32(xi < xr[j])
                sy = np.int32(yi > yr[j]) - np.int32(yi < yr[j])
                si += sx * sy
                nxi += sx * sx
                nyi += sy * sy
            s += si
            nx += nxi
            ny += nyi
        num[r] = s // 2
        den[r] = float(nx // 2) * float(ny // 2)


def max_jaccard(words1: np.ndarray, mask1: np.ndarray, words2: np.ndarray, mask2: np.ndarray) -> np.ndarray:
    """MaxPool-Jaccard of padded word-vector sets ``[n, K, d]`` with masks ``[n, K]`` (fuzzymax)."""
    m1 = np.maximum(np.where(mask1[:, :, None], words1, -np.inf).max(axis=1), 0.0)
    m2 = np.maximum(np.where(mask2[:, :, None], words2, -np.inf).max(axis=1), 0.0)
    return _ratio(np.minimum(m1, m2).sum(axis=1, dtype=np.float64), np.maximum(m1, m2).sum(axis=1, dtype=np.float64))


def fuzzy_jaccard(words1: np.ndarray, mask1: np.ndarray, words2: np.ndarray, mask2: np.ndarray) -> np.ndarray:
    """DynaMax-Jaccard of padded word-vector sets (fuzzymax ``dynamax_jaccard``), vectorised.

    The universe of a pair is the (known) words of both terms; padded universe slots have
    membership 0 in both terms and so add nothing. The reference of :func:`fuzzy_jaccard_rows`.
    """
    w1 = words1.astype(np.float64)
    w2 = words2.astype(np.float64)
    universe = np.concatenate([w1, w2], axis=1)  # [n, K1 + K2, d]
    umask = np.concatenate([mask1, mask2], axis=1)
    ut = universe.transpose(0, 2, 1)  # batched products: [n, K, d] @ [n, d, K1 + K2]
    s1 = np.matmul(w1, ut)
    s2 = np.matmul(w2, ut)
    m1 = np.maximum(np.where(mask1[:, :, None], s1, -np.inf).max(axis=1), 0.0)
    m2 = np.maximum(np.where(mask2[:, :, None], s2, -np.inf).max(axis=1), 0.0)
    m1 = np.where(umask, m1, 0.0)
    m2 = np.where(umask, m2, 0.0)
    return _ratio(np.minimum(m1, m2).sum(axis=1), np.maximum(m1, m2).sum(axis=1))


def fuzzy_jaccard_rows(words: PhraseWords, i1: np.ndarray, i2: np.ndarray) -> np.ndarray:
    """DynaMax-Jaccard of phrase ``i1[k]`` against phrase ``i2[k]`` of ``words`` (their known word
    vectors), float64 ``[len(i1)]``; 0 for a pair with no known word. The same values as the padded
    :func:`fuzzy_jaccard`, up to the order of float64 sums, in one compiled loop (numba) with no
    padded copies."""
    out = np.zeros(len(i1), dtype=np.float64)
    if len(i1):
        _dynamax_jaccard(
            np.ascontiguousarray(words.matrix, dtype=np.float64),
            words.offsets.astype(np.int64),
            words.cols.astype(np.int64),
            np.asarray(i1, dtype=np.int64),
            np.asarray(i2, dtype=np.int64),
            out,
        )
    return out


@numba.njit(nogil=True, cache=True, boundscheck=False)
def _dynamax_jaccard(
    matrix: np.ndarray, offsets: np.ndarray, cols: np.ndarray, i1: np.ndarray, i2: np.ndarray, out: np.ndarray
) -> None:
    """Per pair: the Gram matrix of the universe (the words of term 1, then those of term 2), each
    dot product computed once; term 1's membership of universe word u is max(0, max over its words
    of G[w, u]), term 2's likewise; out = sum(min) / sum(max)."""
    kmax = 1
    for p in range(len(offsets) - 1):
        kmax = max(kmax, offsets[p + 1] - offsets[p])
    words = np.empty(2 * kmax, dtype=np.int64)
    gram = np.empty((2 * kmax, 2 * kmax), dtype=np.float64)
    d = matrix.shape[1]
    for k in range(len(i1)):
        a0, a1 = offsets[i1[k]], offsets[i1[k] + 1]
        b0, b1 = offsets[i2[k]], offsets[i2[k] + 1]
        ka = a1 - a0
        m = ka + b1 - b0
        for t in range(ka):
            words[t] = cols[a0 + t]
        for t in range(b1 - b0):
            words[ka + t] = cols[b0 + t]
        for u in range(m):
            for v in range(u, m):
                dot = 0.0
                for j in range(d):
                    dot += matrix[words[u], j] * matrix[words[v], j]
                gram[u, v] = dot
                gram[v, u] = dot
        low = 0.0
        high = 0.0
        for u in range(m):
            m1 = 0.0
            m2 = 0.0
            for t in range(ka):
                m1 = max(m1, gram[t, u])
            for t in range(ka, m):
                m2 = max(m2, gram[t, u])
            low += min(m1, m2)
            high += max(m1, m2)
        out[k] = low / high if high > 0 else 0.0


def term_similarities(
    model: Representation,
    terms1: Sequence[str],
    terms2: Sequence[str],
    similarities: Sequence[str] = SIMILARITIES,
    require_all_words: bool = False,
    chunk_pairs: int = 16384,
) -> tuple[dict[str, np.ndarray], np.ndarray]:
    """Similarity of each (term1, term2) under every requested function.

    Returns ``({similarity: float64 [n]}, covered bool [n])``; uncovered pairs (a term with no known
    word, or with any unknown word when ``require_all_words``) have NaN scores. A sentence encoder
    supports only ``avg_cos`` (cosine of the two encodings). ``chunk_pairs``: pairs scored at a time
    (memory only; the scores do not depend on it).

    Raises:
        ValueError: an unknown similarity, or a word-level similarity for a sentence encoder.
    """
    unknown = [s for s in similarities if s not in SIMILARITIES]
    if unknown:
        raise ValueError(f"unknown similarities {unknown}; expected some of {SIMILARITIES}")
    n = len(terms1)
    # The distinct terms in sorted order and each pair's two positions among them (hash-based).
    codes, uniques = pd.factorize(np.concatenate([np.asarray(terms1, dtype=object), np.asarray(terms2, dtype=object)]))
    order = np.argsort(uniques, kind="stable")
    items = list(uniques[order])
    rank = np.empty(len(order), dtype=np.int64)
    rank[order] = np.arange(len(order))
    i1, i2 = rank[codes[:n]], rank[codes[n:]]
    out: dict[str, np.ndarray] = {}
    if not isinstance(model, WordVectors):
        bad = [s for s in similarities if s not in ENCODER_SIMILARITIES]
        if bad:
            raise ValueError(f"{model.name} is not a word-vector model: {bad} need word vectors")
        vectors, covered_items = model.phrase_vectors(items)
        covered = covered_items[i1] & covered_items[i2]
        out["avg_cos"] = np.where(covered, rowwise_cosine(vectors[i1], vectors[i2]), np.nan)
        return out, covered
    pw = model.phrase_words(items)
    covered_items = (pw.counts > 0) & (pw.all_known if require_all_words else True)
    covered = covered_items[i1] & covered_items[i2]
    # Per distinct term: the vectors each similarity compares (correlations: centred, so that a
    # pair's Pearson r is the cosine of its rows); the pairs are then scored in chunks, which bounds
    # the gathered [pairs, dim] copies.
    mean = pw.mean()
    item_vectors: dict[str, np.ndarray] = {}
    if "avg_cos" in similarities:
        item_vectors["avg_cos"] = mean
    if "pair_cos" in similarities:
        item_vectors["pair_cos"] = pw.mean(unit=True)
    if "pearson" in similarities:
        item_vectors["pearson"] = mean - mean.mean(axis=1, keepdims=True)
    if "spearman" in similarities:
        ranks = stats.rankdata(mean, axis=1)
        item_vectors["spearman"] = ranks - ranks.mean(axis=1, keepdims=True)
    if "kendall" in similarities:
        item_vectors["kendall"] = mean
    if "max_jaccard" in similarities:
        item_vectors["max_jaccard"] = np.maximum(pw.max_pool(), 0.0)
    out = {sim: np.zeros(n, dtype=np.float64) for sim in similarities}
    for start in range(0, n, chunk_pairs):
        a, b = i1[start : start + chunk_pairs], i2[start : start + chunk_pairs]
        chunk = slice(start, start + len(a))
        for sim, vectors in item_vectors.items():
            v1, v2 = vectors[a], vectors[b]
            if sim == "pair_cos":
                out[sim][chunk] = np.einsum("ij,ij->i", v1, v2)
            elif sim == "kendall":
                out[sim][chunk] = rowwise_kendall(v1, v2)
            elif sim == "max_jaccard":
                out[sim][chunk] = _ratio(np.minimum(v1, v2).sum(axis=1), np.maximum(v1, v2).sum(axis=1))
            else:  # avg_cos, and Pearson / Spearman on centred vectors / ranks
                out[sim][chunk] = rowwise_cosine(v1, v2)
    if "fuzzy_jaccard" in similarities:
        out["fuzzy_jaccard"] = fuzzy_jaccard_rows(pw, i1, i2)
    out = {key: np.where(covered, value, np.nan) for key, value in out.items()}
    return {s: out[s] for s in similarities}, covered


# --------------------------------------------------------------------------------------------------
# Dataset scores
# --------------------------------------------------------------------------------------------------
def tuning_half(n: int, rng: np.random.Generator) -> np.ndarray:
    """Boolean mask of the ``n // 2`` items (seeded draw) that tune the threshold."""
    mask = np.zeros(n, dtype=bool)
    mask[rng.permutation(n)[: n // 2]] = True
    return mask


def evaluate_termpair_dataset(
    model: Representation,
    dataset: str,
    pairs: pd.DataFrame,
    tune: np.ndarray,
    params: TermPairEvalParams,
    rng: np.random.Generator,
) -> tuple[list[dict[str, object]], pd.DataFrame]:
    """Scores of one model on one term-pair dataset.

    Args:
        pairs: columns ``term1, term2, label`` (1 similar, 0 dissimilar), in the dataset's order.
        tune: bool mask over ``pairs`` (:func:`tuning_half`): the half that chooses the threshold.
        rng: generator for the bootstrap interval of the held-out accuracy.

    Returns:
        Result rows (per similarity: ``auc`` on all covered pairs; ``threshold`` chosen on the
        covered tuning half; ``accuracy`` on the covered held-out half with a BCa interval) and the
        per-pair held-out correctness (columns ``dataset, pair, similarity, correct``) for McNemar.
    """
    sims = [s for s in params.similarities if isinstance(model, WordVectors) or s in ENCODER_SIMILARITIES]
    scores, covered = term_similarities(
        model,
        pairs["term1"].to_numpy(dtype=object),
        pairs["term2"].to_numpy(dtype=object),
        sims,
        params.require_all_words,
    )
    labels = pairs["label"].to_numpy(dtype=np.int64)
    coverage = float(covered.mean()) if len(pairs) else float("nan")
    rows: list[dict[str, object]] = []
    predictions = []
    tune_c = tune & covered
    test_c = ~tune & covered
    for sim in sims:
        s = scores[sim]
        rows.append(
            result_row(
                model.name, dataset, "all", f"{sim}:auc", auc(labels[covered], s[covered]), int(covered.sum()), coverage
            )
        )
        if tune_c.sum() == 0 or test_c.sum() == 0:
            continue
        th = best_threshold(labels[tune_c], s[tune_c])
        correct = threshold_accuracy(labels[test_c], s[test_c], th.threshold)
        low, high = mean_ci(correct, rng, params.n_resamples, params.confidence_level)
        rows.append(result_row(model.name, dataset, "tune_half", f"{sim}:threshold", th.threshold, th.n, coverage))
        rows.append(result_row(model.name, dataset, "tune_half", f"{sim}:accuracy", th.accuracy, th.n, coverage))
        rows.append(
            result_row(
                model.name,
                dataset,
                "test_half",
                f"{sim}:accuracy",
                float(correct.mean()),
                len(correct),
                coverage,
                low,
                high,
            )
        )
        predictions.append(
            pd.DataFrame(
                {
                    "dataset": dataset,
                    "pair": np.flatnonzero(test_c).astype(np.int64),
                    "similarity": sim,
                    "correct": correct,
                }
            )
        )
    pred = pd.concat(predictions, ignore_index=True) if predictions else empty_predictions()
    return rows, pred


def empty_predictions() -> pd.DataFrame:
    return pd.DataFrame(
        {
            "dataset": pd.Series(dtype=object),
            "pair": pd.Series(dtype=np.int64),
            "similarity": pd.Series(dtype=object),
            "correct": pd.Series(dtype=bool),
        }
    )


def mcnemar_rows(predictions: Mapping[str, pd.DataFrame]) -> list[dict[str, object]]:
    """McNemar's test for every pair of models on each (dataset, similarity) both scored.

    ``predictions``: model -> held-out correctness table (from :func:`evaluate_termpair_dataset`;
    ``dataset`` and ``similarity`` may be categorical). Only pairs covered by both models enter. Rows:
    ``model`` A and ``model_b`` B (A < B), then (dataset, similarity) in sorted order; subset ``test_half``,
    metrics ``<similarity>:mcnemar_p`` and ``<similarity>:mcnemar_statistic``, n = shared pairs.
    Each row of a table is keyed by one int64 (its (dataset, similarity) rank, then its pair), so two
    models' shared pairs are one sorted intersection, with no join of the string columns.
    """
    datasets = sorted(set().union(*(_distinct(p["dataset"]) for p in predictions.values())))
    sims = sorted(set().union(*(_distinct(p["similarity"]) for p in predictions.values())))
    keys, correct = {}, {}
    for model, p in predictions.items():
        group = pd.Categorical(p["dataset"], categories=datasets).codes.astype(np.int64) * len(sims)
        group += pd.Categorical(p["similarity"], categories=sims).codes
        keys[model] = (group << 32) | p["pair"].to_numpy(dtype=np.int64)
        correct[model] = p["correct"].to_numpy(dtype=bool)
    rows = []
    for a, b in itertools.combinations(sorted(predictions), 2):
        shared, ia, ib = np.intersect1d(keys[a], keys[b], assume_unique=True, return_indices=True)
        group = shared >> 32
        bounds = [0, *(np.flatnonzero(np.diff(group)) + 1).tolist(), len(group)]
        for start, end in itertools.pairwise(bounds):
            if start == end:
                continue
            dataset, sim = datasets[int(group[start]) // len(sims)], sims[int(group[start]) % len(sims)]
            test = mcnemar_test(correct[a][ia[start:end]], correct[b][ib[start:end]])
            n = end - start
            for measure, value in (("mcnemar_p", test.pvalue), ("mcnemar_statistic", test.statistic)):
                rows.append(result_row(a, dataset, "test_half", f"{sim}:{measure}", value, n, None, model_b=b))
    return rows


def _distinct(values: pd.Series) -> set[str]:
    """The distinct values of a string or categorical column."""
    if isinstance(values.dtype, pd.CategoricalDtype):
        return {str(v) for v in values.cat.remove_unused_categories().cat.categories}
    return {str(v) for v in pd.unique(values.to_numpy(dtype=object))}


# --------------------------------------------------------------------------------------------------
# Category separation
# --------------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class CategoryParams:
    """Config ``evaluate.termpairs.categories.<terminology>``."""

    roots: Mapping[str, str]
    parent_rels: tuple[str, ...] = ("is_a",)
    sample_size: int = 200
    bins: int = 50
    extra: Mapping[str, object] = field(default_factory=dict)


def category_members(relations: pd.DataFrame, roots: Mapping[str, str], parent_rels: Sequence[str]) -> pd.DataFrame:
    """Descendants of each category root over ``parent_rels`` (subject = child, object = parent).

    Returns columns ``concept_id, category`` sorted by (category, concept_id). Roots themselves are
    not members; a concept below two or more roots is dropped (it would blur the separation).

    Raises:
        ValueError: fewer than two roots, or a root absent from the relations.
    """
    if len(roots) < 2:
        raise ValueError("category separation needs at least two categories")
    rel = relations[relations["rel"].isin(list(parent_rels))]
    nodes = pd.Index(sorted(set(rel["subject_id"]) | set(rel["object_id"])))
    missing = [r for r in roots.values() if r not in nodes]
    if missing:
        raise ValueError(f"category roots not found in the relations ({list(parent_rels)}): {missing}")
    parent = nodes.get_indexer(rel["object_id"])
    child = nodes.get_indexer(rel["subject_id"])
    graph = sparse.csr_matrix((np.ones(len(rel)), (parent, child)), shape=(len(nodes), len(nodes)))
    frames = []
    for name, root in sorted(roots.items()):
        reached = breadth_first_order(graph, nodes.get_loc(root), directed=True, return_predecessors=False)
        ids = nodes[np.sort(reached)]
        frames.append(pd.DataFrame({"concept_id": [c for c in ids if c != root], "category": name}))
    members = pd.concat(frames, ignore_index=True)
    multi = members.groupby("concept_id")["category"].transform("size") > 1
    return members[~multi].sort_values(["category", "concept_id"], kind="stable").reset_index(drop=True)


def sample_members(members: pd.DataFrame, sample_size: int, rng: np.random.Generator) -> pd.DataFrame:
    """Up to ``sample_size`` members per category, drawn without replacement (seeded)."""
    parts = []
    for _, grp in members.groupby("category", sort=True):
        take = rng.permutation(len(grp))[: min(sample_size, len(grp))]
        parts.append(grp.iloc[np.sort(take)])
    return pd.concat(parts, ignore_index=True) if parts else members.iloc[:0]


def category_overlap(model: Representation, terms: pd.DataFrame, bins: int = 50) -> dict[str, float]:
    """Separation of categories by ``avg_cos``: overlap O of within- vs between-category similarity.

    ``terms``: columns ``term, category``. Every unordered pair of covered terms is scored (cosine of
    mean word vectors); O = sum over ``bins`` equal-width bins on [-1, 1] of min(p_within,
    p_between), the histogram overlap of the two normalised distributions (0: fully separated, 1:
    identical). This operationalises Schulz & Juric's category analysis (Diagnostic Procedure,
    Therapeutic Procedure, Organism); their paper gives no formula, so this definition is biosem's.

    Returns ``overlap, within_mean, between_mean, n_terms, coverage, n_within, n_between``.
    """
    vectors, covered = model.phrase_vectors(list(terms["term"]), require_all=False)
    unit = unit_rows(vectors[covered]).astype(np.float64)
    cats = terms["category"].to_numpy()[covered]
    sims = unit @ unit.T
    iu, ju = np.triu_indices(len(unit), 1)
    s = sims[iu, ju]
    same = cats[iu] == cats[ju]
    edges = np.linspace(-1.0, 1.0, bins + 1)
    within, between = s[same], s[~same]
    result = {
        "n_terms": int(covered.sum()),
        "coverage": float(covered.mean()) if len(terms) else float("nan"),
        "n_within": len(within),
        "n_between": len(between),
        "within_mean": float(within.mean()) if len(within) else float("nan"),
        "between_mean": float(between.mean()) if len(between) else float("nan"),
        "overlap": float("nan"),
    }
    if len(within) and len(between):
        pw = np.histogram(np.clip(within, -1, 1), edges)[0] / len(within)
        pb = np.histogram(np.clip(between, -1, 1), edges)[0] / len(between)
        result["overlap"] = float(np.minimum(pw, pb).sum())
    return result


def category_rows(model: Representation, dataset: str, terms: pd.DataFrame, bins: int) -> list[dict[str, object]]:
    """Result rows of :func:`category_overlap` (metrics ``avg_cos:overlap``, ``..._mean``)."""
    r = category_overlap(model, terms, bins)
    log.info(
        "%s %s: O = %.4f (within %.4f, between %.4f; %d terms)",
        model.name,
        dataset,
        r["overlap"],
        r["within_mean"],
        r["between_mean"],
        r["n_terms"],
    )
    return [
        result_row(model.name, dataset, "all", "avg_cos:overlap", r["overlap"], r["n_terms"], r["coverage"]),
        result_row(model.name, dataset, "within", "avg_cos:mean", r["within_mean"], r["n_within"], r["coverage"]),
        result_row(model.name, dataset, "between", "avg_cos:mean", r["between_mean"], r["n_between"], r["coverage"]),
    ]


def evaluate_termpair_datasets(
    model: Representation, datasets: Mapping[str, pd.DataFrame], params: TermPairEvalParams, seed: int
) -> tuple[list[dict[str, object]], pd.DataFrame]:
    """Scores of one model on every term-pair dataset (name -> pairs), in name order.

    The tuning half of a dataset is drawn from (seed, "evaluate", "termpairs", "split", dataset),
    the same for every model (so McNemar compares the same held-out pairs); empty datasets are
    skipped. Returns result rows and the held-out correctness of every pair (for McNemar;
    ``dataset`` and ``similarity`` categorical).
    """
    from biosem.seeds import generator

    rows: list[dict[str, object]] = []
    # Categorical names: the held-out tables of full-size terminologies run to millions of rows.
    names = pd.CategoricalDtype(sorted(datasets))
    sims = pd.CategoricalDtype(sorted(SIMILARITIES))
    predictions = [empty_predictions().astype({"dataset": names, "similarity": sims})]
    for name in sorted(datasets):
        pairs = datasets[name]
        if pairs.empty:
            log.info("%s: empty dataset, not scored", name)
            continue
        tune = tuning_half(len(pairs), generator(seed, "evaluate", "termpairs", "split", name))
        r, p = evaluate_termpair_dataset(
            model, name, pairs, tune, params, generator(seed, "evaluate", "termpairs", model.name, name)
        )
        rows += r
        predictions.append(p.astype({"dataset": names, "similarity": sims}))
        auc_row = next((x for x in r if x["metric"] == f"{params.similarities[0]}:auc"), None)
        if auc_row is not None:
            log.info(
                "%s on %s: %s AUC %s on %d pairs (coverage %.3f)",
                model.name,
                name,
                params.similarities[0],
                auc_row["value"],
                auc_row["n"],
                auc_row["coverage"] or 0.0,
            )
    return rows, pd.concat(predictions, ignore_index=True)


def category_terms(
    concepts: pd.DataFrame,
    terms: pd.DataFrame,
    relations: pd.DataFrame,
    params: CategoryParams,
    rng: np.random.Generator,
    termpair_config: Mapping[str, object],
) -> pd.DataFrame:
    """Sampled member concepts of each category with their head term (columns ``concept_id,
    category, term``); head terms as in the term-pair datasets (:func:`biosem.termpairs.positives.head_terms`)."""
    from biosem.termpairs.params import params_from_config
    from biosem.termpairs.positives import head_terms

    active = concepts[concepts["active"].astype(bool)]
    members = category_members(relations, params.roots, params.parent_rels)
    members = members[members["concept_id"].isin(set(active["concept_id"]))]
    heads = head_terms(concepts, terms, params_from_config(dict(termpair_config)))
    members = members.merge(heads[["concept_id", "head"]], on="concept_id", how="inner")
    sample = sample_members(members, params.sample_size, rng)
    for category, n in sample.groupby("category").size().items():
        log.info(
            "category %s: %d of %d member concepts sampled", category, n, int((members["category"] == category).sum())
        )
    return sample.rename(columns={"head": "term"})[["concept_id", "category", "term"]].reset_index(drop=True)
