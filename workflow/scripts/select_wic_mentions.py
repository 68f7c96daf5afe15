"""Unify the corpora's mention concepts and choose one mention per sentence (BioWiC step 1).

Reads the sentences and mentions intermediates of every configured corpus, the notices of the corpora
that have them (CRAFT), with a terminology its concepts and mappings of the corpus namespaces (plus its
``mapped_to`` relations when MeSH supplementary records follow their heading), and the concepts,
associations and alt_id mappings of each namespace terminology (GO, CL, UBERON, SO, MOP for CRAFT);
leaves out the articles whose notice does not permit redistribution; keeps each PMID in the first
corpus that has it; writes the selected mentions, the corpus term sets, the abbreviations the texts
define and the counts per step. Parameters: docs/design.md § wic, config/README.md § wic.
"""

import logging

import pandas as pd

from biosem.corpora.notices import classify_notices
from biosem.io import read_concat, read_table, read_where, write_table, write_text
from biosem.logs import configure_logging
from biosem.terminology.obo import ALT_ID_CODE_SYSTEM
from biosem.terminology.resolve import log_resolution
from biosem.wic.concepts import (
    MAPPED_TO,
    check_mention_offsets,
    deduplicate_documents,
    exclude_by_notice,
    namespace_ids,
    resolve_namespace_ids,
    select_mentions,
    unify_concepts,
)
from biosem.wic.lexical import configure_nltk_data, no_definitions, parenthesised_definitions
from biosem.wic.schemas import CORPUS_TERMS, DEFINITIONS, SELECTED

log = logging.getLogger(__name__)


def main(snakemake) -> None:
    configure_logging(snakemake)
    params = snakemake.params
    wic = params.wic
    log.info("WordNet from %s", configure_nltk_data(params.nltk_data))
    sentences = read_concat(snakemake.input.sentences)
    mentions = read_concat(snakemake.input.mentions)
    excluded = None
    if wic["notice_corpora"]:
        notices = read_concat(snakemake.input.notices)
        notices = notices.assign(notice_class=classify_notices(notices))
        for (corpus, kind), n in notices.groupby(["corpus", "notice_class"], sort=True).size().items():
            log.info("%s: notices of class %s = %d", corpus, kind, n)
        log.info("notice classes permitted: %s", wic["permitted_notices"])
        sentences, mentions, excluded = exclude_by_notice(sentences, mentions, notices, wic["permitted_notices"])
        for row in excluded.itertuples(index=False):
            log.info("%s: %s = %d", row.corpus, row.step, row.n)
        out = notices[~notices["notice_class"].isin(wic["permitted_notices"])]
        for row in out.itertuples(index=False):
            log.info("%s: article %s (%s) left out: %s", row.corpus, row.document_id, row.notice_class, row.statement)
    sentences, mentions, dedup = deduplicate_documents(sentences, mentions, wic["corpora"])
    for row in dedup.itertuples(index=False):
        log.info("%s: %s = %d", row.corpus, row.step, row.n)
    resolved = None
    if wic["namespace_terminologies"]:
        spaces = list(wic["namespace_terminologies"])
        tables = {}
        for ns, c_path, a_path, m_path in zip(
            spaces,
            snakemake.input.namespace_concepts,
            snakemake.input.namespace_associations,
            snakemake.input.namespace_mappings,
            strict=True,
        ):
            tables[ns] = (
                read_table(c_path, columns=["concept_id", "active"]),
                read_table(a_path, columns=["inactive_id", "target_id", "kind"]),
                read_where(m_path, [("code_system", "==", ALT_ID_CODE_SYSTEM)], ["concept_id", "code_system", "code"]),
            )
        resolved = resolve_namespace_ids(namespace_ids(mentions, spaces), tables)
        for ns, name in wic["namespace_terminologies"].items():
            log_resolution(resolved[resolved["namespace"] == ns], f"{ns} ids in the corpora -> terminology {name}")
    mappings = concepts = headings = None
    if hasattr(snakemake.input, "mappings"):
        code_systems = sorted(set(wic["code_systems"].values()))
        mappings = read_where(snakemake.input.mappings, [("code_system", "in", code_systems)])
        concepts = read_table(snakemake.input.concepts, columns=["concept_id"])
        log.info(
            "terminology %s: %d mappings of %s (corpus namespaces %s), %d concepts",
            wic["terminology"],
            len(mappings),
            code_systems,
            wic["code_systems"],
            len(concepts),
        )
        if hasattr(snakemake.input, "relations"):
            rel = read_where(snakemake.input.relations, [("rela", "==", MAPPED_TO)], ["subject_id", "object_id"])
            headings = rel.rename(columns={"subject_id": "concept_id", "object_id": "heading_id"})
            log.info("supplementary records follow their heading: %d %s relations", len(headings), MAPPED_TO)
    else:
        log.info("no terminology: the corpora's namespaced ids are the concept ids")
    log.info("mention types used: %s (other corpora: all types)", wic["mention_types"] or "all")
    unified = unify_concepts(
        mentions,
        mappings,
        concepts,
        wic["code_systems"],
        own_namespace=wic["own_namespace"],
        keep_unmapped=wic["keep_unmapped"],
        headings=headings,
        mention_types=wic["mention_types"],
        resolved=resolved,
    )
    selected, corpus_terms, counts = select_mentions(
        sentences, unified, params.seed, word_boundaries=wic["word_boundary_targets"]
    )
    counts = pd.concat([c for c in (excluded, dedup, counts) if c is not None], ignore_index=True)
    if wic["abbreviation_definitions"]:
        eligible = unified[unified["drop_reason"].isna()]
        definitions = parenthesised_definitions(check_mention_offsets(eligible, sentences))
        log.info(
            "abbreviations defined in the texts (long form (SF) between two eligible mentions): %d distinct "
            "pairs, %d definitions",
            len(definitions),
            int(definitions["mentions"].sum()),
        )
    else:
        definitions = no_definitions()
        log.info("abbreviations defined in the texts: not read (wic.abbreviation_definitions false)")
    for row in counts.itertuples(index=False):
        log.info("%s: %s = %d", row.corpus, row.step, row.n)
    log.info(
        "selected sentences = %d; distinct concepts = %d; distinct terms = %d; corpus term-set entries = %d",
        len(selected),
        selected["concept_id"].nunique(),
        selected["term_lower"].nunique(),
        len(corpus_terms),
    )
    write_table(selected, snakemake.output.selected, SELECTED)
    write_table(corpus_terms, snakemake.output.corpus_terms, CORPUS_TERMS)
    write_table(definitions, snakemake.output.definitions, DEFINITIONS)
    write_text(counts.to_csv(sep="\t", index=False, lineterminator="\n"), snakemake.output.counts)


if __name__ == "__main__":
    main(snakemake)  # noqa: F821 - injected by Snakemake
