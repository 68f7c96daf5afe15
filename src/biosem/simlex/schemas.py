"""Arrow schemas of the simlex intermediates and datasets (docs/design.md § simlex; BRIEF contracts).

Every table is written through :func:`biosem.io.write_table`, which casts to these schemas, checks the
non-nullable columns and sorts rows by the table's key, so identical content gives identical bytes.
"""

from __future__ import annotations

import pyarrow as pa

from biosem.io import TableSpec

POS_NAMES = ("noun", "verb")
"""Word classes of the vocabulary (``pos`` column)."""

# ``pos`` -> dataset folder (biosem.layout.paths.simlex): Bio-SimLex (nouns), Bio-SimVerb (verbs).
DATASET_OF_POS = {"noun": "nouns", "verb": "verbs"}

POS_OF_DATASET = {v: k for k, v in DATASET_OF_POS.items()}

DOMAINS = ("biomedical", "general", "ambiguous", "excluded")
"""``domain`` values: ``ambiguous`` (between the thresholds) and ``excluded`` (by review) are unused."""

QUARTERS = (
    "associated_biomedical",
    "unassociated_biomedical",
    "associated_general",
    "unassociated_general",
)
"""The four quarters of each pair set, in output order (Chiu et al. 2018, § Pair selection)."""

ROLES = ("unique", "consistency", "duplicate")
"""Survey item roles (SimLex-999 protocol; docs/design.md § simlex, Survey)."""


def _s(name: str, nullable: bool = False) -> pa.Field:
    return pa.field(name, pa.string(), nullable=nullable)


def _i(name: str, nullable: bool = False) -> pa.Field:
    return pa.field(name, pa.int64(), nullable=nullable)


def _f(name: str, nullable: bool = False) -> pa.Field:
    return pa.field(name, pa.float64(), nullable=nullable)


WORD_COUNTS = TableSpec(
    "word_counts",
    pa.schema(
        [
            _s("lemma"),  # lowercased, American spelling
            _s("pos"),  # noun | verb
            _i("count"),  # lemma tokens of this POS in the corpus
            _i("document_count"),  # documents with at least one such token
            _i("pos_tokens"),  # alphabetic tokens of the lemma tagged with this POS, before the token filters
            _i("noun_verb_tokens"),  # ... tagged as a noun or a verb
            _i("evidence_tokens"),  # ... under any tag (less JJ tags of a word that cannot be an adjective)
            _i("after_number"),  # kept tokens right after a number
            _i("in_term"),  # kept tokens inside a multi-word term of the fragment terminologies
        ]
    ),
    ("pos", "lemma"),
)

WORD_DOMAINS = TableSpec(
    "word_domains",
    pa.schema(
        [
            _s("lemma"),
            _s("pos"),
            _i("count"),
            _i("document_count"),
            _f("corpus_per_million"),  # count / corpus word tokens * 1e6
            _f("general_per_million"),  # wordfreq 'en' frequency of the lemma's forms * 1e6 (0 = unknown)
            _f("log_ratio"),  # log10(corpus_per_million / max(general_per_million, floor))
            _s("auto_domain"),  # biomedical | general | ambiguous (by the thresholds)
            _s("domain"),  # final: auto_domain, or the reviewed file's decision
            pa.field("reviewed", pa.bool_(), nullable=False),
        ]
    ),
    ("pos", "lemma"),
)

USF = TableSpec(
    "usf",
    pa.schema(
        [
            _s("cue"),  # lowercased (the files are upper case)
            _s("target"),
            pa.field("normed", pa.bool_(), nullable=False),  # NORMED?: target also normed as a cue
            _i("n_given"),  # #G: participants given the cue
            _i("n_produced"),  # #P: participants producing the target
            _f("fsg"),  # forward strength #P/#G
            _f("bsg", nullable=True),  # backward strength (null when the target is not normed)
            _f("msg", nullable=True),  # mediated strength
            _f("osg", nullable=True),  # overlapping associate strength
            _i("n_mediators", nullable=True),  # #M
            _i("mmias", nullable=True),  # mediators missing in the associate set
            _f("n_overlapping", nullable=True),  # #O
            _i("omias", nullable=True),  # overlapping associates missing in the set
            _i("qss", nullable=True),  # cue set size
            _i("qfr", nullable=True),  # cue Kucera-Francis frequency
            _f("qcon", nullable=True),  # cue concreteness (1-7)
            _s("qh", nullable=True),  # cue homograph code
            _s("qps", nullable=True),  # cue part of speech (N, V, AJ, AD, ...)
            _f("qmc", nullable=True),  # cue mean connectivity
            _f("qpr", nullable=True),  # cue probability of resonance
            _f("qrsg", nullable=True),  # cue resonance strength
            _i("quc", nullable=True),  # cue use code
            _i("tss", nullable=True),  # target set size
            _i("tfr", nullable=True),  # target frequency
            _f("tcon", nullable=True),  # target concreteness
            _s("th", nullable=True),  # target homograph code
            _s("tps", nullable=True),  # target part of speech
            _f("tmc", nullable=True),  # target mean connectivity
            _f("tpr", nullable=True),  # target probability of resonance
            _f("trsg", nullable=True),  # target resonance strength
            _i("tuc", nullable=True),  # target use code
            _s("file"),  # member of the archive (Cue_Target_Pairs.A-B, ...)
            _i("line"),  # 1-based line in that member
        ]
    ),
    (),  # file order (cue blocks as published)
)

LEXICON_VARIANTS = TableSpec(
    "lexicon_variants",
    pa.schema(
        [
            _s("word"),  # a resource word, lowercased
            _s("variant"),  # a vocabulary lemma it stands for
            _s("pos"),  # POS of the variant: noun | verb
            _s("kind"),  # identity | spelling | inflection | derivation
            _s("source"),  # identity | breame | spelling_rule | lemminflect | wordnet | suffix_rule | specialist_*
        ]
    ),
    ("word", "pos", "variant", "kind", "source"),
)

LEXICAL_RELATIONS = TableSpec(
    "lexical_relations",
    pa.schema(
        [
            _s("pos"),
            _s("word1"),  # vocabulary lemma, word1 < word2
            _s("word2"),
            _s("relation"),  # synonym | sibling
            _s("resource"),  # terminology name (hpo, go_slim, ...) or synonym table name
            _s("term1"),  # the resource words the pair comes from
            _s("term2"),
            _s("evidence"),  # concept id (synonyms) or parent id (siblings)
            _s("via"),  # identity | spelling | inflection | derivation (the strongest change used)
        ]
    ),
    ("pos", "word1", "word2", "resource", "relation", "evidence", "term1", "term2", "via"),
)

SIMLEX_PAIRS = TableSpec(
    "simlex_pairs",
    pa.schema(
        [
            _s("pair_id"),  # N0001 / V0001 ..., in output order
            _s("word1"),  # presentation order (seeded)
            _s("word2"),
            _s("pos"),
            _s("quarter"),  # one of QUARTERS
            _s("domain"),  # biomedical | general
            pa.field("associated", pa.bool_(), nullable=False),
            _s("sources"),  # "hpo:sibling;go_slim:synonym", "usf", "random"
            _s("evidence", nullable=True),  # concept / parent ids, or null
            _f("fsg", nullable=True),  # USF forward strength (associated general)
            _f("bsg", nullable=True),  # USF backward strength
            pa.field("reviewed", pa.bool_(), nullable=False),  # taken from the accepted-pairs file
        ]
    ),
    (),  # quarter order, then seeded selection order
)

SURVEY_ITEMS = TableSpec(
    "survey_items",
    pa.schema(
        [
            _s("survey"),  # nouns | verbs
            _i("group"),  # 1-based
            _i("page"),  # 1-based within the group
            _i("position"),  # 1-based within the page
            _s("item_id"),  # unique per row: <survey>-g<group>-p<page>-<position>
            _s("pair_id"),
            _s("role"),  # unique | consistency | duplicate
            _s("word1"),
            _s("word2"),
        ]
    ),
    ("group", "page", "position"),
)
