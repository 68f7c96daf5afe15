"""Integration: the analogies stage of the embedded default, checked on its outputs' contents."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pyarrow.parquet as pq
import pytest
import yaml
from conftest import REPO

from biosem.analogies.construct import (
    DATASETS,
    RULE_COLUMNS,
    SETTINGS,
    STATUS_FEW_ONE_TO_ONE,
    STATUS_KEPT,
    answers_in_abc,
    relation_label,
)
from biosem.analogies.formats import TEXT_COLUMNS, read_analogies
from biosem.analogies.frequency import normalise
from biosem.analogies.schemas import ANALOGIES, TERM_COUNTS
from biosem.analogies.summary import BMASS, read_counts
from biosem.analogies.validity import abbreviation_counts, analogy_terms

pytestmark = pytest.mark.workflow

FULL_CONFIG = yaml.safe_load((REPO / "config" / "config.yaml").read_text())
CONFIG = FULL_CONFIG["analogies"]
TERMINOLOGIES = CONFIG["terminologies"]
OPEN = [t for t in ("hpo", "mesh", "go", "doid", "cl") if t in TERMINOLOGIES]
"""The open terminologies at full scale built by the default (issue 23 asks for >= 10 relations kept)."""


def setting(terminology: str, key: str) -> int:
    return CONFIG["overrides"].get(terminology, {}).get(key, CONFIG[key])


@pytest.mark.parametrize("terminology", TERMINOLOGIES)
def test_every_source_yields_a_relation_with_n_times_n_minus_one(
    workflow_runs: dict[int, Path], terminology: str
) -> None:
    root = workflow_runs[2] / "results" / "datasets" / "analogies" / terminology
    counts = pd.read_csv(root / "counts.tsv", sep="\t", keep_default_na=False)
    assert counts.iloc[-1]["relation"] == "(all)" and counts.iloc[-1]["status"] == "ok"
    kept = counts[counts["status"] == STATUS_KEPT]
    assert len(kept) >= 1
    n = setting(terminology, "pairs_per_relation")
    assert (kept["sampled_pairs"] == n).all()
    for name in SETTINGS:
        assert (kept[name] == n * (n - 1)).all()
    others = counts[(counts["status"] != STATUS_KEPT) & (counts["relation"] != "(all)")]
    assert (others[list(DATASETS)] == 0).all().all()
    assert (kept["one_to_one"] >= setting(terminology, "min_one_to_one")).all()
    assert (kept["subjects"] >= n).all()


@pytest.mark.parametrize("terminology", TERMINOLOGIES)
def test_text_and_parquet_agree(workflow_runs: dict[int, Path], terminology: str) -> None:
    root = workflow_runs[2] / "results" / "datasets" / "analogies" / terminology
    counts = pd.read_csv(root / "counts.tsv", sep="\t", keep_default_na=False).set_index("relation")
    for name in DATASETS:
        table = pq.read_table(root / f"{name}.parquet")
        assert table.schema.equals(ANALOGIES.schema)
        frame = table.to_pandas()
        text = read_analogies(root / f"{name}.txt")
        assert len(text) == len(frame) == counts.loc["(all)", name]
        for column in TEXT_COLUMNS:
            assert [list(v) if not isinstance(v, str) else v for v in frame[column]] == text[column].tolist(), column
        if name.startswith("unigram_") and len(frame):
            terms = [t for col in ("a_term", "c_term") for t in frame[col]]
            terms += [t for col in ("b_terms", "d_terms") for ts in frame[col] for t in ts]
            assert all(len(normalise(t).split()) == 1 for t in terms)


def test_hpo_reproduces_the_paper_combinatorics(workflow_runs: dict[int, Path]) -> None:
    root = workflow_runs[2] / "results" / "datasets" / "analogies" / "hpo"
    counts = pd.read_csv(root / "counts.tsv", sep="\t", keep_default_na=False).set_index("relation")
    assert counts.loc["is_a", "status"] == STATUS_KEPT
    assert counts.loc["is_a", "single_answer"] == 2450  # 50 x 49, as in BMASS
    multi = pq.read_table(root / "multi_answer.parquet").to_pandas()
    single = pq.read_table(root / "single_answer.parquet").to_pandas()
    info = pq.read_table(root / "all_info.parquet").to_pandas()
    assert (single["d_ids"].map(len) == 1).all() and (multi["b_ids"].map(len) == 1).all()
    assert [d[0] for d in multi["d_ids"]] == [d[0] for d in single["d_ids"]]  # primary answer first
    assert list(info["d_ids"].map(list)) == list(multi["d_ids"].map(list))
    is_a = multi[multi["relation"] == "is_a"]
    assert is_a["d_ids"].map(len).mean() == pytest.approx(counts.loc["is_a", "amb"], abs=1e-3)
    term_counts = pq.read_table(workflow_runs[2] / "results" / "intermediate" / "term_counts" / "hpo.parquet")
    assert term_counts.schema.equals(TERM_COUNTS.schema)
    best = term_counts.to_pandas().groupby("concept_id")["count"].max()
    used = set(single["a_id"]) | {i for ids in info["d_ids"] for i in ids}
    assert (best.reindex(sorted(used)) >= setting("hpo", "min_frequency")).all()


# --------------------------------------------------------------------------------------------------
# The open terminologies at full scale (HPO, MeSH 2024, GO, DOID, CL)
# --------------------------------------------------------------------------------------------------
def analogy_root(run: Path, terminology: str) -> Path:
    return run / "results" / "datasets" / "analogies" / terminology


def counts_of(run: Path, terminology: str) -> pd.DataFrame:
    return read_counts(analogy_root(run, terminology) / "counts.tsv")


def test_open_terminologies_keep_ten_relations_and_the_summary_says_so(workflow_runs: dict[int, Path]) -> None:
    if set(OPEN) != {"hpo", "mesh", "go", "doid", "cl"}:
        pytest.skip(f"the config builds only {OPEN} of the open terminologies")
    run = workflow_runs[2]
    kept = {t: counts_of(run, t).query("status == @STATUS_KEPT")["relation"].tolist() for t in OPEN}
    assert sum(map(len, kept.values())) >= 10, kept
    assert all(kept.values()), kept  # every open terminology contributes
    summary = read_counts_summary(run)
    for name in TERMINOLOGIES:
        counts = counts_of(run, name)
        rows = counts[counts["relation"] != "(all)"]
        row = summary.loc[name]
        assert row["relations_considered"] == len(rows)
        assert row["relations_kept"] == (rows["status"] == STATUS_KEPT).sum()
        assert row["analogies"] == counts.iloc[-1]["single_answer"]
        n = setting(name, "pairs_per_relation")
        assert row["analogies_per_relation"] == n * (n - 1) and row["min_frequency"] == setting(name, "min_frequency")
    assert summary.loc["(all)", "relations_kept"] == summary.loc[TERMINOLOGIES, "relations_kept"].sum()
    assert summary.loc[BMASS, "relations_kept"] == 25 and summary.loc[BMASS, "analogies"] == 61250
    relations = pd.read_csv(
        run / "results" / "datasets" / "analogies" / "relations.tsv", sep="\t", keep_default_na=False
    )
    assert len(relations) == summary.loc["(all)", "relations_considered"] + 25
    assert relations["reason"].str.len().gt(0).all()


def read_counts_summary(run: Path) -> pd.DataFrame:
    """summary.tsv: only empty fields are missing (a terminology named NA stays NA)."""
    path = run / "results" / "datasets" / "analogies" / "summary.tsv"
    return pd.read_csv(path, sep="\t", keep_default_na=False, na_values=[""]).set_index("terminology")


@pytest.mark.parametrize("terminology", OPEN)
def test_open_analogies_are_stored_relations_between_frequent_concepts(
    workflow_runs: dict[int, Path], terminology: str
) -> None:
    run = workflow_runs[2]
    counts = counts_of(run, terminology).set_index("relation")
    stored = pq.read_table(run / "results" / "intermediate" / "relations" / f"{terminology}.parquet").to_pandas()
    labels = [relation_label(r, a if isinstance(a, str) else None) for r, a in zip(stored["rel"], stored["rela"])]
    pairs = set(zip(labels, stored["subject_id"], stored["object_id"]))
    if FULL_CONFIG["terminologies"][terminology]["format"] in CONFIG["add_inverses"]:
        pairs |= {(f"inverse({lab})", o, s) for lab, s, o in pairs}
    info = pq.read_table(analogy_root(run, terminology) / "all_info.parquet").to_pandas()
    multi = pq.read_table(analogy_root(run, terminology) / "multi_answer.parquet").to_pandas()
    single = pq.read_table(analogy_root(run, terminology) / "single_answer.parquet").to_pandas()
    # Every b of a and every d of c is an object of that subject in the stored relation (or its inverse).
    for row in info.itertuples(index=False):
        assert all((row.relation, row.a_id, b) in pairs for b in row.b_ids)
        assert all((row.relation, row.c_id, d) in pairs for d in row.d_ids)
    term_counts = pq.read_table(run / "results" / "intermediate" / "term_counts" / f"{terminology}.parquet")
    best = term_counts.to_pandas().groupby("concept_id")["count"].max()
    used = set(info["a_id"]) | {i for ids in info["d_ids"] for i in ids}
    assert (best.reindex(sorted(used)) >= setting(terminology, "min_frequency")).all()
    for relation, group in multi.groupby("relation"):
        assert group["d_ids"].map(len).mean() == pytest.approx(counts.loc[relation, "amb"], abs=1e-3)
    for name, frame in (("single_answer", single), ("multi_answer", multi)):
        hits = answers_in_abc(frame).groupby(frame["relation"]).sum()
        assert (hits.reindex(counts.index[:-1], fill_value=0) == counts[f"{name}_abc"].iloc[:-1]).all()


@pytest.mark.parametrize("terminology", [t for t in OPEN if t != "mesh"])
def test_obo_relations_and_inverses_mirror_each_other(workflow_runs: dict[int, Path], terminology: str) -> None:
    counts = counts_of(workflow_runs[2], terminology).set_index("relation").drop(index="(all)")
    inverses = [r for r in counts.index if r.startswith("inverse(")]
    assert len(inverses) * 2 == len(counts)  # add_inverses: [obo]
    for inverse in inverses:
        forward = counts.loc[inverse.removeprefix("inverse(").removesuffix(")")]
        backward = counts.loc[inverse]
        assert (forward["instances"], forward["usable_instances"], forward["one_to_one"]) == (
            backward["instances"], backward["usable_instances"], backward["one_to_one"]
        )  # fmt: skip
        assert (forward["subjects"], forward["objects"]) == (backward["objects"], backward["subjects"])


def test_go_relations_by_id(workflow_runs: dict[int, Path]) -> None:
    if "go" not in OPEN:
        pytest.skip("go is not built")
    counts = counts_of(workflow_runs[2], "go").set_index("relation").drop(index="(all)")
    forward = ["is_a", "negatively_regulates", "part_of", "positively_regulates", "regulates"]
    # The mirror's go-basic 2021-12-15 has no has_part or occurs_in (go-basic keeps only is_a, part_of
    # and the regulates family); their Typedef names give no label of their own.
    assert sorted(counts.index) == sorted(forward + [f"inverse({r})" for r in forward])
    assert (counts.loc["part_of", "rel"], counts.loc["part_of", "rela"]) == ("part_of", "part of")
    assert counts.loc["is_a", "instances"] == 70759 and counts.loc["part_of", "instances"] == 7066
    for relation in ("is_a", "part_of", "inverse(is_a)", "inverse(part_of)"):
        assert counts.loc[relation, "status"] == STATUS_KEPT, relation


def test_mesh_relations_as_stored_in_both_directions(workflow_runs: dict[int, Path]) -> None:
    if "mesh" not in OPEN:
        pytest.skip("mesh is not built")
    counts = counts_of(workflow_runs[2], "mesh").set_index("relation").drop(index="(all)")
    assert not any(r.startswith("inverse(") for r in counts.index)  # MeSH stores both directions
    assert set(counts.index) <= {"CHD", "PAR", "RB", "RN", "RO", "RO/has_pharmacologic_action",
                                 "RO/pharmacologic_action_of"}  # fmt: skip
    for forward, backward in (
        ("CHD", "PAR"),
        ("RN", "RB"),
        ("RO/has_pharmacologic_action", "RO/pharmacologic_action_of"),
    ):
        a, b = counts.loc[forward], counts.loc[backward]
        assert (a["instances"], a["one_to_one"], a["subjects"]) == (b["instances"], b["one_to_one"], b["objects"])
    for relation in ("CHD", "PAR", "RB", "RN"):
        assert counts.loc[relation, "status"] == STATUS_KEPT and counts.loc[relation, "single_answer"] == 2450
    # Many drugs share an action class: few one-to-one instances on any corpus (22 in all of MeSH 2024).
    assert counts.loc["RO/has_pharmacologic_action", "status"] == STATUS_FEW_ONE_TO_ONE
    single = pq.read_table(analogy_root(workflow_runs[2], "mesh") / "single_answer.parquet").to_pandas()
    assert single["a_id"].str.match(r"^M[0-9]+$").all()  # MeSH concepts (ConceptUI)


@pytest.mark.parametrize("terminology", TERMINOLOGIES)
def test_no_analogy_term_rests_on_a_lowercased_abbreviation(workflow_runs: dict[int, Path], terminology: str) -> None:
    """Issue 37: no analogy term written in capitals was counted lowercased; counts.tsv says what each
    validity rule removed; DOID's CAN (the verb can) and MARCH (the month) are in no analogy."""
    run = workflow_runs[2]
    term_counts = pq.read_table(run / "results" / "intermediate" / "term_counts" / f"{terminology}.parquet").to_pandas()
    assert term_counts.loc[term_counts["case_rule"].isna(), "mode"].eq("folded").all()
    assert (term_counts["count"] <= term_counts["count_cased"]).all()
    terms = []
    for name in DATASETS:
        frame = pq.read_table(analogy_root(run, terminology) / f"{name}.parquet").to_pandas()
        measure = abbreviation_counts(frame, term_counts)
        assert measure.count == 0 and measure.passed, (name, measure.examples)
        terms += analogy_terms(frame)["term"].tolist()
    if terminology == "doid":
        assert not {"CAN", "MARCH"} & set(terms)
    total = counts_of(run, terminology).iloc[-1]
    assert set(RULE_COLUMNS) <= set(total.index) and total["bmass_analogies"] >= 0
