"""Type stub of the compiled AVX-512 kernels (src/biosem/levenshtein/_lev512.c).

See :func:`biosem.levenshtein.kernels.screened_pairs`.
"""

from typing import Any

def screened_pairs(
    query: Any,
    nq: int,
    n: int,
    symbols: Any,
    starts: Any,
    lo: int,
    hi: int,
    local: Any,
    n_local: int,
    hist: Any,
    n_pool: int,
    query_hist: Any,
    limit: Any,
    out_q: Any,
    out_c: Any,
    out_d: Any,
) -> tuple[int, int]:
    """(rows written, distances computed); rows is -1 when the output buffers are too small."""

def supported() -> bool: ...
