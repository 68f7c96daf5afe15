"""The term-pair validity rows (biosem.termpairs.validity; docs/design.md § Validity, issue 37) on
hand-made datasets with known values, and the association synonym shares on a toy OBO file."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest
import yaml
from conftest import REPO, validated_config

from biosem.release import families
from biosem.terminology.obo import read_obo
from biosem.terminology.schemas import TERMS
from biosem.termpairs.params import ExclusionParams
from biosem.termpairs.positives import build_positive_pairs
from biosem.termpairs.validity import association_synonym_shares, dataset_kind, termpair_validity
from biosem.validity import validity_table


def dataset(rows: list[tuple[str, str, int, str, str | None]]) -> pd.DataFrame:
    return pd.DataFrame(rows, columns=["term1", "term2", "label", "concept_id1", "concept_id2"]).assign(levenshtein=0)


def terms(rows: list[tuple[str, str, str | None]]) -> pd.DataFrame:
    """``(concept_id, term, scope)`` rows -> a TERMS table."""
    return pd.DataFrame(
        [
            {**dict.fromkeys(TERMS.schema.names), "concept_id": c, "term": t, "scope": s, "term_id": f"{c}#{k}"}
            for k, (c, t, s) in enumerate(rows)
        ],
        columns=TERMS.schema.names,
    )


TINY = dataset(
    [
        ("Fever", "Pyrexia", 1, "C1", "C1"),
        ("Cough", "Tussis", 1, "C2", "C2"),
        ("Fever", "Fevers", 0, "C1", None),  # a surface variant (plural), recorded as a RELATED term of C1
        ("Cough", "Rash", 0, "C2", None),  # Rash: a concept of Cough's descriptor
    ]
)
TINY_TERMS = terms(
    [
        ("C1", "Fever", None),
        ("C1", "Pyrexia", "EXACT"),
        ("C1", "fevers", "RELATED"),
        ("C2", "Cough", None),
        ("C2", "Tussis", "EXACT"),
        ("C3", "Rash", None),
    ]
)
DESCRIPTORS = pd.Series({"C1": "D1", "C2": "D2", "C3": "D2"})


def rows_of(checks: list, dataset_name: str) -> dict[tuple[str, str], tuple[object, str]]:
    table = validity_table(checks)
    table = table[table["dataset"] == dataset_name]
    return {(r.check, r.stratum): (r.value, r.status) for r in table.itertuples()}


def test_termpair_validity_known_values() -> None:
    checks = termpair_validity(
        {"fsn_syn_hard_levenshtein": TINY, "same_as_easy_random": TINY.iloc[:0]}, TINY_TERMS, DESCRIPTORS
    )
    got = rows_of(checks, "fsn_syn_hard_levenshtein")
    assert got[("rows", "")] == (4, "info")
    assert got[("label_balance", "")] == (0.5, "pass")
    assert got[("majority_class_accuracy", "")] == (0.5, "pass")
    # Exact match of surface keys: 1 only for the negative Fever / Fevers.
    assert got[("exact_match_auc", "")] == (0.25, "pass")
    assert got[("exact_match_accuracy", "")] == (0.5, "pass")
    assert got[("surface_variant_negatives", "")] == (1, "flag")
    assert got[("duplicate_pairs", "")] == (0, "pass")
    assert got[("same_descriptor_negatives", "")] == (1, "flag")
    assert got[("negative_recorded_synonym", "RELATED")] == (0.5, "info")
    assert got[("negative_recorded_synonym", "EXACT")] == (0.0, "info")
    assert got[("negative_recorded_synonym", "any")] == (0.5, "info")
    assert ("association_recorded_synonym", "any") not in got
    detail = (
        validity_table(checks)
        .set_index(["dataset", "check"])
        .loc[("fsn_syn_hard_levenshtein", "surface_variant_negatives"), "detail"]
    )
    assert detail == "inflection: 1; 'Fever' / 'Fevers'"
    # An empty dataset: one row, no flags; datasets in DATASETS order.
    assert rows_of(checks, "same_as_easy_random") == {("rows", ""): (0, "info")}
    assert validity_table(checks)["dataset"].iloc[0] == "fsn_syn_hard_levenshtein"


def test_same_descriptor_negatives_reported_without_condition_when_not_excluded() -> None:
    checks = termpair_validity({"fsn_syn_hard_random": TINY}, TINY_TERMS, DESCRIPTORS, ExclusionParams(True, None))
    assert rows_of(checks, "fsn_syn_hard_random")[("same_descriptor_negatives", "")] == (1, "info")
    # Without terms or descriptors those checks are skipped.
    got = rows_of(termpair_validity({"fsn_syn_hard_random": TINY}), "fsn_syn_hard_random")
    assert ("same_descriptor_negatives", "") not in got and ("negative_recorded_synonym", "any") not in got
    assert got[("surface_variant_negatives", "")] == (1, "flag")


def test_dataset_kind() -> None:
    assert dataset_kind("possibly_equivalent_to_hard_levenshtein") == "possibly_equivalent_to"
    assert dataset_kind("syn_syn_easy_random") == "syn_syn"
    assert dataset_kind("counts") is None


TOY_OBO = """format-version: 1.2
ontology: toy

[Term]
id: T:0000001
name: cell growth
synonym: "cellular growth" EXACT []
synonym: "growth of cell" RELATED []

[Term]
id: T:0000002
name: obsolete growth of cell
is_obsolete: true
replaced_by: T:0000001

[Term]
id: T:0000003
name: obsolete cell size increase
is_obsolete: true
consider: T:0000001

[Term]
id: T:0000004
name: cell division
synonym: "cytokinesis" NARROW []
synonym: "cell splitting" BROAD []

[Term]
id: T:0000005
name: obsolete cytokinesis
is_obsolete: true
replaced_by: T:0000004
consider: T:0000001

[Term]
id: T:0000006
name: obsolete cell splitting
is_obsolete: true
synonym: "cell division" EXACT []
replaced_by: T:0000004
"""


@pytest.fixture
def toy(tmp_path: Path) -> dict[str, pd.DataFrame]:
    path = tmp_path / "toy.obo"
    path.write_text(TOY_OBO)
    return {name: table.to_pandas() for name, table in read_obo(path, "toy").items()}


def test_association_synonym_shares_on_toy_obo(toy: dict[str, pd.DataFrame]) -> None:
    pos, _ = build_positive_pairs(toy["concepts"], toy["terms"], toy["associations"])
    replaced = pos[pos["kind"] == "replaced_by"]
    assert sorted(zip(replaced["term1"], replaced["term2"])) == [
        ("cell splitting", "cell division"),
        ("cytokinesis", "cell division"),
        ("growth of cell", "cell growth"),
    ]
    shares = association_synonym_shares(replaced, toy["terms"]).set_index("scope")
    # growth of cell: RELATED of its target; cytokinesis: NARROW of its target; cell splitting: BROAD of
    # its target and, backwards, its own EXACT synonym is the target's name.
    assert shares["recorded"].to_dict() == {"EXACT": 1, "NARROW": 1, "BROAD": 1, "RELATED": 1, "any": 3}
    assert shares.loc["any", "share"] == 1.0 and shares.loc["EXACT", "share"] == pytest.approx(1 / 3)
    assert set(shares["pairs"]) == {3}
    consider = pos[pos["kind"] == "possibly_equivalent_to"]
    assert len(consider) == 2
    shares = association_synonym_shares(consider, toy["terms"]).set_index("scope")
    assert shares.loc["any", "recorded"] == 0 and shares.loc["any", "share"] == 0.0
    empty = association_synonym_shares(consider.iloc[:0], toy["terms"]).set_index("scope")
    assert empty.loc["any", "pairs"] == 0 and pd.isna(empty.loc["any", "share"])


def test_association_rows_in_termpair_validity(toy: dict[str, pd.DataFrame]) -> None:
    pos, _ = build_positive_pairs(toy["concepts"], toy["terms"], toy["associations"])
    replaced = pos[pos["kind"] == "replaced_by"]
    ds = pd.concat(
        [
            replaced.assign(label=1)[["term1", "term2", "label", "concept_id1", "concept_id2"]],
            dataset([("growth of cell", "cellular growth", 0, "T:0000002", None)]),
        ],
        ignore_index=True,
    )
    got = rows_of(termpair_validity({"replaced_by_hard_random": ds}, toy["terms"]), "replaced_by_hard_random")
    assert got[("association_recorded_synonym", "any")] == (1.0, "info")
    assert got[("association_recorded_synonym", "RELATED")] == (round(1 / 3, 6), "info")


def test_termpair_cards_say_what_the_associations_are() -> None:
    config = validated_config(yaml.safe_load((REPO / "config" / "config.yaml").read_text()))
    cards = {d.name: d for d in families.termpairs(config)}
    assert "`replaced_by`" in cards["go"].summary and "not synonyms" in cards["go"].summary
    assert "`consider`" in cards["hpo"].summary
    assert "900000000000526001" in cards["snomed_sample"].summary
    assert "no inactive-concept associations" in cards["mesh"].summary
    assert any("descriptor" in x for x in cards["mesh"].limitations)
    assert any("surface variant" in x for x in cards["go"].limitations)
    assert all(any("historical links" in x for x in card.limitations) for card in cards.values())
