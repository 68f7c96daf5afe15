"""Candidate word pairs in four quarters (Chiu et al. 2018, § Pair selection; after SimVerb-3500).

For each POS (nouns -> Bio-SimLex, verbs -> Bio-SimVerb) and a target size per quarter (paper: 247
noun / 250 verb pairs):

* ``associated_biomedical``: both words biomedical; the pair is related by a lexical resource
  (OBO synonyms or siblings, lexicon synonyms) after adding morphological variants
  (:mod:`biosem.simlex.resources`).
* ``unassociated_biomedical``: random pairs of biomedical words related by no resource and absent
  from USF (either direction).
* ``associated_general``: both words general; a USF cue-target pair given by more than
  ``usf_min_producers`` participants (paper: 10) with forward and backward strength > 0 (both words
  normed), optionally with USF's POS codes matching (``N`` / ``V``).
* ``unassociated_general``: random pairs of general words that are both normed in USF (cues), absent
  from USF in both directions and related by no resource; with ``usf_match_pos``, USF's POS code of
  both words as cues is ``N`` (``V``), as SimLex-999 and SimVerb-3500 took the POS from the norms (not
  *band*, *score*, *record* as verbs: USF has them as nouns).

Selection is seeded (``biosem.seeds.generator(seed, "simlex_pairs", pos, quarter)``); candidates are
visited in a seeded permutation and taken greedily under a cap on pairs per word
(``max_pairs_per_word`` over the whole POS set; associated quarters first). Reviewed decisions from
the accepted-pairs file override the automatic candidates: rejected pairs are never used, accepted
pairs of a quarter are taken first (``accepted_only``: nothing else in associated quarters).

No pair joins two variants of one word (``exclude_variants``, :mod:`biosem.simlex.variants`:
spelling, inflection, a shared stem or a WordNet derivation: ``apnoea`` / ``apnea``, ``stimulant`` /
``stimulation``, ``dosage`` / ``dose``, ``neoplasia`` / ``neoplasm``; issue 37): such candidates are
removed from the associated pools (reviewed ones included) and skipped in the random draws, and
counted per quarter.

A quarter that cannot reach its target is handled by ``on_shortfall``: ``fail`` (stop, naming the
quarter and the numbers), ``shrink`` (keep what exists for that quarter, log a warning), ``balance``
(cut every quarter of the POS to the smallest one, log a warning). It is never silently under-filled:
``counts.tsv`` records target, candidates, variant pairs removed, selected, the status and the cause
of a shortfall (``candidates``: fewer candidate pairs than the target; ``word_cap``: enough
candidates, but ``max_pairs_per_word`` and the pairs of earlier quarters used up their words).
"""

from __future__ import annotations

import csv
import logging
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from biosem.errors import SourceFormatError
from biosem.simlex.schemas import POS_NAMES, QUARTERS
from biosem.simlex.usf import associated_pairs, normed_words
from biosem.simlex.variants import VariantParams, variant_kind

log = logging.getLogger(__name__)

SHORTFALL_POLICIES = ("fail", "shrink", "balance")
USF_POS_CODE = {"noun": "N", "verb": "V"}
DECISIONS = ("accept", "reject")
_ENUMERATE_MAX = 2_000_000  # enumerate all random-pair candidates when there are at most this many


class QuarterShortfallError(ValueError):
    """A quarter has fewer pairs than its target and the policy is ``fail``."""


@dataclass(frozen=True)
class PairParams:
    """Pair construction parameters (config ``simlex.pairs``)."""

    quarter_size: int = 250
    on_shortfall: str = "fail"
    max_pairs_per_word: int | None = 4
    usf_min_producers: int = 10
    usf_match_pos: bool = True
    accepted_only: bool = False
    random_rounds: int = 50
    exclude_variants: bool = True
    variant_stemmers: tuple[str, ...] = ("porter",)
    variant_wordnet: bool = True
    variant_min_prefix: int = 5
    variant_prefix_share: float | None = 0.8

    def variants(self) -> VariantParams:
        """The :class:`~biosem.simlex.variants.VariantParams` of these parameters."""
        return VariantParams(
            stemmers=tuple(self.variant_stemmers),
            wordnet=self.variant_wordnet,
            min_prefix=self.variant_min_prefix,
            prefix_share=self.variant_prefix_share,
        )


@dataclass
class QuarterResult:
    """Selected pairs of one quarter and the numbers behind them."""

    quarter: str
    candidates: pd.DataFrame  # all candidates (associated quarters) or the drawn pool (random)
    selected: pd.DataFrame
    available: int  # candidate pairs after exclusions (before caps)
    target: int
    variants: int = 0  # candidate pairs removed (associated) or draws skipped (random) as variant pairs


class _VariantFilter:
    """Whether a pair is a variant pair (:func:`biosem.simlex.variants.variant_kind`), counting hits
    per kind and keeping a few examples; a no-op when ``exclude_variants`` is off."""

    def __init__(self, params: PairParams) -> None:
        self.on = params.exclude_variants
        self.params = params.variants()
        self.kinds: Counter = Counter()
        self.examples: list[str] = []

    def __call__(self, a: str, b: str) -> bool:
        if not self.on:
            return False
        kind = variant_kind(a, b, self.params)
        if kind is None:
            return False
        self.kinds[kind] += 1
        if len(self.examples) < 5:
            self.examples.append(f"{a} / {b} ({kind})")
        return True

    def report(self, pos: str, quarter: str, n: int) -> None:
        if n:
            log.info(
                "%s %s: %d variant pairs removed (%s), e.g. %s",
                pos,
                quarter,
                n,
                ", ".join(f"{k}: {v}" for k, v in sorted(self.kinds.items())),
                "; ".join(self.examples),
            )
        self.kinds.clear()
        self.examples.clear()


def _key(a: str, b: str) -> tuple[str, str]:
    return (a, b) if a <= b else (b, a)


def read_accepted_pairs(path: str | Path) -> pd.DataFrame:
    """An accepted-pairs file: CSV with header ``pos,quarter,word1,word2,decision``.

    ``pos`` noun|verb, ``quarter`` associated_biomedical|associated_general, ``decision``
    accept|reject. Words are lowercased; (word1, word2) is unordered. A header-only file overrides
    nothing.

    Raises:
        SourceFormatError: a missing column, a bad value, identical words, or contradictory
            decisions for one pair (with the line).
    """
    path = Path(path)
    rows = []
    seen: dict[tuple[str, str, str], str] = {}
    with open(path, encoding="utf-8", newline="") as fh:
        reader = csv.DictReader(fh)
        need = {"pos", "quarter", "word1", "word2", "decision"}
        if need - set(reader.fieldnames or ()):
            raise SourceFormatError(
                path,
                1,
                "a header with columns pos,quarter,word1,word2,decision",
                ",".join(reader.fieldnames or ()),
            )
        for row in reader:
            line = reader.line_num
            pos = (row["pos"] or "").strip().lower()
            quarter = (row["quarter"] or "").strip().lower()
            w1, w2 = (row["word1"] or "").strip().lower(), (row["word2"] or "").strip().lower()
            decision = (row["decision"] or "").strip().lower()
            if pos not in POS_NAMES:
                raise SourceFormatError(path, line, f"pos in {POS_NAMES}", pos)
            if quarter not in ("associated_biomedical", "associated_general"):
                raise SourceFormatError(path, line, "quarter associated_biomedical or associated_general", quarter)
            if decision not in DECISIONS:
                raise SourceFormatError(path, line, f"decision in {DECISIONS}", decision)
            if not w1 or not w2 or w1 == w2:
                raise SourceFormatError(path, line, "two different words", f"{w1!r}, {w2!r}")
            a, b = _key(w1, w2)
            if seen.get((pos, a, b), decision) != decision:
                raise SourceFormatError(
                    path,
                    line,
                    f"one decision per pair; {a}/{b} is already {seen[(pos, a, b)]}",
                    decision,
                )
            seen[(pos, a, b)] = decision
            rows.append((pos, quarter, a, b, decision))
    return pd.DataFrame(rows, columns=["pos", "quarter", "word1", "word2", "decision"]).drop_duplicates(
        ignore_index=True
    )


# --------------------------------------------------------------------------------------------------
# Candidates
# --------------------------------------------------------------------------------------------------
def associated_biomedical_candidates(lexical_relations: pd.DataFrame, pos: str, biomedical: set[str]) -> pd.DataFrame:
    """Resource pairs of ``pos`` whose two words are biomedical, one row per pair.

    Columns ``word1, word2, sources`` ("hpo:sibling;wordnet:synonym"), ``evidence`` (ids, ";"),
    ``via`` (the most direct variant kind among the rows), ``fsg``, ``bsg`` (null), sorted.
    """
    rel = lexical_relations[lexical_relations["pos"] == pos]
    rel = rel[rel["word1"].isin(biomedical) & rel["word2"].isin(biomedical)]
    if rel.empty:
        return pd.DataFrame(columns=["word1", "word2", "sources", "evidence", "via", "fsg", "bsg"])
    order = {"identity": 0, "spelling": 1, "inflection": 2, "derivation": 3}
    rel = rel.assign(source=rel["resource"] + ":" + rel["relation"], rank=rel["via"].map(order))
    grouped = rel.groupby(["word1", "word2"], sort=True)
    out = pd.DataFrame(
        {
            "sources": grouped["source"].agg(lambda s: ";".join(sorted(set(s)))),
            "evidence": grouped["evidence"].agg(lambda s: ";".join(sorted(set(s))[:5])),
            "via": grouped["rank"].min().map({v: k for k, v in order.items()}),
        }
    ).reset_index()
    out["fsg"] = np.nan
    out["bsg"] = np.nan
    return out


def associated_general_candidates(usf: pd.DataFrame, pos: str, general: set[str], params: PairParams) -> pd.DataFrame:
    """USF pairs (both directions strong) whose two words are general words of ``pos``, one row per pair.

    When both directions qualify, the direction with more producers is kept (then the cue first in
    alphabetical order). Columns ``word1, word2`` (sorted pair), ``sources`` "usf", ``evidence``
    "cue->target", ``via`` "identity", ``fsg``, ``bsg`` (of that direction).
    """
    rows = associated_pairs(usf, params.usf_min_producers)
    rows = rows[rows["cue"].isin(general) & rows["target"].isin(general) & (rows["cue"] != rows["target"])]
    if params.usf_match_pos:
        code = USF_POS_CODE[pos]
        rows = rows[(rows["qps"] == code) & (rows["tps"] == code)]
    if rows.empty:
        return pd.DataFrame(columns=["word1", "word2", "sources", "evidence", "via", "fsg", "bsg"])
    rows = rows.assign(
        word1=np.where(rows["cue"] <= rows["target"], rows["cue"], rows["target"]),
        word2=np.where(rows["cue"] <= rows["target"], rows["target"], rows["cue"]),
    )
    rows = rows.sort_values(["word1", "word2", "n_produced", "cue"], ascending=[True, True, False, True], kind="stable")
    rows = rows.drop_duplicates(["word1", "word2"])
    return pd.DataFrame(
        {
            "word1": rows["word1"],
            "word2": rows["word2"],
            "sources": "usf",
            "evidence": rows["cue"] + "->" + rows["target"],
            "via": "identity",
            "fsg": rows["fsg"].astype(float),
            "bsg": rows["bsg"].astype(float),
        }
    ).reset_index(drop=True)


# --------------------------------------------------------------------------------------------------
# Selection
# --------------------------------------------------------------------------------------------------
class _WordCap:
    def __init__(self, cap: int | None) -> None:
        self.cap = cap
        self.used: Counter = Counter()

    def fits(self, a: str, b: str) -> bool:
        return self.cap is None or (self.used[a] < self.cap and self.used[b] < self.cap)

    def take(self, a: str, b: str) -> None:
        self.used[a] += 1
        self.used[b] += 1


def _greedy(
    pairs: Iterable[tuple[str, str]], target: int, cap: _WordCap, taken: set[tuple[str, str]]
) -> list[tuple[str, str]]:
    out = []
    for a, b in pairs:
        if len(out) >= target:
            break
        key = _key(a, b)
        if key in taken or not cap.fits(*key):
            continue
        taken.add(key)
        cap.take(*key)
        out.append(key)
    return out


def _select_associated(
    candidates: pd.DataFrame,
    accepted: list[tuple[str, str]],
    target: int,
    cap: _WordCap,
    taken: set[tuple[str, str]],
    rng: np.random.Generator,
    accepted_only: bool,
) -> list[tuple[str, str]]:
    first = [accepted[i] for i in rng.permutation(len(accepted))] if accepted else []
    chosen = _greedy(first, target, cap, taken)
    if not accepted_only and len(chosen) < target and len(candidates):
        keys = list(zip(candidates["word1"], candidates["word2"], strict=True))
        order = rng.permutation(len(keys))
        chosen += _greedy((keys[i] for i in order), target - len(chosen), cap, taken)
    return chosen


def _random_pairs(words: list[str], rng: np.random.Generator, rounds: int) -> Iterator[tuple[str, str]]:
    """Unordered pairs of distinct words in a seeded random order (all of them when few enough)."""
    n = len(words)
    total = n * (n - 1) // 2
    if total == 0:
        return
    if total <= _ENUMERATE_MAX:
        i, j = np.triu_indices(n, k=1)
        for k in rng.permutation(total):
            yield words[i[k]], words[j[k]]
        return
    for _ in range(rounds):
        a = rng.integers(0, n, size=20_000)
        b = rng.integers(0, n, size=20_000)
        for x, y in zip(a.tolist(), b.tolist(), strict=True):
            if x != y:
                yield words[x], words[y]


def _available_random(words: list[str], forbidden: set[tuple[str, str]]) -> int:
    vocab = set(words)
    inside = sum(1 for a, b in forbidden if a in vocab and b in vocab and a != b)
    return len(words) * (len(words) - 1) // 2 - inside


def build_pairs(
    pos: str,
    domains: pd.DataFrame,
    lexical_relations: pd.DataFrame,
    usf: pd.DataFrame,
    accepted: pd.DataFrame,
    params: PairParams,
    rng_for: Callable[[str], np.random.Generator],
) -> tuple[pd.DataFrame, pd.DataFrame, dict[str, pd.DataFrame]]:
    """Select the four quarters of one POS.

    Args:
        pos: ``noun`` or ``verb``.
        domains: ``word_domains`` (lemma, pos, domain after review).
        lexical_relations: ``lexical_relations`` (every resource pair, all POS).
        usf: the ``usf`` table.
        accepted: the accepted-pairs file (:func:`read_accepted_pairs`), possibly empty.
        params: targets, caps and the shortfall policy.
        rng_for: quarter name -> seeded generator (``generator(seed, "simlex_pairs", pos, quarter)``).

    Returns:
        ``(pairs, counts, review)``: the ``simlex_pairs`` rows (pair_id assigned, quarter order);
        a counts table (pos, quarter, target, candidates, variant_pairs, selected, policy, status,
        cause); review sheets for the two associated quarters (every candidate, selected first, an
        empty decision column).

    Raises:
        QuarterShortfallError: a quarter misses its target and ``on_shortfall`` is ``fail``.
        ValueError: an unknown policy or POS.
    """
    if params.on_shortfall not in SHORTFALL_POLICIES:
        raise ValueError(f"simlex.pairs.on_shortfall must be one of {SHORTFALL_POLICIES}, not {params.on_shortfall!r}")
    if pos not in POS_NAMES:
        raise ValueError(f"pos must be one of {POS_NAMES}, not {pos!r}")
    mine = domains[domains["pos"] == pos]
    biomedical = sorted(mine.loc[mine["domain"] == "biomedical", "lemma"])
    general = sorted(mine.loc[mine["domain"] == "general", "lemma"])
    normed = normed_words(usf)
    if params.usf_match_pos:
        # a cue's part of speech in USF (QPS) is the same on all its rows
        code = USF_POS_CODE[pos]
        normed &= set(usf.loc[usf["qps"] == code, "cue"])
    general_normed = [w for w in general if w in normed]
    log.info(
        "%s: %d biomedical, %d general words (%d of them normed in USF with this POS)",
        pos,
        len(biomedical),
        len(general),
        len(general_normed),
    )

    decisions = accepted[accepted["pos"] == pos]
    rejected = {
        _key(a, b)
        for a, b in decisions.loc[decisions["decision"] == "reject", ["word1", "word2"]].itertuples(index=False)
    }
    related = {
        _key(a, b)
        for a, b in lexical_relations.loc[lexical_relations["pos"] == pos, ["word1", "word2"]].itertuples(index=False)
    }
    in_usf = {_key(a, b) for a, b in usf[["cue", "target"]].itertuples(index=False)}
    forbidden_random = related | in_usf | rejected

    pools = {
        "associated_biomedical": associated_biomedical_candidates(lexical_relations, pos, set(biomedical)),
        "associated_general": associated_general_candidates(usf, pos, set(general), params),
    }
    cap = _WordCap(params.max_pairs_per_word)
    taken: set[tuple[str, str]] = set()
    results: dict[str, QuarterResult] = {}
    is_variant = _VariantFilter(params)
    for quarter in ("associated_biomedical", "associated_general"):
        pool = pools[quarter]
        keys = list(zip(pool["word1"], pool["word2"], strict=True))
        kept = np.array([k not in rejected for k in keys], dtype=bool)
        variant = np.array([keep and is_variant(*k) for k, keep in zip(keys, kept, strict=True)], dtype=bool)
        pool = pool.loc[kept & ~variant].reset_index(drop=True)
        acc = decisions[(decisions["quarter"] == quarter) & (decisions["decision"] == "accept")]
        acc_all = sorted({_key(a, b) for a, b in acc[["word1", "word2"]].itertuples(index=False)})
        acc_keys = [k for k in acc_all if not is_variant(*k)]
        n_variants = int(variant.sum()) + len(acc_all) - len(acc_keys)
        is_variant.report(pos, quarter, n_variants)
        extra = [k for k in acc_keys if not ((pool["word1"] == k[0]) & (pool["word2"] == k[1])).any()]
        if extra:
            pool = pd.concat(
                [
                    pool,
                    pd.DataFrame(
                        {
                            "word1": [k[0] for k in extra],
                            "word2": [k[1] for k in extra],
                            "sources": "reviewed",
                            "evidence": None,
                            "via": "identity",
                            "fsg": np.nan,
                            "bsg": np.nan,
                        }
                    ),
                ],
                ignore_index=True,
            )
        pool = pool.sort_values(["word1", "word2"], kind="stable", ignore_index=True)
        pool["reviewed"] = [k in set(acc_keys) for k in zip(pool["word1"], pool["word2"], strict=True)]
        available = len(acc_keys) if params.accepted_only else len(pool)
        chosen = _select_associated(
            pool, acc_keys, params.quarter_size, cap, taken, rng_for(quarter), params.accepted_only
        )
        index = {k: i for i, k in enumerate(zip(pool["word1"], pool["word2"], strict=True))}
        selected = pool.iloc[[index[k] for k in chosen]].reset_index(drop=True)
        results[quarter] = QuarterResult(quarter, pool, selected, available, params.quarter_size, n_variants)
        forbidden_random |= set(index)

    for quarter, words in (
        ("unassociated_biomedical", biomedical),
        ("unassociated_general", general_normed),
    ):
        available = _available_random(words, forbidden_random | taken)
        blocked = forbidden_random | taken
        stream = (
            (a, b)
            for a, b in _random_pairs(words, rng_for(quarter), params.random_rounds)
            if _key(a, b) not in blocked and not is_variant(*_key(a, b))
        )
        chosen = _greedy(stream, params.quarter_size, cap, taken)
        n_variants = sum(is_variant.kinds.values())
        is_variant.report(pos, quarter, n_variants)
        selected = pd.DataFrame(
            {
                "word1": [k[0] for k in chosen],
                "word2": [k[1] for k in chosen],
                "sources": "random",
                "evidence": None,
                "via": "identity",
                "fsg": np.nan,
                "bsg": np.nan,
                "reviewed": False,
            }
        )
        results[quarter] = QuarterResult(quarter, selected, selected, available, params.quarter_size, n_variants)

    counts = _apply_shortfall(pos, results, params)
    pairs = _assemble(pos, results, rng_for("word_order"))
    review = {q: _review_sheet(pos, results[q]) for q in ("associated_biomedical", "associated_general")}
    return pairs, counts, review


def _shortfall_cause(result: QuarterResult) -> str:
    """Why a quarter is short: ``candidates`` (fewer candidate pairs than its target) or ``word_cap``
    (``max_pairs_per_word`` and the pairs of earlier quarters used up the words of its candidates)."""
    return "candidates" if result.available < result.target else "word_cap"


def _apply_shortfall(pos: str, results: dict[str, QuarterResult], params: PairParams) -> pd.DataFrame:
    short = {q: r for q, r in results.items() if len(r.selected) < r.target}
    for q, r in results.items():
        log.info(
            "%s %s: %d candidates, %d variant pairs removed, %d selected (target %d)",
            pos,
            q,
            r.available,
            r.variants,
            len(r.selected),
            r.target,
        )
    if short and params.on_shortfall == "fail":
        detail = "; ".join(
            f"{q}: {len(r.selected)} of {r.target} (candidates {r.available}) [cause: {_shortfall_cause(r)}]"
            for q, r in short.items()
        )
        raise QuarterShortfallError(
            f"{pos} quarters below target: {detail}. Use a larger corpus or more resources, lower "
            "simlex.pairs.quarter_size, or set simlex.pairs.on_shortfall to shrink or balance."
        )
    status = {q: "ok" for q in results}
    if short and params.on_shortfall == "balance":
        n = min(len(r.selected) for r in results.values())
        log.warning(
            "%s: quarters cut to %d pairs each (on_shortfall=balance; short: %s)",
            pos,
            n,
            ", ".join(short),
        )
        for q, r in results.items():
            r.selected = r.selected.iloc[:n].reset_index(drop=True)
            status[q] = "short" if q in short else "balanced"
    elif short:
        for q, r in short.items():
            cause = _shortfall_cause(r)
            log.warning(
                "%s %s: %d of %d pairs (on_shortfall=shrink): %s",
                pos,
                q,
                len(r.selected),
                r.target,
                f"only {r.available} candidate pairs after exclusions"
                if cause == "candidates"
                else f"{r.available} candidates, but max_pairs_per_word={params.max_pairs_per_word} and the "
                "pairs of earlier quarters used up their words",
            )
            status[q] = "short"
    rows = [
        {
            "pos": pos,
            "quarter": q,
            "target": r.target,
            "candidates": r.available,
            "variant_pairs": r.variants,
            "selected": len(r.selected),
            "policy": params.on_shortfall,
            "status": status[q],
            "cause": _shortfall_cause(r) if q in short else "",
        }
        for q, r in ((q, results[q]) for q in QUARTERS)
    ]
    return pd.DataFrame(rows)


def _assemble(pos: str, results: dict[str, QuarterResult], rng: np.random.Generator) -> pd.DataFrame:
    frames = []
    for quarter in QUARTERS:
        sel = results[quarter].selected.copy()
        sel["quarter"] = quarter
        frames.append(sel)
    pairs = pd.concat(frames, ignore_index=True)
    flip = rng.random(len(pairs)) < 0.5
    w1, w2 = pairs["word1"].to_numpy(copy=True), pairs["word2"].to_numpy(copy=True)
    pairs["word1"] = np.where(flip, w2, w1)
    pairs["word2"] = np.where(flip, w1, w2)
    prefix = "N" if pos == "noun" else "V"
    pairs["pair_id"] = [f"{prefix}{i:04d}" for i in range(1, len(pairs) + 1)]
    pairs["pos"] = pos
    pairs["domain"] = np.where(pairs["quarter"].str.endswith("biomedical"), "biomedical", "general")
    pairs["associated"] = pairs["quarter"].str.startswith("associated")
    pairs["reviewed"] = pairs["reviewed"].astype(bool)
    return pairs[
        [
            "pair_id",
            "word1",
            "word2",
            "pos",
            "quarter",
            "domain",
            "associated",
            "sources",
            "evidence",
            "fsg",
            "bsg",
            "reviewed",
        ]
    ]


def _review_sheet(pos: str, result: QuarterResult) -> pd.DataFrame:
    """Every candidate of an associated quarter, the selected ones first (in selection order)."""
    pool = result.candidates
    chosen = list(zip(result.selected["word1"], result.selected["word2"], strict=True))
    rank = {k: i for i, k in enumerate(chosen)}
    keys = list(zip(pool["word1"], pool["word2"], strict=True))
    sheet = pool.assign(
        pos=pos,
        quarter=result.quarter,
        selected=[k in rank for k in keys],
        _order=[rank.get(k, len(rank)) for k in keys],
        decision="",
    )
    sheet = sheet.sort_values(["_order", "word1", "word2"], kind="stable").drop(columns="_order")
    return sheet[
        [
            "pos",
            "quarter",
            "word1",
            "word2",
            "selected",
            "reviewed",
            "sources",
            "evidence",
            "via",
            "fsg",
            "bsg",
            "decision",
        ]
    ].reset_index(drop=True)


def params_from_config(cfg: dict[str, Any], pos: str) -> PairParams:
    """PairParams for ``pos`` from config ``simlex.pairs`` (``quarter_size`` per POS: {noun: .., verb: ..})."""
    size = cfg["quarter_size"]
    if isinstance(size, dict):
        size = size[pos]
    known = set(PairParams.__dataclass_fields__) - {"quarter_size"}
    return PairParams(
        quarter_size=int(size),
        **{k: tuple(v) if isinstance(v, list) else v for k, v in cfg.items() if k in known},
    )
