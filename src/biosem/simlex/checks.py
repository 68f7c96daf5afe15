"""Validity checks of the simlex pair sets (Bio-SimLex nouns, Bio-SimVerb verbs): rows of ``validity.tsv``.

What a reviewer checks first (docs/design.md § Validity; issue 37), per dataset and, where useful, per
quarter (``stratum``):

* ``wrong_pos_pairs``: share of pairs with a word that is a number or that WordNet knows only with
  other parts of speech (:func:`word_pos_flag`: a verb pair holds no noun-, adjective- or adverb-only
  word such as *warfarin*, *offspring*, *acute*; a noun pair no adjective- or adverb-only word such
  as *ventricular*). Pass ``<= 0.03``: the published Bio-SimVerb's level (2.3 % of its pairs: *genotype*,
  *pellet*, *aliquot*; Bio-SimLex 1.4 %: *alkaline*, *carotid*, *million*). WordNet is evidence, not the
  gate: a word it does not know (*phosphorylate*) is not flagged.
* ``weak_pos_evidence_pairs`` (info): share of pairs with a word tagged with the dataset's POS in
  fewer than ``strong_pos_share`` of its corpus tokens ("tagged as verbs in most of their corpus
  occurrences"), or absent from the corpus counts; the corpus POS share is ``pos_tokens /
  evidence_tokens`` of the ``word_counts`` intermediate.
* ``surface_variant_pairs``: pairs whose two words are one word written differently
  (:func:`biosem.validity.surface_variant_check`: British / American spelling, inflection). Pass ``== 0``.
* ``derivational_variant_pairs``: pairs of two forms of one stem (:mod:`biosem.simlex.variants`: a
  Porter stem, a WordNet derivation, a shared prefix: *stimulant* / *stimulation*, *dosage* / *dose*,
  *neoplasia* / *neoplasm*). Pass ``== 0``.
* ``duplicate_pairs``: :func:`biosem.validity.duplicate_check`. Pass ``== 0``.
* ``published_wrong_pos_pairs`` and ``published_derivational_variant_pairs`` (info): the same measures
  on the published Bio-SimLex / Bio-SimVerb, for comparison (the latter is the variant test's false
  positive count, since the published sets hold no variant pairs).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence

import pandas as pd

from biosem.simlex.evidence import is_number_word, wordnet_pos
from biosem.simlex.schemas import POS_OF_DATASET, QUARTERS
from biosem.simlex.variants import VariantParams, variant_kind
from biosem.surface import STEPS
from biosem.validity import Check, check, duplicate_check, surface_variant_check

MAX_WRONG_POS_SHARE = 0.03
"""Pass threshold of ``wrong_pos_pairs``: the published Bio-SimVerb's share (23 of 1,000 pairs)."""

SIMLEX_CHECKS: dict[str, str] = {
    "wrong_pos_pairs": "share of pairs with a number or a word WordNet knows only with other parts of speech",
    "weak_pos_evidence_pairs": "share of pairs with a word tagged with the POS in less than the strong share "
    "of its corpus tokens",
    "surface_variant_pairs": "pairs whose two words are one word written differently (biosem.surface)",
    "derivational_variant_pairs": "pairs of two forms of one stem (Porter stem, WordNet derivation, shared prefix)",
    "duplicate_pairs": "pairs that repeat another pair of the dataset (unordered)",
    "published_wrong_pos_pairs": "wrong_pos_pairs of the published Bio-SimLex / Bio-SimVerb",
    "published_derivational_variant_pairs": "derivational_variant_pairs of the published Bio-SimLex / Bio-SimVerb",
}
"""The simlex checks and what their value measures."""


def word_pos_flag(word: str, pos: str) -> str | None:
    """Why a dataset word fails the part-of-speech check, or ``None``.

    ``"number"``: a number (:func:`biosem.simlex.evidence.is_number_word`: *twelve*, *million*);
    ``"wordnet_other_pos"``: WordNet knows it, and only as other parts of speech: for a verb, only as
    a noun, adjective or adverb (*warfarin*, *genotype*, *acute*); for a noun, only as an adjective or
    adverb (*ventricular*; a gerund WordNet has as a verb, such as *blotting*, is not flagged).

    Args:
        word: a lowercased lemma; pos: noun|verb.

    Raises:
        ValueError: an unknown ``pos``.
    """
    if pos not in ("noun", "verb"):
        raise ValueError(f"pos must be noun or verb, not {pos!r}")
    if is_number_word(word):
        return "number"
    known = wordnet_pos(word)
    if known and pos not in known and (pos == "verb" or "verb" not in known):
        return "wordnet_other_pos"
    return None


def _share(flags: Sequence[bool]) -> float:
    return round(sum(flags) / len(flags), 6) if flags else 0.0


def _pair_flags(word1: Sequence[str], word2: Sequence[str], pos: str) -> tuple[list[bool], Counter, list[str]]:
    """Per pair: whether a word fails :func:`word_pos_flag`; counts per reason; a few examples."""
    flags, reasons, examples = [], Counter(), []
    for a, b in zip(word1, word2, strict=True):
        hits = [(w, r) for w in (a, b) if (r := word_pos_flag(w, pos))]
        flags.append(bool(hits))
        for w, r in hits:
            reasons[r] += 1
            if len(examples) < 5:
                examples.append(f"{a} / {b} ({w}: {r})")
    return flags, reasons, examples


def _detail(n: int, flags: Sequence[bool], reasons: Counter, examples: Sequence[str]) -> str:
    head = f"n={n}; pairs flagged: {sum(flags)}"
    parts = [head, ", ".join(f"{k}: {v}" for k, v in sorted(reasons.items())), "; ".join(examples)]
    return "; ".join(p for p in parts if p)


def pos_share_table(word_counts: pd.DataFrame) -> dict[tuple[str, str], float]:
    """(lemma, POS) -> corpus POS share (``pos_tokens / evidence_tokens``, 0-1) of a ``word_counts`` table."""
    share = word_counts["pos_tokens"] / word_counts["evidence_tokens"].where(word_counts["evidence_tokens"] > 0)
    return dict(zip(zip(word_counts["lemma"], word_counts["pos"], strict=True), share.fillna(0.0), strict=True))


def derivational_check(
    word1: Sequence[str], word2: Sequence[str], dataset: str, name: str, threshold: str = "== 0",
    stratum: str = "", params: VariantParams | None = None,
) -> Check:  # fmt: skip
    """Count of pairs that are variants by a stem, WordNet or prefix test but no surface variants
    (:func:`biosem.simlex.variants.variant_kind`); the detail counts per test and shows examples."""
    kinds = [variant_kind(a, b, params) for a, b in zip(word1, word2, strict=True)]
    hits = [(a, b, k) for a, b, k in zip(word1, word2, kinds, strict=True) if k and k not in (*STEPS, "identical")]
    per = Counter(k for _, _, k in hits)
    detail = "; ".join(
        x
        for x in (
            ", ".join(f"{k}: {v}" for k, v in sorted(per.items())),
            "; ".join(f"{a!r} / {b!r} ({k})" for a, b, k in hits[:5]),
        )
        if x
    )
    return check(dataset, name, len(hits), threshold, stratum, detail)


def simlex_validity(
    pairs: Mapping[str, pd.DataFrame],
    word_counts: pd.DataFrame,
    published: Mapping[str, pd.DataFrame] | None = None,
    strong_pos_share: float = 0.5,
    variants: VariantParams | None = None,
) -> list[Check]:
    """The validity rows of the simlex pair sets (see the module docstring for each check).

    Args:
        pairs: dataset name (``nouns`` | ``verbs``) -> its ``simlex_pairs`` table (columns ``word1,
            word2, quarter``).
        word_counts: the ``word_counts`` intermediate (``lemma, pos, pos_tokens, evidence_tokens``).
        published: dataset name -> the published pairs (columns ``word1, word2``: Bio-SimLex for
            nouns, Bio-SimVerb for verbs); a dataset without one gets no ``published_*`` rows.
        strong_pos_share: the corpus POS share below which a word's evidence is weak (config
            ``simlex.vocabulary.min_tag_share``).
        variants: the variant tests (config ``simlex.pairs``).

    Returns:
        :class:`biosem.validity.Check` rows, datasets in the order given; per dataset the whole set
        (stratum empty) then each quarter present, then the published rows.

    Raises:
        ValueError: a dataset name other than ``nouns`` / ``verbs``.
    """
    published = published or {}
    shares = pos_share_table(word_counts)
    out: list[Check] = []
    for dataset, table in pairs.items():
        if dataset not in POS_OF_DATASET:
            raise ValueError(f"simlex datasets are {sorted(POS_OF_DATASET)}, not {dataset!r}")
        pos = POS_OF_DATASET[dataset]
        strata = [("", table)] + [(q, table[table["quarter"] == q]) for q in QUARTERS if (table["quarter"] == q).any()]
        for stratum, part in strata:
            a, b = part["word1"].tolist(), part["word2"].tolist()
            flags, reasons, examples = _pair_flags(a, b, pos)
            out.append(
                check(
                    dataset,
                    "wrong_pos_pairs",
                    _share(flags),
                    f"<= {MAX_WRONG_POS_SHARE}" if not stratum else "",
                    stratum,
                    _detail(len(a), flags, reasons, examples),
                )
            )
            weak = [
                min(shares.get((x, pos), 0.0), shares.get((y, pos), 0.0)) < strong_pos_share
                for x, y in zip(a, b, strict=True)
            ]
            shown = [f"{x} / {y}" for x, y, w in zip(a, b, weak, strict=True) if w][:5]
            out.append(
                check(
                    dataset,
                    "weak_pos_evidence_pairs",
                    _share(weak),
                    "",
                    stratum,
                    f"n={len(a)}; pairs with a word tagged {pos} in < {strong_pos_share:g} of its tokens: "
                    f"{sum(weak)}" + (f"; {'; '.join(shown)}" if shown else ""),
                )
            )
            if stratum:
                continue
            out.append(surface_variant_check(a, b, dataset, name="surface_variant_pairs"))
            out.append(derivational_check(a, b, dataset, "derivational_variant_pairs", params=variants))
            out.append(duplicate_check(a, b, dataset))
        reference = published.get(dataset)
        if reference is not None:
            a, b = reference["word1"].tolist(), reference["word2"].tolist()
            flags, reasons, examples = _pair_flags(a, b, pos)
            out.append(
                check(
                    dataset,
                    "published_wrong_pos_pairs",
                    _share(flags),
                    "",
                    "",
                    _detail(len(a), flags, reasons, examples),
                )
            )
            out.append(
                derivational_check(a, b, dataset, "published_derivational_variant_pairs", threshold="", params=variants)
            )
    return out


__all__ = [
    "MAX_WRONG_POS_SHARE",
    "SIMLEX_CHECKS",
    "derivational_check",
    "pos_share_table",
    "simlex_validity",
    "word_pos_flag",
]
