"""Reading and writing tables: schema-checked, sorted, atomic.

Outputs are written to a temporary name in the destination folder and renamed at the end, so an
interrupted or failing step never leaves a partial file under the final name. The renamed file has
the mode a plain ``open(path, "w")`` would give it (0644 under umask 0022), not ``mkstemp``'s 0600.
"""

from __future__ import annotations

import contextlib
import errno
import os
import tempfile
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq


@dataclass(frozen=True)
class TableSpec:
    """A Parquet table: its Arrow schema and the columns that order its rows."""

    name: str
    schema: pa.Schema
    sort_keys: tuple[str, ...]


def string_field(name: str, nullable: bool = False) -> pa.Field:
    """A string column of a :class:`TableSpec` schema (non-nullable unless ``nullable``)."""
    return pa.field(name, pa.string(), nullable=nullable)


def _umask() -> int:
    """The process umask (read by setting it and setting it back: there is no getter before 3.13)."""
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


@contextlib.contextmanager
def atomic_path(path: str | os.PathLike[str]) -> Iterator[Path]:
    """Yield a temporary path beside ``path``; rename it to ``path`` only if the block succeeds.

    The file gets mode ``0o666 & ~umask`` before the rename, as a file created by ``open`` would.
    The temporary file is removed whatever happens.

    Raises:
        OSError: a full disk, a file-size limit or a quota (ENOSPC, EFBIG, EDQUOT, also when pyarrow
            reports them) while the block writes: re-raised with the same errno and a message naming
            ``path`` (the temporary name would mean nothing to the reader), chained to the original.
    """
    final = Path(path)
    final.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{final.name}.", suffix=".tmp", dir=final.parent)
    os.close(fd)
    tmp_path = Path(tmp)
    try:
        try:
            yield tmp_path
            tmp_path.chmod(0o666 & ~_umask())
            os.replace(tmp_path, final)
        except OSError as exc:
            code = _space_errno(exc)
            if code is None:
                raise
            raise OSError(code, f"{os.strerror(code)} while writing {final}: {exc}", str(final)) from exc
    finally:
        if tmp_path.exists():
            tmp_path.unlink()


_SPACE_ERRNOS = (errno.ENOSPC, errno.EFBIG, errno.EDQUOT)


def _space_errno(exc: OSError) -> int | None:
    """The errno of a full-disk / file-too-large / quota error, else None. pyarrow raises its IO
    errors without ``errno`` but with the system message (e.g. "[Errno 28] No space left on device")."""
    if exc.errno in _SPACE_ERRNOS:
        return exc.errno
    text = str(exc)
    for code in _SPACE_ERRNOS:
        if f"[Errno {code}]" in text or os.strerror(code) in text:
            return code
    return None


def to_arrow(frame: pd.DataFrame | pa.Table, spec: TableSpec) -> pa.Table:
    """Cast ``frame`` to ``spec.schema`` (columns in schema order), check nulls, sort by the key.

    Raises:
        ValueError: a schema column is missing, or a non-nullable column holds nulls.
    """
    table = frame if isinstance(frame, pa.Table) else pa.Table.from_pandas(frame, preserve_index=False)
    missing = [f.name for f in spec.schema if f.name not in table.column_names]
    if missing:
        raise ValueError(f"{spec.name}: missing columns {missing}; have {table.column_names}")
    table = table.select([f.name for f in spec.schema])
    # Cast through a nullable version of the schema first, then check the non-nullable fields.
    loose = pa.schema([f.with_nullable(True) for f in spec.schema])
    table = table.cast(loose)
    for field in spec.schema:
        if not field.nullable and table.column(field.name).null_count:
            raise ValueError(f"{spec.name}: column {field.name!r} must not contain nulls")
    if table.num_rows and spec.sort_keys:
        table = table.sort_by([(k, "ascending") for k in spec.sort_keys])
    return pa.Table.from_arrays(table.columns, schema=spec.schema)


def write_table(frame: pd.DataFrame | pa.Table, path: str | os.PathLike[str], spec: TableSpec) -> int:
    """Validate ``frame`` against ``spec`` and write it as Parquet atomically; return the row count."""
    table = to_arrow(frame, spec)
    write_parquet(table, path, statistics=spec.sort_keys)
    return table.num_rows


def parquet_options(statistics: Sequence[str] | None = None) -> dict[str, object]:
    """The options of every Parquet file biosem writes: zstd; min/max statistics for the
    ``statistics`` columns only (a table's sort keys, what a reader selects row groups by; the
    statistics of free text such as terms cost a sixth of the write time), all columns for None."""
    return {"compression": "zstd", "write_statistics": True if statistics is None else list(statistics) or False}


def write_parquet(table: pa.Table, path: str | os.PathLike[str], statistics: Sequence[str] | None = None) -> None:
    """Write an Arrow table as Parquet (:func:`parquet_options`, no pandas metadata) to ``path``
    atomically."""
    table = table.replace_schema_metadata(None)
    with atomic_path(path) as tmp:
        pq.write_table(table, tmp, **parquet_options(statistics))


def read_table(
    path: str | os.PathLike[str], columns: list[str] | None = None, categories: list[str] | None = None
) -> pd.DataFrame:
    """Read a Parquet file into pandas with Arrow-backed string columns kept as Python strings;
    the ``categories`` columns (few distinct values, many rows) come as pandas categoricals."""
    return pq.read_table(path, columns=columns, read_dictionary=categories).to_pandas()


class ParquetTables(Mapping[str, pd.DataFrame]):
    """Named Parquet files, each read (:func:`read_table`) when it is looked up, so that a loop over
    many large tables holds one at a time."""

    def __init__(self, paths: Mapping[str, str | os.PathLike[str]], columns: list[str] | None = None) -> None:
        self.paths = dict(paths)
        self.columns = columns

    def __getitem__(self, name: str) -> pd.DataFrame:
        return read_table(self.paths[name], columns=self.columns)

    def __iter__(self) -> Iterator[str]:
        return iter(self.paths)

    def __len__(self) -> int:
        return len(self.paths)


def write_text(text: str, path: str | os.PathLike[str]) -> None:
    """Write UTF-8 text atomically (LF line endings)."""
    with atomic_path(path) as tmp:
        tmp.write_text(text, encoding="utf-8", newline="\n")
