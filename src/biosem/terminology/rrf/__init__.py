"""UMLS Metathesaurus RRF files -> terminology intermediates.

* :mod:`.reader`: the streaming reader of pipe-delimited RRF files (:func:`iter_rrf`: threaded parse,
  field and pattern checks, located errors), whatever the file means;
* :mod:`.umls`: what MRCONSO, MRSTY, MRREL and MRSAB mean (:func:`read_rrf`, :func:`write_rrf`);
* :mod:`.terms`: the terms table's row groups, those of a CUI-sorted MRCONSO built as it is read;
* :mod:`.columns`: the compact columns the UMLS adapter sorts on (CUI numbers, dictionary codes);
* :mod:`.kernels`: the per-row passes over Arrow string buffers, in C (``_rrf.c``) or numba.

The names below are those callers import from ``biosem.terminology.rrf``.
"""

from biosem.terminology.rrf.reader import iter_rrf
from biosem.terminology.rrf.umls import (
    ABBREVIATION_TTYS,
    AUI_PATTERN,
    CUI_PATTERN,
    LAT_TO_ISO639_1,
    MRCOLS_COLUMNS,
    MRCONSO_COLUMNS,
    MRFILES_COLUMNS,
    MRREL_COLUMNS,
    MRSAB_COLUMNS,
    MRSTY_COLUMNS,
    SRL_PATTERN,
    SUPPRESS_PATTERN,
    TUI_PATTERN,
    read_rrf,
    write_rrf,
)

__all__ = [
    "ABBREVIATION_TTYS",
    "AUI_PATTERN",
    "CUI_PATTERN",
    "LAT_TO_ISO639_1",
    "MRCOLS_COLUMNS",
    "MRCONSO_COLUMNS",
    "MRFILES_COLUMNS",
    "MRREL_COLUMNS",
    "MRSAB_COLUMNS",
    "MRSTY_COLUMNS",
    "SRL_PATTERN",
    "SUPPRESS_PATTERN",
    "TUI_PATTERN",
    "iter_rrf",
    "read_rrf",
    "write_rrf",
]
