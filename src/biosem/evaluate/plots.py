"""The report plots of the results table (:mod:`biosem.evaluate.results`).

* rated pairs and WiC: grouped bars with their confidence intervals (:func:`plot_scores_with_ci`);
* frequency bands: Spearman's rho per corpus-frequency band, one panel per dataset
  (:func:`plot_frequency_bands`);
* term pairs: a heatmap of the AUC per dataset (rows) and model (columns), one panel per terminology
  (:func:`plot_termpair_heatmap`);
* analogies: a heatmap of the MAP per relation (rows) and model and method (columns) on the All-Info
  dataset of every terminology (:func:`plot_relation_map`).

A score on part of a dataset is not comparable with one on all of it: a bar of a model that could
represent fewer than all items (``coverage`` < 1) is hatched, paler and labelled with its coverage, a
heatmap cell hatched, a point hollow; every plot's legend or note says so.

The figures fit the report's panel (:data:`biosem.report.plots.FIGURE_WIDTH` wide, at most
:data:`biosem.report.plots.MAX_HEIGHT` high, fonts of :data:`biosem.report.plots.STYLE`); they are drawn
without pyplot and written as PNG without a time stamp, so identical results give identical files.
"""

from __future__ import annotations

import math
import os
import re
import textwrap

import numpy as np
import pandas as pd
from matplotlib import colormaps
from matplotlib.colors import Normalize
from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from matplotlib.patches import Patch, Rectangle

from biosem.report.plots import FIGURE_WIDTH, MAX_HEIGHT, save_png, styled
from biosem.termpairs import DATASETS as TERMPAIR_DATASETS

PARTIAL_HATCH = "///"
PARTIAL_ALPHA = 0.45
BAR_NOTE = "hatched: coverage < 1 (label: fraction of items scored)"
HATCH_NOTE = "hatched: coverage < 1"
POINT_NOTE = "hollow: coverage < 1"
CELL_NOTE = "hatched: coverage < 1 (the model represents part of the items); grey: no score"
CELL_FONT_SIZE = 8
"""Points of the score written in a heatmap cell."""
ANALOGY_SETTING = "all_info"
"""The analogy dataset the report's heatmap shows (All-Info: every analogy; the other settings and the
unigram subsets are in the results table)."""


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


def _hatch_key() -> Patch:
    """The legend key of a hatched (partial-coverage) bar or cell."""
    return Patch(facecolor="white", edgecolor="0.3", hatch=PARTIAL_HATCH)


@styled
def _empty_figure(message: str) -> Figure:
    fig = Figure(figsize=(6, 2))
    ax = fig.subplots()
    ax.axis("off")
    ax.text(0.5, 0.5, message, ha="center", va="center")
    return fig


def _write(rows: pd.DataFrame, figure, path: str | os.PathLike[str], empty: str) -> None:
    """Draw ``figure()`` (or a figure saying ``empty`` when ``rows`` is empty) and save it as PNG."""
    save_png(_empty_figure(empty) if rows.empty else figure(), path)


# --- bars ----------------------------------------------------------------------------------------


@styled
def scores_figure(rows: pd.DataFrame, title: str, ylabel: str, group: str = "dataset") -> Figure:
    """The figure of :func:`plot_scores_with_ci` (``rows`` not empty).

    A bar whose ``coverage`` is below 1 is hatched and drawn at alpha ``PARTIAL_ALPHA``. Its coverage
    (:func:`coverage_label`) is written once above its group when every model of the group has the same
    coverage (the trained models of the default share a vocabulary), else above the bar; the legend,
    under the axes, explains the marking (``BAR_NOTE``).
    """
    groups = sorted(rows[group].unique())
    models = sorted(rows["model"].unique())
    width = 0.8 / len(models)
    fig = Figure(figsize=(FIGURE_WIDTH, 5.2), layout="constrained")
    ax = fig.subplots()
    x = np.arange(len(groups))
    values_all = np.r_[rows["value"].to_numpy(dtype=float), rows["ci_high"].to_numpy(dtype=float), 1e-9]
    span = np.nanmax(np.abs(values_all))
    per_model = {m: rows[rows["model"] == m].drop_duplicates(group).set_index(group).reindex(groups) for m in models}
    coverage = np.vstack([per_model[m]["coverage"].to_numpy(dtype=float) for m in models])  # [model, group]
    shared = np.array([len(set(np.round(np.nan_to_num(col, nan=-1.0), 2))) == 1 for col in coverage.T])
    tops = np.zeros_like(coverage)
    top = 0.0
    keys = []  # plain legend keys: a model's first bar may be hatched
    for i, model in enumerate(models):
        sub = per_model[model]
        values = sub["value"].to_numpy(dtype=float)
        low = sub["ci_low"].to_numpy(dtype=float)
        high = sub["ci_high"].to_numpy(dtype=float)
        err = np.vstack([np.where(np.isfinite(low), values - low, 0), np.where(np.isfinite(high), high - values, 0)])
        err = np.nan_to_num(np.maximum(err, 0))
        xs = x + i * width - 0.4 + width / 2
        bars = ax.bar(xs, np.nan_to_num(values), width, yerr=err, capsize=2, label=model)
        keys.append(Patch(facecolor=bars.patches[0].get_facecolor()))
        tops[i] = np.fmax(np.fmax(np.nan_to_num(values), np.nan_to_num(high)), 0.0)
        for j in np.flatnonzero(partial_coverage(coverage[i])):
            bars.patches[j].set_hatch(PARTIAL_HATCH)
            bars.patches[j].set_alpha(PARTIAL_ALPHA)
            if not shared[j]:
                label = coverage_label(coverage[i, j])
                ax.text(xs[j], tops[i, j] + 0.02 * span, label, ha="center", va="bottom", rotation=90, fontsize=9)
                top = max(top, tops[i, j] + 0.25 * span)  # room for the label inside the axes
    for j in np.flatnonzero(shared & partial_coverage(coverage[0])):
        label = coverage_label(coverage[0, j])
        ax.text(x[j], tops[:, j].max() + 0.03 * span, label, ha="center", va="bottom", fontsize=9)
        top = max(top, tops[:, j].max() + 0.12 * span)
    slanted = max(len(str(g)) for g in groups) * len(groups) > 100  # labels wider than their groups
    ax.set_xticks(x, groups, rotation=25 if slanted else 0, ha="right" if slanted else "center")
    ax.axhline(0, color="black", linewidth=0.5)
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    if top > ax.get_ylim()[1]:
        ax.set_ylim(top=top)
    fig.legend(
        [*keys, _hatch_key()],
        [*models, BAR_NOTE],
        loc="outside lower center",
        ncols=min(len(models) + 1, 6),
        frameon=False,
    )
    return fig


def plot_scores_with_ci(
    rows: pd.DataFrame, path: str | os.PathLike[str], title: str, ylabel: str, group: str = "dataset"
) -> int:
    """Grouped bars: one group per value of ``group`` (dataset or subset), one bar per model, error
    bars = the CI where there is one, bars on partial coverage marked (:func:`scores_figure`).
    ``rows`` are already filtered to one measure. Returns the number of groups (0: an empty
    placeholder figure is written)."""
    _write(rows, lambda: scores_figure(rows, title, ylabel, group), path, f"no results for: {title}")
    return 0 if rows.empty else rows[group].nunique()


# --- heatmaps ------------------------------------------------------------------------------------


def heatmap(ax, values: np.ndarray, coverage: np.ndarray, norm: Normalize, cmap_name: str):
    """Draw ``values`` [rows, columns] on ``ax`` as cells coloured on ``cmap_name`` under ``norm``, each
    score written in it (two decimals, on a patch of its own colour so that the hatching leaves it
    legible); cells on partial coverage (:func:`partial_coverage` of ``coverage``, same shape) carry a
    hatched patch; NaN cells are grey and blank. Returns the image (for a colour bar)."""
    cmap = colormaps[cmap_name].with_extremes(bad="#e6e6e6")
    image = ax.imshow(np.ma.masked_invalid(values), cmap=cmap, norm=norm, aspect="auto", interpolation="nearest")
    partial = partial_coverage(coverage)
    for (i, j), value in np.ndenumerate(values):
        if not np.isfinite(value):
            continue
        colour = cmap(norm(value))
        dark = 0.299 * colour[0] + 0.587 * colour[1] + 0.114 * colour[2] < 0.5
        if partial[i, j]:
            edge = "white" if dark else "0.35"
            ax.add_patch(Rectangle((j - 0.5, i - 0.5), 1, 1, fill=False, hatch=PARTIAL_HATCH, lw=0, edgecolor=edge))
        ax.text(j, i, f"{value:.2f}", ha="center", va="center", fontsize=CELL_FONT_SIZE,
                color="white" if dark else "black",
                bbox={"boxstyle": "square,pad=0.05", "facecolor": colour, "edgecolor": "none"})  # fmt: skip
    ax.set_xticks(np.arange(values.shape[1] + 1) - 0.5, minor=True)
    ax.set_yticks(np.arange(values.shape[0] + 1) - 0.5, minor=True)
    ax.grid(which="minor", color="white", linewidth=1)
    ax.tick_params(which="minor", length=0)
    ax.tick_params(which="major", length=0)
    for spine in ax.spines.values():
        spine.set_visible(False)
    return image


def _note(fig: Figure, text: str) -> None:
    """The marking's explanation under a heatmap: a hatched key and ``text``."""
    fig.legend([_hatch_key()], [text], loc="outside lower center", frameon=False)


@styled
def termpair_heatmap_figure(rows: pd.DataFrame, measure: str = "AUC") -> Figure:
    """The figure of :func:`plot_termpair_heatmap` from its selected ``rows`` (not empty; ``dataset``
    ``termpairs/<terminology>/<dataset>``).

    One panel per terminology (sorted; five to a row), each datasets (rows, in
    :data:`biosem.termpairs.DATASETS` order, those scored in some panel) × models (columns, sorted): the
    score in colour (0 to 1, white at 0.5: chance) and written in its cell; cells on partial coverage
    hatched; a dataset a terminology has no pairs for grey. Dataset names on the first panel of each row,
    model names under the last row of panels.
    """
    parts = rows["dataset"].str.split("/", n=2)
    rows = rows.assign(terminology=parts.str[1], name=parts.str[2])
    terminologies = sorted(rows["terminology"].unique())
    names = set(rows["name"])
    datasets = [d for d in TERMPAIR_DATASETS if d in names] + sorted(names - set(TERMPAIR_DATASETS))
    models = sorted(rows["model"].unique())
    ncols = min(5, len(terminologies))
    nrows = math.ceil(len(terminologies) / ncols)
    height = min(MAX_HEIGHT, nrows * (0.165 * len(datasets) + 0.35) + 0.12 * max(len(m) for m in models) + 1.0)
    fig = Figure(figsize=(FIGURE_WIDTH, height), layout="constrained")
    fig.get_layout_engine().set(w_pad=0.02, h_pad=0.02, wspace=0.02, hspace=0.02)
    axes = fig.subplots(nrows, ncols, squeeze=False, sharex=True, sharey=True)
    norm = Normalize(vmin=0.0, vmax=1.0)
    image = None
    for ax, terminology in zip(axes.flat, terminologies):
        sub = rows[rows["terminology"] == terminology]
        table = sub.pivot_table(index="name", columns="model", values=["value", "coverage"], aggfunc="first")
        values = table["value"].reindex(index=datasets, columns=models).to_numpy(dtype=float)
        coverage = table["coverage"].reindex(index=datasets, columns=models).to_numpy(dtype=float)
        image = heatmap(ax, values, coverage, norm, "RdBu")
        ax.set_title(terminology, fontsize=10)
    for ax in axes.flat:
        ax.set_xticks(np.arange(len(models)), models, rotation=90)
        ax.set_yticks(np.arange(len(datasets)), datasets, fontsize=8)
    for ax in list(axes.flat)[len(terminologies) :]:
        ax.axis("off")
    fig.colorbar(image, ax=axes, shrink=0.5, aspect=30, pad=0.01, label=measure)
    fig.suptitle(f"Term pairs: {measure} per dataset (rows) and model (columns), one panel per terminology")
    _note(fig, CELL_NOTE)
    return fig


def plot_termpair_heatmap(results: pd.DataFrame, path: str | os.PathLike[str], similarity: str = "avg_cos") -> int:
    """The term-pair scores as a heatmap (:func:`termpair_heatmap_figure`): ``<similarity>:auc`` of every
    model on every term-pair dataset (subset ``all``; ``dataset`` ``termpairs/<terminology>/<dataset>``).
    Returns the number of terminologies (panels; 0: an empty placeholder figure is written)."""
    rows = results[
        (results["metric"] == f"{similarity}:auc")
        & (results["subset"] == "all")
        & results["dataset"].str.startswith("termpairs/")
    ]
    _write(rows, lambda: termpair_heatmap_figure(rows, f"AUC ({similarity})"), path, "no term-pair results")
    return rows["dataset"].str.split("/").str[1].nunique()


@styled
def relation_heatmap_figure(rows: pd.DataFrame, measure: str = "MAP") -> Figure:
    """The figure of :func:`plot_relation_map` from its selected ``rows`` (not empty; ``dataset``
    ``analogies/<terminology>/<setting>``, ``subset`` the relation, ``metric`` ``<method>:<measure>``).

    One heatmap: a row per terminology and relation (``<terminology>: <relation>``, sorted; a line between
    terminologies), a column per model and method (sorted by method, then model; models named below,
    methods above, a line between methods); ``measure`` in colour (0 to its largest value) and written in
    each cell; cells on partial coverage hatched; a relation a model has no score for grey.
    """
    rows = rows.assign(
        terminology=rows["dataset"].str.split("/").str[1],
        method=rows["metric"].str.split(":").str[0],
    )
    keys = sorted(set(zip(rows["terminology"], rows["subset"])))
    columns = sorted(set(zip(rows["method"], rows["model"])))
    table = rows.pivot_table(
        index=["terminology", "subset"], columns=["method", "model"], values=["value", "coverage"], aggfunc="first"
    )
    values = table["value"].reindex(index=keys, columns=columns).to_numpy(dtype=float)
    coverage = table["coverage"].reindex(index=keys, columns=columns).to_numpy(dtype=float)
    height = min(MAX_HEIGHT, 0.19 * len(keys) + 0.07 * max(len(m) for _, m in columns) + 1.5)
    fig = Figure(figsize=(FIGURE_WIDTH, height), layout="constrained")
    ax = fig.subplots()
    vmax = max(float(np.nanmax(values)), 1e-9)
    image = heatmap(ax, values, coverage, Normalize(vmin=0.0, vmax=vmax), "viridis")
    ax.set_yticks(np.arange(len(keys)), [f"{t}: {r}" for t, r in keys], fontsize=8)
    ax.set_xticks(np.arange(len(columns)), [model for _, model in columns], rotation=45, ha="right")
    methods = [d for d, _ in columns]
    groups = list(dict.fromkeys(methods))
    centres = [float(np.mean([j for j, d in enumerate(methods) if d == g])) for g in groups]
    top = ax.secondary_xaxis("top")
    top.set_xticks(centres, groups)
    top.tick_params(length=0)
    terminologies = [t for t, _ in keys]
    for i in range(1, len(keys)):
        if terminologies[i] != terminologies[i - 1]:
            ax.axhline(i - 0.5, color="black", linewidth=1.2)
    for j in range(1, len(columns)):
        if methods[j] != methods[j - 1]:
            ax.axvline(j - 0.5, color="black", linewidth=1.2)
    fig.colorbar(image, ax=ax, shrink=0.6, aspect=30, pad=0.01, label=measure)
    fig.suptitle(f"Analogies ({ANALOGY_SETTING}): {measure} per relation (rows), method and model (columns)")
    _note(fig, CELL_NOTE)
    return fig


def plot_relation_map(
    results: pd.DataFrame, path: str | os.PathLike[str], measure: str = "MAP", setting: str = ANALOGY_SETTING
) -> int:
    """Per-relation ``measure`` of every analogy method and model on the ``setting`` dataset of each
    terminology that has scores (terminologies whose analogies no model covers are left out), as a
    heatmap with cells on partial coverage hatched (:func:`relation_heatmap_figure`). Returns the
    number of terminologies (0: an empty placeholder figure is written)."""
    rows = results[
        results["metric"].str.endswith(f":{measure}")
        & results["dataset"].str.startswith("analogies/")
        & results["dataset"].str.endswith(f"/{setting}")
    ]
    rows = rows[~rows["subset"].isin(["macro", "all"]) & rows["value"].notna()]
    _write(rows, lambda: relation_heatmap_figure(rows, measure), path, "no analogy results")
    return rows["dataset"].nunique()


# --- frequency bands -----------------------------------------------------------------------------


@styled
def frequency_bands_figure(rows: pd.DataFrame) -> Figure:
    """The figure of :func:`plot_frequency_bands` from its selected band ``rows`` (not empty).

    One panel per dataset (four to a row), a line per model; a point scored on partial coverage is
    hollow. The corpus the band counts come from (the rows' ``corpus``) is named under the title when
    every dataset shares it, else in each panel's title.
    """
    datasets = sorted(rows["dataset"].unique())
    ncols = min(4, len(datasets))
    nrows = math.ceil(len(datasets) / ncols)
    fig = Figure(figsize=(FIGURE_WIDTH, min(MAX_HEIGHT, 2.7 * nrows + 1.4)), layout="constrained")
    axes = fig.subplots(nrows, ncols, squeeze=False)
    band_order = sorted(rows["subset"].unique(), key=_band_key)
    corpora = {d: ", ".join(sorted(rows.loc[rows["dataset"] == d, "corpus"].dropna().unique())) for d in datasets}
    shared = len(set(corpora.values())) == 1
    models = sorted(rows["model"].unique())
    colours = {model: colormaps["tab10"](k % 10) for k, model in enumerate(models)}
    for ax, dataset in zip(axes.flat, datasets):
        sub = rows[rows["dataset"] == dataset]
        for model in sorted(sub["model"].unique()):
            s = sub[sub["model"] == model].set_index("subset").reindex(band_order)
            values = s["value"].to_numpy(dtype=float)
            partial = partial_coverage(s["coverage"].to_numpy(dtype=float))
            xs = np.arange(len(band_order))
            ax.plot(xs, values, color=colours[model], label=model)
            ax.plot(xs[~partial], values[~partial], "o", color=colours[model])
            ax.plot(xs[partial], values[partial], "o", color=colours[model], markerfacecolor="none")
        ax.set_xticks(range(len(band_order)), [_band_label(b) for b in band_order])
        ax.set_xlim(-0.3, len(band_order) - 0.7)
        title = dataset if shared else f"{dataset}\n(counts: {corpora[dataset] or 'unknown'})"
        ax.set_title(title, fontsize=10)
        ax.grid(alpha=0.3)
    for ax in axes[:, 0]:
        ax.set_ylabel("Spearman's rho")
    for ax in list(axes.flat)[len(datasets) :]:
        ax.axis("off")
    heading = "Spearman's rho on the pairs whose two words fall in one corpus-frequency band"
    if shared:
        heading += "\n" + textwrap.fill(f"counts: {next(iter(corpora.values())) or 'unknown'}", 120)
    fig.suptitle(heading, fontsize=11)
    hollow = Line2D([], [], marker="o", color="0.3", markerfacecolor="none", linestyle="none")
    lines = [Line2D([], [], color=colours[m], marker="o") for m in models]
    keys, labels = [*lines, hollow], [*models, POINT_NOTE]
    fig.legend(keys, labels, loc="outside lower center", ncols=len(labels), frameon=False)
    return fig


def plot_frequency_bands(results: pd.DataFrame, path: str | os.PathLike[str], metric: str = "cosine:spearman") -> int:
    """Spearman per corpus-frequency band (x) per model, one panel per dataset; returns #panels.

    Bands are the ``subset`` values ``band:<lo>-<hi>`` written by :mod:`biosem.evaluate.rated`
    (Bio-SimLex paper, Figures 1-2); points on partial coverage are hollow and the plot names the
    corpus of the band counts (:func:`frequency_bands_figure`).
    """
    rows = results[(results["metric"] == metric) & results["subset"].str.startswith("band:")]
    rows = rows[rows["value"].notna()]
    _write(rows, lambda: frequency_bands_figure(rows), path, "no frequency-band results")
    return rows["dataset"].nunique()


def _band_label(subset: str) -> str:
    """A band's tick label: ``band:100-1000`` -> ``100-1k``, ``band:1000+`` -> ``1k+`` (short enough for
    four bands side by side)."""
    return re.sub(r"\d+", lambda m: _compact(int(m.group())), subset.removeprefix("band:"))


def _compact(n: int) -> str:
    for size, suffix in ((1_000_000, "M"), (1000, "k")):
        if n >= size and n % size == 0:
            return f"{n // size}{suffix}"
    return str(n)


def _band_key(label: str) -> float:
    lo = label.removeprefix("band:").split("-")[0].rstrip("+")
    try:
        return float(lo)
    except ValueError:
        return math.inf
