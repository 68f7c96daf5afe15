"""Unify the corpora's mention concepts and choose one mention per sentence (BioWiC step 1).

Reads the sentences and mentions intermediates of every configured corpus (and, with a terminology,
its concepts and mappings of the corpus namespaces, plus its ``mapped_to`` relations when MeSH
supplementary records follow their heading); keeps each PMID in the first corpus that has it; writes
the selected mentions, the corpus term sets and the counts per step. Parameters: docs/design.md § wic,
config/README.md § wic.
"""

import logging

import pandas as pd

from biosem.io import read_table, write_table, write_text
from biosem.logs import configure_logging
from biosem.wic.concepts import MAPPED_TO, deduplicate_documents, select_mentions, unify_concepts
from biosem.wic.io import read_concat, read_where
from biosem.wic.lexical import configure_nltk_data
from biosem.wic.schemas import CORPUS_TERMS, SELECTED

log = logging.getLogger(__name__)


def main(snakemake) -> None:
    configure_logging(snakemake)
    params = snakemake.params
    wic = params.wic
    log.info("WordNet from %s", configure_nltk_data(params.nltk_data))
    sentences = read_concat(snakemake.input.sentences)
    mentions = read_concat(snakemake.input.mentions)
    sentences, mentions, dedup = deduplicate_documents(sentences, mentions, wic["corpora"])
    for row in dedup.itertuples(index=False):
        log.info("%s: %s = %d", row.corpus, row.step, row.n)
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
    )
    selected, corpus_terms, counts = select_mentions(sentences, unified, params.seed)
    counts = pd.concat([dedup, counts], ignore_index=True)
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
    write_text(counts.to_csv(sep="\t", index=False, lineterminator="\n"), snakemake.output.counts)


if __name__ == "__main__":
    main(snakemake)  # noqa: F821 - injected by Snakemake
