"""Generate a synthetic, SNOMED-CT-scale RF2 Snapshot release for benchmarks.

The term-pair builder (docs/design.md, ``termpairs``) has to run on a full SNOMED CT International release
(~350,000 concepts, > 1 million descriptions), and its exact Levenshtein nearest-neighbour search is the
expensive step. SNOMED CT is licensed, so benchmarks and CI cannot use the real release. This package
writes a release of the same size and layout whose *string statistics* resemble SNOMED CT:

* terms are built from real words read at generation time from the public sources in the mirror
  (BC5CDR and NCBI Disease titles, abstracts and entity mentions; WordNet 3.0 nouns by lexical file and
  hypernym subtree, pertainym adjectives, verbs; HPO names and exact synonyms), drawn with a Zipf-like
  frequency, inside SNOMED-style templates per semantic tag ("Fracture of left femur (disorder)",
  "Structure of renal artery (body structure)", "Product containing precisely ... (clinical drug)");
* FSN lengths, the share of multi-word names and the tag proportions follow SNOMED CT INT 2019-01;
* synonyms are realistic edits of the name (reorderings, dropped and added words, abbreviations,
  plural/singular, British spellings, word synonyms from WordNet, lay names, case-only variants), so
  FSN-SYN Levenshtein distances resemble Schulz & Juric (2020): mean ~16, ~17 % at distance <= 5;
* sibling concepts differing by one word (left/right, acute/chronic, another bone) give the
  small cross-concept nearest-neighbour distances that the Levenshtein negatives rely on;
* ~8 % inactive concepts, each with one POSSIBLY EQUIVALENT TO / REPLACED BY / SAME AS row (in the
  proportions of the paper's positives) to an active concept with a similar name;
* calibrated against Table 2 of the paper (SNOMED CT INT 2019-01-31) with the default seed: FSN-SYN
  450,166 positives (paper 451,256); mean Levenshtein of positives / random negatives / nearest valid
  term 16.1 / 40.0 / 8.2 (paper 16.53 / 37.40 / 7.97); SYN-SYN 758,402 (726,158), 19.2 / 38.9 / 9.4
  (16.57 / 35.10 / 8.00). The association datasets are about a third of the paper's size (one target
  per inactive concept) and their pools are sparser, so their nearest terms lie farther (16-21 against
  11-18);
* is-a (1-3 parents) and attribute relationships, language (US) refset, metadata concepts in the model
  component module.

Nothing from the source files is copied into the repository: they are read when the generator runs.
The generator's own skeleton word lists, word pairs and name templates are data files in ``data/``
(:mod:`.wordlists`). The output is deterministic: the same ``--seed`` and ``--concepts`` give
byte-identical files.

Modules: :mod:`.wordlists` (data files), :mod:`.vocabulary` (real words from the mirror, weighted
pools), :mod:`.terms` (names from templates, sibling and synonym edits), :mod:`.rf2` (RF2 constants,
fixed concepts, semantic tags, identifiers), :mod:`.concepts` (the release drawn in memory),
:mod:`.writer` (RF2 files), :mod:`.generate` (:func:`generate_rf2` and statistics), ``__main__`` (CLI).

Usage, from the repository root (``bench`` is not an installed package)::

    python -m bench.generate_snomed --out /tmp/snomed_scale [--concepts 360000] [--seed 0]
"""

from __future__ import annotations

from .concepts import Tables, build_tables
from .generate import DEFAULT_CONCEPTS, generate_rf2, nearest_neighbour_sample, term_statistics
from .rf2 import (
    ACCEPTABLE,
    ASSOCIATED_MORPHOLOGY,
    ASSOCIATION_KINDS,
    CASE_INSENSITIVE,
    CASE_SENSITIVE,
    CAUSATIVE_AGENT,
    COMPONENT,
    CORE_MODULE,
    DEFINED,
    EXISTENTIAL,
    FINDING_SITE,
    FIXED_CONCEPTS,
    FSN_TYPE,
    HAS_ACTIVE_INGREDIENT,
    HAS_DOSE_FORM,
    HEADERS,
    INFERRED,
    INITIAL_INSENSITIVE,
    IS_A,
    METHOD,
    MODEL_COMPONENT,
    MODEL_MODULE,
    MODEL_TAGS,
    POSSIBLY_EQUIVALENT_TO,
    PREFERRED,
    PRIMITIVE,
    PROCEDURE_SITE_DIRECT,
    RELATIVE_PATHS,
    RELEASE,
    REPLACED_BY,
    ROOT,
    SAME_AS,
    SYN_TYPE,
    TAGS,
    US_LANG_REFSET,
    verhoeff_append,
    verhoeff_valid,
)
from .terms import Editor, render_names
from .vocabulary import Pool, Vocabulary, default_data_dir, load_vocabulary
from .writer import write_release

__all__ = [
    "ACCEPTABLE",
    "ASSOCIATED_MORPHOLOGY",
    "ASSOCIATION_KINDS",
    "CASE_INSENSITIVE",
    "CASE_SENSITIVE",
    "CAUSATIVE_AGENT",
    "COMPONENT",
    "CORE_MODULE",
    "DEFAULT_CONCEPTS",
    "DEFINED",
    "EXISTENTIAL",
    "FINDING_SITE",
    "FIXED_CONCEPTS",
    "FSN_TYPE",
    "HAS_ACTIVE_INGREDIENT",
    "HAS_DOSE_FORM",
    "HEADERS",
    "INFERRED",
    "INITIAL_INSENSITIVE",
    "IS_A",
    "METHOD",
    "MODEL_COMPONENT",
    "MODEL_MODULE",
    "MODEL_TAGS",
    "POSSIBLY_EQUIVALENT_TO",
    "PREFERRED",
    "PRIMITIVE",
    "PROCEDURE_SITE_DIRECT",
    "RELATIVE_PATHS",
    "RELEASE",
    "REPLACED_BY",
    "ROOT",
    "SAME_AS",
    "SYN_TYPE",
    "TAGS",
    "US_LANG_REFSET",
    "Editor",
    "Pool",
    "Tables",
    "Vocabulary",
    "build_tables",
    "default_data_dir",
    "generate_rf2",
    "load_vocabulary",
    "nearest_neighbour_sample",
    "render_names",
    "term_statistics",
    "verhoeff_append",
    "verhoeff_valid",
    "write_release",
]
