"""Integration: the simlex stage of the embedded default (real corpus, HPO + GO slim, USF)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pandas as pd
import pytest
from conftest import SHARED_DATA

from biosem.simlex.checks import simlex_validity
from biosem.simlex.schemas import QUARTERS
from biosem.simlex.vocabulary import configure_nltk_data
from biosem.validity import validity_table

pytestmark = pytest.mark.workflow

SIMLEX = Path("results") / "datasets" / "simlex"


def test_vocabulary(workflow_runs: dict[int, Path]) -> None:
    root = workflow_runs[2]
    counts = pd.read_parquet(root / "results/intermediate/word_counts/pubtator.parquet")
    assert set(counts["pos"]) == {"noun", "verb"}
    assert (counts["count"] >= 5).all() and (counts["document_count"] <= counts["count"]).all()
    assert counts["lemma"].str.fullmatch(r"[^\W\d_]{3,}").all()  # letters only, at least 3
    sizes = counts.groupby("pos").size()
    assert sizes["noun"] > 1500 and sizes["verb"] > 400
    assert "tumour" not in set(counts["lemma"])  # American spelling
    assert "apnoea" not in set(counts["lemma"]) and "apnea" in set(counts["lemma"])  # one entry (issue 37)
    verbs = set(counts.loc[counts["pos"] == "verb", "lemma"])
    assert not verbs & {"warfarin", "amphetamine", "offspring", "twelve", "kindred"}  # no drug names, numbers
    assert "phosphorylate" in verbs  # not a WordNet verb, and stays one
    nouns = set(counts.loc[counts["pos"] == "noun", "lemma"])
    assert not nouns & {"ventricular", "imperfecta", "khz", "mdx", "acute"}  # adjectives, fragments, units
    filters = pd.read_csv(root / SIMLEX / "vocabulary/filters.tsv", sep="\t")
    docs = filters.set_index(["pos", "step"]).loc[("all", "documents"), "tokens"]
    # BC5CDR 1,500 + NCBI Disease 792 distinct PMIDs + CRAFT's 97 articles + eight MTL corpora's 10,083
    # documents (GENIA-pos 1,999 abstracts; the others in blocks of 10 sentences)
    assert docs == 2292 + 97 + 10083
    assert not verbs & {"rubripe", "adheren", "vasculari"}  # pieces of names (Fugu rubripes), as fragments
    for pos in ("noun", "verb"):
        last = filters[filters["pos"] == pos].iloc[-1]
        assert last["types"] == sizes[pos]
    corr = pd.read_csv(root / SIMLEX / "vocabulary/frequency_correlation.tsv", sep="\t").set_index("pos")
    assert 0.2 < corr.loc["all", "spearman_rho"] < 0.6  # paper: 0.39 against the BNC


def test_usf(workflow_runs: dict[int, Path]) -> None:
    usf = pd.read_parquet(workflow_runs[2] / "results/intermediate/usf/usf.parquet")
    assert len(usf) == 72176 and usf["cue"].nunique() == 5018
    assert (usf["cue"] == "cue").sum() == 21


@pytest.mark.parametrize("dataset", ["nouns", "verbs"])
def test_pairs_have_four_quarters(workflow_runs: dict[int, Path], dataset: str) -> None:
    root = workflow_runs[2]
    pairs = pd.read_parquet(root / SIMLEX / dataset / "pairs.parquet")
    counts = pd.read_csv(root / SIMLEX / dataset / "counts.tsv", sep="\t").set_index("quarter")
    assert list(pairs["quarter"].unique()) == list(QUARTERS)
    sizes = pairs.groupby("quarter").size()
    for quarter in QUARTERS:
        assert sizes[quarter] > 0
        assert counts.loc[quarter, "selected"] == sizes[quarter]
        assert sizes[quarter] <= counts.loc[quarter, "target"]
        assert counts.loc[quarter, "status"] == ("ok" if sizes[quarter] == counts.loc[quarter, "target"] else "short")
    keys = pairs.apply(lambda r: tuple(sorted((r["word1"], r["word2"]))), axis=1)
    assert keys.is_unique and (pairs["word1"] != pairs["word2"]).all()
    domains = pd.read_parquet(root / "results/intermediate/word_domains/pubtator.parquet")
    pos = "noun" if dataset == "nouns" else "verb"
    domain = domains[domains["pos"] == pos].set_index("lemma")["domain"]
    assert (domain.loc[pairs["word1"]].to_numpy() == pairs["domain"].to_numpy()).all()
    assert (domain.loc[pairs["word2"]].to_numpy() == pairs["domain"].to_numpy()).all()
    usf = pd.read_parquet(root / "results/intermediate/usf/usf.parquet")
    in_usf = {tuple(sorted(p)) for p in zip(usf["cue"], usf["target"], strict=True)}
    unassociated = keys[~pairs["associated"]]
    assert not set(unassociated) & in_usf
    general = pairs[pairs["quarter"] == "associated_general"]
    assert (general["fsg"] > 0).all() and (general["bsg"] > 0).all()
    tsv = (root / SIMLEX / dataset / "pairs.tsv").read_text().splitlines()
    assert len(tsv) == len(pairs)
    review = pd.read_csv(root / SIMLEX / dataset / "review_associated_biomedical.csv")
    assert review["selected"].sum() == sizes["associated_biomedical"]


@pytest.mark.parametrize("dataset", ["nouns", "verbs"])
def test_pairs_pass_the_validity_checks(workflow_runs: dict[int, Path], dataset: str) -> None:
    """Issue 37: no wrong part of speech beyond the published Bio-SimVerb's level, no variant pair."""
    configure_nltk_data([SHARED_DATA / "nltk_data"])
    root = workflow_runs[2]
    pairs = pd.read_parquet(root / SIMLEX / dataset / "pairs.parquet")
    counts = pd.read_parquet(root / "results/intermediate/word_counts/pubtator.parquet")
    table = validity_table(simlex_validity({dataset: pairs}, counts))
    whole = table[table["stratum"] == ""].set_index("check")
    assert whole.loc["wrong_pos_pairs", "status"] == "pass"
    for name in ("surface_variant_pairs", "derivational_variant_pairs", "duplicate_pairs"):
        assert whole.loc[name, "value"] == 0, whole.loc[name, "detail"]
    counts_tsv = pd.read_csv(root / SIMLEX / dataset / "counts.tsv", sep="\t", keep_default_na=False)
    short = counts_tsv[counts_tsv["status"] == "short"]
    assert set(short["cause"]) <= {"candidates", "word_cap"} and (short["cause"] != "").all()


@pytest.mark.parametrize("dataset", ["nouns", "verbs"])
def test_survey_sheets(workflow_runs: dict[int, Path], dataset: str) -> None:
    root = workflow_runs[2] / SIMLEX / "survey" / dataset
    pairs = pd.read_parquet(workflow_runs[2] / SIMLEX / dataset / "pairs.parquet")
    sheets = {g: pd.read_csv(root / f"group{g}.csv") for g in (1, 2)}
    consistency = [set(s.loc[s["role"] == "consistency", "pair_id"]) for s in sheets.values()]
    assert consistency[0] == consistency[1] and len(consistency[0]) == 50
    unique = pd.concat([s.loc[s["role"] == "unique", "pair_id"] for s in sheets.values()])
    assert unique.is_unique and set(unique) | consistency[0] == set(pairs["pair_id"])
    for sheet in sheets.values():
        assert list(sheet.columns) == [
            "page",
            "position",
            "item_id",
            "pair_id",
            "role",
            "word1",
            "word2",
        ]
        per_page = sheet.groupby("page")["role"].value_counts().unstack(fill_value=0)
        assert (per_page["unique"] <= 100).all() and (per_page["duplicate"] == 10).all()
        assert per_page["consistency"].sum() == 50
    design = pd.read_csv(root / "design.tsv", sep="\t")
    assert design["items"].sum() == sum(len(s) for s in sheets.values())
    text = (root / "instructions.md").read_text()
    assert "Similarity, not relatedness" in text and "from 0" in text
    # One self-contained form per group: its items in the designed order, nothing fetched.
    for group, sheet in sheets.items():
        html = (root / "forms" / f"group{group}.html").read_text()
        data = json.loads(re.search(r'id="form-data">(.*?)</script>', html, re.S).group(1))
        assert [it["id"] for it in data["items"]] == sheet["item_id"].tolist()
        assert data["scale"] == [0, 6] and "Similarity, not relatedness" in html
        assert not re.search(r"(src|href)=|https?://|@import", html)
