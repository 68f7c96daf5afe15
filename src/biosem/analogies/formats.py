"""The BMASS reference text format for analogies: writer and parser (round-trip exact).

Format (Newman-Griffis et al. 2017, released BMASS files; made unambiguous here)::

    # <relation>
    <a>\t<b>[,<b>...]\t<c>\t<d>[,<d>...]

* A line ``# <relation>`` opens the block of one relation; every following analogy line belongs to it.
* An analogy line has four tab-separated fields a, b, c, d. Each field is one item or, for b and d, a
  comma-separated list of items (one item in Single-Answer).
* An item is ``ID:"string"``: the concept id (CUI, SCTID, OBO id such as ``HP:0000118``), a colon and
  the term in double quotes. Inside the quotes a backslash escapes ``"`` and ``\\``, and ``\\t``,
  ``\\n``, ``\\r`` stand for tab, newline and carriage return, so no character of a term (colon, comma,
  quote, tab) can break a line apart. Ids may contain colons but none of tab, newline, ``"``, ``,``,
  nor the sequence ``:"``.
* UTF-8, LF line endings, no blank lines; the parser skips blank lines.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Sequence
from pathlib import Path

import pandas as pd

from biosem.errors import SourceFormatError
from biosem.io import write_text

TEXT_COLUMNS = ("relation", "a_id", "a_term", "b_ids", "b_terms", "c_id", "c_term", "d_ids", "d_terms")
"""The columns the text format carries (Parquet adds ``rel`` and ``rela``)."""

_ESCAPES = {"\\": "\\\\", '"': '\\"', "\t": "\\t", "\n": "\\n", "\r": "\\r"}
_UNESCAPES = {v[1]: k for k, v in _ESCAPES.items()}
_ESCAPE_RE = re.compile(r'[\\"\t\n\r]')
_UNESCAPE_RE = re.compile(r"\\(.)", re.DOTALL)
_ITEM = re.compile(r'(?P<id>[^\t\n\r",]+?):"(?P<term>(?:[^"\\\t\n\r]|\\[\\"tnr])*)"')
_BAD_ID = re.compile(r'[\t\n\r",]|:"')


def escape(term: str) -> str:
    """Escape a term for the inside of ``"..."``."""
    return _ESCAPE_RE.sub(lambda m: _ESCAPES[m.group()], term)


def unescape(quoted: str) -> str:
    """Inverse of :func:`escape` (the text between the quotes)."""
    return _UNESCAPE_RE.sub(lambda m: _UNESCAPES[m.group(1)], quoted)


def _item(concept_id: str, term: str) -> str:
    if not concept_id or _BAD_ID.search(concept_id):
        raise ValueError(
            f"concept id {concept_id!r} cannot be written: it is empty or contains a tab, newline, '\"', ',' or ':\"'"
        )
    return f'{concept_id}:"{escape(term)}"'


def _items(ids: Sequence[str], terms: Sequence[str]) -> str:
    if len(ids) == 0 or len(ids) != len(terms):
        raise ValueError(f"an answer list needs as many terms as ids (at least one): {list(ids)} / {list(terms)}")
    return ",".join(_item(i, t) for i, t in zip(ids, terms))


def format_analogies(frame: pd.DataFrame) -> str:
    """The reference text of ``frame`` (columns :data:`TEXT_COLUMNS`), rows in frame order.

    A new ``# relation`` header starts whenever the relation changes from the previous row.

    Raises:
        ValueError: a relation label holds a line break, a concept id cannot be written (see module
            docstring), or an id list and its term list differ in length or are empty.
    """
    lines: list[str] = []
    current: str | None = None
    for row in frame[list(TEXT_COLUMNS)].itertuples(index=False, name=None):
        relation, a_id, a_term, b_ids, b_terms, c_id, c_term, d_ids, d_terms = row
        if relation != current:
            if not relation or "\n" in relation or "\r" in relation:
                raise ValueError(f"relation label {relation!r} cannot be a header line")
            lines.append(f"# {relation}")
            current = relation
        lines.append(
            "\t".join((_item(a_id, a_term), _items(b_ids, b_terms), _item(c_id, c_term), _items(d_ids, d_terms)))
        )
    return "".join(line + "\n" for line in lines)


def write_analogies(frame: pd.DataFrame, path: str | os.PathLike[str]) -> None:
    """Write ``frame`` in the reference text format to ``path`` atomically (empty frame: empty file)."""
    write_text(format_analogies(frame), path)


def _parse_field(field: str, path: str, line_no: int, what: str, single: bool) -> tuple[list[str], list[str]]:
    ids: list[str] = []
    terms: list[str] = []
    pos = 0
    while True:
        match = _ITEM.match(field, pos)
        if match is None:
            raise SourceFormatError(path, line_no, f'{what}: an item ID:"string"', field[pos:])
        ids.append(match["id"])
        terms.append(unescape(match["term"]))
        pos = match.end()
        if pos == len(field):
            break
        if field[pos] != "," or single:
            expected = "end of field" if single else "',' or end of field"
            raise SourceFormatError(path, line_no, f"{what}: {expected} after an item", field[pos:])
        pos += 1
    return ids, terms


def parse_analogies(text: str | Iterable[str], path: str | os.PathLike[str] = "<text>") -> pd.DataFrame:
    """Parse reference-format text (a string or an iterable of lines) into :data:`TEXT_COLUMNS`.

    Raises:
        SourceFormatError: an analogy line before any ``# relation`` header, a line without exactly
            four tab-separated fields, or a malformed item; the error names the line.
    """
    # Lines end at LF only (a term may hold other Unicode line separators); a CR before it is dropped.
    lines = text.split("\n") if isinstance(text, str) else text
    where = str(path)
    rows: list[tuple[object, ...]] = []
    relation: str | None = None
    for line_no, raw in enumerate(lines, start=1):
        line = raw.removesuffix("\n").removesuffix("\r")
        if not line:
            continue
        if line.startswith("# "):
            relation = line[2:]
            continue
        if relation is None:
            raise SourceFormatError(where, line_no, "a '# relation' header before the first analogy", line)
        fields = line.split("\t")
        if len(fields) != 4:
            raise SourceFormatError(where, line_no, "four tab-separated fields a, b, c, d", line)
        a_ids, a_terms = _parse_field(fields[0], where, line_no, "field a", single=True)
        b_ids, b_terms = _parse_field(fields[1], where, line_no, "field b", single=False)
        c_ids, c_terms = _parse_field(fields[2], where, line_no, "field c", single=True)
        d_ids, d_terms = _parse_field(fields[3], where, line_no, "field d", single=False)
        rows.append((relation, a_ids[0], a_terms[0], b_ids, b_terms, c_ids[0], c_terms[0], d_ids, d_terms))
    return pd.DataFrame(rows, columns=list(TEXT_COLUMNS))


def read_analogies(path: str | os.PathLike[str]) -> pd.DataFrame:
    """Parse a reference-format file (see :func:`parse_analogies`)."""
    with Path(path).open(encoding="utf-8", newline="\n") as handle:
        return parse_analogies(handle, path)
