"""Count the noun and verb lemmas of one shard of the configured corpus (docs/design.md § simlex).

Reads the sentence intermediates of the configured corpora and the text corpus files (plain, gzipped
or PubMed XML), keeps this shard's documents (:func:`biosem.simlex.sharding.shard_documents`) and
writes its partial counts, which rule ``count_corpus_words`` merges. The multi-word terms of the
fragment terminologies (``simlex.vocabulary.fragment_terminologies``) are matched in the text for the
``in_term`` counts (:func:`biosem.simlex.evidence.terminology_words`). Parameters: config
``simlex.vocabulary``.
"""

import logging

from biosem.corpora.shards import parse_scatter_item, part_label
from biosem.io import read_table, write_table
from biosem.logs import configure_logging
from biosem.simlex.evidence import terminology_words
from biosem.simlex.sharding import PARTIAL_COUNTS, counts_table, shard_documents
from biosem.simlex.specialist import read_lrspl
from biosem.simlex.vocabulary import configure_nltk_data, count_corpus, params_from_config

log = logging.getLogger(__name__)


def main(snakemake) -> None:
    configure_logging(snakemake)
    index, n = parse_scatter_item(snakemake.wildcards.scatteritem)
    log.info("NLTK data from %s", configure_nltk_data(snakemake.params.nltk_data))
    lrspl = None
    if snakemake.input.lrspl:
        table = read_lrspl(snakemake.input.lrspl[0])
        lrspl = dict(zip(table["variant"], table["base"], strict=True))
        log.info("SPECIALIST LRSPL: %d spelling variants", len(lrspl))
    params = params_from_config(snakemake.params.vocabulary, lrspl)
    frames = [read_table(p, columns=["document_id", "sentence_id", "text"]) for p in snakemake.input.sentences]
    documents, parts = shard_documents(
        frames, list(snakemake.input.text_files), index, n, deduplicate=snakemake.params.deduplicate
    )
    log.info(
        "shard %d of %d: %d documents (from %d sentence tables and %d text-file parts: %s)",
        index + 1, n, len(documents), len(frames), len(parts), ", ".join(map(part_label, parts)) or "none",
    )  # fmt: skip
    terms, _ = terminology_words(read_table(p, columns=["term", "active"]) for p in snakemake.input.fragment_terms)
    log.info("%d multi-word terms of %d fragment terminologies", len(terms), len(snakemake.input.fragment_terms))
    counts = count_corpus(documents, params, workers=snakemake.threads, terms=terms)
    log.info(
        "shard %d of %d: %d documents, %d word tokens, %d kept (lemma, POS) types, %d kept tokens "
        "(%d after a number, %d inside a multi-word term)",
        index + 1, n, counts.documents, counts.word_tokens, len(counts.counts), sum(counts.counts.values()),
        sum(counts.after_number.values()), sum(counts.in_term.values()),
    )  # fmt: skip
    write_table(counts_table(counts), snakemake.output.partial, PARTIAL_COUNTS)


if __name__ == "__main__":
    main(snakemake)  # noqa: F821 - injected by Snakemake
