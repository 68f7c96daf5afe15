"""Plots of the datasets themselves for the Snakemake report (matplotlib figures drawn without pyplot,
so no GUI backend or global state is involved).

Each family has a data function (a small table with the counts a plot draws; tested against its
input) and a figure function drawing that table. Figures carry no time stamp, so a rerun writes the
same PNG bytes.

* term pairs: pairs per dataset, and the Levenshtein distances of the positives, the random negatives
  and the Levenshtein-nearest negatives (Schulz & Juric, AAAI 2020, Figure 2 and § "Negative
  examples": random negatives are far apart, nearest-term ones as close as the positives);
* WiC: instances per split, group (``cat``) and label (Rouhizadeh et al. 2024, Table 2);
* analogies: kept relations with their one-to-one instances and Amb, beside BMASS's Table 2
  (Newman-Griffis et al. 2017);
* simlex: the vocabulary's corpus-vs-general-English frequency ratio and its domain split per part of
  speech (Chiu et al. 2018, § 3).

Every figure of the report (these and :mod:`biosem.evaluate.plots`) fits the report's panel: Snakemake's
report shows an image in the panel beside its menu, scaled down to the panel's width (816 to 1,000 pixels
in a 1600 × 900 window, as wide as the menu's labels leave it) and centred in a panel of the window's
height. Figures are :data:`FIGURE_WIDTH` inches wide at :data:`DPI` (1,000 pixels: shown at their size or
slightly smaller, text at :data:`STYLE`'s 9-12 points, cell values at 8) and at most :data:`MAX_HEIGHT`
inches high.
"""

from __future__ import annotations

import os
from collections.abc import Mapping

import matplotlib
import numpy as np
import pandas as pd
from matplotlib.figure import Figure
from matplotlib.ticker import EngFormatter, StrMethodFormatter

from biosem.analogies.construct import STATUS_KEPT
from biosem.analogies.summary import BMASS
from biosem.io import atomic_path
from biosem.termpairs import DATASETS as TERMPAIR_DATASETS

FIGURE_WIDTH = 10.0
"""Width of every report figure in inches (at :data:`DPI`: 1,000 pixels, the report's widest panel at 1600 × 900)."""
MAX_HEIGHT = 8.4
"""Height of the tallest report figure in inches (840 pixels: the report's panel in a 900-pixel window)."""
DPI = 100
STYLE = {
    "font.size": 10,
    "axes.titlesize": 11,
    "axes.labelsize": 10,
    "xtick.labelsize": 9,
    "ytick.labelsize": 9,
    "legend.fontsize": 9,
    "figure.titlesize": 12,
    "figure.labelsize": 10,
    "hatch.linewidth": 0.6,
    "svg.hashsalt": "biosem",
}
"""Font sizes (points) of every report figure: set while a figure is drawn and while it is saved (tick
labels are made when the figure is drawn)."""
styled = matplotlib.rc_context(STYLE)
"""Decorator of the functions that draw a report figure (and of :func:`save_png`): :data:`STYLE` in force."""


def count_formatter() -> EngFormatter:
    """Tick labels of a log count axis with an SI prefix and no space (``1``, ``100``, ``10k``, ``1M``):
    the labels of neighbouring decades never overlap, as ``100,000`` and ``1,000,000`` did."""
    return EngFormatter(sep="")


LEVENSHTEIN_CAP = 60
"""Distances from this value up share the last bin of :func:`levenshtein_counts`."""

NEGATIVE_KINDS = ("random", "levenshtein")
LOG_RATIO_BIN = 0.25
"""Width of the log10 frequency-ratio bins of :func:`log_ratio_counts`."""

_COLOURS = {
    "positives": "#1b7837",
    "random": "#762a83",
    "levenshtein": "#e08214",
    1: "#1b7837",
    0: "#b2182b",
    "biomedical": "#2166ac",
    "general": "#e08214",
    "ambiguous": "#969696",
}
_DOMAINS = ("biomedical", "ambiguous", "general")


# --- term pairs ----------------------------------------------------------------------------------


def termpair_sizes(datasets: Mapping[str, pd.DataFrame]) -> pd.DataFrame:
    """Pairs per term-pair dataset.

    Args:
        datasets: dataset name (``<kind>_<easy|hard>_<random|levenshtein>``) -> its rows (a
            ``label`` column, 1 positive, 0 negative).

    Returns:
        Columns ``dataset, positives, negatives``, one row per dataset in
        :data:`biosem.termpairs.DATASETS` order (those given).
    """
    rows = [
        {
            "dataset": name,
            "positives": int((datasets[name]["label"] == 1).sum()),
            "negatives": int((datasets[name]["label"] == 0).sum()),
        }
        for name in TERMPAIR_DATASETS
        if name in datasets
    ]
    return pd.DataFrame(rows, columns=["dataset", "positives", "negatives"])


def levenshtein_counts(datasets: Mapping[str, pd.DataFrame], cap: int = LEVENSHTEIN_CAP) -> pd.DataFrame:
    """Levenshtein distance (lowercased terms, edits) of the positives and of both kinds of negatives.

    A positive pair is counted once per kind and difficulty (from the ``_random`` dataset; its
    ``_levenshtein`` twin holds the same positives); random negatives come from the ``_random``
    datasets, nearest-term negatives from the ``_levenshtein`` ones.

    Args:
        datasets: as :func:`termpair_sizes`, with a ``levenshtein`` column (int, ≥ 0).
        cap: distances ≥ ``cap`` are counted in the last row.

    Returns:
        Index ``distance`` 0..cap (the last meaning "cap or more"), columns ``positives, random,
        levenshtein`` (pair counts).
    """
    counts = {}
    kinds = (("positives", "random", 1), ("random", "random", 0), ("levenshtein", "levenshtein", 0))
    for column, strategy, label in kinds:
        parts = [
            frame.loc[frame["label"] == label, "levenshtein"].to_numpy(dtype=np.int64)
            for name, frame in datasets.items()
            if name.endswith(f"_{strategy}")
        ]
        values = np.concatenate(parts) if parts else np.zeros(0, dtype=np.int64)
        counts[column] = np.bincount(np.minimum(values, cap), minlength=cap + 1)
    return pd.DataFrame(counts, index=pd.RangeIndex(cap + 1, name="distance"))


@styled
def termpair_figure(terminology: str, sizes: pd.DataFrame, distances: pd.DataFrame) -> Figure:
    """Two panels: pairs per dataset (horizontal bars, log scale; an empty dataset has none) and the
    Levenshtein distance distributions (:func:`levenshtein_counts`) as step histograms."""
    fig = Figure(figsize=(FIGURE_WIDTH, 6.0), layout="constrained")
    left, right = fig.subplots(1, 2, gridspec_kw={"width_ratios": [1, 1.2]})
    y = np.arange(len(sizes))
    totals = (sizes["positives"] + sizes["negatives"]).to_numpy()
    hard = sizes["dataset"].str.contains("_hard_").to_numpy()
    left.barh(y, np.where(totals > 0, totals, np.nan), color=np.where(hard, "#2166ac", "#92c5de"))
    for i, total in enumerate(totals):
        left.text(max(total, 1), i, f" {total:,}", va="center", fontsize=9)
    left.set_xscale("log")
    left.set_xlim(1, max(10, totals.max() * 200))  # room for the largest count's label
    left.xaxis.set_major_formatter(count_formatter())
    left.set_yticks(y, sizes["dataset"])
    left.invert_yaxis()
    left.set_xlabel("pairs (half positives; log scale)")
    left.set_title("pairs per dataset (dark: hard, light: easy)", fontsize=10)
    x = distances.index.to_numpy()
    labels = {
        "positives": "positives",
        "random": "random negatives",
        "levenshtein": "Levenshtein-nearest negatives",
    }
    for column, label in labels.items():
        total = int(distances[column].sum())
        right.step(x, distances[column], where="mid", color=_COLOURS[column], label=f"{label} ({total:,})")
    right.set_xlabel(f"edits, lowercased (last bin: ≥ {x[-1]})")  # no wider than the axes
    right.set_ylabel("pairs")
    right.yaxis.set_major_formatter(StrMethodFormatter("{x:,.0f}"))
    right.set_title("Levenshtein distance, all datasets", fontsize=10)
    right.set_ylim(0, max(1, int(distances.to_numpy().max())) * 1.3)  # headroom for the legend
    right.legend(loc="upper right")
    right.grid(alpha=0.3)
    fig.suptitle(f"Term pairs of {terminology}")
    return fig


# --- WiC -----------------------------------------------------------------------------------------


def wic_composition(splits: Mapping[str, pd.DataFrame]) -> pd.DataFrame:
    """Instances per split, group and label.

    Args:
        splits: split name -> its instances (``cat`` group and ``label`` 1 same concept / 0 not).

    Returns:
        Columns ``split, cat, label, instances``: every (split, cat, label) of the groups found in
        any split (0 where a split has none), splits in the given order, groups and labels sorted.
    """
    cats = sorted({c for frame in splits.values() for c in frame["cat"].unique()})
    rows = []
    for split, frame in splits.items():
        found = frame.groupby(["cat", "label"]).size()
        for cat in cats:
            for label in (0, 1):
                rows.append({"split": split, "cat": cat, "label": label, "instances": int(found.get((cat, label), 0))})
    return pd.DataFrame(rows, columns=["split", "cat", "label", "instances"])


@styled
def wic_figure(composition: pd.DataFrame) -> Figure:
    """One panel per split: instances per group, label 1 and label 0 stacked, each bar annotated with
    both counts (label 0 above label 1, as stacked)."""
    splits = list(dict.fromkeys(composition["split"]))
    fig = Figure(figsize=(FIGURE_WIDTH, 4.8), layout="constrained")
    axes = fig.subplots(1, len(splits), squeeze=False)
    for ax, split in zip(axes[0], splits):
        part = composition[composition["split"] == split]
        cats = list(dict.fromkeys(part["cat"]))
        same = part[part["label"] == 1].set_index("cat").reindex(cats)["instances"].to_numpy()
        other = part[part["label"] == 0].set_index("cat").reindex(cats)["instances"].to_numpy()
        x = np.arange(len(cats))
        ax.bar(x, same, color=_COLOURS[1], label="label 1, same concept (lower number)")
        ax.bar(x, other, bottom=same, color=_COLOURS[0], label="label 0 (upper number)")
        for i, (s, o) in enumerate(zip(same, other)):  # numbers stacked as the bars are
            ax.text(i, s + o, f"{o:,}\n{s:,}", ha="center", va="bottom", fontsize=9, linespacing=1.1)
        ax.set_xticks(x, [c.replace("_", "\n") for c in cats])
        ax.set_title(f"{split}: {int(same.sum() + other.sum()):,} instances")
        ax.margins(y=0.18)
        ax.yaxis.set_major_formatter(StrMethodFormatter("{x:,.0f}"))
    axes[0][0].set_ylabel("instances")
    handles, labels = axes[0][0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="outside upper center", ncols=2, frameon=False)
    return fig


# --- analogies -----------------------------------------------------------------------------------


def analogy_relations(relations: pd.DataFrame) -> pd.DataFrame:
    """The kept relations of every terminology, then the paper's, with their instances and Amb.

    Args:
        relations: ``relations.tsv`` of ``summarise_analogies`` (``terminology, relation, status,
            one_to_one, amb``; the paper's rows have terminology :data:`biosem.analogies.summary.BMASS`,
            status ``kept`` and no ``one_to_one``).

    Returns:
        Columns ``terminology, relation, one_to_one, amb``: the terminologies' rows with status
        ``kept``, in file order, then the paper's rows (each once) (``one_to_one`` NaN: the paper does not give it).
    """
    paper = relations["terminology"] == BMASS
    kept = relations[(relations["status"] == STATUS_KEPT) & ~paper]
    paper = relations[paper]
    out = pd.concat([kept, paper], ignore_index=True)[["terminology", "relation", "one_to_one", "amb"]]
    out["one_to_one"] = pd.to_numeric(out["one_to_one"], errors="coerce")
    out["amb"] = pd.to_numeric(out["amb"], errors="coerce")
    out.loc[out["terminology"] == BMASS, "one_to_one"] = np.nan
    return out


@styled
def analogies_figure(relations: pd.DataFrame) -> Figure:
    """Three panels: the terminologies' kept relations with their one-to-one instances (log scale) and
    their Amb, and the Amb of the paper's relations (BMASS 2017, Table 2) on the same Amb axis, its mean a
    dashed line in both Amb panels. Rows in the order of ``relations`` (:func:`analogy_relations`)."""
    paper = (relations["terminology"] == BMASS).to_numpy()
    ours, theirs = relations[~paper], relations[paper]
    rows = max(len(ours), len(theirs), 1)
    fig = Figure(figsize=(FIGURE_WIDTH, min(MAX_HEIGHT, max(3.5, 0.2 * rows + 1.4))), layout="constrained")
    counts, amb, bmass = fig.subplots(1, 3, gridspec_kw={"width_ratios": [1, 0.6, 1.9]})
    amb.sharey(counts)
    amb.sharex(bmass)
    size = 9 if rows <= 40 else 7
    y = np.arange(len(ours))
    counts.barh(y, ours["one_to_one"].fillna(0), color="#2166ac")
    counts.set_xscale("log")
    counts.xaxis.set_major_formatter(count_formatter())
    counts.set_yticks(y, [f"{t}: {r}" for t, r in zip(ours["terminology"], ours["relation"])], fontsize=size)
    counts.set_ylim(len(ours) - 0.5, -0.5)
    counts.set_xlabel("one-to-one instances (log)")
    counts.set_title("kept relations", fontsize=10)
    amb.barh(y, ours["amb"].fillna(0), color="#2166ac")
    amb.tick_params(labelleft=False)
    amb.set_xlabel("Amb")
    amb.set_title("their Amb", fontsize=10)
    z = np.arange(len(theirs))
    values = theirs["amb"].fillna(0).to_numpy(dtype=float)
    bmass.barh(z, values, color="#bababa")
    bmass.set_yticks(z, [])  # the names are written beside (or in) their bars: the panel keeps its width
    bmass.set_ylim(max(len(theirs), len(ours)) - 0.5, -0.5)
    bmass.set_xlim(0, max(1.0, float(np.nanmax(np.r_[values, ours["amb"].to_numpy(dtype=float), 0]))) * 1.05)
    inside = values > 0.5 * bmass.get_xlim()[1]
    for i, (name, value) in enumerate(zip(theirs["relation"], values)):
        x, ha = (value - 0.1, "right") if inside[i] else (value + 0.1, "left")
        box = None if inside[i] else {"facecolor": "white", "edgecolor": "none", "pad": 0.3}  # over the mean line
        colour = "white" if inside[i] else "black"
        bmass.text(x, i, name, ha=ha, va="center", fontsize=size, color=colour, bbox=box, zorder=3)
    bmass.set_xlabel("Amb")
    bmass.set_title("BMASS's relations (Table 2)", fontsize=10)
    if len(theirs):
        mean = float(theirs["amb"].mean())
        for ax in (amb, bmass):
            ax.axvline(mean, color="k", ls="--", lw=1, label=f"BMASS mean Amb {mean:.2f}")
        bmass.legend(loc="lower right")
    fig.suptitle("Analogy relations: one-to-one instances and Amb (mean valid answers per Multi-Answer analogy)")
    return fig


# --- simlex --------------------------------------------------------------------------------------


def domain_counts(domains: pd.DataFrame) -> pd.DataFrame:
    """Lemmas per part of speech and final domain.

    Args:
        domains: the ``word_domains`` intermediate (``pos``, ``domain``).

    Returns:
        Index ``pos`` (sorted), columns ``biomedical, ambiguous, general`` (lemma counts; other
        domains found are appended, sorted).
    """
    table = pd.crosstab(domains["pos"], domains["domain"]).sort_index()
    extra = sorted(set(table.columns) - set(_DOMAINS))
    return table.reindex(columns=[*_DOMAINS, *extra], fill_value=0).astype(np.int64)


def log_ratio_counts(domains: pd.DataFrame, width: float = LOG_RATIO_BIN) -> pd.DataFrame:
    """Lemmas per bin of ``log_ratio`` (log10 of corpus over general-English frequency per million)
    and final domain.

    Returns:
        Index ``bin_start`` (multiples of ``width`` covering every value; a bin holds
        ``bin_start <= log_ratio < bin_start + width``), columns as :func:`domain_counts`.
    """
    values = domains["log_ratio"].to_numpy(dtype=float)
    if len(values) == 0:
        return pd.DataFrame(columns=list(_DOMAINS), index=pd.Index([], name="bin_start"), dtype=np.int64)
    first = np.floor(values.min() / width)
    bins = (np.floor(values / width) - first).astype(np.int64)
    starts = (np.arange(bins.max() + 1) + first) * width
    table = pd.crosstab(bins, domains["domain"].to_numpy()).reindex(range(len(starts)), fill_value=0)
    extra = sorted(set(table.columns) - set(_DOMAINS))
    table = table.reindex(columns=[*_DOMAINS, *extra], fill_value=0).astype(np.int64)
    table.index = pd.Index(np.round(starts, 6), name="bin_start")
    table.columns.name = None
    return table


@styled
def simlex_figure(ratios: pd.DataFrame, counts: pd.DataFrame, width: float = LOG_RATIO_BIN) -> Figure:
    """Two panels: the log frequency ratio per domain (stacked histogram) and lemmas per part of
    speech and domain (stacked bars, annotated)."""
    fig = Figure(figsize=(FIGURE_WIDTH, 4.6), layout="constrained")
    left, right = fig.subplots(1, 2, gridspec_kw={"width_ratios": [1.6, 1]})
    bottom = np.zeros(len(ratios))
    for domain in ratios.columns:
        left.bar(
            ratios.index, ratios[domain], width=width, bottom=bottom, align="edge",
            color=_COLOURS.get(domain, "#4d4d4d"), label=f"{domain} ({int(ratios[domain].sum()):,})",
        )  # fmt: skip
        bottom = bottom + ratios[domain].to_numpy()
    left.set_ylim(0, max(1.0, bottom.max()) * 1.08)
    left.yaxis.set_major_formatter(StrMethodFormatter("{x:,.0f}"))
    left.set_xlabel("log10(corpus per million / general English per million)")
    left.set_ylabel("lemmas")
    left.set_title("vocabulary: corpus vs general-English frequency")
    left.legend()
    x = np.arange(len(counts))
    bottom = np.zeros(len(counts))
    for domain in counts.columns:
        right.bar(x, counts[domain], bottom=bottom, color=_COLOURS.get(domain, "#4d4d4d"), label=domain)
        for i, (b, v) in enumerate(zip(bottom, counts[domain])):
            if v:
                right.text(i, b + v / 2, f"{v:,}", ha="center", va="center", fontsize=9, color="white")
        bottom = bottom + counts[domain].to_numpy()
    right.set_xticks(x, counts.index)
    right.set_ylabel("lemmas")
    right.yaxis.set_major_formatter(StrMethodFormatter("{x:,.0f}"))
    right.set_title("vocabulary: domain per part of speech")
    return fig


@styled
def save_png(fig: Figure, path: str | os.PathLike[str]) -> None:
    """Write ``fig`` as a PNG (:data:`DPI`, no time stamp) atomically."""
    with atomic_path(path) as tmp:
        fig.savefig(tmp, format="png", dpi=DPI, metadata={"Software": None})
