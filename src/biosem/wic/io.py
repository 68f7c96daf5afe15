"""Reading the wic inputs and writing the released JSON format (atomic, deterministic)."""

from __future__ import annotations

import json
import os
from collections.abc import Sequence

import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from biosem.io import read_arrow, read_table, write_text
from biosem.wic.schemas import RELEASED_COLUMNS


def read_concat(paths: Sequence[str | os.PathLike[str]]) -> pd.DataFrame:
    """Concatenate Parquet tables with the same schema (e.g. one per corpus), in the given order."""
    frames = [read_table(p) for p in paths]
    return pd.concat(frames, ignore_index=True) if frames else pd.DataFrame()


def read_where(
    path: str | os.PathLike[str],
    filters: Sequence[tuple[str, str, object]],
    columns: Sequence[str] | None = None,
) -> pd.DataFrame:
    """Rows of a Parquet table that pass pyarrow ``filters`` (e.g. ``[("rel", "in", ["SY", "RB"])]``),
    filtered while reading so that a full UMLS ``relations`` or ``mappings`` table never sits in
    memory whole."""
    filters = list(filters)
    if any(op == "in" and len(list(values)) == 0 for _, op, values in filters):  # pyarrow rejects empty sets
        table = read_arrow(path, columns=list(columns) if columns else None).slice(0, 0)
    else:
        table = read_arrow(path, columns=list(columns) if columns else None, filters=filters or None)
    return table.to_pandas()


def read_term_sets(
    path: str | os.PathLike[str],
    wanted: Sequence[str] | None,
    abbreviation_ttys: Sequence[str] = (),
    *,
    concepts: Sequence[str] | None = None,
    scopes: Sequence[str] | None = None,
) -> pd.DataFrame:
    """Term sets of a terminology restricted to the ``wanted`` lowercase strings and/or ``concepts``.

    Reads the ``terms`` intermediate (active terms only), lowercases with Arrow and keeps the rows whose
    lowercase term is wanted (the synonym and abbreviation groups only ever ask whether *two corpus
    terms* share a concept, so this loses nothing) and whose concept is among ``concepts`` (the link
    test of label-0 pairs asks for every term of the corpus concepts); ``None`` does not restrict.
    Returns ``concept_id, term_lower, abbreviation`` (true where one of the concept's terms with that
    string has a ``tty`` in ``abbreviation_ttys``, e.g. MeSH LexicalTag ABB / ACR), distinct, sorted.

    ``scopes`` (OBO synonym scopes, e.g. ``["EXACT"]``; ``wic.synonym_scopes``) keeps, besides the
    terms without a scope (preferred names; every MeSH, UMLS and SNOMED CT term), only synonyms of
    those scopes and the abbreviation term types whatever their scope (UBERON files some
    ``ABBREVIATION`` synonyms as BROAD or RELATED): a RELATED or BROAD synonym names another meaning
    ("gene expression" is a RELATED synonym of GO's "protein expression" ...). ``None``: every term.
    """
    filters = [("active", "==", True)]
    if concepts is not None:
        filters.append(("concept_id", "in", sorted(set(concepts))))
    columns = ["concept_id", "term", "tty", "scope", "active"]
    if concepts is not None and not len(filters[-1][2]):
        table = read_arrow(path, columns=columns).slice(0, 0)
    else:
        table = read_arrow(path, columns=columns, filters=filters)
    abbreviation = pc.fill_null(
        pc.is_in(table.column("tty"), value_set=pa.array(list(abbreviation_ttys), pa.string())), False
    )
    if scopes is not None:
        scope = table.column("scope")
        in_scope = pc.fill_null(pc.is_in(scope, value_set=pa.array(list(scopes), pa.string())), False)
        keep = pc.or_(pc.or_(pc.is_null(scope), in_scope), abbreviation)
        table, abbreviation = table.filter(keep), abbreviation.filter(keep)
    lower = pc.utf8_lower(table.column("term"))
    out = pa.table({"concept_id": table.column("concept_id"), "term_lower": lower, "abbreviation": abbreviation})
    if wanted is not None:
        out = out.filter(pc.is_in(lower, value_set=pa.array(sorted(set(wanted)), type=pa.string())))
    out = out.to_pandas()
    out = out.groupby(["concept_id", "term_lower"], sort=True, as_index=False)["abbreviation"].any()
    return out.reset_index(drop=True)


def write_released_json(split: pd.DataFrame, path: str | os.PathLike[str]) -> int:
    """Write one split as a JSON list of records with the released BioWiC keys, in row order.

    UTF-8, two-space indentation, keys in :data:`biosem.wic.schemas.RELEASED_COLUMNS` order, integers
    as JSON numbers; returns the number of records.
    """
    records = [
        {
            k: (int(v) if k in ("start1", "end1", "start2", "end2", "label") else str(v))
            for k, v in zip(RELEASED_COLUMNS, row)
        }
        for row in split[list(RELEASED_COLUMNS)].itertuples(index=False, name=None)
    ]
    write_text(json.dumps(records, ensure_ascii=False, indent=2) + "\n", path)
    return len(records)
