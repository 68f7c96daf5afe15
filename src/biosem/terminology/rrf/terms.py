"""The terms table of the UMLS adapter in its output order, (concept_id, term_id): row groups built
from codes, the preferred-term rule, and the terms of a CUI-sorted MRCONSO built while it is read.

MRCONSO as NLM ships it is sorted by CUI, so every CUI but the last one read is complete, and its
terms can be ordered, given their preferred term and written while the rest of the file is still
being parsed (:class:`SortedTerms` in the reading thread, :class:`RowGroups` in the writing one); a
file found not sorted falls back to building the table from all its rows once read, and a table of
which row groups were already given is then written again from the start (:class:`Restart`,
:func:`rewritten`). What the rows mean (which rows are kept, the
rule itself) is :mod:`biosem.terminology.rrf.umls`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import TypeVar

import numpy as np
import pyarrow as pa

from biosem.terminology.rrf.columns import concat, cui_strings, lookup, repeat_value

T = TypeVar("T")

TERM_TYPES = ["preferred", "abbreviation", "synonym"]
"""``term_type`` values, indexed by the ``kind`` codes of :class:`TermRows`."""


@dataclass(frozen=True)
class TermValues:
    """What the codes of terms rows index: the ISO 639-1 names of the LAT codes, the SAB and TTY
    values, and per TTY code whether it is an abbreviation's."""

    language: list[str | None]
    sab: list[str]
    tty: list[str]
    abbreviation: np.ndarray  # bool per TTY code


@dataclass
class TermRows:
    """Rows of the terms table in output order, as codes (into ``values``) and strings."""

    cui: np.ndarray  # int32 CUI numbers
    aui: pa.Array
    string: pa.Array
    kind: np.ndarray  # index into TERM_TYPES
    lat: np.ndarray
    active: np.ndarray
    sab: np.ndarray
    tty: np.ndarray
    values: TermValues

    def __len__(self) -> int:
        return len(self.cui)

    def slice(self, lo: int, hi: int) -> TermRows:
        return TermRows(
            self.cui[lo:hi],
            self.aui[lo:hi],
            self.string[lo:hi],
            self.kind[lo:hi],
            self.lat[lo:hi],
            self.active[lo:hi],
            self.sab[lo:hi],
            self.tty[lo:hi],
            self.values,
        )

    def table(self, source: str) -> pa.Table:
        """The chunk of the terms table (its schema's columns, the dictionary ones by :func:`lookup`)."""
        m = len(self)
        nulls = repeat_value(None, m)
        return pa.table(
            {
                "source": repeat_value(source, m),
                "concept_id": cui_strings(self.cui),
                "term_id": self.aui,
                "term": self.string,
                "term_type": lookup(TERM_TYPES, self.kind),
                "language": lookup(self.values.language, self.lat),
                "active": pa.array(self.active),
                "scope": nulls,
                "acceptability": nulls,
                "sab": lookup(self.values.sab, self.sab),
                "tty": lookup(self.values.tty, self.tty),
            }
        )


def term_kinds(cui: np.ndarray, rank: np.ndarray, tty: np.ndarray, values: TermValues) -> np.ndarray:
    """Per row of rows in (CUI, AUI) order, its index into :data:`TERM_TYPES`: "preferred" for the
    first row of the smallest ``rank`` of each CUI, else "abbreviation" by TTY, else "synonym"."""
    n = len(cui)
    preferred = np.zeros(n, dtype=bool)
    if n:
        starts = np.flatnonzero(np.r_[True, cui[1:] != cui[:-1]])
        lengths = np.diff(np.r_[starts, n])
        best = np.repeat(np.minimum.reduceat(rank, starts), lengths)
        candidates = np.flatnonzero(rank == best)
        group = np.repeat(np.arange(len(starts)), lengths)[candidates]
        preferred[candidates[np.r_[True, group[1:] != group[:-1]]]] = True
    return np.where(preferred, 0, np.where(values.abbreviation[tty] if tty.size else False, 1, 2))


END, WHOLE, UNSORTED = "end", "whole", "unsorted"
"""What :class:`SortedTerms` gives after its rows: the rows are complete; build the table from all
the rows (no rows were given); or build it from all the rows (rows were given)."""


@dataclass
class Segment:
    """Rows of complete CUIs in file order (CUIs not decreasing): the numpy fields cui, aui_key,
    rank, sab, tty, lat, active and the Arrow aui and string, with the ``values`` their codes index."""

    rows: dict[str, np.ndarray | pa.Array]
    values: TermValues


class SortedTerms:
    """The terms of a MRCONSO sorted by CUI, given while the file is read (the reader's side).

    The reader gives each batch's kept rows to :meth:`add`. As long as the CUIs do not decrease,
    every CUI but the last one read is complete: its rows are given to ``put`` as a
    :class:`Segment`, which :class:`RowGroups` orders and cuts (in the thread that writes them). A
    decreasing CUI, or a batch without AUI keys, stops it (``streaming`` False; ``put`` is given
    :data:`UNSORTED` if it had given rows). :meth:`finish` gives the last CUI's rows and
    :data:`END`, or :data:`WHOLE` if it stopped before giving rows.
    """

    def __init__(self, put: Callable[[object], None]) -> None:
        self._put = put
        self.streaming = True
        self.given = 0  # segments given
        self._last_cui = -1
        self._carry: dict[str, np.ndarray | pa.Array] | None = None  # the rows of the last CUI read

    def add(self, rows: dict[str, np.ndarray | pa.Array | None], values: TermValues) -> None:
        """Rows in file order: cui, aui_key (None: none), rank, sab, tty, lat, active (numpy), aui
        and string (Arrow)."""
        cui = rows["cui"]
        if not len(cui):
            return
        if rows["aui_key"] is None or cui[0] < self._last_cui or bool((cui[1:] < cui[:-1]).any()):
            self.stop()
            return
        if self._carry is not None:
            rows = {k: _joined(self._carry[k], v) for k, v in rows.items()}
            cui = rows["cui"]
        cut = int(np.searchsorted(cui, cui[-1]))  # the last CUI's rows may go on in the next batch
        self._last_cui = int(cui[-1])
        self._carry = {k: v[cut:] for k, v in rows.items()}
        if cut:
            self._put(Segment({k: v[:cut] for k, v in rows.items()}, values))
            self.given += 1

    def stop(self) -> None:
        """No more rows are taken: the table is built from all of them."""
        if self.streaming and self.given:
            self._put(UNSORTED)
        self.streaming = False
        self._carry = None

    def finish(self, values: TermValues) -> None:
        """After the last batch: the last CUI's rows and :data:`END`, or :data:`WHOLE`."""
        if not self.streaming:
            if not self.given:
                self._put(WHOLE)
            return
        if self._carry is not None and len(self._carry["cui"]):
            self._put(Segment(self._carry, values))
        self._carry = None
        self._put(END)


class RowGroups:
    """The :class:`Segment` s of :class:`SortedTerms` as the row groups of the terms table (the
    writer's side): each segment's rows put in (CUI, AUI) order (by the AUI keys of
    :func:`biosem.terminology.rrf.kernels.base11_keys`) with their kinds (:func:`term_kinds`),
    and cut in :class:`TermRows` of ``row_group`` rows: the row groups of the whole table."""

    def __init__(self, row_group: int) -> None:
        self._row_group = row_group
        self._pending: list[TermRows] = []
        self._n_pending = 0
        self.given = 0  # row groups given

    def push(self, segment: Segment) -> Iterator[TermRows]:
        """The row groups completed by ``segment``."""
        rows = segment.rows
        key = (rows["cui"].astype(np.uint64) << np.uint64(35)) | rows["aui_key"].astype(np.uint64)
        order = np.argsort(key, kind="stable")
        index = pa.array(order)
        cui, tty = rows["cui"][order], rows["tty"][order]
        kind = term_kinds(cui, rows["rank"][order], tty, segment.values)
        lat, active, sab = (rows[k][order] for k in ("lat", "active", "sab"))
        aui, string = rows["aui"].take(index), rows["string"].take(index)
        self._pending.append(TermRows(cui, aui, string, kind, lat, active, sab, tty, segment.values))
        self._n_pending += len(order)
        while self._n_pending >= self._row_group:
            yield self._take(self._row_group)

    def rest(self) -> Iterator[TermRows]:
        """The rows left; one empty row group for an empty table (as write_table writes it)."""
        if self._n_pending or not self.given:
            yield self._take(self._n_pending)

    def _take(self, n: int) -> TermRows:
        """The first ``n`` pending rows, as one :class:`TermRows` (each column in one piece)."""
        taken, m = [], 0
        while m < n:
            piece = self._pending[0]
            if m + len(piece) <= n:
                taken.append(self._pending.pop(0))
            else:
                taken.append(piece.slice(0, n - m))
                self._pending[0] = piece.slice(n - m, len(piece))
            m += len(taken[-1])
        self._n_pending -= n
        self.given += 1
        empty = pa.array([], pa.string())
        return TermRows(
            cui=concat([p.cui for p in taken], np.int32),
            aui=pa.concat_arrays([empty, *(p.aui for p in taken)]),
            string=pa.concat_arrays([empty, *(p.string for p in taken)]),
            kind=concat([p.kind for p in taken], np.int64),
            lat=concat([p.lat for p in taken], np.uint16),
            active=concat([p.active for p in taken], np.bool_),
            sab=concat([p.sab for p in taken], np.uint16),
            tty=concat([p.tty for p in taken], np.uint16),
            values=taken[-1].values if taken else TermValues([], [], [], np.zeros(0, dtype=bool)),
        )


def _joined(a: np.ndarray | pa.Array, b: np.ndarray | pa.Array) -> np.ndarray | pa.Array:
    return pa.concat_arrays([a, b]) if isinstance(a, pa.Array) else np.concatenate([a, b])


class Restart(Exception):  # noqa: N818 - not an error: the table is written again
    """The chunks of a table, of which the first were already given, to be written again from the
    start: ``chunks``, the whole table."""

    def __init__(self, chunks: Iterator[pa.Table]) -> None:
        super().__init__("the table is written again")
        self.chunks = chunks


def rewritten(consume: Callable[[Iterator[pa.Table]], T], chunks: Iterator[pa.Table]) -> T:
    """``consume(chunks)``; ``consume`` again with the whole table if ``chunks`` raises :class:`Restart`."""
    try:
        return consume(chunks)
    except Restart as restart:
        return consume(restart.chunks)
