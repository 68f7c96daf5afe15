"""WiC baselines (biosem.evaluate.wic) and the results table (biosem.evaluate.results)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow.parquet as pq
import pytest
from gensim.models import KeyedVectors

from biosem.evaluate.models import WordVectors
from biosem.evaluate.results import (
    COLUMNS,
    collect,
    result_row,
    results_frame,
    write_results,
)
from biosem.evaluate.wic import (
    context_cosines,
    context_window,
    evaluate_context_cosine,
    evaluate_random,
)
from biosem.seeds import generator


def test_context_window_excludes_the_target_and_keeps_order() -> None:
    s = "Patients with cold sores (HSV-1) were treated, cold weather aside."
    start = s.index("cold")
    assert context_window(s, start, start + len("cold sores"), 2) == ["Patients", "with", "HSV", "1"]
    start = s.rindex("cold")
    assert context_window(s, start, start + 4, 3) == ["1", "were", "treated", "weather", "aside"]
    assert context_window(s, 0, 8, 0) == []
    # A target inside a word excludes the overlapping word.
    assert context_window("antiviral drugs", 4, 9, 5) == ["drugs"]


def wic_model() -> WordVectors:
    kv = KeyedVectors(2)
    kv.add_vectors(
        ["fever", "infection", "virus", "bank", "river", "money"],
        np.array([[1, 0], [1, 0.1], [0.9, 0.2], [0, 1], [0.1, 1], [1, -1]], dtype=np.float32),
    )
    return WordVectors("toy", kv, lowercase=True)


def wic_frame(rows: list[tuple[str, str, int, str]]) -> pd.DataFrame:
    out = []
    for left, right, label, cat in rows:
        s1, s2 = f"{left} COLD x", f"{right} COLD y"
        out.append(
            {
                "term1": "cold",
                "term2": "cold",
                "sentence1": s1,
                "sentence2": s2,
                "start1": s1.index("COLD"),
                "end1": s1.index("COLD") + 4,
                "start2": s2.index("COLD"),
                "end2": s2.index("COLD") + 4,
                "label": label,
                "cat": cat,
            }
        )
    return pd.DataFrame(out)


def test_context_cosine_baseline_tunes_on_dev() -> None:
    dev = wic_frame(
        [
            ("fever", "infection", 1, "identity"),
            ("fever", "river", 0, "identity"),
            ("virus", "fever", 1, "synonym"),
            ("bank", "money", 0, "synonym"),
        ]
    )
    test = wic_frame(
        [("infection", "virus", 1, "identity"), ("river", "fever", 0, "identity"), ("unknown", "fever", 1, "synonym")]
    )
    cos, cov = context_cosines(wic_model(), test, window=1)
    assert cov.tolist() == [True, True, False]
    assert cos[0] > 0.9 and cos[1] < 0.2
    rows = pd.DataFrame(evaluate_context_cosine(wic_model(), dev, test, 1, lambda k: generator(0, k), n_resamples=0))
    t = rows.set_index(["dataset", "subset", "metric"])
    assert t.loc[("wic/dev", "all", "context_cosine:accuracy"), "value"] == 1.0
    # Test: two covered instances are right; the uncovered one takes the dev majority (label 1: tie
    # 2 vs 2 resolves to 1) and is right too.
    assert t.loc[("wic/test", "all", "context_cosine:accuracy"), "value"] == 1.0
    assert t.loc[("wic/test", "synonym", "context_cosine:accuracy"), "coverage"] == 0.0
    assert t.loc[("wic/test", "identity", "context_cosine:accuracy"), "n"] == 2
    threshold = t.loc[("wic/dev", "all", "context_cosine:threshold"), "value"]
    assert -1 < threshold < 1


def test_random_baseline_is_seeded_and_near_half() -> None:
    rng = np.random.default_rng(0)
    frame = pd.DataFrame({"label": rng.integers(0, 2, 2000), "cat": rng.choice(["identity", "synonym"], 2000)})
    a = evaluate_random({"test": frame}, lambda k: generator(1, "wic", k), n_resamples=200)
    b = evaluate_random({"test": frame}, lambda k: generator(1, "wic", k), n_resamples=200)
    assert a == b
    overall = next(r for r in a if r["subset"] == "all")
    assert overall["model"] == "random" and overall["metric"] == "random:accuracy"
    assert abs(overall["value"] - 0.5) < 0.05
    assert overall["ci_low"] < overall["value"] < overall["ci_high"]


def test_results_table_round_trip_sorted_and_deduplicated(tmp_path: Path) -> None:
    rows = [
        result_row("m2", "simlex999", "all", "cosine:spearman", 0.1234567890123456, 900, 0.9, 0.05, 0.2),
        result_row("m1", "simlex999", "all", "cosine:spearman", float("nan"), 0, 0.0),
        result_row("m1", "analogies/hpo/all_info", "macro", "3CosAdd:MAP", 0.5, 10, 1.0),
        result_row("m1", "simlex999", "band:1-10", "cosine:spearman", 0.3, 12, 1.0, corpus="bc5cdr+ncbi_disease"),
        result_row("m1", "termpairs/hpo/x", "test_half", "avg_cos:mcnemar_p", 0.04, 50, None, model_b="m2"),
    ]
    frame = collect([results_frame(rows[:1]), results_frame(rows[1:]), results_frame([])])
    # A comparison row sorts before m1's own rows (a null model_b sorts last), pandas and Arrow alike.
    assert list(zip(frame["model"], frame["model_b"].fillna("-"), frame["subset"])) == [
        ("m1", "m2", "test_half"),
        ("m1", "-", "macro"),
        ("m1", "-", "all"),
        ("m1", "-", "band:1-10"),
        ("m2", "-", "all"),
    ]
    n = write_results(frame, tmp_path / "r.parquet", tmp_path / "r.csv")
    assert n == 5
    table = pq.read_table(tmp_path / "r.parquet")
    assert (
        table.column_names
        == COLUMNS
        == [
            "model",
            "model_b",
            "dataset",
            "subset",
            "metric",
            "value",
            "n",
            "coverage",
            "ci_low",
            "ci_high",
            "corpus",
        ]
    )
    assert table.column("subset").to_pylist() == frame["subset"].tolist()  # Arrow's sort = pandas'
    assert table.column("value").null_count == 1  # NaN written as null
    assert table.column("model_b").to_pylist() == ["m2", None, None, None, None]
    assert table.column("corpus").to_pylist() == [None, None, None, "bc5cdr+ncbi_disease", None]
    csv = (tmp_path / "r.csv").read_text().splitlines()
    assert csv[0] == "model,model_b,dataset,subset,metric,value,n,coverage,ci_low,ci_high,corpus"
    assert csv[1] == "m1,m2,termpairs/hpo/x,test_half,avg_cos:mcnemar_p,0.04,50,,,,"
    assert csv[5].startswith("m2,,simlex999,all,cosine:spearman,0.123456789012,900,0.9,0.05,0.2,")
    with pytest.raises(ValueError, match="duplicate"):
        write_results(results_frame(rows + rows[:1]), tmp_path / "x.parquet")
