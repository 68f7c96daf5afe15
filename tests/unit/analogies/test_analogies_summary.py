"""Decisions per relation, log lines per terminology and the tables over terminologies beside BMASS."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

from biosem.analogies.construct import (
    STATUS_FEW_ONE_TO_ONE,
    STATUS_FEW_SUBJECTS,
    STATUS_KEPT,
    STATUS_NO_USABLE,
    STATUS_NOT_ALLOWED,
    AnalogyParams,
    build_analogies,
)
from biosem.analogies.summary import (
    BMASS,
    BMASS_TABLE_2,
    RELATION_COLUMNS,
    SUMMARY_COLUMNS,
    decision_reason,
    describe,
    read_counts,
    summarise,
)


def term_counts(rows: list[tuple[str, str, int]]) -> pd.DataFrame:
    frame = pd.DataFrame(rows, columns=["concept_id", "term", "count"])
    frame["source"] = "t"
    frame["term_id"] = [f"{c}#{i}" for i, c in enumerate(frame["concept_id"])]
    frame["term_type"] = "preferred"
    frame["language"] = "en"
    frame["scope"] = None
    frame["normalised"] = frame["term"].str.lower()
    frame["tokens"] = frame["normalised"].str.split().map(len)
    return frame


def relations(rows: list[tuple[str, str, str | None, str]]) -> pd.DataFrame:
    frame = pd.DataFrame(rows, columns=["subject_id", "rel", "rela", "object_id"])
    frame["source"] = "t"
    frame["sab"] = None
    return frame


def built(params: AnalogyParams) -> pd.DataFrame:
    """Counts of a terminology with a kept relation (is_a: 4 one-to-one), one below the one-to-one
    threshold (part_of: 0), one with too few subjects (NA: 2 of 3; a label pandas would read as missing) and
    one without usable instances (regulates)."""
    rows = [(f"s{i}", "is_a", "is_a", f"o{i}") for i in range(4)]
    rows += [("s0", "part_of", "part of", "o0"), ("s1", "part_of", "part of", "o0")]
    rows += [("s2", "NA", None, "o3"), ("s3", "NA", None, "o2"), ("s0", "regulates", "regulates", "rare")]
    ids = [f"s{i}" for i in range(4)] + [f"o{i}" for i in range(4)]
    counts = term_counts([(i, f"term {i}", 5) for i in ids] + [("rare", "rare", 1)])
    return build_analogies(relations(rows), counts, params, "t")[1]


P = AnalogyParams(min_frequency=2, min_one_to_one=2, pairs_per_relation=3)


def test_decision_reasons_name_numbers_and_thresholds() -> None:
    table = built(P).set_index("relation").drop(index="(all)")
    reason = {r: decision_reason(table.loc[r].to_dict(), P) for r in table.index}
    assert table.loc["is_a", "status"] == STATUS_KEPT
    assert reason["is_a"] == "kept: one-to-one instances 4 >= 2, subjects 4 >= 3"
    assert table.loc["part_of", "status"] == STATUS_FEW_ONE_TO_ONE
    assert reason["part_of"] == "one-to-one instances 0 < min_one_to_one 2"
    assert table.loc["regulates", "status"] == STATUS_NO_USABLE
    assert reason["regulates"] == "no instance between usable concepts (a term occurring >= 2 times)"
    assert decision_reason({"status": STATUS_FEW_SUBJECTS, "subjects": 1}, P) == "subjects 1 < pairs_per_relation 3"
    assert decision_reason({"status": STATUS_NOT_ALLOWED}, P) == "not in the allow-list `relations`"
    with pytest.raises(ValueError, match="unknown relation status"):
        decision_reason({"status": "maybe"}, P)


def test_describe_lines() -> None:
    lines = describe(built(P), P, "go")
    assert lines[0].startswith("go: 4 relations considered (")
    assert "1 kept; thresholds min_frequency 2, min_one_to_one 2, pairs_per_relation 3" in lines[0]
    assert any(line.startswith("go: kept is_a: 4 one-to-one") and "3 x 2 = 6 analogies" in line for line in lines)
    assert any(line.startswith("go: dropped part_of (below_min_one_to_one)") for line in lines)
    assert lines[-1] == (
        "go beside BMASS (Table 2): 1 of 4 relations kept vs 25 of 721; 6 analogies per relation vs 2450; "
        "6 per setting vs 61250; Amb 1.00 (1.00-1.00) vs 2.04 (1.00-10.40)"
    )


def test_summarise_over_terminologies_and_the_paper(tmp_path: Path) -> None:
    strict = AnalogyParams(min_frequency=2, min_one_to_one=5, pairs_per_relation=3)
    tables = {"go": built(P), "cl": built(strict)}
    # Through counts.tsv as build_analogies writes it (a relation labelled NA stays NA).
    for name, table in tables.items():
        table.to_csv(tmp_path / f"{name}.tsv", sep="\t", index=False, na_rep="", float_format="%.3f")
    read = {name: read_counts(tmp_path / f"{name}.tsv") for name in tables}
    assert "NA" in set(read["go"]["relation"])
    summary, per_relation = summarise(read, {"go": P, "cl": strict})

    assert list(summary.columns) == list(SUMMARY_COLUMNS)
    assert summary["terminology"].tolist() == ["go", "cl", "(all)", BMASS]
    s = summary.set_index("terminology")
    assert (s.loc["go", "relations_considered"], s.loc["go", "relations_kept"]) == (4, 1)
    assert s.loc["go", "kept"] == "is_a" and s.loc["go", "analogies"] == 6
    assert s.loc["go", "dropped"] == "below_min_one_to_one: 1; no_usable_instances: 1; too_few_subjects: 1"
    assert s.loc["cl", "relations_kept"] == 0 and pd.isna(s.loc["cl", "amb_mean"])
    assert s.loc["(all)", "relations_considered"] == 8 and s.loc["(all)", "kept"] == "go:is_a"
    assert s.loc["(all)", "analogies"] == 6
    assert s.loc[BMASS, "relations_considered"] == 721 and s.loc[BMASS, "relations_kept"] == 25
    assert s.loc[BMASS, "analogies"] == 25 * 2450 and s.loc[BMASS, "analogies_per_relation"] == 2450
    assert s.loc[BMASS, "amb_mean"] == pytest.approx(sum(a for _, a in BMASS_TABLE_2.values()) / 25)
    assert (s.loc[BMASS, "amb_min"], s.loc[BMASS, "amb_max"]) == (1.0, 10.4)
    assert str(summary["relations_kept"].dtype) == "Int64"  # written as integers

    assert list(per_relation.columns) == list(RELATION_COLUMNS)
    assert len(per_relation) == 8 + 25
    paper = per_relation[per_relation["terminology"] == BMASS]
    assert paper["rel"].tolist()[:3] == ["L1", "L2", "L3"] and (paper["analogies"] == 2450).all()
    assert paper.set_index("rela").loc["same_type", "amb"] == 10.4
    go = per_relation[per_relation["terminology"] == "go"].set_index("relation")
    assert go.loc["NA", "reason"] == "subjects 2 < pairs_per_relation 3"
    assert go.loc["is_a", "analogies"] == 6 and go.loc["part_of", "analogies"] == 0


def test_summarise_nothing() -> None:
    summary, per_relation = summarise({}, {})
    assert summary["terminology"].tolist() == ["(all)", BMASS]
    assert per_relation["terminology"].eq(BMASS).all() and len(per_relation) == 25
