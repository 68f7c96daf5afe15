"""Term frequencies in a corpus: every terminology term counted at once with one Aho–Corasick automaton.

BMASS (Newman-Griffis et al. 2017, § 3) keeps a concept when one of its strings occurs at least 25 times
in PubMed, counted as exact matches after lowercasing and stripping punctuation. biosem makes the rule
explicit and applies it identically to terms and text:

* **Normalisation** (:func:`normalise`): lowercase (full Unicode), every character that is not a letter,
  mark or digit (Unicode categories P*, S*, Z*, Cc, Cf: punctuation, symbols, spaces, controls) becomes
  a space, runs of spaces collapse to one, no leading or trailing space. ``"Crohn's disease"`` ->
  ``"crohn s disease"``; ``"non-small-cell"`` -> ``"non small cell"``; ``"IL-2"`` -> ``"il 2"``.
  Punctuation separates tokens rather than disappearing, so two words joined by a hyphen or slash
  never fuse into a third word.
* **Case** (:data:`MATCH_MODES`; which term is counted how: :mod:`biosem.analogies.matching`). A term is
  counted in one of three modes. ``folded`` (BMASS): term and text lowercased as above. ``cased``: the
  text is normalised without lowercasing (:func:`normalise` with ``fold_case=False``) and every
  token, of the term and of the text, is compared through its *case key* (:func:`case_key`): a token
  with an upper-case letter after its first character (``CAN``, ``IgM``, ``mRNA``, ``HIV``) is kept
  as written, any other token is lowercased. So ``"HIV Infections"`` (key ``"HIV infections"``) is
  found in "HIV infections" but not in "hiv infections", and ``"CAN"`` is found in "CAN" but not in
  "can" or "Can". ``exact``: the text normalised without lowercasing, tokens compared as written
  (``"Lead"`` is found in "Lead", never in "lead"). In both, a capital that opens a document or a
  sentence is lowercased first when the rest of its word is not capitalised
  (:func:`lower_sentence_starts`: "All patients ..." holds "all", not the HPO term "All"; "Stroke
  is ..." holds "stroke"). Punctuation is handled alike in the three modes.
  Every term is also counted ``folded`` (its BMASS count), so what a rule changed stays measurable.
* **Matching**: a term occurs where its normalised token sequence occurs in the normalised text on token
  boundaries: a term inside a longer word does not count (``"ion"`` is not found in ``"lesion"``).
  Every occurrence counts, nested and overlapping ones included (``"cell"`` is counted inside
  ``"t cell lymphoma"`` as well as ``"t cell"`` and ``"t cell lymphoma"``), so each term's count is
  what a search for that term alone would give. Matches never span two documents.
* **Automaton**: one Aho–Corasick automaton over all distinct normalised terms (never a regex per term).
  Backend ``ahocorasick_rs`` (Rust; the default when installed) runs over *token codes*: each token of
  the terms' vocabulary gets a prefix-free code (one code point for the ~520,000 most frequent, two
  beyond), every other token of the text one "unknown" code, and the automaton runs over the UTF-8
  bytes of the coded text: about 2 bytes per token instead of about 7 characters, and token boundaries
  hold by construction (UTF-8 is self-synchronising and the code is prefix-free). Single-token terms
  are counted by a histogram of the coded text, so the automaton reports multi-token matches only.
  Backend ``pyahocorasick`` (C; its nodes scan their children linearly, so it runs on characters:
  ``" term "`` patterns over ``" text "``) gives identical counts and serves where the Rust wheel is
  unavailable. The ``cased`` and ``exact`` patterns are counted by a second automaton (one per mode)
  over the same chunk normalised without lowercasing; both backends map a text token to a pattern
  token through one table (:func:`case_variants`: the written forms whose case key is the token), so
  their counts are identical in every mode.

Throughput: corpora are processed in chunks of whole documents (default 4 MB), in parallel worker
processes that each build the automaton once; counts are integers summed per chunk, so the result
does not depend on the number of workers or on chunk order. See ``bench/bench_term_frequency.py``.
"""

from __future__ import annotations

import concurrent.futures as cf
import functools
import itertools
import logging
import multiprocessing
import operator
import os
import re
import unicodedata
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from biosem.corpora.pubmed_xml import read_pubmed_xml
from biosem.corpora.shards import FilePart, read_lines, shard_mask
from biosem.errors import SourceFormatError
from biosem.io import parquet_errors
from biosem.logs import Progress
from biosem.sources import open_binary

log = logging.getLogger(__name__)

BACKENDS = ("auto", "ahocorasick_rs", "pyahocorasick")
FOLDED, CASED, EXACT = "folded", "cased", "exact"
MATCH_MODES = (FOLDED, CASED, EXACT)
"""How a term is compared with the text (module docstring): lowercased (BMASS), through the case key
of each token, or as written."""
DOCUMENT_SEPARATOR = b" \x00 "
"""Joins documents inside a chunk: the NUL token is never part of a term, so no match spans it."""

# ASCII: letters lowercased, digits kept, every other byte (punctuation, symbols, space, controls)
# becomes a space, except NUL (the document separator). Bytes >= 0x80 (non-ASCII UTF-8) are left
# for _fix_non_ascii.
_ASCII_TABLE = bytes(
    (ord(chr(b).lower()) if chr(b).isalnum() else 0 if b == 0 else 0x20) if b < 0x80 else b for b in range(256)
)
_ASCII_TABLE_CASED = bytes((b if chr(b).isalnum() else 0 if b == 0 else 0x20) if b < 0x80 else b for b in range(256))
_NON_ASCII_RUN = re.compile(rb"[\x80-\xff]+")
_SEPARATOR_CATEGORIES = frozenset({"Cc", "Cf"})


@functools.lru_cache(maxsize=1 << 16)
def _normalise_non_ascii_run(run: bytes, fold_case: bool = True) -> bytes:
    """Lowercase (``fold_case``) a maximal run of non-ASCII UTF-8 characters; separators (P*, S*, Z*,
    Cc, Cf) -> space."""
    text = run.decode("utf-8")
    if fold_case:
        text = text.lower()
    return "".join(
        " " if (cat := unicodedata.category(ch))[0] in "PSZ" or cat in _SEPARATOR_CATEGORIES else ch for ch in text
    ).encode("utf-8")


def _fix_non_ascii(match: re.Match[bytes]) -> bytes:
    return _normalise_non_ascii_run(match.group())


def _fix_non_ascii_cased(match: re.Match[bytes]) -> bytes:
    return _normalise_non_ascii_run(match.group(), False)


def normalise_bytes(raw: bytes, fold_case: bool = True) -> bytes:
    """Normalise UTF-8 text (see the module docstring) without collapsing spaces; NUL bytes are kept.
    ``fold_case=False`` keeps the case (the text of the ``cased`` and ``exact`` modes).

    Works on bytes so that ASCII text takes one ``bytes.translate`` pass; runs of non-ASCII characters
    (complete UTF-8 sequences, since every byte of a multi-byte character is >= 0x80) are decoded and
    normalised one run at a time (cached).

    Raises:
        UnicodeDecodeError: ``raw`` is not valid UTF-8.
    """
    out = raw.translate(_ASCII_TABLE if fold_case else _ASCII_TABLE_CASED)
    if not out.isascii():
        out = _NON_ASCII_RUN.sub(_fix_non_ascii if fold_case else _fix_non_ascii_cased, out)
    return out


def tokens(raw: bytes, fold_case: bool = True) -> list[bytes]:
    """The normalised tokens of UTF-8 text (document separators appear as ``b"\\x00"`` tokens);
    ``fold_case=False``: the case is kept."""
    return normalise_bytes(raw, fold_case).replace(b"\x00", DOCUMENT_SEPARATOR).split()


def normalise(text: str, fold_case: bool = True) -> str:
    """Lowercase, punctuation and symbols -> spaces, whitespace collapsed: ``"Crohn's  Disease"`` ->
    ``"crohn s disease"``. The same function normalises terms and corpus text. ``fold_case=False``
    keeps the case: ``"Crohn's  Disease"`` -> ``"Crohn s Disease"``."""
    return b" ".join(tokens(text.replace("\x00", " ").encode("utf-8"), fold_case)).decode("utf-8")


def normalise_many(texts: Sequence[str], fold_case: bool = True) -> list[str]:
    """:func:`normalise` of each string, in one pass over their concatenation (fast for millions)."""
    if not texts:
        return []
    joined = "\x00".join(texts)
    if joined.count("\x00") != len(texts) - 1:  # a NUL inside a string: normalise one by one
        return [normalise(t, fold_case) for t in texts]
    parts = normalise_bytes(joined.encode("utf-8"), fold_case).split(b"\x00")
    return [b" ".join(part.split()).decode("utf-8") for part in parts]


_SENTENCE_START = re.compile(rb"[.!?:\x00][\"')\]]*[ \t\r\n]+[\"'(\[]*([A-Z])(?![a-z0-9]*[A-Z])")
_TEXT_START = re.compile(rb"[ \t\r\n]*[\"'(\[]*([A-Z])(?![a-z0-9]*[A-Z])")
"""An ASCII capital opening a document or a sentence (after ``.``, ``!``, ``?`` or ``:`` as in the
section labels of structured abstracts, closing quotes or brackets, and white space; opening quotes or
brackets may precede it) whose word has no other capital."""


def lower_sentence_starts(raw: bytes) -> bytes:
    """``raw`` (UTF-8 text; documents joined by :data:`DOCUMENT_SEPARATOR`) with the first letter of
    every document and sentence lowercased when the rest of its word is not capitalised: a capital
    there says nothing about the word ("Heart rate was ..." -> "heart rate was ...", "RESULTS: All
    patients" -> "RESULTS: all patients"; "CAN", "IgM" stay). The text side of the ``cased`` and
    ``exact`` modes."""
    first = _TEXT_START.match(raw)
    starts = [m.start(1) for m in _SENTENCE_START.finditer(raw)]
    if first is not None:
        starts.append(first.start(1))
    if not starts:
        return raw
    buffer = bytearray(raw)
    for i in starts:
        buffer[i] |= 0x20  # ASCII A-Z -> a-z
    return bytes(buffer)


def has_inner_capital(token: str) -> bool:
    """True when an upper-case letter follows the token's first character: ``CAN``, ``IgM``,
    ``mRNA``, ``HbA1c``, ``1A``; not ``Crohn``, ``B``, ``disease`` (what "written in capitals or
    mixed case" means for a token; Unicode ``str.isupper``)."""
    return any(ch.isupper() for ch in token[1:])


def case_key(token: str) -> str:
    """The case key of a normalised token: the token as written when it has an inner capital
    (:func:`has_inner_capital`), else lowercased. ``CAN`` -> ``CAN``, ``Can`` -> ``can``,
    ``Infections`` -> ``infections``, ``IgM`` -> ``IgM``."""
    return token if has_inner_capital(token) else token.lower()


def case_variants(key: str) -> tuple[str, ...]:
    """The written text tokens a ``cased`` pattern token matches: a key with an inner capital only
    itself; a lowercase key itself and its form with the first character upper-cased (``infections``
    -> ``infections``, ``Infections``), when that form has no inner capital of its own. Every variant
    ``v`` satisfies ``case_key(v) == key``."""
    if has_inner_capital(key):
        return (key,)
    upper = key[:1].upper() + key[1:]
    return (key,) if upper == key or has_inner_capital(upper) or case_key(upper) != key else (key, upper)


def match_forms(texts: Sequence[str], mode: str) -> list[str]:
    """The form of each text counted in ``mode`` (:data:`MATCH_MODES`): ``folded`` -> :func:`normalise`;
    ``exact`` -> normalised with its case kept; ``cased`` -> the case key of each token of the latter
    (``"HIV Infections"`` -> ``"HIV infections"``; ``"CAN"`` -> ``"CAN"``).

    Raises:
        ValueError: unknown mode.
    """
    if mode == FOLDED:
        return normalise_many(texts)
    if mode not in MATCH_MODES:
        raise ValueError(f"unknown match mode {mode!r}; expected one of {MATCH_MODES}")
    cased = normalise_many(texts, fold_case=False)
    if mode == EXACT:
        return cased
    return [" ".join(map(case_key, form.split())) for form in cased]


def merge_partial_counts(
    patterns: Sequence[str],
    partial: Iterable[pd.DataFrame],
    modes: Sequence[str] | None = None,
    concepts: Sequence[str | None] | None = None,
) -> np.ndarray:
    """Occurrences of each counting slot summed over shards' partial counts.

    Args:
        patterns: the counted form of each slot (a pattern, or a context's pattern).
        partial: tables with columns ``normalised``, ``count`` and optionally ``mode`` (default
            ``folded``) and ``concept_id`` (the concept of a context slot; null for a pattern).
        modes: the match mode of each slot (``None``: all ``folded``).
        concepts: the concept of each context slot, None for a pattern slot (``None``: no context).

    Returns an int64 array aligned with ``patterns``.

    Raises:
        ValueError: a partial table names a (form, mode, concept) that is not a slot (shards counted
            other terms).
    """
    modes = [FOLDED] * len(patterns) if modes is None else list(modes)
    concepts = [None] * len(patterns) if concepts is None else list(concepts)
    counts = np.zeros(len(patterns), dtype=np.int64)
    index = pd.Index([f"{m}\t{p}\t{c or ''}" for p, m, c in zip(patterns, modes, concepts)])
    for table in partial:
        table_modes = table["mode"].astype(str) if "mode" in table else pd.Series(FOLDED, index=table.index)
        table_concepts = (
            table["concept_id"].fillna("").astype(str) if "concept_id" in table else pd.Series("", index=table.index)
        )
        keys = table_modes.str.cat([table["normalised"].astype(str), table_concepts], sep="\t")
        position = index.get_indexer(keys)
        if (position < 0).any():
            bad = int(np.flatnonzero(position < 0)[0])
            unknown = (table["normalised"].iloc[bad], table_modes.iloc[bad], table_concepts.iloc[bad] or None)
            raise ValueError(f"partial counts name {unknown!r}, which is not a pattern of these terms")
        np.add.at(counts, position, table["count"].to_numpy(dtype=np.int64))
    return counts


# --------------------------------------------------------------------------------------------------
# The automaton
# --------------------------------------------------------------------------------------------------
def resolve_backend(backend: str = "auto") -> str:
    """``auto`` -> ``ahocorasick_rs`` when importable, else ``pyahocorasick``.

    Raises:
        ValueError: unknown backend name.
        ImportError: the requested backend is not installed.
    """
    if backend not in BACKENDS:
        raise ValueError(f"unknown Aho-Corasick backend {backend!r}; expected one of {BACKENDS}")
    if backend == "auto":
        try:
            import ahocorasick_rs
        except ImportError:
            return "pyahocorasick"
        return "ahocorasick_rs"
    if backend == "ahocorasick_rs":
        import ahocorasick_rs  # noqa: F401
    else:
        import ahocorasick  # noqa: F401
    return backend


_UNKNOWN = "\x01"  # the code of every text token outside the terms' vocabulary
_SEPARATOR = b"\x00"  # the document separator token, coded as itself (code point 0)
_FIRST_CODE = 2
_SINGLE_END = 0x80000  # single-code range [2, 0x80000) minus surrogates
_LEAD = (0x80000, 0xC0000)  # two-code tokens: a lead code point, then a trail code point
_TRAIL = (0xC0000, 0x110000)
_SURROGATES = (0xD800, 0xE000)
_SINGLE_CAPACITY = _SINGLE_END - _FIRST_CODE - (_SURROGATES[1] - _SURROGATES[0])


def _token_code(rank: int) -> str:
    """Prefix-free code of the token of frequency rank ``rank`` (0 = most frequent)."""
    if rank < _SINGLE_CAPACITY:
        cp = _FIRST_CODE + rank
        if cp >= _SURROGATES[0]:
            cp += _SURROGATES[1] - _SURROGATES[0]
        return chr(cp)
    lead, trail = divmod(rank - _SINGLE_CAPACITY, _TRAIL[1] - _TRAIL[0])
    if lead >= _LEAD[1] - _LEAD[0]:
        raise ValueError("more distinct term tokens than the token code can hold (8.6e10)")
    return chr(_LEAD[0] + lead) + chr(_TRAIL[0] + trail)


class _Pass:
    """One Aho–Corasick automaton over the patterns of one match mode (see :class:`TermCounter`).

    ``folded`` patterns run over the lowercased tokens of a chunk; ``cased`` and ``exact`` patterns
    over its tokens with their case kept, each text token standing for the pattern token it matches:
    itself (``exact``), or the key whose :func:`case_variants` hold it (``cased``). The occurrences of
    ``located`` patterns (pattern ids) are also reported with their document.
    """

    def __init__(
        self, patterns: Sequence[str], ids: np.ndarray, backend: str, mode: str, located: np.ndarray | None = None
    ) -> None:
        self.mode = mode
        self.backend = backend
        split = [p.split(" ") for p in patterns]
        located_local = np.flatnonzero(np.isin(ids, located)) if located is not None else np.zeros(0, dtype=np.int64)
        vocabulary = sorted(set(itertools.chain.from_iterable(split)))
        # written text token -> the pattern token it stands for (folded: the text is already lowercased)
        self._token_of: dict[bytes, bytes] | None = None
        if mode != FOLDED:
            self._token_of = {_SEPARATOR: _SEPARATOR}
            for tok in vocabulary:
                for variant in case_variants(tok) if mode == CASED else (tok,):
                    self._token_of.setdefault(variant.encode("utf-8"), tok.encode("utf-8"))
        self._automaton: object | None = None
        self._automaton_ids = np.zeros(0, dtype=np.int64)  # automaton pattern index -> pattern id
        self._automaton_located = np.zeros(0, dtype=bool)  # automaton pattern index -> located?
        self._unigram_of_code = np.zeros(0, dtype=np.int64)  # code point -> pattern id (-1: none)
        self._located_code = np.zeros(0, dtype=bool)  # code point -> a located single-token pattern?
        is_located = np.zeros(len(patterns), dtype=bool)
        is_located[located_local] = True
        if backend == "ahocorasick_rs":
            import ahocorasick_rs

            frequency = Counter(itertools.chain.from_iterable(split))
            ranked = sorted(frequency, key=lambda t: (-frequency[t], t))
            code = {tok: _token_code(rank) for rank, tok in enumerate(ranked)}
            if self._token_of is None:
                self._codes = {tok.encode("utf-8"): c for tok, c in code.items()}
            else:
                self._codes = {
                    text: code[tok.decode("utf-8")] for text, tok in self._token_of.items() if text != _SEPARATOR
                }
            self._codes[_SEPARATOR] = _SEPARATOR.decode("ascii")
            single = [i for i, toks in enumerate(split) if len(toks) == 1 and len(code[toks[0]]) == 1]
            if single:
                points = np.array([ord(code[split[i][0]]) for i in single], dtype=np.int64)
                self._unigram_of_code = np.full(int(points.max()) + 1, -1, dtype=np.int64)
                self._unigram_of_code[points] = ids[single]
                self._located_code = np.zeros(int(points.max()) + 1, dtype=bool)
                self._located_code[points] = is_located[single]
            in_automaton = np.setdiff1d(np.arange(len(patterns)), np.array(single, dtype=np.int64))
            self._automaton_ids = ids[in_automaton]
            self._automaton_located = is_located[in_automaton]
            if len(in_automaton):
                coded = ["".join(code[t] for t in split[i]).encode("utf-8") for i in in_automaton]
                self._automaton = ahocorasick_rs.BytesAhoCorasick(coded, matchkind=ahocorasick_rs.MatchKind.Standard)
        else:
            import ahocorasick

            automaton = ahocorasick.Automaton(ahocorasick.STORE_INTS)
            for i, pattern in enumerate(patterns):
                automaton.add_word(f" {pattern} ", i)
            automaton.make_automaton()
            self._automaton = automaton
            self._automaton_ids = np.asarray(ids, dtype=np.int64)
            self._automaton_located = is_located

    def sparse_counts(self, toks: list[bytes]) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """(pattern ids, occurrences) in the tokens of a chunk (lowercased for ``folded``, as written
        otherwise; documents separated by ``b"\\x00"`` tokens), ids in no particular order; then
        (pattern ids, document index in the chunk) of every occurrence of a located pattern (the
        index is the number of document separators before the occurrence)."""
        none = np.zeros(0, dtype=np.int64)
        located_ids: list[np.ndarray] = [none]
        located_docs: list[np.ndarray] = [none]
        any_located = bool(self._automaton_located.any())
        if self.backend == "ahocorasick_rs":
            coded = "".join(map(self._codes.get, toks, itertools.repeat(_UNKNOWN)))
            parts_ids: list[np.ndarray] = []
            parts_n: list[np.ndarray] = []
            if len(self._unigram_of_code):
                points = np.frombuffer(coded.encode("utf-32-le"), dtype=np.uint32)
                hist = np.bincount(points[points < len(self._unigram_of_code)], minlength=len(self._unigram_of_code))
                hit = np.flatnonzero(hist)
                ids = self._unigram_of_code[hit]
                keep = ids >= 0
                parts_ids.append(ids[keep])
                parts_n.append(hist[hit][keep].astype(np.int64))
                if self._located_code.any():
                    inside = points < len(self._located_code)
                    where = np.flatnonzero(inside & self._located_code[np.where(inside, points, 0)])
                    located_ids.append(self._unigram_of_code[points[where]])
                    located_docs.append(np.cumsum(points == 0)[where])
            if self._automaton is not None:
                raw = coded.encode("utf-8")
                found = self._automaton.find_matches_as_indexes(raw, overlapping=True)  # type: ignore[attr-defined]
                index = np.fromiter(map(operator.itemgetter(0), found), dtype=np.int64, count=len(found))
                ids, n = np.unique(index, return_counts=True)
                parts_ids.append(self._automaton_ids[ids])
                parts_n.append(n.astype(np.int64))
                if any_located:
                    start = np.fromiter(map(operator.itemgetter(1), found), dtype=np.int64, count=len(found))
                    mask = self._automaton_located[index]
                    separators = np.flatnonzero(np.frombuffer(raw, dtype=np.uint8) == 0)
                    located_ids.append(self._automaton_ids[index[mask]])
                    located_docs.append(np.searchsorted(separators, start[mask]))
            located = (np.concatenate(located_ids), np.concatenate(located_docs))
            if not parts_ids:
                return none, none, *located
            return np.concatenate(parts_ids), np.concatenate(parts_n), *located
        if self._token_of is not None:
            toks = list(map(self._token_of.get, toks, itertools.repeat(_UNKNOWN.encode("utf-8"))))
        text = " " + b" ".join(toks).decode("utf-8") + " "
        found = list(self._automaton.iter(text))  # type: ignore[attr-defined]
        index = np.fromiter(map(operator.itemgetter(1), found), dtype=np.int64, count=len(found))
        ids, n = np.unique(index, return_counts=True)
        if any_located:
            end = np.fromiter(map(operator.itemgetter(0), found), dtype=np.int64, count=len(found))
            mask = self._automaton_located[index]
            separators = np.flatnonzero(np.frombuffer(text.encode("utf-32-le"), dtype=np.uint32) == 0)
            located_ids.append(self._automaton_ids[index[mask]])
            located_docs.append(np.searchsorted(separators, end[mask]))
        return self._automaton_ids[ids], n.astype(np.int64), np.concatenate(located_ids), np.concatenate(located_docs)


class TermCounter:
    """Aho–Corasick automata over normalised patterns (one per match mode); counts their
    occurrences in text chunks, and occurrences of some patterns in the documents where others occur.

    With the ``ahocorasick_rs`` backend, single-token patterns whose token has a one-code-point code
    are counted by a vectorised histogram of the coded text (``numpy.bincount``), and the automaton
    holds the multi-token patterns (plus any single-token pattern left with a two-code-point code):
    the automaton then reports the long matches only, which is where its time goes. ``cased`` and
    ``exact`` patterns are counted over the chunk normalised once more, without lowercasing (a second
    pass that only runs when such patterns exist).

    A *context* ``(p, (q1, q2, ...))`` counts the occurrences of pattern ``p`` in the documents where
    one of the patterns ``q1, q2, ...`` occurs too (an abbreviation where its long form is written;
    :mod:`biosem.analogies.matching`). The patterns named by contexts are also *located*: each of
    their occurrences is reported with its document (the number of document separators before it),
    from the automaton's match offsets or, for single-token patterns counted by the histogram, from
    the positions of their codes; counts never depend on it.

    Args:
        patterns: non-empty normalised terms (tokens separated by single spaces, as :func:`match_forms`
            returns them in their mode); pattern ``i`` is counted in slot ``i``.
        backend: ``auto``, ``ahocorasick_rs`` or ``pyahocorasick`` (identical counts).
        modes: the match mode of each pattern (:data:`MATCH_MODES`); ``None``: all ``folded``.
        contexts: context ``k`` is counted in slot ``len(patterns) + k``.

    Raises:
        ValueError: a pattern is empty or not normalised, a (pattern, mode) pair is repeated, a mode
            is unknown or not aligned with the patterns, or a context names no pattern.
    """

    def __init__(
        self,
        patterns: Sequence[str],
        backend: str = "auto",
        modes: Sequence[str] | None = None,
        contexts: Sequence[tuple[int, Sequence[int]]] = (),
    ) -> None:
        self.n_patterns = len(patterns) + len(contexts)
        self.backend = resolve_backend(backend)
        modes = [FOLDED] * len(patterns) if modes is None else list(modes)
        if len(modes) != len(patterns):
            raise ValueError(f"{len(modes)} modes for {len(patterns)} patterns")
        for pattern, mode in zip(patterns, modes):
            if not pattern or "" in pattern.split(" ") or "\x00" in pattern:
                raise ValueError(f"pattern {pattern!r} is not a normalised non-empty term")
            if mode not in MATCH_MODES:
                raise ValueError(f"unknown match mode {mode!r}; expected one of {MATCH_MODES}")
        if len(set(zip(patterns, modes))) != len(patterns):
            raise ValueError("patterns must be distinct")
        # contexts as arrays: the counted pattern of each, and (context, long-form pattern) pairs
        self._context_of = np.array([p for p, _ in contexts], dtype=np.int64)
        self._long_forms = pd.DataFrame(
            [(k, q) for k, (_, qs) in enumerate(contexts) for q in qs], columns=["context", "pattern"], dtype=np.int64
        )
        named = np.union1d(self._context_of, self._long_forms["pattern"].to_numpy())
        if len(named) and (named.min() < 0 or named.max() >= len(patterns)):
            raise ValueError("a context names a pattern that does not exist")
        by_mode = np.array(modes, dtype=object)
        self._passes: list[_Pass] = []
        for mode in MATCH_MODES:
            ids = np.flatnonzero(by_mode == mode)
            if len(ids):
                self._passes.append(_Pass([patterns[i] for i in ids], ids, self.backend, mode, located=named))
        self._n_plain = len(patterns)

    def sparse_counts(self, chunk: bytes) -> tuple[np.ndarray, np.ndarray]:
        """(slot ids, occurrences) of the patterns and contexts occurring in ``chunk`` (UTF-8 text;
        documents joined by :data:`DOCUMENT_SEPARATOR`); ids ascending, occurrences > 0.

        Raises:
            UnicodeDecodeError: ``chunk`` is not valid UTF-8.
        """
        parts_ids: list[np.ndarray] = []
        parts_n: list[np.ndarray] = []
        located_ids: list[np.ndarray] = []
        located_docs: list[np.ndarray] = []
        folded: list[bytes] | None = None
        cased: list[bytes] | None = None
        for one in self._passes:
            if one.mode == FOLDED:
                folded = tokens(chunk) if folded is None else folded
                ids, n, where, docs = one.sparse_counts(folded)
            else:
                cased = tokens(lower_sentence_starts(chunk), fold_case=False) if cased is None else cased
                ids, n, where, docs = one.sparse_counts(cased)
            parts_ids.append(ids)
            parts_n.append(n)
            located_ids.append(where)
            located_docs.append(docs)
        if len(self._context_of):
            ids, n = self._context_counts(np.concatenate(located_ids), np.concatenate(located_docs))
            parts_ids.append(ids + self._n_plain)
            parts_n.append(n)
        if not parts_ids:
            return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
        ids = np.concatenate(parts_ids)
        n = np.concatenate(parts_n)
        keep = n > 0
        order = np.argsort(ids[keep], kind="stable")
        return ids[keep][order], n[keep][order]

    def _context_counts(self, pattern: np.ndarray, document: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(context ids, occurrences of the context's pattern in documents holding one of its long
        forms), from every occurrence (pattern id, document) of the located patterns."""
        occurrences = pd.DataFrame({"pattern": pattern, "document": document})
        with_long_form = occurrences.drop_duplicates().merge(self._long_forms, on="pattern")
        present = with_long_form[["context", "document"]].drop_duplicates()
        counted = pd.DataFrame({"context": np.arange(len(self._context_of)), "pattern": self._context_of})
        hits = occurrences.merge(counted, on="pattern").merge(present, on=["context", "document"])
        n = np.bincount(hits["context"].to_numpy(dtype=np.int64), minlength=len(self._context_of))
        ids = np.flatnonzero(n)
        return ids.astype(np.int64), n[ids].astype(np.int64)

    def count(self, chunk: bytes) -> np.ndarray:
        """Occurrences of each pattern, then of each context, in ``chunk``: int64 array of length
        ``n_patterns`` (patterns + contexts)."""
        counts = np.zeros(self.n_patterns, dtype=np.int64)
        ids, n = self.sparse_counts(chunk)
        counts[ids] = n
        return counts


# --------------------------------------------------------------------------------------------------
# Parallel counting over a stream of chunks
# --------------------------------------------------------------------------------------------------
_WORKER: TermCounter | None = None


def _init_worker(
    patterns: Sequence[str],
    backend: str,
    modes: Sequence[str] | None,
    contexts: Sequence[tuple[int, Sequence[int]]],
) -> None:
    global _WORKER
    _WORKER = TermCounter(patterns, backend, modes, contexts)


def _sparse_counts(counter: TermCounter, chunk: bytes) -> tuple[np.ndarray, np.ndarray, int]:
    ids, counts = counter.sparse_counts(chunk)
    return ids, counts, len(chunk)


def _count_in_worker(chunk: bytes) -> tuple[np.ndarray, np.ndarray, int]:
    assert _WORKER is not None, "worker not initialised"
    return _sparse_counts(_WORKER, chunk)


def count_occurrences(
    patterns: Sequence[str],
    chunks: Iterable[bytes],
    workers: int = 1,
    backend: str = "auto",
    modes: Sequence[str] | None = None,
    contexts: Sequence[tuple[int, Sequence[int]]] = (),
) -> tuple[np.ndarray, dict[str, int]]:
    """Count every pattern (and context) over a stream of text chunks.

    Args:
        patterns: distinct normalised terms (see :class:`TermCounter`).
        modes: the match mode of each pattern (``None``: all ``folded``; see :class:`TermCounter`).
        contexts: patterns counted in the documents holding others (see :class:`TermCounter`); their
            counts follow the patterns' in the result.
        chunks: UTF-8 byte strings of whole documents joined by :data:`DOCUMENT_SEPARATOR` (as
            :func:`document_chunks` and :func:`text_file_chunks` yield them).
        workers: worker processes (``spawn``ed; each builds its own automaton from ``patterns``). At
            most ``2 * workers`` chunks are in flight, so memory stays bounded on corpora of any
            size. 1, or a corpus of fewer than ``2 * workers`` chunks: count in this process.
        backend: see :class:`TermCounter`.

    Progress (MB of text counted and the rate; the corpus is a stream of unknown size) is logged at
    a bounded rate (:class:`biosem.logs.Progress`).

    Returns:
        (counts, stats): int64 occurrences per pattern, then per context (independent of ``workers``
        and chunking), and ``{"bytes", "chunks", "matches"}`` (matches of patterns and contexts).
    """
    counts = np.zeros(len(patterns) + len(contexts), dtype=np.int64)
    stats = {"bytes": 0, "chunks": 0, "matches": 0}
    progress = Progress(log, f"counting {len(patterns):,} terms in the corpus", None, unit="MB", scale=1e6)

    def add(result: tuple[np.ndarray, np.ndarray, int]) -> None:
        ids, n, size = result
        counts[ids] += n
        stats["bytes"] += size
        stats["chunks"] += 1
        stats["matches"] += int(n.sum())
        progress.advance(size)

    # A corpus of at most 2 * workers chunks is counted in this process: starting workers (each
    # importing numpy and building its automaton) would cost more than it saves.
    stream = iter(chunks)
    head = list(itertools.islice(stream, 2 * workers)) if workers > 1 else []
    if workers <= 1 or not patterns or len(head) < 2 * workers:
        counter = TermCounter(patterns, backend, modes, contexts)
        for chunk in itertools.chain(head, stream):
            add(_sparse_counts(counter, chunk))
        progress.finish()
        return counts, stats

    context = multiprocessing.get_context("spawn")
    with cf.ProcessPoolExecutor(
        max_workers=workers,
        mp_context=context,
        initializer=_init_worker,
        initargs=(list(patterns), backend, None if modes is None else list(modes), list(contexts)),
    ) as pool:
        pending: set[cf.Future[tuple[np.ndarray, np.ndarray, int]]] = set()
        for chunk in itertools.chain(head, stream):
            if len(pending) >= 2 * workers:
                done, pending = cf.wait(pending, return_when=cf.FIRST_COMPLETED)
                for future in done:
                    add(future.result())
            pending.add(pool.submit(_count_in_worker, chunk))
        for future in cf.as_completed(pending):
            add(future.result())
    progress.finish()
    return counts, stats


# --------------------------------------------------------------------------------------------------
# Corpus readers: whole documents in chunks of about ``chunk_bytes``
# --------------------------------------------------------------------------------------------------
def document_chunks(
    paths: Sequence[str | os.PathLike[str]],
    chunk_bytes: int = 4 * 2**20,
    seen: set[str] | None = None,
    stats: Counter[str] | None = None,
    shard: tuple[int, int] = (0, 1),
) -> Iterator[bytes]:
    """Chunks of the ``text`` column of corpus ``documents`` Parquet files, in file and row order.

    A ``document_id`` already seen (in an earlier file or row, tracked in ``seen``) is skipped, so a
    PMID present in two corpora counts once. ``stats`` (if given) receives ``documents`` and
    ``duplicate documents``. ``shard`` ``(k, N)``: only the documents of shard ``k`` (0-based) of
    ``N`` (:func:`biosem.corpora.shards.shard_mask` of the id), which holds every copy of its ids, so
    deduplication stays exact.

    Raises:
        SourceFormatError: a file lacks the ``document_id`` or ``text`` column.
    """
    seen = set() if seen is None else seen
    stats = Counter() if stats is None else stats
    for path in paths:
        with parquet_errors(path):  # a damaged file is named with the rule that wrote it
            parquet = pq.ParquetFile(path)
        missing = {"document_id", "text"} - set(parquet.schema_arrow.names)
        if missing:
            raise SourceFormatError(
                path, None, "a documents table with columns document_id, text", str(sorted(missing))
            )
        buffer: list[bytes] = []
        size = 0
        for batch in parquet.iter_batches(columns=["document_id", "text"], batch_size=4096):
            ids = batch.column("document_id").to_pylist()
            mine = np.flatnonzero(shard_mask(ids, *shard)).tolist()
            keep = [i for i in mine if ids[i] not in seen]
            seen.update(ids[i] for i in keep)
            stats["duplicate documents"] += len(mine) - len(keep)
            stats["documents"] += len(keep)
            text = (
                batch.column("text").take(pa.array(keep, pa.int64())) if len(keep) < len(ids) else batch.column("text")
            )
            for value in pc.fill_null(text, "").cast(pa.binary()).to_pylist():
                buffer.append(value)
                size += len(value) + len(DOCUMENT_SEPARATOR)
                if size >= chunk_bytes:
                    yield DOCUMENT_SEPARATOR.join(buffer)
                    buffer, size = [], 0
        if buffer:
            yield DOCUMENT_SEPARATOR.join(buffer)


def text_file_chunks(
    path: str | os.PathLike[str], chunk_bytes: int = 4 * 2**20, stats: Counter[str] | None = None
) -> Iterator[bytes]:
    """Chunks of a plain or gzipped UTF-8 text file holding one document (abstract) per line.

    Empty lines are skipped. ``stats`` (if given) receives ``documents``.

    Raises:
        SourceFormatError: the file is not valid UTF-8 (names the line).
    """
    path = Path(path)
    stats = Counter() if stats is None else stats
    line_no = 0
    with open_binary(path) as handle:
        while True:
            lines = handle.readlines(chunk_bytes)
            if not lines:
                return
            kept = [line for line in lines if line.strip()]
            chunk = DOCUMENT_SEPARATOR.join(kept)
            try:
                chunk.decode("utf-8")
            except UnicodeDecodeError:
                for offset, line in enumerate(lines, start=line_no + 1):
                    try:
                        line.decode("utf-8")
                    except UnicodeDecodeError as err:
                        raise SourceFormatError(
                            path,
                            offset,
                            "UTF-8 text, one document per line",
                            repr(line[max(0, err.start - 20) : err.end + 20]),
                        ) from None
            line_no += len(lines)
            stats["documents"] += len(kept)
            if kept:
                yield chunk


def part_chunks(part: FilePart, chunk_bytes: int = 4 * 2**20, stats: Counter[str] | None = None) -> Iterator[bytes]:
    """Chunks of one shard's part of a corpus file (:func:`biosem.corpora.shards.file_parts`).

    A whole text file: :func:`text_file_chunks`. A byte range of a plain text file: its lines
    (:func:`biosem.corpora.shards.read_lines`), one document per non-empty line. PubMed XML: one
    document per article, title and abstract joined by a space (:mod:`biosem.corpora.pubmed_xml`);
    articles with neither are skipped. ``stats`` (if given) receives ``documents``.

    Raises:
        SourceFormatError: a line is not UTF-8 (names its line, or its byte offset in a range), or bad
            PubMed XML.
    """
    stats = Counter() if stats is None else stats
    if part.pubmed:
        texts = (a.text.encode("utf-8") for a in read_pubmed_xml(part.path))
        yield from _join_documents((t for t in texts if t), chunk_bytes, stats)
        return
    if part.whole:
        yield from text_file_chunks(part.path, chunk_bytes, stats)
        return

    def lines() -> Iterator[bytes]:
        for offset, line in read_lines(part):
            try:
                line.decode("utf-8")
            except UnicodeDecodeError as err:
                found = f"byte offset {offset + err.start}: {line[:60]!r}"
                raise SourceFormatError(part.path, None, "UTF-8 text, one document per line", found) from None
            if line.strip():
                yield line

    yield from _join_documents(lines(), chunk_bytes, stats)


def _join_documents(documents: Iterable[bytes], chunk_bytes: int, stats: Counter[str]) -> Iterator[bytes]:
    """Documents joined by :data:`DOCUMENT_SEPARATOR` into chunks of about ``chunk_bytes``."""
    buffer: list[bytes] = []
    size = 0
    for document in documents:
        buffer.append(document)
        stats["documents"] += 1
        size += len(document) + len(DOCUMENT_SEPARATOR)
        if size >= chunk_bytes:
            yield DOCUMENT_SEPARATOR.join(buffer)
            buffer, size = [], 0
    if buffer:
        yield DOCUMENT_SEPARATOR.join(buffer)
