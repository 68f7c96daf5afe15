"""The counts table of a source's term-pair datasets, shaped like Table 2 of Schulz & Juric (2020)."""

from __future__ import annotations

import pandas as pd

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
    "status",
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
