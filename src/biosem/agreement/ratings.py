"""Ratings -> rated dataset: bias correction, rater exclusion, IAA-1/IAA-2, mean score and SD.

The ratings step of Bio-SimLex / Bio-SimVerb (Chiu et al. 2018), following SimLex-999 (Hill et al.
2015 § 3.3) and SimVerb-3500 (Gerz et al. 2016); docs/design.md § simlex "Ratings".

Inputs (both become a :class:`RatingMatrix`, items x raters, NaN = not rated):

* **long format** (CSV, or TSV for ``.tsv``/``.txt``): one rating per row, columns ``rater, word1,
  word2, rating`` and optionally ``group`` (the survey group of the rater) and ``role`` (the item's
  role in the survey; ``consistency`` marks the consistency set). A rater rating the same pair more
  than once (the survey's duplicates) gives a *repeat*: the matrix holds the mean of the repeats,
  and the repeats measure that rater's consistency. Optional ``item_id`` and ``dont_know`` columns
  (:func:`parse_long_ratings`) make the export of a survey form (:mod:`biosem.agreement.forms`) a
  long-format file; several exports are read and checked against the survey design by
  :func:`biosem.agreement.forms.read_survey_exports`.
* **SimVerb wide matrix** (``SimVerb-3520-annotator-ratings.csv``): no header; ``word1,word2`` then
  one column per annotator; ``-1`` = not rated, otherwise an integer rating 0-6. Rows are pairs
  (the words are in the row), columns annotators (named ``annotator_001`` ... by position).

Steps of :func:`aggregate_ratings` (each configurable, config ``agreement.ratings.<name>``):

0. **Too few items**: a rater with fewer than ``min_items`` ratings (distinct items) is excluded
   before anything else (a one-item rater has no defined IAA-1, so step 3 could never drop it).
1. **Consistency set**, as the design marks it (``consistency``): ``role``, the items with role
   ``consistency`` in the long format (none without a role column, none in the wide matrix);
   ``rated_by_all``, the items every remaining rater rated (SimVerb-3500: its 20 consistency pairs,
   rated by all 702 annotators), an error when that is every item (a fully crossed design has no
   consistency set to tell apart). Never "all items" by default.
2. **Bias correction** (SimLex-999): each rater's mean on the consistency set is compared with the
   mean of those means; a rater more than ``bias_threshold`` above (below) it has ``bias_shift``
   subtracted from (added to) every rating, clipped to the scale.
3. **Exclusion** (SimLex-999): raters whose IAA-1 (mean Spearman with the other raters, on the
   bias-corrected ratings) lies more than ``exclusion_sd`` sample standard deviations below the
   mean of all raters' IAA-1, plus any rater listed in ``exclude_raters`` (failed checkpoints).
   One pass, not iterated.
4. **Agreement** (:mod:`biosem.agreement.statistics`): IAA-1, IAA-2 and Krippendorff's alpha, on the raw
   ratings of all raters left after step 0, after bias correction, and on the final raters; overall and per group.
5. **Dataset**: per item the mean and SD (ddof 1) of the final raters' bias-corrected ratings,
   the mean rescaled linearly from ``scale`` (0-6) to ``rescale_to`` (0-10). Consistency items
   are left out unless ``include_consistency`` (SimVerb-3500 publishes 3,500 of its 3,520 rows).
   An empty dataset is an error naming the ratings file and why, unless ``allow_empty``.
"""

from __future__ import annotations

import contextlib
import io
import logging
import warnings
import zipfile
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pyarrow as pa

from biosem.agreement.statistics import (
    columnwise_spearman,
    iaa_leave_one_out,
    krippendorff_alpha,
    pairwise_spearman,
    shared_counts,
    summarise_pairwise,
)
from biosem.errors import EmptyDatasetError, SourceFormatError
from biosem.io import TableSpec

log = logging.getLogger(__name__)

LONG_COLUMNS = ("rater", "word1", "word2", "rating")
ALL_GROUP = "all"
CONSISTENCY_SETS = ("role", "rated_by_all")

RATED_DATASET = TableSpec(
    "rated_dataset",
    pa.schema(
        [
            pa.field("word1", pa.string(), nullable=False),
            pa.field("word2", pa.string(), nullable=False),
            pa.field("score", pa.float64(), nullable=False),  # mean rating rescaled to rescale_to (0-10)
            pa.field("sd", pa.float64(), nullable=True),  # SD of the ratings on the score's scale
            pa.field("n_ratings", pa.int64(), nullable=False),
            pa.field("mean_raw", pa.float64(), nullable=False),  # mean rating on the rating scale (0-6)
            pa.field("sd_raw", pa.float64(), nullable=True),  # SD (ddof 1) on the rating scale
        ]
    ),
    (),  # rows keep the item order of the ratings (SimVerb matrix row order; long format sorted pairs)
)

AGREEMENT_COLUMNS = [
    "stage",
    "group",
    "metric",
    "value",
    "n_raters",
    "n_items",
    "n_counted",
    "n_undefined",
    "n_below_min_shared",
    "min_shared",
    "undefined",
    "definition",
]

RATER_COLUMNS = [
    "rater",
    "group",
    "n_ratings",
    "consistency_mean",
    "bias_shift",
    "iaa1_raw",
    "iaa1",
    "iaa2",
    "excluded",
    "exclusion_reason",
    "n_repeats",
    "repeat_spearman",
    "repeat_mean_abs_diff",
]


@dataclass(frozen=True)
class RatingMatrix:
    """Ratings as an items x raters matrix.

    Attributes:
        items: one row per matrix row: ``word1``, ``word2``, ``consistency`` (bool: the item has role
            ``consistency`` in the long format; always False in the wide matrix, which has no roles).
        values: float64 (n_items, n_raters), NaN = not rated; the rating scale of the source.
        raters: one row per matrix column: ``rater`` (str), ``group`` (str, ``"all"`` if none).
        repeats: every rating of a (rater, pair) rated more than once, in file order: ``rater,
            word1, word2, occurrence`` (0-based), ``rating``. Empty for the SimVerb matrix.
        source: where the ratings were read from (``file`` or ``archive.zip:member``), for messages.
    """

    items: pd.DataFrame
    values: np.ndarray
    raters: pd.DataFrame
    repeats: pd.DataFrame = field(
        default_factory=lambda: pd.DataFrame(columns=["rater", "word1", "word2", "occurrence", "rating"])
    )
    source: str = "ratings"


@dataclass(frozen=True)
class RatingParams:
    """Parameters of :func:`aggregate_ratings` (config ``agreement.ratings.<name>``)."""

    scale: tuple[float, float] = (0.0, 6.0)
    rescale_to: tuple[float, float] = (0.0, 10.0)
    min_shared: int = 10
    undefined: str = "skip"
    min_items: int = 10
    consistency: str = "role"
    bias_threshold: float | None = 1.0
    bias_shift: float = 1.0
    exclusion_sd: float | None = 1.0
    exclude_raters: tuple[str, ...] = ()
    include_consistency: bool = False
    alpha_levels: tuple[str, ...] = ("interval", "ordinal")
    allow_empty: bool = False


@dataclass(frozen=True)
class RatingsResult:
    """Output of :func:`aggregate_ratings`: the dataset (:data:`RATED_DATASET` columns), the agreement
    table (:data:`AGREEMENT_COLUMNS`), the per-rater table (:data:`RATER_COLUMNS`) and counts."""

    dataset: pd.DataFrame
    agreement: pd.DataFrame
    raters: pd.DataFrame
    counts: dict[str, int]


# --------------------------------------------------------------------------------------------------
# Readers
# --------------------------------------------------------------------------------------------------
def read_member(path: str | Path, member: str | None) -> str:
    """Text of ``path``, or of ``member`` inside the zip archive ``path``."""
    path = Path(path)
    if member is None:
        return path.read_text(encoding="utf-8")
    with zipfile.ZipFile(path) as archive:
        names = archive.namelist()
        if member not in names:
            raise SourceFormatError(path, None, f"zip member {member!r}", ", ".join(names))
        return archive.read(member).decode("utf-8")


def parse_wide_matrix(
    text: str, path: str | Path, missing: float = -1, scale: tuple[float, float] = (0.0, 6.0)
) -> RatingMatrix:
    """Parse the SimVerb wide annotator matrix (see the module docstring).

    Args:
        text: the CSV text (no header; ``word1,word2,r_1,...,r_K`` per line).
        path: for error messages (``archive.zip:member`` or the file).
        missing: the "not rated" code (SimVerb: -1).
        scale: inclusive rating range (SimVerb: 0-6).

    Raises:
        SourceFormatError: a line with another number of fields than the first, an empty word, a
            rating that is not a number, or a rating outside ``scale`` other than ``missing``; the
            error names the 1-based line. A pair on two rows names the second copy's line (and
            found text) and, in ``expected``, the first copy's line.
    """
    lines = text.splitlines()
    if not lines:
        raise SourceFormatError(path, None, "a non-empty ratings matrix", "empty file")
    n_fields = np.array([line.count(",") + 1 for line in lines])
    bad = np.flatnonzero(n_fields != n_fields[0])
    if len(bad):
        i = int(bad[0])
        raise SourceFormatError(path, i + 1, f"{n_fields[0]} comma-separated fields", lines[i])
    if n_fields[0] < 3:
        raise SourceFormatError(path, 1, "word1,word2 and at least one rater column", lines[0])
    frame = pd.read_csv(io.StringIO(text), header=None, dtype={0: str, 1: str}, keep_default_na=False)
    words = frame.iloc[:, :2]
    empty = (words.apply(lambda c: c.str.strip()) == "").any(axis=1).to_numpy()
    if empty.any():
        i = int(np.flatnonzero(empty)[0])
        raise SourceFormatError(path, i + 1, "two non-empty words", lines[i])
    cells = frame.iloc[:, 2:]
    # Columns pandas could not read as numbers hold a bad cell; convert only those cell by cell.
    text_columns = [j for j, dtype in enumerate(cells.dtypes) if not pd.api.types.is_numeric_dtype(dtype)]
    values = np.empty(cells.shape, dtype=np.float64)
    for j in range(cells.shape[1]):
        column = cells.iloc[:, j]
        if j in text_columns:
            column = pd.to_numeric(column, errors="coerce")
        values[:, j] = column.to_numpy(dtype=np.float64, na_value=np.nan)
    not_number = np.isnan(values)
    outside = ~not_number & (values != missing) & ((values < scale[0]) | (values > scale[1]))
    wrong = (not_number | outside).any(axis=1)
    if wrong.any():
        i = int(np.flatnonzero(wrong)[0])
        j = int(np.flatnonzero((not_number | outside)[i])[0])
        raise SourceFormatError(
            path,
            i + 1,
            f"ratings in [{scale[0]:g}, {scale[1]:g}] or {missing:g} (not rated)",
            f"column {j + 3}: {str(cells.iat[i, j])!r}",
        )
    values[values == missing] = np.nan
    items = pd.DataFrame({"word1": words.iloc[:, 0].to_numpy(), "word2": words.iloc[:, 1].to_numpy()})
    repeat = items.duplicated(keep="first").to_numpy()
    if repeat.any():
        i = int(np.flatnonzero(repeat)[0])  # the first row that repeats an earlier one
        same = (items["word1"] == items.at[i, "word1"]) & (items["word2"] == items.at[i, "word2"])
        first = int(np.flatnonzero(same.to_numpy())[0])
        raise SourceFormatError(
            path, i + 1, f"each pair on one row only (this pair is also on line {first + 1})", lines[i]
        )
    items["consistency"] = False  # no roles in the matrix (see consistency_set)
    width = max(3, len(str(values.shape[1])))
    raters = pd.DataFrame(
        {
            "rater": [f"annotator_{j + 1:0{width}d}" for j in range(values.shape[1])],
            "group": ALL_GROUP,
        }
    )
    return RatingMatrix(items=items, values=values, raters=raters, source=str(path))


def read_wide_matrix(
    path: str | Path,
    member: str | None = None,
    missing: float = -1,
    scale: tuple[float, float] = (0.0, 6.0),
) -> RatingMatrix:
    """Read the SimVerb wide matrix from a file, or from ``member`` of a zip archive (see
    :func:`parse_wide_matrix`)."""
    where = f"{path}:{member}" if member else path
    return parse_wide_matrix(read_member(path, member), where, missing, scale)


def parse_long_ratings(
    frame: pd.DataFrame, path: str | Path, scale: tuple[float, float] = (0.0, 6.0), integer: bool = False
) -> pd.DataFrame:
    """Validate a long-format ratings table (all columns as strings, as read from CSV).

    ``integer``: ratings must be whole numbers (the survey forms and platforms rate on the integers
    of the scale, :data:`biosem.agreement.forms.SURVEY_EXPORT_COLUMNS`); a fractional rating is then an
    error, never rounded.

    Optional columns besides ``group`` and ``role``: ``item_id`` (the survey item: a rater rates
    each item once; a repeat of a pair is another item) and ``dont_know`` (``1``/``true`` = the
    rater chose "don't know": the rating must be empty and the row is no rating), as the survey
    forms export them (:data:`biosem.agreement.forms.SURVEY_EXPORT_COLUMNS`).

    Returns columns ``rater, word1, word2, rating`` (float), ``group``, ``role`` (``""`` if absent),
    in file order, without the "don't know" rows.

    Raises:
        SourceFormatError: a required column is missing (line 1), or a row (1-based line, header =
            line 1) has an empty rater/word, a rating that is not a number, lies outside ``scale`` or
            (with ``integer``) is not a whole number
            (or a rating beside "don't know", or a ``dont_know`` other than 0/1/true/false/empty), a
            rater appears in two groups, or a rater has an ``item_id`` twice.
    """
    missing = [c for c in LONG_COLUMNS if c not in frame.columns]
    if missing:
        raise SourceFormatError(path, 1, f"columns {', '.join(LONG_COLUMNS)}", ", ".join(map(str, frame.columns)))
    out = pd.DataFrame({c: frame[c].astype(str).str.strip() for c in LONG_COLUMNS})
    out["group"] = frame["group"].astype(str).str.strip() if "group" in frame.columns else ALL_GROUP
    out["role"] = frame["role"].astype(str).str.strip().str.lower() if "role" in frame.columns else ""
    for col in ("rater", "word1", "word2"):
        empty = (out[col] == "").to_numpy()
        if empty.any():
            i = int(np.flatnonzero(empty)[0])
            raise SourceFormatError(path, i + 2, f"a non-empty {col}", str(frame.iloc[i].to_dict()))
    empty_group = (out["group"] == "").to_numpy()
    out.loc[empty_group, "group"] = ALL_GROUP
    unsure = _dont_know_flags(frame, out, path)
    rating = pd.to_numeric(out["rating"], errors="coerce")
    outside = rating.isna() | (rating < scale[0]) | (rating > scale[1])
    if integer:
        outside |= rating != rating.round()
    bad = ~unsure & outside.to_numpy()
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        kind = "an integer rating" if integer else "a rating"
        raise SourceFormatError(path, i + 2, f"{kind} in [{scale[0]:g}, {scale[1]:g}]", out["rating"].iat[i])
    out["rating"] = rating.astype(np.float64)
    if "item_id" in frame.columns:
        twice = pd.DataFrame({"rater": out["rater"], "item": frame["item_id"].astype(str).str.strip()})
        again = twice.duplicated().to_numpy()
        if again.any():
            i = int(np.flatnonzero(again)[0])
            raise SourceFormatError(
                path, i + 2, f"item {twice['item'].iat[i]!r} once per rater", f"rater {out['rater'].iat[i]!r} again"
            )
    groups = out.groupby("rater", sort=True)["group"].nunique()
    if (groups > 1).any():
        rater = groups[groups > 1].index[0]
        i = int(np.flatnonzero((out["rater"] == rater).to_numpy())[0])
        raise SourceFormatError(
            path,
            i + 2,
            f"rater {rater!r} in one group only",
            ", ".join(sorted(out.loc[out["rater"] == rater, "group"].unique())),
        )
    return out[~unsure].reset_index(drop=True)


_TRUE, _FALSE = ("1", "true", "yes"), ("", "0", "false", "no")


def _dont_know_flags(frame: pd.DataFrame, out: pd.DataFrame, path: str | Path) -> np.ndarray:
    """Bool per row: the optional ``dont_know`` column is set (the rating must then be empty)."""
    if "dont_know" not in frame.columns:
        return np.zeros(len(frame), dtype=bool)
    flag = frame["dont_know"].astype(str).str.strip().str.lower()
    unknown = (~flag.isin(_TRUE + _FALSE)).to_numpy()
    if unknown.any():
        i = int(np.flatnonzero(unknown)[0])
        raise SourceFormatError(path, i + 2, "dont_know 0 or 1", flag.iat[i])
    unsure = flag.isin(_TRUE).to_numpy()
    rated = unsure & (out["rating"] != "").to_numpy()
    if rated.any():
        i = int(np.flatnonzero(rated)[0])
        raise SourceFormatError(path, i + 2, "an empty rating beside dont_know = 1", out["rating"].iat[i])
    return unsure


def read_long_ratings(path: str | Path, scale: tuple[float, float] = (0.0, 6.0)) -> RatingMatrix:
    """Read long-format ratings (CSV; TSV for ``.tsv``/``.txt``) into a :class:`RatingMatrix`.

    Items are sorted by (word1, word2), raters by id. Raises :class:`SourceFormatError` (see
    :func:`parse_long_ratings`).
    """
    path = Path(path)
    sep = "\t" if path.suffix.lower() in (".tsv", ".txt") else ","
    frame = pd.read_csv(path, sep=sep, dtype=str, keep_default_na=False)
    return long_to_matrix(parse_long_ratings(frame, path, scale), str(path))


def long_to_matrix(long: pd.DataFrame, source: str = "ratings") -> RatingMatrix:
    """Pivot validated long ratings (output of :func:`parse_long_ratings`) to a :class:`RatingMatrix`.

    Repeated (rater, pair) ratings are averaged in the matrix and listed in ``repeats``. An item is
    marked ``consistency`` when a row gives it role ``consistency`` (none without a role column).
    """
    items = long[["word1", "word2"]].drop_duplicates().sort_values(["word1", "word2"], kind="stable")
    items = items.reset_index(drop=True)
    raters = long[["rater", "group"]].drop_duplicates().sort_values("rater", kind="stable").reset_index(drop=True)
    item_index = pd.MultiIndex.from_frame(items)
    row = item_index.get_indexer(pd.MultiIndex.from_frame(long[["word1", "word2"]]))
    col = pd.Index(raters["rater"]).get_indexer(long["rater"])
    n_items, n_raters = len(items), len(raters)
    sums = np.zeros((n_items, n_raters))
    counts = np.zeros((n_items, n_raters))
    np.add.at(sums, (row, col), long["rating"].to_numpy())
    np.add.at(counts, (row, col), 1)
    with np.errstate(invalid="ignore"):
        values = np.where(counts > 0, sums / np.maximum(counts, 1), np.nan)
    key = long[["rater", "word1", "word2"]]
    repeated = key.duplicated(keep=False).to_numpy()
    repeats = long.loc[repeated, ["rater", "word1", "word2", "rating"]].copy()
    repeats.insert(3, "occurrence", repeats.groupby(["rater", "word1", "word2"], sort=False).cumcount())
    marked = long.loc[long["role"] == "consistency", ["word1", "word2"]].drop_duplicates()
    consistency = item_index.isin(pd.MultiIndex.from_frame(marked)) if len(marked) else np.zeros(n_items, bool)
    items["consistency"] = np.asarray(consistency, dtype=bool)
    return RatingMatrix(
        items=items, values=values, raters=raters, repeats=repeats.reset_index(drop=True), source=source
    )


def read_published(text: str) -> pd.DataFrame:
    """A published rated dataset (SimLex/SimVerb layout: ``word1<TAB>word2<TAB>[POS<TAB>]score...``,
    no header) as columns ``word1, word2, score``; the score is the first numeric column after the
    words."""
    frame = pd.read_csv(io.StringIO(text), sep="\t", header=None, dtype=str, keep_default_na=False)
    for col in frame.columns[2:]:
        score = pd.to_numeric(frame[col], errors="coerce")
        if score.notna().all():
            return pd.DataFrame({"word1": frame[0], "word2": frame[1], "score": score.astype(float)})
    raise ValueError("no numeric score column in the published dataset")


# --------------------------------------------------------------------------------------------------
# Steps
# --------------------------------------------------------------------------------------------------
def bias_correction(
    values: np.ndarray,
    consistency: np.ndarray,
    threshold: float = 1.0,
    shift: float = 1.0,
    scale: tuple[float, float] = (0.0, 6.0),
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """SimLex-999 bias correction (Hill et al. 2015 § 3.3).

    Each rater's mean rating on the consistency items is compared with the mean of those means
    (over raters who rated at least one consistency item); a rater more than ``threshold`` above it
    gets ``-shift`` on every rating, more than ``threshold`` below it ``+shift``; results are
    clipped to ``scale``.

    Args:
        values: float (n_items, n_raters), NaN = not rated, on the rating scale.
        consistency: bool (n_items,), the consistency set.

    Returns:
        (corrected values, shift per rater (float, 0 for unshifted or not assessable raters),
        consistency-set mean per rater (NaN when the rater rated none)).
    """
    means = consistency_means(values, consistency)
    if np.isnan(means).all():
        return values.copy(), np.zeros(values.shape[1]), means
    centre = float(np.nanmean(means))
    deviation = np.nan_to_num(means - centre, nan=0.0)
    shifts = np.where(deviation > threshold, -shift, np.where(deviation < -threshold, shift, 0.0))
    corrected = np.clip(values + shifts, scale[0], scale[1])
    return corrected, shifts, means


def exclusion_threshold(per_rater_iaa: np.ndarray, sd: float) -> float:
    """``mean - sd * SD`` (sample SD, ddof 1) of the defined per-rater IAA-1 values (NaN if < 2)."""
    defined = per_rater_iaa[~np.isnan(per_rater_iaa)]
    if len(defined) < 2:
        return float("nan")
    return float(defined.mean() - sd * defined.std(ddof=1))


def rescale(values: np.ndarray | pd.Series, scale: tuple[float, float], to: tuple[float, float]) -> np.ndarray:
    """Linear map from ``scale`` to ``to`` (SimVerb/Bio-SimLex: mean rating 0-6 -> score 0-10)."""
    lo, hi = scale
    new_lo, new_hi = to
    if hi <= lo:
        raise ValueError(f"empty rating scale {scale}")
    return new_lo + (np.asarray(values, dtype=np.float64) - lo) * (new_hi - new_lo) / (hi - lo)


def repeat_consistency(repeats: pd.DataFrame, raters: pd.Series) -> pd.DataFrame:
    """Per-rater consistency on repeated pairs: first vs second rating of each repeated pair.

    Returns one row per rater (in ``raters`` order): ``n_repeats`` (pairs rated at least twice),
    ``repeat_spearman`` (Spearman of first vs second rating; NaN if undefined or fewer than two
    pairs), ``repeat_mean_abs_diff`` (mean |first - second|, rating scale).
    """
    out = pd.DataFrame({"rater": raters.to_numpy()})
    if repeats.empty:
        return out.assign(n_repeats=0, repeat_spearman=np.nan, repeat_mean_abs_diff=np.nan)
    firsts = repeats[repeats["occurrence"] <= 1].pivot_table(
        index=["word1", "word2"], columns=["rater", "occurrence"], values="rating", aggfunc="first"
    )
    rater_ids = list(out["rater"])
    first = firsts.xs(0, axis=1, level="occurrence").reindex(columns=rater_ids).to_numpy(dtype=np.float64)
    second = firsts.xs(1, axis=1, level="occurrence").reindex(columns=rater_ids).to_numpy(dtype=np.float64)
    rho, n = columnwise_spearman(first, second)
    both = ~np.isnan(first) & ~np.isnan(second)
    with np.errstate(invalid="ignore"), _quiet():
        mad = np.nanmean(np.where(both, np.abs(first - second), np.nan), axis=0)
    return out.assign(n_repeats=n.astype(np.int64), repeat_spearman=rho, repeat_mean_abs_diff=mad)


@contextlib.contextmanager
def _quiet() -> Iterator[None]:
    """Silence numpy's "mean of empty slice" warnings (NaN results are handled explicitly)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        yield


def _definitions(min_shared: int, undefined: str) -> dict[str, str]:
    policy = "left out" if undefined == "skip" else "counted as 0"
    return {
        "IAA-1": (
            f"mean Spearman over rater pairs sharing >= {min_shared} items (pairwise-complete, average "
            f"ranks recomputed on the shared items); undefined correlations {policy}"
        ),
        "IAA-2": (
            f"mean over raters of Spearman with the mean of the other raters, on >= {min_shared} items "
            f"also rated by another rater; undefined correlations {policy}"
        ),
        "alpha": "Krippendorff's alpha over all items (pairable values), krippendorff package",
    }


def agreement_rows(
    values: np.ndarray,
    stage: str,
    group: str,
    params: RatingParams,
    rho: np.ndarray,
    shared: np.ndarray,
) -> list[dict[str, object]]:
    """Agreement table rows (IAA-1, IAA-2, alpha per level) for one stage and rater group.

    ``rho``/``shared`` are the pairwise Spearman and shared counts of exactly these raters (a subset
    of a larger matrix gives the same values).
    """
    defs = _definitions(params.min_shared, params.undefined)
    rated_items = int((~np.isnan(values)).any(axis=1).sum())
    base = {"stage": stage, "group": group, "n_raters": values.shape[1], "n_items": rated_items}
    iaa1 = summarise_pairwise(rho, shared, params.min_shared, params.undefined)  # type: ignore[arg-type]
    iaa2 = iaa_leave_one_out(values, params.min_shared, params.undefined)  # type: ignore[arg-type]
    rows: list[dict[str, object]] = []
    for metric, res in (("IAA-1", iaa1), ("IAA-2", iaa2)):
        rows.append(
            {
                **base,
                "metric": metric,
                "value": res.value,
                "n_counted": res.n_counted,
                "n_undefined": res.n_undefined,
                "n_below_min_shared": res.n_below_min_shared,
                "min_shared": res.min_shared,
                "undefined": res.undefined,
                "definition": defs[metric],
            }
        )
    domain = np.arange(params.scale[0], params.scale[1] + 1) if _integer_scale(values, params.scale) else None
    for level in params.alpha_levels:
        alpha = krippendorff_alpha(values, level, value_domain=domain if level == "ordinal" else None)
        rows.append(
            {
                **base,
                "metric": f"alpha_{level}",
                "value": alpha,
                "n_counted": None,
                "n_undefined": None,
                "n_below_min_shared": None,
                "min_shared": None,
                "undefined": None,
                "definition": defs["alpha"].replace("alpha", f"alpha ({level})", 1),
            }
        )
    return rows


def _scale_factor(params: RatingParams) -> float:
    """Ratio of the score range to the rating range (SD on the score scale = SD_raw x factor)."""
    return (params.rescale_to[1] - params.rescale_to[0]) / (params.scale[1] - params.scale[0])


def _integer_scale(values: np.ndarray, scale: tuple[float, float]) -> bool:
    finite = values[~np.isnan(values)]
    return bool(float(scale[0]).is_integer() and float(scale[1]).is_integer() and np.all(finite == np.round(finite)))


def consistency_set(matrix: RatingMatrix, values: np.ndarray, how: str) -> np.ndarray:
    """The consistency set (bool per item) as the design marks it: ``role``, the items marked
    ``consistency`` by the reader (role column of the long format); ``rated_by_all``, the items every
    column of ``values`` (the raters left after ``min_items``) rated.

    Raises:
        ValueError: ``rated_by_all`` and every item is rated by every rater (a fully crossed design:
            no item stands apart as a consistency item), or an unknown ``how``.
    """
    if how == "role":
        return matrix.items["consistency"].to_numpy(dtype=bool)
    if how != "rated_by_all":
        raise ValueError(f"consistency must be one of {CONSISTENCY_SETS}, not {how!r}")
    by_all = (~np.isnan(values)).all(axis=1) if values.shape[1] else np.zeros(len(values), dtype=bool)
    if by_all.all():
        raise ValueError(
            f"{matrix.source}: every rater rated all {len(by_all)} items (a fully crossed design), so "
            "consistency: rated_by_all would make every item a consistency item; use consistency: role "
            "(with a role column marking the consistency items, or none)"
        )
    return by_all


def aggregate_ratings(matrix: RatingMatrix, params: RatingParams) -> RatingsResult:
    """Too-few-items exclusion, bias correction, exclusion, agreement and the rated dataset (steps in
    the module docstring).

    Returns a :class:`RatingsResult`; ``counts`` holds raters, raters_excluded_min_items,
    raters_shifted, raters_excluded_iaa1, raters_excluded_listed, raters_kept, consistency_items,
    items, dataset_items, items_without_ratings, repeated_ratings. Raters excluded for too few items
    are in the rater table (reason ``below_min_items``) and in no agreement row.

    Raises:
        ValueError: ``exclude_raters`` names a rater that is not in the ratings; no rater has
            ``min_items`` items; ``rated_by_all`` on a fully crossed design (:func:`consistency_set`).
        EmptyDatasetError: the rated dataset has no item and ``allow_empty`` is false; the message
            names the ratings and why.
    """
    all_raters = matrix.raters.reset_index(drop=True)
    unknown = sorted(set(params.exclude_raters) - set(all_raters["rater"]))
    if unknown:
        raise ValueError(f"exclude_raters lists raters not in the ratings: {unknown}")
    n_rated = (~np.isnan(matrix.values)).sum(axis=0).astype(np.int64)
    few = n_rated < params.min_items
    if few.any():
        log.warning(
            "%d of %d raters rated fewer than %d items and are excluded before aggregation: %s",
            int(few.sum()),
            len(few),
            params.min_items,
            ", ".join(all_raters.loc[few, "rater"].head(20)),
        )
    if few.all():
        raise ValueError(
            f"{matrix.source}: no rater rated at least min_items = {params.min_items} items "
            f"(most: {int(n_rated.max(initial=0))})"
        )
    values = matrix.values[:, ~few]
    raters = all_raters[~few].reset_index(drop=True)
    consistency = consistency_set(matrix, values, params.consistency)
    k = values.shape[1]
    conventions = (params.min_shared, params.undefined)

    # Raw agreement: all raters, ratings as given.
    shared = shared_counts(values)
    log.info("pairwise Spearman over %d raters (%d pairs) ...", k, k * (k - 1) // 2)
    rho_raw = pairwise_spearman(values, params.min_shared)
    rows = agreement_rows(values, "raw", ALL_GROUP, params, rho_raw, shared)
    iaa1_raw = summarise_pairwise(rho_raw, shared, *conventions)  # type: ignore[arg-type]
    log.info(
        "raw IAA-1 %.4f over %d pairs (%d undefined, %d below %d shared items)",
        iaa1_raw.value,
        iaa1_raw.n_counted,
        iaa1_raw.n_undefined,
        iaa1_raw.n_below_min_shared,
        params.min_shared,
    )

    # Bias correction (SimLex-999).
    if params.bias_threshold is not None:
        corrected, shifts, means = bias_correction(
            values, consistency, params.bias_threshold, params.bias_shift, params.scale
        )
        rho = pairwise_spearman(corrected, params.min_shared)
        rows += agreement_rows(corrected, "bias_corrected", ALL_GROUP, params, rho, shared)
    else:
        corrected, shifts, means, rho = (
            values,
            np.zeros(k),
            consistency_means(values, consistency),
            rho_raw,
        )
    log.info(
        "consistency set %d items; bias correction shifted %d raters down, %d up",
        int(consistency.sum()),
        int((shifts < 0).sum()),
        int((shifts > 0).sum()),
    )

    # Exclusion on the corrected ratings; a pair's correlation does not depend on other raters, so
    # the final raters' IAA-1 is a sub-matrix of ``rho``.
    iaa1 = summarise_pairwise(rho, shared, *conventions)  # type: ignore[arg-type]
    listed = raters["rater"].isin(params.exclude_raters).to_numpy()
    low, threshold = _below_threshold(iaa1.per_rater, listed, params.exclusion_sd)
    keep = ~(low | listed)
    log.info(
        "exclusion: threshold IAA-1 %.4f; %d raters below, %d listed; %d of %d kept",
        threshold,
        int(low.sum()),
        int(listed.sum()),
        int(keep.sum()),
        k,
    )
    final = corrected[:, keep]
    rows += agreement_rows(final, "final", ALL_GROUP, params, rho[np.ix_(keep, keep)], shared[np.ix_(keep, keep)])
    groups = sorted(raters["group"].unique())
    if groups != [ALL_GROUP]:
        in_group = {g: (raters["group"] == g).to_numpy() for g in groups}
        for stage, vals, r, mask in (
            ("raw", values, rho_raw, np.ones(k, bool)),
            ("final", corrected, rho, keep),
        ):
            for group in groups:
                sel = mask & in_group[group]
                if sel.sum() >= 2:
                    sub = np.ix_(sel, sel)
                    rows += agreement_rows(vals[:, sel], stage, group, params, r[sub], shared[sub])

    use = np.ones(len(matrix.items), dtype=bool) if params.include_consistency else ~consistency
    dataset, no_ratings = rated_dataset(matrix.items, final, use, params)
    counts = {
        "raters": len(all_raters),
        "raters_excluded_min_items": int(few.sum()),
        "raters_shifted": int((shifts != 0).sum()),
        "raters_excluded_iaa1": int(low.sum()),
        "raters_excluded_listed": int(listed.sum()),
        "raters_kept": int(keep.sum()),
        "consistency_items": int(consistency.sum()),
        "items": len(matrix.items),
        "dataset_items": len(dataset),
        "items_without_ratings": no_ratings,
        "repeated_ratings": len(matrix.repeats),
    }
    if dataset.empty and not params.allow_empty:
        raise EmptyDatasetError(f"{matrix.source}: the rated dataset is empty: {_why_empty(counts, params)}")
    rater_table = pd.DataFrame(
        {
            "rater": raters["rater"],
            "group": raters["group"],
            "n_ratings": n_rated[~few],
            "consistency_mean": means,
            "bias_shift": shifts,
            "iaa1_raw": iaa1_raw.per_rater,
            "iaa1": iaa1.per_rater,
            "iaa2": np.nan,
            "excluded": ~keep,
            "exclusion_reason": np.where(listed, "listed", np.where(low, "iaa1_below_threshold", "")),
        }
    )
    rater_table.loc[keep, "iaa2"] = iaa_leave_one_out(final, *conventions).per_rater  # type: ignore[arg-type]
    if few.any():
        dropped = pd.DataFrame(
            {
                "rater": all_raters.loc[few, "rater"],
                "group": all_raters.loc[few, "group"],
                "n_ratings": n_rated[few],
                "bias_shift": 0.0,
                "excluded": True,
                "exclusion_reason": "below_min_items",
            }
        )
        rater_table = pd.concat([rater_table, dropped], ignore_index=True)
        rater_table = rater_table.set_index("rater").loc[all_raters["rater"]].reset_index()
    rater_table = rater_table.merge(repeat_consistency(matrix.repeats, all_raters["rater"]), on="rater", how="left")
    return RatingsResult(
        dataset=dataset,
        agreement=pd.DataFrame(rows, columns=AGREEMENT_COLUMNS),
        raters=rater_table[RATER_COLUMNS],
        counts=counts,
    )


def _why_empty(counts: Mapping[str, int], params: RatingParams) -> str:
    """Why no item reached the rated dataset, from the counts of :func:`aggregate_ratings`."""
    parts = [f"0 of {counts['items']} items"]
    if counts["consistency_items"] and not params.include_consistency:
        parts.append(f"{counts['consistency_items']} are consistency items (include_consistency: false)")
    if counts["items_without_ratings"]:
        parts.append(f"{counts['items_without_ratings']} have no rating by a kept rater")
    parts.append(
        f"{counts['raters_kept']} of {counts['raters']} raters kept ({counts['raters_excluded_min_items']} "
        f"below min_items = {params.min_items}, {counts['raters_excluded_listed']} listed, "
        f"{counts['raters_excluded_iaa1']} below the IAA-1 threshold)"
    )
    return "; ".join(parts) + ". Fix the ratings or the config, or set allow_empty: true to write an empty dataset"


def consistency_means(values: np.ndarray, consistency: np.ndarray) -> np.ndarray:
    """Each rater's mean rating on the consistency items (NaN for a rater who rated none)."""
    if not np.asarray(consistency, dtype=bool).any():
        return np.full(values.shape[1], np.nan)
    with _quiet():
        return np.nanmean(values[np.asarray(consistency, dtype=bool)], axis=0)


def _below_threshold(per_rater: np.ndarray, listed: np.ndarray, sd: float | None) -> tuple[np.ndarray, float]:
    """Raters (not listed) whose IAA-1 lies below mean - sd x SD of the unlisted raters' IAA-1."""
    if sd is None:
        return np.zeros(len(per_rater), dtype=bool), float("nan")
    threshold = exclusion_threshold(np.where(listed, np.nan, per_rater), sd)
    return ~listed & ~np.isnan(per_rater) & (per_rater < threshold), threshold


def rated_dataset(
    items: pd.DataFrame, final: np.ndarray, use: np.ndarray, params: RatingParams
) -> tuple[pd.DataFrame, int]:
    """The rated dataset (:data:`RATED_DATASET` columns) from the final raters' ratings.

    Args:
        items: ``word1, word2`` per matrix row; ``final``: float (n_items, n_final_raters);
        use: bool (n_items,), the rows that belong in the dataset.

    Returns:
        (dataset in item order, number of used rows left out because no final rater rated them).
    """
    with np.errstate(invalid="ignore"), _quiet():
        n = (~np.isnan(final)).sum(axis=1)
        mean = np.nanmean(final, axis=1)
        sd = np.where(n >= 2, np.nanstd(final, axis=1, ddof=1), np.nan)
    keep = use & (n > 0)
    dataset = pd.DataFrame(
        {
            "word1": items["word1"].to_numpy()[keep],
            "word2": items["word2"].to_numpy()[keep],
            "score": rescale(mean[keep], params.scale, params.rescale_to),
            "sd": sd[keep] * _scale_factor(params),
            "n_ratings": n[keep].astype(np.int64),
            "mean_raw": mean[keep],
            "sd_raw": sd[keep],
        }
    )
    return dataset, int((use & (n == 0)).sum())


def to_published_txt(dataset: pd.DataFrame, decimals: int = 2) -> str:
    """The published format: ``word1<TAB>word2<TAB>score`` per line, no header, score with
    ``decimals`` decimals (SimVerb-3500 and Bio-SimLex use 2), in dataset order.

    Raises:
        ValueError: a word contains a tab or a line break.
    """
    for col in ("word1", "word2"):
        bad = dataset[col].str.contains(r"[\t\r\n]", regex=True)
        if bad.any():
            raise ValueError(f"{col} {dataset.loc[bad, col].iloc[0]!r} contains a tab or line break")
    score = dataset["score"].map(lambda v: f"{v:.{decimals}f}")
    return "".join(f"{a}\t{b}\t{s}\n" for a, b, s in zip(dataset["word1"], dataset["word2"], score))


def compare_with_published(dataset: pd.DataFrame, published: pd.DataFrame) -> dict[str, float]:
    """Compare our scores with a published dataset on the pairs both hold (a check for the log).

    Returns matched pairs, pairs only in ours / only in the published file, Spearman of the scores,
    and the largest absolute score difference.
    """
    from scipy.stats import spearmanr

    both = dataset.merge(published, on=["word1", "word2"], suffixes=("", "_published"))
    rho = spearmanr(both["score"], both["score_published"]).statistic if len(both) > 1 else float("nan")
    return {
        "matched": len(both),
        "only_ours": len(dataset) - len(both),
        "only_published": len(published) - len(both),
        "spearman": float(rho),
        "max_abs_diff": float((both["score"] - both["score_published"]).abs().max()) if len(both) else float("nan"),
    }


def params_from_config(cfg: Mapping[str, Any]) -> RatingParams:
    """Build :class:`RatingParams` from one ``agreement.ratings.<name>`` config entry as validated by
    ``workflow/schemas/agreement.schema.yaml`` (every key present: the schema holds the defaults).

    A null ``bias_correction`` disables the correction (its shift stays the dataclass default, unused);
    a null ``exclusion`` excludes nobody.
    """
    bias = cfg["bias_correction"]
    excl = cfg["exclusion"]
    return RatingParams(
        scale=tuple(cfg["scale"]),
        rescale_to=tuple(cfg["rescale_to"]),
        min_shared=int(cfg["min_shared"]),
        undefined=str(cfg["undefined"]),
        bias_threshold=None if bias is None else bias["threshold"],
        bias_shift=RatingParams.bias_shift if bias is None else bias["shift"],
        exclusion_sd=None if excl is None else excl["sd"],
        exclude_raters=() if excl is None else tuple(excl["raters"]),
        include_consistency=bool(cfg["include_consistency"]),
        alpha_levels=tuple(cfg["alpha_levels"]),
        min_items=int(cfg["min_items"]),
        consistency=str(cfg["consistency"]),
        allow_empty=bool(cfg["allow_empty"]),
    )
