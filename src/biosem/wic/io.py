"""Writing the released WiC JSON format (atomic, deterministic); the Parquet readers the WiC scripts use
(``read_concat``, ``read_where``, ``read_term_sets``) are :mod:`biosem.io`'s."""

from __future__ import annotations

import json
import os

import pandas as pd

from biosem.io import write_text
from biosem.wic.schemas import RELEASED_COLUMNS


def write_released_json(split: pd.DataFrame, path: str | os.PathLike[str]) -> int:
    """Write one split as a JSON list of records with the released BioWiC keys, in row order.

    UTF-8, two-space indentation, keys in :data:`biosem.wic.schemas.RELEASED_COLUMNS` order, integers
    as JSON numbers; returns the number of records.
    """
    records = [
        {
            k: (int(v) if k in ("start1", "end1", "start2", "end2", "label") else str(v))
            for k, v in zip(RELEASED_COLUMNS, row)
        }
        for row in split[list(RELEASED_COLUMNS)].itertuples(index=False, name=None)
    ]
    write_text(json.dumps(records, ensure_ascii=False, indent=2) + "\n", path)
    return len(records)
