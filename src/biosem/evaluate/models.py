"""Representations to evaluate: word vectors through gensim, word2vec training, sentence encoders.

Word vectors are read with gensim ``KeyedVectors`` in the formats people publish them in:

* ``word2vec_binary`` / ``word2vec_text``: the word2vec C tool's formats (header line ``<n> <dim>``);
  fastText ``.vec`` files are ``word2vec_text``;
* ``glove``: GloVe text files (no header line; ``load_word2vec_format(no_header=True)``);
* ``fasttext``: Facebook fastText ``.bin`` models (``load_facebook_vectors``): words outside the
  vocabulary get vectors from their character n-grams.

``max_vocab`` keeps the first N vectors of the file (word2vec and GloVe files list the most frequent
words first). ``lowercase: true`` lowercases the model's keys, keeping the first (most frequent) vector
when several keys collide, and lowercases every query; ``false`` matches queries as written; ``auto``
(the default, :func:`resolve_case`) matches in lower case when no key holds an upper-case letter
(GloVe 6B, trained lower-case models), else as written: a lower-case vocabulary asked for "Malaria" or
"Abnormalities, Drug-Induced" as written covers about a tenth of MeSH's term pairs.

Phrases (multi-word terms) are the mean of their words' raw vectors (Schulz & Juric 2020; BMASS
multi-word terms), unless the phrase itself is a key of the model (phrase embeddings). Words are
the maximal runs of letters and digits (:data:`TOKEN_PATTERN`): the same tokeniser serves the
training corpus, the datasets' terms and WiC contexts, so a term's words are the model's words.

The embedded default trains small word2vec models (skip-gram and CBOW, several windows) with
gensim on the default corpora, single-threaded with a fixed seed so the vectors are byte-identical
across runs (gensim is deterministic only with ``workers=1``; string hashing goes through
:func:`stable_hash`, not Python's salted ``hash``).
"""

from __future__ import annotations

import importlib
import logging
import re
import zlib
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

import numpy as np
import pandas as pd
from gensim.models import KeyedVectors, Word2Vec
from gensim.models.fasttext import FastTextKeyedVectors, load_facebook_vectors
from scipy import sparse

from biosem.errors import SourceFormatError
from biosem.evaluate import CASE_AUTO, WORD_VECTOR_FORMATS
from biosem.evaluate.encoders import read_embedding_table
from biosem.io import atomic_path
from biosem.logs import Progress

log = logging.getLogger(__name__)

TOKEN_PATTERN = re.compile(r"[^\W_]+")
MODEL_FORMATS = ("train", *WORD_VECTOR_FORMATS, "sentence_transformers")


def tokenize(text: str, lowercase: bool = True) -> list[str]:
    """Words of ``text``: maximal runs of letters/digits (punctuation and ``_`` separate words)."""
    return TOKEN_PATTERN.findall(text.lower() if lowercase else text)


def stable_hash(text: str) -> int:
    """A process-independent string hash (CRC-32) for gensim's ``hashfxn``."""
    return zlib.crc32(text.encode("utf-8"))


# --------------------------------------------------------------------------------------------------
# Training
# --------------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class TrainingParams:
    """word2vec hyper-parameters (gensim names). ``sg``: 1 skip-gram, 0 CBOW; ``window`` in words."""

    sg: int
    window: int
    vector_size: int = 100
    min_count: int = 5
    epochs: int = 5
    negative: int = 5
    sample: float = 1e-3
    alpha: float = 0.025
    min_alpha: float = 0.0001
    seed: int = 1


def corpus_sentences(documents: pd.DataFrame, lowercase: bool = True) -> list[list[str]]:
    """One token list per document (``text`` column), documents ordered by (corpus, document_id).

    Empty documents are dropped. The order is fixed so training is reproducible whatever order the
    corpus files were read in.
    """
    if documents.empty:
        return []
    docs = documents.sort_values(["corpus", "document_id"], kind="stable")
    sentences = [tokenize(text, lowercase) for text in docs["text"].astype(str)]
    return [s for s in sentences if s]


def count_tokens(sentences: Iterable[Sequence[str]]) -> pd.DataFrame:
    """Token frequencies: columns ``token, count, document_count``; most frequent first, then token."""
    counts: Counter[str] = Counter()
    docs: Counter[str] = Counter()
    for sentence in sentences:
        counts.update(sentence)
        docs.update(set(sentence))
    frame = pd.DataFrame(
        {"token": list(counts), "count": list(counts.values()), "document_count": [docs[t] for t in counts]}
    )
    if frame.empty:
        return frame.astype({"token": object, "count": np.int64, "document_count": np.int64})
    return frame.sort_values(["count", "token"], ascending=[False, True], kind="stable").reset_index(drop=True)


def train_word2vec(sentences: Sequence[Sequence[str]], params: TrainingParams) -> KeyedVectors:
    """Train word2vec (gensim) deterministically and return its word vectors.

    Single worker thread, seeded, vocabulary sorted by descending frequency (ties in first-seen
    order), so identical input gives bit-identical vectors. Source: Mikolov et al. (2013).

    Raises:
        ValueError: no sentences, or no word reaches ``min_count``.
    """
    if not sentences:
        raise ValueError("train_word2vec: empty corpus")
    model = Word2Vec(
        vector_size=params.vector_size,
        window=params.window,
        min_count=params.min_count,
        sg=params.sg,
        hs=0,
        negative=params.negative,
        sample=params.sample,
        alpha=params.alpha,
        min_alpha=params.min_alpha,
        seed=params.seed,
        workers=1,
        epochs=params.epochs,
        hashfxn=stable_hash,
        sorted_vocab=1,
    )
    model.build_vocab(corpus_iterable=sentences)
    if len(model.wv) == 0:
        raise ValueError(f"train_word2vec: no word occurs at least min_count={params.min_count} times")
    log.info("word2vec vocabulary: %d words (min_count %d)", len(model.wv), params.min_count)
    model.train(corpus_iterable=sentences, total_examples=model.corpus_count, epochs=model.epochs)
    return model.wv


def save_word2vec_binary(kv: KeyedVectors, path: str | Path) -> None:
    """Write vectors in the word2vec binary format, atomically."""
    with atomic_path(path) as tmp:
        kv.save_word2vec_format(str(tmp), binary=True)


# --------------------------------------------------------------------------------------------------
# Loading
# --------------------------------------------------------------------------------------------------
def lowercase_keys(kv: KeyedVectors) -> KeyedVectors:
    """A copy of ``kv`` with lowercased keys; on collisions the first (most frequent) vector wins."""
    lowered = [key.lower() for key in kv.index_to_key]
    _, first = np.unique(np.asarray(lowered, dtype=object), return_index=True)
    keep = np.sort(first)
    out = KeyedVectors(kv.vector_size, count=0, dtype=kv.vectors.dtype)
    out.add_vectors([lowered[i] for i in keep], kv.vectors[keep])
    return out


def load_keyed_vectors(path: str | Path, fmt: str, max_vocab: int | None = None) -> KeyedVectors:
    """Read word vectors in ``fmt`` (see :data:`WORD_VECTOR_FORMATS`); keep the first ``max_vocab``.

    gensim reads the file; biosem then checks what gensim lets through or reports without a place
    (:func:`check_vector_file`): every vector finite (gensim parses ``nan`` and ``inf``, and a ``nan``
    vector would count as covered), every text row a word and ``dim`` numbers, and as many vectors as
    the word2vec header says (gensim stops at the header's count and ignores further rows).

    Raises:
        ValueError: unknown format, or ``max_vocab`` with a fastText ``.bin`` model.
        FileNotFoundError: ``path`` does not exist.
        SourceFormatError: a malformed file, naming it and, for text formats, the line: a row with
            the wrong number of values or a value that is not a number, a ``nan`` / ``inf``, a header
            count larger or smaller than the rows (for word2vec binary: the vector, not a line).
    """
    path = Path(path)
    if not path.is_file():
        raise FileNotFoundError(f"word vectors not found: {path}")
    if fmt not in WORD_VECTOR_FORMATS:
        raise ValueError(f"unknown word-vector format {fmt!r}; expected one of {WORD_VECTOR_FORMATS}")
    if fmt == "fasttext" and max_vocab is not None:
        raise ValueError("max_vocab does not apply to fastText .bin models (n-gram vectors cover every word)")
    try:
        if fmt == "fasttext":
            kv = load_facebook_vectors(str(path))
        else:
            kv = KeyedVectors.load_word2vec_format(
                str(path), binary=fmt == "word2vec_binary", no_header=fmt == "glove", limit=max_vocab
            )
    except (ValueError, EOFError, UnicodeDecodeError, OSError, IndexError) as exc:
        if isinstance(exc, FileNotFoundError):
            raise
        raise locate_vector_error(path, fmt, exc) from exc
    check_vector_file(path, fmt, kv, max_vocab)
    return kv


def _text_rows(path: Path) -> Iterator[tuple[int, bytes]]:
    """``(line number, line without its end)`` of a text vector file, gzip read through."""
    from biosem.sources import open_binary

    with open_binary(path) as fh:
        for number, line in enumerate(fh, start=1):
            yield number, line.rstrip(b"\r\n")


def _row_problem(fields: list[bytes], dim: int) -> tuple[str, str] | None:
    """What is wrong with one text row (``fields``: the word, then the values), or ``None``."""
    if len(fields) != dim + 1:
        return f"a word and {dim} values", f"{len(fields) - 1} values"
    for value in fields[1:]:
        try:
            number = float(value)
        except ValueError:
            return f"a word and {dim} numbers", f"{value.decode('utf-8', 'replace')!r}"
        if not np.isfinite(number):
            return "finite values (no nan or inf)", value.decode("utf-8", "replace")
    return None


def locate_vector_error(path: Path, fmt: str, exc: BaseException) -> SourceFormatError:
    """The :class:`~biosem.errors.SourceFormatError` for a vector file gensim could not read, with the line
    of the first bad row of a text file (found by reading the file again), else what gensim said."""
    if fmt in ("word2vec_text", "glove"):
        header, dim, count, rows = fmt == "word2vec_text", None, None, 0
        for number, line in _text_rows(path):
            try:
                text = line.decode("utf-8")
            except UnicodeDecodeError:
                return SourceFormatError(path, number, "UTF-8 text", repr(line[:80]))
            fields = text.rstrip().split(" ")
            if header and number == 1:
                if len(fields) != 2 or not all(f.isdigit() for f in fields):
                    return SourceFormatError(path, 1, "a word2vec header '<count> <dim>'", text[:80])
                count, dim = int(fields[0]), int(fields[1])
                continue
            if count is not None and rows == count:
                break
            dim = len(fields) - 1 if dim is None else dim
            problem = _row_problem([f.encode() for f in fields], dim)
            if problem is not None:
                where = "as the header says" if header else "as the first row has"
                return SourceFormatError(path, number, f"{problem[0]} ({where})", problem[1])
            rows += 1
        if count is not None and rows < count:
            return SourceFormatError(
                path,
                rows + 2,
                f"{count} vectors, as the header (line 1) says",
                f"{rows} vectors: the file ends before this line",
            )
    found = f"{type(exc).__name__}: {exc}"
    if fmt == "word2vec_binary" and isinstance(exc, EOFError):
        count = _header_count(path)
        return SourceFormatError(path, None, f"{count} vectors, as the header (line 1) says", f"fewer ({found})")
    return SourceFormatError(path, None, f"a readable {fmt} vector file", found)


def check_vector_file(path: Path, fmt: str, kv: KeyedVectors, max_vocab: int | None = None) -> None:
    """Check vectors gensim read from ``path``: all finite; a word2vec file (text or binary) holds
    exactly the vectors its header counts.

    Raises:
        SourceFormatError: naming the file and, for a text file, the line (module docstring).
    """
    finite = np.isfinite(kv.vectors).all(axis=1)
    if not finite.all():
        word = kv.index_to_key[int(np.flatnonzero(~finite)[0])]
        if fmt in ("word2vec_text", "glove"):
            start = 2 if fmt == "word2vec_text" else 1
            for number, line in _text_rows(path):
                fields = line.split(b" ")
                if number >= start and fields and fields[0].decode("utf-8", "replace") == word:
                    problem = _row_problem(fields, kv.vector_size) or ("finite values (no nan or inf)", "")
                    raise SourceFormatError(path, number, problem[0], problem[1])
        raise SourceFormatError(path, None, f"finite values (no nan or inf) in the vector of {word!r}", "nan or inf")
    if fmt == "word2vec_text":
        count, rows = _header_count(path), _text_row_count(path)
        if rows > count:
            raise SourceFormatError(
                path, count + 2, f"{count} vectors, as the header (line 1) says", f"{rows} rows (more from here on)"
            )
    elif fmt == "word2vec_binary" and max_vocab is None:
        count = _header_count(path)
        extra = _binary_trailing_bytes(path, count, kv.vector_size)
        if extra:
            raise SourceFormatError(
                path,
                None,
                f"{count} vectors, as the header (line 1) says",
                f"{extra} more bytes after vector {count} (the header count is too small)",
            )


def _header_count(path: Path) -> int:
    from biosem.sources import open_binary

    with open_binary(path) as fh:
        return int(fh.readline().split()[0])


def _text_row_count(path: Path) -> int:
    """Rows after the header line of a text file, up to its last line holding more than white space."""
    from biosem.sources import open_binary

    newlines, tail = 0, b""
    with open_binary(path) as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            newlines += block.count(b"\n")
            tail = (tail + block)[-(1 << 16) :]
    content = tail.rstrip()
    if not content:
        return 0
    # Lines through the last one with content (newlines before it, plus it), less the header line.
    return newlines - tail[len(content) :].count(b"\n")


def _binary_trailing_bytes(path: Path, count: int, dim: int) -> int:
    """Bytes other than white space after the ``count``-th vector of a word2vec binary file (each vector:
    the word, a space, ``dim`` float32 values, an optional line feed)."""
    from biosem.sources import open_binary

    size = 4 * dim
    with open_binary(path) as fh:
        buffer = fh.read(1 << 22)
        position = buffer.index(b"\n") + 1
        for _ in range(count):
            while True:
                space = buffer.find(b" ", position)
                if space >= 0 and space + 1 + size <= len(buffer):
                    break
                more = fh.read(1 << 22)
                if not more:
                    return 0  # gensim read every vector: a shorter file would have failed there
                buffer, position = buffer[position:] + more, 0
            position = space + 1 + size
        extra = len(buffer[position:].strip())
        for block in iter(lambda: fh.read(1 << 22), b""):
            extra += len(block.strip())
    return extra


FASTTEXT_MAGIC = 793712314
"""The first int32 (little-endian) of a Facebook fastText ``.bin`` model (``FASTTEXT_FILEFORMAT_MAGIC_INT32``)."""
_TEXT_BYTES = frozenset(b"\t\n\r") | frozenset(range(32, 256))


def infer_vector_format(path: str | Path) -> str:
    """The :data:`WORD_VECTOR_FORMATS` name of a word-vector file, from its first bytes (gzip read through).

    ``fasttext``: starts with :data:`FASTTEXT_MAGIC`; otherwise a first line of two integers
    (``<n> <dim>``) is the word2vec header: ``word2vec_binary`` when the 4 KiB after it hold a control byte
    (raw float32 data), else ``word2vec_text``; any other first line is ``glove`` (no header line).

    Raises:
        SourceFormatError: an empty file, or a first line that is not text.
        OSError: the file cannot be read.
    """
    from biosem.errors import SourceFormatError
    from biosem.sources import open_binary

    with open_binary(path) as fh:
        head = fh.read(1 << 16)
    if len(head) >= 4 and int.from_bytes(head[:4], "little") == FASTTEXT_MAGIC:
        return "fasttext"
    first, newline, rest = head.partition(b"\n")
    if not first.strip():
        raise SourceFormatError(path, 1, "word vectors (a header '<n> <dim>' or '<word> <values...>')", "")
    try:
        fields = first.decode("utf-8").split()
    except UnicodeDecodeError as exc:
        raise SourceFormatError(path, 1, "a text first line (word2vec header or GloVe row)", repr(first[:80])) from exc
    if len(fields) == 2 and all(f.isdigit() for f in fields):
        return "word2vec_binary" if any(b not in _TEXT_BYTES for b in rest[:4096]) else "word2vec_text"
    return "glove"


def has_upper_case(keys: Iterable[str]) -> bool:
    """Whether any key holds an upper-case letter (one that ``str.lower`` changes: ``Malaria``, ``IL6``, ``Δ``)."""
    return any(key != key.lower() for key in keys)


def resolve_case(name: str, keys: Sequence[str], lowercase: bool | str) -> bool:
    """Whether model ``name`` matches terms in lower case: ``lowercase`` itself when it is a bool, else (``auto``,
    :data:`biosem.evaluate.CASE_AUTO`) whether none of its vocabulary ``keys`` holds an upper-case letter
    (:func:`has_upper_case`). What ``auto`` chose is logged (INFO, once per call: once per model load).

    Raises:
        ValueError: ``lowercase`` is neither a bool nor ``auto``.
    """
    if isinstance(lowercase, bool):
        return lowercase
    if lowercase != CASE_AUTO:
        raise ValueError(f"model {name}: lowercase must be true, false or {CASE_AUTO!r}, not {lowercase!r}")
    lower = not has_upper_case(keys)
    if lower:
        log.info(
            "model %s: no upper-case letter in its %d keys, so terms are matched in lower case (lowercase: auto; "
            "config lowercase: false or biosem evaluate --case-sensitive matches them as written)",
            name,
            len(keys),
        )
    else:
        log.info(
            "model %s: upper-case letters in its keys, so terms are matched as written (lowercase: auto; "
            "config lowercase: true or biosem evaluate --lowercase lowercases keys and terms)",
            name,
        )
    return lower


class Representation(Protocol):
    """What the evaluation families need from a model."""

    name: str
    word_level: bool

    def phrase_vectors(self, phrases: Sequence[str], require_all: bool = True) -> tuple[np.ndarray, np.ndarray]:
        """``(vectors float32 [n, dim], covered bool [n])``; uncovered rows are zero."""
        ...


class WordVectors:
    """Word vectors with phrase lookup. ``vectors`` are the model's raw (unnormalised) vectors.

    ``lowercase``: True (keys lowercased, :func:`lowercase_keys`, and every query), False (queries as
    written) or ``auto`` (:func:`resolve_case`: lower case when no key holds an upper-case letter, then the
    keys need no copy); the choice made is ``self.lowercase``.

    Raises:
        ValueError: ``lowercase`` is neither a bool nor ``auto``.
    """

    word_level = True

    def __init__(self, name: str, kv: KeyedVectors, lowercase: bool | str) -> None:
        self.name = name
        # fastText keys stay as they are (their n-grams were built from them); queries are lowercased.
        self.subword = isinstance(kv, FastTextKeyedVectors)
        self.lowercase = resolve_case(name, kv.index_to_key, lowercase)
        self.kv = lowercase_keys(kv) if lowercase is True and not self.subword else kv
        self.dim = int(self.kv.vector_size)
        self._mean: np.ndarray | None = None

    def __len__(self) -> int:
        return len(self.kv.index_to_key)

    def normalise(self, text: str) -> str:
        return text.lower() if self.lowercase else text

    def tokens(self, phrase: str) -> list[str]:
        return tokenize(phrase, self.lowercase)

    def mean_vector(self) -> np.ndarray:
        """Mean of all the model's vectors (the ``mean`` OOV policy's stand-in)."""
        if self._mean is None:
            self._mean = np.asarray(self.kv.vectors, dtype=np.float64).mean(axis=0).astype(np.float32)
        return self._mean

    def word_matrix(self, words: Sequence[str]) -> tuple[np.ndarray, np.ndarray]:
        """``(vectors float32 [n, dim], known bool [n])`` for ``words`` (already normalised)."""
        index = self.kv.key_to_index
        idx = np.fromiter((index.get(w, -1) for w in words), dtype=np.int64, count=len(words))
        known = idx >= 0
        out = np.zeros((len(words), self.dim), dtype=np.float32)
        if known.any():
            out[known] = self.kv.vectors[idx[known]]
        if self.subword and not known.all():
            for i in map(int, np.flatnonzero(~known)):
                if words[i] in self.kv:
                    out[i] = self.kv.get_vector(words[i])
                    known[i] = True
        return out, known

    def phrase_word_index(self, phrases: Sequence[str]) -> tuple[list[str], list[list[int]]]:
        """The distinct words of ``phrases`` and, per phrase, positions into that word list.

        A phrase that is itself a key of the model (phrase embeddings) is one "word".
        """
        words: dict[str, int] = {}
        per_phrase: list[list[int]] = []
        index = self.kv.key_to_index
        for phrase in phrases:
            key = self.normalise(phrase)
            toks = self.tokens(phrase)
            if len(toks) > 1 and key in index:
                toks = [key]
            per_phrase.append([words.setdefault(t, len(words)) for t in toks])
        return list(words), per_phrase

    def phrase_vectors(self, phrases: Sequence[str], require_all: bool = True) -> tuple[np.ndarray, np.ndarray]:
        """Mean word vector of each phrase and whether it is covered.

        ``require_all``: a phrase is covered only if every word is known (else: at least one, and
        the unknown words are ignored). Uncovered rows are zero vectors.
        """
        words, per_phrase = self.phrase_word_index(phrases)
        matrix, known = self.word_matrix(words)
        n = len(phrases)
        lengths = np.fromiter((len(p) for p in per_phrase), dtype=np.int64, count=n)
        cols = np.fromiter((w for p in per_phrase for w in p), dtype=np.int64, count=int(lengths.sum()))
        rows = np.repeat(np.arange(n), lengths)
        ok = known[cols] if len(cols) else np.zeros(0, dtype=bool)
        n_known = np.bincount(rows[ok], minlength=n)
        covered = (n_known == lengths) & (lengths > 0) if require_all else n_known > 0
        weights = np.zeros(len(cols), dtype=np.float64)
        use = ok & covered[rows]
        weights[use] = 1.0 / n_known[rows[use]]
        mean = sparse.csr_matrix((weights, (rows, cols)), shape=(n, len(words))) @ matrix.astype(np.float64)
        return np.asarray(mean, dtype=np.float32), covered

    def phrase_words(self, phrases: Sequence[str]) -> PhraseWords:
        """The known words of each phrase (unknown words left out), in CSR layout.

        A phrase that is itself a key of the model (phrase embeddings) is one word.
        """
        words, per_phrase = self.phrase_word_index(phrases)
        matrix, known = self.word_matrix(words)
        remap = np.full(len(words), -1, dtype=np.int64)
        remap[known] = np.arange(int(known.sum()))
        lengths = np.fromiter((len(p) for p in per_phrase), dtype=np.int64, count=len(per_phrase))
        flat = np.fromiter((w for p in per_phrase for w in p), dtype=np.int64, count=int(lengths.sum()))
        rows = np.repeat(np.arange(len(per_phrase)), lengths)
        ok = remap[flat] >= 0 if len(flat) else np.zeros(0, dtype=bool)
        n_known = np.bincount(rows[ok], minlength=len(per_phrase))
        offsets = np.concatenate([[0], np.cumsum(n_known)]).astype(np.int64)
        return PhraseWords(matrix[known], offsets, remap[flat[ok]], (n_known == lengths) & (lengths > 0))


@dataclass(frozen=True)
class PhraseWords:
    """Known word vectors of phrases: phrase i owns ``cols[offsets[i]:offsets[i + 1]]`` (rows of
    ``matrix``, raw vectors). ``all_known[i]``: every word of phrase i is known."""

    matrix: np.ndarray
    offsets: np.ndarray
    cols: np.ndarray
    all_known: np.ndarray

    @property
    def counts(self) -> np.ndarray:
        return np.diff(self.offsets)

    def _incidence(self) -> sparse.csr_matrix:
        n = len(self.offsets) - 1
        counts = self.counts
        weights = np.repeat(np.divide(1.0, counts, out=np.zeros(n), where=counts > 0), counts)
        return sparse.csr_matrix((weights, self.cols, self.offsets), shape=(n, len(self.matrix)))

    def mean(self, unit: bool = False) -> np.ndarray:
        """Mean of each phrase's (unit, if ``unit``) word vectors, float64 [n, dim]; 0 if none."""
        m = self.matrix.astype(np.float64)
        if unit:
            norms = np.linalg.norm(m, axis=1, keepdims=True)
            m = np.divide(m, norms, out=np.zeros_like(m), where=norms > 0)
        return np.asarray(self._incidence() @ m)

    def max_pool(self) -> np.ndarray:
        """Element-wise maximum over each phrase's word vectors, float64 [n, dim]; -inf if none."""
        n = len(self.offsets) - 1
        out = np.full((n, self.matrix.shape[1]), -np.inf)
        has = self.counts > 0
        if has.any():
            # The maximum in the vectors' own dtype, then widened: the same values, half the copy.
            occ = self.matrix[self.cols]
            out[has] = np.maximum.reduceat(occ, self.offsets[:-1][has], axis=0).astype(np.float64)
        return out

    def padded(self, phrases: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Word vectors of the given phrase indices, padded: ``(float64 [m, K, dim], mask [m, K])``."""
        counts = self.counts[phrases]
        k = max(int(counts.max()) if len(counts) else 0, 1)
        out = np.zeros((len(phrases), k, self.matrix.shape[1]), dtype=np.float64)
        mask = np.arange(k)[None, :] < counts[:, None]
        rows = np.repeat(np.arange(len(phrases)), counts)
        starts = np.repeat(self.offsets[phrases], counts)
        slots = np.arange(len(rows)) - np.repeat(np.cumsum(counts) - counts, counts)
        out[rows, slots] = self.matrix[self.cols[starts + slots]]
        return out, mask


ENCODING_PROGRESS_STEP = 0.1
""":meth:`SentenceEncoder.phrase_vectors` logs the strings encoded at every tenth of the total (at most every
10 s; a call of under 10 s that logged nothing stays quiet)."""


class SentenceEncoder:
    """A sentence-transformers model: one vector per phrase (no word-level metrics)."""

    word_level = False

    def __init__(self, name: str, model: Any, batch_size: int = 64) -> None:
        self.name = name
        self.model = model
        self.batch_size = batch_size

    def phrase_vectors(self, phrases: Sequence[str], require_all: bool = True) -> tuple[np.ndarray, np.ndarray]:
        """``(vectors float32 [n, dim], covered bool [n])``: one ``encode`` call over all ``phrases`` (batch size
        ``batch_size``), every phrase covered.

        Progress (strings encoded of the total, :data:`ENCODING_PROGRESS_STEP`) is logged from a forward hook
        that counts the rows of each batch the model runs: sentence-transformers sorts the whole input by
        length before it cuts batches, so encoding in chunks would change the batches (their padding) and
        could change the vectors; the hook leaves the call, and so the vectors, as they are. A model without
        ``register_forward_hook`` encodes without progress lines.
        """
        if not phrases:
            dim = int(self.model.get_sentence_embedding_dimension())
            return np.zeros((0, dim), dtype=np.float32), np.zeros(0, dtype=bool)
        progress = Progress(
            log,
            f"{self.name}: encoding",
            len(phrases),
            unit="strings",
            step=ENCODING_PROGRESS_STEP,
            finish_after=10.0,
        )

        def count_batch(_module: object, _inputs: object, output: object) -> None:
            rows = output.get("sentence_embedding") if isinstance(output, Mapping) else None
            if rows is not None:
                progress.advance(len(rows))

        hook = self.model.register_forward_hook(count_batch) if hasattr(self.model, "register_forward_hook") else None
        try:
            vectors = self.model.encode(
                list(phrases), batch_size=self.batch_size, convert_to_numpy=True, show_progress_bar=False
            )
        finally:
            if hook is not None:
                hook.remove()
        progress.finish()
        return np.asarray(vectors, dtype=np.float32), np.ones(len(phrases), dtype=bool)


def load_sentence_encoder(name: str, spec: Mapping[str, Any]) -> SentenceEncoder | None:
    """Load a sentence-transformers model, or return None after logging why it is skipped.

    Skipped (not an error) when the ``sentence-transformers`` package is not installed (the ``encoders``
    extra, after PyTorch's CPU build: README § Sentence encoders) or its weights cannot be loaded (by
    default only from the local cache: ``local_files_only: true``).
    """
    try:
        module = importlib.import_module("sentence_transformers")
    except ImportError:
        log.warning(
            "model %s skipped: the sentence-transformers package is not installed "
            "(install PyTorch's CPU build, then pip install -e '.[encoders]': README § Sentence encoders)",
            name,
        )
        return None
    try:
        model = module.SentenceTransformer(
            spec["model"], device=spec["device"], local_files_only=spec["local_files_only"]
        )
    except Exception as exc:  # noqa: BLE001 - any failure to find/load weights means "skip"
        log.warning("model %s skipped: weights of %r could not be loaded (%s)", name, spec["model"], exc)
        return None
    return SentenceEncoder(name, model, int(spec["batch_size"]))


def load_representation(name: str, spec: Mapping[str, Any], path: str | Path | None = None) -> Representation | None:
    """The model ``name`` described by its config ``spec`` (see config/README.md § evaluate).

    ``path`` is the vector file (the trained file for ``format: train``). Returns None for a
    sentence encoder that cannot be loaded (logged).
    """
    fmt = spec["format"]
    if fmt == "sentence_transformers":
        return load_sentence_encoder(name, spec)
    if fmt == "train":
        kv = load_keyed_vectors(path if path is not None else spec["path"], "word2vec_binary")
        return WordVectors(name, kv, lowercase=True)
    kv = load_keyed_vectors(path if path is not None else spec["path"], fmt, spec["max_vocab"])
    return WordVectors(name, kv, lowercase=spec["lowercase"])


def unit_rows(matrix: np.ndarray) -> np.ndarray:
    """Rows scaled to unit L2 norm (zero rows stay zero), float32."""
    matrix = np.asarray(matrix, dtype=np.float32)
    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    return np.divide(matrix, norms, out=np.zeros_like(matrix), where=norms > 0)


def rowwise_cosine(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Cosine of corresponding rows (float64 [n]); 0 where a row is zero."""
    x = np.asarray(x, dtype=np.float64)
    y = np.asarray(y, dtype=np.float64)
    den = np.linalg.norm(x, axis=1) * np.linalg.norm(y, axis=1)
    num = np.einsum("ij,ij->i", x, y)
    return np.divide(num, den, out=np.zeros_like(num), where=den > 0)


def load_rule_model(name: str, spec: Mapping[str, Any], path_input: Any) -> Representation | None:
    """Load the model of a rule: ``path_input`` is the rule's ``model`` input, the vector file or, for a
    sentence encoder, its embedding table (:func:`biosem.evaluate.encoders.read_embedding_table`; None when
    the table is empty because the encoder could not be loaded, logged)."""
    if isinstance(path_input, (str, Path)):
        path: str | None = str(path_input)
    else:
        path = str(path_input[0]) if len(path_input) else None
    if spec["format"] == "sentence_transformers" and path is not None:
        return read_embedding_table(path, name)
    return load_representation(name, spec, path)
