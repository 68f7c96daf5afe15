"""Lexical resources for the associated biomedical quarter (Chiu et al. 2018, § Pair selection).

Associated biomedical pairs are word pairs that a resource relates, after adding morphological
variants (docs/design.md § simlex):

* **OBO synonyms**: two single-word terms of the same active concept, among its ``name`` and its
  synonyms of the configured scopes (default EXACT): HPO ``Seizure`` / ``Convulsion``.
* **OBO siblings**: single-word names of two active concepts with a common direct ``is_a`` parent:
  GO ``phosphorylation`` / ``acetylation`` (children of ``protein modification process``).
* **Lexicon synonyms**: WordNet synsets shared by two vocabulary lemmas of one POS (the stand-in for
  the SPECIALIST synonyms of the paper), and optional two-column synonym tables (e.g. exported from
  the SPECIALIST Lexical Tools synonym files).

A resource word reaches the corpus vocabulary through its **lexicon variants**
(:func:`lexicon_variants`): the word itself in a POS it has (lemminflect or WordNet; unknown words are
nouns); its American spelling; its lemmas
(lemminflect, and SPECIALIST LRAGR when configured: ``seizures`` -> ``seizure``); and its
derivations between noun and verb: SPECIALIST LRNOM nominalisations when configured, WordNet
derivational links (``secretion`` -> ``secrete``), and the English nominalisation suffixes of
:data:`NOMINALISATION_SUFFIXES` (``phosphorylation`` -> ``phosphorylate``, which WordNet lacks),
the latter only where the derived word is itself a corpus verb (or noun), so that a rule never
invents a word. lemminflect gives inflections only, never derivations.
"""

from __future__ import annotations

import logging
import re
import unicodedata
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pandas as pd
from lemminflect import getAllLemmas

from biosem.errors import SourceFormatError
from biosem.simlex.spelling import SpellingNormaliser

log = logging.getLogger(__name__)

VARIANT_KINDS = ("identity", "spelling", "inflection", "derivation")
"""Kinds of lexicon variants, from the least to the most change (a pair's ``via`` is the largest)."""

NOMINALISATION_SUFFIXES: tuple[tuple[str, str], ...] = (
    ("ization", "ize"),  # immunization -> immunize
    ("ification", "ify"),  # amplification -> amplify
    ("ation", "ate"),  # phosphorylation -> phosphorylate, regulation -> regulate
    ("ation", "e"),  # examination -> examine
    ("ation", ""),  # transformation -> transform
    ("uction", "uce"),  # reduction -> reduce, induction -> induce
    ("ption", "be"),  # transcription -> transcribe
    ("ption", "b"),  # absorption -> absorb
    ("ission", "it"),  # transmission -> transmit
    ("ition", "ite"),  # ignition -> ignite
    ("ition", ""),  # addition -> add
    ("sion", "de"),  # invasion -> invade
    ("sion", "se"),  # confusion -> confuse
    ("ion", "e"),  # secretion -> secrete
    ("ion", ""),  # inhibition -> inhibit, expression -> express
    ("sis", "size"),  # synthesis -> synthesize
    ("ysis", "yze"),  # hydrolysis -> hydrolyze, analysis -> analyze
    ("osis", "ose"),  # diagnosis -> diagnose
    ("ment", ""),  # development -> develop
    ("ance", ""),  # resistance -> resist
    ("ance", "e"),  # clearance -> clear... (only if attested)
    ("ence", ""),  # occurrence -> occur
    ("ence", "e"),  # interference -> interfere
    ("al", ""),  # withdrawal -> withdraw
    ("al", "e"),  # removal -> remove
    ("ure", ""),  # failure -> fail
    ("ure", "e"),  # closure -> close
    ("age", ""),  # leakage -> leak
    ("age", "e"),  # cleavage -> cleave
    ("ery", "er"),  # recovery -> recover
)
"""(noun suffix, verb suffix) rules of English deverbal nominalisation, after the suffixes the
SPECIALIST derivational morphology covers. Used in both directions, and only when the derived word
is in the corpus vocabulary with the other POS; the stem left after removing the suffix must have
at least 3 letters."""

_WORD = re.compile(r"^[a-z]+$")


def single_word(term: str) -> str | None:
    """The lowercased term if it is one word of ASCII letters (``"Seizure"`` -> ``"seizure"``), else None."""
    word = unicodedata.normalize("NFC", term).strip().lower()
    return word if _WORD.match(word) else None


# --------------------------------------------------------------------------------------------------
# Relations from OBO terminology intermediates
# --------------------------------------------------------------------------------------------------
_RELATION_COLUMNS = ["term1", "term2", "relation", "resource", "evidence"]


def _within_groups(frame: pd.DataFrame, group: str, word: str, node: str) -> pd.DataFrame:
    """Unordered pairs of distinct words from distinct nodes within each group (self-merge)."""
    left = frame[[group, node, word]]
    pairs = left.merge(left, on=group, suffixes=("1", "2"))
    pairs = pairs[(pairs[f"{word}1"] < pairs[f"{word}2"]) & (pairs[f"{node}1"] != pairs[f"{node}2"])]
    return pairs


def subtree(relations: pd.DataFrame, roots: Iterable[str], parent_rel: str = "is_a") -> set[str]:
    """The concepts at or below ``roots`` along ``parent_rel`` edges (transitive closure, BFS)."""
    children: dict[str, list[str]] = {}
    edges = relations.loc[relations["rel"] == parent_rel, ["subject_id", "object_id"]]
    for child, parent in edges.itertuples(index=False):
        children.setdefault(parent, []).append(child)
    seen = set(roots)
    frontier = sorted(seen)
    while frontier:
        nxt = []
        for node in frontier:
            for child in children.get(node, ()):
                if child not in seen:
                    seen.add(child)
                    nxt.append(child)
        frontier = nxt
    return seen


def ontology_synonyms(terms: pd.DataFrame, resource: str, scopes: Iterable[str] | None = ("EXACT",)) -> pd.DataFrame:
    """Single-word synonym pairs of one terminology: two distinct single words of one active concept.

    Args:
        terms: the ``terms`` intermediate (columns concept_id, term, term_type, active, scope).
        resource: name written in the ``resource`` column.
        scopes: synonym scopes that count (``None``: all); the ``name`` (preferred) always counts.

    Returns:
        Columns ``term1, term2`` (term1 < term2), ``relation`` = "synonym", ``resource``,
        ``evidence`` = the concept id; one row per (concept, word pair), sorted.
    """
    t = terms[terms["active"]].copy()
    is_name = t["term_type"].isin(["preferred", "fsn"])
    in_scope = t["scope"].isin(list(scopes)) if scopes is not None else pd.Series(True, index=t.index)
    t = t[is_name | ((t["term_type"] == "synonym") & in_scope)]
    t["word"] = [single_word(x) for x in t["term"]]
    t = t.dropna(subset=["word"])[["concept_id", "word"]].drop_duplicates()
    t["node"] = t["word"]  # any two distinct words of the concept
    pairs = _within_groups(t, "concept_id", "word", "node")
    out = pd.DataFrame(
        {
            "term1": pairs["word1"],
            "term2": pairs["word2"],
            "relation": "synonym",
            "resource": resource,
            "evidence": pairs["concept_id"],
        }
    )
    return out.sort_values(_RELATION_COLUMNS, kind="stable", ignore_index=True)


def ontology_siblings(
    terms: pd.DataFrame, relations: pd.DataFrame, resource: str, parent_rel: str = "is_a"
) -> pd.DataFrame:
    """Single-word sibling pairs: names of two active concepts with a common direct ``is_a`` parent.

    Args:
        terms: the ``terms`` intermediate; a concept's name is its active ``preferred``/``fsn`` term.
        relations: the ``relations`` intermediate (subject_id = child, rel, object_id = parent).
        resource: name written in the ``resource`` column.
        parent_rel: the ``rel`` value of the parent relation.

    Returns:
        Columns ``term1, term2, relation`` = "sibling", ``resource``, ``evidence`` = the parent id;
        one row per (parent, word pair), sorted.
    """
    names = terms[terms["active"] & terms["term_type"].isin(["preferred", "fsn"])].copy()
    names["word"] = [single_word(x) for x in names["term"]]
    names = names.dropna(subset=["word"])[["concept_id", "word"]].drop_duplicates()
    edges = relations.loc[relations["rel"] == parent_rel, ["subject_id", "object_id"]].drop_duplicates()
    children = edges.merge(names, left_on="subject_id", right_on="concept_id")
    children = children.rename(columns={"object_id": "parent"})[["parent", "concept_id", "word"]]
    pairs = _within_groups(children, "parent", "word", "concept_id")
    out = pd.DataFrame(
        {
            "term1": pairs["word1"],
            "term2": pairs["word2"],
            "relation": "sibling",
            "resource": resource,
            "evidence": pairs["parent"],
        }
    )
    return out.drop_duplicates().sort_values(_RELATION_COLUMNS, kind="stable", ignore_index=True)


def terminology_relations(
    terms: pd.DataFrame,
    relations: pd.DataFrame,
    resource: str,
    scopes: Iterable[str] | None = ("EXACT",),
    parent_rel: str = "is_a",
    roots: Iterable[str] | None = None,
) -> pd.DataFrame:
    """Synonym and sibling pairs of one terminology, optionally restricted to subtrees.

    With ``roots`` (e.g. HPO ``HP:0000118`` Phenotypic abnormality, which leaves out the adjectives
    of the Clinical modifier branch: *mild*, *severe*, *transient*), only concepts at or below a
    root take part (a sibling pair's parent may be a root).
    """
    roots = list(roots or [])
    if roots:
        keep = subtree(relations, roots, parent_rel)
        terms = terms[terms["concept_id"].isin(keep)]
        relations = relations[relations["subject_id"].isin(keep)]
    return pd.concat(
        [
            ontology_synonyms(terms, resource, scopes),
            ontology_siblings(terms, relations, resource, parent_rel),
        ],
        ignore_index=True,
    )


def read_synonym_table(path: str | Path, resource: str) -> pd.DataFrame:
    """A two-column synonym list (``word1<TAB>word2``, ``#`` comments, no header) as relation rows.

    Multi-word entries are skipped; words are lowercased.

    Raises:
        SourceFormatError: a non-comment line without exactly two tab-separated fields.
    """
    rows = []
    with open(path, encoding="utf-8") as fh:
        for lineno, line in enumerate(fh, 1):
            line = line.rstrip("\r\n")
            if not line.strip() or line.startswith("#"):
                continue
            fields = line.split("\t")
            if len(fields) != 2:
                raise SourceFormatError(path, lineno, "two tab-separated words", line)
            a, b = single_word(fields[0]), single_word(fields[1])
            if a and b and a != b:
                rows.append((min(a, b), max(a, b), "synonym", resource, f"{Path(path).name}:{lineno}"))
    return pd.DataFrame(rows, columns=_RELATION_COLUMNS).drop_duplicates(ignore_index=True)


# --------------------------------------------------------------------------------------------------
# Lexicon variants
# --------------------------------------------------------------------------------------------------
@dataclass
class VariantSources:
    """Where variants come from (config ``simlex.resources``; SPECIALIST tables when configured)."""

    spelling: SpellingNormaliser
    lragr: pd.DataFrame | None = None  # form, lemma, pos
    lrnom: pd.DataFrame | None = None  # noun, verb
    wordnet_derivations: bool = True
    suffix_rules: bool = True
    _wordnet: Any = field(default=None, repr=False)


def _wordnet_derivations(word: str, pos: str, wn: Any) -> set[str]:
    """Single-word lemmas of the other POS linked to ``word`` by WordNet derivationally_related_forms."""
    other = "v" if pos == "noun" else "n"
    out: set[str] = set()
    for lemma in wn.lemmas(word, pos="n" if pos == "noun" else "v"):
        for related in lemma.derivationally_related_forms():
            if related.synset().pos() == other and _WORD.match(related.name().lower()):
                out.add(related.name().lower())
    return out


def _suffix_derivations(word: str, pos: str, targets: set[str]) -> set[str]:
    """Words of ``targets`` (the other POS's vocabulary) that the suffix rules derive from ``word``."""
    out = set()
    for noun_suffix, verb_suffix in NOMINALISATION_SUFFIXES:
        src, dst = (noun_suffix, verb_suffix) if pos == "noun" else (verb_suffix, noun_suffix)
        if not word.endswith(src):
            continue
        stem = word[: len(word) - len(src)] if src else word
        if len(stem) < 3:
            continue
        candidate = stem + dst
        if candidate != word and candidate in targets:
            out.add(candidate)
    return out


def _admissible(word: str, pos: str, lemmas_by_upos: Mapping[str, Any], wn: Any) -> bool:
    """Whether ``word`` can itself be a ``pos`` word: lemminflect or WordNet know it with that POS.

    A word neither knows (``hepatomegaly``) counts as a noun only; ``mild`` (an adjective to both)
    is neither, so the HPO modifier "Mild" never becomes the verb "mild" a tagger may have produced.
    """
    upos = "NOUN" if pos == "noun" else "VERB"
    if upos in lemmas_by_upos:
        return True
    if wn is not None:
        if wn.synsets(word, pos="n" if pos == "noun" else "v"):
            return True
        known = bool(lemmas_by_upos) or bool(wn.synsets(word))
    else:
        known = bool(lemmas_by_upos)
    return pos == "noun" and not known


def wordnet_synonyms(vocabulary: pd.DataFrame) -> pd.DataFrame:
    """Lexicon synonyms from WordNet: two vocabulary lemmas of one POS sharing a synset.

    The stand-in for the SPECIALIST synonyms of the paper when those are not configured. Only
    single-word lemmas of the vocabulary are paired, within their POS (``inhibit`` / ``suppress``,
    ``tumor`` / ``neoplasm``).

    Returns:
        Rows of the ``lexical_relations`` table (``pos, word1, word2``, relation "synonym", resource
        "wordnet", ``term1``/``term2`` = the words, ``evidence`` = the synset name, ``via``
        "identity"), sorted.
    """
    from nltk.corpus import wordnet as wn

    rows = []
    for pos, wn_pos in (("noun", "n"), ("verb", "v")):
        lemmas = set(vocabulary.loc[vocabulary["pos"] == pos, "lemma"])
        members: dict[str, set[str]] = {}
        for lemma in sorted(lemmas):
            for synset in wn.synsets(lemma, pos=wn_pos):
                if lemma in {n.lower() for n in synset.lemma_names()}:
                    members.setdefault(synset.name(), set()).add(lemma)
        for name, group in sorted(members.items()):
            words = sorted(group)
            for i, a in enumerate(words):
                for b in words[i + 1 :]:
                    rows.append((pos, a, b, "synonym", "wordnet", a, b, name, "identity"))
    keys = ["pos", "word1", "word2", "resource", "relation", "evidence", "term1", "term2", "via"]
    out = pd.DataFrame(
        rows,
        columns=[
            "pos",
            "word1",
            "word2",
            "relation",
            "resource",
            "term1",
            "term2",
            "evidence",
            "via",
        ],
    )
    return out.sort_values(keys, kind="stable", ignore_index=True)


def lexicon_variants(words: Iterable[str], vocabulary: pd.DataFrame, sources: VariantSources) -> pd.DataFrame:
    """Vocabulary lemmas that each resource word stands for (table ``lexicon_variants``).

    Args:
        words: lowercased single resource words.
        vocabulary: columns ``lemma, pos`` (the corpus vocabulary; only its lemmas are variants).
        sources: spelling, SPECIALIST tables and switches.

    Returns:
        Columns ``word, variant, pos, kind, source`` (kinds :data:`VARIANT_KINDS`): one row per way a
        word reaches a vocabulary lemma, sorted. A word that reaches none has no row.
    """
    vocab = {pos: set(vocabulary.loc[vocabulary["pos"] == pos, "lemma"]) for pos in ("noun", "verb")}
    lragr: dict[tuple[str, str], set[str]] = {}
    if sources.lragr is not None:
        for form, lemma, pos in sources.lragr[["form", "lemma", "pos"]].itertuples(index=False):
            lragr.setdefault((form, pos), set()).add(lemma)
    lrnom: dict[tuple[str, str], set[str]] = {}
    if sources.lrnom is not None:
        for noun, verb in sources.lrnom[["noun", "verb"]].itertuples(index=False):
            lrnom.setdefault((noun, "noun"), set()).add(verb)
            lrnom.setdefault((verb, "verb"), set()).add(noun)
    wn = None
    if sources.wordnet_derivations:
        from nltk.corpus import wordnet as wn

    rows: list[tuple[str, str, str, str, str]] = []
    for word in sorted(set(words)):
        american, spelling_source = sources.spelling.normalise(word)
        kind0 = "identity" if american == word else "spelling"
        source0 = "identity" if american == word else spelling_source
        # (form, pos, kind, source): forms of the word that may be lemmas of a POS
        forms: list[tuple[str, str, str, str]] = []
        lemmas_by_upos = getAllLemmas(american)
        for pos in ("noun", "verb"):
            if _admissible(american, pos, lemmas_by_upos, wn):
                forms.append((american, pos, kind0, source0))
            for lemma in lemmas_by_upos.get("NOUN" if pos == "noun" else "VERB", ()):
                if lemma != american:
                    forms.append((lemma.lower(), pos, "inflection", "lemminflect"))
            for lemma in sorted(lragr.get((american, pos), ())):
                if lemma != american:
                    forms.append((lemma, pos, "inflection", "specialist_lragr"))
        for form, pos, kind, source in forms:
            if form in vocab[pos]:
                rows.append((word, form, pos, kind, source))
            other = "verb" if pos == "noun" else "noun"
            derived: list[tuple[str, str]] = [(d, "specialist_lrnom") for d in sorted(lrnom.get((form, pos), ()))]
            if wn is not None:
                derived += [(d, "wordnet") for d in sorted(_wordnet_derivations(form, pos, wn))]
            if sources.suffix_rules:
                derived += [(d, "suffix_rule") for d in sorted(_suffix_derivations(form, pos, vocab[other]))]
            for d, d_source in derived:
                if d in vocab[other]:
                    rows.append((word, d, other, "derivation", d_source))
    out = pd.DataFrame(rows, columns=["word", "variant", "pos", "kind", "source"]).drop_duplicates()
    return out.sort_values(["word", "pos", "variant", "kind", "source"], kind="stable", ignore_index=True)


# --------------------------------------------------------------------------------------------------
# Resource pairs in vocabulary space
# --------------------------------------------------------------------------------------------------
def resource_pairs(relations: pd.DataFrame, variants: pd.DataFrame) -> pd.DataFrame:
    """Map resource relations onto vocabulary lemma pairs through the lexicon variants.

    Args:
        relations: columns ``term1, term2, relation, resource, evidence`` (resource words).
        variants: the ``lexicon_variants`` table.

    Returns:
        The ``lexical_relations`` table: ``pos, word1, word2`` (vocabulary lemmas of one POS,
        word1 < word2), ``relation, resource, term1, term2, evidence`` and ``via`` (the larger
        variant kind of the two words). Pairs whose two words are the same lemma are dropped
        (``tumour`` / ``tumor``). For each (word, POS, lemma) only the smallest kind is used.
    """
    rank = {k: i for i, k in enumerate(VARIANT_KINDS)}
    v = variants.assign(rank=variants["kind"].map(rank))
    v = v.sort_values("rank", kind="stable").drop_duplicates(["word", "pos", "variant"])[
        ["word", "pos", "variant", "rank"]
    ]
    a = relations.merge(v, left_on="term1", right_on="word").drop(columns="word")
    a = a.rename(columns={"variant": "variant1", "rank": "rank1"})
    b = a.merge(v, left_on=["term2", "pos"], right_on=["word", "pos"]).drop(columns="word")
    b = b.rename(columns={"variant": "variant2", "rank": "rank2"})
    b = b[b["variant1"] != b["variant2"]]
    swap = b["variant1"] > b["variant2"]
    out = pd.DataFrame(
        {
            "pos": b["pos"],
            "word1": b["variant1"].where(~swap, b["variant2"]),
            "word2": b["variant2"].where(~swap, b["variant1"]),
            "relation": b["relation"],
            "resource": b["resource"],
            "term1": b["term1"].where(~swap, b["term2"]),
            "term2": b["term2"].where(~swap, b["term1"]),
            "evidence": b["evidence"],
            "via": [VARIANT_KINDS[max(x, y)] for x, y in zip(b["rank1"], b["rank2"], strict=True)],
        }
    )
    keys = ["pos", "word1", "word2", "resource", "relation", "evidence", "term1", "term2", "via"]
    return out.drop_duplicates().sort_values(keys, kind="stable", ignore_index=True)


def params_from_config(cfg: Mapping[str, Any]) -> dict[str, Any]:
    """The switches of config ``simlex.resources`` as validated by
    ``workflow/schemas/simlex.schema.yaml`` (every key present: the schema holds the defaults)."""
    return {
        "terminologies": list(cfg["terminologies"]),
        "synonym_scopes": cfg["synonym_scopes"],
        "parent_relation": cfg["parent_relation"],
        "roots": {k: list(v) for k, v in cfg["roots"].items()},
        "wordnet_derivations": bool(cfg["wordnet_derivations"]),
        "suffix_rules": bool(cfg["suffix_rules"]),
        "wordnet_synonyms": bool(cfg["wordnet_synonyms"]),
        "synonym_tables": dict(cfg["synonym_tables"]),
    }
