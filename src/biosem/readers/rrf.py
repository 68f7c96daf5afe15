"""UMLS Metathesaurus RRF adapter: MRCONSO, MRREL, MRSTY (and MRSAB) -> terminology intermediates.

Format (UMLS Reference Manual, §3.3 "Data Elements" and the file descriptions of MRCONSO, MRREL, MRSTY
and MRSAB): one row per line, fields separated by ``|``, every row terminated by a trailing ``|``, no
header, no quoting (a ``"`` is a literal character), UTF-8. Files are ``<NAME>.RRF`` or ``<NAME>.RRF.gz``.

Some redistributed subsets were exported with SQL*Loader ``trailing nullcols`` and omit the last,
empty fields of a row (and sometimes the trailing ``|``). Such short rows are accepted as long as they
hold every field this adapter needs; the missing fields are read as empty strings. A row with more
fields than the file's column layout, or fewer than its required minimum, is an error.

Full releases are large (MRCONSO ~16 M rows, MRREL ~60 M rows): files are streamed block by block with
:func:`pyarrow.csv.open_csv`, every block is filtered (LAT, SAB) before it is kept, and only the columns
needed downstream are kept.
"""

from __future__ import annotations

import bisect
import gzip
import logging
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import partial
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.csv as pacsv

from biosem.errors import SourceFormatError, SourceNotFoundError
from biosem.io import to_arrow
from biosem.schemas import ASSOCIATIONS, CONCEPTS, MAPPINGS, RELATIONS, TERMS

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
_TRAILING = "__rrf_trailing__"  # the empty field after the row-terminating "|"

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
    "SUPPRESS",
)
_MRCONSO_REQUIRED = MRCONSO_COLUMNS.index("STR") + 1  # SUPPRESS may be missing -> "" (active)
_MRREL_READ = ("CUI1", "REL", "CUI2", "RELA", "SAB")
_MRREL_REQUIRED = MRREL_COLUMNS.index("SAB") + 1
_MRSTY_READ = ("CUI", "TUI")
_MRSTY_REQUIRED = MRSTY_COLUMNS.index("TUI") + 1
_MRSAB_READ = ("VSAB", "RSAB", "SVER", "CURVER")
_MRSAB_REQUIRED = MRSAB_COLUMNS.index("CURVER") + 1


# --------------------------------------------------------------------------------------------------
# Streaming reader


@dataclass
class _Problem:
    line: int
    expected: str
    found: str


def iter_rrf(
    path: str | Path,
    columns: Sequence[str],
    *,
    include: Sequence[str] | None = None,
    required: int | None = None,
    patterns: Mapping[str, str] | None = None,
    block_size: int = 64 << 20,
) -> Iterator[pa.RecordBatch]:
    """Stream a pipe-delimited RRF file (plain or ``.gz``) as record batches of string columns.

    Args:
        path: the ``.RRF`` or ``.RRF.gz`` file (gzip is detected from the ``.gz`` suffix).
        columns: the file's full column layout in order (e.g. :data:`MRCONSO_COLUMNS`), without the
            empty field after the trailing ``|``.
        include: the columns to return (default: all), in this order.
        required: how many leading fields a row must have (default: all of ``columns``). Rows with
            fewer fields but at least ``required`` ("trailing nullcols" exports) are padded with "".
        patterns: column -> RE2 regular expression every value must match in full (e.g.
            ``{"CUI": CUI_PATTERN}``); the columns must be in ``include``.
        block_size: bytes parsed per block; memory use is a small multiple of it.

    Yields:
        Record batches with exactly the ``include`` columns, all ``pa.string()``, never null. Rows of
        well-formed lines come in file order; padded short rows come in batches of their own (so the
        overall row order is not the file order).

    Raises:
        SourceFormatError: with the 1-based physical line number: a row with more fields than
            ``columns`` (plus the trailing empty one), fewer than ``required`` fields, an empty line
            (a row whose ``include`` columns are all empty), a value not matching its pattern, invalid
            UTF-8 (in an ``include`` column, or anywhere in a short row); with ``line=None``: an
            empty file. The first problem in file order is reported.
        ValueError: inconsistent arguments.

    Source: UMLS Reference Manual §3.3 (``|``-delimited, trailing ``|``, no quoting).
    """
    path = Path(path)
    columns = tuple(columns)
    include = columns if include is None else tuple(include)
    required = len(columns) if required is None else required
    patterns = dict(patterns or {})
    unknown = sorted(set(include) - set(columns))
    if unknown or len(set(columns)) != len(columns) or _TRAILING in columns:
        raise ValueError(f"include {unknown} not in the column layout {columns}, or bad layout")
    if not 1 <= required <= len(columns):
        raise ValueError(f"required must be in 1..{len(columns)}, got {required}")
    if set(patterns) - set(include):
        raise ValueError(f"patterns on columns not read: {sorted(set(patterns) - set(include))}")
    if block_size <= 0:
        raise ValueError(f"block_size must be positive, got {block_size}")
    try:
        yield from _RrfStream(path, columns, include, required, patterns, block_size).batches()
    except pa.ArrowInvalid as exc:
        raise _diagnose(path, exc) from exc


class _RrfStream:
    """State of one pass over an RRF file: rows skipped by the fast path, counters, first problem."""

    def __init__(
        self,
        path: Path,
        columns: tuple[str, ...],
        include: tuple[str, ...],
        required: int,
        patterns: dict[str, str],
        block_size: int,
    ) -> None:
        self.path = path
        self.columns = columns
        self.include = include
        self.required = required
        self.patterns = patterns
        self.block_size = block_size
        self.names = [*columns, _TRAILING]
        self.read = [*include, _TRAILING]
        # Rows the fast path skipped (wrong field count), as (line, text); handled in Python.
        self.pending: list[tuple[int, str]] = []
        # For the j-th skipped row (0-based) at line s: the number of well-formed rows before it,
        # s - 1 - j. Non-decreasing, so the line of well-formed row k is k + 1 + bisect_right(., k).
        self.valid_before_skipped: list[int] = []
        self.n_valid = 0
        self.n_padded = 0
        self.problem: _Problem | None = None
        self.unnumbered = False

    def _on_invalid_row(self, row: pacsv.InvalidRow) -> str:
        # pyarrow knows row numbers only when parsing serially, which we do (use_threads=False).
        # An exception raised here would be swallowed by pyarrow, so a missing number is noted.
        if row.number is None:
            self.unnumbered = True
            return "skip"
        self.valid_before_skipped.append(row.number - 1 - len(self.valid_before_skipped))
        self.pending.append((row.number, row.text))
        return "skip"

    def _line_of_valid(self, k: int) -> int:
        """The physical line of the k-th (0-based) row the fast path parsed."""
        return k + 1 + bisect.bisect_right(self.valid_before_skipped, k)

    def _line_of_valid_from(self, offset: int, i: int) -> int:
        return self._line_of_valid(offset + i)

    def _note(self, problem: _Problem | None) -> None:
        if problem is not None and (self.problem is None or problem.line < self.problem.line):
            self.problem = problem

    def _error(self) -> SourceFormatError:
        assert self.problem is not None
        p = self.problem
        return SourceFormatError(self.path, p.line, p.expected, p.found)

    def batches(self) -> Iterator[pa.RecordBatch]:
        read_options = pacsv.ReadOptions(
            column_names=self.names, block_size=self.block_size, use_threads=False
        )
        parse_options = pacsv.ParseOptions(
            delimiter="|",
            quote_char=False,
            double_quote=False,
            escape_char=False,
            newlines_in_values=False,
            ignore_empty_lines=False,
            invalid_row_handler=self._on_invalid_row,
        )
        convert_options = pacsv.ConvertOptions(
            column_types={name: pa.string() for name in self.names},
            include_columns=self.read,
            strings_can_be_null=False,
            check_utf8=True,
        )
        checked_through = 0  # every row on lines <= this has been checked
        with pa.input_stream(str(self.path), compression="detect") as stream:
            reader = pacsv.open_csv(
                stream,
                read_options=read_options,
                parse_options=parse_options,
                convert_options=convert_options,
            )
            for batch in reader:
                if self.unnumbered:
                    raise RuntimeError("pyarrow did not report the line number of a skipped row")
                padded = self._take_pending()
                if batch.num_rows:
                    k0 = self.n_valid
                    self.n_valid += batch.num_rows
                    self._note(self._check(batch, partial(self._line_of_valid_from, k0)))
                    checked_through = self._line_of_valid(self.n_valid - 1)
                if self.problem is not None:
                    if self.problem.line <= checked_through:
                        raise self._error()
                    continue  # a row before the problem may still be malformed: keep checking
                if padded is not None and padded.num_rows:
                    yield padded
                if batch.num_rows:
                    yield batch.drop_columns([_TRAILING])
        if self.unnumbered:
            raise RuntimeError("pyarrow did not report the line number of a skipped row")
        padded = self._take_pending()
        if self.problem is not None:
            raise self._error()
        if self.n_valid + self.n_padded == 0:
            raise SourceFormatError(self.path, None, "at least one RRF row", "an empty file")
        if padded is not None and padded.num_rows:
            yield padded
        log.info(
            "%s: %d rows read (%d short rows padded)",
            self.path.name,
            self.n_valid + self.n_padded,
            self.n_padded,
        )

    def _take_pending(self) -> pa.RecordBatch | None:
        """Parse the rows the fast path skipped: pad short rows, note malformed ones."""
        if not self.pending:
            return None
        rows = list(self.pending)
        del self.pending[: len(rows)]
        n_fields = len(self.columns)
        positions = [self.columns.index(c) for c in self.include]
        values: list[list[str]] = [[] for _ in self.include]
        lines: list[int] = []
        for line, text in rows:
            fields = text.split("|")
            if fields and fields[-1] == "":
                fields.pop()  # the row-terminating "|"
            if len(fields) > n_fields:
                self._note(
                    _Problem(
                        line, f"{n_fields} '|'-terminated fields", f"{len(fields)} fields: {text}"
                    )
                )
                continue
            if len(fields) < self.required:
                self._note(
                    _Problem(
                        line, f"at least {self.required} fields", f"{len(fields)} fields: {text}"
                    )
                )
                continue
            fields.extend([""] * (n_fields - len(fields)))
            for out, pos in zip(values, positions, strict=True):
                out.append(fields[pos])
            lines.append(line)
        batch = pa.RecordBatch.from_arrays(
            [pa.array(v, type=pa.string()) for v in values], names=list(self.include)
        )
        self.n_padded += batch.num_rows
        self._note(self._check(batch, lambda i: lines[i], trailing=False))
        return batch

    def _check(
        self, batch: pa.RecordBatch, line_of: Callable[[int], int], *, trailing: bool = True
    ) -> _Problem | None:
        """First problem (in row order) of a parsed batch: extra field, empty line, bad value."""
        if not batch.num_rows:
            return None
        found: list[tuple[int, str, str]] = []  # (row index, expected, found)
        if trailing:
            extra = pc.not_equal(batch.column(_TRAILING), "")
            if pc.any(extra).as_py():
                i = pc.index(extra, True).as_py()
                value = batch.column(_TRAILING)[i].as_py()
                found.append(
                    (i, f"{len(self.columns)} '|'-terminated fields", f"an extra field {value!r}")
                )
            # An empty line parses as one row of empty fields.
            width = pc.binary_length(batch.column(self.include[0]))
            for name in self.include[1:]:
                width = pc.add(width, pc.binary_length(batch.column(name)))
            empty = pc.equal(width, 0)
            if pc.any(empty).as_py():
                i = pc.index(empty, True).as_py()
                found.append((i, f"at least {self.required} fields", "an empty line"))
        for col, regex in self.patterns.items():
            ok = pc.match_substring_regex(batch.column(col), f"^(?:{regex})$")
            if not pc.all(ok).as_py():
                i = pc.index(ok, False).as_py()
                value = batch.column(col)[i].as_py()
                found.append((i, f"{col} matching {regex}", repr(value)))
        if not found:
            return None
        i, expected, what = min(found, key=lambda f: f[0])
        return _Problem(line_of(i), expected, what)


def _diagnose(path: Path, exc: pa.ArrowInvalid) -> SourceFormatError:
    """Turn a pyarrow parse failure into a located SourceFormatError."""
    with pa.input_stream(str(path), compression="detect") as stream:
        if not stream.read(1):
            return SourceFormatError(path, None, "at least one RRF row", "an empty file")
    opener = gzip.open if path.suffix == ".gz" else open
    with opener(path, "rb") as handle:
        for line, raw in enumerate(handle, start=1):
            try:
                raw.decode("utf-8")
            except UnicodeDecodeError as err:
                return SourceFormatError(
                    path, line, "UTF-8 text", f"{raw[max(err.start - 20, 0) : err.end + 20]!r}"
                )
    return SourceFormatError(path, None, "a pipe-delimited RRF file", str(exc))


# --------------------------------------------------------------------------------------------------
# The Metathesaurus


def read_rrf(
    meta_dir: str | Path,
    source: str,
    *,
    languages: Sequence[str] | None = ("ENG",),
    sabs: Sequence[str] | None = None,
    block_size: int = 64 << 20,
) -> dict[str, pa.Table]:
    """Read a UMLS ``META`` directory into the five terminology tables.

    Reads ``MRCONSO`` (required), ``MRREL``, ``MRSTY`` and ``MRSAB`` (optional), each as ``.RRF`` or
    ``.RRF.gz``. ``languages`` (UMLS LAT codes; ``None`` = all) and ``sabs`` (source abbreviations;
    ``None`` = all) filter MRCONSO rows; ``sabs`` also filters MRREL rows.

    Returns:
        ``{"concepts", "terms", "relations", "associations", "mappings"}`` -> Arrow tables cast and
        sorted by :func:`biosem.io.to_arrow` with the ``biosem.schemas`` specs; ``source`` fills the
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

    Raises:
        SourceNotFoundError: ``meta_dir`` or its MRCONSO is missing.
        SourceFormatError: a malformed file (see :func:`iter_rrf`; CUIs must match ``C\\d{7}``,
            AUIs ``A\\d+``, TUIs ``T\\d{3}``), an AUI on two MRCONSO rows, or both ``X.RRF`` and
            ``X.RRF.gz`` present.
        ValueError: empty ``languages`` or ``sabs``.

    Source: UMLS Reference Manual §3.3 (MRCONSO, MRREL, MRSTY, MRSAB).
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
    mrsab = _find(meta, "MRSAB")
    if mrsab is not None:
        _log_mrsab(mrsab, sabs, block_size)

    # Each table is cast (and its unsorted form released) as soon as it is built: for a full release
    # the peak is the largest table (relations) about twice over, during its cast and sort.
    rows = _read_mrconso(mrconso, languages, sabs, block_size)
    tables = {"mappings": to_arrow(_mappings(rows, source), MAPPINGS)}
    tables["terms"] = to_arrow(_terms(rows, source), TERMS)
    del rows
    terms = tables["terms"]
    cuis = terms.filter(pc.equal(terms.column("term_type"), "preferred")).column("concept_id")
    mrsty = _find(meta, "MRSTY")
    modules = _read_mrsty(mrsty, cuis, block_size) if mrsty is not None else None
    tables["concepts"] = to_arrow(_concepts(cuis, modules, source), CONCEPTS)
    mrrel = _find(meta, "MRREL")
    relations = RELATIONS.schema.empty_table()
    if mrrel is not None:
        relations = _read_mrrel(mrrel, sabs, block_size, source)
    tables["relations"] = to_arrow(relations, RELATIONS)
    del relations
    tables["associations"] = to_arrow(ASSOCIATIONS.schema.empty_table(), ASSOCIATIONS)
    log.info(
        "%s: %s",
        meta,
        ", ".join(
            f"{tables[name].num_rows} {name}"
            for name in ("concepts", "terms", "relations", "mappings")
        ),
    )
    return {
        name: tables[name]
        for name in ("concepts", "terms", "relations", "associations", "mappings")
    }


def _find(meta: Path, name: str) -> Path | None:
    found = [p for p in (meta / f"{name}.RRF", meta / f"{name}.RRF.gz") if p.is_file()]
    if len(found) > 1:
        raise SourceFormatError(meta, None, f"one of {name}.RRF, {name}.RRF.gz", "both")
    return found[0] if found else None


def _keep(batch: pa.RecordBatch, column: str, values: Sequence[str] | None) -> pa.Array | None:
    return None if values is None else pc.is_in(batch.column(column), value_set=pa.array(values))


def _and(a: pa.Array | None, b: pa.Array | None) -> pa.Array | None:
    return b if a is None else a if b is None else pc.and_(a, b)


_MRCONSO_KEPT = pa.schema(
    [
        ("CUI", pa.string()),
        ("AUI", pa.string()),
        ("STR", pa.string()),
        ("SAB", pa.string()),
        ("TTY", pa.string()),
        ("CODE", pa.string()),
        ("language", pa.string()),
        ("active", pa.bool_()),
        ("rank", pa.int8()),
    ]
)


def _read_mrconso(
    path: Path, languages: Sequence[str] | None, sabs: Sequence[str] | None, block_size: int
) -> pa.Table:
    """Kept MRCONSO rows as :data:`_MRCONSO_KEPT`; ``rank`` orders a CUI's rows (0 = best)."""
    kept: list[pa.RecordBatch] = []
    n_read = 0
    for batch in iter_rrf(
        path,
        MRCONSO_COLUMNS,
        include=_MRCONSO_READ,
        required=_MRCONSO_REQUIRED,
        patterns={"CUI": CUI_PATTERN, "AUI": AUI_PATTERN},
        block_size=block_size,
    ):
        n_read += batch.num_rows
        mask = _and(_keep(batch, "LAT", languages), _keep(batch, "SAB", sabs))
        if mask is not None:
            batch = batch.filter(mask)
        if not batch.num_rows:
            continue
        rank = pc.add(
            pc.add(
                pc.multiply(pc.cast(pc.not_equal(batch.column("TS"), "P"), pa.int8()), 4),
                pc.multiply(pc.cast(pc.not_equal(batch.column("STT"), "PF"), pa.int8()), 2),
            ),
            pc.cast(pc.not_equal(batch.column("ISPREF"), "Y"), pa.int8()),
        )
        active = pc.is_in(batch.column("SUPPRESS"), value_set=pa.array(["N", ""]))
        kept.append(
            pa.RecordBatch.from_arrays(
                [
                    batch.column("CUI"),
                    batch.column("AUI"),
                    batch.column("STR"),
                    batch.column("SAB"),
                    batch.column("TTY"),
                    batch.column("CODE"),
                    _iso639_1(batch.column("LAT")),
                    active,
                    pc.cast(rank, pa.int8()),
                ],
                schema=_MRCONSO_KEPT,
            )
        )
    table = pa.Table.from_batches(kept, schema=_MRCONSO_KEPT)
    log.info(
        "%s: %d rows kept of %d (LAT in %s, SAB in %s)",
        path.name,
        table.num_rows,
        n_read,
        "any" if languages is None else list(languages),
        "any" if sabs is None else list(sabs),
    )
    n_aui = pc.count_distinct(table.column("AUI")).as_py() if table.num_rows else 0
    if n_aui != table.num_rows:
        counts = table.group_by("AUI").aggregate([("AUI", "count")])
        dup = counts.filter(pc.greater(counts.column("AUI_count"), 1)).column("AUI")[0].as_py()
        raise SourceFormatError(path, None, "one MRCONSO row per AUI", f"AUI {dup} repeated")
    return table


def _iso639_1(lat: pa.Array) -> pa.Array:
    encoded = pc.dictionary_encode(lat)
    codes = [LAT_TO_ISO639_1.get(v, v.lower()) or None for v in encoded.dictionary.to_pylist()]
    return pc.take(pa.array(codes, type=pa.string()), encoded.indices)


def _terms(rows: pa.Table, source: str) -> pa.Table:
    """MRCONSO rows -> terms columns, with the preferred-name rule of :func:`read_rrf`."""
    ordered = rows.sort_by([("CUI", "ascending"), ("rank", "ascending"), ("AUI", "ascending")])
    n = ordered.num_rows
    cui = ordered.column("CUI").combine_chunks()
    first = np.ones(n, dtype=bool)
    if n > 1:
        first[1:] = pc.not_equal(cui.slice(1), cui.slice(0, n - 1)).to_numpy(zero_copy_only=False)
    tty = ordered.column("TTY")
    term_type = pc.if_else(
        pa.array(first),
        "preferred",
        pc.if_else(
            pc.is_in(tty, value_set=pa.array(sorted(ABBREVIATION_TTYS))), "abbreviation", "synonym"
        ),
    )
    nulls = pa.nulls(n, type=pa.string())
    return pa.table(
        {
            "source": pa.repeat(source, n),
            "concept_id": cui,
            "term_id": ordered.column("AUI"),
            "term": ordered.column("STR"),
            "term_type": term_type,
            "language": ordered.column("language"),
            "active": ordered.column("active"),
            "scope": nulls,
            "acceptability": nulls,
            "sab": ordered.column("SAB"),
            "tty": tty,
        }
    )


def _read_mrsty(path: Path, cuis: pa.ChunkedArray, block_size: int) -> pa.Table:
    """(concept_id, module): the smallest TUI of each CUI in ``cuis`` that MRSTY lists."""
    value_set = cuis.combine_chunks() if cuis.num_chunks else pa.array([], type=pa.string())
    kept: list[pa.RecordBatch] = []
    for batch in iter_rrf(
        path,
        MRSTY_COLUMNS,
        include=_MRSTY_READ,
        required=_MRSTY_REQUIRED,
        patterns={"CUI": CUI_PATTERN, "TUI": TUI_PATTERN},
        block_size=block_size,
    ):
        batch = batch.filter(pc.is_in(batch.column("CUI"), value_set=value_set))
        if batch.num_rows:
            kept.append(batch)
    schema = pa.schema([("CUI", pa.string()), ("TUI", pa.string())])
    table = pa.Table.from_batches(kept, schema=schema)
    smallest = table.group_by("CUI").aggregate([("TUI", "min")])
    log.info("%s: %d rows for %d kept CUIs", path.name, table.num_rows, smallest.num_rows)
    return smallest.rename_columns({"CUI": "concept_id", "TUI_min": "module"})


def _concepts(cuis: pa.ChunkedArray, modules: pa.Table | None, source: str) -> pa.Table:
    n = len(cuis)
    concepts = pa.table(
        {"source": pa.repeat(source, n), "concept_id": cuis, "active": pa.repeat(True, n)}
    )
    if modules is None:
        return concepts.append_column("module", pa.nulls(n, type=pa.string()))
    return concepts.join(modules, keys="concept_id", join_type="left outer")


def _mappings(rows: pa.Table, source: str) -> pa.Table:
    code = rows.column("CODE")
    coded = rows.filter(pc.invert(pc.is_in(code, value_set=pa.array(["", _NOCODE]))))
    distinct = coded.select(["CUI", "SAB", "CODE"]).group_by(["CUI", "SAB", "CODE"]).aggregate([])
    return pa.table(
        {
            "source": pa.repeat(source, distinct.num_rows),
            "concept_id": distinct.column("CUI"),
            "code_system": distinct.column("SAB"),
            "code": distinct.column("CODE"),
        }
    )


def _read_mrrel(path: Path, sabs: Sequence[str] | None, block_size: int, source: str) -> pa.Table:
    """Distinct CUI-level MRREL triples as relations columns (see :func:`read_rrf`)."""
    kept: list[pa.RecordBatch] = []
    n_read = n_sab = 0
    optional_cui = f"(?:{CUI_PATTERN})?"
    for batch in iter_rrf(
        path,
        MRREL_COLUMNS,
        include=_MRREL_READ,
        required=_MRREL_REQUIRED,
        patterns={"CUI1": optional_cui, "CUI2": optional_cui},
        block_size=block_size,
    ):
        n_read += batch.num_rows
        mask = _keep(batch, "SAB", sabs)
        if mask is not None:
            batch = batch.filter(mask)
        n_sab += batch.num_rows
        batch = batch.filter(
            pc.and_(pc.not_equal(batch.column("CUI1"), ""), pc.not_equal(batch.column("CUI2"), ""))
        )
        if batch.num_rows:
            kept.append(batch)
    schema = pa.schema([(name, pa.string()) for name in _MRREL_READ])
    table = pa.Table.from_batches(kept, schema=schema)
    distinct = table.group_by(list(_MRREL_READ)).aggregate([])
    log.info(
        "%s: %d rows read, %d kept by SAB, %d with both CUIs, %d distinct at CUI level",
        path.name,
        n_read,
        n_sab,
        table.num_rows,
        distinct.num_rows,
    )
    rela = distinct.column("RELA")
    sab = distinct.column("SAB")
    return pa.table(
        {
            "source": pa.repeat(source, distinct.num_rows),
            "subject_id": distinct.column("CUI2"),
            "rel": distinct.column("REL"),
            "rela": pc.if_else(pc.equal(rela, ""), pa.scalar(None, pa.string()), rela),
            "object_id": distinct.column("CUI1"),
            "sab": pc.if_else(pc.equal(sab, ""), pa.scalar(None, pa.string()), sab),
        }
    )


def _log_mrsab(path: Path, sabs: Sequence[str] | None, block_size: int) -> None:
    """Validate MRSAB and log the current (CURVER = Y) SAB/version pairs; warn on unknown ``sabs``."""
    current: dict[str, str] = {}
    for batch in iter_rrf(
        path,
        MRSAB_COLUMNS,
        include=_MRSAB_READ,
        required=_MRSAB_REQUIRED,
        patterns={"RSAB": r"[^\s]+", "CURVER": "[YN]"},
        block_size=block_size,
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
