"""Binary term-pair similarity datasets from a terminology (Schulz & Juric, AAAI 2020, "medisim").

* :mod:`biosem.termpairs.params`: construction parameters (config ``termpairs``).
* :mod:`biosem.termpairs.positives`: head terms, positive pairs, difficulty, similarity components.
* :mod:`biosem.termpairs.pool`: the terms a dataset's negatives are drawn from.
* :mod:`biosem.termpairs.search`: the Levenshtein neighbour search of the Levenshtein negatives.
* :mod:`biosem.termpairs.negatives`: random and Levenshtein negatives, datasets, the reference TSV.
* :mod:`biosem.termpairs.exclusion`: what negatives exclude beyond the positives (MeSH descriptors,
  surface variants) and the candidates each rule removed.
* :mod:`biosem.termpairs.summary`: the counts table (Table 2 of the paper).
* :mod:`biosem.termpairs.validity`: the ``validity.tsv`` rows of a terminology's datasets.
* :mod:`biosem.termpairs.schemas`: the tables' Arrow schemas.
"""

from biosem.termpairs.exclusion import concept_groups, excluded_candidates
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
    ExclusionParams,
    TermPairParams,
    exclusion_from_config,
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
from biosem.termpairs.validity import association_synonym_shares, termpair_validity

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
    "ExclusionParams",
    "TermPairParams",
    "association_synonym_shares",
    "assemble_dataset",
    "build_dataset",
    "build_positive_pairs",
    "concept_groups",
    "excluded_candidates",
    "exclusion_from_config",
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
    "termpair_validity",
    "to_reference_tsv",
]
