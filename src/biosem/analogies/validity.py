"""Validity measures of a built analogy dataset (docs/design.md § Validity: "abbreviation counts for
analogies"; issue 37).

:func:`abbreviation_counts`: the share of the analogy terms whose corpus frequency came from lowercased
matches of a string written in capitals. BMASS (Newman-Griffis et al. 2017, § 3) lowercases every
string before counting, so DOID's "CAN" (Crouzon syndrome with acanthosis nigricans) was counted 337
times as the verb *can* and made its concept usable. After issue 37 such strings are counted with their
case (:mod:`biosem.analogies.matching`), so the measure is 0 on the default build; a dataset built
with the paper's counting (``presets/bmass-2017.yaml``) shows how many of its terms rest on
lowercased abbreviations. :func:`analogy_validity` puts it, with the other checks of an analogy
dataset, into the rows of the family's ``validity.tsv`` (:mod:`biosem.validity`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import pandas as pd

from biosem.analogies.frequency import normalise
from biosem.surface import default_normaliser
from biosem.validity import Check, check

ABBREVIATION_COUNT_THRESHOLD = 0.0
"""The largest acceptable :attr:`AbbreviationCounts.value` (a reviewer accepts none)."""


@dataclass(frozen=True)
class AbbreviationCounts:
    """Analogy terms counted by lowercasing an all-capitals string.

    ``value`` = ``count`` / ``total`` (0.0 when ``total`` is 0): ``total`` distinct (concept id, term)
    pairs that appear in the analogies (a, c, every b and d), ``count`` of them written in capitals and
    counted lowercased, ``examples`` up to five such terms (``"CAN (DOID:0111161)"``), sorted.
    """

    value: float
    count: int
    total: int
    examples: tuple[str, ...]

    @property
    def passed(self) -> bool:
        """True when ``value`` <= :data:`ABBREVIATION_COUNT_THRESHOLD`."""
        return self.value <= ABBREVIATION_COUNT_THRESHOLD


def all_capitals(term: str) -> bool:
    """True when every cased letter of ``term`` is upper case and it has at least two (``"CAN"``,
    ``"IL-2"``, ``"A-DNA"``; not ``"A"``, ``"IgM"``, ``"Crohn disease"``)."""
    return term.isupper() and sum(ch.isupper() for ch in term) >= 2


def analogy_terms(analogies: pd.DataFrame) -> pd.DataFrame:
    """The distinct (concept_id, term) pairs of an analogy dataset (columns ``a_id, a_term, b_ids,
    b_terms, c_id, c_term, d_ids, d_terms``; :data:`~biosem.analogies.schemas.ANALOGIES`), sorted."""
    pairs = [
        analogies[["a_id", "a_term"]].set_axis(["concept_id", "term"], axis=1),
        analogies[["c_id", "c_term"]].set_axis(["concept_id", "term"], axis=1),
    ]
    for ids, terms in (("b_ids", "b_terms"), ("d_ids", "d_terms")):
        flat = analogies[[ids, terms]].explode([ids, terms]).dropna()
        pairs.append(flat.set_axis(["concept_id", "term"], axis=1))
    out = pd.concat(pairs, ignore_index=True).astype(str).drop_duplicates()
    return out.sort_values(["concept_id", "term"], kind="stable").reset_index(drop=True)


def abbreviation_counts(analogies: pd.DataFrame, term_counts: pd.DataFrame) -> AbbreviationCounts:
    """The abbreviation-count validity measure of one analogy dataset (module docstring).

    Args:
        analogies: an analogy dataset (:data:`~biosem.analogies.schemas.ANALOGIES` columns).
        term_counts: the ``term_counts`` intermediate it was built from (columns concept_id, term, and
            ``mode`` where the terms were counted with issue 37's rules; without ``mode`` every term was
            counted lowercased, as BMASS does).

    Returns:
        :class:`AbbreviationCounts` over the analogy terms: an analogy term counts when it is written
        in capitals (:func:`all_capitals`) and its frequency came from lowercased matches (``mode``
        ``folded``, or no ``mode`` column).

    Raises:
        ValueError: an analogy term is not a term of its concept in ``term_counts`` (the dataset was
            built from other counts).
    """
    terms = analogy_terms(analogies)
    if terms.empty:
        return AbbreviationCounts(0.0, 0, 0, ())
    counted = term_counts[["concept_id", "term"]].astype(str)
    folded = (
        term_counts["mode"].astype(str).eq("folded").to_numpy()
        if "mode" in term_counts
        else pd.Series(True, index=term_counts.index).to_numpy()
    )
    # a (concept, term) can have several rows (a preferred term repeated as a synonym): folded if any is
    per_pair = counted.assign(folded=folded).groupby(["concept_id", "term"], sort=False)["folded"].any()
    joined = terms.join(per_pair, on=["concept_id", "term"])
    missing = joined["folded"].isna()
    if missing.any():
        row = joined[missing].iloc[0]
        raise ValueError(
            f"analogy term {row['term']!r} of {row['concept_id']} is not a term of its concept in term_counts"
        )
    hit = joined[joined["folded"].astype(bool) & joined["term"].map(all_capitals)]
    examples = tuple(sorted(f"{t} ({c})" for c, t in zip(hit["concept_id"], hit["term"]))[:5])
    return AbbreviationCounts(len(hit) / len(terms), len(hit), len(terms), examples)


BMASS_MEAN_AMB = 2.04
"""BMASS's mean number of correct answers per analogy (Table 2's Amb averaged over its 25 relations)."""


def analogy_validity(
    datasets: Mapping[str, pd.DataFrame], term_counts: pd.DataFrame, ambiguous: set[str]
) -> list[Check]:
    """The validity rows of one terminology's analogy datasets (docs/design.md § Validity; issue 37).

    Per dataset (``single_answer``, ``multi_answer``, ... ; :data:`biosem.analogies.construct.DATASETS`):

    * ``abbreviation_counted_share`` (pass ``<= 0``): :func:`abbreviation_counts`;
    * ``ambiguous_answers`` (pass ``== 0``): distinct answer terms (every ``d``) whose normalised string
      names two or more concepts (``ambiguous``: :func:`biosem.analogies.construct.ambiguous_forms`,
      the construction's own definition: names and synonyms of the configured scopes);
    * ``duplicate_analogies`` (pass ``== 0``): rows repeating (relation, a, c);
    * ``answer_in_question_share`` (info): analogies one of whose answers is the string of a, b or c
      (surface keys, :mod:`biosem.surface`), which AccR excludes from the candidates;
    * ``mean_answers`` (info): mean answers per analogy (BMASS's Amb, 2.04 over Table 2);
    * ``relations`` (info): relations in the dataset.

    Args:
        datasets: dataset name -> its Parquet table (:data:`~biosem.analogies.schemas.ANALOGIES` columns).
        term_counts: the ``term_counts`` intermediate the datasets were built from.
        ambiguous: the normalised strings that name two or more concepts.

    Raises:
        ValueError: an analogy term is not in ``term_counts`` (:func:`abbreviation_counts`).
    """
    normaliser = default_normaliser()
    out: list[Check] = []
    for name, table in datasets.items():
        abbreviations = abbreviation_counts(table, term_counts)
        out.append(
            check(
                name,
                "abbreviation_counted_share",
                round(abbreviations.value, 6),
                "<= 0",
                detail=f"{abbreviations.count} of {abbreviations.total} analogy terms"
                + (f"; {'; '.join(abbreviations.examples)}" if abbreviations.examples else ""),
            )
        )
        answers = sorted({t for terms in table["d_terms"] for t in terms}) if len(table) else []
        hits = [t for t in answers if normalise(t) in ambiguous]
        out.append(
            check(
                name,
                "ambiguous_answers",
                len(hits),
                "== 0",
                detail=f"{len(hits)} of {len(answers)} answer terms" + (f"; {'; '.join(hits[:5])}" if hits else ""),
            )
        )
        repeated = table.duplicated(["relation", "a_id", "c_id"]) if len(table) else pd.Series(dtype=bool)
        out.append(check(name, "duplicate_analogies", int(repeated.sum()), "== 0"))
        in_question = 0
        for row in table.itertuples(index=False):
            asked = {normaliser.key(t) for t in (row.a_term, row.c_term, *row.b_terms)}
            in_question += any(normaliser.key(t) in asked for t in row.d_terms)
        n = len(table)
        out.append(
            check(
                name,
                "answer_in_question_share",
                round(in_question / n, 6) if n else 0.0,
                detail=f"{in_question} of {n} analogies",
            )
        )
        amb = float(table["d_terms"].map(len).mean()) if n else 0.0
        out.append(check(name, "mean_answers", round(amb, 6), detail=f"n={n}; BMASS mean Amb {BMASS_MEAN_AMB}"))
        out.append(check(name, "relations", int(table["relation"].nunique()) if n else 0))
    return out
