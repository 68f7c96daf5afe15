"""Surface variants: when two strings are the same term written differently.

A negative pair whose two strings are one term spelled two ways ("Pancoast's tumour" / "Pancoast's
tumor") is a labelling error, not a hard negative; a rated word pair of two spellings ("apnoea" /
"apnea") measures nothing. Every family decides "same surface form" with this one normaliser
(docs/design.md § Validity; issue 37). It maps a string to a **surface key** through six cumulative
steps, each a normaliser a terminology reviewer would apply:

1. ``nfkc``: Unicode NFKC (ligatures, full-width forms, compatibility characters), whitespace runs
   collapsed, ends stripped.
2. ``case``: full Unicode case folding (``str.casefold``).
3. ``hyphen_space``: hyphens (ASCII and the Unicode hyphens and dashes) and spaces removed:
   ``"CTLA-8"`` = ``"CTLA8"``, ``"hyper-IgM"`` = ``"hyper IgM"``. The tokens between them are kept
   apart for the next steps.
4. ``apostrophe_s``: a token's possessive ``'s`` (or ``s'``) and any other apostrophe removed:
   ``"Quincke's edema"`` = ``"Quincke edema"``.
5. ``spelling``: British -> American spelling per token: breame's table (about 1,700 words with their
   inflected forms, :data:`breame.data.spelling_constants.BRITISH_ENGLISH_SPELLINGS`), then the
   biomedical spellings it misses (:data:`SPELLING_RULES`: ``oedema``, ``apnoea``,
   ``haemangioblastoma``, ``ischaemia``, ``-ise``/``-yse`` verbs …). Rules here are not gated by word
   frequency (as :class:`biosem.simlex.spelling.SpellingNormaliser`'s are when it *rewrites* a
   vocabulary): a key only decides whether two given strings are equal, and both must exist.
6. ``inflection``: each alphabetic token of at least :data:`MIN_INFLECTED_LENGTH` letters replaced by
   its noun lemma (``lemminflect``: ``"infections"`` -> ``"infection"``, ``"mice"`` -> ``"mouse"``);
   shorter tokens (``"MDs"``, ``"IgM"``) and tokens written in capitals (``"AMNS"``) are left alone,
   since their final ``s`` is seldom a plural.

Two strings are **surface variants** when their keys are equal; :meth:`SurfaceNormaliser.variant_step`
names the first step at which they become equal (``"identical"`` when the strings already are). What
the normaliser leaves apart on purpose: word order (``"Infection, Pneumocystis"``), other punctuation,
derivation (``"dosage"`` / ``"dose"``; the simlex family tests that separately) and synonymy
(``"stroke"`` / ``"cerebrovascular accident"``).
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Iterable, Sequence

import numpy as np

STEPS: tuple[str, ...] = ("nfkc", "case", "hyphen_space", "apostrophe_s", "spelling", "inflection")
"""The normalisers, in the order they are applied (each key includes the steps before it)."""

IDENTICAL = "identical"
""":meth:`SurfaceNormaliser.variant_step` of two equal strings."""

MIN_INFLECTED_LENGTH = 4
"""Tokens shorter than this are not lemmatised (``"MDs"``, ``"ms"``: abbreviations, not plurals)."""

_SEPARATORS = re.compile(r"[\s\-\u00ad\u2010-\u2015\u2212\ufe58\ufe63\uff0d]+")
"""Spaces, the ASCII hyphen-minus, the soft hyphen, U+2010–2015 (hyphens and dashes), the minus sign
and their small and full-width forms."""

_APOSTROPHES = "'\u2019\u02bc\u2018`\u00b4"
_POSSESSIVE = re.compile(rf"(?:[{_APOSTROPHES}]s|(?<=s)[{_APOSTROPHES}])$")
_APOSTROPHE = re.compile(rf"[{_APOSTROPHES}]")

SPELLING_RULES: tuple[tuple[str, str], ...] = (
    (r"haem", "hem"),  # haemangioblastoma, haematoma, haemodialysis, haemophilus
    (r"aem(?=ia|ias|ic)", "em"),  # ischaemia, hypoxaemia, septicaemia, glycaemic, hyperaemia
    (r"aemo", "emo"),
    (r"paed", "ped"),  # paediatric, orthopaedic
    (r"oe(?=soph|dem|str|cyst)", "e"),  # oesophagitis, lymphoedema, oestradiol
    (r"pnoea", "pnea"),  # apnoea, dyspnoea, tachypnoea
    (r"rrhoea", "rrhea"),  # diarrhoea, amenorrhoea
    (r"^coel", "cel"),  # coeliac
    (r"^foet", "fet"),  # foetal
    (r"^faec", "fec"),  # faecal
    (r"^caec", "cec"),  # caecum
    (r"aetiol", "etiol"),  # aetiology
    (r"gynaec", "gynec"),  # gynaecology
    (r"^caes", "ces"),  # caesarean
    (r"anaesth", "anesth"),  # anaesthetised
    (r"^leuc", "leuk"),  # leucocyte, leucaemia
    (r"sulph", "sulf"),  # sulphonamide
    (r"ogue$", "og"),  # analogue, catalogue
    (r"ogues$", "ogs"),
    (r"ys(e|ed|es|er|ers|ing)$", r"yz\1"),  # analyse, hydrolysed, catalysing, dialyser
    (r"is(ation|ations|e|ed|es|er|ers|ing)$", r"iz\1"),  # randomisation, immunised, sensitiser
    (r"tre$", "ter"),  # centre, titre, litre
    (r"tres$", "ters"),
)
"""British biomedical spellings breame's table misses, as (regex, replacement) on a lowercased token,
all applied in order. Documented here because breame is a general-English table (checked: it has
``oesophagus``, ``anaemia`` and ``tumour`` but not ``oedema``, ``apnoea``, ``haematoma``,
``ischaemia``, ``coeliac``, ``leucocyte`` or ``haemangioblastoma``)."""

_RULES = tuple((re.compile(pattern), replacement) for pattern, replacement in SPELLING_RULES)


@functools.cache
def _breame_table() -> dict[str, str]:
    from breame.data.spelling_constants import BRITISH_ENGLISH_SPELLINGS

    return dict(BRITISH_ENGLISH_SPELLINGS)


@functools.lru_cache(maxsize=1 << 18)
def american_token(token: str) -> str:
    """The American spelling of one lowercased token (breame's table, then :data:`SPELLING_RULES`)."""
    mapped = _breame_table().get(token)
    if mapped:
        return mapped
    for pattern, replacement in _RULES:
        token = pattern.sub(replacement, token)
    return token


_SINGULAR_ENDINGS = ("sis", "xis", "us", "ss")
"""Endings of singular nouns that lemminflect's out-of-vocabulary rules would cut as plurals
(``"fibrosis"`` -> ``"fibrosi"``, ``"virus"`` -> ``"viru"``): such tokens are kept."""


@functools.lru_cache(maxsize=1 << 18)
def lemma_token(token: str) -> str:
    """The noun lemma of one lowercased token (lemminflect's first lemma, its out-of-vocabulary
    rules included); tokens shorter than :data:`MIN_INFLECTED_LENGTH` or not purely alphabetic are
    returned unchanged, as are singulars ending like plurals (:data:`_SINGULAR_ENDINGS`)."""
    if len(token) < MIN_INFLECTED_LENGTH or not token.isalpha() or token.endswith(_SINGULAR_ENDINGS):
        return token
    from lemminflect import getLemma

    lemmas = getLemma(token, upos="NOUN")
    return lemmas[0] if lemmas else token


class SurfaceNormaliser:
    """Surface keys of strings (see the module docstring); keys are cached per string.

    Args:
        steps: the steps applied: the first ``k`` of :data:`STEPS` (default all six; ``STEPS[:2]``
            compares NFKC and case only).

    Raises:
        ValueError: ``steps`` is not a non-empty prefix of :data:`STEPS`.
    """

    def __init__(self, steps: Sequence[str] = STEPS) -> None:
        if not steps or tuple(steps) != STEPS[: len(steps)]:
            raise ValueError(f"surface normaliser steps must be a prefix of {', '.join(STEPS)}; got {list(steps)}")
        self.steps: tuple[str, ...] = tuple(steps)
        self._cache: dict[str, tuple[str, ...]] = {}

    def keys(self, text: str) -> tuple[str, ...]:
        """The key after each of :attr:`steps`, in order (the last is :meth:`key`)."""
        hit = self._cache.get(text)
        if hit is None:
            hit = self._cache[text] = self._keys(text)
        return hit

    def key(self, text: str) -> str:
        """The surface key of ``text`` (all :attr:`steps` applied)."""
        keys = self.keys(text)
        return keys[-1] if keys else text

    def key_array(self, texts: Iterable[str]) -> np.ndarray:
        """The keys of many strings as an object array (each distinct string normalised once)."""
        import pandas as pd

        codes, unique = pd.factorize(pd.Series(list(texts), dtype=object))
        keys = np.array([self.key(t) for t in unique], dtype=object)
        return keys[codes] if len(codes) else np.array([], dtype=object)

    def variant_step(self, a: str, b: str) -> str | None:
        """The first step after which ``a`` and ``b`` have equal keys, :data:`IDENTICAL` if ``a == b``,
        ``None`` if they stay different (not surface variants)."""
        if a == b:
            return IDENTICAL
        for step, key_a, key_b in zip(self.steps, self.keys(a), self.keys(b), strict=True):
            if key_a == key_b:
                return step
        return None

    def is_variant(self, a: str, b: str) -> bool:
        """Whether ``a`` and ``b`` are the same term written differently (equal keys)."""
        return self.key(a) == self.key(b)

    def _keys(self, text: str) -> tuple[str, ...]:
        n = len(self.steps)
        value = " ".join(unicodedata.normalize("NFKC", text).split())
        out = [value]
        if n > 1:
            value = value.casefold()
            out.append(value)
        if n > 2:
            tokens = [t for t in _SEPARATORS.split(value) if t]
            out.append("".join(tokens))
            if n > 3:
                tokens = [_strip_apostrophes(t) for t in tokens]
                out.append("".join(tokens))
            if n > 4:
                tokens = [american_token(t) for t in tokens]
                out.append("".join(tokens))
            if n > 5:
                # an abbreviation written in capitals keeps its final "s" ("AMNS" is not "AMN"s)
                capitals = [t.isupper() for t in _SEPARATORS.split(out[0]) if t]
                if len(capitals) != len(tokens):  # case folding never adds separators; kept as a guard
                    capitals = [False] * len(tokens)
                tokens = [t if upper else lemma_token(t) for t, upper in zip(tokens, capitals)]
                out.append("".join(tokens))
        return tuple(out[:n])


def _strip_apostrophes(token: str) -> str:
    return _APOSTROPHE.sub("", _POSSESSIVE.sub("", token))


@functools.cache
def default_normaliser() -> SurfaceNormaliser:
    """The process-wide normaliser with every step (its key cache is shared by callers)."""
    return SurfaceNormaliser()


def surface_key(text: str) -> str:
    """:meth:`SurfaceNormaliser.key` of the default normaliser."""
    return default_normaliser().key(text)


def variant_step(a: str, b: str) -> str | None:
    """:meth:`SurfaceNormaliser.variant_step` of the default normaliser."""
    return default_normaliser().variant_step(a, b)


def variant_mask(a: Sequence[str], b: Sequence[str], normaliser: SurfaceNormaliser | None = None) -> np.ndarray:
    """Boolean array: ``a[i]`` and ``b[i]`` are surface variants (equal keys; equal strings included).

    Raises:
        ValueError: ``a`` and ``b`` differ in length.
    """
    if len(a) != len(b):
        raise ValueError(f"variant_mask needs aligned sequences; got {len(a)} and {len(b)} strings")
    norm = normaliser or default_normaliser()
    return np.asarray(norm.key_array(a) == norm.key_array(b), dtype=bool).reshape(len(a))


__all__ = [
    "IDENTICAL",
    "MIN_INFLECTED_LENGTH",
    "SPELLING_RULES",
    "STEPS",
    "SurfaceNormaliser",
    "american_token",
    "default_normaliser",
    "lemma_token",
    "surface_key",
    "variant_mask",
    "variant_step",
]
