"""Which terms are counted with their case, and how (issue 37: "analogy frequencies ignore case").

BMASS (Newman-Griffis et al. 2017, § 3) counts every string lowercased. Lowercasing makes DOID's
abbreviation "CAN" (Crouzon syndrome with acanthosis nigricans) the verb *can* and "MARCH" the month.
biosem keeps the lowercased count of every term (``count_folded``) and counts a term *with its case*
when one of these rules applies (each a config value; the first that applies, in this order, is the
term's ``case_rule``):

1. ``abbreviation``: the reader marked the term as an abbreviation (term_type ``abbreviation``: MeSH
   LexicalTag ABB/ACR, UMLS TTYs such as AB/ACR; :mod:`biosem.terminology`). Counted ``exact``: as
   written ("A-DNA" is found in "A-DNA", not in "a DNA").
2. ``capitals``: the term is *written in capitals or mixed case*: one of its tokens (the runs of
   letters, marks and digits that :func:`~biosem.analogies.frequency.normalise` separates) has an
   upper-case letter after its first character (``CAN``, ``IgM``, ``mRNA``, ``HIV Infections``,
   ``Type IIb``). An initial capital alone does not count: ``Crohn disease``, ``Alzheimer Disease``
   (MeSH's title case), ``Vitamin B``, ``T-Lymphocytes`` stay lowercased. Counted ``cased``: the
   tokens with an inner capital as written, the others in lower case or with an initial capital
   (:func:`~biosem.analogies.frequency.case_key`), so "HIV Infections" is found in "HIV infections".
3. ``common_word``: a single-token term whose lowercased form is a common English word
   (:func:`common_words`: Zipf frequency >= ``common_word_zipf`` in ``wordfreq``'s English list, and
   not mainly biomedical in WordNet) or, with ``common_word_attributes``, a word WordNet lists only
   as an adjective or adverb (:func:`attribute_words`: DOID's synonym "Allergic" of atopic dermatitis
   is otherwise counted 26 times in "allergic rhinitis", "allergic reactions"). Counted ``exact``:
   only where cased as in the terminology (MeSH's "Lead" is found in "Lead", never in "lead to").

4. ``abbreviation_context`` (:func:`in_context`): an abbreviation in capitals that is not its
   concept's name (``CAN``, ``HD``, ``TEM``: synonyms; not MeSH's preferred term ``DNA``) is counted
   only in the documents that also hold another term of its concept (one sense per discourse, Gale,
   Church & Yarowsky 1992; abstracts define an abbreviation at its first use, Schwartz & Hearst 2003).
   Written in capitals, "CAN" is still *chronic allograft nephropathy* or *cannabis/alcohol/nicotine*
   in the default corpus, "TEM" transmission electron microscopy rather than GO's tetraspanin-enriched
   microdomain; "HD" in an abstract about Huntington disease counts, in one about haemodialysis not.

A term no rule applies to is counted ``folded`` (BMASS). :data:`BMASS_RULES` switches every rule off.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np
import pandas as pd

from biosem.analogies.frequency import CASED, EXACT, FOLDED, MATCH_MODES, has_inner_capital, match_forms, normalise_many
from biosem.termpairs.positives import strip_semantic_tag

CASE_RULES = ("abbreviation", "capitals", "common_word")
"""The rules that count a term with its case, in order of precedence (module docstring)."""

MODE_OF_RULE = {"abbreviation": EXACT, "capitals": CASED, "common_word": EXACT}
"""The match mode of a term under each rule (:data:`biosem.analogies.frequency.MATCH_MODES`)."""

BIOMEDICAL_LEXNAMES = (
    "noun.animal", "noun.body", "noun.plant", "noun.process", "noun.state", "noun.substance", "verb.body",
)  # fmt: skip
"""WordNet lexicographer files of biomedical senses: organisms, body parts, biological processes,
conditions and diseases, substances, bodily functions."""


@dataclass(frozen=True)
class CaseRules:
    """Which terms are counted with their case, and where (config ``analogies``: ``cased_abbreviations``,
    ``cased_capitals``, ``common_word_zipf``, ``common_word_lexnames``, ``abbreviation_context``;
    module docstring).

    ``common_word_zipf`` None switches rule 3 off; ``common_word_lexnames`` None leaves WordNet out
    (the Zipf frequency alone decides).
    """

    abbreviations: bool = True
    capitals: bool = True
    common_word_zipf: float | None = 4.0
    common_word_lexnames: tuple[str, ...] | None = BIOMEDICAL_LEXNAMES
    common_word_attributes: bool = True
    abbreviation_context: bool = True
    wordlist: str = "large"

    def __post_init__(self) -> None:
        if self.common_word_lexnames is not None:  # a list from a config or a Snakemake param
            object.__setattr__(self, "common_word_lexnames", tuple(self.common_word_lexnames))

    @property
    def needs_wordnet(self) -> bool:
        """True when rule 3 consults WordNet."""
        by_frequency = self.common_word_zipf is not None and self.common_word_lexnames is not None
        return self.common_word_attributes or by_frequency

    @property
    def enabled(self) -> bool:
        """True when at least one rule is on."""
        return self.abbreviations or self.capitals or self.common_word_zipf is not None or self.common_word_attributes


BMASS_RULES = CaseRules(
    abbreviations=False, capitals=False, common_word_zipf=None, common_word_attributes=False, abbreviation_context=False
)
"""Every term lowercased, as BMASS counts (presets/bmass-2017.yaml)."""


def case_rules_from_config(section: Mapping[str, object]) -> CaseRules:
    """:class:`CaseRules` from the ``analogies`` config section (as validated: every key present)."""
    zipf = section["common_word_zipf"]
    lexnames = section["common_word_lexnames"]
    return CaseRules(
        abbreviations=bool(section["cased_abbreviations"]),
        capitals=bool(section["cased_capitals"]),
        common_word_zipf=None if zipf is None else float(zipf),  # type: ignore[arg-type]
        common_word_lexnames=None if lexnames is None else tuple(str(x) for x in lexnames),  # type: ignore[attr-defined]
        common_word_attributes=bool(section["common_word_attributes"]),
        abbreviation_context=bool(section["abbreviation_context"]),
    )


# --------------------------------------------------------------------------------------------------
# Rule 2: written in capitals or mixed case
# --------------------------------------------------------------------------------------------------
_ASCII_INNER_CAPITAL = re.compile(r"[^ ][A-Z]")


def written_in_capitals(forms: Sequence[str]) -> np.ndarray:
    """Per term normalised with its case kept (:func:`~biosem.analogies.frequency.normalise` with
    ``fold_case=False``): True when one of its tokens has an upper-case letter after its first
    character (:func:`~biosem.analogies.frequency.has_inner_capital`). Boolean array aligned with
    ``forms``."""
    out = np.zeros(len(forms), dtype=bool)
    for i, form in enumerate(forms):
        if form.isascii():
            out[i] = _ASCII_INNER_CAPITAL.search(form) is not None
        else:
            out[i] = any(map(has_inner_capital, form.split(" ")))
    return out


# --------------------------------------------------------------------------------------------------
# Rule 3: common English words
# --------------------------------------------------------------------------------------------------
@functools.lru_cache(maxsize=1 << 16)
def wordnet_mainly_biomedical(word: str, lexnames: tuple[str, ...] = BIOMEDICAL_LEXNAMES) -> bool:
    """True when WordNet lists ``word`` (lowercase; any part of speech, its inflections resolved by
    WordNet's morphy) mainly with senses of the ``lexnames`` lexicographer files: at least half of its
    sense-tagged occurrences (``Lemma.count()``, SemCor) fall in them; a word whose senses were never
    tagged is decided by its first sense (WordNet's sense order). A word WordNet does not list is not.

    ``"heart"``, ``"pain"``, ``"fever"``, ``"growth"`` are; ``"can"``, ``"march"``, ``"lead"``
    (advantage, leading role, to lead), ``"back"``, ``"left"``, ``"severe"`` are not.

    Raises:
        LookupError: the WordNet data is not installed (see
            :func:`biosem.wic.lexical.configure_nltk_data`).
    """
    from nltk.corpus import wordnet as wn

    synsets = wn.synsets(word)
    if not synsets:
        return False
    bases = {word} | {base for pos in "nvar" if (base := wn.morphy(word, pos))}
    tagged = [
        (synset.lexname() in lexnames, lemma.count())
        for synset in synsets
        for lemma in synset.lemmas()
        if lemma.name().lower() in bases
    ]
    total = sum(n for _, n in tagged)
    if total == 0:
        return synsets[0].lexname() in lexnames
    return 2 * sum(n for biomedical, n in tagged if biomedical) >= total


def common_words(
    words: Iterable[str],
    zipf: float,
    lexnames: tuple[str, ...] | None = BIOMEDICAL_LEXNAMES,
    wordlist: str = "large",
) -> set[str]:
    """The common English words among lowercase single tokens: alphabetic, Zipf frequency (``wordfreq``,
    English, ``wordlist``; log10 of occurrences per billion words: 4 = 10 per million) >= ``zipf``, and,
    unless ``lexnames`` is None, not :func:`wordnet_mainly_biomedical`. Both tests are needed: by
    frequency alone "heart", "blood", "cancer" and "pain" (Zipf 4.9-5.3) would be common words.

    Raises:
        LookupError: ``lexnames`` is given and the WordNet data is not installed.
    """
    from wordfreq import zipf_frequency

    frequent = {w for w in set(words) if w.isalpha() and zipf_frequency(w, "en", wordlist=wordlist) >= zipf}
    if lexnames is None:
        return frequent
    return {w for w in frequent if not wordnet_mainly_biomedical(w, tuple(lexnames))}


def attribute_words(words: Iterable[str]) -> set[str]:
    """The lowercase single tokens that WordNet lists, and only as adjectives or adverbs (any
    frequency): "allergic", "severe", "congenital", "malignant"; not "acute" (also a noun: an acute
    accent), "diabetic" (also a person), "fever". Such a word in a text modifies a noun ("allergic
    rhinitis"); it names no concept there.

    Raises:
        LookupError: the WordNet data is not installed.
    """
    from nltk.corpus import wordnet as wn

    out = set()
    for word in set(words):
        if word.isalpha():
            pos = {synset.pos() for synset in wn.synsets(word)}
            if pos and pos <= {"a", "s", "r"}:
                out.add(word)
    return out


def case_rules(prepared: pd.DataFrame, rules: CaseRules) -> np.ndarray:
    """The rule (:data:`CASE_RULES`) that counts each term with its case, or None (counted lowercased).

    Args:
        prepared: terms with ``term``, ``term_type``, ``normalised``, ``tokens`` (as :func:`prepare_terms`
            builds them).
        rules: which rules are on.

    Returns:
        Object array aligned with ``prepared``: the first rule that applies, in the order of
        :data:`CASE_RULES`.
    """
    out = np.full(len(prepared), None, dtype=object)
    if not rules.enabled or not len(prepared):
        return out
    open_ = np.ones(len(prepared), dtype=bool)
    nonempty = (prepared["normalised"] != "").to_numpy()
    if rules.abbreviations:
        hit = nonempty & (prepared["term_type"] == "abbreviation").to_numpy()
        out[hit] = "abbreviation"
        open_ &= ~hit
    if rules.capitals:
        hit = open_ & nonempty
        index = np.flatnonzero(hit)
        hit[index] = written_in_capitals(normalise_many(prepared["term"].iloc[index].astype(str).tolist(), False))
        out[hit] = "capitals"
        open_ &= ~hit
    if rules.common_word_zipf is not None or rules.common_word_attributes:
        single = open_ & (prepared["tokens"] == 1).to_numpy()
        words = prepared["normalised"].to_numpy()[single]
        common = set()
        if rules.common_word_zipf is not None:
            common = common_words(words, rules.common_word_zipf, rules.common_word_lexnames, rules.wordlist)
        if rules.common_word_attributes:
            common |= attribute_words(words)
        hit = single.copy()
        hit[single] = np.fromiter((w in common for w in words), dtype=bool, count=len(words))
        out[hit] = "common_word"
    return out


# --------------------------------------------------------------------------------------------------
# Terms, patterns, counts
# --------------------------------------------------------------------------------------------------
class Patterns(NamedTuple):
    """What a terminology's counting looks for: distinct (form, mode) pairs, sorted by mode
    (:data:`~biosem.analogies.frequency.MATCH_MODES` order), then form; and the contexts (a pattern
    counted in the documents holding one of its concept's other terms: ``(pattern index, long-form
    pattern indices, concept_id)``, sorted by concept, then pattern)."""

    forms: list[str]
    modes: list[str]
    contexts: Sequence[tuple[int, tuple[int, ...], str]] = ()

    def slots(self) -> tuple[list[str], list[str], list[str | None]]:
        """(form, mode, concept) of every counting slot: the patterns (concept None), then the
        contexts (their pattern's form and mode, and their concept), as
        :class:`~biosem.analogies.frequency.TermCounter` counts them."""
        forms = self.forms + [self.forms[p] for p, _, _ in self.contexts]
        modes = self.modes + [self.modes[p] for p, _, _ in self.contexts]
        concepts: list[str | None] = [None] * len(self.forms) + [c for _, _, c in self.contexts]
        return forms, modes, concepts

    def counter_contexts(self) -> list[tuple[int, tuple[int, ...]]]:
        """The contexts as :class:`~biosem.analogies.frequency.TermCounter` takes them."""
        return [(p, q) for p, q, _ in self.contexts]


_NAMES = ("preferred", "fsn")
"""Term types that name their concept (an abbreviation of this type is the concept's own name)."""


def in_context(prepared: pd.DataFrame, rules: CaseRules) -> np.ndarray:
    """Terms counted only in the documents that name their concept by another term (rule 4; module
    docstring): with ``rules.abbreviation_context``, a term counted with its case by the
    ``abbreviation`` or ``capitals`` rule, not its concept's name (term_type preferred or FSN),
    whose counted form is one token written in capitals (two or more upper-case letters and no
    lower-case one: ``CAN``, ``HD``, ``WFS1``), and whose concept has another term (a long form)
    with another normalised form that is not such a term itself. Boolean array aligned with
    ``prepared`` (columns of :func:`prepare_terms`)."""
    out = np.zeros(len(prepared), dtype=bool)
    if not rules.abbreviation_context or not len(prepared):
        return out
    matched = prepared["matched"].astype(str)
    candidate = (
        prepared["case_rule"].isin(["abbreviation", "capitals"]).to_numpy()
        & ~prepared["term_type"].isin(list(_NAMES)).to_numpy()
        & (~matched.str.contains(" ", regex=False)).to_numpy()
        & np.fromiter((m.isupper() and sum(c.isupper() for c in m) >= 2 for m in matched), bool, len(matched))
    )
    long = prepared.loc[~candidate & (prepared["normalised"] != "").to_numpy(), ["concept_id", "normalised"]]
    long = long.drop_duplicates()
    per_concept = long.groupby("concept_id").size()
    index = np.flatnonzero(candidate)
    cand = prepared.iloc[index][["concept_id", "normalised"]]
    same = cand.merge(long.assign(_same=True), on=["concept_id", "normalised"], how="left")["_same"]
    others = cand["concept_id"].map(per_concept).fillna(0).to_numpy() - same.fillna(False).astype(int).to_numpy()
    out[index] = others > 0
    return out


def prepare_terms(terms: pd.DataFrame, rules: CaseRules = BMASS_RULES) -> pd.DataFrame:
    """The active terms of a terminology with the forms that are counted.

    Args:
        terms: the ``terms`` intermediate (columns source, concept_id, term_id, term, term_type,
            language, active, scope; :data:`biosem.terminology.schemas.TERMS`).
        rules: which terms are counted with their case (default: none, as BMASS).

    Returns:
        Columns of :data:`~biosem.analogies.schemas.TERM_COUNTS` except the counts: ``term`` is the
        surface form (a SNOMED CT FSN without its semantic tag, ``"Malaria (disorder)"`` ->
        ``"Malaria"``), ``normalised`` its :func:`~biosem.analogies.frequency.normalise` form (""
        when nothing is left, e.g. ``"(+)"``), ``tokens`` the number of tokens of ``normalised``,
        ``case_rule`` (:func:`case_rules`), ``mode`` (``folded`` or the rule's
        :data:`MODE_OF_RULE`), ``matched`` (the form counted in that mode) and ``in_context``
        (:func:`in_context`).
    """
    t = terms.loc[
        terms["active"].astype(bool), ["source", "concept_id", "term_id", "term_type", "language", "scope", "term"]
    ]
    t = t.reset_index(drop=True)
    is_fsn = (t["term_type"] == "fsn").to_numpy()
    if is_fsn.any():
        t.loc[is_fsn, "term"] = strip_semantic_tag(t.loc[is_fsn, "term"]).to_numpy()
    t["normalised"] = normalise_many(t["term"].astype(str).tolist())
    t["tokens"] = np.fromiter((len(n.split()) for n in t["normalised"]), dtype=np.int64, count=len(t))
    rule = case_rules(t, rules)
    t["case_rule"] = pd.Series(rule, index=t.index, dtype=object)
    mode = np.full(len(t), FOLDED, dtype=object)
    matched = t["normalised"].to_numpy(dtype=object).copy()
    for name, how in MODE_OF_RULE.items():
        hit = np.flatnonzero(rule == name)
        if len(hit):
            mode[hit] = how
            matched[hit] = match_forms(t["term"].iloc[hit].astype(str).tolist(), how)
    t["mode"] = mode
    t["matched"] = matched
    t["in_context"] = in_context(t, rules)
    return t


def term_patterns(prepared: pd.DataFrame) -> Patterns:
    """The automata's patterns and contexts.

    Patterns: every distinct non-empty ``normalised`` form ``folded`` (the BMASS count of every term)
    and every distinct non-empty ``matched`` form of the ``cased`` and ``exact`` terms in its mode;
    sorted by mode, then form. Contexts: one per (concept, counted form) of its ``in_context`` terms,
    whose long forms are the ``folded`` patterns of the concept's other terms that are not
    ``in_context`` and have another normalised form.
    """
    pairs = {(FOLDED, form) for form in prepared["normalised"]}
    other = prepared["mode"] != FOLDED
    pairs |= set(zip(prepared.loc[other, "mode"], prepared.loc[other, "matched"]))
    rank = {mode: i for i, mode in enumerate(MATCH_MODES)}
    ordered = sorted((rank[m], f) for m, f in pairs if f)
    forms = [f for _, f in ordered]
    modes = [MATCH_MODES[r] for r, _ in ordered]
    slot = {(m, f): i for i, (f, m) in enumerate(zip(forms, modes))}
    contexts: list[tuple[int, tuple[int, ...], str]] = []
    flagged = prepared["in_context"].to_numpy(dtype=bool) if "in_context" in prepared else np.zeros(len(prepared), bool)
    if flagged.any():
        long = prepared.loc[~flagged & (prepared["normalised"] != "").to_numpy(), ["concept_id", "normalised"]]
        long_forms = long.drop_duplicates().groupby("concept_id")["normalised"].agg(lambda x: sorted(set(x)))
        wanted = prepared.loc[flagged, ["concept_id", "mode", "matched", "normalised"]]
        wanted = wanted.drop_duplicates(["concept_id", "mode", "matched"]).sort_values(
            ["concept_id", "mode", "matched"], kind="stable"
        )
        for concept, mode, form, own in wanted.itertuples(index=False):
            others = tuple(slot[(FOLDED, f)] for f in long_forms.get(concept, []) if f != own)
            if others:
                contexts.append((slot[(mode, form)], others, concept))
    return Patterns(forms, modes, contexts)


def attach_counts(prepared: pd.DataFrame, patterns: Patterns, counts: np.ndarray) -> pd.DataFrame:
    """``prepared`` plus ``count_cased`` (occurrences of ``matched`` in ``mode``), ``count`` (for an
    ``in_context`` term its occurrences in the documents naming its concept otherwise, else
    ``count_cased``) and ``count_folded`` (occurrences of ``normalised`` lowercased, as BMASS
    counts); 0 for an empty form.

    Args:
        counts: one count per slot of ``patterns`` (:meth:`Patterns.slots`).
    """
    forms, modes, concepts = patterns.slots()
    index = pd.Index([f"{m}\t{f}\t{c or ''}" for f, m, c in zip(forms, modes, concepts)])
    padded = np.append(np.asarray(counts, dtype=np.int64), 0)  # position -1 (no slot) -> 0
    out = prepared.copy()
    if "in_context" not in out:
        out["in_context"] = False
    plain = out["mode"] + "\t" + out["matched"] + "\t"
    out["count_cased"] = padded[index.get_indexer(plain.tolist())]
    context = padded[index.get_indexer((plain + out["concept_id"].astype(str)).tolist())]
    out["count"] = np.where(out["in_context"].to_numpy(dtype=bool), context, out["count_cased"].to_numpy())
    out["count_folded"] = padded[index.get_indexer((FOLDED + "\t" + out["normalised"] + "\t").tolist())]
    return out
