"""Candidate sentence pairs by blocking, in BioWiC's four groups (docs/design.md § wic).

The reference (``step2_tuple_creation.py``) compares every pair of the ~60,000 selected sentences in
Python (1.8 billion pairs, a Levenshtein matrix in numpy per pair). The groups only depend on the two
mentions' *terms* and *concepts*, so biosem works on **units** — the distinct (lowercase term, lemma,
concept) of the selected mentions, each with the list of its sentences — finds the unit pairs of each
group by blocking on the terms, and only then expands unit pairs to sentence pairs.

Groups, for two mentions with lowercased terms ``a``, ``b`` (the first that matches wins):

1. ``term_identity``: ``a == b`` or their lemmas are equal (:func:`biosem.wic.lexical.lemmas`);
   blocking key: the term and the lemma.
2. ``abbreviations``: the initials of one term's whitespace/hyphen tokens equal the other term
   (case-insensitive: ``CF`` / ``cystic fibrosis``); the long form needs at least
   ``abbreviation_min_tokens`` tokens (default 2: one-letter "abbreviations" of every word are noise
   the reference lets in). Blocking key: the initials. With a terminology, also a concept's
   abbreviation term (term types ``wic.abbreviation_ttys``, MeSH LexicalTag ABB / ACR, UBERON's
   ``ABBREVIATION`` synonym type) and another of its terms (:func:`terminology_abbreviation_term_pairs`;
   ``AD`` / ``Alzheimer disease``, whose initials would not match); and, with
   ``wic.abbreviation_definitions``, a short form and its long form as the corpora's texts define them
   ("quantitative trait loci (QTLs)"; :func:`biosem.wic.lexical.parenthesised_definitions`,
   :func:`definition_term_pairs`).
3. ``synonyms``: both terms are in the term set of one concept: the terminology's terms (lowercased)
   when a terminology is configured, else the terms the corpora annotate with that concept.
   Blocking key: the concept of the term set.
4. ``label_similarity``: ``fuzz.ratio(a, b) / 100 > threshold`` (strictly, as the reference's
   ``Lev_ratio > 0.75``; ``fuzz.ratio`` is exactly the reference's Levenshtein ratio with substitution
   cost 2: ``(|a| + |b| - indel(a, b)) / (|a| + |b|)``). Computed with rapidfuzz ``process.cdist``
   over the *unique* terms, in row blocks restricted to the length window the threshold allows
   (``2 min(|a|,|b|) / (|a| + |b|)`` bounds the ratio), with ``score_cutoff`` and ``workers``; the
   survivors are re-checked in exact integer arithmetic.

Label 1 when both mentions have the same concept, else 0. Pairs of related concepts are then removed
(:mod:`biosem.wic.prune`; without a terminology also pairs of ids from different namespaces,
whose label cannot be known), and, with ``negative_links``, label-0 pairs whose concepts are linked
(one record, ancestor at any depth, a mention string that is a term of the other concept, one term
written twice, a gene family and its member). A unit
pair with more sentence pairs than ``max_pairs_per_block`` (per label, since a unit pair has one
label) is expanded to a seeded uniform sample of that many (``None``: all pairs, as the reference).
Counts before and after pruning and capping are exact.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from fractions import Fraction

import numpy as np
import pandas as pd
from rapidfuzz import fuzz, process
from rapidfuzz.distance import Indel

from biosem.wic import GROUPS
from biosem.wic.lexical import initials
from biosem.wic.prune import DEFAULT_PRUNE_RELATIONS, prune_reasons, reason_order

log = logging.getLogger(__name__)

IDENTITY, ABBREVIATION, SYNONYM, LABEL_SIMILARITY = range(4)


@dataclass(frozen=True)
class CandidateParams:
    """Candidate construction parameters (config ``wic``; defaults = the paper and the config schema's,
    so no link test: ``negative_links`` is biosem's addition, all on in ``config/config.yaml``)."""

    label_similarity_threshold: float = 0.75
    abbreviation_min_tokens: int = 2
    max_pairs_per_block: int | None = 1000
    prune_relations: tuple[str, ...] = DEFAULT_PRUNE_RELATIONS
    prune_shared_codes: bool = True
    negative_links: tuple[str, ...] = ()
    gene_family_namespaces: tuple[str, ...] = ()
    workers: int = 1
    block_rows: int = 1024


def params_from_config(wic: dict, workers: int = 1) -> CandidateParams:
    """:class:`CandidateParams` from the config ``wic`` section as validated by
    ``workflow/schemas/wic.schema.yaml`` (every key present: the schema holds the defaults)."""
    return CandidateParams(
        label_similarity_threshold=float(wic["label_similarity_threshold"]),
        abbreviation_min_tokens=int(wic["abbreviation_min_tokens"]),
        max_pairs_per_block=wic["max_pairs_per_block"],
        prune_relations=tuple(wic["prune_relations"]),
        prune_shared_codes=bool(wic["prune_shared_codes"]),
        negative_links=tuple(wic["negative_links"]),
        gene_family_namespaces=tuple(wic.get("gene_family_namespaces") or ()),
        workers=workers,
    )


# --------------------------------------------------------------------------------------------------
# Units
# --------------------------------------------------------------------------------------------------
@dataclass
class Units:
    """Distinct (term_lower, lemma, concept_id) of the selected mentions and their sentences.

    ``table``: one row per unit (index = unit id, sorted by term_lower, lemma, concept_id) with
    ``term_lower, lemma, concept_id, term`` (id into ``terms``), ``n`` (sentences), ``offset``.
    ``members``: sentence keys grouped by unit (unit ``u`` owns
    ``members[offset[u] : offset[u] + n[u]]``, ascending). ``terms``: the sorted unique lowercase terms.
    """

    table: pd.DataFrame
    members: np.ndarray
    terms: np.ndarray


def build_units(selected: pd.DataFrame) -> Units:
    """Group the selected mentions (columns sentence_key, term_lower, lemma, concept_id) into units."""
    keys = ["term_lower", "lemma", "concept_id"]
    frame = selected[keys + ["sentence_key"]].sort_values(keys + ["sentence_key"], kind="stable")
    unit_of = frame.groupby(keys, sort=True).ngroup().to_numpy()
    table = frame.drop_duplicates(keys).reset_index(drop=True)[keys]
    n = np.bincount(unit_of, minlength=len(table)).astype(np.int64)
    offset = np.concatenate([[0], np.cumsum(n)[:-1]]).astype(np.int64) if len(table) else np.zeros(0, np.int64)
    terms = np.unique(table["term_lower"].to_numpy(dtype=object)) if len(table) else np.array([], dtype=object)
    table["term"] = np.searchsorted(terms, table["term_lower"].to_numpy(dtype=object))
    table["n"] = n
    table["offset"] = offset
    return Units(table=table, members=frame["sentence_key"].to_numpy(dtype=np.int64), terms=terms)


# --------------------------------------------------------------------------------------------------
# Blocking, per group
# --------------------------------------------------------------------------------------------------
def _pairs_within(keys: pd.Series) -> pd.DataFrame:
    """Unordered pairs (u <= v) of row ids sharing a key (including u == v)."""
    frame = pd.DataFrame({"key": keys.to_numpy(), "u": np.arange(len(keys), dtype=np.int64)})
    j = frame.merge(frame, on="key", suffixes=("", "_2"))
    j = j[j["u"] <= j["u_2"]]
    return pd.DataFrame({"u": j["u"].to_numpy(), "v": j["u_2"].to_numpy()})


def identity_unit_pairs(units: Units) -> pd.DataFrame:
    """Unit pairs (u <= v) whose lowercase terms or lemmas are equal (u == v: a unit's own pairs)."""
    both = pd.concat([_pairs_within(units.table["term_lower"]), _pairs_within(units.table["lemma"])])
    return both.drop_duplicates().sort_values(["u", "v"]).reset_index(drop=True)


def _term_ids(terms: np.ndarray, strings: np.ndarray) -> np.ndarray:
    """Index of each string in the sorted ``terms``, or -1 where it is not a term."""
    if not len(terms) or not len(strings):
        return np.full(len(strings), -1, dtype=np.int64)
    pos = np.searchsorted(terms, strings)
    clipped = np.minimum(pos, len(terms) - 1)
    return np.where(terms[clipped] == strings, clipped, -1).astype(np.int64)


def abbreviation_term_pairs(terms: np.ndarray, min_tokens: int = 2) -> pd.DataFrame:
    """Term pairs (ids into ``terms``, t1 < t2) where one term's initials equal the other term."""
    init = initials(list(terms), min_tokens)
    long_ids = np.nonzero(np.array([x is not None for x in init], dtype=bool))[0]
    short_ids = _term_ids(terms, init[long_ids].astype(object))
    hit = (short_ids >= 0) & (short_ids != long_ids)
    return _canonical_term_pairs(long_ids[hit], short_ids[hit])


def terminology_abbreviation_term_pairs(terms: np.ndarray, term_sets: pd.DataFrame) -> pd.DataFrame:
    """Term pairs (t1 < t2) of a concept's abbreviation and another of its terms, both corpus terms.

    ``term_sets``: ``concept_id, term_lower, abbreviation`` (see :func:`biosem.io.read_term_sets`;
    ``abbreviation`` from the terminology's term types, e.g. MeSH LexicalTag ABB / ACR). The
    abbreviation must be one token (no whitespace) and shorter than the long form, which must not be an
    abbreviation of the concept itself: MeSH tags some multi-word entry terms ABB or ACR ("RNAi
    Therapeutics", "Carbohydrate Loading Diet"), and those are not short forms.
    """
    if "abbreviation" not in term_sets or not len(term_sets):
        return _canonical_term_pairs(np.zeros(0, np.int64), np.zeros(0, np.int64))
    ts = term_sets[["concept_id", "term_lower", "abbreviation"]].drop_duplicates()
    ids = _term_ids(terms, ts["term_lower"].to_numpy(dtype=object))
    ts = ts.assign(t=ids)[ids >= 0]
    short = ts[ts["abbreviation"] & ~ts["term_lower"].str.contains(r"\s", regex=True)]
    long = ts[~ts["abbreviation"]]
    j = short.merge(long, on="concept_id", suffixes=("_s", "_l"))
    j = j[j["term_lower_s"].str.len() < j["term_lower_l"].str.len()]
    return _canonical_term_pairs(j["t_s"].to_numpy(), j["t_l"].to_numpy())


def definition_term_pairs(terms: np.ndarray, definitions: pd.DataFrame | None) -> pd.DataFrame:
    """Term pairs (t1 < t2) of a short form and its long form defined in the texts, both corpus terms.

    ``definitions``: ``short_lower, long_lower`` (:data:`biosem.wic.schemas.DEFINITIONS`); ``None``: none.
    """
    if definitions is None or not len(definitions):
        return _canonical_term_pairs(np.zeros(0, np.int64), np.zeros(0, np.int64))
    short = _term_ids(terms, definitions["short_lower"].to_numpy(dtype=object))
    long = _term_ids(terms, definitions["long_lower"].to_numpy(dtype=object))
    hit = (short >= 0) & (long >= 0) & (short != long)
    return _canonical_term_pairs(short[hit], long[hit])


def synonym_term_pairs(terms: np.ndarray, term_sets: pd.DataFrame) -> pd.DataFrame:
    """Term pairs (t1 < t2) that are both in the term set of one concept.

    ``term_sets``: columns ``concept_id, term_lower`` (lowercased already).
    """
    ts = term_sets[["concept_id", "term_lower"]].drop_duplicates()
    ids = _term_ids(terms, ts["term_lower"].to_numpy(dtype=object))
    frame = pd.DataFrame({"concept_id": ts["concept_id"].to_numpy()[ids >= 0], "t": ids[ids >= 0]})
    frame = frame[frame.duplicated("concept_id", keep=False)]
    j = frame.merge(frame, on="concept_id", suffixes=("1", "2"))
    j = j[j["t1"] < j["t2"]]
    return _canonical_term_pairs(j["t1"].to_numpy(), j["t2"].to_numpy())


def _threshold_fraction(threshold: float) -> Fraction:
    return Fraction(str(threshold))


def label_similarity_term_pairs(
    terms: np.ndarray, threshold: float = 0.75, workers: int = 1, block_rows: int = 1024
) -> pd.DataFrame:
    """Term pairs (t1 < t2, distinct terms) with ``fuzz.ratio / 100 > threshold``, exactly.

    Rows of a length-sorted copy are compared in blocks with the columns at or after the block whose
    length can still pass (``2 |a| / (|a| + |b|) > threshold`` for ``|a| <= |b|``), via rapidfuzz
    ``process.cdist(scorer=fuzz.ratio, score_cutoff=floor(100 t) - 1, dtype=uint8, workers)``; each
    survivor is then verified with the exact Indel distance: ``(L - indel) * den > num * L`` where
    ``L = |a| + |b|`` and ``threshold = num / den``. Returns columns ``t1, t2, ratio`` (ratio 0–100).
    """
    n = len(terms)
    if n < 2:
        return pd.DataFrame({"t1": np.zeros(0, np.int64), "t2": np.zeros(0, np.int64), "ratio": np.zeros(0)})
    frac = _threshold_fraction(threshold)
    lengths = np.fromiter((len(t) for t in terms), dtype=np.int64, count=n)
    order = np.lexsort((np.arange(n), lengths))
    sorted_terms = [terms[i] for i in order]
    sorted_len = lengths[order]
    cutoff = max(int(np.floor(float(frac) * 100)) - 1, 0)
    # |b| must satisfy 2|a| * den > num (|a| + |b|)  <=>  |b| < |a| (2 den - num) / num.
    num, den = frac.numerator, frac.denominator
    found_a: list[np.ndarray] = []
    found_b: list[np.ndarray] = []
    for r0 in range(0, n, block_rows):
        r1 = min(r0 + block_rows, n)
        max_len = int(sorted_len[r1 - 1])
        if num == 0:
            c1 = n
        else:
            # largest |b| allowed: (2 den - num) * |a| / num, exclusive; use <= bound and verify later
            bound = (2 * den - num) * max_len // num
            c1 = int(np.searchsorted(sorted_len, bound, side="right"))
        scores = process.cdist(
            sorted_terms[r0:r1],
            sorted_terms[r0:c1],
            scorer=fuzz.ratio,
            score_cutoff=cutoff,
            dtype=np.uint8,
            workers=workers,
        )
        ri, ci = np.nonzero(scores)
        ri = ri + r0
        ci = ci + r0
        keep = ci > ri
        found_a.append(ri[keep])
        found_b.append(ci[keep])
    a = order[np.concatenate(found_a)] if found_a else np.zeros(0, np.int64)
    b = order[np.concatenate(found_b)] if found_b else np.zeros(0, np.int64)
    ratio = np.zeros(0)
    if a.size:
        dist = process.cpdist(
            [terms[i] for i in a],
            [terms[i] for i in b],
            scorer=Indel.distance,
            dtype=np.int64,
            workers=workers,
        ).astype(np.int64)
        total = lengths[a] + lengths[b]
        exact = (total - dist) * den > num * total
        a, b, dist, total = a[exact], b[exact], dist[exact], total[exact]
        ratio = 100.0 * (total - dist) / total
    frame = pd.DataFrame({"t1": np.minimum(a, b), "t2": np.maximum(a, b), "ratio": ratio})
    return frame.sort_values(["t1", "t2"], kind="stable").reset_index(drop=True)


def _canonical_term_pairs(a: np.ndarray, b: np.ndarray) -> pd.DataFrame:
    a = np.asarray(a, dtype=np.int64)
    b = np.asarray(b, dtype=np.int64)
    t1, t2 = np.minimum(a, b), np.maximum(a, b)
    frame = pd.DataFrame({"t1": t1, "t2": t2}).drop_duplicates()
    return frame.sort_values(["t1", "t2"], kind="stable").reset_index(drop=True)


def _term_to_unit_pairs(term_pairs: pd.DataFrame, units: Units) -> pd.DataFrame:
    """All unit pairs (u < v) whose terms form one of ``term_pairs`` (t1, t2)."""
    by_term = pd.DataFrame({"t": units.table["term"].to_numpy(), "u": np.arange(len(units.table), dtype=np.int64)})
    j = term_pairs[["t1", "t2"]].merge(by_term.rename(columns={"t": "t1", "u": "a"}), on="t1")
    j = j.merge(by_term.rename(columns={"t": "t2", "u": "b"}), on="t2")
    a, b = j["a"].to_numpy(), j["b"].to_numpy()
    return pd.DataFrame({"u": np.minimum(a, b), "v": np.maximum(a, b)})


def group_unit_pairs(
    units: Units, term_sets: pd.DataFrame, params: CandidateParams, definitions: pd.DataFrame | None = None
) -> tuple[pd.DataFrame, dict[str, int]]:
    """Every unit pair that falls in a group, with its group (first match wins) and label.

    ``definitions``: the texts' abbreviation definitions (``short_lower, long_lower``), or ``None``.

    Returns ``(pairs, stats)``: pairs columns ``u <= v, group`` (index into
    :data:`biosem.wic.GROUPS`), ``label`` (1 same concept), ``concept1``, ``concept2``; stats: term
    pairs found per blocking rule.
    """
    terms = units.terms
    parts = [identity_unit_pairs(units).assign(group=IDENTITY)]
    abbr_initials = abbreviation_term_pairs(terms, params.abbreviation_min_tokens)
    abbr_terminology = terminology_abbreviation_term_pairs(terms, term_sets)
    abbr_definitions = definition_term_pairs(terms, definitions)
    abbr = (
        pd.concat([abbr_initials, abbr_terminology, abbr_definitions], ignore_index=True)
        .drop_duplicates()
        .sort_values(["t1", "t2"], kind="stable")
        .reset_index(drop=True)
    )
    syn = synonym_term_pairs(terms, term_sets)
    sim = label_similarity_term_pairs(terms, params.label_similarity_threshold, params.workers, params.block_rows)
    stats = {
        "unique_terms": len(terms),
        "units": len(units.table),
        "abbreviation_term_pairs": len(abbr),
        "abbreviation_term_pairs_initials": len(abbr_initials),
        "abbreviation_term_pairs_term_types": len(abbr_terminology),
        "abbreviation_term_pairs_definitions": len(abbr_definitions),
        "synonym_term_pairs": len(syn),
        "label_similarity_term_pairs": len(sim),
    }
    for group, tp in ((ABBREVIATION, abbr), (SYNONYM, syn), (LABEL_SIMILARITY, sim)):
        parts.append(_term_to_unit_pairs(tp, units).assign(group=group))
    pairs = pd.concat(parts, ignore_index=True)
    pairs = pairs.sort_values(["u", "v", "group"], kind="stable").drop_duplicates(["u", "v"]).reset_index(drop=True)
    concept = units.table["concept_id"].to_numpy(dtype=object)
    pairs["concept1"] = concept[pairs["u"].to_numpy()]
    pairs["concept2"] = concept[pairs["v"].to_numpy()]
    pairs["label"] = (pairs["concept1"] == pairs["concept2"]).astype(np.int64)
    return pairs, stats


# --------------------------------------------------------------------------------------------------
# Expansion to sentence pairs
# --------------------------------------------------------------------------------------------------
def sentence_pair_counts(pairs: pd.DataFrame, units: Units) -> np.ndarray:
    """Sentence pairs per unit pair: ``n_u * n_v``, or ``n_u (n_u - 1) / 2`` when u == v (int64)."""
    n = units.table["n"].to_numpy(dtype=np.int64)
    nu, nv = n[pairs["u"].to_numpy()], n[pairs["v"].to_numpy()]
    return np.where(pairs["u"].to_numpy() == pairs["v"].to_numpy(), nu * (nu - 1) // 2, nu * nv)


def triangle_pairs(k: np.ndarray, n: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Decode row-major indices ``k`` of the strict upper triangle of an ``n`` x ``n`` matrix to (i, j), i < j."""
    k = np.asarray(k, dtype=np.int64)
    n = np.asarray(n, dtype=np.int64)
    b = 2 * n - 1
    i = np.floor((b - np.sqrt(np.maximum(b * b - 8 * k, 0).astype(np.float64))) / 2).astype(np.int64)
    i = np.clip(i, 0, np.maximum(n - 2, 0))

    def before(r: np.ndarray) -> np.ndarray:  # entries in rows < r
        return r * (2 * n - r - 1) // 2

    for _ in range(3):  # floating-point correction; converges in one step
        i = np.where(before(i) > k, i - 1, i)
        i = np.where(before(i + 1) <= k, i + 1, i)
    j = k - before(i) + i + 1
    return i, j


def expand_pairs(
    pairs: pd.DataFrame, units: Units, cap: int | None, rng: np.random.Generator
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Sentence pairs of each unit pair (all, or a seeded sample of ``cap`` when there are more).

    Returns ``(sentence1, sentence2, pair_row)``: sentence keys with sentence1 < sentence2 and the row
    of ``pairs`` each comes from. Unit pairs are visited in row order and samples drawn with
    ``rng.choice(m, cap, replace=False)``, so the result depends only on the inputs and the generator.
    """
    table = units.table
    n = table["n"].to_numpy(dtype=np.int64)
    off = table["offset"].to_numpy(dtype=np.int64)
    u = pairs["u"].to_numpy(dtype=np.int64)
    v = pairs["v"].to_numpy(dtype=np.int64)
    m = sentence_pair_counts(pairs, units)
    capped = np.zeros(len(pairs), dtype=bool) if cap is None else m > cap
    full_rows = np.nonzero(~capped & (m > 0))[0]
    counts = m[full_rows]
    row = np.repeat(full_rows, counts)
    starts = np.concatenate([[0], np.cumsum(counts)[:-1]]) if counts.size else np.zeros(0, np.int64)
    local = np.arange(row.size, dtype=np.int64) - np.repeat(starts, counts)
    rows_parts = [row]
    local_parts = [local]
    for r in np.nonzero(capped)[0]:
        sample = np.sort(rng.choice(int(m[r]), size=int(cap), replace=False)).astype(np.int64)
        rows_parts.append(np.full(sample.size, r, dtype=np.int64))
        local_parts.append(sample)
    row = np.concatenate(rows_parts)
    local = np.concatenate(local_parts)
    ur, vr = u[row], v[row]
    same = ur == vr
    i = np.empty(row.size, dtype=np.int64)
    j = np.empty(row.size, dtype=np.int64)
    if same.any():
        i[same], j[same] = triangle_pairs(local[same], n[ur[same]])
    cross = ~same
    i[cross] = local[cross] // n[vr[cross]]
    j[cross] = local[cross] % n[vr[cross]]
    s1 = units.members[off[ur] + i]
    s2 = units.members[off[vr] + j]
    return np.minimum(s1, s2), np.maximum(s1, s2), row


# --------------------------------------------------------------------------------------------------
# The whole step
# --------------------------------------------------------------------------------------------------
def build_candidates(
    selected: pd.DataFrame,
    term_sets: pd.DataFrame,
    params: CandidateParams,
    rng: np.random.Generator,
    relations: pd.DataFrame | None = None,
    mappings: pd.DataFrame | None = None,
    records: pd.DataFrame | None = None,
    link_terms: pd.DataFrame | None = None,
    definitions: pd.DataFrame | None = None,
) -> tuple[pd.DataFrame, pd.DataFrame, dict[str, int]]:
    """Candidate sentence pairs of the selected mentions, grouped, labelled, pruned and capped.

    Args:
        selected: one mention per sentence (:data:`biosem.wic.schemas.SELECTED`).
        term_sets: (concept_id, term_lower) term sets for the synonym group.
        params: see :class:`CandidateParams`.
        rng: generator for the capped samples.
        relations, mappings: the terminology's intermediates for pruning (``None``: no pruning
            by that rule); for the ``ancestor`` link, every row of the hierarchical RELs.
        records: ``concept_id, record`` for the ``record`` link (MeSH: ``concepts.module``).
        link_terms: ``concept_id, term_lower``, every term of the pairs' concepts, for the
            ``synonym`` link (default ``term_sets``, which holds only the corpus strings).
        definitions: abbreviations the texts define (``short_lower, long_lower``), for the
            abbreviation group; ``None``: none.

    Returns:
        ``(candidates, counts, stats)``: candidates (sentence1 < sentence2, group name, label);
        counts per group × label: ``unit_pairs, sentence_pairs, pruned_<reason>...`` (sentence
        pairs, one column per reason of :func:`biosem.wic.prune.reason_order`), ``kept,
        materialised``; stats from the blocking and ``label0_unit_pairs_linked_<reason>``.
    """
    units = build_units(selected)
    pairs, stats = group_unit_pairs(units, term_sets, params, definitions)
    pairs["sentence_pairs"] = sentence_pair_counts(pairs, units)
    pairs = pairs[pairs["sentence_pairs"] > 0].reset_index(drop=True)
    term_lower = units.table["term_lower"].to_numpy(dtype=object)
    pairs["pruned"] = prune_reasons(
        pairs["concept1"],
        pairs["concept2"],
        relations,
        mappings,
        params.prune_relations,
        params.prune_shared_codes,
        links=params.negative_links,
        records=records,
        term1=pd.Series(term_lower[pairs["u"].to_numpy()], index=pairs.index),
        term2=pd.Series(term_lower[pairs["v"].to_numpy()], index=pairs.index),
        term_sets=term_sets if link_terms is None else link_terms,
        variant_scope=(pairs["group"] != IDENTITY).to_numpy(),
        family_namespaces=params.gene_family_namespaces,
    )
    reasons = reason_order(params.prune_relations, params.negative_links)
    for reason in reasons:
        stats[f"unit_pairs_pruned_{reason}"] = int((pairs["pruned"] == reason).sum())
    kept = pairs[pairs["pruned"].isna()].reset_index(drop=True)
    s1, s2, row = expand_pairs(kept, units, params.max_pairs_per_block, rng)
    group = kept["group"].to_numpy()[row]
    candidates = pd.DataFrame(
        {
            "sentence1": s1,
            "sentence2": s2,
            "group": np.asarray(GROUPS, dtype=object)[group],
            "label": kept["label"].to_numpy()[row],
        }
    )
    counts = _counts(pairs, candidates, reasons)
    return candidates, counts, stats


def _counts(pairs: pd.DataFrame, candidates: pd.DataFrame, reasons: list[str]) -> pd.DataFrame:
    """Counts per group × label: unit pairs, sentence pairs before pruning, pruned by reason (one column
    per reason in ``reasons``, zeros included, then any other reason found), kept, materialised."""
    index = pd.MultiIndex.from_product([list(GROUPS), [1, 0]], names=["group", "label"])
    g = pairs.assign(group=np.asarray(GROUPS, dtype=object)[pairs["group"].to_numpy()])
    out = pd.DataFrame(index=index)
    out["unit_pairs"] = g.groupby(["group", "label"]).size()
    out["sentence_pairs"] = g.groupby(["group", "label"])["sentence_pairs"].sum()
    found = [r for r in sorted(g["pruned"].dropna().unique()) if r not in reasons]
    for reason in [*reasons, *found]:
        sel = g[g["pruned"] == reason]
        out[f"pruned_{reason}"] = sel.groupby(["group", "label"])["sentence_pairs"].sum()
    out["kept"] = g[g["pruned"].isna()].groupby(["group", "label"])["sentence_pairs"].sum()
    out["materialised"] = candidates.groupby(["group", "label"]).size()
    return out.fillna(0).astype(np.int64).reset_index()
