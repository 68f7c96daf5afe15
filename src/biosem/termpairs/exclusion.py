"""What the negatives exclude beyond the positives' similarity graph, and how many candidates that removes.

Schulz & Juric (AAAI 2020, § Dataset creation) pair a term with a negative "not similar directly or
indirectly". A reviewer of the open default (issue 37) found negatives that are the same term written
differently ("Pancoast's tumour" / "Pancoast's tumor") and, in MeSH, negatives that are other concepts
of the query's own descriptor ("ZM 182780" / "ICI-182780"). Both are excluded through the similarity
components (:func:`biosem.termpairs.positives.similarity_components`), so the exact nearest-term search
and the random draws stay as they are: this module supplies the concept groups and counts, per
dataset, the candidate negatives each rule removed (``counts.tsv``; logs).
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from rapidfuzz import process
from rapidfuzz.distance import Levenshtein

from biosem.termpairs.params import CONCEPT_GROUPINGS

EXCLUSION_RULES = {
    "same_group": ("synonym_component", "group_component"),
    "surface_variant": ("group_component", "component"),
}
"""Each exclusion rule -> (the components before it, the components after it), in the order applied:
concepts of one group (MeSH descriptor) first, then surface variants of the grouped components."""

EXCLUSION_REASONS = {
    "same_group": "another concept of the first term's group (MeSH: descriptor)",
    "surface_variant": "a surface variant (biosem.surface key) of a term similar to the first term",
}
"""Why each rule removes a candidate (the logs' wording)."""


def concept_groups(concepts: pd.DataFrame, grouping: str | None, fmt: str) -> pd.Series | None:
    """Concept id -> group id for ``grouping`` (config ``termpairs.exclude_same_group``) in a
    terminology of format ``fmt``; None when the grouping is off or the format has no such groups.

    ``descriptor``: a MeSH concept's ``module``, the UI of the descriptor (``D…``) or supplementary
    record (``C…``) holding it (:mod:`biosem.terminology.mesh`). NLM: a descriptor's non-preferred
    concepts are narrower or related concepts, which a reader takes for the descriptor ("ZM 182780"
    is filed under Fulvestrant, "ICI-182780"); Schulz & Juric likewise keep a concept's association
    component out of its negatives.

    Raises:
        ValueError: ``grouping`` is not a key of :data:`CONCEPT_GROUPINGS`.
    """
    if grouping is None:
        return None
    if grouping not in CONCEPT_GROUPINGS:
        raise ValueError(f"unknown concept grouping {grouping!r}; known: {', '.join(sorted(CONCEPT_GROUPINGS))}")
    column = CONCEPT_GROUPINGS[grouping].get(fmt)
    if column is None:
        return None
    return concepts.set_index("concept_id")[column].dropna()


def excluded_candidates(
    positives: pd.DataFrame,
    components: pd.DataFrame,
    negatives: pd.DataFrame | None = None,
    examples: int = 3,
) -> tuple[dict[str, int], dict[str, list[str]]]:
    """Candidate negatives of one dataset that each rule of :data:`EXCLUSION_RULES` removed.

    A candidate is a (distinct lowercased first term, pool term) pair, the pool being the dataset's
    terms, as :func:`biosem.termpairs.negatives.sample_random_negatives` and
    ``sample_levenshtein_negatives`` draw them (fallbacks to the source's terms are not counted).
    A rule removed it when the pair shares a component after the rule but not before (so a term
    both a descriptor sibling and a surface variant counts once, under ``same_group``).

    Args:
        positives: the dataset's positives (``term1``, ``term2``).
        components: :func:`~biosem.termpairs.positives.similarity_components` of the source; a table
            without the stage columns counts nothing.
        negatives: the dataset's Levenshtein negatives (``term1``, ``levenshtein``), or None. Given,
            the candidates within the distance of their first term's farthest negative are counted
            too (``excluded_<rule>_nearer``: those that would have competed for a Levenshtein negative).
        examples: pairs shown per rule (the nearest first when ``negatives`` is given).

    Returns:
        (counts, shown): ``excluded_<rule>`` per rule (and ``excluded_<rule>_nearer``), and per rule
        up to ``examples`` pairs as ``"first term -> candidate (d=<distance>)"``.
    """
    counts: dict[str, int] = {}
    shown: dict[str, list[str]] = {}
    pool = pd.Index(pd.concat([positives["term1"], positives["term2"]]).str.lower().unique())
    firsts = pd.Index(positives["term1"].str.lower().unique())
    table = components.set_index("term_lower")
    reach = None
    if negatives is not None:
        reach = negatives.assign(lower=negatives["term1"].str.lower()).groupby("lower")["levenshtein"].max()
    for rule, (before, after) in EXCLUSION_RULES.items():
        counts[f"excluded_{rule}"] = 0
        if reach is not None:
            counts[f"excluded_{rule}_nearer"] = 0
        shown[rule] = []
        if before not in table.columns or after not in table.columns or pool.empty:
            continue
        pairs = _joined_pairs(table, firsts, pool, before, after)
        counts[f"excluded_{rule}"] = len(pairs)
        if pairs.empty:
            continue
        pairs["distance"] = process.cpdist(
            pairs["first"].tolist(), pairs["candidate"].tolist(), scorer=Levenshtein.distance, workers=1
        ).astype(np.int64)
        if reach is not None:
            pairs = pairs[pairs["distance"] <= reach.reindex(pairs["first"]).to_numpy()]
            counts[f"excluded_{rule}_nearer"] = len(pairs)
        pairs = pairs.sort_values(["distance", "first", "candidate"], kind="stable").head(examples)
        shown[rule] = [f"{a} -> {b} (d={d})" for a, b, d in zip(pairs["first"], pairs["candidate"], pairs["distance"])]
    return counts, shown


def _joined_pairs(table: pd.DataFrame, firsts: pd.Index, pool: pd.Index, before: str, after: str) -> pd.DataFrame:
    """(first term, pool term) pairs in one ``after`` component but different ``before`` components,
    sorted; only components that the rule joined are expanded."""
    joined = table.groupby(after)[before].nunique()
    joined = joined.index[joined.to_numpy() > 1]
    left = table.loc[firsts, [before, after]]
    left = left[left[after].isin(joined)].rename_axis("first").reset_index()
    right = table.loc[pool, [before, after]]
    right = right[right[after].isin(joined)].rename_axis("candidate").reset_index()
    pairs = left.merge(right, on=after, suffixes=("", "_candidate"))
    pairs = pairs[pairs[before] != pairs[f"{before}_candidate"]]
    return pairs[["first", "candidate"]].sort_values(["first", "candidate"], kind="stable").reset_index(drop=True)
