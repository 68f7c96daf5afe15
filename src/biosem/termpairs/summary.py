"""The counts table of a source's term-pair datasets, shaped like Table 2 of Schulz & Juric (2020)."""

from __future__ import annotations

from collections.abc import Mapping

import pandas as pd

from biosem.terminology.schemas import ASSOCIATION_KINDS
from biosem.termpairs.exclusion import EXCLUSION_RULES
from biosem.termpairs.positives import DIFFICULTIES, POSITIVE_KINDS

TABLE2_COLUMNS = [
    "kind",
    "difficulty",
    "positives",
    "mean_levenshtein_positive",
    "negatives_random",
    "mean_levenshtein_negative_random",
    "negatives_levenshtein",
    "mean_levenshtein_negative_levenshtein",
    "fallbacks_random",
    "fallbacks_levenshtein",
    "excluded_same_group",
    "excluded_surface_variant",
    "excluded_same_group_nearer",
    "excluded_surface_variant_nearer",
    "status",
    "note",
]


def summarise(stats: list[dict[str, object]], associations: Mapping[str, int] | None = None) -> pd.DataFrame:
    """Counts table shaped like Table 2 of Schulz & Juric: one row per kind × (easy, hard, all).

    Args:
        stats: the per-dataset statistics of one terminology (from
            :func:`~biosem.termpairs.negatives.build_dataset`), any order.
        associations: rows of each association kind in the terminology's ``associations``
            intermediate (a kind missing counts 0); None when not known.

    Returns:
        Columns :data:`TABLE2_COLUMNS`. ``excluded_<rule>``: candidate negatives (distinct first
        term, pool term) that the rule removed (:func:`biosem.termpairs.exclusion.excluded_candidates`:
        ``same_group`` other concepts of the first term's MeSH descriptor, ``surface_variant`` surface
        variants of a term similar to the first term); ``excluded_<rule>_nearer``: those of them
        within the distance of their first term's farthest Levenshtein negative. ``status`` is
        ``empty`` for a dataset without pairs and ``note`` says why (:func:`empty_note`; empty for
        the others). Means over "all" are weighted by the number of pairs.
    """
    df = pd.DataFrame(stats)
    rows = []
    for kind in POSITIVE_KINDS:
        of_kind = df[(df["kind"] == kind) & (df["strategy"] == "random")]
        by_difficulty = {d: int(of_kind.loc[of_kind["difficulty"] == d, "positives"].sum()) for d in DIFFICULTIES}
        known = None
        if associations is not None and kind in ASSOCIATION_KINDS:
            known = int(associations.get(kind, 0))
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
            for rule in EXCLUSION_RULES:
                # Candidates are the same for both strategies (one pool, one set of first terms).
                row[f"excluded_{rule}"] = _total(rnd, f"excluded_{rule}")
                row[f"excluded_{rule}_nearer"] = _total(lev, f"excluded_{rule}_nearer")
            row["status"] = "ok" if n_pos else "empty"
            row["note"] = empty_note(kind, difficulty, by_difficulty, known)
            rows.append(row)
    return pd.DataFrame(rows, columns=TABLE2_COLUMNS)


def empty_note(kind: str, difficulty: str, positives: Mapping[str, int], associations: int | None = None) -> str:
    """Why the dataset of ``kind`` at ``difficulty`` (or ``"all"``) has no pairs; ``""`` when it has some.

    Args:
        positives: the kind's positive pairs by difficulty (``easy``, ``hard``).
        associations: for an association kind, its rows in the terminology's ``associations``
            intermediate (None: not known).

    Returns:
        ``"no <kind> associations in the source"`` (an association kind the terminology has none of:
        MeSH and UMLS have no association roles, OBO no SAME AS); ``"<n> <kind> associations, none
        usable ..."`` (all dropped: inactive or headless target, or already a SYN-SYN pair); ``"no
        <kind> pairs in the source"`` (a synonym kind, or associations not known); ``"no <difficulty>
        pairs (<n> <other>)"`` (the kind has pairs at the other difficulty only).
    """
    total = sum(int(positives.get(d, 0)) for d in DIFFICULTIES)
    if (total if difficulty == "all" else int(positives.get(difficulty, 0))) > 0:
        return ""
    if total == 0:
        if associations == 0:
            return f"no {kind} associations in the source"
        if associations:
            return (
                f"{associations} {kind} associations, none usable (inactive or headless target, or already "
                "a SYN-SYN pair: build_termpair_positives log)"
            )
        return f"no {kind} pairs in the source"
    (other,) = (d for d in DIFFICULTIES if d != difficulty)
    return f"no {difficulty} pairs ({int(positives.get(other, 0))} {other})"


def _total(df: pd.DataFrame, column: str) -> int:
    """Sum of a stats column (0 where the statistics predate it)."""
    return int(df[column].fillna(0).sum()) if column in df.columns else 0


def _wmean(df: pd.DataFrame, value: str, weight: str) -> float:
    w = df[weight].astype(float)
    if w.sum() == 0:
        return float("nan")
    return round(float((df[value].astype(float).fillna(0) * w).sum() / w.sum()), 4)
