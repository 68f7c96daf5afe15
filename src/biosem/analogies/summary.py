"""What the analogy construction decided, per relation and per terminology, beside the BMASS paper.

The counts table of one terminology (:data:`~biosem.analogies.construct.COUNT_COLUMNS`, written as
``counts.tsv``) holds every stored relation and its status. This module turns it into

* the reason a relation was dropped, with its numbers and the threshold it missed
  (:func:`decision_reason`: ``"one-to-one instances 9 < min_one_to_one 50"``);
* log lines per terminology (:func:`describe`): relations considered and kept, analogies per relation,
  Amb, and the comparison with the paper;
* two tables over every terminology (:func:`summarise`): one row per terminology (``summary.tsv``)
  and one row per relation (``relations.tsv``), each followed by the paper's figures.

The paper's figures (Newman-Griffis, Lai & Fosler-Lussier 2017, § 3 and Table 2): 721 REL/RELA pairings
of UMLS 2016AA considered; 25 relations kept after the one-to-one filter and the manual Informativity
review; 50 subjects per relation, so 50 x 49 = 2,450 analogies per relation and 61,250 per setting;
"Amb" = mean number of correct answers per analogy (Multi-Answer), per relation in Table 2.
"""

from __future__ import annotations

import math
import os
from collections.abc import Mapping

import numpy as np
import pandas as pd

from biosem.analogies.construct import (
    RULES,
    STATUS_FEW_ONE_TO_ONE,
    STATUS_FEW_SUBJECTS,
    STATUS_KEPT,
    STATUS_NO_USABLE,
    STATUS_NOT_ALLOWED,
    AnalogyParams,
)

BMASS = "BMASS 2017 (UMLS 2016AA)"
"""The ``terminology`` value of the paper's rows in :func:`summarise`."""

BMASS_RELATIONS_CONSIDERED = 721
BMASS_PAIRS_PER_RELATION = 50
BMASS_TABLE_2: dict[str, tuple[str, float]] = {
    "L1": ("form_of", 1.0),
    "L2": ("has_lab_number", 1.1),
    "L3": ("has_tradename", 1.5),
    "L4": ("tradename_of", 1.3),
    "L5": ("associated_substance", 1.6),
    "L6": ("has_free_acid_or_base_form", 1.0),
    "L7": ("has_salt_form", 1.1),
    "L8": ("measured_component_of", 1.3),
    "H1": ("refers_to", 1.0),
    "H2": ("same_type", 10.4),
    "M1": ("adjectival_form_of", 1.1),
    "M2": ("noun_form_of", 1.0),
    "C1": ("associated_with_malfunction_of_gene_product", 2.6),
    "C2": ("gene_product_malfunction_associated_with_disease", 1.5),
    "C3": ("causative_agent_of", 4.6),
    "C4": ("has_causative_agent", 2.0),
    "C5": ("has_finding_site", 1.9),
    "C6": ("associated_with", 1.2),
    "A1": ("anatomic_structure_is_part_of", 1.6),
    "A2": ("anatomic_structure_has_part", 5.4),
    "A3": ("is_located_in", 1.4),
    "B1": ("regulated_by", 1.0),
    "B2": ("regulates", 1.0),
    "B3": ("gene_encodes_gene_product", 1.1),
    "B4": ("gene_product_encoded_by_gene", 2.4),
}
"""BMASS Table 2: id -> (UMLS RELA, Amb)."""

SUMMARY_COLUMNS = (
    "terminology", "min_frequency", "min_one_to_one", "pairs_per_relation", "inverses", "allow_list",
    "relations_considered", "relations_kept", "kept", "dropped", "analogies_per_relation", "analogies",
    "amb_mean", "amb_min", "amb_max", "single_answer_abc", "multi_answer_abc", "bmass_analogies", "removed",
)  # fmt: skip
"""Columns of ``summary.tsv``: one row per terminology, then ``(all)``, then the paper. ``bmass_analogies``:
Single-Answer analogies of the construction without the issue-37 validity rules; ``removed``: what each
rule removed (``"capitals: 5 concepts, 98 analogies; ..."``, rules that removed nothing left out)."""

RELATION_COLUMNS = (
    "terminology", "relation", "rel", "rela", "instances", "usable_instances", "subjects", "objects",
    "one_to_one", "status", "reason", "analogies", "amb", "single_answer_abc", "multi_answer_abc",
)  # fmt: skip
"""Columns of ``relations.tsv``: every relation of every terminology, then the paper's 25."""


_SUMMARY_INTEGERS = (
    "min_frequency", "min_one_to_one", "pairs_per_relation", "relations_considered", "relations_kept",
    "analogies_per_relation", "analogies", "single_answer_abc", "multi_answer_abc", "bmass_analogies",
)  # fmt: skip
_RELATION_INTEGERS = (
    "instances", "usable_instances", "subjects", "objects", "one_to_one", "analogies", "single_answer_abc",
    "multi_answer_abc",
)  # fmt: skip


def read_counts(path: str | os.PathLike[str]) -> pd.DataFrame:
    """A ``counts.tsv`` as written by ``build_analogies`` (tab-separated, empty = missing): labels and
    statuses as strings (a relation named ``NA`` stays ``NA``), ``rela`` and ``amb`` NaN where empty."""
    return pd.read_csv(path, sep="\t", keep_default_na=False, na_values={"rela": [""], "amb": [""]})


def decision_reason(row: Mapping[str, object], params: AnalogyParams) -> str:
    """Why a relation (a row of the counts table) was kept or dropped, with the numbers and the
    threshold it was held against.

    Raises:
        ValueError: an unknown status.
    """
    status = row["status"]
    if status == STATUS_KEPT:
        n = params.pairs_per_relation
        return (
            f"kept: one-to-one instances {row['one_to_one']} >= {params.min_one_to_one}, "
            f"subjects {row['subjects']} >= {n}"
        )
    if status == STATUS_NO_USABLE:
        return f"no instance between usable concepts (a term occurring >= {params.min_frequency} times)"
    if status == STATUS_FEW_ONE_TO_ONE:
        return f"one-to-one instances {row['one_to_one']} < min_one_to_one {params.min_one_to_one}"
    if status == STATUS_NOT_ALLOWED:
        return "not in the allow-list `relations`"
    if status == STATUS_FEW_SUBJECTS:
        return f"subjects {row['subjects']} < pairs_per_relation {params.pairs_per_relation}"
    raise ValueError(f"unknown relation status {status!r}")


def _relations(counts: pd.DataFrame) -> pd.DataFrame:
    """The per-relation rows of a counts table (without ``(all)``)."""
    return counts[counts["relation"] != "(all)"]


def _fmt_amb(values: pd.Series) -> str:
    values = values.dropna()
    if values.empty:
        return "n/a"
    return f"{values.mean():.2f} ({values.min():.2f}-{values.max():.2f})"


def describe(counts: pd.DataFrame, params: AnalogyParams, terminology: str) -> list[str]:
    """Log lines for one terminology: relations considered and kept (with the thresholds), each kept
    relation's analogies and Amb, each dropped relation's reason, and the comparison with BMASS.

    Args:
        counts: the terminology's counts table (:data:`~biosem.analogies.construct.COUNT_COLUMNS`).
        params: the construction parameters it was built with.
        terminology: the terminology name (prefix of every line).
    """
    rows = _relations(counts)
    kept = rows[rows["status"] == STATUS_KEPT]
    n = params.pairs_per_relation
    allow = "none" if params.relations is None else ", ".join(params.relations)
    lines = [
        f"{terminology}: {len(rows)} relations considered ({int(rows['instances'].sum())} instances), "
        f"{len(kept)} kept; thresholds min_frequency {params.min_frequency}, min_one_to_one "
        f"{params.min_one_to_one}, pairs_per_relation {n}, inverses {'added' if params.inverse else 'as stored'}, "
        f"allow-list {allow}"
    ]
    for row in kept.to_dict("records"):
        lines.append(
            f"{terminology}: kept {row['relation']}: {row['one_to_one']} one-to-one of {row['usable_instances']} "
            f"usable instances, {row['subjects']} subjects, {row['objects']} objects -> {n} x {n - 1} = "
            f"{row['single_answer']} analogies per setting, Amb {row['amb']:.2f}; answer only a/b/c in "
            f"{row['single_answer_abc']} Single-Answer and {row['multi_answer_abc']} Multi-Answer analogies"
        )
    for row in rows[rows["status"] != STATUS_KEPT].to_dict("records"):
        lines.append(f"{terminology}: dropped {row['relation']} ({row['status']}): {decision_reason(row, params)}")
    per_setting = int(kept["single_answer"].sum())
    paper_amb = pd.Series([amb for _, amb in BMASS_TABLE_2.values()])
    paper_n = BMASS_PAIRS_PER_RELATION
    lines.append(
        f"{terminology} beside BMASS (Table 2): {len(kept)} of {len(rows)} relations kept vs "
        f"{len(BMASS_TABLE_2)} of {BMASS_RELATIONS_CONSIDERED}; {n * (n - 1)} analogies per relation vs "
        f"{paper_n * (paper_n - 1)}; {per_setting} per setting vs {len(BMASS_TABLE_2) * paper_n * (paper_n - 1)}; "
        f"Amb {_fmt_amb(kept['amb'])} vs {_fmt_amb(paper_amb)}"
    )
    return lines


def _total(counts: pd.DataFrame) -> Mapping[str, object]:
    return counts[counts["relation"] == "(all)"].iloc[0].to_dict()


def removed_summary(counts: pd.DataFrame) -> str:
    """What each validity rule removed, from the ``(all)`` row of ``counts``: ``"capitals: 5 concepts,
    98 analogies; ambiguous: 2 concepts, 98 analogies"`` ("" when none removed anything)."""
    total = _total(counts)
    parts = [
        f"{rule}: {total[f'{rule}_concepts']} concepts, {total[f'{rule}_analogies']} analogies"
        for rule in RULES
        if total.get(f"{rule}_concepts", 0) or total.get(f"{rule}_analogies", 0)
    ]
    return "; ".join(parts)


def summarise(
    counts: Mapping[str, pd.DataFrame], params: Mapping[str, AnalogyParams]
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The summary over terminologies and the per-relation table, each followed by the paper.

    Args:
        counts: terminology -> its counts table, in the order to report.
        params: terminology -> its construction parameters (same keys).

    Returns:
        (summary, relations) with :data:`SUMMARY_COLUMNS` and :data:`RELATION_COLUMNS`. ``summary``:
        one row per terminology (``kept``: kept labels joined by ``"; "``; ``dropped``: ``status: count``
        joined by ``"; "``; ``analogies``: per setting; ``amb_*`` over kept relations, NaN when none),
        then ``(all)`` (sums; Amb over every kept relation; thresholds empty), then the paper's row.
        ``relations``: every relation with its ``reason`` (:func:`decision_reason`) and ``analogies``
        per setting, then the paper's 25 relations (rel = Table 2 id, rela = UMLS RELA).

    Raises:
        KeyError: a terminology of ``counts`` has no ``params``.
    """
    summary: list[dict[str, object]] = []
    relations: list[pd.DataFrame] = []
    for name, table in counts.items():
        p = params[name]
        rows = _relations(table).copy()
        kept = rows[rows["status"] == STATUS_KEPT]
        dropped = rows.loc[rows["status"] != STATUS_KEPT, "status"].value_counts().sort_index()
        n = p.pairs_per_relation
        summary.append(
            {
                "terminology": name,
                "min_frequency": p.min_frequency,
                "min_one_to_one": p.min_one_to_one,
                "pairs_per_relation": n,
                "inverses": p.inverse,
                "allow_list": "" if p.relations is None else "; ".join(p.relations),
                "relations_considered": len(rows),
                "relations_kept": len(kept),
                "kept": "; ".join(kept["relation"]),
                "dropped": "; ".join(f"{status}: {count}" for status, count in dropped.items()),
                "analogies_per_relation": n * (n - 1),
                "analogies": int(kept["single_answer"].sum()),
                "amb_mean": kept["amb"].mean() if len(kept) else math.nan,
                "amb_min": kept["amb"].min() if len(kept) else math.nan,
                "amb_max": kept["amb"].max() if len(kept) else math.nan,
                "single_answer_abc": int(kept["single_answer_abc"].sum()),
                "multi_answer_abc": int(kept["multi_answer_abc"].sum()),
                "bmass_analogies": int(_total(table)["bmass_analogies"]),
                "removed": removed_summary(table),
            }
        )
        rows["terminology"] = name
        rows["reason"] = [decision_reason(r, p) for r in rows.to_dict("records")]
        rows["analogies"] = rows["single_answer"]
        relations.append(rows[list(RELATION_COLUMNS)])

    relation_table = (
        pd.concat(relations, ignore_index=True) if relations else pd.DataFrame(columns=list(RELATION_COLUMNS))
    )
    kept_all = relation_table[relation_table["status"] == STATUS_KEPT]
    total: dict[str, object] = {c: None for c in SUMMARY_COLUMNS}
    total.update(
        terminology="(all)",
        relations_considered=sum(int(r["relations_considered"]) for r in summary),
        relations_kept=len(kept_all),
        kept="; ".join(f"{t}:{r}" for t, r in zip(kept_all["terminology"], kept_all["relation"])),
        dropped="; ".join(
            f"{s}: {c}"
            for s, c in relation_table.loc[relation_table["status"] != STATUS_KEPT, "status"]
            .value_counts()
            .sort_index()
            .items()
        ),
        analogies=int(kept_all["analogies"].sum()),
        amb_mean=kept_all["amb"].mean() if len(kept_all) else math.nan,
        amb_min=kept_all["amb"].min() if len(kept_all) else math.nan,
        amb_max=kept_all["amb"].max() if len(kept_all) else math.nan,
        single_answer_abc=int(kept_all["single_answer_abc"].sum()),
        multi_answer_abc=int(kept_all["multi_answer_abc"].sum()),
        bmass_analogies=sum(int(r["bmass_analogies"]) for r in summary),
    )
    paper_n = BMASS_PAIRS_PER_RELATION
    paper_amb = np.array([amb for _, amb in BMASS_TABLE_2.values()])
    paper = {c: None for c in SUMMARY_COLUMNS}
    paper.update(
        terminology=BMASS,
        min_frequency=25,
        min_one_to_one=50,
        pairs_per_relation=paper_n,
        allow_list="manual Informativity review",
        relations_considered=BMASS_RELATIONS_CONSIDERED,
        relations_kept=len(BMASS_TABLE_2),
        kept="; ".join(f"{k} {rela}" for k, (rela, _) in BMASS_TABLE_2.items()),
        analogies_per_relation=paper_n * (paper_n - 1),
        analogies=len(BMASS_TABLE_2) * paper_n * (paper_n - 1),
        amb_mean=float(paper_amb.mean()),
        amb_min=float(paper_amb.min()),
        amb_max=float(paper_amb.max()),
    )
    summary_table = pd.DataFrame([*summary, total, paper], columns=list(SUMMARY_COLUMNS))
    summary_table = summary_table.astype({c: "Int64" for c in _SUMMARY_INTEGERS})

    paper_rows = pd.DataFrame(
        {
            "terminology": BMASS,
            "relation": [rela for rela, _ in BMASS_TABLE_2.values()],
            "rel": list(BMASS_TABLE_2),
            "rela": [rela for rela, _ in BMASS_TABLE_2.values()],
            "status": STATUS_KEPT,
            "reason": "Table 2",
            "analogies": paper_n * (paper_n - 1),
            "amb": paper_amb,
        }
    )
    relation_table = pd.concat([relation_table, paper_rows.reindex(columns=list(RELATION_COLUMNS))], ignore_index=True)
    relation_table = relation_table.astype({c: "Int64" for c in _RELATION_INTEGERS})
    return summary_table, relation_table
