"""The results table (:mod:`biosem.evaluate.results`) split by family, for reading.

The report shows a table as an HTML page; the whole table (tens of thousands of rows in the default run)
is too long for one page, so the report shows one table per family, each with every row
(``results_<family>.csv``, :data:`biosem.layout.outputs.evaluation_results_family`). ``results.csv`` and
``results.parquet`` stay whole.

A row's family is that of its ``dataset`` (:func:`dataset_family`): ``rated`` for an external benchmark
(a name without ``/``: ``simlex999``, ``umnsrs_sim``) or biosem's rated sets (``simlex/<name>``),
``termpairs`` for ``termpairs/<terminology>/<dataset>`` and the category-separation rows
(``categories/<terminology>``), ``analogies`` and ``wic`` for their own prefixes.
"""

from __future__ import annotations

import os
from collections.abc import Mapping

import pandas as pd

from biosem.evaluate.results import COLUMNS, RESULTS
from biosem.io import write_text

FAMILIES = ("rated", "termpairs", "analogies", "wic")
"""The families of the results table, in the report's order."""

FAMILY_OF_PREFIX = {"simlex": "rated", "categories": "termpairs"}
"""The family of a dataset name's first part where it is not the family itself."""


def dataset_family(dataset: str) -> str:
    """The family of a result row's ``dataset``: ``rated`` for a name without ``/``, else the name's first
    part as mapped by :data:`FAMILY_OF_PREFIX` (``simlex/bio_simverb`` -> ``rated``,
    ``categories/hpo`` -> ``termpairs``, ``wic/test`` -> ``wic``)."""
    if "/" not in dataset:
        return "rated"
    prefix = dataset.split("/", 1)[0]
    return FAMILY_OF_PREFIX.get(prefix, prefix)


def split_by_family(results: pd.DataFrame) -> dict[str, pd.DataFrame]:
    """The rows of each family (:data:`FAMILIES` order, every family present, possibly empty), each in
    the table's order (sorted by its key) with the table's columns.

    Raises:
        ValueError: a row whose dataset belongs to no family of :data:`FAMILIES` (naming the datasets).
    """
    family = results["dataset"].map(dataset_family)
    unknown = sorted(set(results.loc[~family.isin(FAMILIES), "dataset"]))
    if unknown:
        raise ValueError(f"result datasets of no family ({', '.join(FAMILIES)}): {', '.join(unknown[:10])}")
    ordered = results.assign(_family=family).sort_values(list(RESULTS.sort_keys), kind="stable")
    return {name: ordered.loc[ordered["_family"] == name, COLUMNS].reset_index(drop=True) for name in FAMILIES}


def write_family_tables(results: pd.DataFrame, paths: Mapping[str, str | os.PathLike[str]]) -> dict[str, int]:
    """Write each family's rows (:func:`split_by_family`) as CSV to ``paths[family]`` (the format of
    ``results.csv``: header, floats to 12 significant digits, empty cells for nulls); return the row count
    of each family.

    Raises:
        ValueError: ``paths`` does not name every family of :data:`FAMILIES` (or names another), or a
            row of no family.
    """
    if set(paths) != set(FAMILIES):
        raise ValueError(f"family tables: paths for {sorted(paths)} given, {sorted(FAMILIES)} expected")
    counts = {}
    for family, frame in split_by_family(results).items():
        write_text(frame.to_csv(index=False, lineterminator="\n", float_format="%.12g"), paths[family])
        counts[family] = len(frame)
    return counts
