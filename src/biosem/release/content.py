"""Content check of a public release: identifiers of restricted terminologies in concept columns.

Backs up the provenance check of :mod:`biosem.release.check`: whatever a dataset's metadata says, a
public file must not hold UMLS or SNOMED CT concept identifiers. Only *concept columns* are read
(``concept_id``, ``concept_id1``, ... and the analogy columns ``a_id``, ``b_ids``, ``c_id``,
``d_ids``), and only bare values count: the identifiers of open sources are prefixed (``HP:0001945``,
MeSH ``M0000001`` / ``D000001`` / SCR ``C000002`` or ``C000596789``, corpus ids ``MESH:D014262``,
``NCBIGene:7157``), so none of them matches.

* UMLS CUI: ``C`` and exactly seven digits (UMLS Reference Manual, MRCONSO ``CUI``); MeSH SCR UIs
  have six or nine digits, so ``C\\d{7}`` does not catch them.
* SNOMED CT concept id (SCTID): 6 to 18 digits whose partition identifier (the two digits before
  the check digit) is ``00``, ``01``, ``02`` (short format) or ``10``, ``11``, ``12`` (long format)
  and whose last digit is the Verhoeff check digit (SNOMED CT Technical Implementation Guide § 6.7).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import pyarrow as pa
import pyarrow.compute as pc

CONCEPT_COLUMN = re.compile(r"^(concept_id\w*|[a-d]_ids?)$")
"""Columns holding concept identifiers in biosem's released tables."""

CUI = re.compile(r"^C\d{7}$")
SCTID = re.compile(r"^\d{6,18}$")
SCTID_PARTITIONS = frozenset({"00", "01", "02", "10", "11", "12"})

_VERHOEFF_D = (
    (0, 1, 2, 3, 4, 5, 6, 7, 8, 9),
    (1, 2, 3, 4, 0, 6, 7, 8, 9, 5),
    (2, 3, 4, 0, 1, 7, 8, 9, 5, 6),
    (3, 4, 0, 1, 2, 8, 9, 5, 6, 7),
    (4, 0, 1, 2, 3, 9, 5, 6, 7, 8),
    (5, 9, 8, 7, 6, 0, 4, 3, 2, 1),
    (6, 5, 9, 8, 7, 1, 0, 4, 3, 2),
    (7, 6, 5, 9, 8, 2, 1, 0, 4, 3),
    (8, 7, 6, 5, 9, 3, 2, 1, 0, 4),
    (9, 8, 7, 6, 5, 4, 3, 2, 1, 0),
)
_VERHOEFF_P = (
    (0, 1, 2, 3, 4, 5, 6, 7, 8, 9),
    (1, 5, 7, 6, 2, 8, 3, 0, 9, 4),
    (5, 8, 0, 3, 7, 9, 6, 1, 4, 2),
    (8, 9, 1, 6, 0, 4, 3, 5, 2, 7),
    (9, 4, 5, 3, 1, 2, 6, 8, 7, 0),
    (4, 2, 8, 6, 5, 7, 3, 9, 0, 1),
    (2, 7, 9, 3, 8, 0, 6, 4, 1, 5),
    (7, 0, 4, 6, 9, 1, 3, 2, 5, 8),
)


def verhoeff_valid(digits: str) -> bool:
    """True when the last digit of ``digits`` is its Verhoeff check digit."""
    check = 0
    for position, digit in enumerate(reversed(digits)):
        check = _VERHOEFF_D[check][_VERHOEFF_P[position % 8][int(digit)]]
    return check == 0


def is_sctid(value: str) -> bool:
    """True when ``value`` is a well-formed SNOMED CT concept id (length, partition, check digit)."""
    return bool(SCTID.match(value)) and value[-3:-1] in SCTID_PARTITIONS and verhoeff_valid(value)


def restricted_id_kind(value: str) -> str | None:
    """``"UMLS CUI"``, ``"SNOMED CT id"`` or ``None`` for one identifier."""
    if CUI.match(value):
        return "UMLS CUI"
    if is_sctid(value):
        return "SNOMED CT id"
    return None


@dataclass(frozen=True)
class Finding:
    """Restricted identifiers found in one column: their kind, how many values and the first one."""

    column: str
    kind: str
    count: int
    example: str


CANDIDATE = r"^\s*(C\d{7}|\d{6,18})\s*$"
"""Values worth a closer look (a vectorised filter before the check digit is computed per value)."""


def _candidates(column: pa.ChunkedArray) -> list[str]:
    """The column's values (list items for list columns) matching :data:`CANDIDATE`, as strings."""
    if pa.types.is_list(column.type) or pa.types.is_large_list(column.type):
        column = pc.list_flatten(column)
    if not (pa.types.is_string(column.type) or pa.types.is_large_string(column.type)):
        column = pc.cast(column, pa.string())
    column = pc.drop_null(column)
    return [str(v).strip() for v in pc.filter(column, pc.match_substring_regex(column, CANDIDATE)).to_pylist()]


def scan_table(table: pa.Table) -> list[Finding]:
    """Restricted identifiers in the concept columns of ``table`` (:data:`CONCEPT_COLUMN`), per column and kind."""
    out = []
    for name in table.column_names:
        if not CONCEPT_COLUMN.match(name):
            continue
        found: dict[str, list[str]] = {}
        for text in _candidates(table.column(name)):
            kind = restricted_id_kind(text)
            if kind:
                found.setdefault(kind, []).append(text)
        out += [Finding(name, kind, len(values), values[0]) for kind, values in sorted(found.items())]
    return out
