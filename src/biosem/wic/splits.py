"""Test / dev / train splits of the candidate pairs (reference ``step3_creating_biowic_splits.py``).

The reference shuffles all candidates and then, in that order:

* **test**: accepts a pair while its group × label quota is open, neither sentence is already in test
  and its term pair (unordered lemma pair) is not already in test. Quotas: 2,000 = 800 / 200 / 800 /
  200 (term identity / abbreviations / synonyms / label similarity), half label 1 and half label 0;
* **pool**: the remaining pairs that share no sentence and no term pair with test; a pair is kept while
  both sentences occur fewer than 100 times among the kept pairs (the sentence cap);
* **dev**: the first 400 / 100 / 400 / 100 kept pairs per group (half per label);
* **train**: the other kept pairs, balanced per group by keeping the first ``min(#label 1, #label 0)``
  of each label.

biosem does exactly this with a seeded permutation (``generator(seed, "wic", "split")``) of the
candidates sorted by (group, sentence1, sentence2), so the result does not depend on file listing order
(the reference concatenates ``os.listdir`` output). Sentences are identified by their text (the
selected sentences are unique by text) and term pairs by their lemmas, as the reference does, merged
with their lowercase strings (:func:`term_classes`: two terms equal either way are one term, so no
test term pair is in train or dev under the validator's lowercase key either).

Quotas that the data cannot fill: with ``quota_policy: error`` the step fails naming the group, label,
quota and what was available; with ``scale`` (for corpora much smaller than the paper's), each group's
test and dev quotas are first scaled by one factor per group so that test + dev take at most
``heldout_share`` of the group's scarcer label's distinct term pairs (leaving term pairs for train),
then lowered to what the greedy selection could fill, keeping each group balanced. Scaled quotas are
returned and logged. With ``balanced`` (the open default; issue 37: a group of one label lets "always
answer same concept" score 0.75), each group's test and dev quotas are first set as ``fill`` sets them
per stratum, then both labels take the smaller label's quota, which selection may lower further (both
labels together); a group whose per-label quota ends below its configured quota and below
``min_stratum`` is left out of that split (quota 0, reason in :attr:`SplitResult.left_out` and
``counts.tsv``), and so is a train group whose smaller label has fewer than ``min_stratum`` items
(train is balanced per group, as ``balance_train`` does). With ``fill``, each group × label stratum
keeps the paper's quota where the data allow and takes what it can where they do not, independently
of the other label (so a group can be unbalanced): a stratum whose candidates hold fewer distinct
term pairs than its test + dev quotas gives test + dev ``heldout_share`` of them (the rest stays for
train), shared in the quotas' ratio (2:1 in the paper; test at least one), then test and dev take what
the selection fills. ``counts_table`` names what bounds each short stratum.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np
import pandas as pd
import scipy.sparse as sp
from scipy.sparse.csgraph import connected_components

from biosem.wic import GROUPS, PAPER_QUOTAS, SPLITS, TRAIN_SENTENCE_CAP

log = logging.getLogger(__name__)

LABELS = (1, 0)
QUOTA_POLICIES = ("error", "scale", "fill", "balanced")


class QuotaError(ValueError):
    """A split quota cannot be filled from the candidates (``quota_policy: error``)."""


@dataclass(frozen=True)
class SplitParams:
    """Split parameters (config ``wic``; defaults = the paper)."""

    test_quotas: dict[str, int] = field(default_factory=lambda: dict(PAPER_QUOTAS["test"]))
    dev_quotas: dict[str, int] = field(default_factory=lambda: dict(PAPER_QUOTAS["dev"]))
    quota_policy: str = "error"
    heldout_share: float = 0.3
    train_sentence_cap: int = TRAIN_SENTENCE_CAP
    balance_train: bool = True
    min_stratum: int = 30


def split_params_from_config(wic: dict) -> SplitParams:
    """:class:`SplitParams` from the config ``wic`` section as validated by
    ``workflow/schemas/wic.schema.yaml`` (every key present: the schema holds the defaults)."""
    quotas = wic["quotas"]
    return SplitParams(
        test_quotas={g: int(quotas["test"][g]) for g in GROUPS},
        dev_quotas={g: int(quotas["dev"][g]) for g in GROUPS},
        quota_policy=str(wic["quota_policy"]),
        heldout_share=float(wic["heldout_share"]),
        train_sentence_cap=int(wic["train_sentence_cap"]),
        balance_train=bool(wic["balance_train"]),
        min_stratum=int(wic["min_stratum"]),
    )


@dataclass
class SplitResult:
    """Row indices into the candidates (in output order) per split, the quotas used, and counts."""

    indices: dict[str, np.ndarray]
    quotas: dict[str, dict[str, int | dict[str, int]]]
    """Per split and group: the total (half per label) or, where the labels differ (``fill``),
    ``{"1": n, "0": n}``."""
    stats: dict[str, int]
    left_out: dict[str, dict[str, str]] = field(default_factory=dict)
    """``quota_policy: balanced``: split -> group -> why the group is left out of the split."""


def _per_label(quotas: dict[str, int]) -> np.ndarray:
    """Quota per stratum (group index * 2 + label), half of each group's quota per label."""
    out = np.zeros(2 * len(GROUPS), dtype=np.int64)
    for g, name in enumerate(GROUPS):
        total = int(quotas.get(name, 0))
        if total % 2:
            raise ValueError(f"quota of {name} must be even (half per label), got {total}")
        out[2 * g : 2 * g + 2] = total // 2
    return out


def _per_group(per_stratum: np.ndarray) -> dict[str, int | dict[str, int]]:
    """Quotas per group: the group total where both labels have the same quota, else ``{"1": n, "0": n}``."""
    out: dict[str, int | dict[str, int]] = {}
    for g, name in enumerate(GROUPS):
        zero, one = int(per_stratum[2 * g]), int(per_stratum[2 * g + 1])
        out[name] = zero + one if zero == one else {"1": one, "0": zero}
    return out


def label_quota(quotas: dict, group: str, label: int) -> int | None:
    """The quota of one group × label in a quotas mapping (group total or ``{"1": n, "0": n}``), or None."""
    q = quotas.get(group)
    if q is None:
        return None
    if isinstance(q, dict):
        return int(q[str(label)])
    return int(q) // 2


def _stratum_name(s: int) -> tuple[str, int]:
    return GROUPS[s // 2], s % 2


def greedy_unique(
    order: np.ndarray,
    stratum: np.ndarray,
    s1: np.ndarray,
    s2: np.ndarray,
    term_pair: np.ndarray,
    quota: np.ndarray,
) -> np.ndarray:
    """The reference's test selection: candidates in ``order``, accepted while the stratum quota is
    open and neither sentence nor the term pair has been accepted before. Returns accepted indices
    (in acceptance order).

    Equivalent to one pass over all of ``order``; to bound the Python loop each stratum's pool is first
    cut to its first ``k`` candidates, and ``k`` grows whenever a cut stratum stays unfilled.
    """
    ranks_stratum = stratum[order]
    per = [order[ranks_stratum == s] for s in range(quota.size)]
    k = np.maximum(quota * 8, 256)
    while True:
        heads = [p[: int(k[s])] if quota[s] > 0 else p[:0] for s, p in enumerate(per)]
        pos = np.empty(stratum.size, dtype=np.int64)
        pos[order] = np.arange(order.size)
        seq = np.concatenate(heads) if heads else np.zeros(0, np.int64)
        seq = seq[np.argsort(pos[seq], kind="stable")]
        accepted = _greedy_loop(seq, stratum, s1, s2, term_pair, quota)
        filled = (
            np.bincount(stratum[accepted], minlength=quota.size) if accepted.size else np.zeros(quota.size, np.int64)
        )
        cut = np.array([len(p) > k[s] for s, p in enumerate(per)])
        retry = (filled < quota) & cut
        if not retry.any():
            return accepted
        k = np.where(retry, k * 4, k)


def _greedy_loop(
    seq: np.ndarray,
    stratum: np.ndarray,
    s1: np.ndarray,
    s2: np.ndarray,
    term_pair: np.ndarray,
    quota: np.ndarray,
) -> np.ndarray:
    left = quota.astype(np.int64).tolist()
    remaining = sum(left)
    used_sentences: set[int] = set()
    used_pairs: set[int] = set()
    accepted = []
    st, a_, b_, t_ = (
        stratum[seq].tolist(),
        s1[seq].tolist(),
        s2[seq].tolist(),
        term_pair[seq].tolist(),
    )
    for pos, (s, a, b, t) in enumerate(zip(st, a_, b_, t_)):
        if remaining == 0:
            break
        if left[s] == 0 or a in used_sentences or b in used_sentences or t in used_pairs:
            continue
        left[s] -= 1
        remaining -= 1
        used_sentences.add(a)
        used_sentences.add(b)
        used_pairs.add(t)
        accepted.append(seq[pos])
    return np.asarray(accepted, dtype=np.int64)


def sentence_cap(order: np.ndarray, s1: np.ndarray, s2: np.ndarray, cap: int, n_sentences: int) -> np.ndarray:
    """Keep candidates in ``order`` while both sentences occur fewer than ``cap`` times among the kept."""
    count = [0] * n_sentences
    kept = []
    for i, a, b in zip(order.tolist(), s1[order].tolist(), s2[order].tolist()):
        if count[a] < cap and count[b] < cap:
            count[a] += 1
            count[b] += 1
            kept.append(i)
    return np.asarray(kept, dtype=np.int64)


def _first_per_stratum(idx: np.ndarray, stratum: np.ndarray, quota: np.ndarray) -> np.ndarray:
    """Boolean mask over ``idx``: the first ``quota[s]`` entries of each stratum, in order."""
    st = stratum[idx]
    rank = pd.Series(st).groupby(st).cumcount().to_numpy()
    return rank < quota[st]


def term_classes(selected: pd.DataFrame) -> np.ndarray:
    """Term class (int64) of each selected mention, by sentence key: terms equal by lemma *or* by their
    lowercase string are one class (connected components of the lemma / lowercase-string graph).

    The reference keys term pairs by lemma; :mod:`biosem.wic.validate` (and a reader of the released
    files) compares lowercase strings. Neither key alone is enough: WordNet reads the mention "ps" as the
    plural of "p" (lemma "p") while "PS", an acronym, keeps lemma "ps", so ("ps", "pseudogene") and
    ("PS", "pseudogene") differ by lemma and are one pair lowercased (CRAFT, issue 38).
    """
    ordered = selected.sort_values("sentence_key")
    lemma_codes, lemma_values = pd.factorize(ordered["lemma"], sort=True)
    lower_codes, _ = pd.factorize(ordered["term_lower"], sort=True)
    n_lemma = len(lemma_values)
    n = n_lemma + (int(lower_codes.max()) + 1 if lower_codes.size else 0)
    graph = sp.csr_matrix((np.ones(lemma_codes.size, dtype=bool), (lemma_codes, lower_codes + n_lemma)), shape=(n, n))
    _, component = connected_components(graph, directed=False)
    return component[lemma_codes].astype(np.int64)


def term_pair_keys(selected: pd.DataFrame, s1: np.ndarray, s2: np.ndarray) -> np.ndarray:
    """Unordered term-pair key (int64) of each candidate; equal keys = the same term pair, by lemma or by
    lowercase string (:func:`term_classes`)."""
    codes = term_classes(selected)
    a, b = codes[s1], codes[s2]
    n = int(codes.max()) + 1 if codes.size else 1
    return np.minimum(a, b) * n + np.maximum(a, b)


def _describe_unfilled(
    what: str, quota: np.ndarray, filled: np.ndarray, stratum: np.ndarray, term_pair: np.ndarray
) -> str:
    lines = []
    for s in np.nonzero(filled < quota)[0]:
        group, label = _stratum_name(int(s))
        in_s = stratum == s
        lines.append(
            f"{what} {group} label {label}: needed {int(quota[s])}, available {int(filled[s])} "
            f"({int(in_s.sum())} candidates, {int(np.unique(term_pair[in_s]).size)} distinct term pairs)"
        )
    return "; ".join(lines)


def split_candidates(
    candidates: pd.DataFrame, selected: pd.DataFrame, params: SplitParams, rng: np.random.Generator
) -> SplitResult:
    """Assign candidates to test, dev and train (see the module docstring).

    Args:
        candidates: :data:`biosem.wic.schemas.CANDIDATES` rows.
        selected: :data:`biosem.wic.schemas.SELECTED` (sentence keys 0..N-1, lemma).
        params: quotas, policy, sentence cap.
        rng: generator for the permutation.

    Returns:
        :class:`SplitResult`; indices are row positions in ``candidates`` sorted by
        (group, sentence1, sentence2), listed in the shuffled order.

    Raises:
        QuotaError: a quota cannot be filled and ``quota_policy`` is ``error``.
        ValueError: an unknown policy, an odd quota, or ``balanced`` without ``balance_train``.
    """
    if params.quota_policy not in QUOTA_POLICIES:
        raise ValueError(f"quota_policy must be one of {QUOTA_POLICIES}, got {params.quota_policy!r}")
    if params.quota_policy == "balanced" and not params.balance_train:
        raise ValueError("quota_policy balanced balances every split per group: it needs balance_train true")
    cand = candidates.sort_values(["group", "sentence1", "sentence2"], kind="stable").reset_index(drop=True)
    group_index = {g: i for i, g in enumerate(GROUPS)}
    stratum = cand["group"].map(group_index).to_numpy(dtype=np.int64) * 2 + cand["label"].to_numpy(dtype=np.int64)
    s1 = cand["sentence1"].to_numpy(dtype=np.int64)
    s2 = cand["sentence2"].to_numpy(dtype=np.int64)
    tp = term_pair_keys(selected, s1, s2)
    order = rng.permutation(len(cand)).astype(np.int64)
    n_strata = 2 * len(GROUPS)
    test_q = _per_label(params.test_quotas)
    dev_q = _per_label(params.dev_quotas)
    stats: dict[str, int] = {"candidates": len(cand)}

    if params.quota_policy == "scale":
        for g, name in enumerate(GROUPS):
            need = test_q[2 * g : 2 * g + 2] + dev_q[2 * g : 2 * g + 2]
            avail = np.array([np.unique(tp[stratum == 2 * g + lab]).size for lab in (0, 1)], dtype=np.float64)
            with np.errstate(divide="ignore", invalid="ignore"):
                factor = float(np.nanmin(np.where(need > 0, params.heldout_share * avail / need, np.inf)))
            factor = min(1.0, factor) if np.isfinite(factor) else 1.0
            for q in (test_q, dev_q):
                q[2 * g : 2 * g + 2] = int(np.floor(q[2 * g] * factor))
            if factor < 1.0:
                log.info(
                    "scale: %s test/dev quotas x %.4f -> test %d, dev %d (per label; term pairs label 0/1: %d/%d)",
                    name,
                    factor,
                    test_q[2 * g],
                    dev_q[2 * g],
                    avail[0],
                    avail[1],
                )

    term_pairs = np.array([np.unique(tp[stratum == s]).size for s in range(n_strata)], dtype=np.int64)
    if params.quota_policy in ("fill", "balanced"):
        test_q, dev_q = _heldout_quotas(test_q, dev_q, term_pairs, params)
    if params.quota_policy == "balanced":
        test_q, dev_q = _equal_labels(test_q), _equal_labels(dev_q)
    stats.update({f"term_pairs_{GROUPS[s // 2]}_{s % 2}": int(term_pairs[s]) for s in range(n_strata)})
    left_out: dict[str, dict[str, str]] = {split: {} for split in SPLITS}
    configured = {"test": _per_label(params.test_quotas), "dev": _per_label(params.dev_quotas)}

    def select_test(quota: np.ndarray) -> np.ndarray:
        return greedy_unique(order, stratum, s1, s2, tp, quota)

    test, test_q = _fill_quotas(
        "test", select_test, test_q, configured["test"], params, stratum, tp, term_pairs, left_out
    )

    test_sentences = np.unique(np.concatenate([s1[test], s2[test]]))
    touches = np.isin(s1, test_sentences) | np.isin(s2, test_sentences) | np.isin(tp, np.unique(tp[test]))
    pool = order[~touches[order]]
    n_sentences = int(selected["sentence_key"].max()) + 1 if len(selected) else 0
    kept = sentence_cap(pool, s1, s2, params.train_sentence_cap, n_sentences)
    stats.update(pool_after_test=int(pool.size), pool_after_sentence_cap=int(kept.size))

    def select_dev(quota: np.ndarray) -> np.ndarray:
        return kept[_first_per_stratum(kept, stratum, quota)]

    dev, dev_q = _fill_quotas("dev", select_dev, dev_q, configured["dev"], params, stratum, tp, term_pairs, left_out)
    train = kept[~np.isin(kept, dev)]
    stats["train_before_balance"] = int(train.size)
    if params.balance_train and train.size:
        per = np.bincount(stratum[train], minlength=n_strata)
        low = np.minimum(per[0::2], per[1::2])
        if params.quota_policy == "balanced":
            for g in np.nonzero(low < params.min_stratum)[0]:
                left_out["train"][GROUPS[g]] = (
                    f"{int(low[g])} per label < min_stratum {params.min_stratum} "
                    f"(train candidates label 1 / 0: {int(per[2 * g + 1])} / {int(per[2 * g])})"
                )
                log.info("balanced: %s left out of train: %s", GROUPS[g], left_out["train"][GROUPS[g]])
                low[g] = 0
        train = train[_first_per_stratum(train, stratum, np.repeat(low, 2))]
    stats["train"] = int(train.size)
    pool_strata = np.bincount(stratum[kept], minlength=n_strata) if kept.size else np.zeros(n_strata, np.int64)
    stats.update({f"pool_{GROUPS[s // 2]}_{s % 2}": int(pool_strata[s]) for s in range(n_strata)})
    return SplitResult(
        indices={"train": train, "dev": dev, "test": test},
        quotas={"test": _per_group(test_q), "dev": _per_group(dev_q)},
        stats=stats,
        left_out={split: groups for split, groups in left_out.items() if groups},
    )


def _heldout_quotas(
    test_q: np.ndarray, dev_q: np.ndarray, term_pairs: np.ndarray, params: SplitParams
) -> tuple[np.ndarray, np.ndarray]:
    """``fill`` / ``balanced``: a stratum with fewer distinct term pairs than test + dev need gives test +
    dev ``heldout_share`` of them (the rest stays for train), shared in the quotas' ratio (the paper's
    2:1, test at least one); the other strata keep their quotas."""
    need = test_q + dev_q
    short = term_pairs < need
    held = np.floor(params.heldout_share * term_pairs).astype(np.int64)
    share = np.where(need > 0, test_q / np.maximum(need, 1), 0.0)
    test_short = np.minimum(test_q, np.maximum(np.ceil(held * share).astype(np.int64), term_pairs > 0))
    dev_short = np.minimum(dev_q, np.maximum(held - test_short, 0))
    for s in np.nonzero(short)[0]:
        group, label = _stratum_name(int(s))
        log.info(
            "%s: %s label %d has %d distinct term pairs for test %d + dev %d: quotas test %d, dev %d "
            "(heldout_share %.2f)",
            params.quota_policy,
            group,
            label,
            term_pairs[s],
            test_q[s],
            dev_q[s],
            test_short[s],
            dev_short[s],
            params.heldout_share,
        )
    return np.where(short, test_short, test_q), np.where(short, dev_short, dev_q)


def _equal_labels(quota: np.ndarray) -> np.ndarray:
    """Both labels of each group at the smaller of their two quotas."""
    low = np.minimum(quota[0::2], quota[1::2])
    return np.repeat(low, 2)


def _fill_quotas(
    split: str,
    select: Callable[[np.ndarray], np.ndarray],
    quota: np.ndarray,
    configured: np.ndarray,
    params: SplitParams,
    stratum: np.ndarray,
    term_pair: np.ndarray,
    term_pairs: np.ndarray,
    left_out: dict[str, dict[str, str]],
) -> tuple[np.ndarray, np.ndarray]:
    """Select ``split`` with ``select(quota)`` until every stratum fills its quota, lowering quotas by
    ``params.quota_policy`` (``error``: raise; ``fill``: each stratum to what it filled; ``scale`` and
    ``balanced``: both labels of a group to the smaller label's fill). ``balanced`` then leaves out a
    group whose per-label quota is below its configured quota and below ``min_stratum`` (quota 0,
    reason in ``left_out[split]``) and selects again. Returns the chosen indices and the final quotas.

    Raises:
        QuotaError: a quota is not filled under ``quota_policy: error``.
    """
    quota = quota.copy()
    n_strata = quota.size
    while True:
        chosen = select(quota)
        filled = np.bincount(stratum[chosen], minlength=n_strata) if chosen.size else np.zeros(n_strata, np.int64)
        if (filled >= quota).all():
            if params.quota_policy != "balanced":
                return chosen, quota
            per = quota[0::2]
            short = np.nonzero((per < configured[0::2]) & (per < params.min_stratum))[0]
            short = [g for g in short if GROUPS[g] not in left_out[split]]
            if not short:
                return chosen, quota
            for g in short:
                left_out[split][GROUPS[g]] = (
                    f"quota {int(per[g])} per label < min_stratum {params.min_stratum} "
                    f"(distinct term pairs label 1 / 0: {int(term_pairs[2 * g + 1])} / {int(term_pairs[2 * g])})"
                )
                log.info("balanced: %s left out of %s: %s", GROUPS[g], split, left_out[split][GROUPS[g]])
                quota[2 * g : 2 * g + 2] = 0
            continue
        if params.quota_policy == "error":
            raise QuotaError(_describe_unfilled(split, quota, filled, stratum, term_pair))
        if params.quota_policy == "fill":
            for s in np.nonzero(filled < quota)[0]:
                log.info(
                    "fill: %s %s label %d quota %d -> %d (filled)", split, *_stratum_name(int(s)), quota[s], filled[s]
                )
            quota = np.minimum(quota, filled)
            continue
        for g in range(len(GROUPS)):
            low = int(min(filled[2 * g], filled[2 * g + 1]))
            if low < quota[2 * g]:
                log.info(
                    "%s: %s %s quota per label %d -> %d (filled)",
                    params.quota_policy,
                    split,
                    GROUPS[g],
                    quota[2 * g],
                    low,
                )
                quota[2 * g : 2 * g + 2] = low


def split_records(candidates: pd.DataFrame, selected: pd.DataFrame, indices: np.ndarray) -> pd.DataFrame:
    """The rows of one split in the :data:`biosem.wic.schemas.SPLIT` layout.

    ``indices`` are positions in ``candidates`` sorted by (group, sentence1, sentence2) (as returned
    by :func:`split_candidates`); rows come out in that order.
    """
    cand = candidates.sort_values(["group", "sentence1", "sentence2"], kind="stable").reset_index(drop=True)
    rows = cand.iloc[indices]
    sel = selected.set_index("sentence_key")
    a = sel.loc[rows["sentence1"].to_numpy()]
    b = sel.loc[rows["sentence2"].to_numpy()]
    return pd.DataFrame(
        {
            "term1": a["term"].to_numpy(),
            "term2": b["term"].to_numpy(),
            "sentence1": a["sentence"].to_numpy(),
            "sentence2": b["sentence"].to_numpy(),
            "start1": a["start"].to_numpy(dtype=np.int64),
            "start2": b["start"].to_numpy(dtype=np.int64),
            "end1": a["end"].to_numpy(dtype=np.int64),
            "end2": b["end"].to_numpy(dtype=np.int64),
            "cat": rows["group"].to_numpy(),
            "label": rows["label"].to_numpy(dtype=np.int64),
            "concept_id1": a["concept_id"].to_numpy(),
            "concept_id2": b["concept_id"].to_numpy(),
            "corpus1": a["corpus"].to_numpy(),
            "document_id1": a["document_id"].to_numpy(),
            "corpus2": b["corpus"].to_numpy(),
            "document_id2": b["document_id"].to_numpy(),
        }
    )


def counts_table(
    splits: dict[str, pd.DataFrame],
    quotas: dict[str, dict],
    stats: dict[str, int] | None = None,
    left_out: dict[str, dict[str, str]] | None = None,
    quota_policy: str | None = None,
) -> pd.DataFrame:
    """Instances per split × group × label, with the quota used, the paper's quota (per label) and,
    for test and dev, what bounds a stratum short of the paper's quota.

    Columns ``split, cat, label, n, quota, paper_quota, candidate_term_pairs, candidates_left, bound,
    left_out``:
    ``candidate_term_pairs`` = distinct term pairs among the stratum's candidates (test takes each at
    most once, so it bounds test); ``candidates_left`` = the stratum's candidates left for dev and train
    after test and the sentence cap (it bounds dev); ``bound`` says what limits a stratum short of the
    paper's quota: ``term_pairs`` (fewer distinct term pairs than the paper's test + dev quotas),
    ``candidates_left`` (dev: fewer candidates left than its quota), ``sentences`` (test: term pairs
    left, but their sentences are in test already), ``scaled`` (``quota_policy: scale`` lowered the
    quota), ``other_label`` (``balanced``: the group's other label is the short one), ``min_stratum``
    (``balanced``: the group is left out of the split); empty where the quota is met and for train.
    ``left_out``: why the group is left out of the split (:attr:`SplitResult.left_out`), else empty.
    ``stats`` are :attr:`SplitResult.stats` (without them the candidate columns are empty).
    """
    left_out = left_out or {}
    rows = []
    stats = stats or {}
    for split in SPLITS:
        frame = splits[split]
        got = frame.groupby(["cat", "label"]).size() if len(frame) else pd.Series(dtype=np.int64)
        for name in GROUPS:
            for label in LABELS:
                q = label_quota(quotas.get(split, {}), name, label)
                paper = label_quota(PAPER_QUOTAS.get(split, {}), name, label)
                n = int(got.get((name, label), 0))
                term_pairs = stats.get(f"term_pairs_{name}_{label}")
                left = stats.get(f"pool_{name}_{label}")
                bound = ""
                if paper is not None and n < paper and split == "test":
                    both = paper + (label_quota(PAPER_QUOTAS["dev"], name, label) or 0)
                    if term_pairs is not None and term_pairs < both:
                        bound = "term_pairs"  # fewer than test + dev need (fill: heldout_share of them)
                    else:
                        bound = "scaled" if q is not None and n == q < paper else "sentences"
                elif paper is not None and n < paper and split == "dev":
                    both = paper + (label_quota(PAPER_QUOTAS["test"], name, label) or 0)
                    if left is not None and left < paper:
                        bound = "candidates_left"
                    elif term_pairs is not None and term_pairs < both:
                        bound = "term_pairs"
                    else:
                        bound = "scaled"
                if bound == "scaled" and quota_policy == "balanced":
                    bound = "other_label"
                why = left_out.get(split, {}).get(name, "")
                if why and paper is not None and n < paper:
                    bound = "min_stratum"
                rows.append(
                    {
                        "split": split,
                        "cat": name,
                        "label": label,
                        "n": n,
                        "quota": pd.NA if q is None else q,
                        "paper_quota": pd.NA if paper is None else paper,
                        "candidate_term_pairs": pd.NA if term_pairs is None else term_pairs,
                        "candidates_left": pd.NA if left is None else left,
                        "bound": bound,
                        "left_out": why,
                    }
                )
    out = pd.DataFrame(rows)
    for column in ("quota", "paper_quota", "candidate_term_pairs", "candidates_left"):
        out[column] = out[column].astype("Int64")
    return out
