"""Sentence segmentation of PubTator documents with pysbd, with exact offsets (docs/design.md § wic).

The rules the BioWiC reference leaves implicit, made explicit here:

* pysbd (``language="en"``, ``clean=False``, ``char_span=True``) segments the title and the abstract
  separately (the title always ends a sentence; PubTator titles often lack a final period).
* Full texts (CRAFT's ``.txt``: the title, section headings, paragraphs and captions each on a line of
  their own) are segmented line by line (``split_lines``): a line break always ends a sentence, and
  pysbd sees one paragraph at a time; run over a whole article it makes worse choices inside lines
  (CRAFT: "(c, e)." cut after "(c,", "... in Table 2. Low-stringency ..." left as one sentence).
* Periods inside annotated mentions ("E. coli", "p.Tyr263Cys", "S. aureus") are masked with a
  placeholder of the same length before segmenting and restored after, so pysbd never splits a
  mention (offsets are unchanged by construction).
* Sentence offsets come from a cursor that advances through the text: each pysbd sentence is searched
  from the end of the previous one, never from the start of the text, so a sentence repeated in one
  abstract is located at its own position (the reference's ``text.find`` takes the first occurrence).
* Text pysbd drops or alters (it silently drops a sentence it cannot locate in its input) is kept as
  a sentence of its own ("recovered"), so the sentences cover every non-whitespace character.
* A mention that still crosses a sentence boundary merges the sentences it touches.

Sentences never start or end with whitespace, never overlap, and are in text order.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np
import pysbd

MASK_CHARACTER = "_"
_LINE = re.compile(r"[^\n]+")


@dataclass
class SegmentationStats:
    """Counters of one segmentation run (logged per corpus and split)."""

    documents: int = 0
    sentences: int = 0
    masked_mentions: int = 0  # mentions whose periods were masked
    recovered: int = 0  # sentences rebuilt from text pysbd dropped or altered
    crossing_mentions: int = 0  # mentions that crossed a sentence boundary after segmentation
    merged: int = 0  # sentences removed by merging
    extended: int = 0  # sentences widened to cover a mention with edge whitespace

    def add(self, other: SegmentationStats) -> None:
        for name in self.__dataclass_fields__:
            setattr(self, name, getattr(self, name) + getattr(other, name))


@dataclass
class Segmenter:
    """A reusable pysbd segmenter with the biosem rules (see the module docstring)."""

    language: str = "en"
    mask_mention_periods: bool = True
    split_title: bool = True
    split_lines: bool = False
    _pysbd: pysbd.Segmenter = field(init=False, repr=False)

    def __post_init__(self) -> None:
        self._pysbd = pysbd.Segmenter(language=self.language, clean=False, char_span=True)

    def segment(
        self,
        text: str,
        mentions: Sequence[tuple[int, int]] = (),
        title_length: int | None = None,
        stats: SegmentationStats | None = None,
    ) -> list[tuple[int, int]]:
        """Sentence spans ``(start, end)`` of ``text``, end exclusive, in text order.

        Args:
            text: the document text (``title + " " + abstract`` for PubTator).
            mentions: mention spans (offsets into ``text``); their periods are masked and no
                returned sentence boundary falls inside one.
            title_length: length of the title; with ``split_title`` the title ``text[:title_length]``
                and the rest are segmented separately.
            With ``split_lines`` every line (text between ``\n`` characters) is segmented on its own
            (``title_length`` is then not needed: a title is a line).
            stats: counters to update.

        Returns:
            Non-overlapping spans covering every non-whitespace character of ``text``; none starts or
            ends with whitespace (except to include a mention's edge whitespace, counted as
            ``extended``).
        """
        stats = stats if stats is not None else SegmentationStats()
        masked = self._mask(text, mentions, stats)
        if self.split_lines:
            regions = line_regions(text)
        elif self.split_title and title_length is not None and 0 < title_length < len(text):
            regions = [(0, title_length), (title_length, len(text))]
        else:
            regions = [(0, len(text))]
        spans: list[tuple[int, int]] = []
        for lo, hi in regions:
            spans += self._segment_region(masked, lo, hi, stats)
        spans = merge_crossing(spans, mentions, stats)
        stats.documents += 1
        stats.sentences += len(spans)
        return spans

    def _mask(self, text: str, mentions: Sequence[tuple[int, int]], stats: SegmentationStats) -> str:
        if not self.mask_mention_periods:
            return text
        chars: list[str] | None = None
        for start, end in mentions:
            if "." in text[start:end]:
                if chars is None:
                    chars = list(text)
                chars[start:end] = text[start:end].replace(".", MASK_CHARACTER)
                stats.masked_mentions += 1
        return text if chars is None else "".join(chars)

    def _segment_region(self, masked: str, lo: int, hi: int, stats: SegmentationStats) -> list[tuple[int, int]]:
        """Locate pysbd's sentences of ``masked[lo:hi]`` with a forward cursor (offsets into ``masked``)."""
        region = masked[lo:hi]
        spans: list[tuple[int, int]] = []
        cursor = 0
        # pysbd's own ``segment`` would locate each sentence with a fresh regex over the whole text
        # (dropping any it cannot find, and thrashing Python's regex cache);
        # we take its processed sentences and locate them with the forward cursor instead.
        for piece in self._pysbd.processor(region).process() if region else ():
            core = piece.strip()
            if not core:
                continue
            pos = region.find(core, cursor)
            if pos < 0:  # pysbd altered this sentence: its text is recovered from the gap below
                continue
            spans += _gap_sentences(region, cursor, pos, stats)
            spans.append((pos, pos + len(core)))
            cursor = pos + len(core)
        spans += _gap_sentences(region, cursor, len(region), stats)
        return [(lo + s, lo + e) for s, e in spans]


def line_regions(text: str) -> list[tuple[int, int]]:
    """``(start, end)`` of every non-empty line of ``text`` (between ``\n`` characters, end exclusive)."""
    return [match.span() for match in _LINE.finditer(text)]


def _gap_sentences(region: str, lo: int, hi: int, stats: SegmentationStats) -> list[tuple[int, int]]:
    """A recovered sentence for non-whitespace text between two located sentences (pysbd dropped it)."""
    gap = region[lo:hi]
    core = gap.strip()
    if not core:
        return []
    start = lo + (len(gap) - len(gap.lstrip()))
    stats.recovered += 1
    return [(start, start + len(core))]


def merge_crossing(
    spans: list[tuple[int, int]],
    mentions: Sequence[tuple[int, int]],
    stats: SegmentationStats | None = None,
) -> list[tuple[int, int]]:
    """Merge the sentences a mention crosses; widen a sentence to a mention's edge whitespace.

    ``spans`` are non-overlapping sentence spans in order; each mention ``(start, end)`` ends up inside
    exactly one returned span. A mention lying wholly between two sentences (whitespace only) is
    impossible for a checked mention (its text is non-empty and has non-whitespace characters).
    """
    stats = stats if stats is not None else SegmentationStats()
    if not spans or not len(mentions):
        return list(spans)
    starts = np.array([s for s, _ in spans], dtype=np.int64)
    ends = np.array([e for _, e in spans], dtype=np.int64)
    m = np.asarray(mentions, dtype=np.int64).reshape(-1, 2)
    # first sentence ending after the mention's start; last sentence starting before its end
    first = np.searchsorted(ends, m[:, 0], side="right")
    last = np.searchsorted(starts, m[:, 1], side="left") - 1
    first = np.minimum(first, len(spans) - 1)
    last = np.maximum(last, first)
    # join[i]: sentence i is joined with sentence i + 1.
    join = np.zeros(len(spans), dtype=bool)
    crossing = last > first
    stats.crossing_mentions += int(crossing.sum())
    for a, b in zip(first[crossing], last[crossing], strict=True):
        join[a:b] = True
    merged: list[list[int]] = []
    group_start = 0
    for i in range(len(spans)):
        if not join[i]:
            merged.append([int(starts[group_start]), int(ends[i])])
            group_start = i + 1
    stats.merged += len(spans) - len(merged)
    # Widen sentences to mentions with edge whitespace (rare; keeps sentences disjoint: gaps are blank).
    group_of = np.searchsorted(np.array([e for _, e in merged]), m[:, 0], side="right")
    group_of = np.minimum(group_of, len(merged) - 1)
    for (ms, me), g in zip(m.tolist(), group_of.tolist(), strict=True):
        if ms < merged[g][0] or me > merged[g][1]:
            merged[g] = [min(ms, merged[g][0]), max(me, merged[g][1])]
            stats.extended += 1
    return [(s, e) for s, e in merged]


# A segmenter per worker process (pysbd objects are rebuilt there rather than pickled).
_WORKER: Segmenter | None = None


def _init_worker(language: str, mask_mention_periods: bool, split_title: bool, split_lines: bool) -> None:
    global _WORKER
    _WORKER = Segmenter(language, mask_mention_periods, split_title, split_lines)


def _segment_one(
    item: tuple[str, Sequence[tuple[int, int]], int],
) -> tuple[list[tuple[int, int]], SegmentationStats]:
    assert _WORKER is not None
    stats = SegmentationStats()
    text, mentions, title_length = item
    return _WORKER.segment(text, mentions, title_length, stats), stats


def segment_documents(
    segmenter: Segmenter,
    items: Sequence[tuple[str, Sequence[tuple[int, int]], int]],
    processes: int = 1,
    chunksize: int = 64,
) -> list[tuple[list[tuple[int, int]], SegmentationStats]]:
    """Segment many documents ``(text, mention spans, title length)``, in order, on ``processes`` cores.

    pysbd segments with pure-Python regular expressions, so large corpora are spread over worker
    processes; results come back in input order, so the output does not depend on ``processes``.
    """
    if processes <= 1 or len(items) <= chunksize:
        out = []
        for text, mentions, title_length in items:
            stats = SegmentationStats()
            out.append((segmenter.segment(text, mentions, title_length, stats), stats))
        return out
    import multiprocessing

    # fork: workers inherit the imported modules (no re-import of the calling script's __main__).
    method = "fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn"
    args = (segmenter.language, segmenter.mask_mention_periods, segmenter.split_title, segmenter.split_lines)
    with multiprocessing.get_context(method).Pool(processes, initializer=_init_worker, initargs=args) as pool:
        return pool.map(_segment_one, items, chunksize=chunksize)
