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
   ``acronym`` (written in capitals only: ``DNA``, ``MRI``; optional), ``mixed_case`` (a capital after
   a lower-case letter: units and gene or protein symbols such as ``kHz``, ``mmHg``, ``vWF``,
   ``eNOS``, ``ApoB``; optional).
6. **Counts** per (lemma, POS): tokens and documents; lemmas below the minimum count (paper: 5) are
   dropped, and so are (lemma, POS) that make up less than ``min_pos_share`` of the lemma's noun and
   verb tokens (tagging noise: a drug name tagged as a verb a few times).
7. **Evidence** for the word rules of :mod:`biosem.simlex.evidence` (issue 37): every alphabetic
   token, whatever its tag and whether a filter dropped it, is counted under its tag class
   (:data:`TAG_CLASSES`: Penn ``NN*`` noun, ``VB*`` verb, ``JJ*`` adjective, ``RB*`` adverb, ``CD``
   number, anything else other) and a key: its lemma for noun and verb tags (proper-noun tags
   lemmatised as nouns), else its lowercased American spelling. A lemma's share of its POS among
   these tokens is its part-of-speech evidence (``acute`` is tagged NN 87 times and JJ far more
   often). Kept tokens right after a number (``CD`` tag or a numeral) are counted too (units:
   ``5 mmol``).

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
from wordfreq import word_frequency, zipf_frequency

from biosem.logs import Progress
from biosem.simlex.evidence import (
    WORD_RULES,
    Evidence,
    WordRules,
    merge_variants,
    rename_keys,
    tag_evidence,
    term_word_key,
    word_rule,
)
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
    "mixed_case",
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

FREQUENT_ZIPF = 4.0
"""wordfreq Zipf value (about 10 per million words) from which a word WordNet does not know is taken
for a function word and not lemmatised (*whereas*, *versus*)."""

TAG_CLASSES = ("noun", "verb", "adjective", "adverb", "number", "other")
"""Classes of Penn Treebank tags counted as part-of-speech evidence (see :func:`tag_class`)."""


def tag_class(tag: str) -> str:
    """The :data:`TAG_CLASSES` member of a Penn Treebank tag: ``NN*`` noun (proper nouns included),
    ``VB*`` verb, ``JJ*`` adjective, ``RB*`` adverb, ``CD`` number, anything else (``MD``, ``IN``,
    ``FW``, ...) other."""
    if tag.startswith("NN"):
        return "noun"
    if tag.startswith("VB"):
        return "verb"
    if tag.startswith("JJ"):
        return "adjective"
    if tag.startswith("RB"):
        return "adverb"
    return "number" if tag == "CD" else "other"


def _singular_candidates(word: str) -> list[str]:
    """Regular English singulars of a plural noun, most specific first (``-ies`` -> ``-y``, then
    ``-es`` and ``-s`` removed)."""
    out = []
    if word.endswith("ies"):
        out.append(word[:-3] + "y")
    if word.endswith("s"):
        out.append(word[:-1])
    if word.endswith("es"):
        out.append(word[:-2])
    return out


def _mixed_case(token: str) -> bool:
    """Whether an upper-case letter follows a lower-case one (``kHz``, ``vWF``, ``ApoB``, ``mtDNA``)."""
    lower = False
    for ch in token:
        if ch.islower():
            lower = True
        elif lower and ch.isupper():
            return True
    return False


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
    drop_mixed_case: bool = True
    multiword_lexicon: str | None = "wordnet"
    spelling_table: bool = True
    spelling_rules: bool = True
    lrspl: dict[str, str] | None = None
    chunk_size: int = 100
    merge_variants: bool = True
    number_words: bool = True
    wordnet_pos: bool = True
    min_tag_share: float = 0.5
    min_noun_verb_share: float = 0.25
    max_unknown_zipf: float | None = 4.0
    min_unknown_length: int = 5
    max_after_number_share: float | None = 0.5
    adjective_forms: bool = True
    fragment_terminologies: tuple[str, ...] = ()
    max_in_term_share: float | None = 0.5
    chemical_verbs: bool = True
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
    tag_counts: Counter = field(default_factory=Counter)  # (key, tag class) -> alphabetic tokens, any filter
    after_number: Counter = field(default_factory=Counter)  # (lemma, pos) -> kept tokens right after a number
    in_term: Counter = field(default_factory=Counter)  # (lemma, pos) -> kept tokens inside a multi-word term

    def merge(self, other: CorpusCounts) -> None:
        self.documents += other.documents
        self.word_tokens += other.word_tokens
        self.counts.update(other.counts)
        self.document_counts.update(other.document_counts)
        self.step_tokens.update(other.step_tokens)
        self.tag_counts.update(other.tag_counts)
        self.after_number.update(other.after_number)
        self.in_term.update(other.in_term)
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

    def __init__(
        self,
        params: VocabularyParams,
        multiwords: frozenset[tuple[str, ...]] | None,
        terms: frozenset[tuple[str, ...]] | None = None,
    ) -> None:
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
        self._terms = terms or frozenset()
        term_lengths: dict[str, set[int]] = {}
        for term in self._terms:
            term_lengths.setdefault(term[0], set()).add(len(term))
        self._term_lengths = {first: tuple(sorted(n, reverse=True)) for first, n in term_lengths.items()}
        self._term_key: dict[str, str] = {}  # token -> surface key of its letters ("" without letters)
        self._lemma_cache: dict[tuple[str, str], str] = {}
        self._outcome: dict[tuple[str, str, bool], str] = {}  # (token, tag, in multiword) -> step
        self._letter: dict[str, bool] = {}
        self._forms: dict[str, tuple[str, str]] = {}  # token -> tagging form (first token, other)
        self._evidence: dict[tuple[str, str], tuple[str, str]] = {}  # (token, tag) -> (key, tag class)

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
        rule). An inflected word WordNet does not know gets lemminflect's lemma with its
        out-of-vocabulary rules (``phosphorylated`` -> ``phosphorylate``, ``transfected`` ->
        ``transfect``), unless it is frequent in general English (:data:`FREQUENT_ZIPF`: WordNet has
        every frequent noun and verb, so ``whereas`` tagged VBZ stays ``whereas``). For a plural noun,
        the lemma is the first of that lemma and the regular singulars (``-ies`` -> ``-y``, ``-es``,
        ``-s``) that ``wordfreq`` knows (``dinucleotides`` -> ``dinucleotide``, not lemminflect's
        ``dinucleotis``), else the plural itself. An uninflected tag keeps such a word (``asterixis``
        tagged NN, not ``asterix``), and so does a word that is a WordNet lemma of another POS
        (``offspring`` tagged VBG stays ``offspring``, not ``offspre``).
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
        elif inflected and not self._wordnet_base_form(word) and zipf_frequency(word, "en") < FREQUENT_ZIPF:
            guess = getLemma(word, upos=upos, lemmatize_oov=True)
            lemma = guess[0] if guess else word
            if pos == "noun":
                # lemminflect's rules cut "dinucleotides" to "dinucleotis": take the first candidate
                # general English knows, else keep the plural (merge_variants joins it to its singular)
                singulars = [lemma, *_singular_candidates(word)]
                lemma = next((c for c in singulars if c != word and word_frequency(c, "en") > 0), word)
        else:
            # "asterixis" tagged NN; "offspring" tagged VBG (a WordNet noun lemma), not "offspre"; "whereas"
            # tagged VBZ (frequent in English, yet no WordNet word: no verb), not "wherea"
            lemma = word
        return self._spell(lemma.lower())

    def _wordnet_base_form(self, word: str) -> bool:
        """Whether WordNet has ``word`` itself as a lemma of some POS (``offspring``; not ``induces``)."""
        return any(word in self._wn._morphy(word, p) for p in "nvar")

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
        if self.params.drop_mixed_case and _mixed_case(token):
            return "mixed_case"
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

    def term_mask(self, tokens: Sequence[str]) -> list[bool]:
        """True for tokens inside a span that is a multi-word term of the fragment terminologies.

        Tokens and terms are compared by the surface keys of their letters
        (:func:`biosem.simlex.evidence.term_word_key`: ``Pointes`` = ``pointe``), tokens without a
        letter (punctuation) being skipped; spans are matched greedily left to right, longest first.
        """
        mask = [False] * len(tokens)
        if not self._term_lengths:
            return mask
        cache = self._term_key
        positions, keys = [], []
        for i, token in enumerate(tokens):
            key = cache.get(token)
            if key is None:
                key = cache[token] = term_word_key(token)
            if key:
                positions.append(i)
                keys.append(key)
        lengths, entries, n_keys = self._term_lengths, self._terms, len(keys)
        i = 0
        while i < n_keys:
            matched = 0
            for n in lengths.get(keys[i], ()):
                if i + n <= n_keys and tuple(keys[i : i + n]) in entries:
                    matched = n
                    break
            if matched:
                for j in range(i, i + matched):
                    mask[positions[j]] = True
                i += matched
            else:
                i += 1
        return mask

    def tag(self, tokens: Sequence[str]) -> list[str]:
        """Penn Treebank tags of one tokenised sentence, as the vocabulary tags it (the perceptron
        tagger on :meth:`tagging_forms`)."""
        return self._tagger.tag(self.tagging_forms(tokens))

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
        """Count the kept lemmas of ``documents``, and the evidence of every alphabetic token.

        Per token, the work that depends only on the token (and its tag) is done once per distinct
        token: tagging forms, whether it holds a letter, lemma, filter and evidence key are cached.
        """
        out = CorpusCounts()
        step_tokens: Counter = Counter()
        step_types = out.step_types
        tag_counts = out.tag_counts
        after_number = out.after_number
        inside_term = out.in_term
        outcome = self._outcome
        evidence = self._evidence
        word_tokens = 0
        for document in documents:
            out.documents += 1
            seen: set[tuple[str, str]] = set()
            for tokens in self.sentences(document):
                tags = self.tag(tokens)
                word_tokens += sum(self._has_letter(t) for t in tokens)
                lemmas = [self._lemma_or_lower(token, tag) for token, tag in zip(tokens, tags, strict=True)]
                in_mw = self.multiword_mask(tokens, lemmas)
                in_term = self.term_mask(tokens)
                previous_number = False
                for token, tag, lemma, mw, term in zip(tokens, tags, lemmas, in_mw, in_term, strict=True):
                    after = previous_number
                    previous_number = tag == "CD" or bool(_NUMBER.match(token))
                    hit = evidence.get((token, tag))
                    if hit is None:
                        hit = evidence[(token, tag)] = self._evidence_key(token, tag, lemma)
                    if hit[0]:
                        tag_counts[hit] += 1
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
                        if after:
                            after_number[(lemma, pos)] += 1
                        if term:
                            inside_term[(lemma, pos)] += 1
            out.document_counts.update(seen)
        out.word_tokens = word_tokens
        out.step_tokens = step_tokens
        return out

    def _evidence_key(self, token: str, tag: str, lemma: str) -> tuple[str, str]:
        """(key, tag class) under which an alphabetic token counts as evidence; key ``""`` for others.

        The key is the token's lemma for the vocabulary's noun and verb tags, the noun (verb) lemma for
        other ``NN*`` (``VB*``) tags such as ``NNP``, else the lowercased American spelling.
        """
        if not token.isalpha():
            return "", ""
        cls = tag_class(tag)
        if tag in self._pos_of_tag and self._pos_of_tag[tag] == cls:
            return lemma, cls
        if cls in ("noun", "verb"):
            return self._lemma(token.lower(), cls, tag in _INFLECTED_TAGS), cls
        return self._spell(token.lower()), cls

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


def _init_worker(
    params: VocabularyParams,
    multiwords: frozenset[tuple[str, ...]] | None,
    terms: frozenset[tuple[str, ...]] | None,
    nltk_path: list[str],
) -> None:
    global _WORKER
    import nltk

    nltk.data.path[:0] = [p for p in nltk_path if p not in nltk.data.path]
    _WORKER = Analyser(params, multiwords, terms)


def _count_chunk(chunk: list[Document]) -> CorpusCounts:
    assert _WORKER is not None
    return _WORKER.count_documents(chunk)


def count_corpus(
    documents: Sequence[Document],
    params: VocabularyParams,
    workers: int = 1,
    terms: frozenset[tuple[str, ...]] | None = None,
) -> CorpusCounts:
    """Count kept (lemma, POS) tokens and documents over ``documents`` with ``workers`` processes.

    ``terms``: the multi-word terms of the fragment terminologies
    (:func:`biosem.simlex.evidence.terminology_words`), for the ``in_term`` counts.

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
        analyser = Analyser(params, multiwords, terms)
        with progress:
            for chunk in chunks:
                total.merge(analyser.count_documents(chunk))
                progress.advance()
        return total
    import nltk

    init = (params, multiwords, terms, list(nltk.data.path))
    with ProcessPoolExecutor(max_workers=workers, initializer=_init_worker, initargs=init) as pool:
        with progress:
            for part in pool.map(_count_chunk, chunks):
                total.merge(part)
                progress.advance()
    return total


WORD_COUNT_COLUMNS = (
    "lemma",
    "pos",
    "count",
    "document_count",
    "pos_tokens",
    "noun_verb_tokens",
    "evidence_tokens",
    "after_number",
    "in_term",
)
"""Columns of the ``word_counts`` intermediate (:data:`biosem.simlex.schemas.WORD_COUNTS`)."""


def vocabulary_table(
    counts: CorpusCounts, min_count: int, min_pos_share: float = 0.0, rules: WordRules | None = None
) -> pd.DataFrame:
    """Every counted (lemma, POS) with its evidence and the step that drops it, sorted by (pos, lemma).

    With ``rules``, lemmas that are one word written two ways are first merged into one entry
    (:func:`biosem.simlex.evidence.merge_variants`), and the word rules
    (:data:`biosem.simlex.evidence.WORD_RULES`) run after the count and POS-share thresholds.

    Columns: ``lemma, pos, count, document_count``; ``pos_tokens`` (alphabetic corpus tokens of the
    lemma tagged with the POS, whatever the token filters did; proper-noun tags count as nouns),
    ``noun_verb_tokens`` (tagged as a noun or a verb), ``evidence_tokens`` (its alphabetic tokens under
    any tag; with ``rules``, less the adjective tags of a word that cannot be an adjective:
    :func:`biosem.simlex.evidence.tag_evidence`), ``after_number`` (kept tokens right after a
    number), ``in_term`` (kept tokens inside a multi-word term of the fragment terminologies), and
    ``dropped_by``: ``""`` when kept, ``count`` (below ``min_count``), ``pos_share`` (less
    than ``min_pos_share`` of the lemma's kept noun + verb tokens) or a word rule. The corpus POS share
    of a word is ``pos_tokens / evidence_tokens``.
    """
    kept, documents, tag_counts = counts.counts, counts.document_counts, counts.tag_counts
    after, in_term = counts.after_number, counts.in_term
    aliases: dict[tuple[str, str], tuple[str, ...]] = {}
    if rules is not None and rules.merge_variants:
        kept, documents, merges = merge_variants(kept, documents)
        entry = {(lemma, pos): e for lemma, pos, e in merges[["lemma", "pos", "entry"]].itertuples(index=False)}
        tag_counts, after, in_term = (rename_keys(c, entry) for c in (tag_counts, after, in_term))
        for lemma, pos, target in merges[["lemma", "pos", "entry"]].itertuples(index=False):
            aliases[(target, pos)] = (*aliases.get((target, pos), ()), lemma)
    totals: Counter = Counter()
    for (lemma, _), n in kept.items():
        totals[lemma] += n
    tags: dict[str, dict[str, int]] = {}
    for (key, cls), n in tag_counts.items():
        tags.setdefault(key, {})[cls] = n
    rows = []
    for (lemma, pos), n in sorted(kept.items(), key=lambda kv: (kv[0][1], kv[0][0])):
        mine = tags.get(lemma, {})
        if rules is not None:
            pos_tokens, noun_verb, evidence = tag_evidence(lemma, pos, mine)
        else:
            pos_tokens, noun_verb = mine.get(pos, 0), mine.get("noun", 0) + mine.get("verb", 0)
            evidence = sum(mine.values())
        after_n, term_n = after[(lemma, pos)], in_term[(lemma, pos)]
        if n < min_count:
            step = "count"
        elif n < min_pos_share * totals[lemma]:
            step = "pos_share"
        elif rules is not None:
            shares = Evidence(
                pos_share=pos_tokens / evidence if evidence else 0.0,
                noun_verb_share=noun_verb / evidence if evidence else 0.0,
                after_number_share=after_n / n,
                in_term_share=term_n / n,
                aliases=aliases.get((lemma, pos), ()),
            )
            step = word_rule(lemma, pos, shares, rules) or ""
        else:
            step = ""
        rows.append((lemma, pos, n, documents[(lemma, pos)], pos_tokens, noun_verb, evidence, after_n, term_n, step))
    return pd.DataFrame(rows, columns=[*WORD_COUNT_COLUMNS, "dropped_by"])


def word_count_table(
    counts: CorpusCounts, min_count: int, min_pos_share: float = 0.0, rules: WordRules | None = None
) -> pd.DataFrame:
    """The ``word_counts`` table: the kept rows of :func:`vocabulary_table` (:data:`WORD_COUNT_COLUMNS`),
    sorted by (pos, lemma).

    Keeps (lemma, POS) with ``count >= min_count`` (paper: 5) whose share of the lemma's noun + verb
    tokens is at least ``min_pos_share`` (0 keeps all; a small share, such as ``sirolimus`` tagged
    as a verb 5 times in 300, is tagger noise), and, with ``rules``, that no word rule drops.
    """
    table = vocabulary_table(counts, min_count, min_pos_share, rules)
    table = table[table["dropped_by"] == ""]
    return table[list(WORD_COUNT_COLUMNS)].reset_index(drop=True)


def filter_table(
    counts: CorpusCounts, min_count: int, min_pos_share: float = 0.0, rules: WordRules | None = None
) -> pd.DataFrame:
    """Tokens and types (distinct lemmas) per POS at each step of the vocabulary construction.

    Columns ``pos, step, tokens, types``. Rows: (``all``, ``documents``) and (``all``,
    ``word_tokens``: tokens holding a letter, the corpus size for relative frequencies); then per POS
    ``candidates`` (tokens tagged with the POS), each filter of :data:`FILTERS` (tokens it dropped and
    their distinct lemmas), ``kept``; with ``rules``, ``merged_variants`` (lemmas merged into another
    entry, :func:`biosem.simlex.evidence.merge_variants`, and their tokens); ``count>=<min_count>`` and
    ``pos_share>=<min_pos_share>`` (what remains after each threshold); with ``rules``, each word rule
    of :data:`biosem.simlex.evidence.WORD_RULES` (entries it dropped and their tokens) and
    ``vocabulary`` (what remains: the ``word_counts`` table).
    """
    rows: list[tuple[str, str, int, int]] = [
        ("all", "documents", counts.documents, 0),
        ("all", "word_tokens", counts.word_tokens, 0),
    ]
    table = vocabulary_table(counts, min_count, min_pos_share, rules)
    merges = (
        merge_variants(counts.counts, counts.document_counts)[2] if rules is not None and rules.merge_variants else None
    )
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
        mine = table[table["pos"] == pos]
        if merges is not None:
            merged = merges[merges["pos"] == pos]
            rows.append((pos, "merged_variants", int(merged["tokens"].sum()), len(merged)))
        frequent = mine[mine["dropped_by"] != "count"]
        rows.append((pos, f"count>={min_count}", int(frequent["count"].sum()), len(frequent)))
        shared = frequent[frequent["dropped_by"] != "pos_share"]
        rows.append((pos, f"pos_share>={min_pos_share:g}", int(shared["count"].sum()), len(shared)))
        if rules is not None:
            for rule in WORD_RULES:
                dropped = mine[mine["dropped_by"] == rule]
                rows.append((pos, rule, int(dropped["count"].sum()), len(dropped)))
            final = mine[mine["dropped_by"] == ""]
            rows.append((pos, "vocabulary", int(final["count"].sum()), len(final)))
    return pd.DataFrame(rows, columns=["pos", "step", "tokens", "types"])


def word_rules(params: VocabularyParams, single_word_terms: frozenset[str] = frozenset()) -> WordRules:
    """The :class:`~biosem.simlex.evidence.WordRules` of ``params`` with the one-word terms of the
    fragment terminologies (:func:`biosem.simlex.evidence.terminology_words`)."""
    fields = set(WordRules.__dataclass_fields__) - {"single_word_terms"}
    return WordRules(**{f: getattr(params, f) for f in sorted(fields)}, single_word_terms=single_word_terms)


def params_from_config(cfg: dict[str, Any], lrspl: dict[str, str] | None = None) -> VocabularyParams:
    """VocabularyParams from config ``simlex.vocabulary`` (see config/README.md)."""
    known = {f for f in VocabularyParams.__dataclass_fields__ if f not in ("extra", "lrspl")}
    kwargs: dict[str, Any] = {}
    for key, value in cfg.items():
        if key in known:
            kwargs[key] = tuple(value) if isinstance(value, list) else value
    return VocabularyParams(**kwargs, lrspl=lrspl)
