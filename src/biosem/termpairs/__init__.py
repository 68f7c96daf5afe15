"""Binary term-pair similarity datasets from a terminology (Schulz & Juric, AAAI 2020, "medisim").

* :mod:`biosem.termpairs.params`: construction parameters (config ``termpairs``).
* :mod:`biosem.termpairs.positives`: head terms, positive pairs, difficulty, similarity components.
* :mod:`biosem.termpairs.pool`: the terms a dataset's negatives are drawn from.
* :mod:`biosem.termpairs.search`: the Levenshtein neighbour search of the Levenshtein negatives.
* :mod:`biosem.termpairs.negatives`: random and Levenshtein negatives, datasets, the reference TSV.
* :mod:`biosem.termpairs.summary`: the counts table (Table 2 of the paper).
* :mod:`biosem.termpairs.schemas`: the tables' Arrow schemas.
"""

from biosem.termpairs.negatives import (
    assemble_dataset,
    build_dataset,
    sample_levenshtein_negatives,
    sample_random_negatives,
    to_reference_tsv,
)
from biosem.termpairs.params import (
    MODEL_COMPONENT_MODULE,
    RANDOM_ROUNDS,
    TermPairParams,
    params_from_config,
)
from biosem.termpairs.positives import (
    DATASETS,
    DIFFICULTIES,
    POSITIVE_COLUMNS,
    POSITIVE_KINDS,
    STRATEGIES,
    build_positive_pairs,
    head_terms,
    isin,
    levenshtein_lower,
    similarity_components,
    strip_markers,
    strip_semantic_tag,
)
from biosem.termpairs.search import RESUME_ROWS, RESUME_SLACK, search_neighbours
from biosem.termpairs.summary import TABLE2_COLUMNS, summarise

__all__ = [
    "DATASETS",
    "DIFFICULTIES",
    "MODEL_COMPONENT_MODULE",
    "POSITIVE_COLUMNS",
    "POSITIVE_KINDS",
    "RANDOM_ROUNDS",
    "RESUME_ROWS",
    "RESUME_SLACK",
    "STRATEGIES",
    "TABLE2_COLUMNS",
    "TermPairParams",
    "assemble_dataset",
    "build_dataset",
    "build_positive_pairs",
    "head_terms",
    "isin",
    "levenshtein_lower",
    "params_from_config",
    "sample_levenshtein_negatives",
    "sample_random_negatives",
    "search_neighbours",
    "similarity_components",
    "strip_markers",
    "strip_semantic_tag",
    "summarise",
    "to_reference_tsv",
]
