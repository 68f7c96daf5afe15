"""BioWiC word-in-context pairs (Rouhizadeh et al., Scientific Data 2024; docs/design.md § wic).

Construction, one module per step:

* :mod:`biosem.wic.concepts`: concept unification of corpus mentions (MeSH/OMIM -> CUI through a UMLS
  terminology, MeSH ids through MeSH, CRAFT's ontology ids through one OBO terminology per namespace, or
  the corpus' own namespaced ids), the articles whose notice does not permit redistribution left out,
  and the seeded choice of one mention per sentence.
* :mod:`biosem.wic.lexical`: the term normalisations the groups compare (lowercase, WordNet lemma,
  initials) and the abbreviations the texts define ("long form (SF)", Schwartz & Hearst).
* :mod:`biosem.wic.candidates`: candidate sentence pairs by blocking, in four groups (term identity,
  abbreviations, synonyms, label similarity; the first matching group wins); label 1 = same concept.
* :mod:`biosem.wic.prune`: pairs of related concepts removed (UMLS MRREL SY / RB / PAR, OBO is_a /
  part_of, shared source codes other than ``NOCODE``, ids of different namespaces) and the link test of
  label-0 pairs.
* :mod:`biosem.wic.splits`: test / dev / train with the paper's quotas and constraints, the released
  JSON records and the counts table.
* :mod:`biosem.wic.validate`: checks any BioWiC-format split set (``python -m biosem.wic.validate DIR``).
"""

from __future__ import annotations

# The split names in order: those of the corpora. The WiC splits are drawn anew (biosem.wic.splits),
# not taken from the corpus splits.
from biosem.corpora.schemas import SPLITS

GROUPS = ("term_identity", "abbreviations", "synonyms", "label_similarity")
"""The four groups in precedence order (a pair belongs to the first that matches); the released
``cat`` values."""

__all__ = ["GROUPS", "PAPER_QUOTAS", "SPLITS", "TRAIN_SENTENCE_CAP"]

PAPER_QUOTAS: dict[str, dict[str, int]] = {
    "test": {"term_identity": 800, "abbreviations": 200, "synonyms": 800, "label_similarity": 200},
    "dev": {"term_identity": 400, "abbreviations": 100, "synonyms": 400, "label_similarity": 100},
}
"""Instances per group in test and dev (paper § Methods; each group half label 1, half label 0)."""

TRAIN_SENTENCE_CAP = 100
"""A sentence occurs at most this many times in train (reference ``sentence_LIMIT``)."""
