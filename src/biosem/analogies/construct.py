"""BMASS analogy construction from terminology relations (Newman-Griffis, Lai & Fosler-Lussier 2017).

The paper's construction code was never published; biosem states each rule (docs/design.md § analogies):

1. **Relations** (:func:`relation_instances`): the ``relations`` intermediate of any format, one relation
   per (REL, RELA): UMLS MRREL REL/RELA (``RO/has_finding_site``), MeSH in the same conventions
   (``CHD``/``PAR`` tree, ``RN``/``RB`` concepts of a descriptor, ``RO/has_pharmacologic_action``;
   :mod:`biosem.terminology.mesh`), SNOMED CT attribute type id and its FSN (``116676008/Associated
   morphology``), OBO ``is_a`` and relationship ids with their Typedef names (``part_of`` / ``part of``).
   A relation's *label* is REL, or ``REL/RELA`` when RELA is given and differs from REL other than by
   spaces for underscores (so OBO's id and name give ``part_of``, but a BFO id and its name give
   ``BFO:0000050/part of``). Instances are distinct (subject, object) pairs with subject != object
   (SAB ignored). Directions are distinct relations *as stored*: UMLS and MeSH store both directions
   of each relationship (``has_tradename`` and ``tradename_of``; ``CHD`` and ``PAR``), SNOMED CT and
   OBO one. With ``inverse=True`` (config ``add_inverses`` lists the formats) every stored relation
   also yields its reverse as a distinct relation labelled ``inverse(REL)/inverse(RELA)`` (OBO
   ``is_a`` -> ``inverse(is_a)``, i.e. "has subclass"; ``part_of`` -> ``inverse(part_of)``, i.e.
   "has part" as BMASS's A2 ``anatomic_structure_has_part`` is the reverse of A1).
2. **Usable concepts** (:func:`concept_terms`): a concept is usable when it is active, outside the
   excluded modules (default: the SNOMED CT model component, whose metadata concepts are named "Is a",
   "Some", "Attribute"), and one of its eligible terms (active; configured languages; OBO synonyms of
   the configured scopes; not ambiguous) occurs at least ``min_frequency`` times in the corpus (paper:
   25 in PubMed; counting rules in :mod:`biosem.analogies.frequency`, abbreviations, capitals and
   common words counted with their case and abbreviations in context: :mod:`biosem.analogies.matching`).
   Its one frequent term is
   the most frequent normalised form (ties: string order); the string shown is the surface form of
   that normalised form (preferred term first, then FSN, synonym, abbreviation; then string order).

   A term is *ambiguous* (:func:`ambiguous_forms`, issue 37) when its normalised form is an eligible
   term of two or more considered concepts (active, outside the excluded modules): DOID
   "scleroderma" of two diseases, MeSH "Carvedilol" and "Carvedilol, (+)". With ``exclude_ambiguous``
   (default) such a term never counts for usability nor is shown, so it is never a, b, c or an
   answer; its concepts are judged on their other terms.
3. **One-to-one instances**: among a relation's instances between usable concepts, those whose subject
   has no other object and whose object has no other subject in the relation. Relations with at
   least ``min_one_to_one`` of them are kept (paper: 50), then the allow-list (paper: the 25 relations of
   Table 2, standing in for the manual Informativity review; ``None`` keeps all). A kept relation also
   needs ``pairs_per_relation`` subjects, so that every relation has exactly n x (n - 1) analogies.
4. **Sampling and bundling**: ``pairs_per_relation`` subjects (paper: 50) are drawn without replacement
   from all subjects with a usable object (one-to-one or not), with ``biosem.seeds.generator(seed,
   "analogies", terminology, label)``; each subject is bundled with every usable object (its *answers*),
   ordered by the objects' term frequency (descending), then term, then id. The first is its
   *primary* object.
5. **Analogies**: every ordered pair (a, c) of distinct sampled subjects: n x (n - 1) per relation (paper:
   50 x 49 = 2,450). The paper's three settings:

   * **Single-Answer**: b = a's primary object, d = c's primary object (one correct answer).
   * **Multi-Answer**: b = a's primary object, d = every object of c (any of them is correct).
   * **All-Info**: b = every object of a, d = every object of c.

   The unigram subset of each setting keeps the analogies whose every term (a, c, each b and d) is a
   single token after normalisation. "Amb" (Table 2) = mean number of answers per Multi-Answer analogy.

   An answer can coincide with a, b or c: in a hierarchy two sampled subjects often share a parent
   (``a is_a P``, ``c is_a P``: d = b), and a subject can be another's object. Evaluation excludes a,
   b and c from the ranking (:mod:`biosem.evaluate.analogies`), so such an answer cannot be found. The
   analogies are kept (the n x (n - 1) design holds) and counted per relation: ``single_answer_abc``
   (Single-Answer analogies whose d is a, b or c) and ``multi_answer_abc`` (Multi-Answer analogies
   whose every d is a, b or c, i.e. no answer can be found).
6. **What the validity rules removed** (:func:`rule_steps`, issue 37): the rules of :data:`RULES` are
   applied one after the other, starting from the BMASS construction (every term counted lowercased,
   ambiguous terms kept). For each rule, the counts table gives the eligible terms that reached
   ``min_frequency`` before it and no longer count after it (``<rule>_terms``), the concepts usable
   before it and not after it (``<rule>_concepts``), and the Single-Answer analogies of the BMASS
   construction whose a, b, c or d is one of those concepts (``<rule>_analogies``); ``bmass_analogies``
   is the size of that construction. A relation's row counts the concepts (and their terms) of its
   instances between concepts usable under BMASS counting; the ``(all)`` row every concept.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from biosem.analogies.matching import CASE_RULES
from biosem.analogies.schemas import ANALOGY_COLUMNS
from biosem.seeds import generator

log = logging.getLogger(__name__)

SETTINGS = ("single_answer", "multi_answer", "all_info")
DATASETS = SETTINGS + tuple(f"unigram_{s}" for s in SETTINGS)
"""The six datasets per terminology: three settings and their unigram subsets."""

TERM_TYPE_ORDER = {"preferred": 0, "fsn": 1, "synonym": 2, "abbreviation": 3}

STATUS_KEPT = "kept"
STATUS_NO_USABLE = "no_usable_instances"
STATUS_FEW_ONE_TO_ONE = "below_min_one_to_one"
STATUS_NOT_ALLOWED = "not_in_allow_list"
STATUS_FEW_SUBJECTS = "too_few_subjects"

ABC_COLUMNS = ("single_answer_abc", "multi_answer_abc")
"""Analogies none of whose answers can be found once a, b and c are excluded (Single-, Multi-Answer)."""

RULES = (*CASE_RULES, "context", "ambiguous")
"""The validity rules of issue 37, in the order :func:`rule_steps` applies them: counting with the case
(:data:`biosem.analogies.matching.CASE_RULES`), abbreviations only in the documents that name their
concept otherwise (:func:`biosem.analogies.matching.in_context`), then leaving out ambiguous terms."""

RULE_REASONS = {
    "abbreviation": "abbreviations counted as written",
    "capitals": "terms written in capitals or mixed case counted with their case",
    "common_word": "common English words counted only where cased as in the terminology",
    "context": "abbreviations counted only in documents that name their concept by another term",
    "ambiguous": "terms naming two or more concepts left out",
}
"""Why each rule removes what it removes (log lines)."""

RULE_COLUMNS = ("bmass_analogies", *(f"{r}_{what}" for r in RULES for what in ("terms", "concepts", "analogies")))
"""Columns of ``counts.tsv`` saying what each rule of :data:`RULES` removed (module docstring, step 6)."""

COUNT_COLUMNS = (
    "relation", "rel", "rela", "instances", "usable_instances", "subjects", "objects", "one_to_one",
    "status", "sampled_pairs", "amb", *DATASETS, *ABC_COLUMNS, *RULE_COLUMNS,
)  # fmt: skip
"""Columns of ``counts.tsv``: one row per stored relation plus a final ``(all)`` row."""


@dataclass(frozen=True)
class AnalogyParams:
    """Construction parameters (config ``analogies``; defaults = the BMASS paper's thresholds with the
    issue-37 validity rules on; ``presets/bmass-2017.yaml`` switches the rules off)."""

    min_frequency: int = 25
    min_one_to_one: int = 50
    pairs_per_relation: int = 50
    relations: tuple[str, ...] | None = None  # allow-list: labels, RELs or RELAs; None = all
    inverse: bool = False  # add the reverse of every stored relation
    languages: tuple[str, ...] | None = ("en",)
    synonym_scopes: tuple[str, ...] | None = ("EXACT",)
    exclude_modules: tuple[str, ...] = ()  # concept modules never usable (SNOMED CT model component)
    exclude_ambiguous: bool = True  # a term naming two or more concepts never counts (issue 37; paper: kept)
    seed: int = 0

    def __post_init__(self) -> None:
        if self.pairs_per_relation < 2:
            raise ValueError("pairs_per_relation must be at least 2 (an analogy needs two subjects)")
        if self.min_frequency < 1 or self.min_one_to_one < 0:
            raise ValueError("min_frequency must be >= 1 and min_one_to_one >= 0")


def params_from_config(section: Mapping[str, object], terminology: str, fmt: str, seed: int) -> AnalogyParams:
    """Parameters for one terminology: the ``analogies`` config section (as validated by
    ``workflow/schemas/analogies.schema.yaml``: every key present) with its ``overrides`` entry.

    ``fmt`` (rf2, rrf, obo) decides ``inverse`` through ``add_inverses``.
    """
    merged = dict(section)
    # overrides: terminologies without an entry use the section (absence is meaningful here)
    merged.update(section["overrides"].get(terminology, {}))  # type: ignore[attr-defined]

    def tup(key: str) -> tuple[str, ...] | None:
        value = merged[key]
        return None if value is None else tuple(str(v) for v in value)  # type: ignore[attr-defined]

    return AnalogyParams(
        min_frequency=int(merged["min_frequency"]),  # type: ignore[arg-type]
        min_one_to_one=int(merged["min_one_to_one"]),  # type: ignore[arg-type]
        pairs_per_relation=int(merged["pairs_per_relation"]),  # type: ignore[arg-type]
        relations=tup("relations"),
        inverse=fmt in merged["add_inverses"],  # type: ignore[operator]
        languages=tup("languages"),
        synonym_scopes=tup("synonym_scopes"),
        exclude_modules=tup("exclude_modules") or (),
        exclude_ambiguous=bool(merged["exclude_ambiguous_terms"]),
        seed=int(seed),
    )


# --------------------------------------------------------------------------------------------------
# Concepts and their frequent term
# --------------------------------------------------------------------------------------------------
def _considered(term_counts: pd.DataFrame, params: AnalogyParams, concepts: pd.DataFrame | None) -> pd.DataFrame:
    """Terms with a non-empty form, of considered concepts (active, outside the excluded modules),
    in the configured languages."""
    t = term_counts[term_counts["normalised"] != ""]
    if concepts is not None:
        ok = concepts["active"].astype(bool) & ~concepts["module"].isin(list(params.exclude_modules))
        t = t[t["concept_id"].isin(concepts.loc[ok, "concept_id"])]
    if params.languages is not None:
        t = t[t["language"].isna() | t["language"].isin(list(params.languages))]
    return t


def _in_scope(t: pd.DataFrame, params: AnalogyParams) -> pd.DataFrame:
    if params.synonym_scopes is None:
        return t
    return t[t["scope"].isna() | t["scope"].isin(list(params.synonym_scopes))]


def ambiguous_forms(term_counts: pd.DataFrame, params: AnalogyParams, concepts: pd.DataFrame | None = None) -> set[str]:
    """Normalised forms naming two or more considered concepts (issue 37, rule 2).

    Args:
        term_counts: the ``term_counts`` intermediate (columns concept_id, normalised, language, scope).
        params: languages, synonym scopes and excluded modules.
        concepts: the ``concepts`` intermediate (inactive and excluded-module concepts do not count).

    Returns:
        The normalised forms (:func:`biosem.analogies.frequency.normalise`: lowercase, punctuation
        -> space) that are eligible terms (active, in a configured language; any term type; OBO
        synonyms of the configured scopes, so a RELATED or BROAD synonym does not make a name
        ambiguous under the default ``[EXACT]``) of at least two considered concepts.
    """
    t = _in_scope(_considered(term_counts, params, concepts), params)
    per_form = t.drop_duplicates(["normalised", "concept_id"])["normalised"].value_counts()
    return set(per_form.index[per_form >= 2])


def concept_terms(
    term_counts: pd.DataFrame,
    params: AnalogyParams,
    concepts: pd.DataFrame | None = None,
    rules: tuple[str, ...] = RULES,
) -> pd.DataFrame:
    """The one frequent term of every concept with an eligible term, and whether the concept is usable.

    Args:
        term_counts: the ``term_counts`` intermediate (:data:`~biosem.analogies.schemas.TERM_COUNTS`).
        params: thresholds, languages, scopes, excluded modules, ``exclude_ambiguous``.
        concepts: the ``concepts`` intermediate; when given, only active concepts outside
            ``params.exclude_modules`` are considered.
        rules: the validity rules (:data:`RULES`) in force (default: all, as the terms were counted):
            a term of a case rule that is not in force counts lowercased (``count_folded``), as BMASS;
            without ``context`` an abbreviation counts wherever it occurs (``count_cased``); without
            ``ambiguous`` (or ``params.exclude_ambiguous`` False) ambiguous terms count. A
            ``term_counts`` table without ``count_folded`` is used as it is.

    Returns:
        One row per concept with an eligible term, sorted by concept_id: ``concept_id, term`` (surface
        form), ``normalised, tokens, count`` (occurrences of the term as counted), ``case_rule``
        (None: counted lowercased), ``usable`` (count >= ``min_frequency``).
    """
    t = _in_scope(_considered(term_counts, params, concepts), params)
    if params.exclude_ambiguous and "ambiguous" in rules:
        t = t[~t["normalised"].isin(ambiguous_forms(t, params))]
    t = _as_counted(t, rules)
    t = t.assign(_type=t["term_type"].map(TERM_TYPE_ORDER).fillna(len(TERM_TYPE_ORDER)).astype(int))
    # Most frequent normalised form; ties by the normalised string; then the surface form to show.
    t = t.sort_values(
        ["concept_id", "count", "normalised", "_type", "term", "term_id"],
        ascending=[True, False, True, True, True, True],
        kind="stable",
    )
    best = t.drop_duplicates("concept_id", keep="first")
    out = best[["concept_id", "term", "normalised", "tokens", "count", "case_rule"]].reset_index(drop=True)
    out["usable"] = out["count"] >= params.min_frequency
    return out


def _as_counted(t: pd.DataFrame, rules: tuple[str, ...]) -> pd.DataFrame:
    """``t`` with ``count`` as counted under the case and context ``rules`` in force (module docstring
    of :mod:`biosem.analogies.matching`) and ``case_rule`` None where the term counts lowercased."""
    if "count_folded" not in t:
        return t.assign(case_rule=None)
    cased = t["case_rule"].isin([r for r in rules if r in CASE_RULES]).to_numpy()
    count = np.where(cased, t["count_cased"].to_numpy(), t["count_folded"].to_numpy())
    if "context" in rules:
        count = np.where(cased & t["in_context"].to_numpy(dtype=bool), t["count"].to_numpy(), count)
    return t.assign(count=count, case_rule=t["case_rule"].where(cased, None))


def rule_steps(
    term_counts: pd.DataFrame, params: AnalogyParams, concepts: pd.DataFrame | None = None
) -> list[tuple[str, pd.DataFrame, pd.DataFrame]]:
    """The concepts after each validity rule, applied one after the other (module docstring, step 6).

    Returns:
        ``[("bmass", concepts, lost), (rule, concepts, lost) for rule in RULES]``: ``concepts`` as
        :func:`concept_terms` gives them with the rules so far in force (the first: every term
        lowercased, ambiguous terms kept; the last: the construction's own), ``lost`` the eligible
        terms (``concept_id, term, normalised, count_before``) that reached ``min_frequency`` before
        the rule and no longer count after it (empty for ``bmass``).
    """
    eligible = _in_scope(_considered(term_counts, params, concepts), params)
    ambiguous = ambiguous_forms(eligible, params) if params.exclude_ambiguous else set()
    steps: list[tuple[str, pd.DataFrame, pd.DataFrame]] = []
    before = _as_counted(eligible, ())
    for k, rule in enumerate(("bmass", *RULES)):
        on = RULES[:k]
        table = concept_terms(term_counts, params, concepts, rules=on)
        after = _as_counted(eligible, on)
        if "ambiguous" in on and ambiguous:
            after = after.assign(count=after["count"].where(~after["normalised"].isin(ambiguous), 0))
        was, now = before["count"].to_numpy(), after["count"].to_numpy()
        gone = (was >= params.min_frequency) & (now < params.min_frequency)
        lost = eligible.loc[gone, ["concept_id", "term", "normalised"]].assign(count_before=was[gone])
        steps.append((rule, table, lost.reset_index(drop=True)))
        before = after
    return steps


# --------------------------------------------------------------------------------------------------
# Relations
# --------------------------------------------------------------------------------------------------
def relation_label(rel: str, rela: str | None) -> str:
    """``REL``, or ``REL/RELA`` when RELA is given and differs from REL other than by spaces for
    underscores (OBO: id ``part_of`` and Typedef name ``part of`` -> ``part_of``)."""
    if rela is None or rela == "" or rela.replace(" ", "_") == rel.replace(" ", "_"):
        return rel
    return f"{rel}/{rela}"


def relation_instances(relations: pa.Table | pd.DataFrame, inverse: bool = False) -> pa.Table:
    """Distinct (rel, rela, subject_id, object_id) instances with subject != object (SAB ignored).

    Args:
        relations: the ``relations`` intermediate (columns subject_id, rel, rela, object_id).
        inverse: also add every instance reversed, under ``inverse(REL)`` / ``inverse(RELA)``.

    Returns:
        Arrow table ``rel, rela, subject_id, object_id`` (rela null where the source gives none).
    """
    table = relations if isinstance(relations, pa.Table) else pa.Table.from_pandas(relations, preserve_index=False)
    columns = ["rel", "rela", "subject_id", "object_id"]
    table = table.select(columns).cast(pa.schema([(c, pa.string()) for c in columns]))
    rela = table["rela"]
    table = table.set_column(1, "rela", pc.if_else(pc.equal(rela, ""), pa.scalar(None, pa.string()), rela))
    table = table.filter(pc.not_equal(table["subject_id"], table["object_id"]))
    if inverse:
        reverse = pa.table(
            {
                "rel": pc.binary_join_element_wise("inverse(", table["rel"], ")", ""),
                "rela": pc.binary_join_element_wise("inverse(", table["rela"], ")", ""),
                "subject_id": table["object_id"],
                "object_id": table["subject_id"],
            }
        )
        table = pa.concat_tables([table, reverse.cast(table.schema)])
    return table.group_by(["rel", "rela", "subject_id", "object_id"], use_threads=False).aggregate([])


def _allowed(labels: pd.DataFrame, allow: tuple[str, ...] | None) -> np.ndarray:
    if allow is None:
        return np.ones(len(labels), dtype=bool)
    wanted = set(allow)
    return np.array(
        [lab in wanted or rel in wanted or (rela is not None and rela in wanted)
         for lab, rel, rela in zip(labels["relation"], labels["rel"], labels["rela"])],
        dtype=bool,
    )  # fmt: skip


def relation_labels(rel: pa.ChunkedArray | pa.Array, rela: pa.ChunkedArray | pa.Array) -> pa.ChunkedArray | pa.Array:
    """:func:`relation_label` over Arrow string arrays."""
    same = pc.equal(pc.replace_substring(rela, " ", "_"), pc.replace_substring(rel, " ", "_"))
    plain = pc.or_kleene(pc.is_null(rela), same)
    return pc.if_else(plain, rel, pc.binary_join_element_wise(rel, rela, "/"))


def relation_statistics(
    instances: pa.Table, concepts: pd.DataFrame, params: AnalogyParams
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Per-relation counts and decisions, and the usable instances.

    Args:
        instances: :func:`relation_instances`.
        concepts: :func:`concept_terms` (column ``usable``).
        params: thresholds and allow-list.

    Returns:
        (stats, usable): ``stats`` has one row per relation (sorted by label) with ``relation, rel,
        rela, instances, usable_instances, subjects, objects, one_to_one, status`` (rela None where
        the source gives none); ``usable`` holds the instances between usable concepts
        (``relation, subject_id, object_id``, sorted).

    Raises:
        ValueError: two (REL, RELA) pairs share a label.
    """
    instances = instances.append_column("relation", relation_labels(instances["rel"], instances["rela"]))
    keys = instances.group_by(["relation", "rel", "rela"], use_threads=False).aggregate(
        [("subject_id", "count", pc.CountOptions("all"))]
    )
    stats = pd.DataFrame(
        {
            "relation": pd.Series(keys["relation"].to_pylist(), dtype=object),
            "rel": pd.Series(keys["rel"].to_pylist(), dtype=object),
            "rela": pd.Series(keys["rela"].to_pylist(), dtype=object),
            "instances": np.asarray(keys["subject_id_count"].to_numpy(), dtype=np.int64),
        }
    )
    if stats["relation"].duplicated().any():
        dup = sorted(stats.loc[stats["relation"].duplicated(), "relation"])
        raise ValueError(f"relation labels are ambiguous (two REL/RELA pairs give {dup[:5]})")

    ok_ids = pa.array(sorted(concepts.loc[concepts["usable"], "concept_id"]), pa.string())
    mask = pc.and_(pc.is_in(instances["subject_id"], ok_ids), pc.is_in(instances["object_id"], ok_ids))
    usable = instances.filter(mask).select(["relation", "subject_id", "object_id"])
    usable = pd.DataFrame({c: pd.Series(usable[c].to_pylist(), dtype=object) for c in usable.column_names})
    usable = usable.sort_values(["relation", "subject_id", "object_id"], kind="stable").reset_index(drop=True)

    out_degree = usable.groupby(["relation", "subject_id"])["object_id"].transform("size")
    in_degree = usable.groupby(["relation", "object_id"])["subject_id"].transform("size")
    per = (
        usable.assign(one_to_one=(out_degree == 1) & (in_degree == 1))
        .groupby("relation")
        .agg(
            usable_instances=("subject_id", "size"),
            subjects=("subject_id", "nunique"),
            objects=("object_id", "nunique"),
            one_to_one=("one_to_one", "sum"),
        )
    )
    for col in ("usable_instances", "subjects", "objects", "one_to_one"):
        stats[col] = stats["relation"].map(per[col]).fillna(0).astype(np.int64) if len(per) else np.int64(0)
        stats[col] = stats[col].astype(np.int64)

    allowed = _allowed(stats, params.relations)
    status = np.full(len(stats), STATUS_KEPT, dtype=object)
    status[stats["subjects"].to_numpy() < params.pairs_per_relation] = STATUS_FEW_SUBJECTS
    status[~allowed] = STATUS_NOT_ALLOWED
    status[stats["one_to_one"].to_numpy() < params.min_one_to_one] = STATUS_FEW_ONE_TO_ONE
    status[stats["usable_instances"].to_numpy() == 0] = STATUS_NO_USABLE
    stats["status"] = status
    stats = stats.sort_values("relation", kind="stable").reset_index(drop=True)
    cols = ["relation", "rel", "rela", "instances", "usable_instances", "subjects", "objects", "one_to_one", "status"]
    return stats[cols], usable


# --------------------------------------------------------------------------------------------------
# Sampling, bundling, analogies
# --------------------------------------------------------------------------------------------------
def sample_subjects(subjects: Sequence[str], n: int, rng: np.random.Generator) -> list[str]:
    """``n`` distinct subjects drawn without replacement from the sorted ``subjects``, returned sorted.

    Raises:
        ValueError: fewer than ``n`` subjects.
    """
    pool = sorted(subjects)
    if len(pool) < n:
        raise ValueError(f"cannot sample {n} subjects from {len(pool)}")
    chosen = rng.choice(len(pool), size=n, replace=False)
    return [pool[i] for i in sorted(chosen)]


def bundles(usable: pd.DataFrame, concepts: pd.DataFrame) -> pd.DataFrame:
    """Every usable object of each (relation, subject), ordered: term frequency descending, then
    normalised term, then id. Columns ``relation, subject_id, object_ids, object_terms,
    object_unigram`` (lists; the first object is the primary one)."""
    info = concepts.set_index("concept_id")
    frame = usable[["relation", "subject_id", "object_id"]].copy()
    frame["count"] = info["count"].reindex(frame["object_id"]).to_numpy()
    frame["normalised"] = info["normalised"].reindex(frame["object_id"]).to_numpy()
    frame["term"] = info["term"].reindex(frame["object_id"]).to_numpy()
    frame["unigram"] = info["tokens"].reindex(frame["object_id"]).to_numpy() == 1
    frame = frame.sort_values(
        ["relation", "subject_id", "count", "normalised", "object_id"],
        ascending=[True, True, False, True, True],
        kind="stable",
    )
    grouped = frame.groupby(["relation", "subject_id"], sort=True)
    return pd.DataFrame(
        {
            "object_ids": grouped["object_id"].agg(list),
            "object_terms": grouped["term"].agg(list),
            "object_unigram": grouped["unigram"].agg(list),
        }
    ).reset_index()


def _ordered_pairs(n: int) -> tuple[np.ndarray, np.ndarray]:
    """Indices (i, j) of every ordered pair of distinct items, i-major: n x (n - 1) pairs."""
    i, j = np.nonzero(~np.eye(n, dtype=bool))
    return i, j


def build_analogies(
    relations: pa.Table | pd.DataFrame,
    term_counts: pd.DataFrame,
    params: AnalogyParams,
    terminology: str,
    concepts: pd.DataFrame | None = None,
) -> tuple[dict[str, pd.DataFrame], pd.DataFrame]:
    """Build the six analogy datasets and the counts table of one terminology.

    Args:
        relations: the ``relations`` intermediate (Arrow or pandas).
        term_counts: the ``term_counts`` intermediate.
        params: construction parameters.
        terminology: the terminology name (a key of the seeded generator).
        concepts: the ``concepts`` intermediate (inactive and excluded-module concepts are unusable).

    Returns:
        (datasets, counts): ``datasets`` maps each name of :data:`DATASETS` to a frame with
        :data:`~biosem.analogies.schemas.ANALOGY_COLUMNS` (rows: relations by label, then a, then c;
        empty frames when no relation is kept); ``counts`` has :data:`COUNT_COLUMNS`, one row per
        relation and a final ``(all)`` row whose status is ``ok`` or ``empty``; its
        :data:`RULE_COLUMNS` say what each validity rule removed (module docstring, step 6).
    """
    steps = rule_steps(term_counts, params, concepts)
    final = steps[-1][1]
    log.info(
        "%s: %d concepts with an eligible term, %d usable (frequency >= %d)",
        terminology, len(final), int(final["usable"].sum()), params.min_frequency,
    )  # fmt: skip
    instances = relation_instances(relations, inverse=params.inverse)
    datasets, stats, usable = _construct(instances, final, params, terminology)
    removed = _removed_at(steps)
    if removed:
        bmass, _, bmass_usable = _construct(instances, steps[0][1], params, terminology)
    else:  # no rule changed which concepts are usable: the BMASS construction is this one
        bmass, bmass_usable = datasets, usable
    effects = _rule_effects(steps, removed, bmass["single_answer"], bmass_usable)
    for rule, _, lost in steps[1:]:
        concepts_removed = sorted(c for c, r in removed.items() if r == rule)
        if len(lost) or concepts_removed:
            examples = ", ".join(f"{t!r} ({n})" for t, n in zip(lost["term"][:8], lost["count_before"][:8]))
            log.info(
                "%s: rule %s (%s): %d frequent terms no longer count (e.g. %s); %d concepts no longer usable "
                "(e.g. %s); %d of %d BMASS Single-Answer analogies involve them",
                terminology, rule, RULE_REASONS[rule], len(lost), examples or "none", len(concepts_removed),
                ", ".join(concepts_removed[:8]) or "none", int(effects.loc["(all)", f"{rule}_analogies"]),
                int(effects.loc["(all)", "bmass_analogies"]),
            )  # fmt: skip
        else:
            log.info("%s: rule %s (%s): removes nothing", terminology, rule, RULE_REASONS[rule])
    counts = _counts(stats, datasets, params.pairs_per_relation, effects)
    return datasets, counts


def _construct(
    instances: pa.Table, concepts: pd.DataFrame, params: AnalogyParams, terminology: str
) -> tuple[dict[str, pd.DataFrame], pd.DataFrame, pd.DataFrame]:
    """Relations, sampling and the six datasets from the usable concepts (steps 3-5):
    (datasets, per-relation statistics, usable instances)."""
    stats, usable = relation_statistics(instances, concepts, params)
    kept = stats.loc[stats["status"] == STATUS_KEPT, "relation"].tolist()
    bundle = bundles(usable[usable["relation"].isin(kept)], concepts).set_index(["relation", "subject_id"])
    info = concepts.set_index("concept_id")

    parts: dict[str, list[pd.DataFrame]] = {name: [] for name in SETTINGS}
    unigram: dict[str, list[np.ndarray]] = {name: [] for name in SETTINGS}
    n = params.pairs_per_relation
    for relation in kept:
        row = stats.loc[stats["relation"] == relation].iloc[0]
        subjects = usable.loc[usable["relation"] == relation, "subject_id"].unique().tolist()
        rng = generator(params.seed, "analogies", terminology, relation)
        sampled = sample_subjects(subjects, n, rng)
        b = bundle.loc[[(relation, s) for s in sampled]]
        ids = b["object_ids"].tolist()
        terms = b["object_terms"].tolist()
        uni = [all(u) for u in b["object_unigram"]]
        uni_first = [u[0] for u in b["object_unigram"]]
        s_terms = info["term"].reindex(sampled).tolist()
        s_uni = info["tokens"].reindex(sampled).to_numpy() == 1
        i, j = _ordered_pairs(n)
        base = {
            "relation": relation,
            "rel": row["rel"],
            "rela": row["rela"],
            "a_id": [sampled[k] for k in i],
            "a_term": [s_terms[k] for k in i],
            "c_id": [sampled[k] for k in j],
            "c_term": [s_terms[k] for k in j],
        }
        first_ids = [[x[0]] for x in ids]
        first_terms = [[x[0]] for x in terms]
        choice = {
            "single_answer": (first_ids, first_terms, uni_first, first_ids, first_terms, uni_first),
            "multi_answer": (first_ids, first_terms, uni_first, ids, terms, uni),
            "all_info": (ids, terms, uni, ids, terms, uni),
        }
        for name, (bi, bt, bu, di, dt, du) in choice.items():
            frame = pd.DataFrame(
                {
                    **base,
                    "b_ids": [bi[k] for k in i],
                    "b_terms": [bt[k] for k in i],
                    "d_ids": [di[k] for k in j],
                    "d_terms": [dt[k] for k in j],
                }
            )[list(ANALOGY_COLUMNS)]
            parts[name].append(frame)
            unigram[name].append(s_uni[i] & s_uni[j] & np.asarray(bu)[i] & np.asarray(du)[j])

    datasets: dict[str, pd.DataFrame] = {}
    for name in SETTINGS:
        frame = pd.concat(parts[name], ignore_index=True) if parts[name] else _empty()
        mask = np.concatenate(unigram[name]) if unigram[name] else np.zeros(0, dtype=bool)
        datasets[name] = frame
        datasets[f"unigram_{name}"] = frame[mask].reset_index(drop=True)
    return datasets, stats, usable


def _removed_at(steps: list[tuple[str, pd.DataFrame, pd.DataFrame]]) -> dict[str, str]:
    """Concept id -> the rule after which it is no longer usable (concepts usable under BMASS only)."""
    removed: dict[str, str] = {}
    previous = set(steps[0][1].loc[steps[0][1]["usable"], "concept_id"])
    for rule, table, _ in steps[1:]:
        current = set(table.loc[table["usable"], "concept_id"])
        removed.update({c: rule for c in sorted(previous - current)})
        previous = current
    return removed


def _rule_effects(
    steps: list[tuple[str, pd.DataFrame, pd.DataFrame]],
    removed: dict[str, str],
    bmass_single: pd.DataFrame,
    bmass_usable: pd.DataFrame,
) -> pd.DataFrame:
    """:data:`RULE_COLUMNS` per relation (index: relation labels of the BMASS construction's usable
    instances and analogies) and ``(all)`` (module docstring, step 6)."""
    rank = {rule: k for k, rule in enumerate(RULES)}
    columns = list(RULE_COLUMNS)
    rows: dict[str, dict[str, int]] = {}

    def row(relation: str) -> dict[str, int]:
        return rows.setdefault(relation, dict.fromkeys(columns, 0))

    # analogies: the first rule (in RULES order) that removed one of a, b, c, d
    if len(bmass_single):
        first = np.full(len(bmass_single), len(RULES))
        primary = (bmass_single["b_ids"].str[0], bmass_single["d_ids"].str[0])
        for ids in (bmass_single["a_id"], bmass_single["c_id"], *primary):
            k = ids.map(lambda c: rank[removed[c]] if c in removed else len(RULES)).to_numpy()
            first = np.minimum(first, k)
        frame = pd.DataFrame({"relation": bmass_single["relation"].to_numpy(), "first": first})
        for relation, size in frame.groupby("relation").size().items():
            row(relation)["bmass_analogies"] = int(size)
        for (relation, k), size in frame[frame["first"] < len(RULES)].groupby(["relation", "first"]).size().items():
            row(relation)[f"{RULES[k]}_analogies"] = int(size)
    # concepts and terms of each relation's instances between BMASS-usable concepts
    if len(bmass_usable):
        members = pd.concat(
            [
                bmass_usable[["relation", "subject_id"]].set_axis(["relation", "concept_id"], axis=1),
                bmass_usable[["relation", "object_id"]].set_axis(["relation", "concept_id"], axis=1),
            ]
        ).drop_duplicates()
        gone = members[members["concept_id"].isin(list(removed))]
        gone = gone.assign(rule=gone["concept_id"].map(removed))
        for (relation, rule), size in gone.groupby(["relation", "rule"]).size().items():
            row(relation)[f"{rule}_concepts"] = int(size)
        for rule, _, lost in steps[1:]:
            per_concept = lost.groupby("concept_id").size()
            hits = members[members["concept_id"].isin(per_concept.index)]
            sizes = hits["concept_id"].map(per_concept).groupby(hits["relation"]).sum()
            for relation, size in sizes.items():
                row(relation)[f"{rule}_terms"] = int(size)
    total = dict.fromkeys(columns, 0)
    total["bmass_analogies"] = int(len(bmass_single))
    for rule, _, lost in steps[1:]:
        total[f"{rule}_terms"] = len(lost)
        total[f"{rule}_concepts"] = sum(1 for r in removed.values() if r == rule)
        total[f"{rule}_analogies"] = sum(r[f"{rule}_analogies"] for r in rows.values())
    rows["(all)"] = total
    return pd.DataFrame.from_dict(rows, orient="index", columns=columns).astype(np.int64)


def answers_in_abc(frame: pd.DataFrame) -> pd.Series:
    """Per analogy (columns ``a_id, b_ids, c_id, d_ids``): True when every answer d is a, c or one of
    the b, so none can be found once a, b and c are excluded from the ranking. Boolean Series aligned
    with ``frame``."""
    return pd.Series(
        [set(d) <= {a, c, *b} for a, b, c, d in zip(frame["a_id"], frame["b_ids"], frame["c_id"], frame["d_ids"])],
        index=frame.index,
        dtype=bool,
    )


def _empty() -> pd.DataFrame:
    return pd.DataFrame({c: pd.Series(dtype=object) for c in ANALOGY_COLUMNS})


def _counts(stats: pd.DataFrame, datasets: dict[str, pd.DataFrame], n: int, effects: pd.DataFrame) -> pd.DataFrame:
    counts = stats.copy()
    kept = counts["status"] == STATUS_KEPT
    counts["sampled_pairs"] = np.where(kept, n, 0).astype(np.int64)
    multi = datasets["multi_answer"]
    answers = multi["d_ids"].map(len) if len(multi) else pd.Series(dtype=float)
    amb = answers.groupby(multi["relation"]).mean() if len(multi) else pd.Series(dtype=float)
    counts["amb"] = counts["relation"].map(amb).astype(float)
    for name in DATASETS:
        sizes = datasets[name].groupby("relation").size() if len(datasets[name]) else pd.Series(dtype=np.int64)
        counts[name] = counts["relation"].map(sizes).fillna(0).astype(np.int64)
    for name, column in (("single_answer", "single_answer_abc"), ("multi_answer", "multi_answer_abc")):
        frame = datasets[name]
        hits = answers_in_abc(frame)
        sizes = hits.groupby(frame["relation"]).sum() if len(frame) else pd.Series(dtype=np.int64)
        counts[column] = counts["relation"].map(sizes).fillna(0).astype(np.int64)
    total = {
        "relation": "(all)",
        "rel": "",
        "rela": None,
        **{
            c: int(counts[c].sum())
            for c in ("instances", "usable_instances", "one_to_one", "sampled_pairs", *DATASETS, *ABC_COLUMNS)
        },
        "subjects": int(counts["subjects"].sum()),
        "objects": int(counts["objects"].sum()),
        "status": "ok" if kept.any() else "empty",
        "amb": float(answers.mean()) if len(answers) else float("nan"),
    }
    counts = pd.concat([counts, pd.DataFrame([total])], ignore_index=True)
    for column in RULE_COLUMNS:
        counts[column] = counts["relation"].map(effects[column]).fillna(0).astype(np.int64)
    return counts[list(COUNT_COLUMNS)]
