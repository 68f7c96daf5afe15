"""The report plots of the results table (biosem.evaluate.plots): what each figure draws and its size."""

from __future__ import annotations

from pathlib import Path

import numpy as np
from matplotlib.patches import Rectangle

from biosem.evaluate.plots import (
    BAR_NOTE,
    CELL_NOTE,
    PARTIAL_HATCH,
    POINT_NOTE,
    _band_label,
    coverage_label,
    frequency_bands_figure,
    plot_frequency_bands,
    plot_relation_map,
    plot_scores_with_ci,
    plot_termpair_heatmap,
    relation_heatmap_figure,
    scores_figure,
    termpair_heatmap_figure,
)
from biosem.evaluate.results import result_row, results_frame
from biosem.report.plots import DPI, FIGURE_WIDTH, MAX_HEIGHT


def hatched_cells(ax) -> list[tuple[int, int]]:
    """(row, column) of every hatched cell patch of a heatmap axis."""
    return sorted(
        (round(p.get_y() + 0.5), round(p.get_x() + 0.5))
        for p in ax.patches
        if isinstance(p, Rectangle) and p.get_hatch() == PARTIAL_HATCH
    )


def cell_texts(ax) -> dict[tuple[int, int], str]:
    """The score written in each heatmap cell, by (row, column)."""
    return {(round(t.get_position()[1]), round(t.get_position()[0])): t.get_text() for t in ax.texts}


def test_plots_are_written_and_deterministic(tmp_path: Path) -> None:
    rows = []
    for model in ("sg", "cbow"):
        for ds in ("simlex999", "bio_simlex"):
            rows.append(result_row(model, ds, "all", "cosine:spearman", 0.3, 100, 0.9, 0.2, 0.4))
            rows.append(result_row(model, ds, "band:1-10", "cosine:spearman", 0.2, 20, 0.9))
            rows.append(result_row(model, ds, "band:10-100", "cosine:spearman", 0.4, 20, 0.9))
        for rel in ("r1", "r2", "macro"):
            rows.append(result_row(model, "analogies/hpo/all_info", rel, "3CosAdd:MAP", 0.1, 5, 1.0))
            rows.append(result_row(model, "analogies/hpo/single_answer", rel, "3CosAdd:MAP", 0.1, 5, 1.0))
        for t in ("hpo", "go"):
            rows.append(result_row(model, f"termpairs/{t}/fsn_syn_easy_random", "all", "avg_cos:auc", 0.8, 50, 1.0))
    frame = results_frame(rows)
    for i in (1, 2):
        rated = frame[(frame["metric"] == "cosine:spearman") & (frame["subset"] == "all")]
        assert plot_scores_with_ci(rated, tmp_path / f"s{i}.png", "Rated pairs", "Spearman") == 2
        assert plot_relation_map(frame, tmp_path / f"m{i}.png") == 1  # all_info only
        assert plot_frequency_bands(frame, tmp_path / f"f{i}.png") == 2
        assert plot_termpair_heatmap(frame, tmp_path / f"t{i}.png") == 2
    for name in ("s", "m", "f", "t"):
        a, b = (tmp_path / f"{name}1.png").read_bytes(), (tmp_path / f"{name}2.png").read_bytes()
        assert a[:8] == b"\x89PNG\r\n\x1a\n" and a == b
        width = int.from_bytes(a[16:20], "big")  # the IHDR chunk
        assert width == FIGURE_WIDTH * DPI  # the report's panel shows it at its size
    assert plot_scores_with_ci(results_frame([]), tmp_path / "empty.png", "t", "y") == 0
    assert plot_termpair_heatmap(results_frame([]), tmp_path / "empty_t.png") == 0
    assert (tmp_path / "empty.png").stat().st_size > 0 and (tmp_path / "empty_t.png").stat().st_size > 0


def test_bars_mark_scores_on_partial_coverage() -> None:
    """A model at 0.22 coverage beside one at 1.0: its bars are hatched, paler and labelled; the
    legend says so; a full-coverage row is not marked."""
    rows = results_frame(
        [
            result_row("full", "simlex999", "all", "cosine:spearman", 0.40, 999, 1.0, 0.3, 0.5),
            result_row("full", "bio_simlex", "all", "cosine:spearman", 0.50, 988, 1.0, 0.4, 0.6),
            result_row("small", "simlex999", "all", "cosine:spearman", 0.60, 220, 0.2202, 0.5, 0.7),
            result_row("small", "bio_simlex", "all", "cosine:spearman", float("nan"), 0, 0.0),
        ]
    )
    fig = scores_figure(rows, "Rated pairs", "Spearman")
    ax = fig.axes[0]
    assert [t.get_text() for t in ax.texts] == ["cov 0", "cov 0.22"]  # groups sorted: bio_simlex, simlex999
    bars = [c for c in ax.containers if hasattr(c, "patches")]
    assert [[p.get_hatch() for p in c.patches] for c in bars] == [[None, None], [PARTIAL_HATCH, PARTIAL_HATCH]]
    assert bars[1].patches[1].get_alpha() < 1 and bars[0].patches[1].get_alpha() is None
    assert ax.texts[1].get_position()[1] > 0.7  # above the interval of the 0.22 bar
    assert [t.get_text() for t in fig.legends[0].get_texts()] == ["full", "small", BAR_NOTE]
    assert coverage_label(0.004) == "cov <0.01" and coverage_label(0.999) == "cov 1.00"


def test_bars_share_one_coverage_label_per_group() -> None:
    """Models of one vocabulary have one coverage per dataset: it is written once, over the group."""
    rows = results_frame(
        [
            result_row(m, ds, "all", "cosine:spearman", 0.3, 100, cov, 0.2, 0.4)
            for m in ("a", "b", "c")
            for ds, cov in (("mayosrs", 0.66), ("umnsrs_sim", 1.0))
        ]
    )
    ax = scores_figure(rows, "Rated pairs", "Spearman").axes[0]
    assert [(t.get_text(), t.get_position()[0]) for t in ax.texts] == [("cov 0.66", 0.0)]
    hatches = [[p.get_hatch() for p in c.patches] for c in ax.containers if hasattr(c, "patches")]
    assert hatches == [[PARTIAL_HATCH, None]] * 3


def test_termpair_heatmap_panels_per_terminology() -> None:
    """One panel per terminology, datasets (rows, in the family's order) × models (columns); the score
    written in its cell, a partial-coverage cell hatched, a dataset without pairs grey (no text)."""
    rows = results_frame(
        [
            result_row("cbow", "termpairs/hpo/fsn_syn_easy_random", "all", "avg_cos:auc", 0.91, 40, 1.0),
            result_row("sg", "termpairs/hpo/fsn_syn_easy_random", "all", "avg_cos:auc", 0.87, 30, 0.75),
            result_row("cbow", "termpairs/hpo/same_as_hard_levenshtein", "all", "avg_cos:auc", 0.52, 40, 1.0),
            result_row("sg", "termpairs/hpo/same_as_hard_levenshtein", "all", "avg_cos:auc", 0.48, 40, 1.0),
            result_row("cbow", "termpairs/mesh/fsn_syn_easy_random", "all", "avg_cos:auc", 0.95, 40, 1.0),
            result_row("sg", "termpairs/mesh/fsn_syn_easy_random", "all", "avg_cos:auc", 0.93, 40, 1.0),
        ]
    )
    fig = termpair_heatmap_figure(rows, "AUC (avg_cos)")
    hpo, mesh = fig.axes[:2]
    assert (hpo.get_title(), mesh.get_title()) == ("hpo", "mesh")
    assert [t.get_text() for t in hpo.get_yticklabels()] == ["fsn_syn_easy_random", "same_as_hard_levenshtein"]
    assert [t.get_text() for t in mesh.get_xticklabels()] == ["cbow", "sg"]
    assert cell_texts(hpo) == {(0, 0): "0.91", (0, 1): "0.87", (1, 0): "0.52", (1, 1): "0.48"}
    assert hatched_cells(hpo) == [(0, 1)] and hatched_cells(mesh) == []
    assert cell_texts(mesh) == {(0, 0): "0.95", (0, 1): "0.93"}  # mesh has no same_as pairs: grey, blank
    assert np.ma.is_masked(mesh.images[0].get_array()[1, 0])
    assert fig.legends[0].get_texts()[0].get_text() == CELL_NOTE
    assert fig.get_figwidth() == FIGURE_WIDTH and fig.get_figheight() <= MAX_HEIGHT


def test_termpair_heatmap_of_the_default_fits_the_panel(tmp_path: Path) -> None:
    """Ten terminologies × 20 datasets × 4 models (the default run) in two rows of five panels, no
    taller than the report's panel."""
    from biosem.termpairs import DATASETS

    terminologies = [f"t{i}" for i in range(10)]
    rows = results_frame(
        [
            result_row(m, f"termpairs/{t}/{d}", "all", "avg_cos:auc", 0.7, 10, 1.0)
            for t in terminologies
            for d in DATASETS
            for m in ("cbow_w10", "cbow_w2", "sg_w10", "sg_w2")
        ]
    )
    fig = termpair_heatmap_figure(rows)
    panels = [ax for ax in fig.axes if ax.get_title()]
    assert [ax.get_title() for ax in panels] == terminologies
    assert {ax.get_subplotspec().get_geometry()[:2] for ax in panels} == {(2, 5)}
    assert all(len(ax.texts) == 20 * 4 for ax in panels)
    assert fig.get_figheight() <= MAX_HEIGHT
    assert plot_termpair_heatmap(rows, tmp_path / "t.png") == 10


def test_relation_heatmap_rows_per_relation_columns_per_method_and_model() -> None:
    analogies = results_frame(
        [
            result_row(m, f"analogies/{t}/all_info", r, f"{method}:MAP", v, 5, c)
            for t, r, v in (("hpo", "is_a", 0.25), ("go", "part_of", 0.5))
            for m, c in (("full", 1.0), ("small", 0.5))
            for method in ("3CosAdd", "3CosMul")
        ]
    )
    fig = relation_heatmap_figure(analogies)
    ax = fig.axes[0]
    assert [t.get_text() for t in ax.get_yticklabels()] == ["go: part_of", "hpo: is_a"]
    assert [t.get_text() for t in ax.get_xticklabels()] == ["full", "small", "full", "small"]
    (methods,) = ax.child_axes  # the method of each group of columns, above them
    groups = [(t.get_text(), t.get_position()[0]) for t in methods.get_xticklabels()]
    assert groups == [("3CosAdd", 0.5), ("3CosMul", 2.5)]
    assert hatched_cells(ax) == [(0, 1), (0, 3), (1, 1), (1, 3)]  # the 0.5-coverage model's cells
    assert cell_texts(ax)[(1, 2)] == "0.25" and cell_texts(ax)[(0, 0)] == "0.50"
    assert fig.legends[0].get_texts()[0].get_text().startswith("hatched: coverage < 1")


def test_frequency_bands_mark_partial_coverage_and_name_the_corpus() -> None:
    bands = results_frame(
        [
            result_row(m, ds, b, "cosine:spearman", 0.3, 20, c, corpus="bc5cdr+ncbi_disease")
            for ds in ("bio_simlex", "simlex999")
            for m, c in (("full", 1.0), ("small", 0.6))
            for b in ("band:1-10", "band:10+")
        ]
    )
    fig = frequency_bands_figure(bands)
    ax = fig.axes[0]
    assert ax.get_title() == "bio_simlex"  # the corpus every panel shares is named once, under the title
    assert [t.get_text() for t in ax.get_xticklabels()] == ["1-10", "10+"]
    assert [_band_label(b) for b in ("band:100-1000", "band:1000+", "band:1500-1000000")] == [
        "100-1k",
        "1k+",
        "1500-1M",
    ]
    assert "counts: bc5cdr+ncbi_disease" in fig.get_suptitle()
    hollow = [len(line.get_xdata()) for line in ax.lines if line.get_markerfacecolor() == "none"]
    assert sum(hollow) == 2  # the two bands of the 0.6-coverage model
    assert [t.get_text() for t in fig.legends[0].get_texts()] == ["full", "small", POINT_NOTE]
    other = bands.assign(corpus=np.where(bands["dataset"] == "simlex999", "craft", bands["corpus"]))
    titles = [a.get_title() for a in frequency_bands_figure(other).axes[:2]]
    assert titles == ["bio_simlex\n(counts: bc5cdr+ncbi_disease)", "simlex999\n(counts: craft)"]
