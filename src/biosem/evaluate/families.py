"""The results table (:mod:`biosem.evaluate.results`) split for reading: one table per family, and per
terminology for the term pairs and the analogies.

The report shows a table as an HTML page embedded in the report as a data URI, which Chromium does not
open beyond 2 MB; the whole table (tens of thousands of rows in the default run) shown as one page would
show its head only. So the report shows one page per part (``tables/<table>.csv``,
:data:`biosem.layout.outputs.evaluation_results_table`), each with every row: ``rated``,
``termpairs/<terminology>``, ``analogies/<terminology>``, ``wic`` (:func:`result_table`; the largest part of
the default run, ``termpairs/hpo``, has 3,148 rows, a page of 0.9 MB). ``results.csv`` and
``results.parquet`` stay whole.

A row's family is that of its ``dataset`` (:func:`dataset_family`): ``rated`` for an external benchmark
(a name without ``/``: ``simlex999``, ``umnsrs_sim``) or biosem's rated sets (``simlex/<name>``),
``termpairs`` for ``termpairs/<terminology>/<dataset>`` and the category-separation rows
(``categories/<terminology>``), ``analogies`` and ``wic`` for their own prefixes.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence

import pandas as pd

from biosem.evaluate.results import COLUMNS, RESULTS, dataset_family
from biosem.io import write_text

PER_TERMINOLOGY = ("termpairs", "analogies")
"""The families whose rows are split by terminology (the second part of the dataset name)."""


def result_table(dataset: str) -> str:
    """The table a result row belongs to: its family (:func:`dataset_family`), with the terminology for the
    families of :data:`PER_TERMINOLOGY` (``termpairs/hpo/fsn_syn_easy_random`` and ``categories/hpo`` ->
    ``termpairs/hpo``; ``analogies/go/all_info`` -> ``analogies/go``; ``simlex999`` -> ``rated``)."""
    family = dataset_family(dataset)
    if family in PER_TERMINOLOGY:
        return f"{family}/{dataset.split('/')[1]}"
    return family


def table_names(termpairs: Sequence[str], analogies: Sequence[str], wic: bool = True) -> list[str]:
    """The tables of a run, in the report's order: ``rated``, ``termpairs/<t>`` for each of ``termpairs``
    (terminologies, sorted), ``analogies/<t>`` for each of ``analogies``, and ``wic`` when WiC is scored."""
    return [
        "rated",
        *(f"termpairs/{t}" for t in sorted(termpairs)),
        *(f"analogies/{t}" for t in sorted(analogies)),
        *(["wic"] if wic else []),
    ]


def split_tables(results: pd.DataFrame, tables: Sequence[str]) -> dict[str, pd.DataFrame]:
    """The rows of each of ``tables`` (:func:`result_table`; every name present, possibly empty), each in
    the table's order (sorted by its key) with the table's columns.

    Raises:
        ValueError: a row whose table is not among ``tables`` (naming the datasets).
    """
    table = results["dataset"].map(result_table)
    unknown = sorted(set(results.loc[~table.isin(tables), "dataset"]))
    if unknown:
        raise ValueError(f"result datasets of no table ({', '.join(tables)}): {', '.join(unknown[:10])}")
    ordered = results.assign(_table=table).sort_values(list(RESULTS.sort_keys), kind="stable")
    return {name: ordered.loc[ordered["_table"] == name, COLUMNS].reset_index(drop=True) for name in tables}


def write_tables(results: pd.DataFrame, paths: Mapping[str, str | os.PathLike[str]]) -> dict[str, int]:
    """Write the rows of each table named in ``paths`` (:func:`split_tables`) as CSV to ``paths[table]`` (the
    format of ``results.csv``: header, floats to 12 significant digits, empty cells for nulls); return the
    row count of each table.

    Raises:
        ValueError: a row whose table ``paths`` does not name.
    """
    counts = {}
    for name, frame in split_tables(results, list(paths)).items():
        write_text(frame.to_csv(index=False, lineterminator="\n", float_format="%.12g"), paths[name])
        counts[name] = len(frame)
    return counts
