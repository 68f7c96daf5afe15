"""Strict PubTator reader on top of the ``bioc`` package's PubTator data model.

PubTator (the format of BC5CDR, NCBI Disease and MedMentions) is line based; a document is a block::

    PMID|t|Title text
    PMID|a|Abstract text
    PMID<TAB>start<TAB>end<TAB>mention text<TAB>type<TAB>concept id[<TAB>...]    (0..n mentions)
    PMID<TAB>relation type<TAB>id1<TAB>id2[<TAB>...]                             (0..n relations, e.g. CID)

and blocks are separated by blank lines. Offsets are 0-based, end exclusive, into ``title + " " +
abstract`` (MedMentions README; BioCreative V CDR and NCBI Disease corpus documentation).

What ``bioc.pubtator`` provides and what this module adds. Documents, mentions and relations are
``bioc.pubtator.PubTator`` / ``PubTatorAnn`` / ``PubTatorRel`` objects, and mention lines of 6 or 7
columns are parsed by ``bioc.pubtator.loads_ann`` (which also checks that the 7th column of a
BC5CDR composite mention holds as many texts as there are ids). The line loop is our own because
``bioc.pubtator.iterparse`` cannot be used for a checked ingestion:

* it strips every line, which changes titles/abstracts with edge whitespace (528 NCBI Disease
  abstracts end in a space) and so the length the offsets rely on, and drops an empty last column;
* it prints and skips lines it cannot parse, and reports no line numbers, so errors cannot name
  ``file:line`` (biosem raises :class:`~biosem.errors.SourceFormatError` instead);
* it tells mentions from relations by the column count only, so a 5-column mention without a
  concept id becomes a "relation"; here a line whose 2nd column is an integer is a mention;
* it never checks that a line's PMID is the document's, nor that a title precedes the abstract;
* its ``text`` joins title and abstract with a newline; PubTator offsets count a space.

Gzip files (the MedMentions ``corpus_pubtator.txt.gz``) are read transparently.
"""

from __future__ import annotations

import io
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from bioc.pubtator import PubTator, PubTatorAnn, PubTatorRel, loads_ann

from biosem.errors import SourceFormatError
from biosem.sources import open_binary

_TITLE = re.compile(r"^([^|\t\s]+)\|t\|(.*)$")
_ABSTRACT = re.compile(r"^([^|\t\s]+)\|a\|(.*)$")
_INT = re.compile(r"^[0-9]+$")


@dataclass
class PubTatorDocument:
    """One PubTator block: the ``bioc`` document plus where each part was read (1-based lines)."""

    document: PubTator
    path: Path
    line: int  # the title line
    annotation_lines: list[int] = field(default_factory=list)  # parallel to document.annotations
    relation_lines: list[int] = field(default_factory=list)  # parallel to document.relations

    @property
    def pmid(self) -> str:
        return self.document.pmid

    @property
    def text(self) -> str:
        """``title + " " + abstract``: the string PubTator offsets index."""
        return f"{self.document.title} {self.document.abstract}"

    def key(self) -> tuple[object, ...]:
        """Everything the block says (for telling identical duplicates from conflicting ones)."""
        doc = self.document
        anns = tuple((a.start, a.end, a.text, a.type, a.id, tuple(a.others)) for a in doc.annotations)
        rels = tuple((r.type, r.id1, r.id2, r.neg) for r in doc.relations)
        return (doc.title, doc.abstract, anns, rels)


def open_text(path: str | Path) -> io.TextIOBase:
    """Open a UTF-8 text file, decompressing gzip files (recognised by their magic bytes).

    Lines end at ``\n`` only (a stray ``\r`` inside a text stays in it; ``\r\n`` endings are
    stripped by the reader), so no character of a title or abstract is translated.
    """
    return io.TextIOWrapper(open_binary(path), encoding="utf-8", newline="\n")


def _mention(path: Path, lineno: int, line: str, cols: list[str]) -> PubTatorAnn:
    if not _INT.match(cols[2]):
        raise SourceFormatError(path, lineno, "an integer end offset in column 3", line)
    if len(cols) == 5:  # no concept id column (some PubTator exports); bioc would read a relation
        return PubTatorAnn(cols[0], int(cols[1]), int(cols[2]), cols[3], cols[4], "")
    if len(cols) > 7:
        raise SourceFormatError(path, lineno, "a mention line of 5 to 7 tab-separated columns", line)
    if len(cols) == 7 and "|" in cols[5] and cols[6].count("|") != cols[5].count("|"):
        # bioc checks this only when both columns hold a '|'
        raise SourceFormatError(
            path, lineno, "as many '|'-separated mention texts in column 7 as ids in column 6", line
        )
    try:
        ann = loads_ann(cols)
    except ValueError as exc:
        raise SourceFormatError(path, lineno, f"a PubTator mention line ({exc})", line) from None
    if ann.start > ann.end:
        raise SourceFormatError(path, lineno, "start offset <= end offset", line)
    return ann


def _decode_line(path: Path, lineno: int, data: bytes) -> str:
    """One line of a PubTator file as UTF-8 text (lines end at ``\n`` only, as in :func:`open_text`)."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        found = data[max(0, exc.start - 20) : exc.end + 20].rstrip(b"\r\n").decode("utf-8", "backslashreplace")
        raise SourceFormatError(path, lineno, f"UTF-8 text (byte {exc.start + 1} of the line)", found) from None


def _check_pmid(path: Path | str, lineno: int, pmid: str) -> None:
    """A PMID is a positive decimal integer (NLM PubMed identifier): all digits."""
    if not _INT.match(pmid):
        raise SourceFormatError(path, lineno, "a PMID of decimal digits only", pmid)


def read_pubtator(path: str | Path) -> Iterator[PubTatorDocument]:
    """Yield the documents of a PubTator file in file order, checking its structure line by line.

    Accepted: a title line ``PMID|t|...``, optionally directly followed by ``PMID|a|...`` (a missing
    abstract is read as ""), then mention lines (integer 2nd column; 5, 6 or 7 columns) and relation
    lines (4 or 5 columns, e.g. BC5CDR ``CID``) of the same PMID; blank lines between documents.
    Line endings LF or CRLF; the text of a title or abstract is kept byte for byte (no stripping).

    Raises:
        SourceFormatError: with the 1-based line, for a line that is none of the above, a line
            whose PMID is not its document's, an abstract without or after its title, a second
            title in a block, a PMID that is not all decimal digits (``found`` the PMID), a
            non-integer offset, start > end, or a composite mention whose id
            and text columns disagree. Offsets against the text are checked later
            (:func:`biosem.corpora.ingest.check_mentions`).
    """
    path = Path(path)
    current: PubTatorDocument | None = None
    with open_binary(path) as fh:
        for lineno, data in enumerate(fh, 1):
            line = _decode_line(path, lineno, data).rstrip("\n").rstrip("\r")
            if not line.strip():
                if current is not None:
                    yield current
                    current = None
                continue
            match = _TITLE.match(line)
            if match:
                if current is not None:
                    raise SourceFormatError(
                        path,
                        lineno,
                        f"a blank line ending document {current.pmid} before the next title",
                        line,
                    )
                _check_pmid(path, lineno, match.group(1))
                current = PubTatorDocument(PubTator(match.group(1), match.group(2), ""), path, lineno)
                continue
            if current is None:
                raise SourceFormatError(path, lineno, "a title line 'PMID|t|text' starting a document", line)
            match = _ABSTRACT.match(line)
            if match:
                if match.group(1) != current.pmid:
                    raise SourceFormatError(path, lineno, f"the abstract of document {current.pmid}", line)
                if lineno != current.line + 1:
                    raise SourceFormatError(path, lineno, "the abstract line directly after the title line", line)
                current.document.abstract = match.group(2)
                continue
            cols = line.split("\t")
            if len(cols) < 4:
                raise SourceFormatError(
                    path,
                    lineno,
                    "'PMID|t|', 'PMID|a|', a tab-separated mention or relation line, or a blank line",
                    line,
                )
            if cols[0] != current.pmid:
                raise SourceFormatError(path, lineno, f"a line of document {current.pmid} (PMID in column 1)", line)
            if _INT.match(cols[1]):
                if len(cols) < 5:
                    raise SourceFormatError(path, lineno, "a mention line of 5 to 7 tab-separated columns", line)
                current.document.add_annotation(_mention(path, lineno, line, cols))
                current.annotation_lines.append(lineno)
            elif len(cols) in (4, 5):
                current.document.add_relation(PubTatorRel(*cols))
                current.relation_lines.append(lineno)
            else:
                raise SourceFormatError(
                    path,
                    lineno,
                    "a relation line 'PMID<TAB>type<TAB>id1<TAB>id2' or a mention with integer offsets",
                    line,
                )
    if current is not None:
        yield current


def read_pmid_list(path: str | Path) -> list[str]:
    """The PMIDs of a split list (one per line, blank lines ignored), in file order.

    Raises:
        SourceFormatError: a line holding anything but one PMID of decimal digits, or a PMID listed
            twice.
    """
    pmids: list[str] = []
    seen: dict[str, int] = {}
    with open_text(path) as fh:
        for lineno, raw in enumerate(fh, 1):
            value = raw.strip()
            if not value:
                continue
            if not re.fullmatch(r"[^\s|]+", value):
                raise SourceFormatError(path, lineno, "one PMID per line", raw.rstrip("\n"))
            _check_pmid(path, lineno, value)
            if value in seen:
                raise SourceFormatError(path, lineno, f"each PMID once (also on line {seen[value]})", value)
            seen[value] = lineno
            pmids.append(value)
    return pmids
