"""UMLS Metathesaurus RRF adapter: MRCONSO, MRREL, MRSTY (and MRSAB) -> terminology intermediates.

Files (UMLS Reference Manual, §3.3 "Data Elements" and the file descriptions of MRCONSO, MRREL, MRSTY
and MRSAB) are ``<NAME>.RRF`` or ``<NAME>.RRF.gz`` in a ``META`` folder, read by the streaming reader
:func:`biosem.terminology.rrf.reader.iter_rrf` (the format, its checks, short "trailing nullcols"
rows). Each file's field count is the one MRFILES (or MRCOLS) of the release gives it, otherwise that
of its first row. This module gives the files their meaning: which columns are read and checked, which
rows are kept, what the rows of each terminology table are (:func:`read_rrf`).

Full releases are large (MRCONSO ~16 M rows, MRREL ~60 M rows): every block is filtered (LAT, SAB)
before it is kept, and only the columns needed downstream are kept, as integer codes where they allow
it (CUI numbers, SAB/TTY/LAT/REL/RELA dictionaries: :mod:`biosem.terminology.rrf.columns`).
:func:`write_rrf` sorts and deduplicates on those codes and streams the intermediates to Parquet (peak
memory of a full release: ``bench/bench_ingest_umls.py``, docs/benchmarks.md); :func:`read_rrf`
returns the same tables whole. MRCONSO is read in a thread of its own; the terms of a CUI-sorted
MRCONSO (as NLM ships it) are written while it is read (:mod:`biosem.terminology.rrf.terms`).
"""

from __future__ import annotations

import contextlib
import logging
import queue
import threading
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from functools import partial
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from biosem.errors import SourceFormatError, SourceNotFoundError
from biosem.io import ROW_GROUP, TableSpec, atomic_path, write_row_groups
from biosem.logs import Progress
from biosem.terminology.rrf import kernels
from biosem.terminology.rrf.columns import (
    Codes,
    PackedRows,
    concat,
    cui_numbers,
    cui_strings,
    dictionary_encode,
    distinct_cuis,
    distinct_string_order,
    gather,
    intersect,
    kept_rows,
    lookup,
    repeat_value,
    select,
    sort_distinct,
    sort_distinct_parts,
)
from biosem.terminology.rrf.reader import equals, iter_rrf, release_memory, string_buffers
from biosem.terminology.rrf.terms import (
    END,
    UNSORTED,
    WHOLE,
    Restart,
    RowGroups,
    Segment,
    SortedTerms,
    TermRows,
    TermValues,
    rewritten,
    term_kinds,
)
from biosem.terminology.schemas import (
    ASSOCIATIONS,
    RELATIONS,
    TERMINOLOGY_TABLES,
)

log = logging.getLogger(__name__)

# Column layouts, UMLS Reference Manual §3.3.
MRCONSO_COLUMNS: tuple[str, ...] = (
    "CUI", "LAT", "TS", "LUI", "STT", "SUI", "ISPREF", "AUI", "SAUI", "SCUI", "SDUI", "SAB", "TTY",
    "CODE", "STR", "SRL", "SUPPRESS", "CVF",
)  # fmt: skip
MRREL_COLUMNS: tuple[str, ...] = (
    "CUI1", "AUI1", "STYPE1", "REL", "CUI2", "AUI2", "STYPE2", "RELA", "RUI", "SRUI", "SAB", "SL",
    "RG", "DIR", "SUPPRESS", "CVF",
)  # fmt: skip
MRSTY_COLUMNS: tuple[str, ...] = ("CUI", "TUI", "STN", "STY", "ATUI", "CVF")
MRSAB_COLUMNS: tuple[str, ...] = (
    "VCUI", "RCUI", "VSAB", "RSAB", "SON", "SF", "SVER", "VSTART", "VEND", "IMETA", "RMETA", "SLC",
    "SCC", "SRL", "TFR", "CFR", "CXTY", "TTYL", "ATNL", "LAT", "CENC", "CURVER", "SABIN", "SSN", "SCIT",
)  # fmt: skip

CUI_PATTERN = r"C[0-9]{7}"
AUI_PATTERN = r"A[0-9]+"
TUI_PATTERN = r"T[0-9]{3}"

LAT_TO_ISO639_1: Mapping[str, str] = {
    "ENG": "en", "FRE": "fr", "SPA": "es", "GER": "de", "DUT": "nl", "ITA": "it", "POR": "pt",
    "JPN": "ja", "CZE": "cs", "RUS": "ru", "SWE": "sv", "KOR": "ko", "CHI": "zh",
}  # fmt: skip
"""UMLS LAT (ISO 639-2/B, upper case) -> ISO 639-1; any other LAT is lower-cased."""

ABBREVIATION_TTYS: frozenset[str] = frozenset({"AB", "ACR", "AA", "AM"})
"""UMLS term types read as abbreviations (abbreviation, acronym, attribute abbreviation, ...)."""

_NOCODE = "NOCODE"

# The columns each file contributes, and how many leading fields a row must have (the last needed
# column that has no default). Fields after the minimum may be missing and are read as "".
_MRCONSO_READ = (
    "CUI",
    "LAT",
    "TS",
    "STT",
    "ISPREF",
    "AUI",
    "SAB",
    "TTY",
    "CODE",
    "STR",
    "SRL",
    "SUPPRESS",
)
_MRCONSO_REQUIRED = MRCONSO_COLUMNS.index("STR") + 1  # SUPPRESS may be missing -> "" (active)
# The columns of few distinct values, read as codes where the reader can (see iter_rrf's ``coded``).
_MRCONSO_CODED = ("LAT", "TS", "STT", "ISPREF", "SAB", "TTY", "SRL", "SUPPRESS")
_MRREL_READ = ("CUI1", "REL", "CUI2", "RELA", "SAB")
_MRREL_CODED = ("REL", "RELA", "SAB")
_MRREL_REQUIRED = MRREL_COLUMNS.index("SAB") + 1
_MRSTY_READ = ("CUI", "TUI")
_MRSTY_REQUIRED = MRSTY_COLUMNS.index("TUI") + 1
_MRSAB_READ = ("VSAB", "RSAB", "SVER", "SRL", "CURVER")

SRL_PATTERN = "[0-49]"
"""Source restriction level: 0-4 (License Agreement Appendix categories), or 9 (SNOMED CT, under the
SNOMED CT Affiliate License: SNOMEDCT_US has SRL 9 in current releases). UMLS Reference Manual,
MRSAB and MRCONSO SRL."""
SUPPRESS_PATTERN = "[NOEY]"
"""SUPPRESS: N (not suppressible), O (obsolete), E (suppressed by an editor), Y (by the source's TTY)."""
_MRSAB_REQUIRED = MRSAB_COLUMNS.index("CURVER") + 1


# --------------------------------------------------------------------------------------------------
# The Metathesaurus

_ROW_GROUP = ROW_GROUP
"""Rows per written chunk: the row group of :func:`biosem.io.write_table`, so the files
:func:`write_rrf` streams are byte-identical to ``write_table`` of the whole table (a test makes both
smaller)."""


def read_rrf(
    meta_dir: str | Path,
    source: str,
    *,
    languages: Sequence[str] | None = ("ENG",),
    sabs: Sequence[str] | None = None,
    block_size: int = 8 << 20,
    trailing_nullcols: bool = False,
) -> dict[str, pa.Table]:
    """Read a UMLS ``META`` directory into the five terminology tables.

    Reads ``MRCONSO`` (required), ``MRREL``, ``MRSTY`` and ``MRSAB`` (optional), each as ``.RRF`` or
    ``.RRF.gz``. ``languages`` (UMLS LAT codes; ``None`` = all) and ``sabs`` (source abbreviations;
    ``None`` = all) filter MRCONSO rows; ``sabs`` also filters MRREL rows. Every row of a file has
    the field count MRFILES.RRF (else MRCOLS.RRF) of the release gives the file, or without either
    that of its first row; ``trailing_nullcols=True`` also accepts shorter rows holding at least the
    fields read (SQL*Loader "trailing nullcols" subsets, see :func:`iter_rrf`). SRL (MRCONSO, MRSAB)
    must be 0-4 or 9 (SNOMED CT) and SUPPRESS (MRCONSO) one of N, O, E, Y where the row has them.

    Returns:
        ``{"concepts", "terms", "relations", "associations", "mappings"}`` -> Arrow tables cast and
        sorted by :func:`biosem.io.to_arrow` with the ``biosem.terminology.schemas`` specs; ``source`` fills the
        ``source`` column of each.

        * concepts: one row per CUI with a kept MRCONSO row; ``active`` True; ``module`` = the
          smallest TUI of the CUI in MRSTY, null without MRSTY.
        * terms: one row per kept MRCONSO row (AUI): ``term_id`` = AUI, ``term`` = STR, ``language`` =
          ISO 639-1 of LAT (:data:`LAT_TO_ISO639_1`, else LAT lower-cased), ``active`` = SUPPRESS in
          {"N", ""}, ``sab`` = SAB, ``tty`` = TTY, ``scope``/``acceptability`` null. ``term_type``:
          "preferred" for exactly one term per CUI, the concept's preferred name: the first of its
          rows ordered by TS == "P", then STT == "PF", then ISPREF == "Y" (each true first), then
          AUI (string order). This follows how MRCONSO marks the preferred term (TS), string (STT)
          and atom (ISPREF); it is not the UMLS preferred name, which follows MRRANK's source
          precedence (an optional MRRANK ordering is future work). Else "abbreviation" if TTY in
          :data:`ABBREVIATION_TTYS`, else "synonym".
        * relations: the distinct (CUI2, REL, RELA, CUI1, SAB) of MRREL rows with both CUIs. UMLS
          defines REL as the relationship of the second concept or atom to the first (MRREL rows
          are "read from right to left"), so the triple reads ``subject_id = CUI2, rel = REL,
          object_id = CUI1`` (e.g. CUI2 CHD CUI1: CUI2 is a child of CUI1; CUI2 RELA=isa CUI1);
          ``rela`` = RELA or null; ``sab`` = SAB. AUI-level rows count at their CUIs;
          rows repeated at CUI level are kept once; CUI1 == CUI2 rows are kept. Empty without MRREL.
        * associations: empty: UMLS history (MRCUI: merged, deleted, split CUIs) is out of scope.
        * mappings: the distinct (CUI, SAB, CODE) of kept MRCONSO rows, CODE not "" nor "NOCODE";
          ``code_system`` = SAB.

        A full release gives tables of several GB (relations: tens of millions of rows); to write
        the intermediates of one, use :func:`write_rrf`, which streams them.

    Raises:
        SourceNotFoundError: ``meta_dir`` or its MRCONSO is missing.
        SourceFormatError: a malformed file (see :func:`iter_rrf`: a row with another field count
            than its file's layout, a last line without newline; CUIs must match ``C\\d{7}``, AUIs
            ``A\\d+``, TUIs ``T\\d{3}``, SRL 0-4 or 9, SUPPRESS N/O/E/Y), an AUI on two MRCONSO rows, an
            MRFILES layout that is not the adapter's, or both ``X.RRF`` and ``X.RRF.gz`` present.
        ValueError: empty ``languages`` or ``sabs``.

    Source: UMLS Reference Manual §3.3 (MRCONSO, MRREL, MRSTY, MRSAB).
    """
    tables = {}
    for group in _rrf_tables(meta_dir, source, languages, sabs, block_size, trailing_nullcols):
        for name, chunks in group.items():
            spec = TERMINOLOGY_TABLES[name]
            parts = rewritten(lambda chunks, spec=spec: [chunk.cast(spec.schema) for chunk in chunks], chunks)
            tables[name] = pa.concat_tables(parts) if parts else spec.schema.empty_table()
    _log_counts(meta_dir, {name: t.num_rows for name, t in tables.items()})
    return {name: tables[name] for name in TERMINOLOGY_TABLES}


def write_rrf(
    meta_dir: str | Path,
    source: str,
    outputs: Mapping[str, str | Path],
    *,
    languages: Sequence[str] | None = ("ENG",),
    sabs: Sequence[str] | None = None,
    block_size: int = 8 << 20,
    trailing_nullcols: bool = False,
) -> dict[str, int]:
    """Read a UMLS ``META`` directory and write the five terminology intermediates, streaming.

    The files (``outputs[table]`` for each table of :data:`biosem.terminology.schemas.TERMINOLOGY_TABLES`)
    are byte-identical to ``biosem.terminology.write.write_terminology(read_rrf(...), outputs, source)``, but
    no table is held whole: MRCONSO and MRREL are kept as integer codes (CUI numbers, dictionary
    codes of SAB, TTY, LAT, REL, RELA) plus the AUI, STR and CODE strings, sorted and deduplicated
    on those, and written in row groups of 2**20 rows (a full release: MRCONSO ~16 M rows, MRREL
    ~60 M rows). The terms of an MRCONSO sorted by CUI are written while it is still being read
    (one written again from the start if it is found not sorted after its first row groups). Every
    file is written to a temporary name and renamed only when all five are complete.

    Returns:
        Rows written per table.

    Raises:
        As :func:`read_rrf`; KeyError: a table missing from ``outputs``.

    Source: UMLS Reference Manual §3.3; the table contents are documented in :func:`read_rrf`.
    """
    missing = sorted(set(TERMINOLOGY_TABLES) - set(outputs))
    if missing:
        raise KeyError(f"no output path for {missing}")
    counts: dict[str, int] = {}
    with contextlib.ExitStack() as stack:
        for group in _rrf_tables(meta_dir, source, languages, sabs, block_size, trailing_nullcols):
            # The tables of a group are built from the same codes, each in its own thread.
            with ThreadPoolExecutor(len(group), thread_name_prefix="rrf-table") as pool:
                written = {
                    name: pool.submit(
                        _write_chunks,
                        chunks,
                        stack.enter_context(atomic_path(outputs[name])),
                        TERMINOLOGY_TABLES[name],
                    )
                    for name, chunks in group.items()
                }
                for name, future in written.items():
                    counts[name] = future.result()
                    log.info("%s: %s %d rows", source, name, counts[name])
            del group, written
    _log_counts(meta_dir, counts)
    return {name: counts[name] for name in TERMINOLOGY_TABLES}


def _write_chunks(chunks: Iterator[pa.Table], path: Path, spec: TableSpec) -> int:
    """Write the sorted chunks of a table as :func:`biosem.io.write_table` writes the whole table
    (:func:`biosem.io.write_row_groups`; again from the start on a ``Restart``), logging
    progress; return the row count."""
    return rewritten(partial(_write_counted, path=path, spec=spec), chunks)


def _write_counted(chunks: Iterable[pa.Table], path: Path, spec: TableSpec) -> int:
    with Progress(log, f"RRF table {spec.name}", None, unit="rows") as progress:

        def counted() -> Iterator[pa.Table]:
            for chunk in chunks:
                yield chunk
                progress.advance(chunk.num_rows)

        return write_row_groups(counted(), path, spec)


def _log_counts(meta_dir: str | Path, counts: Mapping[str, int]) -> None:
    log.info(
        "%s: %s",
        meta_dir,
        ", ".join(f"{counts[n]} {n}" for n in ("concepts", "terms", "relations", "mappings")),
    )


def _rrf_tables(
    meta_dir: str | Path,
    source: str,
    languages: Sequence[str] | None,
    sabs: Sequence[str] | None,
    block_size: int,
    trailing_nullcols: bool = False,
) -> Iterator[dict[str, Iterator[pa.Table]]]:
    """The five tables in two groups, as table name -> its chunks.

    Each table is an iterator of chunks of at most :data:`_ROW_GROUP` rows in its final sort order,
    with the columns of its schema (the dictionary columns as built by :func:`lookup`). The tables
    of a group may be consumed concurrently; a group must be consumed before the next is asked for,
    which is when the codes it needed are released: first what MRCONSO (and MRSTY) give, then what
    MRREL gives.
    """
    meta = Path(meta_dir)
    if not meta.is_dir():
        raise SourceNotFoundError(f"UMLS META directory not found: {meta}")
    if languages is not None and not languages:
        raise ValueError("languages must be None (all) or a non-empty sequence of LAT codes")
    if sabs is not None and not sabs:
        raise ValueError("sabs must be None (all) or a non-empty sequence of SABs")
    mrconso = _find(meta, "MRCONSO")
    if mrconso is None:
        raise SourceNotFoundError(f"no MRCONSO.RRF or MRCONSO.RRF.gz in {meta}")
    reading = _Reading(block_size, _release_layouts(meta, block_size), trailing_nullcols)
    mrsab = _find(meta, "MRSAB")
    if mrsab is not None:
        _log_mrsab(mrsab, sabs, reading)
    mrsty, mrrel = _find(meta, "MRSTY"), _find(meta, "MRREL")

    mrconso_read = _MrconsoRead(mrconso, languages, sabs, reading, source)
    yield {
        "concepts": _after(mrconso_read, _concept_chunks, mrsty, reading, source),
        "terms": mrconso_read.terms(),
        "mappings": _after(mrconso_read, _mapping_chunks, source),
    }
    del mrconso_read
    release_memory()
    relations = _read_mrrel(mrrel, sabs, reading) if mrrel is not None else None
    release_memory()
    yield {
        "relations": _relation_chunks(relations, source),
        "associations": iter([ASSOCIATIONS.schema.empty_table()]),
    }


MRFILES_COLUMNS: tuple[str, ...] = ("FIL", "DES", "FMT", "CLS", "RWS", "BTS")
MRCOLS_COLUMNS: tuple[str, ...] = ("COL", "DES", "REF", "MIN", "AV", "MAX", "FIL", "DTY")


@dataclass(frozen=True)
class _Layout:
    fields: int
    source: str  # for messages: "the layout of MRCONSO.RRF in MRFILES.RRF"


def _release_layouts(meta: Path, block_size: int) -> dict[str, tuple[_Layout, tuple[str, ...] | None]]:
    """File name (``MRCONSO.RRF``) -> its layout (field count, and the column names where known)
    from MRFILES.RRF (FIL|DES|FMT|CLS|...), else the column count per file of MRCOLS.RRF; {} without
    either (UMLS Reference Manual §3.3, "MRFILES", "MRCOLS")."""
    layouts: dict[str, tuple[_Layout, tuple[str, ...] | None]] = {}
    mrfiles = _find(meta, "MRFILES")
    if mrfiles is not None:
        for batch in iter_rrf(
            mrfiles, MRFILES_COLUMNS, include=("FIL", "FMT", "CLS"), patterns={"CLS": "[0-9]+"}, block_size=block_size
        ):
            for fil, fmt, cls in zip(*(batch.column(c).to_pylist() for c in ("FIL", "FMT", "CLS")), strict=True):
                source = f"the layout of {fil} in {mrfiles.name}"
                layouts[fil] = (_Layout(int(cls), source), tuple(fmt.split(",")))
        return layouts
    mrcols = _find(meta, "MRCOLS")
    if mrcols is not None:
        counts: dict[str, int] = {}
        for batch in iter_rrf(mrcols, MRCOLS_COLUMNS, include=("FIL",), block_size=block_size):
            for fil in batch.column("FIL").to_pylist():
                counts[fil] = counts.get(fil, 0) + 1
        layouts = {fil: (_Layout(n, f"the columns of {fil} in {mrcols.name}"), None) for fil, n in counts.items()}
    return layouts


@dataclass(frozen=True)
class _Reading:
    """How every file of one release is read: block size, the release's layouts, short rows."""

    block_size: int
    layouts: Mapping[str, tuple[_Layout, tuple[str, ...] | None]]
    trailing_nullcols: bool

    def options(self, path: Path, columns: tuple[str, ...]) -> dict[str, object]:
        """The :func:`iter_rrf` keyword arguments of ``path``; checks the release's column names."""
        name = path.name.removesuffix(".gz")
        options: dict[str, object] = {"block_size": self.block_size, "trailing_nullcols": self.trailing_nullcols}
        if name in self.layouts:
            layout, names = self.layouts[name]
            if names is not None and names != columns[: len(names)]:
                raise SourceFormatError(
                    path.parent / "MRFILES.RRF",
                    None,
                    f"{name} with the columns {','.join(columns)} (or a prefix of them)",
                    ",".join(names),
                )
            options.update(fields=layout.fields, layout_source=layout.source)
        return options


def _find(meta: Path, name: str) -> Path | None:
    found = [p for p in (meta / f"{name}.RRF", meta / f"{name}.RRF.gz") if p.is_file()]
    if len(found) > 1:
        raise SourceFormatError(meta, None, f"one of {name}.RRF, {name}.RRF.gz", "both")
    return found[0] if found else None


def _chunk_bounds(n: int) -> Iterator[tuple[int, int]]:
    """Row ranges of at most :data:`_ROW_GROUP` rows; one empty range for an empty table (as
    ``write_table`` writes one empty row group for it)."""
    if n == 0:
        yield 0, 0
    for lo in range(0, n, _ROW_GROUP):
        yield lo, min(lo + _ROW_GROUP, n)


# --------------------------------------------------------------------------------------------------
# MRCONSO: terms, mappings, the kept CUIs


@dataclass
class _Atoms:
    """Kept MRCONSO rows, compact: one entry per row in file order (short rows last)."""

    path: Path
    cui: np.ndarray  # int32 CUI numbers
    aui: pa.Array | None  # AUI strings (None: the terms were written as the file was read)
    aui_key: np.ndarray | None  # :func:`_aui_order_keys`; None if an AUI has > 10 digits
    string: pa.Array | None  # STR (None as aui)
    code: pa.Array  # CODE
    sab: np.ndarray  # codes into sab_values
    tty: np.ndarray
    lat: np.ndarray
    active: np.ndarray  # SUPPRESS in {"N", ""}
    rank: np.ndarray  # int8: 4 (TS != P) + 2 (STT != PF) + (ISPREF != Y); 0 = best
    sab_codes: Codes
    tty_codes: Codes
    lat_codes: Codes
    # The batches' AUI and STR columns and kept rows, where aui and string are None.
    parts: dict[str, list[tuple[pa.Array, np.ndarray | None]]] | None = None


def _read_mrconso(
    path: Path,
    languages: Sequence[str] | None,
    sabs: Sequence[str] | None,
    reading: _Reading,
    terms: SortedTerms | None = None,
) -> _Atoms:
    """The kept rows of MRCONSO; each batch's also given to ``terms`` while it streams (then the
    AUI and STR strings are not gathered: the atoms hold None)."""
    cols: dict[str, list] = {k: [] for k in ("cui", "aui_key", "sab", "tty", "lat", "active", "rank")}
    # The AUI, STR and CODE columns of each batch with its kept rows, gathered at the end.
    strings: dict[str, list[tuple[pa.Array, np.ndarray | None]]] = {"AUI": [], "STR": [], "CODE": []}
    sab_codes, tty_codes, lat_codes = Codes(), Codes(), Codes()
    n_read = 0
    fast_keys = True
    for batch in iter_rrf(
        path,
        MRCONSO_COLUMNS,
        include=_MRCONSO_READ,
        required=_MRCONSO_REQUIRED,
        patterns={"CUI": CUI_PATTERN, "AUI": AUI_PATTERN, "SRL": SRL_PATTERN, "SUPPRESS": SUPPRESS_PATTERN},
        coded=_MRCONSO_CODED,
        **reading.options(path, MRCONSO_COLUMNS),
    ):
        n_read += batch.num_rows
        # Codes and flags are computed on the whole batch, then gathered at the kept rows.
        lat = lat_codes.encode(batch.column("LAT"))
        sab = sab_codes.encode(batch.column("SAB"))
        keep = intersect(lat_codes.among(lat, languages), sab_codes.among(sab, sabs))
        if keep is not None and not keep.any():
            continue
        kept = kept_rows(keep)
        # 4 (TS != P) + 2 (STT != PF) + (ISPREF != Y), in int8 (a bool is one byte of 0 or 1).
        rank = (~equals(batch.column("TS"), b"P")).view(np.int8) << 2
        rank |= (~equals(batch.column("STT"), b"PF")).view(np.int8) << 1
        rank |= (~equals(batch.column("ISPREF"), b"Y")).view(np.int8)
        active = equals(batch.column("SUPPRESS"), b"N") | equals(batch.column("SUPPRESS"), b"")
        cols["cui"].append(select(cui_numbers(batch.column("CUI")), kept))
        if fast_keys:
            keys = _aui_order_keys(batch.column("AUI"), keep)
            fast_keys = keys is not None
            cols["aui_key"].append(keys)
        for name, parts in strings.items():
            parts.append((batch.column(name), kept))
        cols["sab"].append(select(sab, kept))
        cols["tty"].append(select(tty_codes.encode(batch.column("TTY")), kept))
        cols["lat"].append(select(lat, kept))
        cols["active"].append(select(active, kept))
        cols["rank"].append(select(rank, kept))
        if terms is not None and terms.streaming:
            rows = {k: cols[k][-1] for k in ("cui", "rank", "sab", "tty", "lat", "active")}
            rows["aui_key"] = keys if fast_keys else None
            rows["aui"], rows["string"] = (select(batch.column(name), kept) for name in ("AUI", "STR"))
            terms.add(rows, _term_values(lat_codes, sab_codes, tty_codes))
    if terms is None or not terms.streaming:
        # The per-batch arrays freed before AUI, STR and CODE are gathered (streamed terms: CODE alone,
        # small enough not to wait for it: the tables that need the atoms wait for this thread).
        release_memory()
    names = ("AUI", "STR", "CODE") if terms is None or not terms.streaming else ("CODE",)
    dtypes = {"cui": np.int32, "sab": np.uint16, "tty": np.uint16, "lat": np.uint16}
    dtypes |= {"active": np.bool_, "rank": np.int8}
    if fast_keys:
        dtypes["aui_key"] = np.int64
    # The columns joined in two threads (numpy and the gather kernel release the GIL): most of the
    # time goes to the first touch of the new arrays' pages.
    with ThreadPoolExecutor(2, thread_name_prefix="rrf-gather") as pool:
        gathered = {name: pool.submit(gather, path, name, strings.pop(name)) for name in names}
        joined = {k: pool.submit(concat, cols.pop(k), dtype) for k, dtype in dtypes.items()}
        column = {k: future.result() for k, future in [*gathered.items(), *joined.items()]}
    atoms = _Atoms(
        path=path,
        cui=column["cui"],
        aui=column.get("AUI"),
        aui_key=column.get("aui_key"),
        string=column.get("STR"),
        code=column["CODE"],
        sab=column["sab"],
        tty=column["tty"],
        lat=column["lat"],
        active=column["active"],
        rank=column["rank"],
        sab_codes=sab_codes,
        tty_codes=tty_codes,
        lat_codes=lat_codes,
        parts=strings if "AUI" not in column else None,
    )
    del cols
    log.info(
        "%s: %d rows kept of %d (LAT in %s, SAB in %s)",
        path.name,
        len(atoms.cui),
        n_read,
        "any" if languages is None else list(languages),
        "any" if sabs is None else list(sabs),
    )
    return atoms


_AUI_DIGITS = 10  # 11**10 < 2**35: a key packs with a CUI number (< 2**24) into 64 bits


def _aui_order_keys(aui: pa.Array, keep: np.ndarray | None = None) -> np.ndarray | None:
    """int64 keys ordered as the AUI strings ("A" + digits, validated), of the values where ``keep``
    (default: all), or None when one of them has more than :data:`_AUI_DIGITS` digits
    (:func:`biosem.terminology.rrf.kernels.base11_keys`)."""
    offsets, data = string_buffers(aui)
    return kernels.base11_keys(offsets, data, keep, 1, _AUI_DIGITS)


def _aui_ranks(atoms: _Atoms) -> tuple[np.ndarray, int]:
    """(a key per atom ordered as its AUI string, the key's bits); SourceFormatError if an AUI
    is repeated."""
    n = len(atoms.cui)
    if atoms.aui_key is not None:
        keys = atoms.aui_key
        repeat = _repeated_key(keys)
        bits = 35
    else:  # an AUI with more digits than the keys hold: rank the strings
        aui = atoms.aui
        by_aui = pc.sort_indices(aui).to_numpy()
        ordered = aui.take(pa.array(by_aui))
        same = np.flatnonzero(
            pc.equal(ordered.slice(1), ordered.slice(0, max(n - 1, 0))).to_numpy(zero_copy_only=False)
        )
        repeat = int(by_aui[same[0]]) if same.size else None
        keys = np.empty(n, dtype=np.int64)
        keys[by_aui] = np.arange(n)
        bits = max(n - 1, 1).bit_length()
    if repeat is not None:
        raise _repeated_aui(atoms.path, atoms.aui[repeat].as_py())
    return keys, bits


def _repeated_key(keys: np.ndarray) -> int | None:
    """The first row (file order) of the smallest repeated AUI key; None if none is."""
    ordered_keys = np.sort(keys)  # an unstable sort: only the repeats are wanted
    repeated = ordered_keys[1:][ordered_keys[1:] == ordered_keys[:-1]]
    return int(np.flatnonzero(keys == repeated[0])[0]) if repeated.size else None


def _repeated_aui(path: Path, aui: str) -> SourceFormatError:
    return SourceFormatError(path, None, "one MRCONSO row per AUI", f"AUI {aui} repeated")


def _iso639_1(lat: str) -> str | None:
    return LAT_TO_ISO639_1.get(lat, lat.lower()) or None


def _term_values(lat_codes: Codes, sab_codes: Codes, tty_codes: Codes) -> TermValues:
    tty = tty_codes.values()
    abbreviation = np.array([v in ABBREVIATION_TTYS for v in tty], dtype=bool)
    return TermValues([_iso639_1(v) for v in lat_codes.values()], sab_codes.values(), tty, abbreviation)


def _term_chunks(atoms: _Atoms, source: str) -> Iterator[pa.Table]:
    """Terms in (concept_id, term_id) order, from all the atoms; the preferred-name rule of
    :func:`read_rrf` (:func:`biosem.terminology.rrf.terms.term_kinds`)."""
    # The output order, (concept_id, term_id), as one uint64 key: CUI number, then AUI.
    aui_keys, bits = _aui_ranks(atoms)
    order = np.argsort(
        (atoms.cui.astype(np.uint64) << np.uint64(bits)) | aui_keys.astype(np.uint64),
        kind="stable",
    )
    del aui_keys
    values = _term_values(atoms.lat_codes, atoms.sab_codes, atoms.tty_codes)
    cui_sorted = atoms.cui[order]
    kind = term_kinds(cui_sorted, atoms.rank[order], atoms.tty[order], values)
    for lo, hi in _chunk_bounds(len(atoms.cui)):
        rows = order[lo:hi]
        index = pa.array(rows)
        yield TermRows(
            cui=cui_sorted[lo:hi],
            aui=atoms.aui.take(index),
            string=atoms.string.take(index),
            kind=kind[lo:hi],
            lat=atoms.lat[rows],
            active=atoms.active[rows],
            sab=atoms.sab[rows],
            tty=atoms.tty[rows],
            values=values,
        ).table(source)


class _MrconsoRead:
    """MRCONSO read in a thread of its own (:func:`_read_mrconso`): :meth:`atoms` waits for its
    kept rows; :meth:`terms` gives the terms table's chunks, those of a CUI-sorted file as it is
    read (:class:`biosem.terminology.rrf.terms.SortedTerms`), else once it is read
    (:func:`_term_chunks`). For a file found not sorted after row groups of terms were given,
    :meth:`terms` raises :class:`biosem.terminology.rrf.terms.Restart` with the whole table."""

    def __init__(
        self,
        path: Path,
        languages: Sequence[str] | None,
        sabs: Sequence[str] | None,
        reading: _Reading,
        source: str,
    ) -> None:
        self._source = source
        self._queue: queue.SimpleQueue = queue.SimpleQueue()
        self._atoms: Future[_Atoms] = Future()
        self._thread = threading.Thread(
            target=self._read, args=(path, languages, sabs, reading), name="rrf-mrconso", daemon=True
        )
        self._thread.start()

    def _read(self, path: Path, languages: Sequence[str] | None, sabs: Sequence[str] | None, reading: _Reading) -> None:
        terms = SortedTerms(self._queue.put)
        try:
            atoms = _read_mrconso(path, languages, sabs, reading, terms)
            self._atoms.set_result(atoms)
            release_memory()  # while the concepts and mappings are already being built
            if terms.streaming:  # the AUIs checked before the last row group (as _aui_ranks does)
                repeat = _repeated_key(atoms.aui_key)
                if repeat is not None:
                    aui = gather(path, "AUI", atoms.parts["AUI"])
                    raise _repeated_aui(path, aui[repeat].as_py())
                atoms.parts = None
            terms.finish(_term_values(atoms.lat_codes, atoms.sab_codes, atoms.tty_codes))
        except BaseException as exc:  # handed to the consumers, which raise it
            if not self._atoms.done():
                self._atoms.set_exception(exc)
            self._queue.put(exc)

    def atoms(self) -> _Atoms:
        """The kept MRCONSO rows, once the file is read; its error, if reading it failed."""
        return self._atoms.result()

    def terms(self) -> Iterator[pa.Table]:
        row_groups = RowGroups(_ROW_GROUP)
        while True:
            item = self._queue.get()
            if isinstance(item, Segment):
                for rows in row_groups.push(item):
                    yield rows.table(self._source)
            elif isinstance(item, BaseException):
                raise item
            elif item == WHOLE or (item == UNSORTED and not row_groups.given):
                yield from _term_chunks(self.atoms(), self._source)
                return
            elif item == UNSORTED:
                log.info("%s: not sorted by CUI: the terms are written again", self.atoms().path.name)
                raise Restart(_term_chunks(self.atoms(), self._source))
            else:
                assert item == END
                for rows in row_groups.rest():
                    yield rows.table(self._source)
                return


def _after(mrconso: _MrconsoRead, chunks: Callable[..., Iterator[pa.Table]], *args: object) -> Iterator[pa.Table]:
    """``chunks(atoms, *args)`` once MRCONSO is read."""
    yield from chunks(mrconso.atoms(), *args)


_MAPPING_PARTS = 4
_MAPPING_THREADS = 2  # the threads of rule ingest_umls


def _mapping_chunks(atoms: _Atoms, source: str) -> Iterator[pa.Table]:
    """Distinct (CUI, SAB, CODE), CODE not "" nor NOCODE, in (code_system, code, concept_id) order.

    The rows are split into :data:`_MAPPING_PARTS` consecutive ranges of (SAB rank, first byte of CODE), about
    equal in size; every row of a range sorts before every row of the next, so the ranges are
    sorted independently (in :data:`_MAPPING_THREADS` threads: Arrow and numpy release the GIL), and
    a row group is given as soon as the ranges it holds are sorted, while the next ones still are.
    In a range, CODE strings are dictionary-encoded (:func:`biosem.terminology.rrf.columns.dictionary_encode`)
    and the dictionary sorted once (by :func:`distinct_string_order`), so rows are sorted and
    deduplicated on integers (SAB rank, CODE rank, CUI number).
    """
    parts = _MAPPING_PARTS
    uncoded = equals(atoms.code, b"") | equals(atoms.code, _NOCODE.encode())
    coded = np.flatnonzero(~uncoded)
    sab_ranks = atoms.sab_codes.ranks()
    offsets, data = string_buffers(atoms.code)
    key = sab_ranks[atoms.sab[coded]] * 256 + data[offsets[coded]] if coded.size else np.zeros(0, np.int64)
    # Ranges of consecutive keys of about equal row counts, from the keys' histogram (a key is below
    # 256 per SAB; a range may be empty, e.g. one SAB and one first byte); each range's rows ascending.
    rows_to_key = np.cumsum(np.bincount(key, minlength=1))
    last_keys = np.searchsorted(rows_to_key, np.arange(1, parts) * (len(key) / parts))
    part_of = np.searchsorted(last_keys, np.arange(len(rows_to_key)), side="right").astype(np.uint8)[key]
    ranges = np.split(coded[np.argsort(part_of, kind="stable")], np.cumsum(np.bincount(part_of, minlength=parts))[:-1])
    del coded, key, part_of
    by_rank = sorted(atoms.sab_codes.values(), key=str.encode)
    with ThreadPoolExecutor(_MAPPING_THREADS, thread_name_prefix="rrf-mappings") as pool:
        pending = deque(pool.submit(_sorted_mappings, atoms, sab_ranks, rows) for rows in ranges)
        del ranges
        sorted_ranges: list[tuple[PackedRows, pa.Array]] = []
        starts = [0]  # the first row of each sorted range, then the rows of all of them
        lo = 0
        while True:
            while pending and starts[-1] < lo + _ROW_GROUP:  # the ranges this row group needs
                sorted_ranges.append(pending.popleft().result())
                starts.append(starts[-1] + len(sorted_ranges[-1][0]))
            hi = min(lo + _ROW_GROUP, starts[-1])
            if hi <= lo and lo:
                return
            # The part of each range in this row group (an empty table of each for an empty file).
            spans = [(max(lo - start, 0), min(hi - start, len(r[0]))) for r, start in zip(sorted_ranges, starts)]
            pieces = [
                (rows.fields(a, max(a, b)), codes)
                for (rows, codes), (a, b) in zip(sorted_ranges, spans)
                if a < b or hi == 0
            ]
            sab, cui = (np.concatenate([fields[i] for fields, _ in pieces]) for i in (0, 2))
            # One chunk per row group, each column in one piece, as write_table would write it.
            yield pa.table(
                {
                    "source": repeat_value(source, len(cui)),
                    "concept_id": cui_strings(cui),
                    "code_system": lookup(by_rank, sab),
                    "code": pa.concat_arrays([codes.take(pa.array(fields[1])) for fields, codes in pieces]),
                }
            )
            if hi < lo + _ROW_GROUP:
                return
            lo = hi


def _sorted_mappings(atoms: _Atoms, sab_ranks: np.ndarray, rows: np.ndarray) -> tuple[PackedRows, pa.Array]:
    """The distinct (SAB rank, CODE rank, CUI number) of the atoms ``rows``, sorted; the CODE
    strings in rank order."""
    indices, dictionary = dictionary_encode(atoms.code.take(pa.array(rows)))
    by_code = distinct_string_order(dictionary)
    code_rank = np.empty(len(by_code), dtype=np.int32)
    code_rank[by_code] = np.arange(len(by_code), dtype=np.int32)
    sorted_codes = dictionary.take(pa.array(by_code))
    fields = [
        sab_ranks[atoms.sab[rows]] if rows.size else np.zeros(0, np.int64),
        code_rank[indices],
        atoms.cui[rows],
    ]
    del indices, dictionary, by_code, code_rank
    sizes = [len(atoms.sab_codes), len(sorted_codes), int(atoms.cui.max(initial=0)) + 1]
    return sort_distinct(fields, sizes), sorted_codes


# --------------------------------------------------------------------------------------------------
# MRSTY: concepts


def _read_mrsty(path: Path, cuis: np.ndarray, reading: _Reading) -> np.ndarray:
    """The smallest TUI number of each CUI of ``cuis`` (sorted) in MRSTY; -1 where MRSTY has none."""
    smallest = np.full(len(cuis), np.iinfo(np.int32).max, dtype=np.int32)
    n_rows = 0
    for batch in iter_rrf(
        path,
        MRSTY_COLUMNS,
        include=_MRSTY_READ,
        required=_MRSTY_REQUIRED,
        patterns={"CUI": CUI_PATTERN, "TUI": TUI_PATTERN},
        **reading.options(path, MRSTY_COLUMNS),
    ):
        cui = cui_numbers(batch.column("CUI"))
        pos = np.searchsorted(cuis, cui)
        known = pos < len(cuis)
        known[known] = cuis[pos[known]] == cui[known]
        if not known.any():
            continue
        tui = pc.cast(pc.utf8_slice_codeunits(batch.column("TUI"), 1), pa.int32()).to_numpy()
        np.minimum.at(smallest, pos[known], tui[known])
        n_rows += int(known.sum())
    found = smallest != np.iinfo(np.int32).max
    log.info("%s: %d rows for %d kept CUIs", path.name, n_rows, int(found.sum()))
    return np.where(found, smallest, -1)


def _concept_chunks(atoms: _Atoms, mrsty: Path | None, reading: _Reading, source: str) -> Iterator[pa.Table]:
    """Concepts of the kept CUIs; ``module`` = smallest TUI in MRSTY (read here)."""
    cuis = distinct_cuis(atoms.cui)
    modules = _read_mrsty(mrsty, cuis, reading) if mrsty is not None else None
    for lo, hi in _chunk_bounds(len(cuis)):
        m = hi - lo
        if modules is None:
            module = pa.nulls(m, type=pa.string())
        else:
            tui = modules[lo:hi]
            text = pc.utf8_lpad(pc.cast(pa.array(tui), pa.string()), width=3, padding="0")
            module = pc.if_else(
                pa.array(tui < 0),
                pa.scalar(None, pa.string()),
                pc.binary_join_element_wise("T", text, ""),
            )
        chunk = pa.table(
            {
                "source": repeat_value(source, m),
                "concept_id": cui_strings(cuis[lo:hi]),
                "active": pa.repeat(True, m),
                "module": module,
            }
        )
        yield chunk


# --------------------------------------------------------------------------------------------------
# MRREL: relations


@dataclass
class _Relations:
    """Distinct CUI-level MRREL rows in output order, as (CUI2, REL, RELA, CUI1, SAB) codes."""

    rows: PackedRows  # fields: CUI2 number, rel_rela index, CUI1 number, sab index
    rel_rela_values: list[tuple[str, str | None]]  # (REL, RELA or None) in sort order
    sab_values: list[str | None]  # SAB or None, in sort order


def _read_mrrel(path: Path, sabs: Sequence[str] | None, reading: _Reading) -> _Relations:
    """Distinct CUI-level MRREL triples, sorted as the relations table (see :func:`read_rrf`)."""
    parts: dict[str, list[np.ndarray]] = {k: [] for k in ("cui1", "cui2", "rel", "rela", "sab")}
    codes = {k: Codes() for k in ("rel", "rela", "sab")}
    n_read = n_sab = 0
    optional_cui = f"(?:{CUI_PATTERN})?"
    for batch in iter_rrf(
        path,
        MRREL_COLUMNS,
        include=_MRREL_READ,
        required=_MRREL_REQUIRED,
        patterns={"CUI1": optional_cui, "CUI2": optional_cui},
        coded=_MRREL_CODED,
        **reading.options(path, MRREL_COLUMNS),
    ):
        n_read += batch.num_rows
        # As in MRCONSO: codes on the whole batch, then one numpy selection (SAB, both CUIs present).
        sab = codes["sab"].encode(batch.column("SAB"))
        by_sab = codes["sab"].among(sab, sabs)
        n_sab += batch.num_rows if by_sab is None else int(by_sab.sum())
        cui1, cui2 = batch.column("CUI1"), batch.column("CUI2")
        both = (np.diff(string_buffers(cui1)[0]) > 0) & (np.diff(string_buffers(cui2)[0]) > 0)
        keep = intersect(by_sab, None if both.all() else both)  # most releases have both CUIs on every row
        if keep is not None and not keep.any():
            continue
        kept = kept_rows(keep)
        parts["cui1"].append(cui_numbers(select(cui1, kept)))
        parts["cui2"].append(cui_numbers(select(cui2, kept)))
        parts["rel"].append(select(codes["rel"].encode(batch.column("REL")), kept))
        parts["rela"].append(select(codes["rela"].encode(batch.column("RELA")), kept))
        parts["sab"].append(select(sab, kept))
    n_both = sum(len(part) for part in parts["cui1"])
    # Sort keys: REL then RELA (null last) combined into one rank; SAB (null last). The batches' rows
    # are packed into the sort words one batch at a time (sort_distinct_parts): no field is concatenated.
    rel_rank = codes["rel"].ranks()
    rela_rank = codes["rela"].ranks(empty_last=True)
    n_rela = max(len(rela_rank), 1)
    n_pairs = max(len(rel_rank), 1) * n_rela
    rel_base, rela_base = (rel_rank * n_rela).astype(np.int32), rela_rank.astype(np.int32)
    # Dense ranks of the (REL, RELA) pairs present: a full release has ~1,000 of them.
    seen = np.zeros(n_pairs, dtype=np.int64)
    for rel, rela in zip(parts["rel"], parts["rela"], strict=True):
        seen += np.bincount(rel_base[rel] + rela_base[rela], minlength=n_pairs)
    present = np.flatnonzero(seen)
    dense = np.zeros(n_pairs, dtype=np.int32)
    dense[present] = np.arange(len(present), dtype=np.int32)
    sab_ranks = codes["sab"].ranks(empty_last=True).astype(np.int32)
    cuis = max((int(part.max(initial=0)) for k in ("cui1", "cui2") for part in parts[k]), default=0) + 1
    sizes = [cuis, max(len(present), 1), cuis, max(len(codes["sab"]), 1)]
    release_memory()

    def batches() -> Iterator[list[np.ndarray]]:
        """Each batch's sort fields, its arrays released as it is given."""
        for lists in parts.values():
            lists.reverse()
        while parts["cui1"]:
            rel, rela = parts["rel"].pop(), parts["rela"].pop()
            pair = dense[rel_base[rel] + rela_base[rela]]
            yield [parts["cui2"].pop(), pair, parts["cui1"].pop(), sab_ranks[parts["sab"].pop()]]

    rows = sort_distinct_parts(batches(), n_both, sizes)
    log.info(
        "%s: %d rows read, %d kept by SAB, %d with both CUIs, %d distinct at CUI level",
        path.name,
        n_read,
        n_sab,
        n_both,
        len(rows),
    )
    rel_values = sorted(codes["rel"].values(), key=str.encode)
    rela_values = sorted(codes["rela"].values(), key=lambda v: (v == "", v.encode()))
    sab_values = sorted(codes["sab"].values(), key=lambda v: (v == "", v.encode()))
    return _Relations(
        rows=rows,
        rel_rela_values=[(rel_values[c // n_rela], rela_values[c % n_rela] or None) for c in present] or [("", None)],
        sab_values=[v or None for v in sab_values] or [None],
    )


def _relation_chunks(relations: _Relations | None, source: str) -> Iterator[pa.Table]:
    if relations is None:
        yield RELATIONS.schema.empty_table()
        return
    rel = [r for r, _ in relations.rel_rela_values]
    rela = [a for _, a in relations.rel_rela_values]
    for lo, hi in _chunk_bounds(len(relations.rows)):
        subject, rr, object_, sab = relations.rows.fields(lo, hi)
        chunk = pa.table(
            {
                "source": repeat_value(source, hi - lo),
                "subject_id": cui_strings(subject),
                "rel": lookup(rel, rr),
                "rela": lookup(rela, rr),
                "object_id": cui_strings(object_),
                "sab": lookup(relations.sab_values, sab),
            }
        )
        yield chunk


# --------------------------------------------------------------------------------------------------
# MRSAB


def _log_mrsab(path: Path, sabs: Sequence[str] | None, reading: _Reading) -> None:
    """Validate MRSAB and log the current (CURVER = Y) SAB/version pairs; warn on unknown ``sabs``."""
    current: dict[str, str] = {}
    for batch in iter_rrf(
        path,
        MRSAB_COLUMNS,
        include=_MRSAB_READ,
        required=_MRSAB_REQUIRED,
        patterns={"RSAB": r"[^\s]+", "SRL": SRL_PATTERN, "CURVER": "[YN]"},
        **reading.options(path, MRSAB_COLUMNS),
    ):
        cur = batch.filter(pc.equal(batch.column("CURVER"), "Y"))
        for rsab, vsab, sver in zip(
            cur.column("RSAB").to_pylist(),
            cur.column("VSAB").to_pylist(),
            cur.column("SVER").to_pylist(),
            strict=True,
        ):
            current[rsab] = f"{vsab} ({sver})" if sver else vsab
    log.info(
        "%s: %d current sources: %s",
        path.name,
        len(current),
        ", ".join(f"{rsab}={version}" for rsab, version in sorted(current.items())),
    )
    missing = sorted(set(sabs or ()) - set(current))
    if missing:
        log.warning("%s: requested SABs not current in this release: %s", path.name, missing)
