"""Annotation survey design (SimLex-999 protocol, Hill et al. 2015; Chiu et al. 2018, § Annotation).

From the pairs of one POS (Bio-SimLex nouns or Bio-SimVerb verbs):

* a **consistency set** of ``consistency_pairs`` pairs (paper: 50), drawn across the quarters in
  proportion to their sizes; every rater sees all of them, so they calibrate raters (SimLex bias
  correction) and measure agreement across groups;
* the other pairs dealt to ``groups`` groups (paper: 2) quarter by quarter, so every group has the
  same mix of quarters; each pair is ``unique`` to one group;
* each group in pages of at most ``unique_per_page`` unique pairs (paper: 100), with the
  consistency set spread over its pages (paper: 10 per page) and ``duplicates_per_page`` repeats
  (paper: 10) of unique pairs the rater saw on the previous page (page 1 repeats pairs of the last
  page; a one-page group repeats its own), for per-rater consistency. With 1,050 pairs this gives
  two groups of 600 items in five pages of 120 (100 + 10 + 10); with fewer pairs pages are smaller
  (the unique pairs are spread evenly over ``ceil(unique / unique_per_page)`` pages).

Orders are seeded (``biosem.seeds.generator(seed, "simlex_survey", survey)``): the consistency
draw, the dealing to groups, the pages, the duplicates and the order within each page.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from biosem.simlex.schemas import QUARTERS


@dataclass(frozen=True)
class SurveyParams:
    """Survey design parameters (config ``simlex.survey``; defaults = Chiu et al. 2018)."""

    groups: int = 2
    consistency_pairs: int = 50
    unique_per_page: int = 100
    duplicates_per_page: int = 10
    raters_per_group: int = 6
    scale_min: int = 0
    scale_max: int = 6
    identical_run_warning: int = 10
    dont_know: bool = False


def _proportional(sizes: list[int], total: int) -> list[int]:
    """Largest-remainder allocation of ``total`` over ``sizes`` (ties to the earlier entry)."""
    whole = sum(sizes)
    if whole == 0:
        return [0] * len(sizes)
    quotas = [total * s / whole for s in sizes]
    out = [min(math.floor(q), s) for q, s in zip(quotas, sizes, strict=True)]
    remainders = sorted(range(len(sizes)), key=lambda i: (-(quotas[i] - out[i]), i))
    k = 0
    while sum(out) < total and k < 10 * len(sizes):
        i = remainders[k % len(sizes)]
        if out[i] < sizes[i]:
            out[i] += 1
        k += 1
    return out


def design_survey(pairs: pd.DataFrame, survey: str, params: SurveyParams, rng: np.random.Generator) -> pd.DataFrame:
    """Lay out the survey sheets of one POS.

    Args:
        pairs: ``simlex_pairs`` rows (pair_id, word1, word2, quarter), in their output order.
        survey: ``nouns`` or ``verbs`` (written in ``survey`` and item ids).
        params: design parameters.
        rng: the seeded generator.

    Returns:
        The ``survey_items`` table: one row per item shown (``group, page, position`` 1-based,
        ``item_id`` = ``<survey>-g<group>-p<page>-<position>``, ``pair_id``, ``role``
        unique|consistency|duplicate, ``word1``, ``word2``), sorted by group, page, position.

    Raises:
        ValueError: fewer pairs than the consistency set plus one unique pair per group, or a
            non-positive group count or page size.
    """
    if params.groups < 1 or params.unique_per_page < 1:
        raise ValueError("simlex.survey.groups and unique_per_page must be positive")
    n = len(pairs)
    if n < params.consistency_pairs + params.groups:
        raise ValueError(
            f"{survey}: {n} pairs cannot fill a consistency set of {params.consistency_pairs} plus "
            f"{params.groups} groups; lower simlex.survey.consistency_pairs"
        )
    pairs = pairs.reset_index(drop=True)
    by_quarter = [np.flatnonzero((pairs["quarter"] == q).to_numpy()) for q in QUARTERS]
    others = np.flatnonzero(~pairs["quarter"].isin(QUARTERS).to_numpy())
    if len(others):
        by_quarter.append(others)
    take = _proportional([len(ix) for ix in by_quarter], params.consistency_pairs)
    consistency: list[int] = []
    rest: list[list[int]] = []
    for ix, k in zip(by_quarter, take, strict=True):
        order = ix[rng.permutation(len(ix))]
        consistency += order[:k].tolist()
        rest.append(order[k:].tolist())
    consistency = sorted(consistency)
    dealt: list[list[int]] = [[] for _ in range(params.groups)]
    turn = 0
    for block in rest:  # quarter by quarter, round robin: groups get the same mix
        for idx in block:
            dealt[turn % params.groups].append(idx)
            turn += 1

    rows: list[tuple[Any, ...]] = []
    for g, unique in enumerate(dealt, 1):
        unique = [unique[i] for i in rng.permutation(len(unique))]
        n_pages = max(1, math.ceil(len(unique) / params.unique_per_page))
        pages = [list(p) for p in np.array_split(np.array(unique, dtype=int), n_pages)]
        cons_pages = [
            list(p)
            for p in np.array_split(np.array(consistency, dtype=int)[rng.permutation(len(consistency))], n_pages)
        ]
        for p, page_unique in enumerate(pages):
            source = pages[(p - 1) % n_pages] if n_pages > 1 else page_unique
            k = min(params.duplicates_per_page, len(source))
            dups = [source[i] for i in sorted(rng.choice(len(source), size=k, replace=False).tolist())] if k else []
            items = [(i, "unique") for i in page_unique] + [(i, "consistency") for i in cons_pages[p]]
            items += [(i, "duplicate") for i in dups]
            order = rng.permutation(len(items))
            for position, j in enumerate(order, 1):
                idx, role = items[j]
                rows.append(
                    (
                        survey,
                        g,
                        p + 1,
                        position,
                        f"{survey}-g{g}-p{p + 1:02d}-{position:03d}",
                        pairs.at[idx, "pair_id"],
                        role,
                        pairs.at[idx, "word1"],
                        pairs.at[idx, "word2"],
                    )
                )
    return pd.DataFrame(
        rows,
        columns=[
            "survey",
            "group",
            "page",
            "position",
            "item_id",
            "pair_id",
            "role",
            "word1",
            "word2",
        ],
    )


def design_table(items: pd.DataFrame) -> pd.DataFrame:
    """Items per group and page by role: columns survey, group, page, unique, consistency, duplicate, items."""
    counts = items.pivot_table(
        index=["survey", "group", "page"],
        columns="role",
        values="item_id",
        aggfunc="count",
        fill_value=0,
    )
    counts = counts.reindex(columns=["unique", "consistency", "duplicate"], fill_value=0).reset_index()
    counts["items"] = counts[["unique", "consistency", "duplicate"]].sum(axis=1)
    counts.columns.name = None
    return counts


_WORD_CLASS = {
    "nouns": (
        "nouns",
        "*tumor* and *neoplasm*",
        "*insulin* and *diabetes*",
        "*car* and *automobile*",
        "*cup* and *coffee*",
    ),
    "verbs": (
        "verbs",
        "*inhibit* and *suppress*",
        "*diagnose* and *treat*",
        "*begin* and *start*",
        "*cook* and *eat*",
    ),
}


def instructions(survey: str, params: SurveyParams, page_items: int) -> str:
    """Annotator instructions (Markdown) following the SimLex-999 / SimVerb-3500 protocol.

    Raters judge *similarity* (how alike the meanings are), not *relatedness* or association, on a
    0–6 scale; the ratings are later rescaled to 0–10 (Chiu et al. 2018). ``page_items`` is the
    largest page of the design (items shown per page).
    """
    word_class, similar_bio, related_bio, similar_gen, related_gen = _WORD_CLASS.get(
        survey, (survey,) + _WORD_CLASS["nouns"][1:]
    )
    lo, hi = params.scale_min, params.scale_max
    return f"""# Word similarity survey: {word_class}

Thank you for taking part. You will see pairs of English {word_class}, some from biomedicine and some
from everyday language. For each pair, rate **how similar the two words are in meaning** on a scale
from {lo} (no similarity at all) to {hi} (the same meaning).

## Similarity, not relatedness

Two words are similar when their meanings are alike: one could often stand in for the other, as
with {similar_bio}, or {similar_gen}. Words can be strongly *related* or *associated* without being
similar: {related_bio} belong together, and so do {related_gen}, yet their meanings differ. Rate
such pairs **low**. Only the likeness of meaning counts, not whether the words occur together or
one brings the other to mind.

* Give {hi} to words that mean the same, low ratings to words that are merely related, and {lo} to
  words whose meanings have nothing in common.
* Use the whole scale. There are no right answers: we want your own judgement.
* If a word has several meanings, rate the pair by the meanings that make the two words most alike.
* If you do not know a word, rate the pair as well as you can; please do not look words up.

## The survey

You are in one of {params.groups} groups; each pair of your group is rated by {params.raters_per_group}
participants. The pairs come in pages of up to {page_items}. A few pairs are rated by every
participant, and some pairs appear twice on purpose: rate every occurrence on its own. The form
warns you when you give the same rating to {params.identical_run_warning} pairs in a row; please
check then that you are still reading each pair.
"""


def params_from_config(cfg: dict[str, Any]) -> SurveyParams:
    """SurveyParams from config ``simlex.survey``."""
    known = set(SurveyParams.__dataclass_fields__)
    return SurveyParams(**{k: v for k, v in cfg.items() if k in known})
