"""The evaluate stage in the embedded default run (docs/design.md § Evaluation): contents, not existence."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import yaml
from conftest import REPO, workflow_config
from gensim.models import KeyedVectors

from biosem.evaluate import COVERAGE_WARNING
from biosem.evaluate.results import COLUMNS, coverage_warnings, dataset_coverage, dataset_family
from biosem.layout import paths
from biosem.termpairs import DATASETS as TERMPAIR_DATASETS

pytestmark = pytest.mark.workflow

FULL_CONFIG = yaml.safe_load((REPO / "config" / "config.yaml").read_text())
MODELS = ["cbow_w10", "cbow_w2", "sg_w10", "sg_w2"]
BENCHMARKS = {
    "simlex999": 999,
    "simverb3500": 3500,
    "bio_simlex": 988,
    "bio_simverb": 1000,
    "umnsrs_sim": 566,
    "umnsrs_rel": 587,
    "mayosrs": 101,
}


@pytest.fixture(scope="module")
def out(workflow_runs: dict[int, Path]) -> Path:
    return workflow_runs[2] / "results" / "evaluation"


@pytest.fixture(scope="module")
def results(out: Path) -> pd.DataFrame:
    return pd.read_parquet(out / "results.parquet")


def test_results_table_is_tidy_sorted_and_matches_the_csv(out: Path, results: pd.DataFrame) -> None:
    assert list(results.columns) == COLUMNS
    keys = ["model", "model_b", "dataset", "subset", "metric"]
    assert not results.duplicated(keys).any()
    assert results.equals(results.sort_values(keys, kind="stable").reset_index(drop=True))
    csv = pd.read_csv(out / "results.csv", keep_default_na=False, na_values=[""])
    assert len(csv) == len(results)
    assert csv[keys].fillna("").astype(str).equals(results[keys].fillna("").astype(str))
    assert np.allclose(csv["value"].to_numpy(float), results["value"].to_numpy(float), equal_nan=True, rtol=1e-9)
    assert (results["coverage"].dropna().between(0, 1)).all()
    assert (results["n"] >= 0).all()


def test_default_models_are_trained_deterministically(workflow_runs: dict[int, Path], out: Path) -> None:
    for model in MODELS:
        path = out / "models" / f"{model}.bin"
        kv = KeyedVectors.load_word2vec_format(str(path), binary=True)
        assert kv.vector_size == 100 and len(kv) > 5000
        assert "disease" in kv.key_to_index and "cancer" in kv.key_to_index
        assert all(k == k.lower() for k in kv.index_to_key[:1000])
        assert (
            path.read_bytes() == (workflow_runs[1] / "results" / "evaluation" / "models" / f"{model}.bin").read_bytes()
        )
    counts = pd.read_parquet(out / "models" / "token_counts.parquet")
    assert counts["count"].is_monotonic_decreasing and counts["token"].iloc[0] == "the"


def test_rated_benchmarks_scored_with_coverage_and_intervals(results: pd.DataFrame) -> None:
    rated = results[(results["metric"] == "cosine:spearman") & (results["subset"] == "all")]
    for model in MODELS:
        got = rated[rated["model"] == model].set_index("dataset")
        for name, size in BENCHMARKS.items():
            row = got.loc[name]
            assert 0 < row["n"] <= size
            assert row["coverage"] == pytest.approx(row["n"] / size)  # skip policy: n = covered pairs
            assert -1 <= row["value"] <= 1
            assert row["ci_low"] <= row["value"] <= row["ci_high"]
        # A biomedical corpus covers Bio-SimLex better than general SimLex-999 (the overlay's BC5CDR + NCBI
        # Disease: 0.46; the default's eleven corpora: 0.81 against 0.59).
        assert got.loc["bio_simlex", "coverage"] > 1.25 * got.loc["simlex999", "coverage"]
    bands = results[results["subset"].str.startswith("band:")]
    assert len(bands) and bands["n"].ge(10).all()
    # Band rows name the corpora of their counts (evaluate.rated.frequency_corpus: training, joined by "+");
    # others none.
    assert bands["corpus"].eq("+".join(workflow_config()["evaluate"]["training"]["corpora"])).all()
    assert results.loc[~results["subset"].str.startswith("band:"), "corpus"].isna().all()


def test_termpair_scores_and_mcnemar(results: pd.DataFrame) -> None:
    auc = results[results["metric"] == "avg_cos:auc"]
    hpo = auc[auc["dataset"].str.startswith("termpairs/hpo/")]
    assert set(hpo["dataset"]) >= {
        f"termpairs/hpo/{d}" for d in TERMPAIR_DATASETS if d.startswith(("fsn_syn", "syn_syn"))
    }
    assert hpo["value"].between(0, 1).all()
    # Random negatives are easier to tell apart than Levenshtein-nearest ones (Schulz & Juric, Table 3).
    for model in MODELS:
        m = hpo[hpo["model"] == model].set_index("dataset")["value"]
        assert m["termpairs/hpo/fsn_syn_hard_random"] > m["termpairs/hpo/fsn_syn_hard_levenshtein"]
    acc = results[(results["metric"] == "avg_cos:accuracy") & (results["subset"] == "test_half")]
    assert acc["value"].between(0, 1).all()
    # Intervals exist unless the held-out half is tiny or all-correct / all-wrong.
    has_ci = acc["ci_low"].notna()
    assert (acc.loc[has_ci, "ci_low"] <= acc.loc[has_ci, "value"]).all()
    assert has_ci[(acc["n"] >= 100) & acc["value"].between(0, 1, inclusive="neither")].all()
    sims = {m.split(":")[0] for m in results.loc[results["dataset"].str.startswith("termpairs/"), "metric"]}
    assert sims == {"avg_cos", "pair_cos", "pearson", "spearman", "kendall", "fuzzy_jaccard", "max_jaccard"}
    mcnemar = results[results["metric"].str.endswith(":mcnemar_p")]
    pairs = set(zip(mcnemar["model"], mcnemar["model_b"], strict=True))
    assert pairs == {(a, b) for i, a in enumerate(MODELS) for b in MODELS[i + 1 :]}
    assert results.loc[~results["metric"].str.contains(":mcnemar_"), "model_b"].isna().all()
    assert mcnemar["value"].between(0, 1).all()
    overlap = results[(results["dataset"] == "categories/hpo") & (results["metric"] == "avg_cos:overlap")]
    assert len(overlap) == len(MODELS) and overlap["value"].between(0, 1).all()
    assert overlap["n"].gt(300).all()


def test_analogy_scores(out: Path, results: pd.DataFrame) -> None:
    ana = results[results["dataset"].str.startswith("analogies/")]
    assert len(ana)
    methods = {m.split(":")[0] for m in ana["metric"]}
    assert methods == {"3CosAdd", "PairwiseDistance", "3CosMul"}
    assert {m.split(":")[1] for m in ana["metric"]} == {"AccR", "MAP", "MRR"}
    assert ana["value"].dropna().between(0, 1).all()
    for (model, dataset, metric), grp in ana.groupby(["model", "dataset", "metric"]):
        macro = grp[grp["subset"] == "macro"]["value"].iloc[0]
        per_relation = grp[~grp["subset"].isin(["macro", "all"])]["value"].dropna()
        if len(per_relation):
            assert macro == pytest.approx(per_relation.mean())
    pred = pd.read_parquet(out / "analogies" / "sg_w2.predictions.parquet")
    assert pred["top"].map(len).le(10).all() and (pred["first_answer_rank"] >= 1).all()
    # An answer ranked first is the first prediction... unless it is not represented (never).
    first = pred[pred["first_answer_rank"] == 1]
    assert len(first) == 0 or first["top"].map(len).gt(0).all()


def test_wic_baselines(results: pd.DataFrame) -> None:
    wic = results[results["dataset"] == "wic/test"]
    random = wic[(wic["model"] == "random") & (wic["subset"] == "all")]
    assert len(random) == 1 and abs(random["value"].iloc[0] - 0.5) < 0.1
    for model in MODELS:
        row = wic[(wic["model"] == model) & (wic["subset"] == "all") & (wic["metric"] == "context_cosine:accuracy")]
        assert len(row) == 1 and 0.3 < row["value"].iloc[0] < 0.9
        assert row["coverage"].iloc[0] > 0.9
    assert set(wic["subset"]) - {"all"}  # per-group rows
    thresholds = results[results["metric"] == "context_cosine:threshold"]
    assert len(thresholds) == len(MODELS) and thresholds["value"].between(-1, 1).all()


def test_report_plots(out: Path) -> None:
    for name in ("rated", "frequency_bands", "termpairs", "analogies", "wic"):
        data = (out / "plots" / f"{name}.png").read_bytes()
        assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 10_000


def test_every_family_carries_n_and_coverage_and_the_logs_say_it(
    workflow_runs: dict[int, Path], results: pd.DataFrame
) -> None:
    """Rows of every family (rated, term pairs with the category separation, analogies, WiC with its random
    baseline) carry n and a coverage in [0, 1]; only the rows comparing two models have none. The evaluate rules
    log the items scored and the coverage per dataset, collect_evaluation sums them per family and repeats the
    WARNING line of every dataset covered below 0.5 (UMNSRS, among others, on the overlay's two corpora)."""
    own = results[results["model_b"].isna()]
    assert own["coverage"].notna().all() and own["coverage"].between(0, 1).all() and own["n"].ge(0).all()
    assert results.loc[results["model_b"].notna(), "coverage"].isna().all()
    assert set(own["dataset"].map(dataset_family)) == {"rated", "termpairs", "analogies", "wic"}
    coverage = dataset_coverage(results)
    assert set(coverage["model"]) == {*MODELS, "random"}
    termpairs = (workflow_runs[2] / paths.log("evaluate_termpairs", "sg_w10")).read_text()
    for r in coverage[(coverage["model"] == "sg_w10") & (coverage["family"] == "termpairs")].itertuples():
        assert f"sg_w10 on {r.dataset} (termpairs): {r.n} items scored, coverage {r.coverage:.3f}" in termpairs
    collect = (workflow_runs[2] / paths.log("collect_evaluation", "results")).read_text()
    warnings = coverage_warnings(results, COVERAGE_WARNING)
    assert warnings and all(line in collect for line in warnings)
    assert all(f"{model} rated: " in collect and f"{model} termpairs: " in collect for model in MODELS)
