"""Binary term-pair similarity datasets from a terminology (Schulz & Juric, AAAI 2020, "medisim").

Source-agnostic: the builders read the terminology intermediates (``concepts``, ``terms``,
``associations``; see :mod:`biosem.terminology.schemas`) of SNOMED CT RF2, UMLS RRF or OBO alike.

Roles (DESIGN.md § termpairs):

* **head term** of a concept: its active FSN (SNOMED CT) or, where it has none, its active preferred
  term (UMLS preferred name, OBO ``name``), cleaned: trailing semantic tag removed from FSNs
  (medisim's ``clean_pref_term`` rule), leading/trailing ``[D]`` removed, a leading ``obsolete ``
  removed (OBO names of obsolete terms).
* **synonyms**: the concept's other active terms of the configured term types (default synonym,
  preferred and abbreviation; for OBO the configured synonym scopes, default EXACT).
* **positives**: ``fsn_syn`` = (head, synonym); ``syn_syn`` = every unordered pair of {head} ∪
  synonyms (so FSN-SYN ⊂ SYN-SYN); association kinds ``possibly_equivalent_to``, ``replaced_by``,
  ``same_as`` = (head of the inactive concept, head of the active target), one dataset per kind,
  duplicates across kinds kept. Pairs identical after lowercasing are skipped; unordered duplicates
  (compared lowercased) are removed, keeping the first in (concept id, term id) order.
* **difficulty**: easy when Levenshtein(lower(a), lower(b)) <= ``easy_max_distance`` (paper: 5).
* **negatives**, one per positive: *random* pairs the first term with a term drawn from another
  instance of the same dataset; *levenshtein* pairs it with its nearest term of the dataset (distance
  > 0). In both, the partner must lie outside the first term's connected component of the similarity
  graph (all positives of the source, every kind; nodes are lowercased terms), which is stricter than
  medisim's two-hop exclusion. A negative pair never repeats within a dataset (unordered).
  When a dataset's own terms hold no valid partner for a first term (tiny datasets), the partner is
  drawn from all terms of the source's positives instead; such fallbacks are counted and logged.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc
from rapidfuzz import process
from rapidfuzz.distance import Levenshtein
from scipy.sparse import coo_matrix
from scipy.sparse.csgraph import connected_components

from biosem.levenshtein.index import LevenshteinIndex, ScanResult, rank_neighbours, tie_seeds

log = logging.getLogger(__name__)

POSITIVE_KINDS = ("fsn_syn", "syn_syn", "possibly_equivalent_to", "replaced_by", "same_as")
ASSOCIATION_KINDS = POSITIVE_KINDS[2:]
DIFFICULTIES = ("easy", "hard")
STRATEGIES = ("random", "levenshtein")
MODEL_COMPONENT_MODULE = "900000000000012004"

DATASETS = tuple(f"{k}_{d}_{s}" for k in POSITIVE_KINDS for d in DIFFICULTIES for s in STRATEGIES)
"""The 20 dataset names per source: ``<kind>_<easy|hard>_<random|levenshtein>``."""

POSITIVE_COLUMNS = ["kind", "difficulty", "term1", "term2", "concept_id1", "concept_id2", "levenshtein"]

RESUME_SLACK = 0
"""Distances beyond a first term's bound kept by its Levenshtein search (:meth:`LevenshteinIndex.scan`
``slack``), so that a first term left short of partners resumes its search (see
:func:`_assign_nearest`). Any value gives the same negatives; it only trades the first search's
cost (every pair within bound + slack is computed) against the searches that start again. 0: at
SNOMED CT scale the hard FSN-SYN + SYN-SYN searches take 231 s in all against 250 s with 1 and
287 s with 2 (README § Benchmarks); a search for more neighbours then resumes only where ties at
its bound suffice."""
RESUME_ROWS = 32
"""Most rows kept beyond a first term's ``need`` by those distances: whole distance levels are kept
while they fit (a few generic terms have thousands of terms one or two edits beyond their bound)."""
_FAR = np.int64(1) << 40  # no bound: every valid term was found


@dataclass(frozen=True)
class TermPairParams:
    """Construction parameters (config ``termpairs``; defaults = Schulz & Juric 2020)."""

    easy_max_distance: int = 5
    exclude_modules: tuple[str, ...] = (MODEL_COMPONENT_MODULE,)
    synonym_term_types: tuple[str, ...] = ("preferred", "synonym", "abbreviation")
    synonym_scopes: tuple[str, ...] | None = ("EXACT",)
    languages: tuple[str, ...] | None = ("en",)
    require_active_target: bool = True
    drop_associations_in_syn_syn: bool = True
    strip_prefixes: tuple[str, ...] = ("obsolete ",)
    random_rounds: int = 30
    extra: dict[str, object] = field(default_factory=dict)


# --------------------------------------------------------------------------------------------------
# Term cleaning
# --------------------------------------------------------------------------------------------------
def strip_semantic_tag(terms: pd.Series) -> pd.Series:
    """Remove a trailing SNOMED CT semantic tag: ``"Malaria (disorder)"`` -> ``"Malaria"``.

    medisim's rule: split at the last ``" ("`` of a term ending in ``")"``; keep the left part unless
    it ends with ``" or"`` or ``"&"`` or the tag starts with ``"&"`` (those parentheses belong to the
    name, e.g. ``"... or (...)"``).
    """
    s = terms.astype(object)
    parts = s.str.rpartition(" (")
    left, sep, right = parts[0], parts[1], parts[2]
    tagged = (
        s.str.endswith(")")
        & (sep == " (")
        & ~left.str.endswith((" or", "&"))
        & ~right.str.startswith("&")
    )
    return s.where(~tagged, left)


def strip_markers(terms: pd.Series, prefixes: tuple[str, ...] = ("obsolete ",)) -> pd.Series:
    """Remove leading/trailing ``[D]`` markers and case-insensitive ``prefixes``; strip spaces."""
    s = terms.astype(object).str.strip()
    s = s.str.replace(r"^\[D\]\s*", "", regex=True).str.replace(r"\s*\[D\]$", "", regex=True)
    for prefix in prefixes:
        has = s.str.lower().str.startswith(prefix.lower())
        s = s.where(~has, s.str.slice(len(prefix)))
    return s.str.strip()


def isin(values: pd.Series, members: object) -> pd.Series:
    """Boolean Series: is each value among ``members`` (null never matches).

    Hash-based (``pyarrow.compute.is_in``): pandas' ``Series.isin`` on Arrow-backed strings converts
    every member to a Python scalar, which dominates the run time at SNOMED CT scale.
    """
    if isinstance(members, (set, frozenset)):
        members = sorted(members, key=str)
    arr = pa.array(values.to_numpy(dtype=object), from_pandas=True)
    value_set = pa.array(pd.Series(members, dtype=object).to_numpy(dtype=object), from_pandas=True)
    if arr.type == pa.null() or value_set.type == pa.null() or len(value_set) == 0:
        return pd.Series(np.zeros(len(values), dtype=bool), index=values.index)
    if value_set.type != arr.type:
        value_set = value_set.cast(arr.type)
    hit = pc.fill_null(pc.is_in(arr, value_set=value_set, skip_nulls=True), False)
    return pd.Series(hit.to_numpy(zero_copy_only=False), index=values.index)


def levenshtein_lower(a: pd.Series | list[str], b: pd.Series | list[str]) -> np.ndarray:
    """Levenshtein distance between lowercased strings, element-wise (int64 array, characters)."""
    la = [x.lower() for x in a]
    lb = [x.lower() for x in b]
    if not la:
        return np.zeros(0, dtype=np.int64)
    return process.cpdist(la, lb, scorer=Levenshtein.distance, dtype=np.int32, workers=-1).astype(np.int64)


# --------------------------------------------------------------------------------------------------
# Positives
# --------------------------------------------------------------------------------------------------
def head_terms(concepts: pd.DataFrame, terms: pd.DataFrame, params: TermPairParams) -> pd.DataFrame:
    """One cleaned head term per concept that has an FSN or preferred term.

    Returns columns ``concept_id, term_id, head`` (head = cleaned string), sorted by concept_id.
    Among several candidates the order is: active before inactive, FSN before preferred, language
    ``en`` first, SNOMED acceptability ``preferred`` first, then term_id.
    """
    t = terms[isin(terms["term_type"], ["fsn", "preferred"])].copy()
    # Active terms first (an inactive concept keeps its last name: OBO marks an obsolete term's name
    # inactive, SNOMED CT usually keeps the FSN active), then FSN before preferred term.
    t["_inactive"] = ~t["active"].astype(bool)
    t["_not_fsn"] = t["term_type"] != "fsn"
    t["_lang"] = t["language"].fillna("") != "en"
    t["_acc"] = t["acceptability"].fillna("") != "preferred"
    t = t.sort_values(["concept_id", "_inactive", "_not_fsn", "_lang", "_acc", "term_id"], kind="stable")
    t = t.drop_duplicates("concept_id", keep="first")
    cleaned = t["term"].where(t["term_type"] != "fsn", strip_semantic_tag(t["term"]))
    t["head"] = strip_markers(cleaned, params.strip_prefixes)
    t = t[t["head"].str.len() > 0]
    t = t[isin(t["concept_id"], concepts["concept_id"])]
    return t[["concept_id", "term_id", "head"]].reset_index(drop=True)


def _usable_concepts(concepts: pd.DataFrame, params: TermPairParams, active: bool) -> pd.Series:
    mask = concepts["active"] == active
    if params.exclude_modules:
        mask &= ~isin(concepts["module"], list(params.exclude_modules))
    return concepts.loc[mask, "concept_id"]


def _dedupe_pairs(pairs: pd.DataFrame) -> pd.DataFrame:
    """Drop pairs equal after lowercasing and unordered (lowercased) duplicates, keeping the first."""
    l1 = pairs["term1"].str.lower()
    l2 = pairs["term2"].str.lower()
    pairs = pairs[l1 != l2]
    l1, l2 = l1[pairs.index], l2[pairs.index]
    lo = l1.where(l1 <= l2, l2)
    hi = l2.where(l1 <= l2, l1)
    keep = ~pd.DataFrame({"lo": lo, "hi": hi}).duplicated(keep="first")
    return pairs[keep.to_numpy()].reset_index(drop=True)


def build_positive_pairs(
    concepts: pd.DataFrame,
    terms: pd.DataFrame,
    associations: pd.DataFrame,
    params: TermPairParams = TermPairParams(),
) -> tuple[pd.DataFrame, dict[str, int]]:
    """All positive pairs of one source, every kind and difficulty.

    Args:
        concepts, terms, associations: terminology intermediates of one source
            (:data:`biosem.terminology.schemas.CONCEPTS`, ``TERMS``, ``ASSOCIATIONS``).
        params: construction parameters.

    Returns:
        (pairs, counts). ``pairs`` has columns :data:`POSITIVE_COLUMNS`: ``kind`` in
        :data:`POSITIVE_KINDS`, ``difficulty`` easy|hard, ``term1``/``term2`` (original case, cleaned
        heads), ``concept_id1``/``concept_id2``, ``levenshtein`` (lowercased, characters), sorted by
        kind then construction order. ``counts`` holds the step counts to log.
    """
    counts: dict[str, int] = {}
    if params.languages is not None:
        terms = terms[isin(terms["language"], list(params.languages)) | terms["language"].isna()]
    heads = head_terms(concepts, terms, params)
    active_ids = _usable_concepts(concepts, params, active=True)
    counts["active_concepts"] = len(active_ids)

    syn = terms[
        terms["active"]
        & isin(terms["term_type"], list(params.synonym_term_types))
        & isin(terms["concept_id"], active_ids)
    ]
    if params.synonym_scopes is not None:
        syn = syn[syn["scope"].isna() | isin(syn["scope"], list(params.synonym_scopes))]
    syn = syn[~isin(syn["term_id"], heads["term_id"])]
    syn = syn.assign(term=syn["term"].str.strip())
    syn = syn[syn["term"].str.len() > 0]

    active_heads = heads[isin(heads["concept_id"], active_ids)]
    counts["concepts_with_head"] = len(active_heads)
    members = pd.concat(
        [
            active_heads.assign(order=0, term=active_heads["head"])[["concept_id", "order", "term_id", "term"]],
            syn.assign(order=1)[["concept_id", "order", "term_id", "term"]],
        ],
        ignore_index=True,
    ).sort_values(["concept_id", "order", "term_id"], kind="stable")
    members["lower"] = members["term"].str.lower()
    # A synonym equal (case-insensitively) to the head, or to an earlier synonym, adds nothing.
    members = members.drop_duplicates(["concept_id", "lower"], keep="first")
    members = members[isin(members["concept_id"], active_heads["concept_id"])]
    members["rank"] = members.groupby("concept_id", sort=False).cumcount()
    counts["synonyms"] = int((members["rank"] > 0).sum())

    head_m = members[members["rank"] == 0][["concept_id", "term"]]
    syn_m = members[members["rank"] > 0][["concept_id", "term"]]
    fsn_syn = head_m.merge(syn_m, on="concept_id", suffixes=("1", "2"), sort=False)
    fsn_syn = fsn_syn.assign(concept_id1=fsn_syn["concept_id"], concept_id2=fsn_syn["concept_id"])

    m = members[["concept_id", "rank", "term"]]
    syn_syn = m.merge(m, on="concept_id", suffixes=("1", "2"), sort=False)
    syn_syn = syn_syn[syn_syn["rank1"] < syn_syn["rank2"]].sort_values(
        ["concept_id", "rank1", "rank2"], kind="stable"
    )
    syn_syn = syn_syn.assign(concept_id1=syn_syn["concept_id"], concept_id2=syn_syn["concept_id"])

    parts = {"fsn_syn": fsn_syn, "syn_syn": syn_syn}
    syn_syn_keys = _pair_keys(syn_syn["term1"], syn_syn["term2"])

    inactive_ids = _usable_concepts(concepts, params, active=False)
    target_ok = active_ids if params.require_active_target else concepts["concept_id"]
    head_of = heads.set_index("concept_id")["head"]
    assoc = associations[
        isin(associations["inactive_id"], inactive_ids) & isin(associations["target_id"], target_ok)
    ]
    assoc = assoc[isin(assoc["inactive_id"], head_of.index) & isin(assoc["target_id"], head_of.index)]
    counts["associations_usable"] = len(assoc)
    for kind in ASSOCIATION_KINDS:
        a = assoc[assoc["kind"] == kind].sort_values(["inactive_id", "target_id"], kind="stable")
        pairs = pd.DataFrame(
            {
                "term1": head_of.reindex(a["inactive_id"]).to_numpy(),
                "term2": head_of.reindex(a["target_id"]).to_numpy(),
                "concept_id1": a["inactive_id"].to_numpy(),
                "concept_id2": a["target_id"].to_numpy(),
            }
        )
        if params.drop_associations_in_syn_syn and len(pairs):
            in_syn = isin(_pair_keys(pairs["term1"], pairs["term2"]), syn_syn_keys)
            counts[f"{kind}_in_syn_syn"] = int(in_syn.sum())
            pairs = pairs[~in_syn.to_numpy()]
        parts[kind] = pairs

    frames = []
    for kind in POSITIVE_KINDS:
        p = parts[kind][["term1", "term2", "concept_id1", "concept_id2"]].reset_index(drop=True)
        before = len(p)
        p = _dedupe_pairs(p)
        counts[f"{kind}_dropped_duplicates"] = before - len(p)
        dist = levenshtein_lower(p["term1"], p["term2"])
        p = p.assign(
            kind=kind,
            levenshtein=dist,
            difficulty=np.where(dist <= params.easy_max_distance, "easy", "hard"),
        )
        counts[f"{kind}_positives"] = len(p)
        frames.append(p[POSITIVE_COLUMNS])
    out = pd.concat(frames, ignore_index=True)
    out["levenshtein"] = out["levenshtein"].astype("int64")
    return out, counts


def _pair_keys(a: pd.Series, b: pd.Series) -> pd.Series:
    la = a.str.lower().reset_index(drop=True)
    lb = b.str.lower().reset_index(drop=True)
    lo = la.where(la <= lb, lb)
    hi = lb.where(la <= lb, la)
    return lo + "\x1f" + hi


# --------------------------------------------------------------------------------------------------
# Similarity components
# --------------------------------------------------------------------------------------------------
def similarity_components(positives: pd.DataFrame) -> pd.DataFrame:
    """Connected components of the similarity graph over lowercased terms.

    Nodes are the lowercased terms of all positive pairs (every kind); edges are the pairs.
    Returns columns ``term_lower`` (sorted, unique) and ``component`` (int64, numbered by first
    appearance in sorted term order), via ``scipy.sparse.csgraph.connected_components``.
    """
    n = len(positives)
    if n == 0:
        return pd.DataFrame({"term_lower": pd.Series([], dtype=object), "component": pd.Series([], dtype="int64")})
    lowered = pd.concat([positives["term1"], positives["term2"]], ignore_index=True).str.lower()
    codes, uniques = pd.factorize(lowered.to_numpy(dtype=object))
    # Sort the distinct terms (UTF-8 byte order = code point order, as Python sorts str).
    order = pc.sort_indices(pa.array(uniques, type=pa.large_string())).to_numpy()
    rank_of = np.empty(order.size, dtype=np.int64)
    rank_of[order] = np.arange(order.size)
    nodes = uniques[order]
    i = rank_of[codes[:n]]
    j = rank_of[codes[n:]]
    graph = coo_matrix((np.ones(i.size, dtype=np.int8), (i, j)), shape=(nodes.size, nodes.size))
    _, labels = connected_components(graph, directed=False)
    # Renumber by first occurrence so ids do not depend on scipy's traversal.
    _, first = np.unique(labels, return_index=True)
    rank = np.empty(first.size, dtype=np.int64)
    rank[np.argsort(first, kind="stable")] = np.arange(first.size)
    return pd.DataFrame({"term_lower": nodes, "component": rank[labels]})


# --------------------------------------------------------------------------------------------------
# Negatives
# --------------------------------------------------------------------------------------------------
@dataclass
class _Pool:
    """Distinct lowercased terms with one original spelling each and their component ids."""

    lower: np.ndarray  # object array, sorted unique
    original: np.ndarray  # object array, first original spelling in sorted order
    component: np.ndarray  # int64

    @classmethod
    def from_terms(cls, terms: pd.Series, components: pd.Series) -> _Pool:
        df = pd.DataFrame({"original": terms.to_numpy(dtype=object)})
        df["lower"] = df["original"].str.lower()
        df = df.sort_values(["lower", "original"], kind="stable").drop_duplicates("lower")
        comp = components.reindex(df["lower"]).to_numpy()
        if np.isnan(comp.astype(float)).any():
            raise ValueError("every pool term must belong to a similarity component")
        return cls(df["lower"].to_numpy(dtype=object), df["original"].to_numpy(dtype=object), comp.astype(np.int64))

    def __len__(self) -> int:
        return int(self.lower.size)

    def find(self, lower: np.ndarray) -> np.ndarray:
        return np.searchsorted(self.lower, lower)


def _lower_pair(a: str, b: str) -> tuple[str, str]:
    return (a, b) if a <= b else (b, a)


def _pair_code(a: np.ndarray, b: np.ndarray, n: int) -> np.ndarray:
    lo = np.minimum(a, b).astype(np.int64)
    hi = np.maximum(a, b).astype(np.int64)
    return lo * np.int64(n) + hi


def sample_random_negatives(
    positives: pd.DataFrame,
    components: pd.DataFrame,
    source_terms: pd.Series,
    rng: np.random.Generator,
    rounds: int = 30,
) -> tuple[pd.DataFrame, dict[str, int]]:
    """One random negative per positive (medisim "simple" strategy, made exact and balanced).

    For positive *i* with first term *a*, draw an instance *j != i* and one of its two terms, with
    ``rng``; accept it if it is outside *a*'s similarity component and the unordered pair is new.
    Rejected draws are redrawn for ``rounds`` rounds; what remains is drawn uniformly from all valid
    terms of the dataset, or, if there are none, of ``source_terms`` (counted as fallbacks).

    Args:
        positives: one dataset's positives (``term1``, ``term2``, ``concept_id1``), in order.
        components: output of :func:`similarity_components` for the whole source.
        source_terms: every term of the source's positives (fallback pool).
        rng: seeded generator.

    Returns:
        (negatives, counts): ``term1, term2, levenshtein`` aligned with ``positives``.

    Raises:
        ValueError: no valid partner exists even in the source pool.
    """
    comp = components.set_index("term_lower")["component"]
    pool = _Pool.from_terms(pd.concat([positives["term1"], positives["term2"]]), comp)
    n = len(positives)
    counts = {"redrawn": 0, "exhaustive": 0, "fallback": 0}
    if n == 0:
        return _negative_frame([], []), counts
    a_idx = pool.find(positives["term1"].str.lower().to_numpy(dtype=object))
    t1_idx = a_idx
    t2_idx = pool.find(positives["term2"].str.lower().to_numpy(dtype=object))
    partner = np.full(n, -1, dtype=np.int64)
    used: set[int] = set()
    npool = len(pool)
    pending = np.arange(n)
    for round_no in range(rounds if n > 1 else 0):
        if pending.size == 0:
            break
        j = rng.integers(0, n - 1, size=pending.size)
        j = j + (j >= pending)
        side = rng.integers(0, 2, size=pending.size)
        cand = np.where(side == 0, t1_idx[j], t2_idx[j])
        ok = pool.component[cand] != pool.component[a_idx[pending]]
        code = _pair_code(a_idx[pending], cand, npool)
        accepted = []
        for k in np.flatnonzero(ok).tolist():
            c = int(code[k])
            if c not in used:
                used.add(c)
                accepted.append(k)
        acc = np.asarray(accepted, dtype=np.int64)
        partner[pending[acc]] = cand[acc]
        if round_no:
            counts["redrawn"] += acc.size
        pending = pending[partner[pending] < 0]
    source_pool: _Pool | None = None
    used_lower: set[tuple[str, str]] = set()
    partner_from_source = np.zeros(n, dtype=bool)
    for i in pending.tolist():
        a = int(a_idx[i])
        valid = np.flatnonzero(pool.component != pool.component[a])
        valid = valid[[_pair_code(np.int64(a), np.int64(v), npool) not in used for v in valid.tolist()]] if valid.size else valid
        if valid.size:
            v = int(valid[rng.integers(0, valid.size)])
            used.add(int(_pair_code(np.int64(a), np.int64(v), npool)))
            partner[i] = v
            counts["exhaustive"] += 1
            continue
        if source_pool is None:
            source_pool = _Pool.from_terms(source_terms, comp)
            used_lower = {_lower_pair(pool.lower[c // npool], pool.lower[c % npool]) for c in used}
        a_low = pool.lower[a]
        sa = int(source_pool.find(np.array([a_low], dtype=object))[0])
        svalid = np.flatnonzero(source_pool.component != source_pool.component[sa])
        svalid = np.array(
            [v for v in svalid.tolist() if _lower_pair(a_low, source_pool.lower[v]) not in used_lower], dtype=np.int64
        )
        if svalid.size == 0:
            raise ValueError(f"no valid random negative for {positives['term1'].iloc[i]!r} in the whole source")
        v = int(svalid[rng.integers(0, svalid.size)])
        used_lower.add(_lower_pair(a_low, source_pool.lower[v]))
        partner[i] = v
        partner_from_source[i] = True
        counts["fallback"] += 1
    term2 = np.where(
        partner_from_source,
        source_pool.original[np.where(partner_from_source, partner, 0)] if source_pool is not None else None,
        pool.original[np.where(partner_from_source, 0, partner)],
    )
    return _negative_frame(positives["term1"].tolist(), term2.tolist()), counts


def search_neighbours(
    positives: pd.DataFrame,
    components: pd.DataFrame,
    kinds: Sequence[str],
    difficulty: str,
    workers: int = 1,
) -> tuple[pd.DataFrame, dict[str, int]]:
    """The first Levenshtein-negative search of several datasets of one difficulty, made at once.

    FSN-SYN positives are SYN-SYN positives too (the head term is one of the synonyms), so the two
    datasets share nearly all first terms and pool terms: at SNOMED CT scale every FSN-SYN hard first
    term is a SYN-SYN hard one and its pool lies inside SYN-SYN hard's. One
    :meth:`biosem.levenshtein.index.LevenshteinIndex.scan` over the union of the datasets' pools compares each
    distinct first term with each pool term once, every dataset keeping its own pool, ``need`` and
    bound; the rows of a dataset are exactly what its own search returns, so
    :func:`sample_levenshtein_negatives` given them builds the same negatives.

    Args:
        positives: all positives of the source; components: :func:`similarity_components` of them.
        kinds: the datasets (:data:`POSITIVE_KINDS`) searched together; difficulty: easy or hard.

    Returns:
        (rows, counts): rows of :data:`biosem.termpairs.schemas.TERMPAIR_NEIGHBOURS` (``kind, term1, need,
        term2, levenshtein, reach``; every valid pool term within each first term's ``need``-th
        distance ``B``, ties included, and within ``B`` characters in length every one up to
        ``reach`` (``B`` to ``B +`` :data:`RESUME_SLACK`, see :func:`_settle`), lowercased),
        counts of first terms per kind, distinct first terms, pool terms, pairs screened (within the
        length windows) and pairs verified (distances computed).
    """
    comp = components.set_index("term_lower")["component"]
    pools, firsts = [], []
    for kind in kinds:
        sel = positives[(positives["kind"] == kind) & (positives["difficulty"] == difficulty)]
        pools.append(_Pool.from_terms(pd.concat([sel["term1"], sel["term2"]]), comp).lower)
        firsts.append(np.unique(sel["term1"].str.lower().to_numpy(dtype=object), return_counts=True))
    union = np.unique(np.concatenate(pools)) if pools else np.zeros(0, dtype=object)
    queries = np.unique(np.concatenate([q for q, _ in firsts])) if firsts else np.zeros(0, dtype=object)
    member = np.zeros((union.size, len(kinds)), dtype=bool)
    need = np.zeros((queries.size, len(kinds)), dtype=np.int64)
    for b, (pool, (q, k)) in enumerate(zip(pools, firsts)):
        member[np.searchsorted(union, pool), b] = True
        need[np.searchsorted(queries, q), b] = k
    counts = {f"queries_{kind}": int(q.size) for kind, (q, _) in zip(kinds, firsts)}
    counts.update({"queries": int(queries.size), "pool": int(union.size), "pairs_verified": 0, "pairs_screened": 0})
    empty = pd.DataFrame({"kind": [], "term1": [], "need": [], "term2": [], "levenshtein": [], "reach": []})
    if queries.size == 0 or union.size == 0:
        return empty.astype({"need": "int64", "levenshtein": "int64", "reach": "int64"}), counts
    index = LevenshteinIndex(list(union), workers=workers)
    found = index.scan(list(queries), need, comp.reindex(queries).to_numpy().astype(np.int64),
                       comp.reindex(union).to_numpy().astype(np.int64), member, slack=RESUME_SLACK)
    counts["pairs_verified"], counts["pairs_screened"] = found.pairs_verified, index.pairs_screened
    qlen = _lengths(queries)
    parts = []
    for b, kind in enumerate(kinds):
        sel = found.dataset == b
        # Each dataset's rows as its own search keeps them (_settle), with the distance they reach.
        (q, c, d), _, reach = _settle((found.query[sel], found.candidate[sel], found.distance[sel]), need[:, b], qlen,
                                      index.lengths, np.full(queries.size, _FAR, dtype=np.int64))
        parts.append(pd.DataFrame({
            "kind": kind, "term1": queries[q], "need": need[q, b], "term2": union[c],
            "levenshtein": d.astype(np.int64), "reach": reach[q],
        }))
    return pd.concat(parts, ignore_index=True), counts


def sample_levenshtein_negatives(
    positives: pd.DataFrame,
    components: pd.DataFrame,
    source_terms: pd.Series,
    rng: np.random.Generator,
    workers: int = 1,
    neighbours: pd.DataFrame | None = None,
) -> tuple[pd.DataFrame, dict[str, int]]:
    """One nearest-term negative per positive (medisim "advanced" strategy, exact).

    First terms are visited in sorted (lowercased) order. A first term *a* with *k* positives gets
    its *k* nearest valid terms of the dataset by Levenshtein distance on lowercased strings
    (distance > 0, outside *a*'s similarity component, the unordered pair not already a negative),
    ties at equal distance ordered by a seeded draw; see :class:`biosem.levenshtein.index.LevenshteinIndex`.
    Pairs are then emitted in the order of the positives.

    Args:
        neighbours: this dataset's rows of :func:`search_neighbours` (its first search, made jointly
            with other datasets); None: searched here. The result is the same either way.

    Returns:
        (negatives, counts): ``term1, term2, levenshtein`` aligned with ``positives``; counts of
        queries, pairs screened and verified (here; not those of ``neighbours``) and fallbacks to the
        source pool.

    Raises:
        ValueError: ``neighbours`` names a first term or partner the dataset does not have, or a
            ``need`` other than the first term's positives (it was built from other positives).
    """
    comp = components.set_index("term_lower")["component"]
    pool = _Pool.from_terms(pd.concat([positives["term1"], positives["term2"]]), comp)
    counts = {"queries": 0, "pairs_verified": 0, "pairs_screened": 0, "fallback": 0, "requeried": 0, "deferred": 0,
              "restarted": 0}
    n = len(positives)
    if n == 0:
        return _negative_frame([], []), counts
    a_low = positives["term1"].str.lower().to_numpy(dtype=object)
    qkeys, inverse, k = np.unique(a_low, return_inverse=True, return_counts=True)
    q_in_pool = pool.find(qkeys)
    counts["queries"] = int(qkeys.size)
    first = None if neighbours is None else _first_search(neighbours, qkeys, k, pool)
    chosen, used = _assign_nearest(
        lambda: LevenshteinIndex(list(pool.lower), workers=workers), qkeys, q_in_pool, k, pool.component,
        pool.component[q_in_pool], _lengths(pool.lower), rng, counts, first,
    )

    # Queries still short of partners: search the source's whole term pool.
    short = np.flatnonzero(np.array([len(c) for c in chosen]) < k)
    source_choice: dict[int, list[str]] = {}
    if short.size:
        spool = _Pool.from_terms(source_terms, comp)
        sindex = LevenshteinIndex(list(spool.lower), workers=workers)
        npool = len(pool)
        used_lower = {_lower_pair(pool.lower[c // npool], pool.lower[c % npool]) for c in used}
        # Partners a first term may not take: those already paired with it in either direction.
        taken = [{y if x == qkeys[q] else x for x, y in used_lower if qkeys[q] in (x, y)} for q in short.tolist()]
        need = k[short] - np.array([len(chosen[q]) for q in short.tolist()])
        res = sindex.nearest(list(qkeys[short]), need + np.array([len(t) for t in taken]),
                             comp.reindex(qkeys[short]).to_numpy().astype(np.int64), spool.component, rng)
        bounds = np.searchsorted(res.query, np.arange(short.size + 1))
        for pos, q in enumerate(short.tolist()):
            picks = []
            for c in res.candidate[bounds[pos]:bounds[pos + 1]].tolist():
                pair = _lower_pair(qkeys[q], spool.lower[c])
                if spool.lower[c] in taken[pos] or pair in used_lower:
                    continue
                used_lower.add(pair)
                picks.append(spool.original[c])
                if len(picks) == need[pos]:
                    break
            if len(picks) < need[pos]:
                raise ValueError(f"no valid Levenshtein negative for {qkeys[q]!r} in the whole source")
            source_choice[q] = picks
            counts["fallback"] += len(picks)
        counts["pairs_verified"] += res.pairs_verified
        counts["pairs_screened"] += sindex.pairs_screened

    # Emit in positive order: the m-th positive of a first term gets its m-th partner.
    occurrence = pd.Series(inverse).groupby(inverse).cumcount().to_numpy()
    term2 = []
    for q, m in zip(inverse.tolist(), occurrence.tolist()):
        own = chosen[q]
        term2.append(pool.original[own[m]] if m < len(own) else source_choice[q][m - len(own)])
    return _negative_frame(positives["term1"].tolist(), term2), counts


def _first_search(neighbours: pd.DataFrame, qkeys: np.ndarray, k: np.ndarray, pool: _Pool) -> tuple[np.ndarray, ...]:
    """(query, pool id, distance, reach) arrays of a dataset's :func:`search_neighbours` rows, checked
    against its first terms ``qkeys`` (sorted), their positive counts ``k`` and its pool."""
    term1 = neighbours["term1"].to_numpy(dtype=object)
    term2 = neighbours["term2"].to_numpy(dtype=object)
    need = neighbours["need"].to_numpy(dtype=np.int64)
    distance = neighbours["levenshtein"].to_numpy(dtype=np.int64)
    reach = neighbours["reach"].to_numpy(dtype=np.int64)
    # Rows repeat their terms (tens of rows per first term): look up each distinct term once.
    codes1, terms1 = pd.factorize(term1)
    codes2, terms2 = pd.factorize(term2)
    q = np.searchsorted(qkeys, np.asarray(terms1, dtype=object))[codes1] if term1.size else codes1
    c = pool.find(np.asarray(terms2, dtype=object))[codes2] if term2.size else codes2
    ok = (q < qkeys.size) & (c < len(pool))
    qi, ci = np.where(ok, q, 0), np.where(ok, c, 0)
    if ok.any():
        ok &= (qkeys[qi] == term1) & (pool.lower[ci] == term2) & (k[qi] == need) & (distance <= reach)
    if not ok.all():
        row = int(np.flatnonzero(~ok)[0])
        raise ValueError(
            f"neighbours row {row} ({term1[row]!r} -> {term2[row]!r}, need {need[row]}) does not match the "
            "dataset's first terms, their positive counts or its pool; rebuild it from these positives"
        )
    return q.astype(np.int64), c.astype(np.int64), distance, reach


def _lengths(strings: np.ndarray) -> np.ndarray:
    return np.fromiter((len(x) for x in strings), dtype=np.int64, count=len(strings))


def _settle(
    rows: tuple[np.ndarray, ...], need: np.ndarray, qlen: np.ndarray, pool_len: np.ndarray, reach: np.ndarray
) -> tuple[tuple[np.ndarray, ...], np.ndarray, np.ndarray]:
    """The known state of queries after a search: their rows reduced to a set known complete.

    ``rows`` (query, pool id, distance) hold, for each query ``q`` (0..n-1), every valid pool term
    within its ``need[q]``-th distance ``B`` and, within ``B`` characters in length, every one up
    to ``min(reach[q], B + RESUME_SLACK)`` (and maybe more). Kept are the rows within ``B`` and,
    within ``B`` characters in length, whole distance levels above ``B`` up to that distance while
    the query's rows stay within ``need[q] + RESUME_ROWS``; the new ``reach`` is the last level
    kept (``B`` at least). Returns the rows sorted by (query, distance, pool id), ``covered`` =
    ``B`` (length differences searched) and ``reach``; both ``_FAR`` where fewer than ``need[q]``
    rows exist (no bound: every valid term was found)."""
    q, c, d = rows
    order = np.lexsort((c, d, q))
    q, c, d = q[order], c[order], d[order]
    n = need.size
    first = np.searchsorted(q, np.arange(n), side="left")
    has = (np.bincount(q, minlength=n) >= need) & (need > 0)
    bound = np.full(n, _FAR, dtype=np.int64)
    bound[has] = d[first[has] + need[has] - 1]
    top = np.minimum(reach, bound + RESUME_SLACK)
    inside = (d <= top[q]) & (np.abs(pool_len[c] - qlen[q]) <= bound[q])
    q, c, d = q[inside], c[inside], d[inside]
    # Rows up to and including each row's distance level, per query.
    key = q * (int(d.max(initial=0)) + 1) + d
    through = np.searchsorted(key, key, side="right") - np.searchsorted(q, q, side="left")
    over = (d > bound[q]) & (through > need[q] + RESUME_ROWS)
    first_over = np.full(n, _FAR, dtype=np.int64)
    np.minimum.at(first_over, q[over], d[over])
    reach = np.where(first_over < _FAR, first_over - 1, top)
    keep = d <= reach[q]
    return (q[keep], c[keep], d[keep]), bound, reach


def _assign_nearest(
    make_index: Callable[[], LevenshteinIndex],
    qkeys: np.ndarray,
    q_in_pool: np.ndarray,
    k: np.ndarray,
    pool_comp: np.ndarray,
    q_comp: np.ndarray,
    pool_len: np.ndarray,
    rng: np.random.Generator,
    counts: dict[str, int],
    first: tuple[np.ndarray, ...] | None = None,
) -> tuple[list[list[int]], set[int]]:
    """Sequentially assign nearest partners, skipping pairs already used in reverse; requery if short.

    First terms are committed in sorted order, as if visited one by one, each taking its ``k``
    nearest valid terms (ties in the order of its seed, :func:`biosem.levenshtein.index.rank_neighbours`) whose
    unordered pair is not taken yet. A first term left short (its nearest terms taken in reverse by
    earlier first terms: mutual nearest terms) needs more neighbours: its search *resumes* from the
    state the last one left (:meth:`LevenshteinIndex.scan` ``known``/``covered``), comparing only
    the pool terms of a larger length difference, and is exact when its new bound lies within the
    distance its kept rows are complete to (its reach: up to bound + :data:`RESUME_SLACK`, see
    :func:`_settle`); otherwise it starts again. A later first term that would pick a term of a
    deferred one is deferred too (its rows kept, not searched again), so no commit depends on a
    deferred first term's future picks: the result equals the one-by-one visit.

    ``first``: the scan rows (query, pool id, distance, reach) of the first search, made elsewhere
    (:func:`search_neighbours`, kept as :func:`_settle` keeps them); the index is then built only
    if a first term is searched again. ``pool_len``: the pool terms' lengths. Returns the partners
    (pool ids) per query and the used unordered pairs (codes lo * npool + hi).
    """
    nq = qkeys.size
    npool = pool_comp.size
    seeds = tie_seeds(rng, nq)
    qlen = _lengths(qkeys)
    need = k.astype(np.int64)  # a copy (astype copies): raised below for queries searched again
    index: LevenshteinIndex | None = None
    reach = np.full(nq, _FAR, dtype=np.int64)
    if first is None:
        index = make_index()
        found = index.scan(list(qkeys), need[:, None], q_comp, pool_comp, slack=RESUME_SLACK)
        counts["pairs_verified"], counts["pairs_screened"] = index.pairs_verified, index.pairs_screened
        first = (found.query, found.candidate, found.distance)
    else:
        reach[first[0]] = first[3]
    rows, covered, reach = _settle(first[:3], need, qlen, pool_len, reach)
    chosen: list[list[int]] = [[] for _ in range(nq)]
    used: set[int] = set()
    todo = np.arange(nq)
    exhausted = np.zeros(nq, dtype=bool)
    local = np.full(nq, -1, dtype=np.int64)
    while todo.size:
        local[:] = -1
        local[todo] = np.arange(todo.size)
        sel = local[rows[0]] >= 0
        res = rank_neighbours(local[rows[0][sel]], rows[1][sel], rows[2][sel], need[todo], seeds[todo])
        bounds = np.searchsorted(res.query, np.arange(todo.size + 1))
        deferred: set[int] = set()
        again, short = [], []
        for pos, q in enumerate(todo.tolist()):
            cands = res.candidate[bounds[pos]:bounds[pos + 1]].tolist()
            a = int(q_in_pool[q])
            picked = []
            for c in cands:
                code = min(a, c) * npool + max(a, c)
                if code in used:
                    continue
                picked.append(c)
                if len(picked) == k[q]:
                    break
            is_short = len(picked) < k[q] and len(cands) >= need[q] and not exhausted[q]
            if is_short or (deferred and any(c in deferred for c in picked)):
                if is_short:
                    need[q] = need[q] + (k[q] - len(picked))
                    exhausted[q] = need[q] > npool
                    short.append(q)
                if a >= 0:
                    deferred.add(a)
                again.append(q)
                continue
            for c in picked:
                used.add(min(a, c) * npool + max(a, c))
            chosen[q] = picked
        if short:
            index = index or make_index()
            rows = _resume(index, np.asarray(short, dtype=np.int64), rows, need, covered, reach, qkeys, qlen, q_comp,
                           pool_comp, pool_len, counts)
        counts["requeried"] += len(short)
        counts["deferred"] += len(again) - len(short)
        todo = np.asarray(again, dtype=np.int64)
    return chosen, used


def _resume(
    index: LevenshteinIndex, sub: np.ndarray, rows: tuple[np.ndarray, ...], need: np.ndarray, covered: np.ndarray,
    reach: np.ndarray, qkeys: np.ndarray, qlen: np.ndarray, q_comp: np.ndarray, pool_comp: np.ndarray,
    pool_len: np.ndarray, counts: dict[str, int],
) -> tuple[np.ndarray, ...]:
    """Search the first terms ``sub`` (sorted) again for ``need[sub]`` neighbours, resuming from their
    rows (see :func:`_assign_nearest`); ``covered``/``reach`` are updated in place, the new rows
    returned (the others' unchanged)."""
    local = np.full(qkeys.size, -1, dtype=np.int64)
    local[sub] = np.arange(sub.size)
    mine = local[rows[0]] >= 0
    known = ScanResult(local[rows[0][mine]], np.zeros(int(mine.sum()), dtype=np.int64), rows[1][mine], rows[2][mine], 0)
    found = index.scan(list(qkeys[sub]), need[sub][:, None], q_comp[sub], pool_comp, slack=RESUME_SLACK, known=known,
                       covered=covered[sub])
    new, bound, new_reach = _settle((found.query, found.candidate, found.distance), need[sub], qlen[sub], pool_len,
                                    reach[sub])
    # Exact where the new bound lies within the distances the kept rows were complete to.
    redo = np.flatnonzero(bound > reach[sub])
    if redo.size:
        again = index.scan(list(qkeys[sub[redo]]), need[sub[redo]][:, None], q_comp[sub[redo]], pool_comp,
                           slack=RESUME_SLACK)
        fresh, fresh_bound, fresh_reach = _settle(
            (again.query, again.candidate, again.distance), need[sub[redo]], qlen[sub[redo]], pool_len,
            np.full(redo.size, _FAR, dtype=np.int64))
        drop = np.isin(new[0], redo)
        new = tuple(np.concatenate([part[~drop], fpart]) for part, fpart in
                    zip(new, (redo[fresh[0]], fresh[1], fresh[2])))
        bound[redo], new_reach[redo] = fresh_bound, fresh_reach
        counts["restarted"] += int(redo.size)
    covered[sub], reach[sub] = bound, new_reach
    counts["pairs_verified"], counts["pairs_screened"] = index.pairs_verified, index.pairs_screened
    return tuple(np.concatenate([part[~mine], npart]) for part, npart in zip(rows, (sub[new[0]], new[1], new[2])))


def _negative_frame(term1: list[str], term2: list[str]) -> pd.DataFrame:
    return pd.DataFrame(
        {
            "term1": pd.Series(term1, dtype=object),
            "term2": pd.Series(term2, dtype=object),
            "levenshtein": levenshtein_lower(term1, term2),
        }
    )


def assemble_dataset(positives: pd.DataFrame, negatives: pd.DataFrame, rng: np.random.Generator) -> pd.DataFrame:
    """Positives (label 1) + negatives (label 0), shuffled with ``rng`` (the reference TSV order).

    Returns columns ``term1, term2, label, concept_id1, concept_id2, levenshtein``; negatives carry
    the first term's concept id and a null second concept id.
    """
    pos = positives.assign(label=1)[["term1", "term2", "label", "concept_id1", "concept_id2", "levenshtein"]]
    neg = negatives.assign(label=0, concept_id1=positives["concept_id1"].to_numpy(), concept_id2=None)[
        ["term1", "term2", "label", "concept_id1", "concept_id2", "levenshtein"]
    ]
    both = pd.concat([pos, neg], ignore_index=True)
    order = rng.permutation(len(both))
    out = both.iloc[order].reset_index(drop=True)
    out["label"] = out["label"].astype("int64")
    out["levenshtein"] = out["levenshtein"].astype("int64")
    return out


def build_dataset(
    positives: pd.DataFrame,
    components: pd.DataFrame,
    kind: str,
    difficulty: str,
    strategy: str,
    rng: np.random.Generator,
    workers: int = 1,
    random_rounds: int = 30,
    neighbours: pd.DataFrame | None = None,
) -> tuple[pd.DataFrame, dict[str, object]]:
    """One of the 20 datasets of a source: its positives plus one negative each, shuffled.

    Args:
        positives: all positives of the source (output of :func:`build_positive_pairs`).
        components: :func:`similarity_components` of those positives.
        kind, difficulty, strategy: which dataset (:data:`POSITIVE_KINDS`, :data:`DIFFICULTIES`,
            :data:`STRATEGIES`).
        rng: the dataset's seeded generator (negatives first, then the shuffle).
        neighbours: for a Levenshtein dataset, :func:`search_neighbours` rows that include its kind
            (the first search made jointly); None: searched here. Same result either way.

    Returns:
        (dataset, stats): dataset columns ``term1, term2, label, concept_id1, concept_id2,
        levenshtein``; stats with counts and mean Levenshtein distances (Table 2 of the paper).
    """
    if kind not in POSITIVE_KINDS or difficulty not in DIFFICULTIES or strategy not in STRATEGIES:
        raise ValueError(f"unknown dataset {kind}_{difficulty}_{strategy}")
    sel = positives[(positives["kind"] == kind) & (positives["difficulty"] == difficulty)].reset_index(drop=True)
    source_terms = pd.concat([positives["term1"], positives["term2"]], ignore_index=True)
    if strategy == "random":
        negatives, counts = sample_random_negatives(sel, components, source_terms, rng, rounds=random_rounds)
    else:
        own = None if neighbours is None else neighbours[neighbours["kind"] == kind]
        negatives, counts = sample_levenshtein_negatives(sel, components, source_terms, rng, workers=workers,
                                                         neighbours=own)
    dataset = assemble_dataset(sel, negatives, rng)
    stats: dict[str, object] = {
        "kind": kind,
        "difficulty": difficulty,
        "strategy": strategy,
        "positives": len(sel),
        "negatives": len(negatives),
        "mean_levenshtein_positive": float(sel["levenshtein"].mean()) if len(sel) else None,
        "mean_levenshtein_negative": float(negatives["levenshtein"].mean()) if len(negatives) else None,
        **{f"negatives_{k}": int(v) for k, v in counts.items()},
    }
    return dataset, stats


def to_reference_tsv(dataset: pd.DataFrame) -> str:
    """The medisim file format: ``term1<TAB>term2<TAB>1|0`` per line, no header, in dataset order.

    Raises:
        ValueError: a term contains a tab or a line break (the format cannot hold it).
    """
    for col in ("term1", "term2"):
        bad = dataset[col].str.contains(r"[\t\r\n]", regex=True)
        if bad.any():
            raise ValueError(f"{col} {dataset.loc[bad, col].iloc[0]!r} contains a tab or line break")
    lines = dataset["term1"] + "\t" + dataset["term2"] + "\t" + dataset["label"].astype(str)
    return "".join(line + "\n" for line in lines)


TABLE2_COLUMNS = [
    "kind", "difficulty", "positives", "mean_levenshtein_positive", "negatives_random",
    "mean_levenshtein_negative_random", "negatives_levenshtein", "mean_levenshtein_negative_levenshtein",
    "fallbacks_random", "fallbacks_levenshtein", "status",
]


def summarise(stats: list[dict[str, object]]) -> pd.DataFrame:
    """Counts table shaped like Table 2 of Schulz & Juric: one row per kind × (easy, hard, all).

    Columns :data:`TABLE2_COLUMNS`; ``status`` is ``empty`` for a dataset without pairs. Means over
    "all" are weighted by the number of pairs.
    """
    df = pd.DataFrame(stats)
    rows = []
    for kind in POSITIVE_KINDS:
        for difficulty in (*DIFFICULTIES, "all"):
            sel = df[(df["kind"] == kind) & ((df["difficulty"] == difficulty) | (difficulty == "all"))]
            row: dict[str, object] = {"kind": kind, "difficulty": difficulty}
            rnd = sel[sel["strategy"] == "random"]
            lev = sel[sel["strategy"] == "levenshtein"]
            n_pos = int(rnd["positives"].sum())
            row["positives"] = n_pos
            row["mean_levenshtein_positive"] = _wmean(rnd, "mean_levenshtein_positive", "positives")
            row["negatives_random"] = int(rnd["negatives"].sum())
            row["mean_levenshtein_negative_random"] = _wmean(rnd, "mean_levenshtein_negative", "negatives")
            row["negatives_levenshtein"] = int(lev["negatives"].sum())
            row["mean_levenshtein_negative_levenshtein"] = _wmean(lev, "mean_levenshtein_negative", "negatives")
            row["fallbacks_random"] = int(rnd["negatives_fallback"].sum())
            row["fallbacks_levenshtein"] = int(lev["negatives_fallback"].sum())
            row["status"] = "ok" if n_pos else "empty"
            rows.append(row)
    return pd.DataFrame(rows, columns=TABLE2_COLUMNS)


def _wmean(df: pd.DataFrame, value: str, weight: str) -> float:
    w = df[weight].astype(float)
    if w.sum() == 0:
        return float("nan")
    return round(float((df[value].astype(float).fillna(0) * w).sum() / w.sum()), 4)


def params_from_config(cfg: Mapping[str, object]) -> TermPairParams:
    """Build :class:`TermPairParams` from the ``termpairs`` config section as validated by
    ``workflow/schemas/config.schema.yaml`` (every key present: the schema holds the defaults, equal
    to the dataclass defaults; unknown keys ignored)."""

    def tup(key: str) -> tuple[str, ...] | None:
        value = cfg[key]
        return None if value is None else tuple(value)  # type: ignore[arg-type]

    return TermPairParams(
        easy_max_distance=int(cfg["easy_max_distance"]),  # type: ignore[arg-type]
        exclude_modules=tup("exclude_modules") or (),
        synonym_term_types=tup("synonym_term_types") or (),
        synonym_scopes=tup("synonym_scopes"),
        languages=tup("languages"),
        require_active_target=bool(cfg["require_active_target"]),
        drop_associations_in_syn_syn=bool(cfg["drop_associations_in_syn_syn"]),
        strip_prefixes=tup("strip_prefixes") or (),
        random_rounds=int(cfg["random_rounds"]),  # type: ignore[arg-type]
    )
