"""Positive term pairs of a terminology and the similarity graph over them (docs/design.md § termpairs).

Source-agnostic: the builders read the terminology intermediates (``concepts``, ``terms``,
``associations``; see :mod:`biosem.terminology.schemas`) of SNOMED CT RF2, UMLS RRF or OBO alike.

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
* **similarity components**: connected components of the graph whose nodes are the lowercased terms
  of all positives (every kind) and whose edges are the pairs; a negative's partner lies outside its
  first term's component (:mod:`biosem.termpairs.negatives`).
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc
from rapidfuzz import process
from rapidfuzz.distance import Levenshtein
from scipy.sparse import coo_matrix
from scipy.sparse.csgraph import connected_components

from biosem.surface import SurfaceNormaliser, default_normaliser
from biosem.terminology.schemas import ASSOCIATION_KINDS
from biosem.termpairs.params import TermPairParams

POSITIVE_KINDS = ("fsn_syn", "syn_syn", *sorted(ASSOCIATION_KINDS))
"""The positive kinds in dataset order (that of :data:`DATASETS` and the counts tables): the two
synonym kinds, then the association kinds alphabetically."""
DIFFICULTIES = ("easy", "hard")
STRATEGIES = ("random", "levenshtein")

DATASETS = tuple(f"{k}_{d}_{s}" for k in POSITIVE_KINDS for d in DIFFICULTIES for s in STRATEGIES)
"""The 20 dataset names per source: ``<kind>_<easy|hard>_<random|levenshtein>``."""

_DEFAULT_PARAMS = TermPairParams()

POSITIVE_COLUMNS = ["kind", "difficulty", "term1", "term2", "concept_id1", "concept_id2", "levenshtein"]


# --------------------------------------------------------------------------------------------------
# Term cleaning
# --------------------------------------------------------------------------------------------------
def strip_semantic_tag(terms: pd.Series) -> pd.Series:
    """Remove a trailing SNOMED CT semantic tag: ``"Malaria (disorder)"`` -> ``"Malaria"``.

    medisim's rule: split at the last ``" ("`` of a term ending in ``")"``; keep the left part unless
    it ends with ``" or"`` or ``"&"`` or the tag starts with ``"&"`` (those parentheses belong to the
    name, e.g. ``"... or (...)"``). Not the rule of relationship-type FSNs in the RF2 reader
    (:func:`biosem.terminology.rf2.strip_final_parenthesised_group`).
    """
    s = terms.astype(object)
    if s.empty:  # rpartition of an empty Series has no columns 0, 1, 2
        return s
    parts = s.str.rpartition(" (")
    left, sep, right = parts[0], parts[1], parts[2]
    tagged = s.str.endswith(")") & (sep == " (") & ~left.str.endswith((" or", "&")) & ~right.str.startswith("&")
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
    params: TermPairParams = _DEFAULT_PARAMS,
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
        kind then construction order. ``counts`` holds the step counts to log. Terms without any
        FSN or preferred term give no pairs (empty ``pairs``, zero counts).

    Raises:
        ValueError: ``terms`` has no rows (an ingestion that read nothing; a source with terms but
            none usable is not an error).
    """
    if terms.empty:
        raise ValueError(
            f"the terms table is empty ({len(concepts)} concepts): no term pairs can be built; "
            "check the terminology's ingestion log and source files"
        )
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
    syn_syn = syn_syn[syn_syn["rank1"] < syn_syn["rank2"]].sort_values(["concept_id", "rank1", "rank2"], kind="stable")
    syn_syn = syn_syn.assign(concept_id1=syn_syn["concept_id"], concept_id2=syn_syn["concept_id"])

    parts = {"fsn_syn": fsn_syn, "syn_syn": syn_syn}
    syn_syn_keys = _pair_keys(syn_syn["term1"], syn_syn["term2"])

    inactive_ids = _usable_concepts(concepts, params, active=False)
    target_ok = active_ids if params.require_active_target else concepts["concept_id"]
    head_of = heads.set_index("concept_id")["head"]
    assoc = associations[isin(associations["inactive_id"], inactive_ids) & isin(associations["target_id"], target_ok)]
    assoc = assoc[isin(assoc["inactive_id"], head_of.index) & isin(assoc["target_id"], head_of.index)]
    counts["associations_usable"] = len(assoc)
    for kind in POSITIVE_KINDS[2:]:  # the association kinds, in dataset order
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
COMPONENT_COLUMNS = ["term_lower", "component", "synonym_component", "group_component", "surface_key"]
"""Columns of :func:`similarity_components` (:data:`biosem.termpairs.schemas.SIMILARITY_COMPONENTS`)."""


def similarity_components(
    positives: pd.DataFrame,
    concept_groups: pd.Series | None = None,
    surface_variants: bool = True,
    normaliser: SurfaceNormaliser | None = None,
) -> pd.DataFrame:
    """Connected components of the similarity graph over lowercased terms: the terms a negative's
    partner must avoid (docs/design.md § termpairs; issue 37).

    Nodes are the lowercased terms of all positive pairs (every kind). The graph grows in three
    stages, each a column of the result:

    1. ``synonym_component``: edges are the positive pairs (Schulz & Juric's "similar directly or
       indirectly", made the whole connected component).
    2. ``group_component``: the terms of concepts sharing a group of ``concept_groups`` are joined
       too (MeSH: the concepts of one descriptor; :func:`biosem.termpairs.exclusion.concept_groups`),
       as an association joins two concepts. Equal to stage 1 without groups.
    3. ``component`` (the one negatives use): with ``surface_variants``, terms whose surface keys
       (:mod:`biosem.surface`, of any of their original spellings) are equal are joined, so no
       negative is a surface variant ("Pancoast's tumour" / "Pancoast's tumor", "CTLA8" / "CTLA-8")
       of a term similar to its first term. Equal to stage 2 without.

    Args:
        positives: :func:`build_positive_pairs` output (``term1``, ``term2``, ``concept_id1``, ``concept_id2``).
        concept_groups: concept id -> group id (concepts missing or null: no group); None: stage 2 adds nothing.
        surface_variants: join surface variants (stage 3).
        normaliser: the surface normaliser (default :func:`biosem.surface.default_normaliser`).

    Returns:
        Columns :data:`COMPONENT_COLUMNS`: ``term_lower`` (sorted, unique), the three component ids
        (int64, each numbered by first appearance in sorted term order) and ``surface_key`` (of the
        term's first original spelling in sorted order; null without ``surface_variants``). Each
        stage's components are unions of the previous stage's. Keys are computed once per distinct
        string; components via ``scipy.sparse.csgraph.connected_components``.
    """
    n = len(positives)
    if n == 0:
        empty = {c: pd.Series([], dtype="int64") for c in COMPONENT_COLUMNS}
        empty["term_lower"] = empty["surface_key"] = pd.Series([], dtype=object)
        return pd.DataFrame(empty)[COMPONENT_COLUMNS]
    originals = pd.concat([positives["term1"], positives["term2"]], ignore_index=True)
    lowered = originals.str.lower()
    codes, uniques = pd.factorize(lowered.to_numpy(dtype=object))
    # Sort the distinct terms (UTF-8 byte order = code point order, as Python sorts str).
    order = pc.sort_indices(pa.array(uniques, type=pa.large_string())).to_numpy()
    rank_of = np.empty(order.size, dtype=np.int64)
    rank_of[order] = np.arange(order.size)
    nodes = uniques[order]
    node = rank_of[codes]
    edges = [(node[:n], node[n:])]
    synonym = _components(nodes.size, edges)
    helpers = nodes.size  # the next free node id: group and key nodes follow the terms

    if concept_groups is not None:
        concepts = pd.concat([positives["concept_id1"], positives["concept_id2"]], ignore_index=True)
        group = concepts.map(concept_groups.dropna()).to_numpy(dtype=object)
        has = pd.notna(group)
        gcodes, group_ids = pd.factorize(group[has])
        edges.append((node[has], helpers + gcodes))
        helpers += len(group_ids)
        grouped = _components(nodes.size, edges)
    else:
        grouped = synonym

    keys = np.full(nodes.size, None, dtype=object)
    if surface_variants:
        norm = normaliser or default_normaliser()
        spellings = pd.DataFrame({"node": node, "original": originals.to_numpy(dtype=object)})
        spellings = spellings.drop_duplicates().sort_values(["node", "original"], kind="stable")
        spelled_keys = norm.key_array(spellings["original"].to_numpy(dtype=object))
        kcodes, _ = pd.factorize(spelled_keys)
        spelled = spellings["node"].to_numpy()
        edges.append((spelled, helpers + kcodes))
        first = np.r_[True, spelled[1:] != spelled[:-1]]
        keys[spelled[first]] = spelled_keys[first]
        final = _components(nodes.size, edges)
    else:
        final = grouped
    return pd.DataFrame(
        {
            "term_lower": nodes,
            "component": final,
            "synonym_component": synonym,
            "group_component": grouped,
            "surface_key": keys,
        }
    )


def _components(n_terms: int, edges: list[tuple[np.ndarray, np.ndarray]]) -> np.ndarray:
    """Connected components of the first ``n_terms`` nodes of a graph given as edge lists (the
    other nodes are helpers: groups, surface keys), numbered by first appearance in node order."""
    i = np.concatenate([a for a, _ in edges]).astype(np.int64)
    j = np.concatenate([b for _, b in edges]).astype(np.int64)
    size = int(max(n_terms, i.max(initial=-1) + 1, j.max(initial=-1) + 1))
    graph = coo_matrix((np.ones(i.size, dtype=np.int8), (i, j)), shape=(size, size))
    _, labels = connected_components(graph, directed=False)
    labels = labels[:n_terms]
    # Renumber by first occurrence so ids do not depend on scipy's traversal.
    _, first = np.unique(labels, return_index=True)
    rank = np.empty(labels.max(initial=-1) + 1, dtype=np.int64)
    rank[labels[np.sort(first)]] = np.arange(first.size)
    return rank[labels]
