"""Reading and writing tables: schema-checked, sorted, atomic.

Outputs are written to a temporary name in the destination folder and renamed at the end, so an
interrupted or failing step never leaves a partial file under the final name. The renamed file has
the mode a plain ``open(path, "w")`` would give it (0644 under umask 0022), not ``mkstemp``'s 0600.
"""

from __future__ import annotations

import base64
import contextlib
import errno
import json
import os
import tempfile
from collections.abc import Iterable, Iterator, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from biosem.errors import SourceFormatError


@dataclass(frozen=True)
class TableSpec:
    """A Parquet table: its Arrow schema, the columns that order its rows, and its string columns
    of few distinct values (``dictionary``: a source name, a term type, a SAB), which are written
    dictionary-encoded as :func:`write_row_groups` describes."""

    name: str
    schema: pa.Schema
    sort_keys: tuple[str, ...]
    dictionary: tuple[str, ...] = ()


ROW_GROUP = 1 << 20
"""Rows per Parquet row group (pyarrow's default)."""

DICTIONARY = pa.dictionary(pa.int32(), pa.string())
"""The Arrow type of a :attr:`TableSpec.dictionary` column as it is written."""


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
    write_parquet(table, path, spec)
    return table.num_rows


def parquet_options(spec: TableSpec | None = None) -> dict[str, object]:
    """The options of every Parquet file biosem writes: zstd; with a ``spec``, min/max statistics
    for its sort keys only (what a reader selects row groups by; the statistics of free text such as
    terms cost a sixth of the write time) and, where it has dictionary columns, no stored Arrow
    schema (so that they read back as the plain strings of ``spec.schema``)."""
    if spec is None:
        return {"compression": "zstd"}
    return {
        "compression": "zstd",
        "write_statistics": list(spec.sort_keys) or False,
        "store_schema": not spec.dictionary,
    }


def parquet_schema(spec: TableSpec) -> pa.Schema:
    """``spec.schema`` with its dictionary columns as :data:`DICTIONARY`: the schema it is written in."""
    return pa.schema(
        [f.with_type(DICTIONARY) if f.name in spec.dictionary else f for f in spec.schema],
    )


def sorted_dictionary(values: pa.Array | pa.ChunkedArray) -> pa.DictionaryArray:
    """A string column (plain or dictionary-encoded) as :data:`DICTIONARY` in the canonical form:
    the dictionary holds the distinct non-null values present, in byte order; nulls are null
    indices. Two equal columns give equal arrays, so equal Parquet bytes."""
    if isinstance(values, pa.ChunkedArray):
        values = values.combine_chunks() if values.num_chunks != 1 else values.chunk(0)
    if isinstance(values, pa.DictionaryArray) and _is_sorted_dictionary(values):
        return values
    encoded = pc.dictionary_encode(values.cast(pa.string()))  # a dictionary array decoded first
    order = pc.sort_indices(encoded.dictionary).to_numpy()
    rank = np.empty(len(order), dtype=np.int32)
    rank[order] = np.arange(len(order), dtype=np.int32)
    indices = encoded.indices
    new = rank[indices.fill_null(0).to_numpy()] if len(order) else np.zeros(len(indices), np.int32)
    mask = indices.is_null().to_numpy(zero_copy_only=False) if indices.null_count else None
    return pa.DictionaryArray.from_arrays(new, encoded.dictionary.take(pa.array(order)), mask=mask)


def _is_sorted_dictionary(values: pa.DictionaryArray) -> bool:
    """Is ``values`` in the form :func:`sorted_dictionary` gives (int32 indices, every value used,
    strictly increasing bytes)?"""
    dictionary = values.dictionary
    if values.type != DICTIONARY or dictionary.null_count:
        return False
    words = dictionary.to_pylist()
    if any(a.encode() >= b.encode() for a, b in zip(words, words[1:], strict=False)):
        return False
    indices = values.indices.drop_null().to_numpy()
    return bool(len(words) == 0 or (np.bincount(indices, minlength=len(words)) > 0).all())


def write_row_groups(chunks: Iterable[pa.Table], path: str | os.PathLike[str], spec: TableSpec) -> int:
    """Write ``chunks`` as one Parquet file of ``spec``, a row group per chunk, atomically; return
    the row count.

    Each chunk has the columns of ``spec.schema``, already in the table's order, with at most
    :data:`ROW_GROUP` rows (one empty chunk for an empty table). Its dictionary columns may come
    plain or dictionary-encoded: each is written as :func:`sorted_dictionary` gives it, so the
    bytes depend only on the values. A chunk is written (pyarrow releases the GIL) while the next
    one is built.

    Raises:
        ValueError: a schema column is missing, or a non-nullable column holds nulls.
    """
    schema = parquet_schema(spec)
    n = 0
    with (
        atomic_path(path) as tmp,
        pq.ParquetWriter(tmp, schema, **parquet_options(spec)) as writer,
        ThreadPoolExecutor(max_workers=1, thread_name_prefix="parquet-write") as pool,
    ):
        pending = None
        for chunk in chunks:
            table = _row_group(chunk, spec, schema)
            if pending is not None:
                pending.result()
            pending = pool.submit(writer.write_table, table)
            n += table.num_rows
        if pending is not None:
            pending.result()
    return n


def _row_group(chunk: pa.Table, spec: TableSpec, schema: pa.Schema) -> pa.Table:
    """A chunk in the written schema: dictionary columns in canonical form, nulls checked."""
    missing = [f.name for f in spec.schema if f.name not in chunk.column_names]
    if missing:
        raise ValueError(f"{spec.name}: missing columns {missing}; have {chunk.column_names}")
    arrays = []
    for field in schema:
        column = chunk.column(field.name)
        if field.name in spec.dictionary:
            column = sorted_dictionary(column)
        elif column.type != field.type:
            column = column.cast(field.type)
        if not field.nullable and column.null_count:
            raise ValueError(f"{spec.name}: column {field.name!r} must not contain nulls")
        arrays.append(column)
    return pa.Table.from_arrays(arrays, schema=schema)


def write_parquet(table: pa.Table, path: str | os.PathLike[str], spec: TableSpec | None = None) -> None:
    """Write an Arrow table as Parquet (:func:`parquet_options`, no pandas metadata) to ``path``
    atomically; with a ``spec``, in row groups of :data:`ROW_GROUP` rows by :func:`write_row_groups`."""
    table = table.replace_schema_metadata(None)
    if spec is not None:
        bounds = range(0, max(table.num_rows, 1), ROW_GROUP)
        write_row_groups((table.slice(lo, ROW_GROUP) for lo in bounds), path, spec)
        return
    with atomic_path(path) as tmp:
        pq.write_table(table, tmp, **parquet_options())


class UnreadableTableError(SourceFormatError):
    """A Parquet file (an intermediate or a result another rule wrote) cannot be read: damaged, cut
    short, or not Parquet. The message names the file, pyarrow's reason, the rule that wrote it (from
    Snakemake's record of the run, :func:`writing_rule`) and the command that writes it again:
    Snakemake goes by time stamps, so it never rebuilds a damaged file on its own.

    Attributes (besides :class:`SourceFormatError`'s): ``rule``: the writing rule, or ``None``.
    """

    def __init__(self, path: str | os.PathLike[str], reason: str) -> None:
        self.rule = writing_rule(path)
        super().__init__(
            path, None, "a Parquet table" + (f" as rule {self.rule} writes it" if self.rule else ""), reason
        )
        if self.rule:
            fix = (
                f"It is damaged or cut short, and Snakemake will not rebuild it by itself (its time stamp is "
                f"newer than its inputs'): write it again with `snakemake --cores 1 <your targets> --forcerun "
                f"{self.rule}` (or this file alone: `snakemake --cores 1 --force {self.path}`), then run as before."
            )
        else:
            fix = (
                f"It is damaged or cut short: write it again with `snakemake --cores 1 --force {self.path}`, "
                "then run as before."
            )
        self.args = (f"{self.args[0]}. {fix}",)


SNAKEMAKE_METADATA = Path(".snakemake") / "metadata"
"""Where Snakemake records, per output file, the job that wrote it (relative to the workflow folder)."""


def writing_rule(path: str | os.PathLike[str], workdir: str | os.PathLike[str] = ".") -> str | None:
    """The rule that wrote ``path``, from Snakemake's record of the run in ``<workdir>/.snakemake/metadata``
    (its file backend: one JSON file per output, named by the URL-safe base64 of the output's path,
    in pieces of at most 254 characters, the leading ones prefixed ``@``); ``None`` when there is no
    readable record (a file not written by Snakemake, another persistence backend)."""
    key = os.path.relpath(Path(path).absolute(), Path(workdir).absolute())
    encoded = base64.urlsafe_b64encode(key.encode()).decode()
    pieces = [encoded[i : i + 254] for i in range(0, len(encoded), 254)]
    record = Path(workdir, SNAKEMAKE_METADATA, *["@" + piece for piece in pieces[:-1]], pieces[-1])
    try:
        rule = json.loads(record.read_text(encoding="utf-8")).get("rule")
    except (OSError, ValueError, AttributeError):
        return None
    return rule if isinstance(rule, str) and rule else None


_UNREADABLE = (pa.ArrowInvalid, pa.ArrowNotImplementedError, OSError)


@contextlib.contextmanager
def parquet_errors(path: str | os.PathLike[str]) -> Iterator[None]:
    """Turn pyarrow's errors while reading ``path`` into :class:`UnreadableTableError` (a missing file
    stays a ``FileNotFoundError``)."""
    try:
        yield
    except FileNotFoundError:
        raise
    except _UNREADABLE as exc:
        raise UnreadableTableError(path, f"{type(exc).__name__}: {exc}") from exc


def read_arrow(path: str | os.PathLike[str], **options: Any) -> pa.Table:
    """:func:`pyarrow.parquet.read_table` with ``options`` (columns, filters, ...).

    Raises:
        UnreadableTableError: the file is not readable Parquet (naming the rule that wrote it).
    """
    with parquet_errors(path):
        return pq.read_table(path, **options)


def read_table(
    path: str | os.PathLike[str], columns: list[str] | None = None, categories: list[str] | None = None
) -> pd.DataFrame:
    """Read a Parquet file into pandas with Arrow-backed string columns kept as Python strings;
    the ``categories`` columns (few distinct values, many rows) come as pandas categoricals.

    Raises:
        UnreadableTableError: the file is not readable Parquet (naming the rule that wrote it and the
            command that writes it again).
    """
    return read_arrow(path, columns=columns, read_dictionary=categories).to_pandas()


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
