"""Token-per-line corpora (``format: conll``) into documents / sentences / mentions tables.

Format: the CoNLL-style files of the MTL-Bioinformatics-2016 corpora (Crichton et al. 2017, converted
from standoff by ``spyysalo/standoff2conll``; plain or gzipped UTF-8)::

    token<TAB>tag          one token per line; the tag is an IOB entity tag or a Penn POS tag
    <blank line>           ends a sentence

The tag column is checked (present, non-empty) and not used for the text; a corpus with gold Penn tags
(GENIA-pos) keeps them in :attr:`ConllSentence.tags` for a check of the tagger
(:func:`biosem.simlex.tagging.tag_agreement`). The files carry no raw text and no character offsets:

* **Text.** A sentence's text is its tokens joined by one space (``IL-2 gene expression ( and`` stays
  as tokenised), a document's text its sentences joined by one space; sentence offsets index that
  text. The original spacing is not recoverable, so these corpora serve word and term frequencies and
  word2vec, not WiC (no mention can be located in the original article).
* **Documents** (``document_unit``):

  - ``medline`` (GENIA-pos): the MEDLINE field lines delimit documents. A sentence ``UI - <id>``
    (tags ``LS : CD``) opens a document whose id is ``UI:<id>`` (a MEDLINE unique identifier, not a
    PMID); the sentences after a sentence that opens with the field label ``TI -`` (tags ``LS :``) are
    its title, those from the label ``AB -`` on its abstract. The labels (``UI``, ``TI``, ``AB`` and
    their ``-``) and the identifier are not text. A document read twice with the same sentences is
    kept once (GENIA-pos train holds UI 97218353 twice); a second copy that differs is an error.
    Held-out files are read first, so a document also in the training file stays held out.
  - ``sentences`` (the other MTL corpora): the files do not mark document boundaries, so each file
    (split) is cut into consecutive blocks of ``sentences_per_document`` sentences (10 by default:
    about one abstract), id ``<corpus>:<split>:<k>`` (``k`` 1-based, six digits). A block is the unit
    of document counts, of the abbreviation context of term counting, of a word2vec "sentence" (gensim
    truncates longer ones at 10,000 tokens) and of corpus shards.

* **Counts** (:class:`ConllStats`, per split and ``all``): ``token_lines`` is every non-blank line read
  (the figure a corpus' documentation gives: AnatEM 312,584 ... GENIA-pos 500,943), ``field_lines``
  the MEDLINE label and identifier lines among them, ``tokens`` the text tokens kept (duplicates
  dropped), and ``mentions`` is 0: these corpora give no concept ids, so the mentions table is empty.

Errors: a line that is not ``token<TAB>tag`` (a missing or extra column, an empty token or tag, a
token holding whitespace), bytes that are not UTF-8, a file without sentences, and in ``medline``
mode text before the first ``UI`` header, a malformed header or field label, or a conflicting
duplicate raise :class:`~biosem.errors.SourceFormatError` naming the file and the 1-based line.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd

from biosem.corpora.ingest import CorpusTables, counts_frame
from biosem.corpora.schemas import MENTIONS, SPLITS
from biosem.errors import SourceFormatError
from biosem.sources import open_binary

DOCUMENT_UNITS = ("sentences", "medline")
"""How documents are delimited (module docstring)."""
MEDLINE_FIELDS = {"TI": "title", "AB": "abstract"}
"""MEDLINE field labels opening a part of a ``medline`` document (the ``UI`` line opens the document)."""
_FIELD_TAGS = ("LS", ":")  # GENIA-pos tags the label "TI" as a list item (LS) and its "-" as ":"
_DIGITS = re.compile(r"[0-9]+")
_WHITESPACE = re.compile(r"\s")


@dataclass(frozen=True)
class ConllSentence:
    """One sentence of a token-per-line file: its tokens, their tags, and its first line (1-based)."""

    tokens: tuple[str, ...]
    tags: tuple[str, ...]
    line: int

    @property
    def text(self) -> str:
        """The tokens joined by one space."""
        return " ".join(self.tokens)


@dataclass
class ConllDocument:
    """A document of a token-per-line corpus: its id, title and abstract sentences, and where it starts."""

    document_id: str
    path: Path
    line: int
    title: list[ConllSentence] = field(default_factory=list)
    abstract: list[ConllSentence] = field(default_factory=list)
    field_lines: int = 0  # MEDLINE label and identifier lines (not text)

    @property
    def sentences(self) -> list[ConllSentence]:
        return self.title + self.abstract

    def key(self) -> tuple[object, ...]:
        """Everything the document says (tells an identical duplicate from a conflicting one)."""
        return (tuple((s.tokens, s.tags) for s in self.title), tuple((s.tokens, s.tags) for s in self.abstract))


@dataclass
class ConllStats:
    """Counters of one corpus split (``split == "all"`` for the whole corpus); see the module docstring."""

    corpus: str
    split: str
    files: int = 0
    token_lines: int = 0  # non-blank lines read (the corpus documentation's token count)
    field_lines: int = 0  # MEDLINE field labels and identifiers among them (medline unit)
    records: int = 0  # documents read, duplicates included
    duplicates_dropped: int = 0
    documents: int = 0
    sentences: int = 0
    tokens: int = 0  # text tokens of the documents kept
    mentions: int = 0  # always 0: no concept annotations

    def as_row(self) -> dict[str, object]:
        return dict(self.__dict__)


def _decode(path: Path, lineno: int, data: bytes) -> str:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        found = data[max(0, exc.start - 20) : exc.end + 20].rstrip(b"\r\n").decode("utf-8", "backslashreplace")
        raise SourceFormatError(path, lineno, f"UTF-8 text (byte {exc.start + 1} of the line)", found) from None


def read_conll(path: str | Path) -> Iterator[ConllSentence]:
    """Yield the sentences of a token-per-line file in file order.

    Lines end at ``\\n`` (a ``\\r\\n`` ending is stripped too); a line of whitespace only is blank.
    Consecutive blank lines end one sentence. Gzip files are read transparently.

    Raises:
        SourceFormatError: with the 1-based line, for a non-blank line that is not exactly two
            tab-separated fields, an empty token or tag, a token holding whitespace, or bytes that
            are not UTF-8; with line ``None`` for a file that holds no token line.
    """
    path = Path(path)
    tokens: list[str] = []
    tags: list[str] = []
    start = 0
    found = False
    with open_binary(path) as handle:
        for lineno, data in enumerate(handle, 1):
            line = _decode(path, lineno, data).rstrip("\n").rstrip("\r")
            if not line.strip():
                if tokens:
                    yield ConllSentence(tuple(tokens), tuple(tags), start)
                    tokens, tags = [], []
                continue
            cols = line.split("\t")
            if len(cols) != 2 or not cols[0] or not cols[1].strip() or _WHITESPACE.search(cols[0]):
                raise SourceFormatError(
                    path, lineno, "'token<TAB>tag' (a token without whitespace, a non-empty tag) or a blank line", line
                )
            if not tokens:
                start = lineno
            tokens.append(cols[0])
            tags.append(cols[1].strip())
            found = True
    if tokens:
        yield ConllSentence(tuple(tokens), tuple(tags), start)
    if not found:
        raise SourceFormatError(path, None, "token lines ('token<TAB>tag')", "no token line")


def _field_label(sentence: ConllSentence) -> str | None:
    """``"UI"``, ``"TI"`` or ``"AB"`` when the sentence opens with that MEDLINE field label and ``-``."""
    toks, tags = sentence.tokens, sentence.tags
    if len(toks) >= 2 and toks[0] in ("UI", *MEDLINE_FIELDS) and toks[1] == "-" and tags[:2] == _FIELD_TAGS:
        return toks[0]
    return None


def medline_documents(path: str | Path) -> Iterator[ConllDocument]:
    """The documents of a GENIA-style file (``document_unit: medline``; module docstring), in file order.

    Raises:
        SourceFormatError: see :func:`read_conll`; also a sentence before the first ``UI`` header, a
            ``UI`` header that is not ``UI - <digits>`` alone in its sentence, a field label without text
            after it, a ``TI`` label after the abstract began, or a document without text (names the line).
    """
    path = Path(path)
    current: ConllDocument | None = None
    part = ""

    def finish(doc: ConllDocument) -> ConllDocument:
        if not doc.sentences:
            raise SourceFormatError(path, doc.line, f"title or abstract text in document {doc.document_id}", "none")
        return doc

    for sentence in read_conll(path):
        label = _field_label(sentence)
        if label == "UI":
            toks = sentence.tokens
            if len(toks) != 3 or not _DIGITS.fullmatch(toks[2]):
                raise SourceFormatError(
                    path, sentence.line, "a header sentence 'UI<TAB>LS', '-<TAB>:', '<digits><TAB>CD'", " ".join(toks)
                )
            if current is not None:
                yield finish(current)
            current = ConllDocument(f"UI:{toks[2]}", path, sentence.line, field_lines=3)
            part = ""
            continue
        if current is None:
            raise SourceFormatError(path, sentence.line, "a document header 'UI<TAB>LS' first", sentence.text)
        if label is not None:
            if len(sentence.tokens) == 2:
                raise SourceFormatError(path, sentence.line, f"text after the field label {label} -", sentence.text)
            if label == "TI" and part:
                raise SourceFormatError(path, sentence.line, "the title (TI) before the abstract (AB)", sentence.text)
            part = MEDLINE_FIELDS[label]
            current.field_lines += 2
            sentence = ConllSentence(sentence.tokens[2:], sentence.tags[2:], sentence.line)
        if part == "title":
            current.title.append(sentence)
        elif part == "abstract":
            current.abstract.append(sentence)
        else:
            raise SourceFormatError(
                path, sentence.line, f"a field label TI or AB before the text of {current.document_id}", sentence.text
            )
    if current is not None:
        yield finish(current)


def sentence_block_documents(path: str | Path, corpus: str, split: str, size: int) -> Iterator[ConllDocument]:
    """Documents of ``size`` consecutive sentences of a file without document marks
    (``document_unit: sentences``), ids ``<corpus>:<split>:<k>`` (``k`` from 1, six digits)."""
    if size < 1:
        raise ValueError(f"sentences_per_document must be >= 1, not {size}")
    path = Path(path)
    block: list[ConllSentence] = []
    k = 0
    for sentence in read_conll(path):
        block.append(sentence)
        if len(block) == size:
            k += 1
            yield ConllDocument(f"{corpus}:{split}:{k:06d}", path, block[0].line, abstract=block)
            block = []
    if block:
        yield ConllDocument(f"{corpus}:{split}:{k + 1:06d}", path, block[0].line, abstract=block)


def read_conll_corpus(
    name: str,
    files: Mapping[str, str | Path],
    document_unit: str = "sentences",
    sentences_per_document: int = 10,
) -> tuple[list[tuple[str, ConllDocument]], dict[str, ConllStats]]:
    """Read a corpus' files (one per split) into ``(split, document)`` pairs, duplicates dropped.

    Files are read held-out first (test, dev, train): a ``medline`` document read again later with
    the same sentences is dropped and counted in ``duplicates_dropped`` of the later split.

    Raises:
        ValueError: ``files`` not keyed by splits, or an unknown ``document_unit``.
        SourceFormatError: see :func:`read_conll` and :func:`medline_documents`; a document id read
            twice with different sentences names both places.
    """
    if not files or set(files) - set(SPLITS):
        raise ValueError(f"{name}: files must be keyed by {list(SPLITS)}; got {sorted(files)}")
    if document_unit not in DOCUMENT_UNITS:
        raise ValueError(f"{name}: document_unit must be one of {DOCUMENT_UNITS}, not {document_unit!r}")
    stats = {s: ConllStats(name, s) for s in SPLITS}
    seen: dict[str, ConllDocument] = {}
    out: list[tuple[str, ConllDocument]] = []
    for split in sorted(files, key=SPLITS.index, reverse=True):
        path = Path(files[split])
        st = stats[split]
        docs = (
            medline_documents(path)
            if document_unit == "medline"
            else sentence_block_documents(path, name, split, sentences_per_document)
        )
        for doc in docs:
            st.records += 1
            st.field_lines += doc.field_lines
            st.token_lines += doc.field_lines + sum(len(s.tokens) for s in doc.sentences)
            first = seen.get(doc.document_id)
            if first is not None:
                if first.key() != doc.key():
                    raise SourceFormatError(
                        doc.path,
                        doc.line,
                        f"document {doc.document_id} once, or identical to its first copy at {first.path}:{first.line}",
                        "a second copy with other sentences",
                    )
                st.duplicates_dropped += 1
                continue
            seen[doc.document_id] = doc
            out.append((split, doc))
        st.files += 1
    return out, stats


def ingest_conll_corpus(
    name: str,
    files: Mapping[str, str | Path],
    document_unit: str = "sentences",
    sentences_per_document: int = 10,
) -> CorpusTables:
    """Read one token-per-line corpus into the corpus intermediates (docs/design.md § CRAFT and the
    tokenised corpora; rules in the module docstring).

    Returns:
        :class:`~biosem.corpora.ingest.CorpusTables` with the columns of ``biosem.corpora.schemas``:
        documents (``title`` the ``TI`` sentences or "", ``abstract`` the other sentences, ``text`` both
        joined by a space, or the one that is not empty), sentences (tokens joined by spaces, offsets
        into the document text), an empty mentions table, and counts (:class:`ConllStats`, one row
        per split plus ``all``).

    Raises:
        SourceFormatError: see :func:`read_conll_corpus`.
    """
    docs, stats = read_conll_corpus(name, files, document_unit, sentences_per_document)
    doc_rows: list[tuple[str, str, str, str, str]] = []
    sent_cols: dict[str, list] = {k: [] for k in ("document_id", "sentence_id", "start", "end", "text")}
    for split, doc in docs:
        st = stats[split]
        title = " ".join(s.text for s in doc.title)
        abstract = " ".join(s.text for s in doc.abstract)
        text = " ".join(t for t in (title, abstract) if t)
        offset = 0
        for sid, sentence in enumerate(doc.sentences):
            sent_text = sentence.text
            sent_cols["document_id"].append(doc.document_id)
            sent_cols["sentence_id"].append(sid)
            sent_cols["start"].append(offset)
            sent_cols["end"].append(offset + len(sent_text))
            sent_cols["text"].append(sent_text)
            offset += len(sent_text) + 1
            st.tokens += len(sentence.tokens)
        st.documents += 1
        st.sentences += len(doc.sentences)
        doc_rows.append((doc.document_id, split, title, abstract, text))
    documents = pd.DataFrame(doc_rows, columns=["document_id", "split", "title", "abstract", "text"])
    documents.insert(0, "corpus", name)
    sentences = pd.DataFrame(sent_cols)
    sentences.insert(0, "corpus", name)
    mentions = pd.DataFrame({f.name: pd.Series([], dtype=object) for f in MENTIONS.schema})
    return CorpusTables(documents, sentences, mentions, counts_frame(stats.values()))


def gold_tagged_sentences(paths: Sequence[str | Path], document_unit: str = "medline") -> Iterator[ConllSentence]:
    """The text sentences of files with gold POS tags (GENIA-pos), field labels removed, duplicates kept.

    For :func:`biosem.simlex.tagging.tag_agreement`. Raises as :func:`medline_documents` /
    :func:`read_conll`.
    """
    for path in paths:
        if document_unit == "medline":
            for doc in medline_documents(path):
                yield from doc.sentences
        else:
            for sentence in read_conll(path):
                yield sentence
