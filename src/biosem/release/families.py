"""The built-in release providers, one per dataset family (see :mod:`biosem.release.registry`).

Each provider turns the config into :class:`~biosem.release.registry.ReleaseDataset` entries: the
Parquet files the family's rules write (declared in :mod:`biosem.layout.outputs`), the sources and
their licences, the construction parameters actually used, and the paper. To add a family, write one more function
here decorated with ``@provider("<family>", stage="<stage whose rules write the files>")``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from biosem.corpora.formats import NOTICE_TABLE, has_notices
from biosem.corpora.schemas import SPLITS
from biosem.corpora.shards import expand_corpus_files
from biosem.layout import outputs, paths
from biosem.release import citations
from biosem.release.licence import Attribution
from biosem.release.registry import (
    DEFAULT_CONFIG,
    Paper,
    ReleaseDataset,
    Source,
    corpus_sources,
    local_source,
    provider,
    public_source,
    terminology_parameters,
    terminology_sources,
    without,
)

EVALUATION_SPLIT = "test"
"""Split name of datasets meant for evaluation only (the papers release no training part)."""

PAPERS = {
    "termpairs": Paper(
        short="Schulz & Juric 2020",
        citation=(
            "Claudia Schulz and Damir Juric. 2020. Can Embeddings Adequately Represent Medical "
            "Terminology? New Large-Scale Medical Term Similarity Datasets Have the Answer! AAAI 2020."
        ),
        bibtex=citations.PAPERS["schulz2020"],
        url="https://doi.org/10.1609/aaai.v34i05.6404",
    ),
    "analogies": Paper(
        short="BMASS, Newman-Griffis et al. 2017",
        citation=(
            "Denis Newman-Griffis, Albert M. Lai and Eric Fosler-Lussier. 2017. Insights into Analogy "
            "Completion from the Biomedical Domain. BioNLP 2017."
        ),
        bibtex=citations.PAPERS["newmangriffis2017"],
        url="https://arxiv.org/abs/1706.02241",
    ),
    "wic": Paper(
        short="BioWiC, Rouhizadeh et al. 2024",
        citation=(
            "Hossein Rouhizadeh et al. 2024. A Dataset for Evaluating Contextualized Representation of "
            "Biomedical Concepts in Language Models. Scientific Data 11, 455."
        ),
        bibtex=citations.PAPERS["rouhizadeh2024"],
        url="https://doi.org/10.1038/s41597-024-03317-w",
    ),
    "simlex": Paper(
        short="Bio-SimLex / Bio-SimVerb, Chiu et al. 2018",
        citation=(
            "Billy Chiu, Sampo Pyysalo, Ivan Vulić and Anna Korhonen. 2018. Bio-SimVerb and Bio-SimLex: "
            "wide-coverage evaluation sets of word similarity in biomedicine. BMC Bioinformatics 19, 33."
        ),
        bibtex=citations.PAPERS["chiu2018"],
        url="https://doi.org/10.1186/s12859-018-2039-z",
    ),
}

SIMLEX_REFERENCES = ("hill2015", "gerz2016")
"""The designs Bio-SimLex and Bio-SimVerb follow (SimLex-999, SimVerb-3500), cited by the simlex datasets."""

BINARY_LABELS = ("dissimilar", "similar")
"""Names of the term-pair labels 0 and 1 (the card's ``class_label``)."""

WIC_LABELS = ("different_concept", "same_concept")
"""Names of the word-in-context labels 0 and 1."""

RELEASE_SPLITS = {"train": "train", "dev": "validation", "test": "test"}
"""Hugging Face split name of each WiC split (``load_dataset("parquet", ...)`` names the ``dev`` part
``validation``); the BioWiC reference-format files keep ``dev.json``."""

_SMALL_DEFAULT = (
    "Built from the embedded default (open samples), counts are far below the paper's; run a preset "
    "(config/presets/) on full releases for the paper's scale."
)


def _unique_sources(sources: list[Source]) -> tuple[Source, ...]:
    seen: dict[tuple[str, str], Source] = {}
    for s in sources:
        seen.setdefault((s.kind, s.name), s)
    return tuple(seen[k] for k in sorted(seen))


# --- termpairs ------------------------------------------------------------------------------------

TERMPAIR_COLUMNS = {
    "term1": "First term: the head term (FSN without its semantic tag, or preferred name) or a synonym.",
    "term2": "Second term: a synonym or association target of term1 (label 1), or a sampled negative (label 0).",
    "label": "1 = similar (same concept, or the association of the dataset's kind), 0 = dissimilar.",
    "concept_id1": "Concept of term1 (SNOMED CT id, UMLS CUI, MeSH concept UI or OBO id).",
    "concept_id2": "Concept of term2 (null where the construction does not record it).",
    "levenshtein": "Levenshtein distance between the lowercased terms (edit operations).",
}


TERMPAIR_CHANGES = (
    "terms regrouped into pairs (a concept's preferred name with each of its synonyms, its synonyms with "
    "each other and, where the terminology has them, inactive concepts with their association targets), "
    "case-insensitive duplicates dropped, pairs split into easy and hard by Levenshtein distance, and one "
    "negative pair (label 0) per positive sampled by biosem: the negatives are not statements of the source"
)
"""What a term-pair dataset changes in its terminology (the credit's "Modified by biosem: ...")."""


def reading_changes(config: Mapping[str, Any], terminology: str) -> str:
    """What biosem's reading changed in an OBO terminology's terms, for its credit ("" when nothing):
    ``id_prefixes`` (MOP without the CHEBI and BFO classes it imports), ``exclude_synonym_types``
    (the Sequence Ontology without its VAR synonyms, tool labels) and ``underscores_as_spaces`` (the
    Sequence Ontology's names), in the order the reader applies them."""
    spec = config["terminologies"][terminology]
    parts = []
    if spec.get("id_prefixes"):
        parts.append(
            f"only the classes with id prefix {', '.join(spec['id_prefixes'])} read (classes the file imports "
            "from other ontologies left out)"
        )
    if spec.get("exclude_synonym_types"):
        parts.append(f"synonyms of OBO synonym type {', '.join(spec['exclude_synonym_types'])} left out")
    if spec.get("underscores_as_spaces"):
        parts.append("underscores in names and synonyms written as spaces (five_prime_UTR as five prime UTR)")
    return "; ".join(parts)


def _with_reading(changes: str, config: Mapping[str, Any], terminology: str) -> str:
    extra = reading_changes(config, terminology)
    return f"{extra}; then {changes}" if extra else changes


ASSOCIATION_MEANINGS = {
    "obo": (
        "Association configs: REPLACED BY pairs an obsolete term with its replacement (`replaced_by`), "
        "POSSIBLY EQUIVALENT TO with a term the ontology suggests instead (`consider`, a weaker link than "
        "SNOMED CT's refset of that name); there is no SAME AS. These are historical links, not synonyms: "
        "the target is often broader, a part or a related term, and label 1 there means 'linked by this "
        "association', not 'same concept'."
    ),
    "rf2": (
        "Association configs: an inactive concept's FSN with an active target of its historical association "
        "refset: SAME AS (900000000000527005, the inactive concept duplicated the target), REPLACED BY "
        "(900000000000526001, the target replaces an erroneous or outdated concept), POSSIBLY EQUIVALENT TO "
        "(900000000000523009, an ambiguous concept with each of its possible meanings). These are historical "
        "links: label 1 there means 'linked by this refset'; REPLACED BY and POSSIBLY EQUIVALENT TO targets "
        "need not be synonyms."
    ),
    "rrf": "Association configs are empty: the UMLS adapter reads no association roles (MRCUI is not read).",
    "mesh": "Association configs are empty: MeSH has no inactive-concept associations.",
}
"""What a termpairs card says its association configs are, by terminology format (issue 37)."""

ASSOCIATION_LIMITATION = (
    "Association pairs are historical links, not synonyms; validity.tsv gives the share of each association "
    "config that the source also records as an EXACT, NARROW, BROAD or RELATED synonym."
)


def termpair_exclusion_limitation(section: Mapping[str, Any], fmt: str) -> str:
    """The card's sentence on what negatives exclude beyond the similarity component (config
    ``termpairs.exclude_surface_variants`` / ``exclude_same_group``)."""
    parts = []
    if section.get("exclude_surface_variants", True):
        parts.append(
            "no negative is a surface variant (case, hyphens and spaces, apostrophe-s, British spelling, "
            "plural) of a term similar to its first term"
        )
    else:
        parts.append("negatives may be surface variants (plurals, British spellings) of their first term's synonyms")
    if fmt == "mesh":
        if section.get("exclude_same_group") == "descriptor":
            parts.append("no negative is another concept of its first term's MeSH descriptor")
        else:
            parts.append("negatives may be other concepts of their first term's MeSH descriptor")
    return "Negatives: " + "; ".join(parts) + "."


@provider("termpairs")
def termpairs(config: Mapping[str, Any]) -> list[ReleaseDataset]:
    """One dataset per terminology of ``termpairs.terminologies``; 20 configs (kind × difficulty ×
    negative strategy), split ``test``."""
    from biosem.termpairs.positives import DATASETS

    section = config["termpairs"]
    out = []
    for terminology in section["terminologies"]:
        configs = {
            name: {EVALUATION_SPLIT: outputs.termpair_dataset.path(terminology=terminology, dataset=name)}
            for name in DATASETS
        }
        fmt = config["terminologies"][terminology]["format"]
        out.append(
            ReleaseDataset(
                family="termpairs",
                name=terminology,
                validity=(outputs.termpair_validity.path(terminology=terminology),),
                pretty_name=f"Medical term similarity pairs from {terminology} (after Schulz & Juric 2020)",
                summary=(
                    "Binary similar/dissimilar term pairs built from a terminology: FSN-SYN, SYN-SYN, "
                    "POSSIBLY EQUIVALENT TO, REPLACED BY and SAME AS positives, each split into easy "
                    "(Levenshtein distance of the lowercased terms at most `easy_max_distance`) and hard, "
                    "each with one negative per positive drawn at random or as the Levenshtein-nearest "
                    "term outside the positive's similarity component: 20 configs. " + ASSOCIATION_MEANINGS.get(fmt, "")
                ).strip(),
                motivation=(
                    "Tests whether term embeddings place synonymous medical terms closer than unrelated "
                    "or merely look-alike terms, at the scale of a whole terminology."
                ),
                configs=configs,
                sources=_unique_sources(terminology_sources(config, terminology)),
                parameters={
                    "seed": config["seed"],
                    **without(section, "terminologies"),
                    "terminology": terminology_parameters(config, terminology),
                },
                paper=PAPERS["termpairs"],
                columns=TERMPAIR_COLUMNS,
                label_column="label",
                label_names=BINARY_LABELS,
                limitations=(
                    (
                        "A dataset whose source has no pairs of its kind and difficulty is released empty "
                        "(0 rows); the card's composition table shows which."
                    ),
                    (
                        "'Not similar indirectly' is the connected component of the similarity graph, "
                        "stricter than the reference code's two hops."
                    ),
                    "Negatives are sampled: a few may still be near-synonyms the terminology does not link.",
                    termpair_exclusion_limitation(section, fmt),
                    ASSOCIATION_LIMITATION,
                    _SMALL_DEFAULT,
                ),
                changes=_with_reading(TERMPAIR_CHANGES, config, terminology),
                task_categories=("sentence-similarity",),
            )
        )
    return out


# --- analogies ------------------------------------------------------------------------------------

ANALOGY_COLUMNS = {
    "relation": "Relation label (UMLS REL/RELA, SNOMED CT attribute type id/FSN, OBO relation).",
    "rel": "UMLS REL, SNOMED CT type id, or OBO relation.",
    "rela": "UMLS RELA or relation name.",
    "a_id": "Concept of a.",
    "a_term": "Term of a (its most frequent term in the corpus).",
    "b_ids": "Concepts of the valid b.",
    "b_terms": "Terms of the valid b.",
    "c_id": "Concept of c.",
    "c_term": "Term of c.",
    "d_ids": "Concepts of the valid answers d.",
    "d_terms": "Terms of the valid answers d.",
}


ANALOGY_CHANGES = (
    "the terminology's relations filtered (concepts with a term frequent enough in the corpora, relations "
    "with enough one-to-one instances), subjects sampled by biosem and combined pairwise into a:b::c:?d "
    "analogies, one term chosen per concept by corpus frequency; the corpora are only counted, no corpus "
    "text is released"
)
"""What an analogy dataset changes in its terminology and corpora."""


@provider("analogies")
def analogies(config: Mapping[str, Any]) -> list[ReleaseDataset]:
    """One dataset per terminology of ``analogies.terminologies``; configs Single-Answer, Multi-Answer,
    All-Info and their unigram subsets, split ``test``."""
    from biosem.analogies.construct import DATASETS, params_from_config

    section = config["analogies"]
    corpora = list(section["corpora"])
    out = []
    for terminology in section["terminologies"]:
        fmt = config["terminologies"][terminology]["format"]
        params = params_from_config(section, terminology, fmt, config["seed"])
        sources = terminology_sources(config, terminology)
        for corpus in corpora:
            sources += corpus_sources(config, corpus)
        sources += [local_source(p, "frequency corpus (text file)") for p in expand_corpus_files(section["text_files"])]
        out.append(
            ReleaseDataset(
                family="analogies",
                name=terminology,
                validity=(outputs.analogy_validity.path(terminology=terminology),),
                pretty_name=f"Biomedical analogies from {terminology} (after BMASS, Newman-Griffis et al. 2017)",
                summary=(
                    "a:b::c:?d analogies from the relations of a terminology: every ordered pair of "
                    "sampled subjects of a relation, with all valid objects. Configs: single_answer, "
                    "multi_answer, all_info and their unigram_* subsets (all four terms one word)."
                ),
                motivation=(
                    "Measures how well embeddings recover biomedical relations by vector arithmetic "
                    "(3CosAdd, 3CosMul, PairwiseDistance), per relation."
                ),
                configs={
                    name: {EVALUATION_SPLIT: outputs.analogy_dataset.path(terminology=terminology, setting=name)}
                    for name in DATASETS
                },
                sources=_unique_sources(sources),
                parameters={
                    **{k: (list(v) if isinstance(v, tuple) else v) for k, v in vars(params).items()},
                    "corpora": corpora,
                    "text_files": [str(p) for p in section["text_files"]],
                    "terminology": terminology_parameters(config, terminology),
                },
                paper=PAPERS["analogies"],
                columns=ANALOGY_COLUMNS,
                group_columns=("relation",),
                limitations=(
                    "An allow-list (or none) stands in for the paper's manual informativity review of relations.",
                    "Term frequencies come from the configured corpus, not the 2016 PubMed baseline.",
                    _SMALL_DEFAULT,
                ),
                changes=_with_reading(ANALOGY_CHANGES, config, terminology),
                task_categories=("question-answering",),
            )
        )
    return out


# --- wic ------------------------------------------------------------------------------------------

WIC_COLUMNS = {
    "term1": "Target term in sentence1 (as written).",
    "term2": "Target term in sentence2.",
    "sentence1": "First sentence.",
    "sentence2": "Second sentence.",
    "start1": "Start offset of term1 in sentence1 (characters, 0-based).",
    "end1": "End offset of term1 in sentence1 (exclusive).",
    "start2": "Start offset of term2 in sentence2.",
    "end2": "End offset of term2 in sentence2 (exclusive).",
    "cat": "Group: term_identity, abbreviations, synonyms or label_similarity.",
    "label": "1 = both mentions denote the same concept, 0 = different concepts.",
    "concept_id1": "Concept of the first mention (the terminology's MeSH concept or CUI, or a corpus id).",
    "concept_id2": "Concept of the second mention.",
    "corpus1": "Corpus of sentence1.",
    "document_id1": "PMID of sentence1.",
    "corpus2": "Corpus of sentence2.",
    "document_id2": "PMID of sentence2.",
}


@provider("wic")
def wic(config: Mapping[str, Any]) -> list[ReleaseDataset]:
    """The word-in-context pairs: one dataset, splits train/validation/test (the family's ``dev`` is
    released as ``validation``)."""
    section = config["wic"]
    sources: list[Source] = []
    notices = []
    for corpus in section["corpora"]:
        sources += corpus_sources(config, corpus)
        if has_notices(config["corpora"]["specs"][corpus]):
            notices.append(paths.intermediate(NOTICE_TABLE, corpus))
    terminology = section["terminology"]
    if terminology:
        sources += terminology_sources(config, terminology, role="concept normalisation")
    namespaced = dict(sorted((section.get("namespace_terminologies") or {}).items()))
    for namespace, name in namespaced.items():
        sources += terminology_sources(config, name, role=f"concept normalisation of {namespace} ids")
    parameters = {"seed": config["seed"], **section}
    if terminology:
        parameters["terminology_settings"] = terminology_parameters(config, terminology)
    for name in namespaced.values():
        parameters.setdefault("namespace_terminology_settings", {})[name] = terminology_parameters(config, name)
    return [
        ReleaseDataset(
            family="wic",
            name="biowic",
            validity=(outputs.wic_validity.template,),
            pretty_name="Biomedical word-in-context pairs (after BioWiC, Rouhizadeh et al. 2024)",
            summary=(
                "Pairs of sentences from annotated biomedical corpora (PubTator abstracts; CRAFT full-text "
                "articles in the open default), each with one marked mention; label 1 when both mentions "
                "denote the same concept. Four groups: term identity, abbreviations, synonyms, label "
                "similarity. The first ten columns are the released BioWiC schema; the rest record each "
                "side's concept, corpus and PMID."
            ),
            motivation=(
                "Evaluates whether contextual representations separate the senses of biomedical terms "
                "in context (the BioWiC task)."
            ),
            configs={DEFAULT_CONFIG: {RELEASE_SPLITS[s]: outputs.wic_split.path(split=s) for s in SPLITS}},
            sources=_unique_sources(sources),
            parameters=parameters,
            paper=PAPERS["wic"],
            columns=WIC_COLUMNS,
            group_columns=("cat",),
            label_column="label",
            label_names=WIC_LABELS,
            limitations=(
                (
                    "Concepts are those of `wic.terminology` (MeSH concepts in the open default; ids it "
                    "does not unify keep their corpus namespace and are never negatives of its concepts); "
                    "without a terminology, the corpora's own ids and no hierarchy pruning. Ids of the "
                    "namespaces of `wic.namespace_terminologies` (CRAFT's GO, CL, UBERON, SO and MOP ids in "
                    "the open default) are concepts of those ontologies, their obsolete ids followed through "
                    "alt_id and replaced_by; namespaces never meet in a pair, so a CRAFT mention and a "
                    "PubTator mention are never compared."
                ),
                (
                    "Sentences of full-text articles come only from articles whose open-access notice "
                    "permits redistribution (`wic.permitted_notices`): CRAFT's five Oxford University Press "
                    "articles ('All rights reserved') and the eight whose notice grants no permission are "
                    "left out (counts in selection_counts.tsv); every article a row takes a sentence from "
                    "is listed with its notice and URL under 'Article notices'."
                ),
                (
                    "Strata the corpora cannot fill are smaller than the paper's quotas. Under "
                    "`quota_policy: balanced` (the open default) every group of a split has as many "
                    "label-1 as label-0 items, and a group whose scarcer label cannot reach `min_stratum` "
                    "items is left out of that split (the `left_out` column of counts.tsv says why); under "
                    "`fill` a group may be unbalanced (the `bound` column)."
                ),
                (
                    "With `negative_links` (the open default) a label-0 pair is dropped when its concepts "
                    "are one MeSH record, an ancestor and its descendant, one mention's string is a term "
                    "of the other concept, or (outside term identity) the two strings are one term written "
                    "differently; counts per reason in candidate_counts.tsv. The paper's presets "
                    "keep only its own pruning (MRREL SY/RB/PAR, shared codes)."
                ),
                "Labels come from the corpora's normalisations, not from a new expert annotation.",
            ),
            notices=tuple(notices),
            permitted_notices=tuple(section.get("permitted_notices") or ()),
            changes=(
                "sentences split from the corpora's texts, each with one annotated mention, paired into "
                "same-concept / different-concept instances by blocking groups, sampled into train, validation "
                "and test by biosem; labels come from the corpora's concept normalisations"
            ),
            task_categories=("text-classification",),
        )
    ]


# --- simlex ---------------------------------------------------------------------------------------

SIMLEX_PAIR_COLUMNS = {
    "pair_id": "Pair identifier (N#### nouns, V#### verbs).",
    "word1": "First word (lemma).",
    "word2": "Second word (lemma).",
    "pos": "Part of speech (noun or verb).",
    "quarter": "Quarter: associated/unassociated × biomedical/general.",
    "domain": "biomedical or general.",
    "associated": "True when a resource links the two words.",
    "sources": "Resources linking the words (e.g. hpo:sibling, wordnet:synonym, usf).",
    "evidence": "The linking evidence (ontology id, synset, ...).",
    "fsg": "USF forward association strength (word1 -> word2).",
    "bsg": "USF backward association strength.",
    "reviewed": "True when an expert review decision was applied.",
}


WORDNET = Source(
    name="wordnet",
    kind="public",
    role="lexical resource (synonyms, derivations; NLTK data)",
    licence="WordNet 3.0 licence",
    version="WordNet 3.0 (NLTK corpus wordnet)",
    url="https://wordnet.princeton.edu/license-and-commercial-use",
    attribution=Attribution(title="WordNet", creator="Princeton University", version="3.0"),
)
"""WordNet, read through NLTK's data folder (not a pinned source: NLTK_DATA or the mirror)."""

REVIEW_LICENCE = "Apache-2.0"
"""Licence of review sheets kept in the biosem repository (config/)."""


@provider("simlex")
def simlex_pairs(config: Mapping[str, Any]) -> list[ReleaseDataset]:
    """The candidate noun and verb pairs (before rating): one dataset, configs nouns and verbs."""
    section = config["simlex"]
    sources: list[Source] = []
    for corpus in section["corpora"]:
        sources += corpus_sources(config, corpus)
    for terminology in section["resources"]["terminologies"]:
        sources += terminology_sources(config, terminology, role="lexical resource")
    for terminology in section["vocabulary"]["fragment_terminologies"]:
        sources += terminology_sources(config, terminology, role="vocabulary filter (names of multi-word terms)")
    sources.append(public_source(config, section["usf"]["source"], "association norms"))
    sources += [local_source(p, "corpus (text file)") for p in expand_corpus_files(section["text_files"])]
    for key in ("lrspl", "lragr", "lrnom"):
        if section["specialist"][key]:
            sources.append(local_source(section["specialist"][key], f"SPECIALIST lexicon {key.upper()}"))
    for key, path in sorted(section["resources"]["synonym_tables"].items()):
        sources.append(local_source(path, f"synonym table {key}"))
    resources = section["resources"]
    if resources["wordnet_synonyms"] or resources["wordnet_derivations"]:
        sources.append(WORDNET)
    for path, role in (
        (section["domain"]["reviewed"], "domain review"),
        (section["pairs"]["accepted"], "pair review"),
    ):
        if path:
            # Review decisions kept with the workflow's configuration (the repository's licence).
            sources.append(local_source(path, role, REVIEW_LICENCE))
    return [
        ReleaseDataset(
            family="simlex",
            name="pairs",
            validity=tuple(outputs.simlex_validity.path(dataset=d) for d in ("nouns", "verbs")),
            pretty_name="Biomedical word-similarity candidate pairs (after Bio-SimLex / Bio-SimVerb)",
            summary=(
                "Candidate noun pairs (Bio-SimLex design) and verb pairs (Bio-SimVerb design) in four "
                "quarters: associated and unassociated, biomedical and general; the input of the rating "
                "survey. No similarity scores: rated datasets are released as `simlex/rated_<name>`."
            ),
            motivation=(
                "The pair selection of Bio-SimLex / Bio-SimVerb, rebuilt from open resources for a new rating study."
            ),
            configs={pos: {EVALUATION_SPLIT: outputs.simlex_pairs.path(dataset=pos)} for pos in ("nouns", "verbs")},
            sources=_unique_sources(sources),
            parameters={"seed": config["seed"], **section},
            paper=PAPERS["simlex"],
            references=SIMLEX_REFERENCES,
            columns=SIMLEX_PAIR_COLUMNS,
            group_columns=("quarter",),
            limitations=(
                "Unrated: these are candidates, not a similarity benchmark, until rated.",
                "On the open default the associated quarters stay short (marked `short` in the counts).",
                "WordNet 3.0 (via NLTK) and wordfreq frequencies are used as tools, not as released content.",
            ),
            changes=(
                "words selected from the corpora (tagged, lemmatised, filtered by frequency) and paired in four "
                "quarters from the resources' synonyms, siblings and association norms, or at random by biosem"
            ),
            task_categories=("sentence-similarity",),
        )
    ]


RATED_COLUMNS = {
    "word1": "First word.",
    "word2": "Second word.",
    "score": "Mean rating of the retained raters after bias correction, rescaled to 0-10.",
    "sd": "Standard deviation of those ratings (same scale).",
    "n_ratings": "Number of ratings averaged.",
    "mean_raw": "Mean rating on the survey's own scale, before correction.",
    "sd_raw": "Standard deviation on the survey's scale.",
}


@provider("simlex", stage="agreement")
def simlex_rated(config: Mapping[str, Any]) -> list[ReleaseDataset]:
    """One rated dataset per ``agreement.ratings`` entry (SimLex bias correction and rater exclusion)."""
    ratings = config["agreement"]["ratings"]
    out = []
    for name in sorted(ratings):
        spec = ratings[name]
        if "source" in spec:
            sources = (public_source(config, spec["source"], "ratings"),)
        elif "exports" in spec:  # one survey form export per rater
            sources = tuple(local_source(p, "ratings (form export)", spec.get("licence")) for p in spec["exports"])
        else:
            sources = (local_source(spec["path"], "ratings", spec.get("licence")),)
        out.append(
            ReleaseDataset(
                family="simlex",
                name=f"rated_{name}",
                pretty_name=f"Rated word pairs: {name} (Bio-SimLex / SimLex-999 aggregation)",
                summary=(
                    "Word pairs with a similarity score 0-10: the mean of the retained raters' ratings "
                    "after SimLex-999 bias correction and rater exclusion (IAA-1 more than the configured "
                    "SDs below the mean), with its SD and number of ratings."
                ),
                motivation="Gold scores for word-similarity evaluation, aggregated reproducibly from raw ratings.",
                configs={DEFAULT_CONFIG: {EVALUATION_SPLIT: outputs.rated_dataset.path(ratings=name)}},
                sources=sources,
                parameters={"ratings": name, **spec},
                paper=PAPERS["simlex"],
                references=SIMLEX_REFERENCES,
                columns=RATED_COLUMNS,
                limitations=(
                    (
                        "Scores depend on the bias-correction and exclusion settings (in the parameters); "
                        "they can differ from a published file aggregated without them."
                    ),
                    (
                        "The licence of the ratings is that of their source; 'none stated' means the "
                        "publisher gave none: check before redistributing."
                    ),
                ),
                changes=(
                    "individual ratings aggregated per pair (bias correction, rater exclusion, mean rescaled to "
                    "0-10, standard deviation); the individual ratings are not released"
                ),
                task_categories=("sentence-similarity",),
            )
        )
    return out
