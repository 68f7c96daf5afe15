"""Validity checks of one terminology's 20 term-pair datasets (``validity.tsv``; docs/design.md § Validity).

The generic checks of :mod:`biosem.validity` per dataset, plus what term pairs need (issue 37):
negatives that are other concepts of the query's MeSH descriptor, negatives the source records as a
(non-exact) synonym of the query's concept, and what the association datasets are. Association pairs
(SNOMED CT's POSSIBLY EQUIVALENT TO / REPLACED BY / SAME AS refsets, OBO ``consider`` /
``replaced_by``) are historical links from an inactive concept to active ones, not synonyms (Schulz &
Juric, AAAI 2020, § Datasets take them as positives): :func:`association_synonym_shares` measures how
many of them the source also records as an EXACT, NARROW, BROAD or RELATED synonym.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import pandas as pd

from biosem.surface import STEPS, SurfaceNormaliser, default_normaliser
from biosem.terminology.schemas import ASSOCIATION_KINDS
from biosem.termpairs.params import ExclusionParams
from biosem.termpairs.positives import DATASETS, POSITIVE_KINDS
from biosem.validity import (
    CharNgrams,
    Check,
    check,
    duplicate_check,
    label_checks,
    string_baseline_checks,
    surface_variant_check,
)

SYNONYM_SCOPES = ("EXACT", "NARROW", "BROAD", "RELATED")
"""OBO synonym scopes, in the order reported. A term without a scope (RF2, RRF and MeSH terms, an OBO
``name``) counts as EXACT: those sources record synonyms only."""

ANY_SCOPE = "any"
"""The stratum of a pair recorded under at least one scope."""

CHECKS = {
    "rows": "rows of the dataset (an empty dataset gets this row only; counts.tsv says why it is empty)",
    "same_descriptor_negatives": "label-0 pairs whose second term is a term of another concept of the "
    "first term's MeSH descriptor",
    "negative_recorded_synonym": "share of label-0 pairs whose second term the source records as a term "
    "(of the stratum's scope) of the first term's concept",
    "association_recorded_synonym": "share of label-1 association pairs that the source also records as a "
    "synonym (of the stratum's scope): one term is a term of the other's concept",
}
"""The term-pair checks beyond :data:`biosem.validity.CHECKS`."""

_CASE = SurfaceNormaliser(STEPS[:2])
"""NFKC and case folding: "records the string" compares strings as the datasets dedupe them."""


def recorded_terms(terms: pd.DataFrame) -> pd.DataFrame:
    """The strings a terminology records per concept, with their scope: columns ``concept_id``,
    ``key`` (NFKC, case-folded, stripped) and ``scope`` (:data:`SYNONYM_SCOPES`; null scopes as
    EXACT), distinct and sorted. Every term counts, active or not (an obsolete OBO term keeps its
    synonyms), names included."""
    scope = terms["scope"].astype(object).where(terms["scope"].notna(), "EXACT")
    out = pd.DataFrame(
        {
            "concept_id": terms["concept_id"].to_numpy(dtype=object),
            "key": _CASE.key_array(terms["term"].astype(str).str.strip().to_numpy(dtype=object)),
            "scope": scope.to_numpy(dtype=object),
        }
    )
    return out.drop_duplicates().sort_values(["concept_id", "key", "scope"], kind="stable").reset_index(drop=True)


def _scopes_of(strings: pd.Series, concept_ids: pd.Series, recorded: pd.DataFrame) -> pd.DataFrame:
    """Boolean frame (rows aligned with ``strings``, one column per scope): ``strings[i]`` is
    recorded under that scope as a term of ``concept_ids[i]``."""
    query = pd.DataFrame(
        {
            "row": np.arange(len(strings)),
            "concept_id": concept_ids.to_numpy(dtype=object),
            "key": _CASE.key_array(strings.astype(str).str.strip().to_numpy(dtype=object)),
        }
    )
    hits = query.merge(recorded, on=["concept_id", "key"], how="inner")
    out = pd.DataFrame(False, index=np.arange(len(strings)), columns=list(SYNONYM_SCOPES))
    for scope in SYNONYM_SCOPES:
        out.loc[hits.loc[hits["scope"] == scope, "row"].unique(), scope] = True
    return out


def association_synonym_shares(pairs: pd.DataFrame, terms: pd.DataFrame) -> pd.DataFrame:
    """How many association pairs the source also records as a synonym, per scope.

    A pair (``term1`` of inactive ``concept_id1``, ``term2`` of target ``concept_id2``) is recorded
    under scope S when ``term1`` is an S term of ``concept_id2`` or ``term2`` an S term of
    ``concept_id1`` (strings compared after NFKC and case folding; scopes as :func:`recorded_terms`).
    GO, for one, records no ``replaced_by`` name as an EXACT synonym of its target (issue 37).

    Args:
        pairs: association positives (``term1``, ``term2``, ``concept_id1``, ``concept_id2``).
        terms: the terminology's ``terms`` intermediate (``concept_id``, ``term``, ``scope``).

    Returns:
        One row per scope of :data:`SYNONYM_SCOPES` and :data:`ANY_SCOPE`: ``scope``, ``pairs``
        (all), ``recorded`` (pairs recorded under it), ``share`` (``recorded / pairs``, 0–1; NaN
        without pairs).
    """
    recorded = recorded_terms(terms)
    forward = _scopes_of(pairs["term1"], pairs["concept_id2"], recorded)
    backward = _scopes_of(pairs["term2"], pairs["concept_id1"], recorded)
    either = forward | backward
    either[ANY_SCOPE] = either.any(axis=1)
    n = len(pairs)
    rows = []
    for scope in (*SYNONYM_SCOPES, ANY_SCOPE):
        k = int(either[scope].sum())
        rows.append({"scope": scope, "pairs": n, "recorded": k, "share": k / n if n else float("nan")})
    return pd.DataFrame(rows, columns=["scope", "pairs", "recorded", "share"])


def termpair_validity(
    datasets: Mapping[str, pd.DataFrame],
    terms: pd.DataFrame | None = None,
    descriptors: pd.Series | None = None,
    exclusion: ExclusionParams | None = None,
    normaliser: SurfaceNormaliser | None = None,
) -> list[Check]:
    """The ``validity.tsv`` rows of one terminology's term-pair datasets.

    Per dataset (in :data:`~biosem.termpairs.positives.DATASETS` order, then any other name sorted):
    an empty dataset gets one ``rows`` row (``info``) and nothing else; the others get label balance
    and majority-class accuracy (:func:`biosem.validity.label_checks`), the string baselines
    (normalised exact match, Levenshtein ratio, character 3-gram Jaccard: AUC and best-threshold
    accuracy, :func:`~biosem.validity.string_baseline_checks`), surface variants among the label-0
    pairs (:func:`~biosem.validity.surface_variant_check`, pass ``== 0``), unordered duplicate pairs
    (lowercased, pass ``== 0``); with ``descriptors``, ``same_descriptor_negatives`` (pass ``== 0``
    when ``exclusion`` excludes descriptors, else ``info``); with ``terms``,
    ``negative_recorded_synonym`` per scope (``info``) and, for the association datasets,
    ``association_recorded_synonym`` per scope over their label-1 pairs (``info``,
    :func:`association_synonym_shares`).

    Args:
        datasets: dataset name (``fsn_syn_hard_levenshtein``) -> its rows
            (:data:`biosem.termpairs.schemas.TERMPAIR_DATASET`: ``term1, term2, label, concept_id1, concept_id2``).
        terms: the terminology's ``terms`` intermediate; None skips the checks that need it.
        descriptors: MeSH concept id -> descriptor UI (:func:`biosem.termpairs.exclusion.concept_groups`);
            None: not a MeSH terminology.
        exclusion: the construction's :class:`~biosem.termpairs.params.ExclusionParams` (default:
            the config's defaults).
        normaliser: surface normaliser (default :func:`biosem.surface.default_normaliser`).

    Returns:
        :class:`biosem.validity.Check` rows, dataset by dataset. Shares are 0–1.
    """
    norm = normaliser or default_normaliser()
    ngrams = CharNgrams(3)  # the datasets share their terms: each analysed once
    exclusion = exclusion or ExclusionParams()
    recorded = recorded_terms(terms) if terms is not None else None
    membership = _descriptor_terms(terms, descriptors) if terms is not None and descriptors is not None else None
    order = {name: i for i, name in enumerate(DATASETS)}
    out: list[Check] = []
    for name in sorted(datasets, key=lambda x: (order.get(x, len(order)), x)):
        ds = datasets[name].reset_index(drop=True)
        if ds.empty:
            out.append(check(name, "rows", 0, detail="empty dataset: counts.tsv gives the reason"))
            continue
        out.append(check(name, "rows", len(ds)))
        a = ds["term1"].astype(str).tolist()
        b = ds["term2"].astype(str).tolist()
        labels = ds["label"].to_numpy(dtype=np.int64)
        out += label_checks(labels, name)
        out += string_baseline_checks(a, b, labels, name, normaliser=norm, ngrams=ngrams)
        neg = ds[labels == 0]
        out.append(
            surface_variant_check(
                neg["term1"].astype(str).tolist(), neg["term2"].astype(str).tolist(), name, normaliser=norm
            )
        )
        out.append(duplicate_check([x.lower() for x in a], [x.lower() for x in b], name))
        if membership is not None:
            out.append(_same_descriptor_check(neg, descriptors, membership, name, exclusion))  # type: ignore[arg-type]
        if recorded is not None and len(neg):
            scopes = _scopes_of(neg["term2"], neg["concept_id1"], recorded)
            out += _share_rows(scopes, name, "negative_recorded_synonym", neg)
        if recorded is not None and dataset_kind(name) in ASSOCIATION_KINDS:
            pos = ds[labels == 1]
            shares = association_synonym_shares(pos, terms)  # type: ignore[arg-type]
            for row in shares.itertuples():
                out.append(
                    check(
                        name,
                        "association_recorded_synonym",
                        round(float(row.share), 6),
                        stratum=row.scope,
                        detail=f"{row.recorded} of {row.pairs} label-1 pairs",
                    )
                )
    return out


def dataset_kind(name: str) -> str | None:
    """The positive kind of a dataset name (``replaced_by_hard_random`` -> ``replaced_by``), or None."""
    for kind in sorted(POSITIVE_KINDS, key=len, reverse=True):
        if name.startswith(f"{kind}_"):
            return kind
    return None


def _share_rows(
    scopes: pd.DataFrame, name: str, check_name: str, pairs: pd.DataFrame, examples: int = 2
) -> list[Check]:
    scopes = scopes.assign(**{ANY_SCOPE: scopes.any(axis=1)})
    n = len(scopes)
    rows = []
    for scope in (*SYNONYM_SCOPES, ANY_SCOPE):
        hit = np.flatnonzero(scopes[scope].to_numpy())
        shown = "; ".join(f"{pairs['term1'].iloc[i]!r} / {pairs['term2'].iloc[i]!r}" for i in hit[:examples])
        detail = f"{hit.size} of {n} pairs" + (f"; {shown}" if shown else "")
        rows.append(
            check(name, check_name, round(hit.size / n, 6) if n else float("nan"), stratum=scope, detail=detail)
        )
    return rows


def _descriptor_terms(terms: pd.DataFrame, descriptors: pd.Series) -> pd.DataFrame:
    """(key, concept_id, descriptor) of every term of a concept with a descriptor, distinct."""
    t = pd.DataFrame(
        {
            "key": _CASE.key_array(terms["term"].astype(str).str.strip().to_numpy(dtype=object)),
            "concept_id": terms["concept_id"].to_numpy(dtype=object),
        }
    )
    t["descriptor"] = t["concept_id"].map(descriptors)
    return t.dropna().drop_duplicates().reset_index(drop=True)


def _same_descriptor_check(
    neg: pd.DataFrame, descriptors: pd.Series, membership: pd.DataFrame, name: str, exclusion: ExclusionParams
) -> Check:
    """Label-0 pairs whose second term is a term of a concept other than the first term's concept
    in the first term's descriptor."""
    q = pd.DataFrame(
        {
            "row": np.arange(len(neg)),
            "key": _CASE.key_array(neg["term2"].astype(str).str.strip().to_numpy(dtype=object)),
            "concept_id1": neg["concept_id1"].to_numpy(dtype=object),
        }
    )
    q["descriptor"] = q["concept_id1"].map(descriptors)
    hits = q.dropna(subset=["descriptor"]).merge(membership, on=["key", "descriptor"])
    hits = hits[hits["concept_id"] != hits["concept_id1"]]
    rows = np.unique(hits["row"].to_numpy())
    shown = "; ".join(f"{neg['term1'].iloc[i]!r} / {neg['term2'].iloc[i]!r}" for i in rows[:3])
    threshold = "== 0" if exclusion.exclude_same_group == "descriptor" else ""
    detail = f"{rows.size} of {len(neg)} label-0 pairs" + (f"; {shown}" if shown else "")
    return check(name, "same_descriptor_negatives", int(rows.size), threshold, detail=detail)
