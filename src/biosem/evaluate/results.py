"""The tidy results table and the report plots.

One row per (model, model_b, dataset, subset, metric): ``value`` (the score), ``n`` (items the score
is computed on), ``coverage`` (fraction of the dataset's items the model could represent), a
confidence interval (``ci_low``, ``ci_high``; null where none is computed) and ``corpus`` (the corpus
whose token counts define a frequency band, e.g. ``bc5cdr+ncbi_disease``; null on other rows).
``model_b`` is null except on rows comparing two models (McNemar's test: ``model`` < ``model_b``).
``metric`` is ``"<scorer>:<measure>"``, e.g. ``cosine:spearman``, ``avg_cos:auc``, ``3CosMul:MAP``,
``context_cosine:accuracy``. Rows are sorted by (model, model_b, dataset, subset, metric), nulls last
(Arrow and pandas alike).

Plots are written with matplotlib's Agg backend as PNG without software metadata, so identical
results give identical files.
"""

from __future__ import annotations

import math
import os
from collections.abc import Iterable, Mapping

import numpy as np
import pandas as pd
import pyarrow as pa

from biosem.io import TableSpec, atomic_path, write_table, write_text

RESULTS = TableSpec(
    "evaluation_results",
    pa.schema(
        [
            pa.field("model", pa.string(), nullable=False),
            pa.field("model_b", pa.string(), nullable=True),  # the second model of a comparison row
            pa.field("dataset", pa.string(), nullable=False),
            pa.field("subset", pa.string(), nullable=False),
            pa.field("metric", pa.string(), nullable=False),
            pa.field("value", pa.float64(), nullable=True),  # NaN/null when undefined (e.g. one class)
            pa.field("n", pa.int64(), nullable=False),
            pa.field("coverage", pa.float64(), nullable=True),
            pa.field("ci_low", pa.float64(), nullable=True),
            pa.field("ci_high", pa.float64(), nullable=True),
            pa.field("corpus", pa.string(), nullable=True),  # frequency-band rows: the counts' corpus
        ]
    ),
    ("model", "model_b", "dataset", "subset", "metric"),
)
COLUMNS = RESULTS.schema.names
FLOAT_DIGITS = 12


def result_row(
    model: str,
    dataset: str,
    subset: str,
    metric: str,
    value: float | None,
    n: float,
    coverage: float | None,
    ci_low: float | None = None,
    ci_high: float | None = None,
    *,
    model_b: str | None = None,
    corpus: str | None = None,
) -> dict[str, object]:
    """One row of the tidy table (NaN values become nulls when written).

    ``model_b``: the second model of a comparison row (else None); ``corpus``: the corpus whose
    counts define a frequency-band subset (else None).
    """
    return {
        "model": model,
        "model_b": model_b,
        "dataset": dataset,
        "subset": subset,
        "metric": metric,
        "value": _clean(value),
        "n": int(n),
        "coverage": _clean(coverage),
        "ci_low": _clean(ci_low),
        "ci_high": _clean(ci_high),
        "corpus": corpus,
    }


def _clean(x: float | None) -> float | None:
    if x is None:
        return None
    x = float(x)
    if not math.isfinite(x):
        return None
    # Round away the last bits that BLAS blocking may change, so tables are byte-identical.
    return float(np.round(x, FLOAT_DIGITS))


def results_frame(rows: Iterable[Mapping[str, object]]) -> pd.DataFrame:
    """Rows -> a DataFrame with the table's columns (possibly empty)."""
    frame = pd.DataFrame(list(rows), columns=COLUMNS)
    strings = {c: object for c in ("model", "model_b", "dataset", "subset", "metric", "corpus")}
    return frame.astype({**strings, "n": np.int64})


def write_results(
    frame: pd.DataFrame, parquet: str | os.PathLike[str], csv: str | os.PathLike[str] | None = None
) -> int:
    """Write the tidy table as Parquet (and CSV, same order); return the row count.

    Raises:
        ValueError: duplicate (model, model_b, dataset, subset, metric) keys.
    """
    dup = frame.duplicated(list(RESULTS.sort_keys), keep=False)
    if dup.any():
        raise ValueError(f"duplicate result keys:\n{frame[dup].head(10).to_string()}")
    n = write_table(frame, parquet, RESULTS)
    if csv is not None:
        ordered = frame.sort_values(list(RESULTS.sort_keys), kind="stable")[COLUMNS]
        write_text(ordered.to_csv(index=False, lineterminator="\n", float_format="%.12g"), csv)
    return n


def collect(frames: Iterable[pd.DataFrame]) -> pd.DataFrame:
    """Concatenate per-family tables into one, sorted by the table's key."""
    frames = [f for f in frames if len(f)]
    if not frames:
        return results_frame([])
    out = pd.concat(frames, ignore_index=True)[COLUMNS]
    return out.sort_values(list(RESULTS.sort_keys), kind="stable").reset_index(drop=True)


# --------------------------------------------------------------------------------------------------
# Plots
# --------------------------------------------------------------------------------------------------
def _pyplot():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    plt.rcParams.update({"svg.hashsalt": "biosem", "font.size": 9})
    return plt


def _save(fig, path: str | os.PathLike[str]) -> None:
    with atomic_path(path) as tmp:
        fig.savefig(tmp, format="png", dpi=110, metadata={"Software": None}, bbox_inches="tight")


def _empty_figure(plt, message: str):
    fig, ax = plt.subplots(figsize=(6, 2))
    ax.axis("off")
    ax.text(0.5, 0.5, message, ha="center", va="center")
    return fig


def plot_scores_with_ci(
    rows: pd.DataFrame, path: str | os.PathLike[str], title: str, ylabel: str, group: str = "dataset"
) -> int:
    """Grouped bars: one group per value of ``group`` (dataset or subset), one bar per model, error
    bars = the CI where there is one. ``rows`` are already filtered to one measure. Returns the
    number of groups (0: an empty placeholder figure is written)."""
    plt = _pyplot()
    if rows.empty:
        fig = _empty_figure(plt, f"no results for: {title}")
        _save(fig, path)
        plt.close(fig)
        return 0
    groups = sorted(rows[group].unique())
    models = sorted(rows["model"].unique())
    width = 0.8 / len(models)
    fig, ax = plt.subplots(figsize=(min(18.0, max(6.0, 0.35 * len(groups) * len(models) + 2)), 4))
    x = np.arange(len(groups))
    for i, model in enumerate(models):
        sub = rows[rows["model"] == model].drop_duplicates(group).set_index(group).reindex(groups)
        values = sub["value"].to_numpy(dtype=float)
        low = sub["ci_low"].to_numpy(dtype=float)
        high = sub["ci_high"].to_numpy(dtype=float)
        err = np.vstack([np.where(np.isfinite(low), values - low, 0), np.where(np.isfinite(high), high - values, 0)])
        err = np.nan_to_num(np.maximum(err, 0))
        ax.bar(x + i * width - 0.4 + width / 2, np.nan_to_num(values), width, yerr=err, capsize=2, label=model)
    ax.set_xticks(x, groups, rotation=45, ha="right", fontsize=7)
    ax.axhline(0, color="black", linewidth=0.5)
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    ax.legend(fontsize=7, ncols=2)
    _save(fig, path)
    plt.close(fig)
    return len(groups)


def plot_relation_map(results: pd.DataFrame, path: str | os.PathLike[str], measure: str = "MAP") -> int:
    """Per-relation ``measure`` of every analogy method and model, one panel per analogy dataset
    that has scores (datasets whose analogies no model covers are left out). Returns #panels."""
    plt = _pyplot()
    rows = results[results["metric"].str.endswith(f":{measure}") & results["dataset"].str.startswith("analogies/")]
    rows = rows[~rows["subset"].isin(["macro", "all"]) & rows["value"].notna()]
    if rows.empty:
        fig = _empty_figure(plt, "no analogy results")
        _save(fig, path)
        plt.close(fig)
        return 0
    datasets = sorted(rows["dataset"].unique())
    series = sorted((rows["model"] + " " + rows["metric"].str.split(":").str[0]).unique())
    fig, axes = plt.subplots(len(datasets), 1, figsize=(9, 2.4 * len(datasets) + 0.8), squeeze=False)
    for ax, dataset in zip(axes[:, 0], datasets):
        sub = rows[rows["dataset"] == dataset]
        relations = sorted(sub["subset"].unique())
        width = 0.8 / max(1, len(series))
        x = np.arange(len(relations))
        for i, label in enumerate(series):
            model, method = label.rsplit(" ", 1)
            s = sub[(sub["model"] == model) & (sub["metric"] == f"{method}:{measure}")].set_index("subset")
            color = plt.cm.tab20(i % 20)
            ax.bar(
                x + i * width - 0.4 + width / 2,
                s.reindex(relations)["value"].fillna(0).to_numpy(),
                width,
                label=label,
                color=color,
            )
        ax.set_xticks(x, relations, rotation=30, ha="right", fontsize=7)
        ax.set_ylabel(measure)
        ax.set_title(dataset, fontsize=9)
    handles, labels = axes[0, 0].get_legend_handles_labels()
    fig.legend(handles, labels, fontsize=7, ncols=4, loc="upper center", bbox_to_anchor=(0.5, 1.0))
    fig.tight_layout(rect=(0, 0, 1, 1 - 0.6 / (2.4 * len(datasets) + 0.8)))
    _save(fig, path)
    plt.close(fig)
    return len(datasets)


def plot_frequency_bands(results: pd.DataFrame, path: str | os.PathLike[str], metric: str = "cosine:spearman") -> int:
    """Spearman per corpus-frequency band (x) per model, one panel per dataset; returns #panels.

    Bands are the ``subset`` values ``band:<lo>-<hi>`` written by :mod:`biosem.evaluate.rated`
    (Bio-SimLex paper, Figures 1-2).
    """
    plt = _pyplot()
    rows = results[(results["metric"] == metric) & results["subset"].str.startswith("band:")]
    rows = rows[rows["value"].notna()]
    if rows.empty:
        fig = _empty_figure(plt, "no frequency-band results")
        _save(fig, path)
        plt.close(fig)
        return 0
    datasets = sorted(rows["dataset"].unique())
    ncols = min(3, len(datasets))
    nrows = math.ceil(len(datasets) / ncols)
    fig, axes = plt.subplots(nrows, ncols, figsize=(4 * ncols, 3 * nrows), squeeze=False)
    band_order = sorted(rows["subset"].unique(), key=_band_key)
    for ax, dataset in zip(axes.flat, datasets):
        sub = rows[rows["dataset"] == dataset]
        for model in sorted(sub["model"].unique()):
            s = sub[sub["model"] == model].set_index("subset").reindex(band_order)
            ax.plot(range(len(band_order)), s["value"].to_numpy(dtype=float), marker="o", label=model)
        ax.set_xticks(range(len(band_order)), [b.removeprefix("band:") for b in band_order], fontsize=7)
        ax.set_title(dataset, fontsize=8)
        ax.set_ylabel("Spearman")
    for ax in list(axes.flat)[len(datasets) :]:
        ax.axis("off")
    axes.flat[0].legend(fontsize=6)
    _save(fig, path)
    plt.close(fig)
    return len(datasets)


def _band_key(label: str) -> float:
    lo = label.removeprefix("band:").split("-")[0].rstrip("+")
    try:
        return float(lo)
    except ValueError:
        return math.inf
