"""Count the noun and verb lemmas of the configured corpus (Bio-SimLex vocabulary, docs/design.md § simlex).

Reads the sentence intermediates of the configured corpora and any plain-text corpus files; writes
the ``word_counts`` intermediate and the per-filter counts table. Parameters: config ``simlex.vocabulary``.
"""

import logging

from biosem.io import read_table, write_table, write_text
from biosem.logs import configure_logging
from biosem.simlex.schemas import WORD_COUNTS
from biosem.simlex.specialist import read_lrspl
from biosem.simlex.vocabulary import (
    configure_nltk_data,
    count_corpus,
    documents_from_sentences,
    documents_from_text,
    filter_table,
    params_from_config,
    word_count_table,
)

log = logging.getLogger(__name__)


def main(snakemake) -> None:
    configure_logging(snakemake)
    log.info("NLTK data from %s", configure_nltk_data(snakemake.params.nltk_data))
    lrspl = None
    if snakemake.input.lrspl:
        table = read_lrspl(snakemake.input.lrspl[0])
        lrspl = dict(zip(table["variant"], table["base"], strict=True))
        log.info("SPECIALIST LRSPL: %d spelling variants", len(lrspl))
    params = params_from_config(snakemake.params.vocabulary, lrspl)
    frames = [read_table(p, columns=["document_id", "sentence_id", "text"]) for p in snakemake.input.sentences]
    documents = documents_from_sentences(frames, deduplicate=snakemake.params.deduplicate)
    for path in snakemake.input.text_files:
        documents += documents_from_text(path)
    log.info(
        "%d documents (%d sentence tables, %d text files)",
        len(documents),
        len(frames),
        len(snakemake.input.text_files),
    )
    counts = count_corpus(documents, params, workers=snakemake.threads)
    table = word_count_table(counts, params.min_count, params.min_pos_share)
    filters = filter_table(counts, params.min_count, params.min_pos_share)
    for row in filters.itertuples(index=False):
        log.info("%s %s: %d tokens, %d types", row.pos, row.step, row.tokens, row.types)
    write_table(table, snakemake.output.counts, WORD_COUNTS)
    write_text(filters.to_csv(sep="\t", index=False, lineterminator="\n"), snakemake.output.filters)


if __name__ == "__main__":
    main(snakemake)  # noqa: F821 - injected by Snakemake
