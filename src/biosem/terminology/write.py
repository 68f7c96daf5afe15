"""Writing terminology intermediates (the five tables of :mod:`biosem.terminology.schemas`)."""

from __future__ import annotations

import logging
from collections.abc import Mapping

import pyarrow as pa

from biosem.io import write_table
from biosem.terminology.schemas import TERMINOLOGY_TABLES

log = logging.getLogger(__name__)


def write_terminology(tables: Mapping[str, pa.Table], outputs: Mapping[str, str], name: str) -> dict[str, int]:
    """Write each table to ``outputs[table]`` (schema-checked, sorted, atomic); log and return counts.

    Raises:
        KeyError: a table of :data:`TERMINOLOGY_TABLES` is missing from ``tables`` or ``outputs``.
    """
    counts = {}
    for table, spec in TERMINOLOGY_TABLES.items():
        counts[table] = write_table(tables[table], outputs[table], spec)
        log.info("%s: %s %d rows", name, table, counts[table])
    return counts
