"""Concept pairs whose sentence pairs BioWiC leaves out (reference ``step2_tuple_creation.py``).

A pair of mentions of *different* concepts is not a clean negative when the concepts are close in the
UMLS:

* **related**: the concepts are MRREL synonyms (REL ``SY``) or one is broader than / a parent of the
  other (REL ``RB`` / ``PAR``), in either direction (the reference checks both directions of its
  ``umls_synonyms_codes`` and ``umls_hypernyms`` tables, built from MRREL CUI1/REL/CUI2);
* **shared code**: the concepts share a source code, i.e. one (SAB, CODE) of MRCONSO is attached to
  both CUIs. The reference compares the CODE sets per SAB and so treats MRCONSO's placeholder
  ``NOCODE`` as a code, which drops valid negatives; biosem never counts ``NOCODE`` (nor an empty code)
  as a code.

Both tables come from the terminology intermediates: ``relations`` (subject_id, rel, object_id) and
``mappings`` (concept_id, code_system, code).

Without a terminology the concept ids are the corpora's own namespaced ids, and ids of different
namespaces (``MESH:D003920`` and ``UMLS:C0011849``, or a MeSH and an OMIM id in NCBI Disease) cannot be
compared: the pair's label is unknown, so such pairs are removed too (reason ``cross_namespace``).

**Link test** (config ``wic.negative_links``; biosem's addition, issue 37: the rules above let wrong
negatives through). A label-0 pair is also dropped when its two concepts are *linked*, i.e. its label
says "different" where the terminology does not separate the two meanings:

* ``record``: both concepts belong to one record of the terminology: one MeSH descriptor (its
  preferred and non-preferred concepts) or one supplementary concept record (``concepts.module`` of
  the MeSH intermediate; :func:`same_record_pairs`). Other formats have no such record and skip it.
* ``ancestor``: one concept is an ancestor of the other through the hierarchical relations of
  ``prune_relations`` (MeSH and UMLS: PAR / RB / CHD / RN / SY; OBO terminologies: ``is_a`` and
  ``part_of``), *transitively* (:func:`ancestor_links`; the direct rule above only sees a parent
  and its child: "renal injury" annotated Kidney Diseases in one abstract and Acute Kidney Injury, two
  tree levels below, in another; "cerebrovascular accident" annotated Cerebral Infarction beside
  "stroke" annotated Stroke, two levels above it).
* ``synonym``: one mention's string, after :mod:`biosem.surface` normalisation, is a term of the other
  mention's concept and not a term of its own (:func:`synonym_links`; "salt" annotated Sodium Chloride,
  Dietary is an entry term of Salts; "progestogens", annotated Progesterone, an entry term of
  Progestins). A string that is a term of both concepts is a homonym the terminology records, and the
  corpus' choice between its senses is kept as a negative. The test is conservative: a homonym the
  terminology lists under one sense only is dropped too (MeSH lists "Cold" under Cold Temperature, not
  under Common Cold).

* ``variant``: the two mention strings are one term written differently (equal surface keys,
  :mod:`biosem.surface`: "LN" / "L-N"), outside the term-identity group, where one string for two
  concepts is the point of the group (a homonym); elsewhere such a pair is a homonym filed under another
  group, or a labelling error.

* ``gene_family``: for concepts of the namespaces of ``wic.gene_family_namespaces`` (CRAFT's PR ids,
  which have no ontology here to walk), one mention string is the other plus a short member suffix
  (:func:`gene_family_links`: "BMP" / "Bmp7", "TGF-β" / "TGF-β2", "ephrin" / "ephrin-B1", "E2f3" /
  "E2f3a"): the family and its member, or a gene and its isoform; or one string is the other after a
  one-letter species prefix ("Shh" / "cShh", "Pygo1" / "mPygo1": a protein and its chick or mouse
  form, PR's organism-specific child); ancestor pairs the missing hierarchy cannot show. Siblings
  ("Capn2" / "Capn4", "Brn3a" / "Brn3c") stay negatives; a sibling whose symbol extends the other's
  ("K1" / "K14") is dropped too (conservative).

Overlapping code sets are the ``shared_code`` rule above (with MeSH every code maps to one concept, so
it never fires there: the descriptor is checked by ``record``). Each dropped pair is counted under the
first reason in :data:`REASON_ORDER`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

import numpy as np
import pandas as pd
import scipy.sparse as sp

from biosem.surface import SurfaceNormaliser, default_normaliser
from biosem.wic.concepts import NOCODE

DEFAULT_PRUNE_RELATIONS = ("SY", "RB", "PAR")
SHARED_CODE = "shared_code"
CROSS_NAMESPACE = "cross_namespace"
RECORD = "record"
ANCESTOR = "ancestor"
SYNONYM = "synonym"
VARIANT = "variant"
GENE_FAMILY = "gene_family"
LINKS = (RECORD, ANCESTOR, SYNONYM, VARIANT, GENE_FAMILY)
"""The link tests of ``wic.negative_links``, in the order a pair's reason is given."""

BROADER_RELS = ("PAR", "RB")
"""RELs whose subject is broader than its object (``subject_id rel object_id``: "subject is the parent /
broader of object", UMLS MRREL read right to left, as every biosem adapter writes it)."""
NARROWER_RELS = ("CHD", "RN", "is_a", "part_of")
"""RELs whose subject is narrower than its object: UMLS CHD / RN, and the OBO relations the OBO reader
writes child -> parent (``is_a``) and part -> whole (``part_of``; GO, UBERON, SO), so that the ancestor
closure of an OBO terminology is its ``is_a`` / ``part_of`` closure."""
EQUIVALENT_RELS = ("SY",)
"""RELs that make two concepts one for the ancestor closure (walked in both directions)."""


def reason_order(rels: Sequence[str] = DEFAULT_PRUNE_RELATIONS, links: Sequence[str] = LINKS) -> list[str]:
    """Every prune reason in precedence order: ``cross_namespace``, ``relation_<REL>`` for ``rels``,
    ``shared_code``, then the enabled ``links`` (in :data:`LINKS` order)."""
    return [CROSS_NAMESPACE, *(f"relation_{r}" for r in rels), SHARED_CODE, *(x for x in LINKS if x in links)]


def namespace(concept_ids: pd.Series) -> pd.Series:
    """The namespace of each concept id: the text before the first ``:`` (``""`` for bare CUIs)."""
    ids = concept_ids.astype(object)
    if ids.empty:
        return ids
    parts = ids.str.partition(":")
    return parts[0].where(parts[1] == ":", "")


def _canonical(a: pd.Series, b: pd.Series) -> tuple[np.ndarray, np.ndarray]:
    a_ = a.to_numpy(dtype=object)
    b_ = b.to_numpy(dtype=object)
    swap = a_ > b_
    return np.where(swap, b_, a_), np.where(swap, a_, b_)


def related_concept_pairs(
    relations: pd.DataFrame,
    rels: Sequence[str] = DEFAULT_PRUNE_RELATIONS,
    concepts: Iterable[str] | None = None,
) -> pd.DataFrame:
    """Unordered concept pairs linked by one of ``rels`` in either direction.

    Returns columns ``concept1 < concept2, reason`` (reason = ``"relation_<REL>"``, the first of
    ``rels`` that links them), one row per pair, sorted. Self relations are ignored. ``concepts``
    restricts the result to pairs of those concepts (both ends).
    """
    rel = relations[relations["rel"].isin(list(rels)) & (relations["subject_id"] != relations["object_id"])]
    if concepts is not None:
        keep = set(concepts)
        rel = rel[rel["subject_id"].isin(keep) & rel["object_id"].isin(keep)]
    c1, c2 = _canonical(rel["subject_id"], rel["object_id"])
    order = {r: i for i, r in enumerate(rels)}
    out = pd.DataFrame({"concept1": c1, "concept2": c2, "rank": rel["rel"].map(order).to_numpy()})
    out = out.sort_values(["concept1", "concept2", "rank"], kind="stable").drop_duplicates(["concept1", "concept2"])
    out["reason"] = "relation_" + pd.Series(list(rels), dtype=object).iloc[out["rank"].to_numpy()].to_numpy()
    return out[["concept1", "concept2", "reason"]].reset_index(drop=True)


def shared_code_pairs(mappings: pd.DataFrame, concepts: Iterable[str] | None = None) -> pd.DataFrame:
    """Unordered pairs of different concepts that share a (code_system, code); ``NOCODE`` and ``""`` never count.

    Returns columns ``concept1 < concept2, reason`` (reason ``"shared_code"``), sorted, one row per pair.
    """
    m = mappings[~mappings["code"].isin(["", NOCODE])][["code_system", "code", "concept_id"]].drop_duplicates()
    if concepts is not None:
        m = m[m["concept_id"].isin(set(concepts))]
    # Only codes with at least two concepts can pair anything.
    m = m[m.duplicated(["code_system", "code"], keep=False)]
    j = m.merge(m, on=["code_system", "code"], suffixes=("1", "2"))
    j = j[j["concept_id1"] < j["concept_id2"]]
    out = pd.DataFrame({"concept1": j["concept_id1"].to_numpy(), "concept2": j["concept_id2"].to_numpy()})
    out = out.drop_duplicates().sort_values(["concept1", "concept2"], kind="stable").reset_index(drop=True)
    out["reason"] = SHARED_CODE
    return out


def same_record_pairs(records: pd.DataFrame, concepts: Iterable[str] | None = None) -> pd.DataFrame:
    """Unordered pairs of different concepts held by one record (a MeSH descriptor or supplementary record).

    Args:
        records: ``concept_id, record`` (the MeSH ``concepts`` intermediate's ``concept_id, module``).
        concepts: restrict to pairs of these concepts.

    Returns columns ``concept1 < concept2, reason`` (reason ``"record"``), sorted, one row per pair.
    """
    r = records[["concept_id", "record"]].dropna().drop_duplicates()
    if concepts is not None:
        r = r[r["concept_id"].isin(set(concepts))]
    r = r[r.duplicated("record", keep=False)]
    j = r.merge(r, on="record", suffixes=("1", "2"))
    j = j[j["concept_id1"] < j["concept_id2"]]
    out = pd.DataFrame({"concept1": j["concept_id1"].to_numpy(), "concept2": j["concept_id2"].to_numpy()})
    out = out.drop_duplicates().sort_values(["concept1", "concept2"], kind="stable").reset_index(drop=True)
    out["reason"] = RECORD
    return out


def ancestor_links(
    concept1: Sequence[str] | np.ndarray,
    concept2: Sequence[str] | np.ndarray,
    relations: pd.DataFrame,
    rels: Sequence[str] = DEFAULT_PRUNE_RELATIONS,
    max_depth: int = 64,
) -> np.ndarray:
    """Whether one concept of each pair is an ancestor of the other, transitively, within ``rels``.

    The hierarchy is the directed graph "narrower -> broader" of the ``relations`` rows whose ``rel`` is
    among ``rels``: :data:`BROADER_RELS` point from object to subject, :data:`NARROWER_RELS` from
    subject to object, :data:`EQUIVALENT_RELS` both ways (so a synonym's ancestors are the concept's);
    other RELs of ``rels`` are not walked (the direct rule, :func:`related_concept_pairs`, applies them).
    Ancestors are found level by level from the pairs' concepts with sparse boolean matrix products
    (scipy), never per pair in Python; ``max_depth`` bounds the levels (MeSH trees are 13 deep).

    Returns:
        Boolean array aligned with the pairs (a pair of equal concepts is ``False``).
    """
    a = np.asarray(concept1, dtype=object)
    b = np.asarray(concept2, dtype=object)
    out = np.zeros(len(a), dtype=bool)
    walk = [r for r in rels if r in BROADER_RELS + NARROWER_RELS + EQUIVALENT_RELS]
    rel = relations[relations["rel"].isin(walk) & (relations["subject_id"] != relations["object_id"])]
    if not len(a) or rel.empty:
        return out
    subject = rel["subject_id"].to_numpy(dtype=object)
    obj = rel["object_id"].to_numpy(dtype=object)
    kind = rel["rel"].to_numpy(dtype=object)
    up = np.isin(kind, BROADER_RELS)
    down = np.isin(kind, NARROWER_RELS)
    same = np.isin(kind, EQUIVALENT_RELS)
    child = np.concatenate([obj[up], subject[down], subject[same], obj[same]])
    parent = np.concatenate([subject[up], obj[down], obj[same], subject[same]])
    ids = pd.Index(np.unique(np.concatenate([child, parent]).astype(str)))
    n = len(ids)
    graph = sp.csr_matrix(
        (np.ones(len(child), dtype=bool), (ids.get_indexer(child), ids.get_indexer(parent))), shape=(n, n)
    )
    ia, ib = ids.get_indexer(a.astype(str)), ids.get_indexer(b.astype(str))
    sources = np.unique(np.concatenate([ia[ia >= 0], ib[ib >= 0]]))
    if not sources.size:
        return out
    start = sp.csr_matrix(
        (np.ones(sources.size, dtype=bool), (np.arange(sources.size), sources)), shape=(sources.size, n)
    )
    reach, front = start, start
    for _ in range(max_depth):
        step = (front @ graph).astype(bool)
        step = (step > reach).astype(bool)  # only what was not reached before
        if not step.nnz:
            break
        reach = (reach + step).astype(bool)
        front = step
    row = np.full(n, -1, dtype=np.int64)
    row[sources] = np.arange(sources.size)
    both = (ia >= 0) & (ib >= 0) & (a != b)
    ra, rb = row[ia[both]], row[ib[both]]
    hit = np.asarray(reach[ra, ib[both]]).ravel() | np.asarray(reach[rb, ia[both]]).ravel()
    out[both] = hit.astype(bool)
    return out


def synonym_links(
    term1: Sequence[str],
    concept1: Sequence[str],
    term2: Sequence[str],
    concept2: Sequence[str],
    term_sets: pd.DataFrame,
    normaliser: SurfaceNormaliser | None = None,
) -> np.ndarray:
    """Whether one mention's string names the other mention's concept and not its own.

    ``term_sets``: ``concept_id, term_lower`` (the terminology's terms of the concepts, or the corpus
    term sets). Strings are compared by surface key (:mod:`biosem.surface`: case, hyphens and spaces,
    possessive ``'s``, British spelling, noun inflection), each distinct string normalised once; the
    membership tests are vectorised set lookups. Pair ``i`` is linked when ``key(term1[i])`` is a key of
    ``concept2[i]``'s terms but not of ``concept1[i]``'s, or the same with the sides swapped.

    Returns:
        Boolean array aligned with the pairs.
    """
    norm = normaliser or default_normaliser()
    c1 = np.asarray(concept1, dtype=object).astype(str)
    c2 = np.asarray(concept2, dtype=object).astype(str)
    if not len(c1) or term_sets.empty:
        return np.zeros(len(c1), dtype=bool)
    wanted = set(c1) | set(c2)
    ts = term_sets[term_sets["concept_id"].isin(wanted)][["concept_id", "term_lower"]].drop_duplicates()
    keys = norm.key_array(ts["term_lower"]).astype(str)
    known = pd.Index(np.unique(ts["concept_id"].to_numpy(dtype=object).astype(str) + "\x1f" + keys))
    k1 = norm.key_array(term1).astype(str)
    k2 = norm.key_array(term2).astype(str)

    def has(concepts: np.ndarray, strings: np.ndarray) -> np.ndarray:
        return pd.Index(concepts + "\x1f" + strings).isin(known)

    return (has(c2, k1) & ~has(c1, k1)) | (has(c1, k2) & ~has(c2, k2))


MEMBER_SUFFIX = re.compile(r"(?!s\Z)[-\s]?[0-9a-z\u03b1-\u03c9]{1,3}")
"""A family member's suffix after the family's name (lowercased): an optional hyphen or space, then one
to three digits, Latin or Greek letters ("7", "-b1", "β2", "a"); a lone plural "s" is no member suffix
("Apc" / "Apcs" are two genes, "BMP" / "BMPs" one family)."""


SPECIES_PREFIXES = "cdhmrxz"
"""One-letter species prefixes of gene and protein symbols (chick, Drosophila, human, mouse, rat,
Xenopus, zebrafish: "cShh", "mPygo1", "hTERT")."""


def gene_family_links(
    term1: Sequence[str],
    concept1: Sequence[str],
    term2: Sequence[str],
    concept2: Sequence[str],
    namespaces: Sequence[str],
) -> np.ndarray:
    """Whether the two mentions name a gene family and its member (module docstring, ``gene_family``).

    Pair ``i`` is linked when both concepts are of one of ``namespaces`` (the text before ``:``,
    compared case-insensitively) and, lowercased and stripped, the longer string is the shorter plus a
    :data:`MEMBER_SUFFIX`, or the longer string is one of :data:`SPECIES_PREFIXES` followed by the
    shorter one, of at least two characters ("cshh" / "shh"; the unit pairs hold lowercase strings).
    One string test per pair of those namespaces (the label-0 unit pairs the other rules left), never
    all pairs.

    Returns:
        Boolean array aligned with the pairs.
    """
    wanted = {n.upper() for n in namespaces}
    c1 = np.asarray(concept1, dtype=object)
    c2 = np.asarray(concept2, dtype=object)
    out = np.zeros(len(c1), dtype=bool)
    if not wanted or not len(c1):
        return out
    ns1 = namespace(pd.Series(c1, dtype=object)).str.upper().to_numpy(dtype=object)
    ns2 = namespace(pd.Series(c2, dtype=object)).str.upper().to_numpy(dtype=object)
    candidates = np.flatnonzero(np.isin(ns1, list(wanted)) & (ns1 == ns2))
    for i in candidates:
        a, b = str(term1[i]).strip().lower(), str(term2[i]).strip().lower()
        short, long = (a, b) if len(a) <= len(b) else (b, a)
        member = bool(short) and long != short and long.startswith(short)
        member = member and MEMBER_SUFFIX.fullmatch(long[len(short) :]) is not None
        species = len(short) >= 2 and long[1:] == short and long[0] in SPECIES_PREFIXES
        out[i] = member or species
    return out


def prune_reasons(
    concept1: pd.Series,
    concept2: pd.Series,
    relations: pd.DataFrame | None,
    mappings: pd.DataFrame | None,
    rels: Sequence[str] = DEFAULT_PRUNE_RELATIONS,
    shared_codes: bool = True,
    *,
    links: Sequence[str] = (),
    records: pd.DataFrame | None = None,
    term1: pd.Series | None = None,
    term2: pd.Series | None = None,
    term_sets: pd.DataFrame | None = None,
    normaliser: SurfaceNormaliser | None = None,
    variant_scope: np.ndarray | None = None,
    family_namespaces: Sequence[str] = (),
) -> pd.Series:
    """Why each concept pair is pruned, or None: the first reason of :func:`reason_order`
    (``cross_namespace``, ``relation_<REL>``, ``shared_code``, then the link tests ``record``,
    ``ancestor``, ``synonym``, ``variant``, ``gene_family`` that ``links`` enables).

    Args:
        concept1, concept2: the pairs' concepts (aligned Series).
        relations: ``subject_id, rel, object_id`` (``None``: no relation rule and no ``ancestor``
            link). For ``ancestor`` it must hold every row of the hierarchical ``rels``, not only
            those of the pairs' concepts.
        mappings: ``concept_id, code_system, code`` (``None``: no ``shared_code``).
        rels: the RELs of ``wic.prune_relations``; shared_codes: ``wic.prune_shared_codes``.
        links: the link tests of ``wic.negative_links`` (:data:`LINKS`).
        records: ``concept_id, record`` for ``record`` (``None``: skipped).
        term1, term2, term_sets: the pairs' mention strings and the concepts' term sets
            (``concept_id, term_lower``) for ``synonym`` (``None``: skipped).
        normaliser: surface normaliser for ``synonym`` and ``variant`` (default
            :func:`biosem.surface.default_normaliser`).
        variant_scope: the pairs ``variant`` may drop (boolean, aligned; ``None``: every pair); the
            caller leaves out the term-identity group.
        family_namespaces: the namespaces ``gene_family`` tests (``wic.gene_family_namespaces``).

    Pairs of equal concepts are never pruned.

    Raises:
        ValueError: ``links`` names an unknown link test.
    """
    unknown = sorted(set(links) - set(LINKS))
    if unknown:
        raise ValueError(f"unknown negative link tests {unknown}; known: {list(LINKS)}")
    index = concept1.index
    a, b = _canonical(concept1, concept2)
    pairs = pd.DataFrame({"concept1": a, "concept2": b})
    reason = pd.Series(None, index=index, dtype=object)
    involved = set(a) | set(b)
    cross = (namespace(concept1) != namespace(concept2)).to_numpy()
    reason[cross] = CROSS_NAMESPACE
    tables = []
    if relations is not None and len(rels):
        tables.append(related_concept_pairs(relations, rels, involved))
    if mappings is not None and shared_codes:
        tables.append(shared_code_pairs(mappings, involved))
    if RECORD in links and records is not None:
        tables.append(same_record_pairs(records, involved))
    for table in tables:
        got = pairs.merge(table, on=["concept1", "concept2"], how="left")["reason"].to_numpy(dtype=object)
        fill = reason.isna().to_numpy() & pd.notna(got)
        reason[fill] = got[fill]
    # the pair-level tests, on the pairs no concept-pair table has pruned yet
    still = np.flatnonzero(reason.isna().to_numpy() & (a != b))
    if ANCESTOR in links and relations is not None and still.size:
        hit = ancestor_links(a[still], b[still], relations, rels)
        reason.iloc[still[hit]] = ANCESTOR
        still = still[~hit]
    if SYNONYM in links and term_sets is not None and term1 is not None and term2 is not None and still.size:
        t1, t2 = term1.to_numpy(dtype=object)[still], term2.to_numpy(dtype=object)[still]
        c1, c2 = concept1.to_numpy(dtype=object)[still], concept2.to_numpy(dtype=object)[still]
        hit = synonym_links(t1, c1, t2, c2, term_sets, normaliser)
        reason.iloc[still[hit]] = SYNONYM
        still = still[~hit]
    if VARIANT in links and term1 is not None and term2 is not None and still.size:
        if variant_scope is not None:
            still = still[np.asarray(variant_scope, dtype=bool)[still]]
        norm = normaliser or default_normaliser()
        t1, t2 = term1.to_numpy(dtype=object)[still], term2.to_numpy(dtype=object)[still]
        hit = norm.key_array(t1) == norm.key_array(t2)
        reason.iloc[still[hit]] = VARIANT
    if GENE_FAMILY in links and term1 is not None and term2 is not None and family_namespaces:
        still = np.flatnonzero(reason.isna().to_numpy() & (a != b))
        t1, t2 = term1.to_numpy(dtype=object)[still], term2.to_numpy(dtype=object)[still]
        c1, c2 = concept1.to_numpy(dtype=object)[still], concept2.to_numpy(dtype=object)[still]
        hit = gene_family_links(t1, c1, t2, c2, family_namespaces)
        reason.iloc[still[hit]] = GENE_FAMILY
    reason[a == b] = None
    return reason.astype(object).where(reason.notna(), None)
