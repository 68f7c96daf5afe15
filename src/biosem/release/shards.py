"""Released data files ("shards") and the composition counts of a dataset.

A shard is one ``(config, split)`` Parquet file of a released dataset, rewritten from the family's
output with biosem's Parquet settings (zstd, no pandas metadata) so the bytes depend only on the rows.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

from biosem.io import atomic_path, write_parquet
from biosem.release.checksums import sha256_file

MAX_GROUPS_SHOWN = 50
"""Composition tables list at most this many values of a group column per (config, split)."""


@dataclass(frozen=True)
class ShardInfo:
    """One released Parquet file.

    Attributes:
        config, split: where it sits in the dataset.
        path: path relative to the dataset folder (``data/...-00000-of-00001.parquet``).
        rows: number of rows.
        arrow_bytes: in-memory Arrow size of the table (the Hub's ``num_bytes``).
        file_bytes: size of the Parquet file.
        sha256: hex SHA-256 of the Parquet file.
        schema: the Arrow schema.
    """

    config: str
    split: str
    path: str
    rows: int
    arrow_bytes: int
    file_bytes: int
    sha256: str
    schema: pa.Schema


def write_shard(
    source: str | os.PathLike[str], dest: str | os.PathLike[str], config: str, split: str, rel: str
) -> tuple[ShardInfo, pa.Table]:
    """Copy the rows of Parquet ``source`` to ``dest`` (rewritten, row order kept); describe it.

    Raises:
        FileNotFoundError: ``source`` is missing.
    """
    table = pq.read_table(source)
    table = table.replace_schema_metadata(None)
    if table.num_rows:
        write_parquet(table, dest)
    else:
        write_empty_parquet(table.schema, dest)
    info = ShardInfo(
        config=config,
        split=split,
        path=rel,
        rows=table.num_rows,
        arrow_bytes=int(table.nbytes),
        file_bytes=Path(dest).stat().st_size,
        sha256=sha256_file(dest),
        schema=table.schema,
    )
    return info, table


def write_empty_parquet(schema: pa.Schema, dest: str | os.PathLike[str]) -> None:
    """A Parquet file with ``schema`` and no row group.

    ``pyarrow.parquet.write_table`` gives an empty table one row group of 0 rows, which the Hugging
    Face Parquet loader cannot read ("BatchSize must be greater than 0"); a file without row
    groups loads as an empty split.
    """
    with atomic_path(dest) as tmp:
        pq.ParquetWriter(tmp, schema.remove_metadata(), compression="zstd").close()


def composition(
    tables: Sequence[tuple[ShardInfo, pa.Table]],
    group_columns: Sequence[str],
    label_column: str | None,
) -> pd.DataFrame:
    """Row counts per config, split, group value(s) and label.

    Returns:
        Columns ``config, split, *group_columns, label?, rows`` (``label`` only with a label column),
        sorted by config/split order of ``tables`` then group value and label. Group and label values
        are strings; a missing column in a shard (or a null) counts as ``"(none)"``. A shard with no
        rows gives one row with ``rows = 0``. Per (config, split), only the ``MAX_GROUPS_SHOWN`` most
        frequent group values are kept and the rest summed into one ``"(N other values)"`` row.
    """
    keys = list(group_columns) + ([label_column] if label_column else [])
    parts = []
    for order, (info, table) in enumerate(tables):
        if table.num_rows == 0:
            row = {
                "config": info.config,
                "split": info.split,
                **{k: "" for k in keys},
                "rows": 0,
                "_order": order,
            }
            parts.append(pd.DataFrame([row]))
            continue
        frame = pd.DataFrame(
            {
                k: (
                    table.column(k).to_pandas().astype("string").fillna("(none)")
                    if k in table.column_names
                    else "(none)"
                )
                for k in keys
            },
            index=pd.RangeIndex(table.num_rows),
        )
        if keys:
            counts = frame.groupby(keys, sort=True).size().reset_index(name="rows")
        else:
            counts = pd.DataFrame({"rows": [table.num_rows]})
        counts = _cap_groups(counts, list(group_columns))
        counts.insert(0, "split", info.split)
        counts.insert(0, "config", info.config)
        counts["_order"] = order
        parts.append(counts)
    out = (
        pd.concat(parts, ignore_index=True)
        if parts
        else pd.DataFrame(columns=["config", "split", *keys, "rows", "_order"])
    )
    out = out.sort_values(["_order", *keys], kind="stable").drop(columns="_order").reset_index(drop=True)
    if label_column:
        out = out.rename(columns={label_column: "label"})
    out["rows"] = out["rows"].astype("int64")
    return out


def _cap_groups(counts: pd.DataFrame, group_columns: list[str]) -> pd.DataFrame:
    if not group_columns:
        return counts
    groups = counts.groupby(group_columns, sort=True)["rows"].sum()
    if len(groups) <= MAX_GROUPS_SHOWN:
        return counts
    ranked = groups.reset_index().sort_values(
        ["rows", *group_columns], ascending=[False] + [True] * len(group_columns), kind="stable"
    )
    keep = ranked.head(MAX_GROUPS_SHOWN)[group_columns]
    kept = counts.merge(keep, on=group_columns, how="inner")
    rest = counts.merge(keep, on=group_columns, how="left", indicator=True)
    rest = rest[rest["_merge"] == "left_only"].drop(columns="_merge")
    other_keys = [c for c in counts.columns if c not in group_columns and c != "rows"]
    label = f"({len(groups) - MAX_GROUPS_SHOWN} other values)"
    summed = (
        rest.groupby(other_keys, sort=True)["rows"].sum().reset_index()
        if other_keys
        else pd.DataFrame({"rows": [rest["rows"].sum()]})
    )
    for col in group_columns:
        summed[col] = label
    return pd.concat([kept, summed[counts.columns]], ignore_index=True)
