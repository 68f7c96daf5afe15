"""Resolve ontology ids (a corpus' annotations, an older release's ids) to the current concepts of an
ingested OBO terminology.

Corpora annotated against an older release of an ontology carry ids the mirror's release has merged
or retired: CRAFT v5.0.2's GO and CL annotations (docs/design.md § CRAFT) against GO 2021-12-15 and
CL 2019-01-29. An id is looked up in the terminology's intermediates, in this order:

1. ``primary``: the id of an active concept (``concepts``).
2. ``alt_id``: an ``alt_id`` of a concept (``mappings`` rows with code_system
   :data:`~biosem.terminology.obo.ALT_ID_CODE_SYSTEM`; OBO: the id of a term merged into it). A
   declared term id is never looked up as an alt_id (UBERON 2015-04-23 declares 3 ids that are also
   alt_ids of other terms).
3. ``replaced_by``: an obsolete concept (found directly or through its alt_id) whose ``replaced_by``
   (``associations`` kind ``replaced_by``) leads, possibly over several obsolete terms, to an active
   concept. ``consider`` links (kind ``possibly_equivalent_to``) are suggestions for a curator and
   are never followed.

Ids that reach no active concept are: ``obsolete`` (an obsolete concept without ``replaced_by``, or
whose chain ends at one), ``ambiguous`` (an alt_id of two or more concepts, or an obsolete concept
with two or more replacements) or ``unresolved`` (neither a concept nor an alt_id of the
terminology; ids of other namespaces, CHEBI:…, PR:…, end here). Their ``concept_id`` is null.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Mapping

import pandas as pd

from biosem.terminology.obo import ALT_ID_CODE_SYSTEM

log = logging.getLogger(__name__)

RESOLUTIONS = ("primary", "alt_id", "replaced_by", "obsolete", "ambiguous", "unresolved")
"""The values of ``resolution`` (module docstring), in report order."""
RESOLVED = ("primary", "alt_id", "replaced_by")
"""The resolutions that give a current (active) concept id."""
MAX_REPLACEMENTS = 20
"""Longest ``replaced_by`` chain followed; a longer one (or a cycle) is ``obsolete``."""

RESOLVED_COLUMNS = ("id", "concept_id", "resolution", "steps")


class IdResolver:
    """The lookup tables of one terminology, built once, for :meth:`resolve`.

    Args:
        concepts: the ``concepts`` intermediate (``concept_id``, ``active``).
        associations: the ``associations`` intermediate (``inactive_id``, ``target_id``, ``kind``);
            only kind ``replaced_by`` is used.
        mappings: the ``mappings`` intermediate (``concept_id``, ``code_system``, ``code``); only
            rows of code_system :data:`~biosem.terminology.obo.ALT_ID_CODE_SYSTEM` are used.

    Raises:
        KeyError: a table lacks one of the columns named above.
    """

    def __init__(self, concepts: pd.DataFrame, associations: pd.DataFrame, mappings: pd.DataFrame) -> None:
        self.active: dict[str, bool] = dict(
            zip(concepts["concept_id"].astype(str), concepts["active"].astype(bool), strict=True)
        )
        alt = mappings.loc[mappings["code_system"] == ALT_ID_CODE_SYSTEM, ["code", "concept_id"]]
        alt = alt[~alt["code"].isin(self.active)].drop_duplicates()
        self.alt_ids: dict[str, list[str]] = {
            str(code): sorted(group["concept_id"].astype(str)) for code, group in alt.groupby("code", sort=True)
        }
        replaced = associations.loc[associations["kind"] == "replaced_by", ["inactive_id", "target_id"]]
        self.replaced_by: dict[str, list[str]] = {
            str(old): sorted(set(group["target_id"].astype(str)))
            for old, group in replaced.groupby("inactive_id", sort=True)
        }

    def resolve_one(self, ontology_id: str) -> tuple[str | None, str, int]:
        """``(concept_id, resolution, steps)`` of one id; ``steps`` counts the links followed
        (alt_id and replaced_by), 0 for a primary id or one that does not resolve from the start."""
        steps = 0
        current = ontology_id
        via_alt = False
        if current not in self.active:
            targets = self.alt_ids.get(current)
            if targets is None:
                return None, "unresolved", 0
            if len(targets) > 1:
                return None, "ambiguous", 0
            current, via_alt, steps = targets[0], True, 1
            if current not in self.active:  # an alt_id of a term outside the concepts table
                return None, "unresolved", 0
        seen = {current}
        replaced = False
        while not self.active[current]:
            targets = self.replaced_by.get(current, [])
            if len(targets) > 1:
                return None, "ambiguous", steps
            if not targets or targets[0] in seen or len(seen) > MAX_REPLACEMENTS or targets[0] not in self.active:
                return None, "obsolete", steps
            current = targets[0]
            seen.add(current)
            steps += 1
            replaced = True
        if replaced:
            return current, "replaced_by", steps
        return current, "alt_id" if via_alt else "primary", steps

    def resolve(self, ids: Iterable[str]) -> pd.DataFrame:
        """Resolve ``ids`` (duplicates kept, order kept).

        Returns:
            A DataFrame with columns ``id`` (as given), ``concept_id`` (an active concept of the
            terminology, or null), ``resolution`` (one of :data:`RESOLUTIONS`) and ``steps``
            (int: alt_id and replaced_by links followed).
        """
        ids = [str(i) for i in ids]
        cache: dict[str, tuple[str | None, str, int]] = {}
        for ontology_id in ids:
            if ontology_id not in cache:
                cache[ontology_id] = self.resolve_one(ontology_id)
        found = [cache[ontology_id] for ontology_id in ids]
        return pd.DataFrame(
            {
                "id": pd.Series(ids, dtype=object),
                "concept_id": pd.Series([f[0] for f in found], dtype=object),  # None stays None
                "resolution": pd.Series([f[1] for f in found], dtype=object),
                "steps": pd.Series([f[2] for f in found], dtype="int64"),
            },
            columns=list(RESOLVED_COLUMNS),
        )


def resolve_ids(
    ids: Iterable[str], concepts: pd.DataFrame, associations: pd.DataFrame, mappings: pd.DataFrame
) -> pd.DataFrame:
    """Map ontology ids to the current concept ids of a terminology (rules: module docstring).

    Args:
        ids: ontology ids as a corpus writes them (``"GO:0006412"``, ``"CL:0000000"``).
        concepts, associations, mappings: the terminology's intermediates
            (``results/intermediate/{concepts,associations,mappings}/<name>.parquet``), as DataFrames.

    Returns:
        One row per id, in the given order: ``id``, ``concept_id`` (null unless resolved),
        ``resolution`` (:data:`RESOLUTIONS`), ``steps``. See :meth:`IdResolver.resolve`.

    Raises:
        KeyError: a table lacks a column :class:`IdResolver` reads.
    """
    return IdResolver(concepts, associations, mappings).resolve(ids)


def resolution_counts(resolved: pd.DataFrame, *, distinct: bool = True) -> dict[str, int]:
    """How many ids (distinct ids by default) got each resolution, every one of :data:`RESOLUTIONS`
    listed (0 where none), for logs and counts tables."""
    frame = resolved.drop_duplicates("id") if distinct else resolved
    counts = frame["resolution"].value_counts()
    return {name: int(counts.get(name, 0)) for name in RESOLUTIONS}


def log_resolution(resolved: pd.DataFrame, label: str, *, examples: int = 10) -> Mapping[str, int]:
    """Log the counts of :func:`resolution_counts` (distinct ids and occurrences) and up to
    ``examples`` ids that do not resolve; returns the distinct counts."""
    counts = resolution_counts(resolved)
    occurrences = resolution_counts(resolved, distinct=False)
    log.info(
        "%s: %d distinct ids (%d occurrences): %s",
        label,
        sum(counts.values()),
        len(resolved),
        ", ".join(f"{name} {counts[name]} ({occurrences[name]})" for name in RESOLUTIONS),
    )
    failed = resolved.loc[~resolved["resolution"].isin(RESOLVED)].drop_duplicates("id").sort_values("id")
    if len(failed):
        shown = ", ".join(f"{row.id} ({row.resolution})" for row in failed.head(examples).itertuples())
        log.warning("%s: %d distinct ids do not resolve, e.g. %s", label, len(failed), shown)
    return counts
