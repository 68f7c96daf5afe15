"""SNOMED CT RF2 adapter: a Full or Snapshot release folder -> the terminology intermediates.

Source: SNOMED CT Release File Specification (SNOMED International, https://snomed.org/rfs):
"Release File Naming Convention" (file names); "File Layout and Content" (UTF-8, tab-separated, one
header row, no quoting, CR LF or LF line ends); "Release Types" (a Full file holds every version of
every component, a Snapshot file the latest one); 4.2.1-4.2.3 Concept / Description / Relationship
File Specification; the Language and Association reference set specifications; 6.1 / 6.3 "SCTID Data
Type" and "SCTID Constraints" (6-18 decimal digits, no leading zero).

Every file is read by :mod:`pyarrow.csv` with an explicit all-string schema and checked in
vectorised form; a Full release is reduced to the latest row per id by ``effectiveTime``, so one
code path serves Full and Snapshot files.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.csv as pacsv

from biosem.errors import SourceFormatError, SourceNotFoundError
from biosem.io import to_arrow
from biosem.terminology.schemas import ASSOCIATIONS, CONCEPTS, MAPPINGS, RELATIONS, TERMS

log = logging.getLogger(__name__)

FSN_TYPE = "900000000000003001"
SYNONYM_TYPE = "900000000000013009"
PREFERRED = "900000000000548007"
ACCEPTABLE = "900000000000549004"
US_ENGLISH_REFSET = "900000000000509007"
GB_ENGLISH_REFSET = "900000000000508004"
ASSOCIATION_REFSETS: dict[str, str] = {
    "900000000000523009": "possibly_equivalent_to",
    "900000000000526001": "replaced_by",
    "900000000000527005": "same_as",
}
"""Historical association refsets kept, as refsetId -> ``kind`` of the associations table."""

# Column kinds, checked per row: SCTID, UUID (refset member id), 8-digit date, 0/1 flag, integer.
_SCTID = ("SCTID (6-18 decimal digits, no leading zero)", r"^[1-9][0-9]{5,17}$")
_UUID = ("UUID", r"^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$")
_TIME = ("effectiveTime as 8 digits (YYYYMMDD)", r"^[0-9]{8}$")
_FLAG = ("active flag 0 or 1", r"^[01]$")
_INT = ("non-negative integer", r"^[0-9]+$")
_ANY = None
_ACCEPTABILITY = (
    f"acceptabilityId {PREFERRED} (preferred) or {ACCEPTABLE} (acceptable)",
    f"^({PREFERRED}|{ACCEPTABLE})$",
)


@dataclass(frozen=True)
class _FileType:
    """One kind of RF2 file: how its name looks, its exact header and the check of each column."""

    name: str
    pattern: re.Pattern[str]  # group "release" is Full or Snapshot
    columns: dict[str, tuple[str, str] | None]
    required: bool

    @property
    def is_refset(self) -> bool:
        return self.columns["id"] is _UUID


_COMPONENT_HEAD: dict[str, tuple[str, str] | None] = {
    "id": _SCTID,
    "effectiveTime": _TIME,
    "active": _FLAG,
    "moduleId": _SCTID,
}
_REFSET_HEAD: dict[str, tuple[str, str] | None] = {
    "id": _UUID,
    "effectiveTime": _TIME,
    "active": _FLAG,
    "moduleId": _SCTID,
    "refsetId": _SCTID,
    "referencedComponentId": _SCTID,
}

CONCEPT_FILE = _FileType(
    "concept",
    re.compile(r"sct2_Concept_(?P<release>Full|Snapshot)_.*\.txt"),
    {**_COMPONENT_HEAD, "definitionStatusId": _SCTID},
    required=True,
)
DESCRIPTION_FILE = _FileType(
    "description",
    re.compile(r"sct2_Description_(?P<release>Full|Snapshot)-.*\.txt"),
    {
        **_COMPONENT_HEAD,
        "conceptId": _SCTID,
        "languageCode": _ANY,
        "typeId": _SCTID,
        "term": _ANY,
        "caseSignificanceId": _SCTID,
    },
    required=True,
)
LANGUAGE_FILE = _FileType(
    "language refset",
    re.compile(r"der2_cRefset_Language(?P<release>Full|Snapshot)-.*\.txt"),
    {**_REFSET_HEAD, "acceptabilityId": _ACCEPTABILITY},
    required=False,
)
ASSOCIATION_FILE = _FileType(
    "association refset",
    # "AssociationReference" in older releases, "Association" since the 2020s.
    re.compile(r"der2_cRefset_Association(?:Reference)?(?P<release>Full|Snapshot)_.*\.txt"),
    {**_REFSET_HEAD, "targetComponentId": _SCTID},
    required=False,
)
RELATIONSHIP_FILE = _FileType(
    "relationship",
    # The inferred file only: not sct2_StatedRelationship_*, not sct2_RelationshipConcreteValues_*.
    re.compile(r"sct2_Relationship_(?P<release>Full|Snapshot)_.*\.txt"),
    {
        **_COMPONENT_HEAD,
        "sourceId": _SCTID,
        "destinationId": _SCTID,
        "relationshipGroup": _INT,
        "typeId": _SCTID,
        "characteristicTypeId": _SCTID,
        "modifierId": _SCTID,
    },
    required=False,
)
_FILE_TYPES = (CONCEPT_FILE, DESCRIPTION_FILE, LANGUAGE_FILE, ASSOCIATION_FILE, RELATIONSHIP_FILE)
_RELEASE_TYPES = {"auto": "auto", "full": "Full", "snapshot": "Snapshot"}


def read_rf2(
    release_dir: str | Path,
    source: str,
    *,
    release_type: str = "auto",
    language_refsets: Sequence[str] = (US_ENGLISH_REFSET, GB_ENGLISH_REFSET),
    skip_comments: bool = False,
) -> dict[str, pa.Table]:
    """Read a SNOMED CT RF2 release folder into the five terminology tables.

    Files are found recursively under ``release_dir`` and read in sorted path order:
    ``sct2_Concept_{Full|Snapshot}_*.txt`` and ``sct2_Description_{Full|Snapshot}-*.txt`` (required;
    several language files are concatenated), ``der2_cRefset_Language{Full|Snapshot}-*.txt``,
    ``der2_cRefset_Association[Reference]{Full|Snapshot}_*.txt`` and the inferred
    ``sct2_Relationship_{Full|Snapshot}_*.txt`` (optional: a missing file contributes no rows).
    Every file is reduced to its latest row per ``id`` (the SCTID, or the member UUID for a refset)
    by ``effectiveTime``: a Full file becomes its snapshot, a Snapshot file is unchanged.

    Args:
        release_dir: a folder holding the release (any depth), e.g. ``.../RF2Release`` or
            ``.../RF2Release/Snapshot``.
        source: the value of every ``source`` column (e.g. ``"snomedct_int_20140131"``).
        release_type: ``"Full"``, ``"Snapshot"`` (case-insensitive) or ``"auto"``: Snapshot when a
            Snapshot concept file exists, else Full. Delta files are never read.
        language_refsets: language refset SCTIDs in order of preference; a description's
            acceptability comes from the first of them that has an active member for it (default:
            US English, then GB English).
        skip_comments: also accept lines starting with ``#`` and blank lines, as in SNOMED
            International's Snowstorm test fixtures. They are not RF2; by default they are errors.

    Returns:
        ``{"concepts", "terms", "relations", "associations", "mappings"}`` -> Arrow tables cast by
        :func:`biosem.io.to_arrow` to the specs of :mod:`biosem.terminology.schemas`:

        * concepts: one row per concept id: ``concept_id``, ``active`` (latest row), ``module``
          (moduleId).
        * terms: one row per FSN (typeId 900000000000003001) or synonym (900000000000013009)
          description, active or not; text definitions are skipped. ``term_id`` is the
          description id; ``term_type`` is ``"fsn"``, ``"preferred"`` (a synonym preferred in the
          chosen language refset) or ``"synonym"``; ``acceptability`` ``"preferred"``,
          ``"acceptable"`` or null; ``language`` the languageCode; ``scope``, ``sab``, ``tty`` null.
        * relations: active inferred relationships, distinct by (sourceId, typeId, destinationId):
          ``subject_id`` sourceId, ``rel`` typeId, ``rela`` the type concept's active FSN without
          its final ``" (semantic tag)"`` (null if the type has none), ``object_id``
          destinationId, ``sab`` null.
        * associations: active members of POSSIBLY EQUIVALENT TO (900000000000523009), REPLACED
          BY (900000000000526001) and SAME AS (900000000000527005): ``inactive_id``
          (referencedComponentId), ``target_id`` (targetComponentId), ``kind``. Other
          association refsets are counted in the log and dropped.
        * mappings: empty (RF2 has no code mappings in these files).

    Raises:
        SourceNotFoundError: ``release_dir`` is not a folder.
        ValueError: ``release_type`` is not one of auto/Full/Snapshot.
        SourceFormatError: no concept or no description file of the chosen release type (``line``
            None); an empty file (``line`` None); a header that is not the RF2 header of its file
            type (line 1); a row with the wrong number of columns; bytes that are not UTF-8; a
            malformed SCTID, member UUID, effectiveTime (8 digits), active flag (0/1),
            relationshipGroup or acceptabilityId; a file whose last line has no final newline (a
            truncated file, even when the cut row has every column). ``line`` is the 1-based
            physical line of the first offending row. A concept or description file with the header
            only (``line`` None: "no rows").
    """
    root = Path(release_dir)
    if not root.is_dir():
        raise SourceNotFoundError(f"SNOMED CT release folder not found: {root}")
    try:
        wanted = _RELEASE_TYPES[release_type.lower()]
    except KeyError:
        raise ValueError(f"release_type must be 'auto', 'Full' or 'Snapshot', not {release_type!r}") from None
    files, chosen = _find_files(root, wanted)
    log.info("RF2 %s release under %s", chosen, root)

    read = {ft.name: _read_latest(files[ft.name], ft, skip_comments) for ft in _FILE_TYPES}
    concepts = _concepts(read[CONCEPT_FILE.name], source)
    terms = _terms(read[DESCRIPTION_FILE.name], read[LANGUAGE_FILE.name], language_refsets, source)
    relations = _relations(read[RELATIONSHIP_FILE.name], read[DESCRIPTION_FILE.name], source)
    associations = _associations(read[ASSOCIATION_FILE.name], source)
    mappings = MAPPINGS.schema.empty_table()

    log.info(
        "concepts: %d (%d active)",
        concepts.num_rows,
        pc.sum(concepts["active"]).as_py() or 0,
    )
    return {
        "concepts": to_arrow(concepts, CONCEPTS),
        "terms": to_arrow(terms, TERMS),
        "relations": to_arrow(relations, RELATIONS),
        "associations": to_arrow(associations, ASSOCIATIONS),
        "mappings": to_arrow(mappings, MAPPINGS),
    }


def strip_final_parenthesised_group(names: pa.Array | pa.ChunkedArray) -> pa.Array | pa.ChunkedArray:
    """Remove a final ``" (...)"`` group from each name: ``"Is a (attribute)"`` -> ``"Is a"``.

    The group is whitespace, ``(``, text without parentheses, ``)`` and trailing whitespace, whatever
    precedes it. Names without such a group are returned unchanged; nulls stay null. Used for the
    semantic tag of relationship-type FSNs (SNOMED CT Editorial Guide, "Fully Specified Name").
    Not the rule of term FSNs (:func:`biosem.termpairs.positives.strip_semantic_tag`, medisim's),
    which keeps a group after ``" or"`` or ``"&"`` and splits at the last ``" ("`` of nested ones.
    """
    return pc.replace_substring_regex(names, pattern=r"\s+\([^()]*\)\s*$", replacement="")


# ------------------------------------------------------------------------------------------ files


def _find_files(root: Path, wanted: str) -> tuple[dict[str, list[Path]], str]:
    """Map each file type to its sorted files of the chosen release type (Full or Snapshot)."""
    found: dict[tuple[str, str], list[Path]] = {}
    for path in sorted(p for p in root.rglob("*.txt") if p.is_file()):
        for ft in _FILE_TYPES:
            match = ft.pattern.fullmatch(path.name)
            if match:
                found.setdefault((ft.name, match["release"]), []).append(path)
    if wanted == "auto":
        wanted = "Snapshot" if (CONCEPT_FILE.name, "Snapshot") in found else "Full"
    files = {ft.name: found.get((ft.name, wanted), []) for ft in _FILE_TYPES}
    for ft in _FILE_TYPES:
        if ft.required and not files[ft.name]:
            stem = ft.pattern.pattern.replace("(?P<release>Full|Snapshot)", wanted)
            raise SourceFormatError(
                root,
                None,
                f"an RF2 {ft.name} file matching {stem} under the release folder",
                "no such file",
            )
        log.info("%s files: %s", ft.name, [str(p.relative_to(root)) for p in files[ft.name]] or "none")
    return files, wanted


def _read_latest(paths: list[Path], ft: _FileType, skip_comments: bool) -> pa.Table:
    """Read and check every file of one type, concatenate them, keep the latest row per id."""
    if not paths:
        return pa.schema([(c, pa.string()) for c in ft.columns]).empty_table()
    tables = [_read_file(p, ft, skip_comments) for p in paths]
    table = pa.concat_tables(tables).combine_chunks() if len(tables) > 1 else tables[0]
    latest = _latest_per_id(table, numeric_id=not ft.is_refset)
    log.info("%s: %d rows read, %d kept (latest per id)", ft.name, table.num_rows, latest.num_rows)
    return latest


def _read_file(path: Path, ft: _FileType, skip_comments: bool) -> pa.Table:
    """Read one RF2 file as strings, with its header and every checked column validated.

    Raises:
        SourceFormatError: see :func:`read_rf2`.
    """
    columns = list(ft.columns)
    # ``data`` holds the bytes pyarrow parses when comments are skipped; then ``line_map[k]`` is the
    # physical line of the (k+1)-th kept line. Otherwise pyarrow reads the file itself.
    data: bytes | None = None
    line_map: np.ndarray | None = None
    if skip_comments:
        raw = path.read_bytes()
        data, line_map = _strip_comments(raw)
        header = data.split(b"\n", 1)[0]
        last_line = None if raw.endswith(b"\n") or not raw else (raw.count(b"\n") + 1, raw.rsplit(b"\n", 1)[-1])
    else:
        with path.open("rb") as handle:
            header = handle.readline()
        last_line = _unterminated_last_line(path)
    if not header:
        raise SourceFormatError(path, None, f"an RF2 {ft.name} file with a header", "empty file")

    def line_of(n: int) -> int:
        """Physical line of the n-th line pyarrow sees (1-based; the header is 1)."""
        return n if line_map is None else int(line_map[n - 1])

    header_text = header.removeprefix(b"\xef\xbb\xbf").rstrip(b"\r\n").decode("utf-8", "replace")
    if header_text.split("\t") != columns:
        raise SourceFormatError(path, line_of(1), "header " + "\t".join(columns), header_text)

    def csv_input() -> pa.BufferReader | Path:
        return path if data is None else pa.BufferReader(data)

    table = _parse(csv_input(), columns, use_threads=True)
    if isinstance(table, _Failure):
        # Parse again on one thread, which numbers rows exactly, to find the first offending line.
        failure = _parse(csv_input(), columns, use_threads=False)
        if not isinstance(failure, _Failure):  # pragma: no cover - the two parses disagree
            failure = table
        if failure.row is not None:
            number = failure.row.number
            raise SourceFormatError(
                path,
                line_of(number) if number is not None else None,
                f"{failure.row.expected_columns} tab-separated columns",
                f"{failure.row.actual_columns} columns: {failure.row.text}",
            )
        if "UTF8" in failure.message or "UTF-8" in failure.message:
            raw = path.read_bytes() if data is None else data
            bad = _first_bad_utf8_line(raw)
            if bad is not None:
                line, text = bad
                raise SourceFormatError(path, line_of(line), "UTF-8 text", text)
        raise SourceFormatError(path, None, "an RF2 tab-separated file", failure.message)

    if last_line is not None:
        # Without a final newline the last row may be cut inside its last column (a target id
        # 404684 for 404684003) and still have the right field count: a truncated file.
        line, text = last_line
        if skip_comments:
            number = line
        else:
            number = table.num_rows + 1  # every line is a row (empty lines kept), after the header
        raise SourceFormatError(
            path,
            number,
            "every line ended by a newline (a last line without one: truncated file)",
            text.decode("utf-8", "backslashreplace"),
        )
    if table.num_rows == 0 and ft.required:
        raise SourceFormatError(path, None, f"{ft.name} rows after the header", "no rows: the header only")
    table = table.combine_chunks()  # one chunk per column: take/filter on many chunks are slow
    _check_columns(table, ft, path, lambda row: line_of(row + 2))
    return table


def _unterminated_last_line(path: Path, tail: int = 1 << 16) -> tuple[int, bytes] | None:
    """``(0, text)`` of the last line when the file does not end with a newline (only the last
    ``tail`` bytes are read: the caller knows the line number from the rows it parsed), else None."""
    with path.open("rb") as handle:
        size = handle.seek(0, 2)
        if size == 0:
            return None
        handle.seek(max(0, size - tail))
        end = handle.read()
    if end.endswith(b"\n"):
        return None
    return 0, end.rsplit(b"\n", 1)[-1]


@dataclass
class _Failure:
    """Why pyarrow could not parse a file: the first invalid row seen (if any) and the message."""

    row: pacsv.InvalidRow | None
    message: str


def _parse(csv_input: object, columns: list[str], *, use_threads: bool) -> pa.Table | _Failure:
    """Parse an RF2 body (header skipped) as all-string columns; no quoting, empty lines kept."""
    invalid: list[pacsv.InvalidRow] = []

    def on_invalid(row: pacsv.InvalidRow) -> str:
        invalid.append(row)
        return "error"

    try:
        return pacsv.read_csv(
            csv_input,
            read_options=pacsv.ReadOptions(skip_rows=1, column_names=columns, use_threads=use_threads),
            parse_options=pacsv.ParseOptions(
                delimiter="\t",
                quote_char=False,
                escape_char=False,
                double_quote=False,
                newlines_in_values=False,
                # An empty line becomes a row of empty strings and fails the checks at its own line.
                ignore_empty_lines=False,
                invalid_row_handler=on_invalid,
            ),
            convert_options=pacsv.ConvertOptions(
                column_types={c: pa.string() for c in columns},
                strings_can_be_null=False,
                quoted_strings_can_be_null=False,
                check_utf8=True,
            ),
        )
    except pa.ArrowInvalid as exc:
        return _Failure(invalid[0] if invalid else None, str(exc))


def _strip_comments(data: bytes) -> tuple[bytes, np.ndarray]:
    """Drop ``#`` lines and blank lines; return the rest and the physical line of each kept line."""
    lines = data.split(b"\n")
    if lines and lines[-1] == b"":
        lines.pop()
    keep = [i for i, text in enumerate(lines) if text.strip(b"\r\t ") and not text.startswith(b"#")]
    body = b"\n".join(lines[i] for i in keep)
    return (body + b"\n" if body else b""), np.asarray(keep, dtype=np.int64) + 1


def _first_bad_utf8_line(data: bytes) -> tuple[int, str] | None:
    """The 1-based line of the first byte that is not UTF-8, and that line with bytes escaped."""
    try:
        data.decode("utf-8")
    except UnicodeDecodeError as exc:
        begin = data.rfind(b"\n", 0, exc.start) + 1
        end = data.find(b"\n", exc.start)
        text = data[begin : end if end >= 0 else len(data)].rstrip(b"\r")
        return data.count(b"\n", 0, exc.start) + 1, text.decode("utf-8", "backslashreplace")
    return None


def _check_columns(table: pa.Table, ft: _FileType, path: Path, line_of_row: Callable[[int], int]) -> None:
    """Raise SourceFormatError at the first row (over all columns) that breaks its column's rule."""
    first: tuple[int, str, str] | None = None
    for column, rule in ft.columns.items():
        if rule is None or table.num_rows == 0:
            continue
        expected, pattern = rule
        ok = pc.match_substring_regex(table[column], pattern=pattern)
        if pc.all(ok).as_py():
            continue
        row = int(np.flatnonzero(~ok.to_numpy())[0])
        if first is None or row < first[0]:
            first = (row, column, expected)
    if first is not None:
        row, column, expected = first
        value = table[column][row].as_py()
        raise SourceFormatError(path, line_of_row(row), f"{column}: {expected}", value)


def _latest_per_id(table: pa.Table, *, numeric_id: bool) -> pa.Table:
    """Keep, for each ``id``, the row with the greatest ``effectiveTime`` (RF2 "Release Types").

    Ties (the same id and effectiveTime twice, which the specification forbids) keep the first row
    in file order; their number is logged as a warning.
    """
    n = table.num_rows
    if n == 0:
        return table
    key = pc.cast(table["id"], pa.uint64()) if numeric_id else table["id"]
    time = pc.cast(table["effectiveTime"], pa.uint32())
    order = pc.sort_indices(pa.table({"k": key, "t": time}), sort_keys=[("k", "ascending"), ("t", "descending")])
    sorted_key = key.take(order)
    sorted_time = time.take(order)
    new_id = pc.not_equal(sorted_key.slice(1), sorted_key.slice(0, n - 1))
    first = np.concatenate([[True], new_id.to_numpy()])
    same_time = np.concatenate([[False], pc.equal(sorted_time.slice(1), sorted_time.slice(0, n - 1)).to_numpy()])
    ties = int(np.count_nonzero(~first & same_time))
    if ties:
        log.warning("%d rows repeat an (id, effectiveTime) pair; the first in file order is kept", ties)
    if first.all():  # a Snapshot file: every id once
        return table
    keep = order.to_numpy()[first]
    keep.sort()  # file order
    return table.take(pa.array(keep))


# ----------------------------------------------------------------------------------------- tables


def _concepts(concept: pa.Table, source: str) -> pa.Table:
    return pa.table(
        {
            "source": pa.repeat(pa.scalar(source), concept.num_rows),
            "concept_id": concept["id"],
            "active": pc.equal(concept["active"], "1"),
            "module": concept["moduleId"],
        }
    )


def _acceptability(language: pa.Table, language_refsets: Sequence[str]) -> pa.Table:
    """One row per description: its acceptability in the first refset (by preference) that has it.

    Columns: ``term_id``, ``acceptability`` ("preferred" | "acceptable").
    """
    refsets = pa.array(list(language_refsets), pa.string())
    rank = pc.index_in(language["refsetId"], value_set=refsets)
    usable = pc.and_(pc.equal(language["active"], "1"), pc.is_valid(rank))
    members = language.filter(usable).append_column("rank", rank.filter(usable))
    # Preferred (...548007) sorts before acceptable (...549004) on a tie within one refset.
    order = pc.sort_indices(
        members,
        sort_keys=[
            ("referencedComponentId", "ascending"),
            ("rank", "ascending"),
            ("acceptabilityId", "ascending"),
        ],
    )
    members = members.take(order)
    n = members.num_rows
    ids = members["referencedComponentId"]
    first = np.ones(n, dtype=bool)
    if n > 1:
        first[1:] = pc.not_equal(ids.slice(1), ids.slice(0, n - 1)).to_numpy()
    chosen = members.filter(pa.array(first))
    acceptability = pc.if_else(pc.equal(chosen["acceptabilityId"], PREFERRED), "preferred", "acceptable")
    return pa.table({"term_id": chosen["referencedComponentId"], "acceptability": acceptability})


def _terms(description: pa.Table, language: pa.Table, language_refsets: Sequence[str], source: str) -> pa.Table:
    kept = description.filter(pc.is_in(description["typeId"], pa.array([FSN_TYPE, SYNONYM_TYPE])))
    other = description.num_rows - kept.num_rows
    if other:
        log.info("descriptions of other types (e.g. definitions) skipped: %d", other)
    terms = pa.table(
        {
            "term_id": kept["id"],
            "concept_id": kept["conceptId"],
            "term": kept["term"],
            "typeId": kept["typeId"],
            "language": kept["languageCode"],
            "active": pc.equal(kept["active"], "1"),
        }
    ).join(_acceptability(language, language_refsets), keys="term_id", join_type="left outer")
    is_fsn = pc.equal(terms["typeId"], FSN_TYPE)
    is_preferred = pc.fill_null(pc.equal(terms["acceptability"], "preferred"), False)
    term_type = pc.if_else(is_fsn, "fsn", pc.if_else(is_preferred, "preferred", "synonym"))
    null = pa.nulls(terms.num_rows, pa.string())
    terms = pa.table(
        {
            "source": pa.repeat(pa.scalar(source), terms.num_rows),
            "concept_id": terms["concept_id"],
            "term_id": terms["term_id"],
            "term": terms["term"],
            "term_type": term_type,
            "language": terms["language"],
            "active": terms["active"],
            "scope": null,
            "acceptability": terms["acceptability"],
            "sab": null,
            "tty": null,
        }
    )
    counts = pc.value_counts(terms["term_type"]).to_pylist()
    log.info(
        "terms: %s",
        ", ".join(f"{c['values']} {c['counts']}" for c in sorted(counts, key=lambda c: c["values"])),
    )
    return terms


def _type_names(description: pa.Table) -> pa.Table:
    """The active FSN of each concept without its semantic tag: columns ``rel``, ``rela``.

    With several active FSNs (one per language): English first, then the lowest description id.
    """
    fsn = description.filter(pc.and_(pc.equal(description["typeId"], FSN_TYPE), pc.equal(description["active"], "1")))
    fsn = pa.table(
        {
            "rel": fsn["conceptId"],
            "not_en": pc.not_equal(fsn["languageCode"], "en"),
            "id": pc.cast(fsn["id"], pa.uint64()),
            "rela": strip_final_parenthesised_group(fsn["term"]),
        }
    )
    fsn = fsn.take(pc.sort_indices(fsn, sort_keys=[("rel", "ascending"), ("not_en", "ascending"), ("id", "ascending")]))
    n = fsn.num_rows
    first = np.ones(n, dtype=bool)
    if n > 1:
        first[1:] = pc.not_equal(fsn["rel"].slice(1), fsn["rel"].slice(0, n - 1)).to_numpy()
    return fsn.filter(pa.array(first)).select(["rel", "rela"])


def _relations(relationship: pa.Table, description: pa.Table, source: str) -> pa.Table:
    active = relationship.filter(pc.equal(relationship["active"], "1"))
    triples = (
        pa.table(
            {
                "subject_id": active["sourceId"],
                "rel": active["typeId"],
                "object_id": active["destinationId"],
            }
        )
        .group_by(["subject_id", "rel", "object_id"])
        .aggregate([])
    )
    if triples.num_rows < active.num_rows:
        log.info(
            "relations: %d active rows, %d distinct (subject, type, object) after dropping groups",
            active.num_rows,
            triples.num_rows,
        )
    named = triples.join(_type_names(description), keys="rel", join_type="left outer")
    log.info("relations: %d, %d without a type name", named.num_rows, named["rela"].null_count)
    return pa.table(
        {
            "source": pa.repeat(pa.scalar(source), named.num_rows),
            "subject_id": named["subject_id"],
            "rel": named["rel"],
            "rela": named["rela"],
            "object_id": named["object_id"],
            "sab": pa.nulls(named.num_rows, pa.string()),
        }
    )


def _associations(association: pa.Table, source: str) -> pa.Table:
    active = association.filter(pc.equal(association["active"], "1"))
    refsets = pa.array(list(ASSOCIATION_REFSETS), pa.string())
    kinds = pa.array(list(ASSOCIATION_REFSETS.values()), pa.string())
    index = pc.index_in(active["refsetId"], value_set=refsets)
    known = pc.is_valid(index)
    ignored = active.num_rows - (pc.sum(known).as_py() or 0)
    if ignored:
        log.info("associations in other refsets (ignored): %d", ignored)
    kept = active.filter(known)
    kind = kinds.take(index.filter(known))
    counts = {k: int(pc.sum(pc.equal(kind, k)).as_py() or 0) for k in ASSOCIATION_REFSETS.values()}
    log.info("associations: %s", ", ".join(f"{k} {v}" for k, v in counts.items()))
    return pa.table(
        {
            "source": pa.repeat(pa.scalar(source), kept.num_rows),
            "inactive_id": kept["referencedComponentId"],
            "target_id": kept["targetComponentId"],
            "kind": kind,
        }
    )


__all__ = ["ASSOCIATION_REFSETS", "read_rf2", "strip_final_parenthesised_group"]
