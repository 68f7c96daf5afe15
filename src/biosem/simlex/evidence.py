"""Word rules of the simlex vocabulary: part-of-speech evidence and the words that are no nouns or verbs.

Chiu et al. 2018 (§ Word selection) keep a lemma when the tagger calls it a noun (verb) at least five
times, and leave the rest to an expert's review. On a small corpus that lets other parts of speech,
numbers, units and fragments of multi-word names into Bio-SimLex / Bio-SimVerb ("excrete / warfarin",
"score / twelve", "actin / ventricular", "khz / osteoporosis", "subgroup / imperfecta"; issue 37).
The rules here stand in for that review; each is a config value of ``simlex.vocabulary`` and is
counted in ``vocabulary/filters.tsv``. A (lemma, POS) is dropped by the first rule that applies:

1. ``number_word``: a numeral (``12``, ``iii``) or a word whose most frequent WordNet noun sense is an
   integer (``twelve``, ``dozen``, ``million``; :func:`is_number_word`).
2. ``wordnet_pos``: WordNet knows the word, but not with this POS (:func:`wrong_wordnet_pos`:
   ``offspring``, ``genotype``, ``warfarin`` as verbs; ``ventricular``, ``distinct``, ``analyze`` as
   nouns; a gerund such as ``sequencing`` or ``blotting``, which WordNet has as a verb only, stays a
   possible noun, as in the published Bio-SimLex). Words WordNet does not know stay possible: 114 of
   the 1,131 verbs of the published Bio-SimVerb are not WordNet verbs (*phosphorylate*,
   *downregulate*, *overexpress*).
3. ``tag_share``: too little corpus evidence (:func:`tag_evidence`; every tag of every alphabetic
   token counted, :data:`biosem.simlex.vocabulary.TAG_CLASSES`). A word WordNet does not know with
   this POS needs ``min_tag_share`` of its tokens tagged with the POS ("most of its occurrences":
   *carbamazepine* is tagged as a verb in 8 of 53, *dopaminergic* as a noun in 18 of 60). A word
   WordNet knows with this POS needs ``min_noun_verb_share`` of its tokens tagged as nouns or verbs,
   that is, it is used as a noun or a verb at all (*acute* as a noun: 111 of 462 tokens, the rest
   adjectives; *human*: 82 of 586); which of the two is left to ``min_pos_share``, since noun/verb
   ambiguity is normal (*control*, *change*, *test* are verbs of the published Bio-SimVerb and nouns
   in most of their abstract occurrences).

The remaining rules apply to words WordNet does not know at all, which need more evidence than the
tagger's word:

4. ``function_word``: frequent in general English (wordfreq Zipf value at least
   ``max_unknown_zipf``; WordNet has every frequent noun and verb, so such a word is a preposition or
   conjunction: *versus*, *toward*).
5. ``abbreviation``: shorter than ``min_unknown_length`` letters (``mdx``, ``kda``, ``ppm``, ``coli``).
6. ``unit``: more than ``max_after_number_share`` of its kept tokens follow a number (``5 mmol``,
   ``10 microg``).
7. ``adjective_form`` (nouns): it ends like an English adjective (:data:`ADJECTIVE_SUFFIXES`:
   *cardiotoxic*, *intravitreal*, *epileptiform*); optional.
8. ``fragment`` (nouns and verbs): more than ``max_in_term_share`` of its kept tokens lie inside a
   multi-word term of the configured terminologies (*osteogenesis imperfecta*, *retinitis pigmentosa*,
   *nucleus accumbens*, *torsades de pointes*), and no one-word term of them is the word
   (:func:`terminology_words`): a piece of a name, not a word used on its own. The second condition
   keeps the heads and chemicals that the corpus mostly writes inside longer names but the
   terminologies also name alone (*cathepsin*, *troponin*, *glutathione*, *puromycin*). The tagger
   makes verbs of such pieces too when they end in *-s* (*Fugu rubripes* → "rubripe", *adherens
   junction* → "adheren", *stria vascularis* → "vasculari"; issue 38's larger corpus let them through).
9. ``chemical_verb`` (verbs): it ends like a chemical or drug name (:data:`CHEMICAL_SUFFIXES`: class
   endings such as *-ine*, *-ol*, *-ide*, *-ase* and WHO INN stems such as *-mycin*, *-statin*,
   *-limus*); optional. No verb of the published Bio-SimVerb that WordNet lacks ends so.

Before the rules, :func:`merge_variants` makes one vocabulary entry of the lemmas that are one word
written two ways: British and American spelling (``apnoea`` / ``apnea``, ``haemangioblastoma`` /
``hemangioblastoma``: :func:`biosem.surface.surface_key`, the normaliser every family shares, whose
spelling rules are not gated by word frequency) or an inflection the lemmatiser missed
(``probands`` / ``proband``, ``dinucleotides`` / ``dinucleotide``: lemminflect).
"""

from __future__ import annotations

import functools
import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

import pandas as pd
from wordfreq import zipf_frequency

from biosem.surface import STEPS, SurfaceNormaliser, default_normaliser

WORD_RULES = (
    "number_word",
    "wordnet_pos",
    "tag_share",
    "function_word",
    "abbreviation",
    "unit",
    "adjective_form",
    "fragment",
    "chemical_verb",
)
"""Word rules in the order they are tried; a dropped (lemma, POS) is counted under the first that applies."""

CHEMICAL_SUFFIXES: tuple[str, ...] = (
    # chemical class endings (IUPAC and trivial names): amines and alkaloids, alcohols, halides and
    # amides, ketones, cations, enzymes
    "ine",
    "ol",
    "ide",
    "one",
    "ium",
    "ase",
    # WHO INN stems of drug names (INN "The use of stems in the selection of International
    # Nonproprietary Names", 2018): anticoagulants, antibiotics, platins, anthracyclines, statins,
    # sartans, ACE inhibitors, beta blockers, dihydropyridines, benzodiazepines, H2 blockers, azoles,
    # setrons, triptans, profens, antivirals, antibodies, kinase inhibitors, macrolide immunosuppressants,
    # leukotriene antagonists, PDE5 inhibitors
    "arin",
    "mycin",
    "micin",
    "cillin",
    "oxacin",
    "platin",
    "rubicin",
    "statin",
    "sartan",
    "pril",
    "olol",
    "dipine",
    "azepam",
    "azolam",
    "tidine",
    "azole",
    "setron",
    "triptan",
    "profen",
    "vir",
    "mab",
    "tinib",
    "limus",
    "lukast",
    "afil",
)
"""Endings of chemical and drug names (rule ``chemical_verb``). Bare *-in* is left out: verbs WordNet
lacks end so (*counterstain*, *immunostain*), while drug names ending in *-in* (*warfarin*, *heparin*)
are caught by ``-arin`` or by their noun tags."""

_WORDNET_POS = {"n": "noun", "v": "verb", "a": "adjective", "s": "adjective", "r": "adverb"}
_NUMERAL = re.compile(r"^\d+([.,]\d+)*$")
_ROMAN = re.compile(r"^(?=[ivx]{2,}$)(x{0,3})(ix|iv|v?i{0,3})$")


@dataclass(frozen=True)
class WordRules:
    """The word rules' switches and thresholds (config ``simlex.vocabulary``; see the module docstring).

    Args:
        merge_variants: one entry per spelling (:func:`merge_variants`).
        number_words, wordnet_pos: rules 1 and 2 on or off.
        min_tag_share, min_noun_verb_share: rule 3's thresholds (0 switches each off).
        max_unknown_zipf: rule 4's threshold (``None`` switches it off).
        min_unknown_length: rule 5's threshold in letters (0 switches it off).
        max_after_number_share: rule 6's threshold (``None`` switches it off).
        adjective_forms: rule 7 on or off.
        max_in_term_share: rule 8's threshold (``None`` switches it off; without fragment
            terminologies no token is inside a term).
        single_word_terms: keys of the one-word terms of the fragment terminologies (rule 8).
        chemical_verbs: rule 9 on or off.
    """

    merge_variants: bool = True
    number_words: bool = True
    wordnet_pos: bool = True
    min_tag_share: float = 0.5
    min_noun_verb_share: float = 0.25
    max_unknown_zipf: float | None = 4.0
    min_unknown_length: int = 5
    max_after_number_share: float | None = 0.5
    adjective_forms: bool = True
    max_in_term_share: float | None = 0.5
    single_word_terms: frozenset[str] = frozenset()
    chemical_verbs: bool = True


# --------------------------------------------------------------------------------------------------
# WordNet and numbers
# --------------------------------------------------------------------------------------------------
@functools.lru_cache(maxsize=1 << 16)
def wordnet_pos(word: str) -> frozenset[str]:
    """The parts of speech WordNet knows ``word`` with (``noun``, ``verb``, ``adjective``, ``adverb``),
    through its own lemmatiser (``morphy``); empty when WordNet does not know it.

    Needs WordNet under ``NLTK_DATA`` (:func:`biosem.simlex.vocabulary.configure_nltk_data`).
    """
    from nltk.corpus import wordnet as wn

    return frozenset(_WORDNET_POS[s.pos()] for s in wn.synsets(word))


@functools.lru_cache(maxsize=1 << 16)
def is_number_word(word: str) -> bool:
    """Whether a lowercased word is a number: a numeral (``12``, ``0.5``), a Roman numeral of i, v and
    x (``iii``, ``xiv``: type names), or a word whose first (most frequent) WordNet noun sense is an
    integer (``integer.n.01`` or below: ``twelve``, ``dozen``, ``hundred``, ``million``, ``one``; not
    ``ratio``, ``half``, ``score``)."""
    if _NUMERAL.match(word) or _ROMAN.match(word):
        return True
    from nltk.corpus import wordnet as wn

    senses = wn.synsets(word, pos="n")
    if not senses:
        return False
    integer = wn.synset("integer.n.01")
    first = senses[0]
    return first == integer or integer in first.closure(lambda s: s.hypernyms() + s.instance_hypernyms())


def other_pos_only(word: str, pos: str) -> bool:
    """Whether WordNet knows ``word`` but not as ``pos`` (noun|verb): *genotype* and *pellet* as
    verbs (WordNet: nouns), *ventricular* as a noun (an adjective). A word WordNet lacks is not."""
    known = wordnet_pos(word)
    return bool(known) and pos not in known


def wrong_wordnet_pos(word: str, pos: str) -> bool:
    """Rule ``wordnet_pos``: WordNet knows ``word`` but not as ``pos`` (:func:`other_pos_only`), and
    it is not a gerund (a noun ending in *-ing* that WordNet knows as a verb: *sequencing*, *dosing*)."""
    if not other_pos_only(word, pos):
        return False
    return not (pos == "noun" and word.endswith("ing") and "verb" in wordnet_pos(word))


ADJECTIVE_SUFFIXES = ("ic", "al", "ous", "ive", "ary", "ory", "ar", "able", "ible", "iform")
"""Endings of English adjectives, for words WordNet does not know (*dopaminergic*, *extrapyramidal*,
*epileptiform*; not *isoform*, a noun of the published Bio-SimLex)."""


def can_be_adjective(word: str) -> bool:
    """Whether adjective tags of ``word`` are evidence: WordNet knows it as an adjective, or WordNet
    does not know it and it ends like one (:data:`ADJECTIVE_SUFFIXES`). Otherwise the tagger's ``JJ``
    is its reading of a noun used as a modifier (*glucose levels*, *dystrophin gene*)."""
    known = wordnet_pos(word)
    return "adjective" in known if known else word.endswith(ADJECTIVE_SUFFIXES)


def tag_evidence(word: str, pos: str, tags: dict[str, int]) -> tuple[int, int, int]:
    """``(pos_tokens, noun_verb_tokens, evidence_tokens)`` of a lemma from its tokens per tag class.

    Args:
        word: the lemma; pos: noun|verb.
        tags: tag class (:data:`biosem.simlex.vocabulary.TAG_CLASSES`) -> alphabetic corpus tokens of
            the lemma (missing classes count 0).

    Returns:
        Tokens tagged with ``pos``; tagged as a noun or a verb; and all its tokens, less its adjective
        tags when it cannot be an adjective (:func:`can_be_adjective`). The POS share of the word is
        ``pos_tokens / evidence_tokens``.
    """
    total = sum(tags.values())
    if not can_be_adjective(word):
        total -= tags.get("adjective", 0)
    return tags.get(pos, 0), tags.get("noun", 0) + tags.get("verb", 0), total


def pos_check(word: str, pos: str) -> str | None:
    """The reviewer's part-of-speech check of a dataset word (issue 37): ``"number"`` for a number
    (:func:`is_number_word`), ``"wordnet_other_pos"`` when WordNet knows it only with other parts of
    speech (:func:`other_pos_only`), else ``None``."""
    if is_number_word(word):
        return "number"
    if other_pos_only(word, pos):
        return "wordnet_other_pos"
    return None


# --------------------------------------------------------------------------------------------------
# Fragments of multi-word names
# --------------------------------------------------------------------------------------------------
_LETTERS = re.compile(r"[^\W\d_]+")


def term_word_key(token: str) -> str:
    """The surface key (:func:`biosem.surface.surface_key`) of a token's letters (``"Pointes"`` ->
    ``"pointe"``, ``"E."`` -> ``"e"``); ``""`` for a token without a letter."""
    letters = "".join(_LETTERS.findall(token))
    return default_normaliser().key(letters) if letters else ""


def terminology_words(terms: Iterable[pd.DataFrame]) -> tuple[frozenset[tuple[str, ...]], frozenset[str]]:
    """The multi-word terms and the one-word terms of terminologies, for rule ``fragment``.

    Each active term is split into its runs of letters, each run keyed by :func:`term_word_key`
    (``"Torsades de Pointes"`` -> ``torsade, de, pointe``; ``"Cathepsins"`` -> ``cathepsin``).

    Args:
        terms: ``terms`` intermediates (columns ``term``, ``active``).

    Returns:
        ``(multiword, single)``: key sequences of the terms of two or more words (matched against
        the corpus for the ``in_term`` counts), and keys of the one-word terms.
    """
    multi: set[tuple[str, ...]] = set()
    single: set[str] = set()
    for frame in terms:
        for term in frame.loc[frame["active"].astype(bool), "term"].drop_duplicates():
            words = _LETTERS.findall(term)
            if len(words) > 1:
                multi.add(tuple(term_word_key(w) for w in words))
            elif words:
                single.add(term_word_key(words[0]))
    return frozenset(multi), frozenset(single)


# --------------------------------------------------------------------------------------------------
# One entry per spelling
# --------------------------------------------------------------------------------------------------
def _inflections(lemma: str, pos: str) -> frozenset[str]:
    """lemminflect's inflected forms of a lemma for ``pos`` (its out-of-vocabulary rules when it does
    not know the word), lowercased, the lemma left out."""
    from lemminflect import getAllInflections, getAllInflectionsOOV

    upos = "NOUN" if pos == "noun" else "VERB"
    forms = getAllInflections(lemma, upos=upos) or getAllInflectionsOOV(lemma, upos=upos)
    return frozenset(f.lower() for values in forms.values() for f in values) - {lemma}


def variant_groups(lemmas: Iterable[tuple[str, str]], counts: Counter | None = None) -> dict[tuple[str, str], str]:
    """The entry each (lemma, POS) belongs to: lemmas of one POS that are one word are one entry.

    Two lemmas are one word when their surface keys are equal (:func:`biosem.surface.surface_key`:
    British -> American spelling, noun lemma: ``apnoea`` / ``apnea``, ``probands`` / ``proband``) or
    one is an inflected form of the other (lemminflect, out-of-vocabulary rules included:
    ``dinucleotides`` of ``dinucleotide``), transitively. The entry is named by a member that is no
    inflection of another member and is spelt American (its spelling key is itself), then the most
    frequent (``counts``), then the first alphabetically; a British spelling without an American
    partner keeps its name, so that an ungated spelling rule never invents a word (``leucine`` stays,
    not ``leukine``).

    Returns:
        (lemma, POS) -> entry lemma, for every (lemma, POS) given.
    """
    counts = counts or Counter()
    norm = default_normaliser()
    spelling = SurfaceNormaliser(STEPS[: STEPS.index("spelling") + 1])
    parent: dict[tuple[str, str], tuple[str, str]] = {}

    def find(x: tuple[str, str]) -> tuple[str, str]:
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    def union(a: tuple[str, str], b: tuple[str, str]) -> None:
        ra, rb = find(a), find(b)
        if ra != rb:
            parent[max(ra, rb)] = min(ra, rb)

    items = sorted(set(lemmas))
    for item in items:
        parent[item] = item
    by_key: dict[tuple[str, str], tuple[str, str]] = {}
    inflected: set[tuple[str, str]] = set()
    for lemma, pos in items:
        first = by_key.setdefault((norm.key(lemma), pos), (lemma, pos))
        union(first, (lemma, pos))
        for form in _inflections(lemma, pos):
            if (form, pos) in parent:
                union((lemma, pos), (form, pos))
                inflected.add((form, pos))
    groups: dict[tuple[str, str], list[tuple[str, str]]] = {}
    for item in items:
        groups.setdefault(find(item), []).append(item)
    out: dict[tuple[str, str], str] = {}
    for members in groups.values():
        entry = min(
            members,
            key=lambda m: (m in inflected, spelling.key(m[0]) != m[0], -counts[m], m[0]),
        )
        for m in members:
            out[m] = entry[0]
    return out


def merge_variants(counts: Counter, document_counts: Counter) -> tuple[Counter, Counter, pd.DataFrame]:
    """Sum the counts of lemmas that are one entry (:func:`variant_groups`).

    Args:
        counts, document_counts: (lemma, POS) -> tokens, documents.

    Returns:
        ``(counts, document_counts, merges)``: the merged counters (a document that uses both
        spellings counts twice, so document counts are an upper bound), and one row per lemma merged
        into another entry: ``lemma, pos, entry, tokens``, sorted.
    """
    entry = variant_groups(counts.keys(), counts)
    merged: Counter = Counter()
    merged_docs: Counter = Counter()
    rows = []
    for (lemma, pos), n in counts.items():
        target = entry[(lemma, pos)]
        merged[(target, pos)] += n
        merged_docs[(target, pos)] += document_counts.get((lemma, pos), 0)
        if target != lemma:
            rows.append((lemma, pos, target, n))
    merges = pd.DataFrame(rows, columns=["lemma", "pos", "entry", "tokens"])
    return merged, merged_docs, merges.sort_values(["pos", "lemma"], kind="stable", ignore_index=True)


def rename_keys(counter: Counter, entry: dict[tuple[str, str], str]) -> Counter:
    """A counter keyed by (word, class) with the words of ``entry``'s (word, class) keys renamed
    (others unchanged) and the counts of keys that become equal summed. Tag counts of a merged lemma
    move within its own class only: the adjective tags of *truncated* stay *truncated*'s when the
    verb *truncated* joins *truncate*."""
    out: Counter = Counter()
    for (word, cls), n in counter.items():
        out[(entry.get((word, cls), word), cls)] += n
    return out


# --------------------------------------------------------------------------------------------------
# The rules
# --------------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Evidence:
    """Corpus evidence of one (lemma, POS), as shares in [0, 1] (see :func:`tag_evidence`).

    Args:
        pos_share: of its corpus tokens, those tagged with the POS.
        noun_verb_share: of its corpus tokens, those tagged as a noun or a verb.
        after_number_share: of its kept tokens, those right after a number.
        in_term_share: of its kept tokens, those inside a multi-word term.
        aliases: other spellings merged into this entry (:func:`merge_variants`), looked up in
            WordNet too (``homologue`` for ``homolog``).
    """

    pos_share: float = 1.0
    noun_verb_share: float = 1.0
    after_number_share: float = 0.0
    in_term_share: float = 0.0
    aliases: tuple[str, ...] = ()


def word_rule(lemma: str, pos: str, evidence: Evidence, rules: WordRules) -> str | None:
    """The first rule of :data:`WORD_RULES` that drops (``lemma``, ``pos``), or ``None`` to keep it.

    Args:
        lemma: lowercased lemma; pos: noun|verb.
        evidence: its corpus evidence.
        rules: switches and thresholds.
    """
    if rules.number_words and is_number_word(lemma):
        return "number_word"
    spellings = (lemma, *evidence.aliases)
    known = frozenset().union(*(wordnet_pos(w) for w in spellings))
    if rules.wordnet_pos and known and all(wrong_wordnet_pos(w, pos) for w in spellings if wordnet_pos(w)):
        return "wordnet_pos"
    if pos in known:
        return "tag_share" if evidence.noun_verb_share < rules.min_noun_verb_share else None
    if evidence.pos_share < rules.min_tag_share:
        return "tag_share"
    if known:
        return None
    if rules.max_unknown_zipf is not None and zipf_frequency(lemma, "en") >= rules.max_unknown_zipf:
        return "function_word"
    if len(lemma) < rules.min_unknown_length:
        return "abbreviation"
    if rules.max_after_number_share is not None and evidence.after_number_share > rules.max_after_number_share:
        return "unit"
    if pos == "noun" and rules.adjective_forms and lemma.endswith(ADJECTIVE_SUFFIXES):
        return "adjective_form"
    if (
        rules.max_in_term_share is not None
        and evidence.in_term_share > rules.max_in_term_share
        and term_word_key(lemma) not in rules.single_word_terms
    ):
        return "fragment"
    if pos == "verb" and rules.chemical_verbs and lemma.endswith(CHEMICAL_SUFFIXES):
        return "chemical_verb"
    return None


__all__ = [
    "ADJECTIVE_SUFFIXES",
    "CHEMICAL_SUFFIXES",
    "WORD_RULES",
    "Evidence",
    "WordRules",
    "can_be_adjective",
    "is_number_word",
    "merge_variants",
    "other_pos_only",
    "pos_check",
    "rename_keys",
    "tag_evidence",
    "term_word_key",
    "terminology_words",
    "variant_groups",
    "word_rule",
    "wordnet_pos",
    "wrong_wordnet_pos",
]
