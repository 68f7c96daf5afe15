"""Ingest one token-per-line corpus (``format: conll``) into the documents / sentences / mentions
intermediates.

Inputs: one file per split (``train``, ``dev``, ``test``; plain or gzipped ``token<TAB>tag`` lines,
blank lines between sentences). Writes the three Parquet tables of ``biosem.corpora.schemas`` (the
mentions table empty: these corpora give no concept ids) and a counts table per split. Rules:
biosem.corpora.conll docstring.
"""

import logging

from biosem.corpora.conll import ingest_conll_corpus
from biosem.corpora.ingest import write_corpus_tables
from biosem.corpora.schemas import SPLITS
from biosem.logs import configure_logging
from biosem.sources import verify_fetched

log = logging.getLogger(__name__)


def main(snakemake) -> None:
    configure_logging(snakemake)
    corpus = snakemake.wildcards.corpus
    spec = snakemake.params.spec
    verify_fetched(snakemake.input.checksums)
    inputs = {key: path for key, path in snakemake.input.items() if key != "checksums"}
    files = {s: inputs[s] for s in SPLITS if s in inputs}
    unit = spec["document_unit"]
    size = spec["sentences_per_document"] if unit == "sentences" else 1
    log.info(
        "%s: token-per-line files %s; documents by %s%s",
        corpus,
        files,
        unit,
        f" ({size} sentences each)" if unit == "sentences" else " (MEDLINE UI, TI and AB field lines)",
    )
    tables = ingest_conll_corpus(corpus, files, unit, size)
    for row in tables.counts.itertuples(index=False):
        log.info(
            "%s %s: %d files, %d token lines (%d MEDLINE field lines), %d documents (%d read, %d identical "
            "duplicates dropped), %d sentences, %d text tokens, %d mentions",
            row.corpus, row.split, row.files, row.token_lines, row.field_lines, row.documents, row.records,
            row.duplicates_dropped, row.sentences, row.tokens, row.mentions,
        )  # fmt: skip
    write_corpus_tables(tables, snakemake.output, corpus, log)


if __name__ == "__main__":
    main(snakemake)  # noqa: F821 - injected by Snakemake
