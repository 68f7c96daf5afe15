"""Corpus vocabulary of nouns and verbs with lemma and document frequencies.

Chiu et al. 2018, § Word selection.

Pipeline per document (docs/design.md § simlex, Vocabulary):

1. **Sentences**: those of the corpora stage's ``sentences`` intermediate (pysbd, mentions
   protected), or pysbd (rule-based, no model) on each line of a plain-text corpus.
2. **Tokens**: NLTK's Treebank-style word tokenizer (``NLTKWordTokenizer``, the one behind
   ``nltk.word_tokenize``, which needs no Punkt model since sentences come from pysbd).
3. **POS**: NLTK's averaged-perceptron tagger (Penn Treebank tags, ``averaged_perceptron_tagger_eng``
   under ``NLTK_DATA``; tokenizer and tagger run as :mod:`biosem.simlex.tagging`, which gives NLTK's
   tokens and tags with less work per token), on American spellings with a sentence-initial capital lowered
   (:meth:`Analyser.tagging_forms`). Nouns are the configured noun tags (default ``NN``, ``NNS``:
   common nouns), verbs the verb tags (``VB``, ``VBD``, ``VBG``, ``VBN``, ``VBP``, ``VBZ``); ``MD``
   (modals) enters as a verb so that the modal filter can count it.
4. **Lemma**: British spellings are normalised on the lowercased token, then the WordNet lemmatiser
   (``morphy``) with the token's POS gives the lemma (ties broken by lemminflect); for words WordNet
   does not know (``phosphorylated``) lemminflect's out-of-vocabulary rules are used; the lemma is
   normalised again (:class:`~biosem.simlex.spelling.SpellingNormaliser`). See :meth:`Analyser._lemma`.
5. **Filters**, each token dropped by the first that applies (counted per filter and POS):
   ``number`` (digits, decimals, percentages, upper-case Roman numerals), ``mixed_alphanumeric``
   (letters and digits: ``p53``, ``CO2``), ``greek`` (Greek characters or letter names: ``alpha``,
   ``κ``), ``multiword`` (part of a multi-word expression: a token joined by ``-``, ``/`` or ``_``
   (``dose-dependent``), or a span matching a multi-word WordNet lemma such as ``in vitro``, ``amino
   acid``, ``carry out``), ``symbol`` (any other non-letter character), ``auxiliary`` (modals and the
   auxiliaries *be*, *have*, *do*), ``short`` (lemma shorter than the minimum length, default 3),
   ``acronym`` (written in capitals only: ``DNA``, ``MRI``; optional).
6. **Counts** per (lemma, POS): tokens and documents; lemmas below the minimum count (paper: 5) are
   dropped, and so are (lemma, POS) that make up less than ``min_pos_share`` of the lemma's noun and
   verb tokens (tagging noise: a drug name tagged as a verb a few times).

The work is split into chunks of documents that can run in worker processes; counts are sums, so the
result does not depend on the number of workers.
"""

from __future__ import annotations

import gzip
import logging
import os
import re
import unicodedata
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pandas as pd
from wordfreq import word_frequency

from biosem.logs import Progress
from biosem.simlex.spelling import SpellingNormaliser

log = logging.getLogger(__name__)

FILTERS = (
    "number",
    "mixed_alphanumeric",
    "greek",
    "multiword",
    "symbol",
    "auxiliary",
    "short",
    "acronym",
)
"""Token filters in the order they are tried; a dropped token is counted under the first that applies."""

GREEK_LETTER_NAMES = (
    "alpha",
    "beta",
    "gamma",
    "delta",
    "epsilon",
    "zeta",
    "eta",
    "theta",
    "iota",
    "kappa",
    "lambda",
    "mu",
    "nu",
    "xi",
    "omicron",
    "pi",
    "rho",
    "sigma",
    "tau",
    "upsilon",
    "phi",
    "chi",
    "psi",
    "omega",
)

_NUMBER = re.compile(r"^[+\-±]?(\d+([.,:/]\d+)*|[.,]\d+)%?$")
_ROMAN = re.compile(r"^(?=[MDCLXVI]+$)M{0,4}(CM|CD|D?C{0,3})(XC|XL|L?X{0,3})(IX|IV|V?I{0,3})$")
_JOINED = re.compile(r"\w[-/_\u2010\u2011\u2012\u2013]\w|\s")
_DIGIT = re.compile(r"\d")
_INFLECTED_TAGS = frozenset({"NNS", "NNPS", "VBD", "VBG", "VBN", "VBZ"})


def _is_greek_char(ch: str) -> bool:
    return "\u0370" <= ch <= "\u03ff" or "\u1f00" <= ch <= "\u1fff" or ch in "\u00b5"  # µ (micro sign)


@dataclass(frozen=True)
class VocabularyParams:
    """Vocabulary construction parameters (config ``simlex.vocabulary``; defaults = Chiu et al. 2018)."""

    noun_tags: tuple[str, ...] = ("NN", "NNS")
    verb_tags: tuple[str, ...] = ("VB", "VBD", "VBG", "VBN", "VBP", "VBZ")
    modal_tags: tuple[str, ...] = ("MD",)
    auxiliaries: tuple[str, ...] = ("be", "have", "do")
    greek_letters: tuple[str, ...] = GREEK_LETTER_NAMES
    min_length: int = 3
    min_count: int = 5
    min_pos_share: float = 0.1
    drop_acronyms: bool = True
    multiword_lexicon: str | None = "wordnet"
    spelling_table: bool = True
    spelling_rules: bool = True
    lrspl: dict[str, str] | None = None
    chunk_size: int = 100
    extra: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Document:
    """A document: its id and texts, either sentences (``split``) or passages to split with pysbd."""

    document_id: str
    texts: tuple[str, ...]
    split: bool


@dataclass
class CorpusCounts:
    """Counts from a set of documents; ``merge`` adds another chunk's counts (order-independent)."""

    documents: int = 0
    word_tokens: int = 0  # tokens holding at least one letter: the corpus size for relative frequencies
    counts: Counter = field(default_factory=Counter)  # (lemma, pos) -> tokens kept
    document_counts: Counter = field(default_factory=Counter)  # (lemma, pos) -> documents
    step_tokens: Counter = field(default_factory=Counter)  # (pos, step) -> tokens
    step_types: dict[tuple[str, str], set[str]] = field(default_factory=dict)  # (pos, step) -> lemmas

    def merge(self, other: CorpusCounts) -> None:
        self.documents += other.documents
        self.word_tokens += other.word_tokens
        self.counts.update(other.counts)
        self.document_counts.update(other.document_counts)
        self.step_tokens.update(other.step_tokens)
        for key, lemmas in other.step_types.items():
            self.step_types.setdefault(key, set()).update(lemmas)


NLTK_RESOURCES = (Path("corpora") / "wordnet", Path("taggers") / "averaged_perceptron_tagger_eng")
"""What the vocabulary needs under an ``nltk_data`` folder: WordNet and the English perceptron tagger."""


def configure_nltk_data(candidates: Iterable[str | os.PathLike[str]]) -> Path:
    """Make the tagger and WordNet findable by NLTK; return the ``nltk_data`` folder holding them.

    Looks in ``$NLTK_DATA`` (each entry), then ``candidates`` in order (config ``simlex.nltk_data``,
    then ``<mirror>/nltk_data`` for each mirror folder), then NLTK's own search path; the first
    folder with both :data:`NLTK_RESOURCES` is put first on ``nltk.data.path``.

    Raises:
        FileNotFoundError: no folder holds both.
    """
    import nltk

    env = [p for p in os.environ.get("NLTK_DATA", "").split(os.pathsep) if p]
    for folder in [*env, *candidates, *nltk.data.path]:
        path = Path(folder)
        if all((path / r).is_dir() for r in NLTK_RESOURCES):
            resolved = str(path.resolve())
            if resolved in nltk.data.path:
                nltk.data.path.remove(resolved)
            nltk.data.path.insert(0, resolved)
            return path.resolve()
    raise FileNotFoundError(
        "NLTK data not found: need corpora/wordnet and taggers/averaged_perceptron_tagger_eng; set "
        "NLTK_DATA or config simlex.nltk_data (the source mirror has them under nltk_data/)"
    )


def wordnet_multiwords() -> frozenset[tuple[str, ...]]:
    """All multi-word lemmas of WordNet (``in_vitro`` -> ``("in", "vitro")``), lowercased.

    Read from WordNet's own index files (``index.noun``, ``index.verb``, ``index.adj``,
    ``index.adv``; first field of each entry line) under ``NLTK_DATA``.
    """
    import nltk

    root = Path(str(nltk.data.find("corpora/wordnet")))
    out: set[tuple[str, ...]] = set()
    for name in ("noun", "verb", "adj", "adv"):
        with open(root / f"index.{name}", encoding="utf-8") as fh:
            for line in fh:
                if line.startswith(" "):  # licence header lines
                    continue
                lemma = line.split(" ", 1)[0]
                if "_" in lemma:
                    out.add(tuple(lemma.lower().split("_")))
    return frozenset(out)


class Analyser:
    """Tokenise, tag, lemmatise and filter documents (one instance per worker process).

    Raises:
        LookupError: the NLTK tagger or WordNet is not under ``NLTK_DATA`` (the message names it).
    """

    def __init__(self, params: VocabularyParams, multiwords: frozenset[tuple[str, ...]] | None) -> None:
        import pysbd
        from nltk.corpus import wordnet as wn
        from nltk.tag.perceptron import PerceptronTagger as NltkPerceptronTagger

        from biosem.simlex.tagging import PerceptronTagger, WordTokenizer

        self.params = params
        try:
            self._tagger = PerceptronTagger(NltkPerceptronTagger(lang="eng"))
            wn.ensure_loaded()
        except LookupError as err:
            raise LookupError(
                "NLTK data missing: set NLTK_DATA to a folder holding taggers/averaged_perceptron_tagger_eng "
                f"and corpora/wordnet (e.g. ../shared/data/nltk_data). {err}"
            ) from err
        self._wn = wn
        self._tokenizer = WordTokenizer()
        self._segmenter = pysbd.Segmenter(language="en", clean=False)
        self._spell = SpellingNormaliser(params.lrspl, params.spelling_table, params.spelling_rules)
        self._pos_of_tag = {t: "noun" for t in params.noun_tags}
        self._pos_of_tag.update({t: "verb" for t in params.verb_tags})
        self._pos_of_tag.update({t: "verb" for t in params.modal_tags})
        self._modal_tags = frozenset(params.modal_tags)
        self._auxiliaries = frozenset(params.auxiliaries)
        self._greek = frozenset(params.greek_letters)
        self._multiwords = multiwords or frozenset()
        lengths: dict[str, set[int]] = {}
        for mw in self._multiwords:
            lengths.setdefault(mw[0], set()).add(len(mw))
        self._mw_lengths = {first: tuple(sorted(n, reverse=True)) for first, n in lengths.items()}
        self._lemma_cache: dict[tuple[str, str], str] = {}
        self._outcome: dict[tuple[str, str, bool], str] = {}  # (token, tag, in multiword) -> step
        self._letter: dict[str, bool] = {}
        self._forms: dict[str, tuple[str, str]] = {}  # token -> tagging form (first token, other)

    # -- lemmas ------------------------------------------------------------------------------------
    def lemma(self, token: str, tag: str) -> str:
        """Lemma of ``token`` tagged ``tag`` (a noun or verb tag): lowercased, American spelling."""
        key = (token, tag)
        hit = self._lemma_cache.get(key)
        if hit is None:
            hit = self._lemma(token.lower(), self._pos_of_tag[tag], tag in _INFLECTED_TAGS)
            self._lemma_cache[key] = hit
        return hit

    def _lemma(self, lower: str, pos: str, inflected: bool) -> str:
        """WordNet ``morphy`` candidates of the (spelling-normalised) word for ``pos``.

        An uninflected tag (NN, VB, VBP) keeps the word when WordNet knows it. Otherwise a single
        candidate is the lemma; among several, the one lemminflect gives wins (``effects`` ->
        ``effect`` though WordNet also lists "effects"; ``doses`` -> ``dose``, not ``dos``;
        ``species`` stays), else the shortest other than the word (NLTK's ``WordNetLemmatizer``
        rule). Words WordNet does not know get lemminflect's lemma with its out-of-vocabulary rules
        (``phosphorylated`` -> ``phosphorylate``), unless that lemma is unknown to ``wordfreq`` while
        the word is known (``offspring`` tagged VBG stays ``offspring``, not ``offspre``).
        """
        from lemminflect import getLemma

        word = self._spell(lower)
        upos = "NOUN" if pos == "noun" else "VERB"
        candidates = self._wn._morphy(word, "n" if pos == "noun" else "v")
        if candidates and not inflected and word in candidates:
            lemma = word
        elif len(candidates) == 1:
            lemma = candidates[0]
        elif candidates:
            guess = getLemma(word, upos=upos, lemmatize_oov=True)
            if guess and guess[0] in candidates:
                lemma = guess[0]
            else:
                lemma = min([c for c in candidates if c != word] or candidates, key=len)
        else:
            guess = getLemma(word, upos=upos, lemmatize_oov=True)
            lemma = guess[0] if guess else word
            if lemma != word and word_frequency(lemma, "en") == 0 and word_frequency(word, "en") > 0:
                lemma = word  # "offspring" tagged VBG: the rule's "offspre" is no English word
        return self._spell(lemma.lower())

    # -- filters -----------------------------------------------------------------------------------
    def token_filter(self, token: str, lemma: str, tag: str, in_multiword: bool) -> str | None:
        """The first filter of :data:`FILTERS` that drops this token, or ``None`` to keep it."""
        lower = token.lower()
        if _NUMBER.match(token) or _ROMAN.match(token):
            return "number"
        has_letter = any(ch.isalpha() for ch in token)
        if has_letter and _DIGIT.search(token):
            return "mixed_alphanumeric"
        if any(_is_greek_char(ch) for ch in token) or lower in self._greek or lemma in self._greek:
            return "greek"
        if in_multiword or _JOINED.search(token):
            return "multiword"
        if not token.isalpha():
            return "symbol"
        if tag in self._modal_tags or (self._pos_of_tag.get(tag) == "verb" and lemma in self._auxiliaries):
            return "auxiliary"
        if len(lemma) < self.params.min_length:
            return "short"
        if (
            self.params.drop_acronyms
            and sum(ch.isupper() for ch in token) >= 2
            and not any(ch.islower() for ch in token)
        ):
            return "acronym"
        return None

    def multiword_mask(self, tokens: Sequence[str], lemmas: Sequence[str]) -> list[bool]:
        """True for tokens inside a span whose surface or lemma sequence is a multi-word lexicon entry.

        Spans are matched greedily left to right, longest first.
        """
        mask = [False] * len(tokens)
        if not self._mw_lengths:
            return mask
        lengths = self._mw_lengths
        entries = self._multiwords
        lowers = [t.lower() for t in tokens]
        n_tokens = len(tokens)
        i = 0
        while i < n_tokens:
            lower, lemma = lowers[i], lemmas[i]
            if lower not in lengths and lemma not in lengths:
                i += 1
                continue
            matched = 0
            for n in sorted({*lengths.get(lower, ()), *lengths.get(lemma, ())}, reverse=True):
                if i + n <= n_tokens and (tuple(lowers[i : i + n]) in entries or tuple(lemmas[i : i + n]) in entries):
                    matched = n
                    break
            if matched:
                for j in range(i, i + matched):
                    mask[j] = True
                i += matched
            else:
                i += 1
        return mask

    def tagging_forms(self, tokens: Sequence[str]) -> list[str]:
        """Tokens as the tagger sees them: American spelling; a sentence-initial capital lowered.

        The perceptron tagger was trained on American newswire: ``Tumour`` at the start of a
        sentence is tagged CD and ``Tumor`` NNP, while ``tumor`` is NN. So a lowercase or capitalised
        token is spelt American (keeping its capital), and the first token of a sentence written
        with only an initial capital is lowercased. Other tokens (``DNA``, ``IL-6``) are unchanged.
        """
        forms = self._forms
        out = []
        for token in tokens:
            hit = forms.get(token)
            if hit is None:
                hit = forms[token] = self._tagging_form(token)
            out.append(hit[1])
        if out:
            out[0] = forms[tokens[0]][0]
        return out

    def _tagging_form(self, token: str) -> tuple[str, str]:
        """(form as a sentence's first token, form elsewhere); see :meth:`tagging_forms`."""
        lower = token.lower()
        if token == lower:
            american = self._spell(lower)
            return american, american
        if token[0].isupper() and token[1:] == lower[1:]:
            american = self._spell(lower)
            return american, american[:1].upper() + american[1:]
        return token, token

    # -- documents ---------------------------------------------------------------------------------
    def sentences(self, document: Document) -> Iterator[list[str]]:
        """Tokenised sentences of a document (split by pysbd unless it comes split)."""
        for text in document.texts:
            text = text.strip()
            if not text:
                continue
            for sentence in [text] if document.split else self._segmenter.segment(text):
                tokens = self._tokenizer.tokenize(sentence)
                if tokens:
                    yield tokens

    def count_documents(self, documents: Iterable[Document]) -> CorpusCounts:
        """Count the kept lemmas of ``documents``.

        Per token, the work that depends only on the token (and its tag) is done once per distinct
        token: tagging forms, whether it holds a letter, lemma and filter are cached.
        """
        out = CorpusCounts()
        step_tokens: Counter = Counter()
        step_types = out.step_types
        outcome = self._outcome
        word_tokens = 0
        for document in documents:
            out.documents += 1
            seen: set[tuple[str, str]] = set()
            for tokens in self.sentences(document):
                tags = self._tagger.tag(self.tagging_forms(tokens))
                word_tokens += sum(self._has_letter(t) for t in tokens)
                lemmas = [self._lemma_or_lower(token, tag) for token, tag in zip(tokens, tags, strict=True)]
                in_mw = self.multiword_mask(tokens, lemmas)
                for token, tag, lemma, mw in zip(tokens, tags, lemmas, in_mw, strict=True):
                    pos = self._pos_of_tag.get(tag)
                    if pos is None:
                        continue
                    key = (token, tag, mw)
                    step = outcome.get(key)
                    if step is None:
                        step = outcome[key] = self.token_filter(token, lemma, tag, mw) or "kept"
                    step_tokens[(pos, "candidates")] += 1
                    step_tokens[(pos, step)] += 1
                    step_types.setdefault((pos, "candidates"), set()).add(lemma)
                    step_types.setdefault((pos, step), set()).add(lemma)
                    if step == "kept":
                        out.counts[(lemma, pos)] += 1
                        seen.add((lemma, pos))
            out.document_counts.update(seen)
        out.word_tokens = word_tokens
        out.step_tokens = step_tokens
        return out

    def _has_letter(self, token: str) -> bool:
        hit = self._letter.get(token)
        if hit is None:
            hit = self._letter[token] = any(ch.isalpha() for ch in token)
        return hit

    def _lemma_or_lower(self, token: str, tag: str) -> str:
        """The lemma of a noun or verb token (:meth:`lemma`), else the lowercased token."""
        return self.lemma(token, tag) if tag in self._pos_of_tag else token.lower()


# --------------------------------------------------------------------------------------------------
# Reading corpora
# --------------------------------------------------------------------------------------------------
def documents_from_sentences(frames: Iterable[pd.DataFrame], deduplicate: bool = True) -> list[Document]:
    """Documents from ``sentences`` tables (corpora contract: corpus, document_id, sentence_id, text).

    Documents keep the order of their first sentence row; sentences are ordered by ``sentence_id``.
    With ``deduplicate``, a document id already seen in an earlier frame (the same PMID in two
    corpora) is skipped.
    """
    out: list[Document] = []
    seen: set[str] = set()
    for frame in frames:
        frame = frame.sort_values(["document_id", "sentence_id"], kind="stable")
        for doc_id, group in frame.groupby("document_id", sort=True):
            doc_id = str(doc_id)
            if deduplicate:
                if doc_id in seen:
                    continue
                seen.add(doc_id)
            out.append(Document(doc_id, tuple(group["text"].tolist()), split=True))
    return out


def documents_from_text(path: str | Path) -> list[Document]:
    """One document per non-empty line of a plain-text or gzipped UTF-8 file (``"<file name>:<line>"``)."""
    path = Path(path)
    with open(path, "rb") as fh:
        gz = fh.read(2) == b"\x1f\x8b"
    opener = gzip.open if gz else open
    out = []
    with opener(path, "rt", encoding="utf-8") as fh:  # type: ignore[operator]
        for lineno, line in enumerate(fh, 1):
            line = unicodedata.normalize("NFC", line.strip())
            if line:
                out.append(Document(f"{path.name}:{lineno}", (line,), split=False))
    return out


# --------------------------------------------------------------------------------------------------
# Counting (optionally in worker processes)
# --------------------------------------------------------------------------------------------------
_WORKER: Analyser | None = None


def _init_worker(params: VocabularyParams, multiwords: frozenset[tuple[str, ...]] | None, nltk_path: list[str]) -> None:
    global _WORKER
    import nltk

    nltk.data.path[:0] = [p for p in nltk_path if p not in nltk.data.path]
    _WORKER = Analyser(params, multiwords)


def _count_chunk(chunk: list[Document]) -> CorpusCounts:
    assert _WORKER is not None
    return _WORKER.count_documents(chunk)


def count_corpus(documents: Sequence[Document], params: VocabularyParams, workers: int = 1) -> CorpusCounts:
    """Count kept (lemma, POS) tokens and documents over ``documents`` with ``workers`` processes.

    The result is the same for any ``workers`` (counts are sums over chunks of ``chunk_size``).
    Progress (chunks done, rate, time left) is logged at a bounded rate (:class:`biosem.logs.Progress`).
    """
    multiwords = wordnet_multiwords() if params.multiword_lexicon == "wordnet" else None
    if params.multiword_lexicon not in (None, "wordnet"):
        raise ValueError(f"multiword_lexicon must be 'wordnet' or null, not {params.multiword_lexicon!r}")
    chunks = [list(documents[i : i + params.chunk_size]) for i in range(0, len(documents), params.chunk_size)]
    total = CorpusCounts()
    progress = Progress(log, f"counting {len(documents):,} documents", len(chunks), unit="chunks")
    if workers <= 1 or len(chunks) <= 1:
        analyser = Analyser(params, multiwords)
        with progress:
            for chunk in chunks:
                total.merge(analyser.count_documents(chunk))
                progress.advance()
        return total
    import nltk

    init = (params, multiwords, list(nltk.data.path))
    with ProcessPoolExecutor(max_workers=workers, initializer=_init_worker, initargs=init) as pool:
        with progress:
            for part in pool.map(_count_chunk, chunks):
                total.merge(part)
                progress.advance()
    return total


def word_count_table(counts: CorpusCounts, min_count: int, min_pos_share: float = 0.0) -> pd.DataFrame:
    """The ``word_counts`` table: ``lemma, pos, count, document_count``, sorted by (pos, lemma).

    Keeps (lemma, POS) with ``count >= min_count`` (paper: 5) whose share of the lemma's noun + verb
    tokens is at least ``min_pos_share`` (0 keeps all; a small share, such as ``sirolimus`` tagged
    as a verb 5 times in 300, is tagger noise).
    """
    totals: Counter = Counter()
    for (lemma, _), n in counts.counts.items():
        totals[lemma] += n
    rows = [
        (lemma, pos, n, counts.document_counts[(lemma, pos)])
        for (lemma, pos), n in counts.counts.items()
        if n >= min_count and n >= min_pos_share * totals[lemma]
    ]
    frame = pd.DataFrame(rows, columns=["lemma", "pos", "count", "document_count"])
    return frame.sort_values(["pos", "lemma"], kind="stable", ignore_index=True)


def filter_table(counts: CorpusCounts, min_count: int, min_pos_share: float = 0.0) -> pd.DataFrame:
    """Tokens and types (distinct lemmas) per POS at each step of the vocabulary construction.

    Columns ``pos, step, tokens, types``. Rows: (``all``, ``documents``) and (``all``,
    ``word_tokens``: tokens holding a letter, the corpus size for relative frequencies); then per POS
    ``candidates`` (tokens tagged with the POS), each filter of :data:`FILTERS` (tokens it dropped and
    their distinct lemmas), ``kept``, ``count>=<min_count>`` and ``pos_share>=<min_pos_share>`` (the
    final vocabulary, as in ``word_counts``).
    """
    rows: list[tuple[str, str, int, int]] = [
        ("all", "documents", counts.documents, 0),
        ("all", "word_tokens", counts.word_tokens, 0),
    ]
    final = word_count_table(counts, min_count, min_pos_share)
    for pos in ("noun", "verb"):
        for step in ("candidates", *FILTERS, "kept"):
            rows.append(
                (
                    pos,
                    step,
                    counts.step_tokens[(pos, step)],
                    len(counts.step_types.get((pos, step), ())),
                )
            )
        frequent = [n for (lemma, p), n in counts.counts.items() if p == pos and n >= min_count]
        rows.append((pos, f"count>={min_count}", sum(frequent), len(frequent)))
        mine = final[final["pos"] == pos]
        rows.append((pos, f"pos_share>={min_pos_share:g}", int(mine["count"].sum()), len(mine)))
    return pd.DataFrame(rows, columns=["pos", "step", "tokens", "types"])


def params_from_config(cfg: dict[str, Any], lrspl: dict[str, str] | None = None) -> VocabularyParams:
    """VocabularyParams from config ``simlex.vocabulary`` (see config/README.md)."""
    known = {f for f in VocabularyParams.__dataclass_fields__ if f not in ("extra", "lrspl")}
    kwargs: dict[str, Any] = {}
    for key, value in cfg.items():
        if key in known:
            kwargs[key] = tuple(value) if isinstance(value, list) else value
    return VocabularyParams(**kwargs, lrspl=lrspl)
