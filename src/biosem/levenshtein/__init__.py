"""The exact Levenshtein engine behind the term-pair negatives.

:mod:`biosem.levenshtein.index` answers k-nearest queries over a term pool (length-ring scan,
bag-distance screen, exact distances); :mod:`biosem.levenshtein.kernels` holds the bit-parallel
kernels (Myers 1999; Hyyrö 2003) in numba and, where the CPU has AVX-512, the C extension
``_lev512``.
"""
