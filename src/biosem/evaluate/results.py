"""The tidy results table (its report plots: :mod:`biosem.evaluate.plots`).

One row per (model, model_b, dataset, subset, metric): ``value`` (the score), ``n`` (items the score
is computed on), ``coverage`` (fraction of the dataset's items the model could represent), a
confidence interval (``ci_low``, ``ci_high``; null where none is computed) and ``corpus`` (the corpus
whose token counts define a frequency band, e.g. ``bc5cdr+ncbi_disease``; null on other rows).
``model_b`` is null except on rows comparing two models (McNemar's test: ``model`` < ``model_b``).
``metric`` is ``"<scorer>:<measure>"``, e.g. ``cosine:spearman``, ``avg_cos:auc``, ``3CosMul:MAP``,
``context_cosine:accuracy``. Rows are sorted by (model, model_b, dataset, subset, metric), nulls last
(Arrow and pandas alike).
"""

from __future__ import annotations

import math
import os
from collections.abc import Iterable, Mapping, Sequence

import numpy as np
import pandas as pd
import pyarrow as pa

from biosem.io import TableSpec, write_table, write_text

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
# The report plots of this table are in biosem.evaluate.plots.
