"""Writing the RF2 Snapshot files of the synthetic release.

:func:`write_release` writes, under ``<out>/Snapshot/``, the concept, description (en), relationship
(inferred, existential), US English language refset (FSN and preferred synonym PREFERRED, other
synonyms ACCEPTABLE) and association refset files of RF2 release 20190131: tab-separated, UTF-8, LF line
endings, a header row, rows sorted by id (SCTIDs numerically, refset member UUIDs as text). Description
and relationship SCTIDs and their effectiveTime dates (never before their concept's) are drawn from a
second random stream of the seed; case significance is derived from each term. Each file is written to
a temporary name and renamed into place.
"""

from __future__ import annotations

import os
from collections import Counter
from pathlib import Path

import numpy as np

from .concepts import Tables
from .rf2 import (
    ACCEPTABLE,
    ASSOCIATION_KINDS,
    CASE_INSENSITIVE,
    CASE_SENSITIVE,
    CORE_MODULE,
    EXISTENTIAL,
    FIXED_CONCEPTS,
    FSN_TYPE,
    HEADERS,
    INFERRED,
    INITIAL_INSENSITIVE,
    IS_A,
    MODEL_MODULE,
    PREFERRED,
    RELATIVE_PATHS,
    SYN_TYPE,
    US_LANG_REFSET,
    draw_dates,
    member_uuid,
    sctids,
)
from .vocabulary import Vocabulary


def case_significance(term: str, lower_words: frozenset[str]) -> str:
    """The caseSignificanceId of ``term``: insensitive when all but the first character are lower
    case, sensitive when it starts with a capitalised word that is not a common lower-case word
    (a proper name or acronym), else only-initial-character insensitive."""
    rest = term[1:]
    if rest == rest.lower():
        return CASE_INSENSITIVE
    first = term.split(" ", 1)[0]
    if first[:1].isupper() and first.lower() not in lower_words:
        return CASE_SENSITIVE
    return INITIAL_INSENSITIVE


def write_table(path: Path, header: str, lines: list[str]) -> None:
    """Write ``header`` and ``lines`` (LF-terminated, UTF-8) to ``path`` through a temporary file."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.tmp")
    with open(tmp, "w", encoding="utf-8", newline="\n") as fh:
        fh.write(header)
        fh.write("\n")
        if lines:
            fh.write("\n".join(lines))
            fh.write("\n")
    os.replace(tmp, path)


def write_release(tb: Tables, out_dir: Path, seed: int, voc: Vocabulary) -> dict[str, int]:
    """Write the five RF2 files of ``tb`` under ``out_dir`` and return the row counts by kind."""
    rng = np.random.default_rng([seed, 1])
    n = len(tb.c_id)
    # concepts
    c_ids = np.array([int(x) for x in tb.c_id], dtype=np.int64)
    order = np.argsort(c_ids, kind="stable")
    lines = [
        f"{tb.c_id[i]}\t{tb.c_time[i]}\t{int(tb.c_active[i])}\t{tb.c_module[i]}\t{tb.c_defstatus[i]}"
        for i in order.tolist()
    ]
    write_table(out_dir / RELATIVE_PATHS["concept"], HEADERS["concept"], lines)

    # descriptions
    nd = len(tb.d_term)
    d_ids = sctids(rng, nd, 1, 10**5, 10**8)
    d_conc = np.array(tb.d_concept, dtype=np.int64)
    c_time = np.array(tb.c_time, dtype=np.int64)
    d_time = np.maximum(c_time[d_conc], draw_dates(rng, nd))
    is_fixed = d_conc < len(FIXED_CONCEPTS)
    d_time[is_fixed] = c_time[d_conc[is_fixed]]
    d_id_str = [str(x) for x in d_ids.tolist()]
    d_time_l = d_time.tolist()
    modules = tb.c_module
    order = np.argsort(d_ids, kind="stable").tolist()
    lines = []
    lang: list[tuple[str, str]] = []
    for i in order:
        c = tb.d_concept[i]
        term = tb.d_term[i]
        type_id = FSN_TYPE if tb.d_fsn[i] else SYN_TYPE
        lines.append(
            f"{d_id_str[i]}\t{d_time_l[i]}\t{int(tb.d_active[i])}\t{modules[c]}\t"
            f"{tb.c_id[c]}\ten\t{type_id}\t{term}\t"
            f"{case_significance(term, voc.lower_words)}"
        )
    write_table(out_dir / RELATIVE_PATHS["description"], HEADERS["description"], lines)
    del lines

    # language refset (US): FSN and PT preferred, other synonyms acceptable
    for i in range(nd):
        acc = PREFERRED if tb.d_preferred[i] else ACCEPTABLE
        lang.append(
            (
                member_uuid(US_LANG_REFSET, d_id_str[i]),
                (
                    f"\t{d_time_l[i]}\t{int(tb.d_active[i])}\t{modules[tb.d_concept[i]]}\t"
                    f"{US_LANG_REFSET}\t{d_id_str[i]}\t{acc}"
                ),
            )
        )
    lang.sort()
    write_table(out_dir / RELATIVE_PATHS["language"], HEADERS["language"], [u + rest for u, rest in lang])
    n_lang = len(lang)
    del lang

    # associations
    refset_of = {k: r for k, r, _ in ASSOCIATION_KINDS}
    assoc = []
    for s, t, k in zip(tb.a_src, tb.a_dst, tb.a_kind):
        refset = refset_of[k]
        assoc.append(
            (
                member_uuid(refset, tb.c_id[s], tb.c_id[t]),
                f"\t{tb.c_time[s]}\t1\t{CORE_MODULE}\t{refset}\t{tb.c_id[s]}\t{tb.c_id[t]}",
            )
        )
    assoc.sort()
    write_table(out_dir / RELATIVE_PATHS["association"], HEADERS["association"], [u + rest for u, rest in assoc])

    # relationships
    nr = len(tb.r_src)
    r_ids = sctids(rng, nr, 2, 10**6, 10**9)
    r_src = np.array(tb.r_src, dtype=np.int64)
    r_time = np.maximum(c_time[r_src], draw_dates(rng, nr)).tolist()
    r_id_str = [str(x) for x in r_ids.tolist()]
    order = np.argsort(r_ids, kind="stable").tolist()
    lines = [
        f"{r_id_str[i]}\t{r_time[i]}\t1\t{modules[tb.r_src[i]]}\t{tb.c_id[tb.r_src[i]]}\t"
        f"{tb.c_id[tb.r_dst[i]]}\t{tb.r_group[i]}\t{tb.r_type[i]}\t{INFERRED}\t{EXISTENTIAL}"
        for i in order
    ]
    write_table(out_dir / RELATIVE_PATHS["relationship"], HEADERS["relationship"], lines)

    active = np.array(tb.c_active)
    d_active = np.array(tb.d_active)
    d_fsn = np.array(tb.d_fsn)
    d_pref = np.array(tb.d_preferred)
    kinds = Counter(tb.a_kind)
    is_a = sum(1 for t in tb.r_type if t == IS_A)
    return {
        "concepts": n,
        "concepts_active": int(active.sum()),
        "concepts_inactive": int((~active).sum()),
        "concepts_model_component": sum(1 for m in tb.c_module if m == MODEL_MODULE),
        "descriptions": nd,
        "descriptions_fsn": int(d_fsn.sum()),
        "descriptions_synonym": int((~d_fsn).sum()),
        "descriptions_synonym_active": int((~d_fsn & d_active).sum()),
        "descriptions_inactive": int((~d_active).sum()),
        "language_rows": n_lang,
        "language_preferred": int(d_pref.sum()),
        "language_acceptable": int((~d_pref).sum()),
        "associations": len(tb.a_src),
        "association_possibly_equivalent_to": kinds.get("possibly_equivalent_to", 0),
        "association_replaced_by": kinds.get("replaced_by", 0),
        "association_same_as": kinds.get("same_as", 0),
        "relationships": nr,
        "relationships_is_a": is_a,
        "relationships_attribute": nr - is_a,
    }
