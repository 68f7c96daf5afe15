"""Data of the report's dataset plots (biosem.report.plots): counts per bar and bin against the input."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from biosem.analogies.summary import BMASS
from biosem.report.plots import (
    analogies_figure,
    analogy_relations,
    domain_counts,
    levenshtein_counts,
    log_ratio_counts,
    save_png,
    simlex_figure,
    termpair_figure,
    termpair_sizes,
    wic_composition,
    wic_figure,
)


def pairs(labels: list[int], distances: list[int]) -> pd.DataFrame:
    return pd.DataFrame({"label": labels, "levenshtein": distances})


TERMPAIRS = {
    # the random and Levenshtein datasets of one kind and difficulty share their positives
    "fsn_syn_easy_random": pairs([1, 1, 0, 0], [1, 3, 20, 55]),
    "fsn_syn_easy_levenshtein": pairs([1, 1, 0, 0], [1, 3, 2, 3]),
    "syn_syn_hard_random": pairs([1, 0], [7, 41]),
    "syn_syn_hard_levenshtein": pairs([1, 0], [7, 6]),
    "same_as_easy_random": pairs([], []),
}


def test_termpair_sizes_in_dataset_order() -> None:
    sizes = termpair_sizes(TERMPAIRS)
    assert sizes.to_dict("records") == [
        {"dataset": "fsn_syn_easy_random", "positives": 2, "negatives": 2},
        {"dataset": "fsn_syn_easy_levenshtein", "positives": 2, "negatives": 2},
        {"dataset": "syn_syn_hard_random", "positives": 1, "negatives": 1},
        {"dataset": "syn_syn_hard_levenshtein", "positives": 1, "negatives": 1},
        {"dataset": "same_as_easy_random", "positives": 0, "negatives": 0},
    ]


def test_levenshtein_counts_per_distance() -> None:
    counts = levenshtein_counts(TERMPAIRS, cap=40)
    assert list(counts.index) == list(range(41)) and counts.index.name == "distance"
    nonzero = {column: counts.loc[counts[column] > 0, column].to_dict() for column in counts.columns}
    # positives once per kind and difficulty (not again from the Levenshtein twin)
    assert nonzero["positives"] == {1: 1, 3: 1, 7: 1}
    assert nonzero["random"] == {20: 1, 40: 2}  # 41 and 55 share the last bin
    assert nonzero["levenshtein"] == {2: 1, 3: 1, 6: 1}


def test_wic_composition_fills_missing_strata() -> None:
    splits = {
        "train": pd.DataFrame({"cat": ["identity", "identity", "synonym", "identity"], "label": [1, 0, 1, 1]}),
        "test": pd.DataFrame({"cat": ["abbreviation"], "label": [0]}),
    }
    table = wic_composition(splits)
    assert len(table) == 2 * 3 * 2
    got = {(r.split, r.cat, r.label): r.instances for r in table.itertuples()}
    assert got[("train", "identity", 1)] == 2 and got[("train", "identity", 0)] == 1
    assert got[("train", "synonym", 1)] == 1 and got[("train", "abbreviation", 0)] == 0
    assert got[("test", "abbreviation", 0)] == 1 and sum(v for (s, _, _), v in got.items() if s == "test") == 1
    assert list(dict.fromkeys(table["split"])) == ["train", "test"]


def test_analogy_relations_keeps_kept_then_paper() -> None:
    relations = pd.DataFrame(
        {
            "terminology": ["hpo", "hpo", "go", BMASS, BMASS],
            "relation": ["is_a", "part_of", "is_a", "L1", "L2"],
            "one_to_one": ["120", "3", "55", "", ""],
            "status": ["kept", "below_min_one_to_one", "kept", "kept", "kept"],  # as summarise writes them
            "amb": [1.4, np.nan, 1.1, 1.0, 1.1],
        }
    )
    table = analogy_relations(relations)
    assert list(zip(table["terminology"], table["relation"])) == [
        ("hpo", "is_a"),
        ("go", "is_a"),
        (BMASS, "L1"),
        (BMASS, "L2"),
    ]
    assert table["one_to_one"].iloc[:2].tolist() == [120, 55] and table["one_to_one"].iloc[2:].isna().all()
    assert table["amb"].tolist() == pytest.approx([1.4, 1.1, 1.0, 1.1])


DOMAINS = pd.DataFrame(
    {
        "pos": ["noun", "noun", "noun", "verb", "verb"],
        "domain": ["biomedical", "general", "biomedical", "ambiguous", "general"],
        "log_ratio": [1.6, -0.3, 1.74, 0.5, -0.25],
    }
)


def test_domain_counts_per_pos() -> None:
    table = domain_counts(DOMAINS)
    assert table.to_dict("index") == {
        "noun": {"biomedical": 2, "ambiguous": 0, "general": 1},
        "verb": {"biomedical": 0, "ambiguous": 1, "general": 1},
    }


def test_log_ratio_counts_per_bin() -> None:
    table = log_ratio_counts(DOMAINS, width=0.25)
    # bins start at floor(-0.3 / 0.25) * 0.25 = -0.5 and cover 1.74 (bin 1.5)
    assert list(table.index) == pytest.approx(list(np.arange(-0.5, 1.51, 0.25)))
    assert int(table.to_numpy().sum()) == len(DOMAINS)
    assert table.loc[-0.5, "general"] == 1  # -0.3 in [-0.5, -0.25)
    assert table.loc[-0.25, "general"] == 1  # -0.25 opens its own bin
    assert table.loc[0.5, "ambiguous"] == 1 and table.loc[0.0].sum() == 0
    assert table.loc[1.5, "biomedical"] == 2


def test_figures_write_pngs(tmp_path: Path) -> None:
    figures = {
        "termpairs": termpair_figure("hpo", termpair_sizes(TERMPAIRS), levenshtein_counts(TERMPAIRS)),
        "wic": wic_figure(wic_composition({"test": pd.DataFrame({"cat": ["identity"], "label": [1]})})),
        "analogies": analogies_figure(
            analogy_relations(
                pd.DataFrame(
                    {
                        "terminology": ["hpo", BMASS],
                        "relation": ["is_a", "L1"],
                        "one_to_one": ["9", ""],
                        "status": ["kept", ""],
                        "amb": [1.2, 1.0],
                    }
                )  # fmt: skip
            )
        ),
        "simlex": simlex_figure(log_ratio_counts(DOMAINS), domain_counts(DOMAINS)),
    }
    for name, fig in figures.items():
        save_png(fig, tmp_path / f"{name}.png")
        assert (tmp_path / f"{name}.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    again = tmp_path / "again.png"
    save_png(termpair_figure("hpo", termpair_sizes(TERMPAIRS), levenshtein_counts(TERMPAIRS)), again)
    assert again.read_bytes() == (tmp_path / "termpairs.png").read_bytes()  # no time stamp in the file
