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
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import numpy as np
import pandas as pd

from biosem.wic.concepts import NOCODE

DEFAULT_PRUNE_RELATIONS = ("SY", "RB", "PAR")
SHARED_CODE = "shared_code"
CROSS_NAMESPACE = "cross_namespace"


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


def prune_reasons(
    concept1: pd.Series,
    concept2: pd.Series,
    relations: pd.DataFrame | None,
    mappings: pd.DataFrame | None,
    rels: Sequence[str] = DEFAULT_PRUNE_RELATIONS,
    shared_codes: bool = True,
) -> pd.Series:
    """Why each concept pair is pruned (``cross_namespace``, then ``relation_<REL>``, then
    ``shared_code``), or None.

    Pairs of equal concepts are never pruned. ``relations`` / ``mappings`` ``None`` skip that rule.
    """
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
    for table in tables:
        got = pairs.merge(table, on=["concept1", "concept2"], how="left")["reason"].to_numpy(dtype=object)
        fill = reason.isna().to_numpy() & pd.notna(got)
        reason[fill] = got[fill]
    reason[a == b] = None
    return reason.astype(object).where(reason.notna(), None)
