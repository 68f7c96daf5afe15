"""Negatives of the term-pair datasets, one per positive, and the datasets they make (docs/design.md § termpairs).

*random* pairs the first term with a term drawn from another instance of the same dataset;
*levenshtein* pairs it with its nearest term of the dataset (distance > 0). In both, the partner must
lie outside the first term's connected component of the similarity graph
(:func:`biosem.termpairs.positives.similarity_components`), which is stricter than medisim's two-hop
exclusion. A negative pair never repeats within a dataset (unordered). When a dataset's own terms hold
no valid partner for a first term (tiny datasets), the partner is drawn from all terms of the source's
positives instead; such fallbacks are counted and logged.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from biosem.levenshtein.index import LevenshteinIndex
from biosem.termpairs.exclusion import excluded_candidates
from biosem.termpairs.params import RANDOM_ROUNDS
from biosem.termpairs.pool import TermPool, term_lengths
from biosem.termpairs.positives import DIFFICULTIES, POSITIVE_KINDS, STRATEGIES, levenshtein_lower
from biosem.termpairs.search import assign_nearest, first_search_rows


def _lower_pair(a: str, b: str) -> tuple[str, str]:
    return (a, b) if a <= b else (b, a)


def _pair_code(a: np.ndarray, b: np.ndarray, n: int) -> np.ndarray:
    lo = np.minimum(a, b).astype(np.int64)
    hi = np.maximum(a, b).astype(np.int64)
    return lo * np.int64(n) + hi


def sample_random_negatives(
    positives: pd.DataFrame,
    components: pd.DataFrame,
    source_terms: pd.Series,
    rng: np.random.Generator,
    rounds: int = RANDOM_ROUNDS,
) -> tuple[pd.DataFrame, dict[str, int]]:
    """One random negative per positive (medisim "simple" strategy, made exact and balanced).

    For positive *i* with first term *a*, draw an instance *j != i* and one of its two terms, with
    ``rng``; accept it if it is outside *a*'s similarity component and the unordered pair is new.
    Rejected draws are redrawn for ``rounds`` rounds; what remains is drawn uniformly from all valid
    terms of the dataset, or, if there are none, of ``source_terms`` (counted as fallbacks).

    Args:
        positives: one dataset's positives (``term1``, ``term2``, ``concept_id1``), in order.
        components: output of :func:`~biosem.termpairs.positives.similarity_components` for the whole source.
        source_terms: every term of the source's positives (fallback pool).
        rng: seeded generator.

    Returns:
        (negatives, counts): ``term1, term2, levenshtein`` aligned with ``positives``.

    Raises:
        ValueError: no valid partner exists even in the source pool.
    """
    comp = components.set_index("term_lower")["component"]
    pool = TermPool.from_terms(pd.concat([positives["term1"], positives["term2"]]), comp)
    n = len(positives)
    counts = {"redrawn": 0, "exhaustive": 0, "fallback": 0}
    if n == 0:
        return _negative_frame([], []), counts
    a_idx = pool.find(positives["term1"].str.lower().to_numpy(dtype=object))
    t1_idx = a_idx
    t2_idx = pool.find(positives["term2"].str.lower().to_numpy(dtype=object))
    partner = np.full(n, -1, dtype=np.int64)
    used: set[int] = set()
    npool = len(pool)
    pending = np.arange(n)
    for round_no in range(rounds if n > 1 else 0):
        if pending.size == 0:
            break
        j = rng.integers(0, n - 1, size=pending.size)
        j = j + (j >= pending)
        side = rng.integers(0, 2, size=pending.size)
        cand = np.where(side == 0, t1_idx[j], t2_idx[j])
        ok = pool.component[cand] != pool.component[a_idx[pending]]
        code = _pair_code(a_idx[pending], cand, npool)
        accepted = []
        for k in np.flatnonzero(ok).tolist():
            c = int(code[k])
            if c not in used:
                used.add(c)
                accepted.append(k)
        acc = np.asarray(accepted, dtype=np.int64)
        partner[pending[acc]] = cand[acc]
        if round_no:
            counts["redrawn"] += acc.size
        pending = pending[partner[pending] < 0]
    source_pool: TermPool | None = None
    used_lower: set[tuple[str, str]] = set()
    partner_from_source = np.zeros(n, dtype=bool)
    for i in pending.tolist():
        a = int(a_idx[i])
        valid = np.flatnonzero(pool.component != pool.component[a])
        valid = (
            valid[[_pair_code(np.int64(a), np.int64(v), npool) not in used for v in valid.tolist()]]
            if valid.size
            else valid
        )
        if valid.size:
            v = int(valid[rng.integers(0, valid.size)])
            used.add(int(_pair_code(np.int64(a), np.int64(v), npool)))
            partner[i] = v
            counts["exhaustive"] += 1
            continue
        if source_pool is None:
            source_pool = TermPool.from_terms(source_terms, comp)
            used_lower = {_lower_pair(pool.lower[c // npool], pool.lower[c % npool]) for c in used}
        a_low = pool.lower[a]
        sa = int(source_pool.find(np.array([a_low], dtype=object))[0])
        svalid = np.flatnonzero(source_pool.component != source_pool.component[sa])
        svalid = np.array(
            [v for v in svalid.tolist() if _lower_pair(a_low, source_pool.lower[v]) not in used_lower], dtype=np.int64
        )
        if svalid.size == 0:
            raise ValueError(f"no valid random negative for {positives['term1'].iloc[i]!r} in the whole source")
        v = int(svalid[rng.integers(0, svalid.size)])
        used_lower.add(_lower_pair(a_low, source_pool.lower[v]))
        partner[i] = v
        partner_from_source[i] = True
        counts["fallback"] += 1
    term2 = np.where(
        partner_from_source,
        source_pool.original[np.where(partner_from_source, partner, 0)] if source_pool is not None else None,
        pool.original[np.where(partner_from_source, 0, partner)],
    )
    return _negative_frame(positives["term1"].tolist(), term2.tolist()), counts


def sample_levenshtein_negatives(
    positives: pd.DataFrame,
    components: pd.DataFrame,
    source_terms: pd.Series,
    rng: np.random.Generator,
    workers: int = 1,
    neighbours: pd.DataFrame | None = None,
) -> tuple[pd.DataFrame, dict[str, int]]:
    """One nearest-term negative per positive (medisim "advanced" strategy, exact).

    First terms are visited in sorted (lowercased) order. A first term *a* with *k* positives gets
    its *k* nearest valid terms of the dataset by Levenshtein distance on lowercased strings
    (distance > 0, outside *a*'s similarity component, the unordered pair not already a negative),
    ties at equal distance ordered by a seeded draw; see :class:`biosem.levenshtein.index.LevenshteinIndex`.
    Pairs are then emitted in the order of the positives.

    Args:
        neighbours: this dataset's rows of :func:`~biosem.termpairs.search.search_neighbours` (its first
            search, made jointly with other datasets); None: searched here. The result is the same either way.

    Returns:
        (negatives, counts): ``term1, term2, levenshtein`` aligned with ``positives``; counts of
        queries, pairs screened and verified (here; not those of ``neighbours``) and fallbacks to the
        source pool.

    Raises:
        ValueError: ``neighbours`` names a first term or partner the dataset does not have, or a
            ``need`` other than the first term's positives (it was built from other positives).
    """
    comp = components.set_index("term_lower")["component"]
    pool = TermPool.from_terms(pd.concat([positives["term1"], positives["term2"]]), comp)
    counts = {
        "queries": 0,
        "pairs_verified": 0,
        "pairs_screened": 0,
        "fallback": 0,
        "requeried": 0,
        "deferred": 0,
        "restarted": 0,
    }
    n = len(positives)
    if n == 0:
        return _negative_frame([], []), counts
    a_low = positives["term1"].str.lower().to_numpy(dtype=object)
    qkeys, inverse, k = np.unique(a_low, return_inverse=True, return_counts=True)
    q_in_pool = pool.find(qkeys)
    counts["queries"] = int(qkeys.size)
    first = None if neighbours is None else first_search_rows(neighbours, qkeys, k, pool)
    chosen, used = assign_nearest(
        lambda: LevenshteinIndex(list(pool.lower), workers=workers, name="Levenshtein search of the dataset's pool"),
        qkeys,
        q_in_pool,
        k,
        pool.component,
        pool.component[q_in_pool],
        term_lengths(pool.lower),
        rng,
        counts,
        first,
    )

    # Queries still short of partners: search the source's whole term pool.
    short = np.flatnonzero(np.array([len(c) for c in chosen]) < k)
    source_choice: dict[int, list[str]] = {}
    if short.size:
        spool = TermPool.from_terms(source_terms, comp)
        sindex = LevenshteinIndex(list(spool.lower), workers=workers, name="Levenshtein search of the source's terms")
        npool = len(pool)
        used_lower = {_lower_pair(pool.lower[c // npool], pool.lower[c % npool]) for c in used}
        # Partners a first term may not take: those already paired with it in either direction.
        taken = [{y if x == qkeys[q] else x for x, y in used_lower if qkeys[q] in (x, y)} for q in short.tolist()]
        need = k[short] - np.array([len(chosen[q]) for q in short.tolist()])
        res = sindex.nearest(
            list(qkeys[short]),
            need + np.array([len(t) for t in taken]),
            comp.reindex(qkeys[short]).to_numpy().astype(np.int64),
            spool.component,
            rng,
        )
        bounds = np.searchsorted(res.query, np.arange(short.size + 1))
        for pos, q in enumerate(short.tolist()):
            picks = []
            for c in res.candidate[bounds[pos] : bounds[pos + 1]].tolist():
                pair = _lower_pair(qkeys[q], spool.lower[c])
                if spool.lower[c] in taken[pos] or pair in used_lower:
                    continue
                used_lower.add(pair)
                picks.append(spool.original[c])
                if len(picks) == need[pos]:
                    break
            if len(picks) < need[pos]:
                raise ValueError(f"no valid Levenshtein negative for {qkeys[q]!r} in the whole source")
            source_choice[q] = picks
            counts["fallback"] += len(picks)
        counts["pairs_verified"] += res.pairs_verified
        counts["pairs_screened"] += sindex.pairs_screened

    # Emit in positive order: the m-th positive of a first term gets its m-th partner.
    occurrence = pd.Series(inverse).groupby(inverse).cumcount().to_numpy()
    term2 = []
    for q, m in zip(inverse.tolist(), occurrence.tolist()):
        own = chosen[q]
        term2.append(pool.original[own[m]] if m < len(own) else source_choice[q][m - len(own)])
    return _negative_frame(positives["term1"].tolist(), term2), counts


def _negative_frame(term1: list[str], term2: list[str]) -> pd.DataFrame:
    return pd.DataFrame(
        {
            "term1": pd.Series(term1, dtype=object),
            "term2": pd.Series(term2, dtype=object),
            "levenshtein": levenshtein_lower(term1, term2),
        }
    )


def assemble_dataset(positives: pd.DataFrame, negatives: pd.DataFrame, rng: np.random.Generator) -> pd.DataFrame:
    """Positives (label 1) + negatives (label 0), shuffled with ``rng`` (the reference TSV order).

    Returns columns ``term1, term2, label, concept_id1, concept_id2, levenshtein``; negatives carry
    the first term's concept id and a null second concept id.
    """
    pos = positives.assign(label=1)[["term1", "term2", "label", "concept_id1", "concept_id2", "levenshtein"]]
    neg = negatives.assign(label=0, concept_id1=positives["concept_id1"].to_numpy(), concept_id2=None)[
        ["term1", "term2", "label", "concept_id1", "concept_id2", "levenshtein"]
    ]
    both = pd.concat([pos, neg], ignore_index=True)
    order = rng.permutation(len(both))
    out = both.iloc[order].reset_index(drop=True)
    out["label"] = out["label"].astype("int64")
    out["levenshtein"] = out["levenshtein"].astype("int64")
    return out


def build_dataset(
    positives: pd.DataFrame,
    components: pd.DataFrame,
    kind: str,
    difficulty: str,
    strategy: str,
    rng: np.random.Generator,
    workers: int = 1,
    random_rounds: int = RANDOM_ROUNDS,
    neighbours: pd.DataFrame | None = None,
) -> tuple[pd.DataFrame, dict[str, object]]:
    """One of the 20 datasets of a source: its positives plus one negative each, shuffled.

    Args:
        positives: all positives of the source (output of :func:`~biosem.termpairs.positives.build_positive_pairs`).
        components: :func:`~biosem.termpairs.positives.similarity_components` of those positives.
        kind, difficulty, strategy: which dataset (:data:`~biosem.termpairs.positives.POSITIVE_KINDS`,
            :data:`~biosem.termpairs.positives.DIFFICULTIES`, :data:`~biosem.termpairs.positives.STRATEGIES`).
        rng: the dataset's seeded generator (negatives first, then the shuffle).
        neighbours: for a Levenshtein dataset, :func:`~biosem.termpairs.search.search_neighbours` rows that
            include its kind (the first search made jointly); None: searched here. Same result either way.

    Returns:
        (dataset, stats): dataset columns ``term1, term2, label, concept_id1, concept_id2,
        levenshtein``; stats with counts and mean Levenshtein distances (Table 2 of the paper), the
        candidate negatives each exclusion rule removed (``excluded_same_group``,
        ``excluded_surface_variant`` and, for Levenshtein datasets, ``excluded_<rule>_nearer``:
        :func:`biosem.termpairs.exclusion.excluded_candidates`) and a few of them (``excluded_examples``).
    """
    if kind not in POSITIVE_KINDS or difficulty not in DIFFICULTIES or strategy not in STRATEGIES:
        raise ValueError(f"unknown dataset {kind}_{difficulty}_{strategy}")
    sel = positives[(positives["kind"] == kind) & (positives["difficulty"] == difficulty)].reset_index(drop=True)
    source_terms = pd.concat([positives["term1"], positives["term2"]], ignore_index=True)
    if strategy == "random":
        negatives, counts = sample_random_negatives(sel, components, source_terms, rng, rounds=random_rounds)
    else:
        own = None if neighbours is None else neighbours[neighbours["kind"] == kind]
        negatives, counts = sample_levenshtein_negatives(
            sel, components, source_terms, rng, workers=workers, neighbours=own
        )
    dataset = assemble_dataset(sel, negatives, rng)
    excluded, shown = excluded_candidates(sel, components, negatives if strategy == "levenshtein" else None)
    stats: dict[str, object] = {
        "kind": kind,
        "difficulty": difficulty,
        "strategy": strategy,
        "positives": len(sel),
        "negatives": len(negatives),
        "mean_levenshtein_positive": float(sel["levenshtein"].mean()) if len(sel) else None,
        "mean_levenshtein_negative": float(negatives["levenshtein"].mean()) if len(negatives) else None,
        **{f"negatives_{k}": int(v) for k, v in counts.items()},
        **excluded,
        "excluded_examples": "; ".join(f"{rule}: {pair}" for rule, pairs in shown.items() for pair in pairs),
    }
    return dataset, stats


def to_reference_tsv(dataset: pd.DataFrame) -> str:
    """The medisim file format: ``term1<TAB>term2<TAB>1|0`` per line, no header, in dataset order.

    Raises:
        ValueError: a term contains a tab or a line break (the format cannot hold it).
    """
    for col in ("term1", "term2"):
        bad = dataset[col].str.contains(r"[\t\r\n]", regex=True)
        if bad.any():
            raise ValueError(f"{col} {dataset.loc[bad, col].iloc[0]!r} contains a tab or line break")
    lines = dataset["term1"] + "\t" + dataset["term2"] + "\t" + dataset["label"].astype(str)
    return "".join(line + "\n" for line in lines)
