"""Variant pairs: two words of a simlex pair that are one word written or derived differently.

A rated pair of two spellings (``apnoea`` / ``apnea``) or of two forms of one stem (``stimulant`` /
``stimulation``, ``dosage`` / ``dose``, ``neoplasia`` / ``neoplasm``) measures morphology, not
similarity; the published Bio-SimLex and Bio-SimVerb hold none (issue 37). A pair is a **variant
pair** when the first of these tests that holds names it (:func:`variant_kind`):

1. a surface step of :mod:`biosem.surface` (``identical``, ``case``, ..., ``spelling``,
   ``inflection``): the normaliser every family shares, with its ungated British -> American rules;
2. ``porter`` (or another configured NLTK stemmer: ``snowball``, ``lancaster``): equal stems of the
   American spellings (``stimulant`` / ``stimulation`` -> ``stimul``; ``transplant`` /
   ``transplantation``);
3. ``wordnet``: WordNet links the two words by a derivation (lemma-level
   ``derivationally_related_forms`` or ``pertainyms``), directly (``dosage`` / ``dose``, ``stimulus``
   / ``stimulant``, ``mutation`` / ``mutant``) or through a word both derive from (``stimulation`` /
   ``stimulus`` via *stimulate*), and they share at least their first :data:`WORDNET_MIN_PREFIX`
   letters (not ``motion`` / ``movement`` via *move*, nor ``grain`` / ``cereal``);
4. ``common_prefix``: the words differ only in their endings: a common prefix of at least
   ``min_prefix`` letters (5) covering at least ``prefix_share`` (0.8) of the shorter word, with an
   ending of two or more letters on one side (``neoplasia`` / ``neoplasm``, ``phenobarbital`` /
   ``phenobarbitone``; not ``attach`` / ``attack``, which differ in one letter each).

False positives on the published sets (checked; 988 Bio-SimLex and 1,000 Bio-SimVerb pairs, which hold
no variant pairs by the reviewer's reading): the surface steps 0, Porter 0 (Snowball 0; Lancaster
would flag *paleness* / *pallor* and *filter* / *filtrate*), the common-prefix rule 0, WordNet 1 in
each (*paleness* / *pallor*; *filter* / *filtrate*, a genuine derivation): 0.1 %.
"""

from __future__ import annotations

import functools
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from biosem.surface import american_token, default_normaliser

STEMMERS = ("porter", "snowball", "lancaster")
"""NLTK stemmers a variant test may use (``PorterStemmer``, ``SnowballStemmer("english")``,
``LancasterStemmer``)."""

WORDNET_MIN_PREFIX = 3
"""Two words derived from one WordNet lemma are variants only if they share this many first letters."""


@dataclass(frozen=True)
class VariantParams:
    """Which tests make a variant pair (config ``simlex.pairs``: ``exclude_variants``,
    ``variant_stemmers``, ``variant_wordnet``, ``variant_min_prefix``, ``variant_prefix_share``).

    Args:
        stemmers: names from :data:`STEMMERS` (empty: no stem test).
        wordnet: the WordNet derivation test.
        min_prefix, prefix_share: the common-prefix test (``prefix_share`` ``None``: off).
    """

    stemmers: tuple[str, ...] = ("porter",)
    wordnet: bool = True
    min_prefix: int = 5
    prefix_share: float | None = 0.8

    @classmethod
    def from_config(cls, pairs: Mapping[str, Any]) -> VariantParams:
        """From the ``variant_*`` keys of config ``simlex.pairs`` (others are ignored)."""
        return cls(
            stemmers=tuple(pairs["variant_stemmers"]),
            wordnet=bool(pairs["variant_wordnet"]),
            min_prefix=int(pairs["variant_min_prefix"]),
            prefix_share=pairs["variant_prefix_share"],
        )


@functools.cache
def _stemmer(name: str) -> Any:
    from nltk.stem import LancasterStemmer, PorterStemmer, SnowballStemmer

    if name == "porter":
        return PorterStemmer()
    if name == "snowball":
        return SnowballStemmer("english")
    if name == "lancaster":
        return LancasterStemmer()
    raise ValueError(f"unknown stemmer {name!r}: one of {', '.join(STEMMERS)}")


@functools.cache
def _stem(name: str, word: str) -> str:
    return _stemmer(name).stem(word)


@functools.lru_cache(maxsize=1 << 16)
def derivational_family(word: str) -> frozenset[str]:
    """``word`` and the lowercased names of the lemmas WordNet links to its lemmas by
    ``derivationally_related_forms`` or ``pertainyms`` (one step; any POS)."""
    from nltk.corpus import wordnet as wn

    out = {word}
    for lemma in wn.lemmas(word):
        for related in (*lemma.derivationally_related_forms(), *lemma.pertainyms()):
            out.add(related.name().lower())
    return frozenset(out)


def wordnet_derivation(a: str, b: str) -> bool:
    """Whether WordNet relates ``a`` and ``b`` by a derivation (see the module docstring, test 3)."""
    if len(os.path.commonprefix([a, b])) < WORDNET_MIN_PREFIX:
        return False
    fa, fb = derivational_family(a), derivational_family(b)
    return a in fb or b in fa or bool(fa & fb)


def common_prefix_variant(a: str, b: str, min_prefix: int = 5, prefix_share: float = 0.8) -> bool:
    """Whether ``a`` and ``b`` differ only in their endings (see the module docstring, test 4)."""
    prefix = len(os.path.commonprefix([a, b]))
    shorter = min(len(a), len(b))
    return prefix >= min_prefix and prefix >= prefix_share * shorter and max(len(a), len(b)) - prefix >= 2


def variant_kind(a: str, b: str, params: VariantParams | None = None) -> str | None:
    """The test that makes ``a`` / ``b`` a variant pair (module docstring), or ``None``.

    Args:
        a, b: lowercased words (lemmas).
        params: which tests run (default :class:`VariantParams`).

    Returns:
        A step of :data:`biosem.surface.STEPS` or ``identical``; a stemmer's name; ``wordnet``;
        ``common_prefix``; ``None`` when the words are not variants.

    Raises:
        ValueError: an unknown stemmer name.
    """
    params = params or VariantParams()
    step = default_normaliser().variant_step(a, b)
    if step is not None:
        return step
    x, y = american_token(a), american_token(b)
    for name in params.stemmers:
        if _stem(name, x) == _stem(name, y):
            return name
    if params.wordnet and wordnet_derivation(x, y):
        return "wordnet"
    if params.prefix_share is not None and common_prefix_variant(x, y, params.min_prefix, params.prefix_share):
        return "common_prefix"
    return None


def variant_kinds(a: Sequence[str], b: Sequence[str], params: VariantParams | None = None) -> list[str | None]:
    """:func:`variant_kind` of aligned pairs.

    Raises:
        ValueError: ``a`` and ``b`` differ in length.
    """
    if len(a) != len(b):
        raise ValueError(f"variant_kinds needs aligned sequences; got {len(a)} and {len(b)} words")
    return [variant_kind(x, y, params) for x, y in zip(a, b, strict=True)]


__all__ = [
    "STEMMERS",
    "WORDNET_MIN_PREFIX",
    "VariantParams",
    "common_prefix_variant",
    "derivational_family",
    "variant_kind",
    "variant_kinds",
    "wordnet_derivation",
]
