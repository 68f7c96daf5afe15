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
from collections.abc import Iterable, Mapping, Sequence

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
# Coverage: what a model scored of each dataset
# --------------------------------------------------------------------------------------------------
FAMILY_OF_PREFIX = {"simlex": "rated", "categories": "termpairs"}
"""The family of a dataset name's first part where it is not the family itself: ``simlex/<name>`` (biosem's
rated datasets) is rated, ``categories/<t>`` (category separation) belongs to the term pairs."""


def dataset_family(dataset: str) -> str:
    """The family of a result row's ``dataset``: ``rated`` for an external benchmark (no ``/``: ``simlex999``)
    or ``simlex/<name>``, else its first part (``termpairs``, ``analogies``, ``wic``; :data:`FAMILY_OF_PREFIX`)."""
    if "/" not in dataset:
        return "rated"
    prefix = dataset.split("/", 1)[0]
    return FAMILY_OF_PREFIX.get(prefix, prefix)


COVERAGE_COLUMNS = {"model": object, "family": object, "dataset": object, "n": np.int64, "coverage": float}


def dataset_coverage(results: pd.DataFrame) -> pd.DataFrame:
    """What each model scored of each dataset, from a results table (:data:`RESULTS` columns).

    Returns one row per (model, dataset), sorted by both, columns ``model, family, dataset, n, coverage``:
    ``family`` (:func:`dataset_family`), ``n`` (the items scored: the largest ``n`` of the dataset's rows of
    subset ``all``, or of all its rows where it has none; a WiC split counts every instance, since an
    uncovered one gets the fallback label) and ``coverage`` (the share of the dataset's items the model could
    represent, 0-1). Rows comparing two models (``model_b`` set) and rows without a coverage are left out.
    """
    rows = results[results["model_b"].isna() & results["coverage"].notna()]
    if rows.empty:
        return pd.DataFrame({c: pd.Series(dtype=t) for c, t in COVERAGE_COLUMNS.items()})
    is_all = rows["subset"].eq("all")
    has_all = is_all.groupby([rows["model"], rows["dataset"]]).transform("any")
    rows = rows[is_all | ~has_all]
    out = rows.groupby(["model", "dataset"], sort=True).agg(n=("n", "max"), coverage=("coverage", "first"))
    out = out.reset_index()
    out.insert(1, "family", out["dataset"].map(dataset_family))
    return out.astype(COVERAGE_COLUMNS)[list(COVERAGE_COLUMNS)]


def coverage_summary(coverage: pd.DataFrame, by: Sequence[str] = ("model", "family")) -> pd.DataFrame:
    """:func:`dataset_coverage` rows summed up per ``by`` (columns of it, e.g. ``model, family``): ``datasets``
    (how many), ``n`` (the items scored, summed) and the range of their coverage (``coverage_min``,
    ``coverage_max``); sorted by ``by``."""
    by = list(by)
    if coverage.empty:
        return pd.DataFrame(columns=[*by, "datasets", "n", "coverage_min", "coverage_max"])
    return (
        coverage.groupby(by, sort=True)
        .agg(
            datasets=("dataset", "size"),
            n=("n", "sum"),
            coverage_min=("coverage", "min"),
            coverage_max=("coverage", "max"),
        )
        .reset_index()
    )


def coverage_warnings(results: pd.DataFrame, threshold: float) -> list[str]:
    """``WARNING: <model> covers <coverage> of <dataset>`` (coverage to 3 decimals) for every dataset a model
    covers less than ``threshold`` of (:func:`dataset_coverage`), in model and dataset order."""
    coverage = dataset_coverage(results)
    low = coverage[coverage["coverage"] < threshold]
    return [f"WARNING: {r.model} covers {r.coverage:.3f} of {r.dataset}" for r in low.itertuples(index=False)]


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


# A score on part of a dataset is not comparable with one on all of it: bars of a model that could
# represent fewer than all items are hatched and paler, and labelled with their coverage.
PARTIAL_HATCH = "///"
PARTIAL_ALPHA = 0.45
BAR_NOTE = "hatched: coverage < 1 (label: fraction of items scored)"
HATCH_NOTE = "hatched: coverage < 1"
POINT_NOTE = "hollow: coverage < 1"


def partial_coverage(coverage: np.ndarray) -> np.ndarray:
    """Which scores are on partial coverage: ``coverage`` < 1 (a null coverage, e.g. a comparison or
    the random baseline, is not marked)."""
    coverage = np.asarray(coverage, dtype=float)
    return np.isfinite(coverage) & (coverage < 1.0)


def coverage_label(coverage: float) -> str:
    """The text on a bar scored on part of its dataset: ``cov 0.22`` (two decimals), ``cov <0.01``
    below that, ``cov 0`` for a model that scored nothing (its bar is empty)."""
    if coverage == 0:
        return "cov 0"
    return "cov <0.01" if coverage < 0.005 else f"cov {coverage:.2f}"


def _hatch_key():
    """The legend key of a hatched (partial-coverage) bar."""
    from matplotlib.patches import Patch

    return Patch(facecolor="white", edgecolor="0.3", hatch=PARTIAL_HATCH)


def _plain_key(color):
    """The legend key of a model's bars (its colour, unhatched)."""
    from matplotlib.patches import Patch

    return Patch(facecolor=color)


def scores_figure(rows: pd.DataFrame, title: str, ylabel: str, group: str = "dataset"):
    """The figure of :func:`plot_scores_with_ci` (matplotlib ``Figure``; ``rows`` not empty).

    A bar whose ``coverage`` is below 1 is hatched, drawn at alpha ``PARTIAL_ALPHA`` and labelled
    :func:`coverage_label` above its interval; the legend explains the marking (``BAR_NOTE``).
    """
    plt = _pyplot()
    groups = sorted(rows[group].unique())
    models = sorted(rows["model"].unique())
    width = 0.8 / len(models)
    fig, ax = plt.subplots(figsize=(min(18.0, max(6.0, 0.35 * len(groups) * len(models) + 2)), 4))
    x = np.arange(len(groups))
    top = 0.0
    keys = []  # plain legend keys: a model's first bar may be hatched
    span = np.nanmax(np.abs(np.r_[rows["value"].to_numpy(dtype=float), rows["ci_high"].to_numpy(dtype=float), 1e-9]))
    for i, model in enumerate(models):
        sub = rows[rows["model"] == model].drop_duplicates(group).set_index(group).reindex(groups)
        values = sub["value"].to_numpy(dtype=float)
        low = sub["ci_low"].to_numpy(dtype=float)
        high = sub["ci_high"].to_numpy(dtype=float)
        coverage = sub["coverage"].to_numpy(dtype=float)
        err = np.vstack([np.where(np.isfinite(low), values - low, 0), np.where(np.isfinite(high), high - values, 0)])
        err = np.nan_to_num(np.maximum(err, 0))
        xs = x + i * width - 0.4 + width / 2
        bars = ax.bar(xs, np.nan_to_num(values), width, yerr=err, capsize=2, label=model)
        keys.append(_plain_key(bars.patches[0].get_facecolor()))
        tops = np.fmax(np.fmax(np.nan_to_num(values), np.nan_to_num(high)), 0.0)
        for j in np.flatnonzero(partial_coverage(coverage)):
            bars.patches[j].set_hatch(PARTIAL_HATCH)
            bars.patches[j].set_alpha(PARTIAL_ALPHA)
            label = coverage_label(coverage[j])
            ax.text(xs[j], tops[j] + 0.02 * span, label, ha="center", va="bottom", rotation=90, fontsize=7)
            top = max(top, tops[j] + 0.2 * span)  # room for the label inside the axes
    ax.set_xticks(x, groups, rotation=45, ha="right", fontsize=7)
    ax.axhline(0, color="black", linewidth=0.5)
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    if top > ax.get_ylim()[1]:
        ax.set_ylim(top=top)
    ax.legend([*keys, _hatch_key()], [*models, BAR_NOTE], fontsize=7, loc="upper left", bbox_to_anchor=(1.0, 1.0))
    return fig


def plot_scores_with_ci(
    rows: pd.DataFrame, path: str | os.PathLike[str], title: str, ylabel: str, group: str = "dataset"
) -> int:
    """Grouped bars: one group per value of ``group`` (dataset or subset), one bar per model, error
    bars = the CI where there is one, bars on partial coverage marked (:func:`scores_figure`).
    ``rows`` are already filtered to one measure. Returns the number of groups (0: an empty
    placeholder figure is written)."""
    plt = _pyplot()
    fig = _empty_figure(plt, f"no results for: {title}") if rows.empty else scores_figure(rows, title, ylabel, group)
    _save(fig, path)
    plt.close(fig)
    return 0 if rows.empty else rows[group].nunique()


def relation_map_figure(rows: pd.DataFrame, measure: str = "MAP"):
    """The figure of :func:`plot_relation_map` from its selected ``rows`` (not empty); bars on
    partial coverage hatched and paler (too many to label), the legend explains the marking."""
    plt = _pyplot()
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
            s = s.reindex(relations)
            color = plt.cm.tab20(i % 20)
            bars = ax.bar(
                x + i * width - 0.4 + width / 2,
                s["value"].fillna(0).to_numpy(),
                width,
                label=label,
                color=color,
            )
            for j in np.flatnonzero(partial_coverage(s["coverage"].to_numpy(dtype=float))):
                bars.patches[j].set_hatch(PARTIAL_HATCH)
                bars.patches[j].set_alpha(PARTIAL_ALPHA)
        ax.set_xticks(x, relations, rotation=30, ha="right", fontsize=7)
        ax.set_ylabel(measure)
        ax.set_title(dataset, fontsize=9)
    handles, labels = axes[0, 0].get_legend_handles_labels()
    fig.legend(
        [*handles, _hatch_key()],
        [*labels, HATCH_NOTE],
        fontsize=7,
        ncols=4,
        loc="upper center",
        bbox_to_anchor=(0.5, 1.0),
    )
    fig.tight_layout(rect=(0, 0, 1, 1 - 0.6 / (2.4 * len(datasets) + 0.8)))
    return fig


def plot_relation_map(results: pd.DataFrame, path: str | os.PathLike[str], measure: str = "MAP") -> int:
    """Per-relation ``measure`` of every analogy method and model, one panel per analogy dataset
    that has scores (datasets whose analogies no model covers are left out); bars on partial
    coverage marked (:func:`relation_map_figure`). Returns #panels."""
    plt = _pyplot()
    rows = results[results["metric"].str.endswith(f":{measure}") & results["dataset"].str.startswith("analogies/")]
    rows = rows[~rows["subset"].isin(["macro", "all"]) & rows["value"].notna()]
    fig = _empty_figure(plt, "no analogy results") if rows.empty else relation_map_figure(rows, measure)
    _save(fig, path)
    plt.close(fig)
    return rows["dataset"].nunique()


def frequency_bands_figure(rows: pd.DataFrame):
    """The figure of :func:`plot_frequency_bands` from its selected band ``rows`` (not empty).

    A point scored on partial coverage is hollow; the title of each panel names the corpus the band
    counts come from (the rows' ``corpus``).
    """
    plt = _pyplot()
    datasets = sorted(rows["dataset"].unique())
    ncols = min(3, len(datasets))
    nrows = math.ceil(len(datasets) / ncols)
    fig, axes = plt.subplots(nrows, ncols, figsize=(4 * ncols, 3 * nrows), squeeze=False)
    band_order = sorted(rows["subset"].unique(), key=_band_key)
    for ax, dataset in zip(axes.flat, datasets):
        sub = rows[rows["dataset"] == dataset]
        for k, model in enumerate(sorted(sub["model"].unique())):
            s = sub[sub["model"] == model].set_index("subset").reindex(band_order)
            values = s["value"].to_numpy(dtype=float)
            partial = partial_coverage(s["coverage"].to_numpy(dtype=float))
            color = plt.cm.tab10(k % 10)
            xs = np.arange(len(band_order))
            ax.plot(xs, values, color=color, label=model)
            ax.plot(xs[~partial], values[~partial], "o", color=color)
            ax.plot(xs[partial], values[partial], "o", color=color, markerfacecolor="none")
        ax.set_xticks(range(len(band_order)), [b.removeprefix("band:") for b in band_order], fontsize=7)
        corpora = ", ".join(sorted(sub["corpus"].dropna().unique())) or "unknown"
        ax.set_title(f"{dataset} (counts: {corpora})", fontsize=8)
        ax.set_ylabel("Spearman")
    for ax in list(axes.flat)[len(datasets) :]:
        ax.axis("off")
    handles, labels = axes.flat[0].get_legend_handles_labels()
    from matplotlib.lines import Line2D

    hollow = Line2D([], [], marker="o", color="0.3", markerfacecolor="none", linestyle="none")
    axes.flat[0].legend([*handles, hollow], [*labels, POINT_NOTE], fontsize=6)
    return fig


def plot_frequency_bands(results: pd.DataFrame, path: str | os.PathLike[str], metric: str = "cosine:spearman") -> int:
    """Spearman per corpus-frequency band (x) per model, one panel per dataset; returns #panels.

    Bands are the ``subset`` values ``band:<lo>-<hi>`` written by :mod:`biosem.evaluate.rated`
    (Bio-SimLex paper, Figures 1-2); points on partial coverage are hollow and each panel names the
    corpus of the band counts (:func:`frequency_bands_figure`).
    """
    plt = _pyplot()
    rows = results[(results["metric"] == metric) & results["subset"].str.startswith("band:")]
    rows = rows[rows["value"].notna()]
    fig = _empty_figure(plt, "no frequency-band results") if rows.empty else frequency_bands_figure(rows)
    _save(fig, path)
    plt.close(fig)
    return rows["dataset"].nunique()


def _band_key(label: str) -> float:
    lo = label.removeprefix("band:").split("-")[0].rstrip("+")
    try:
        return float(lo)
    except ValueError:
        return math.inf
