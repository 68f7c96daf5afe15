"""Count the tokens of the frequency-band corpus of the rated-pair scores (``evaluate.rated.frequency_corpus``:
the training corpora by default)."""

import logging

import pandas as pd

from biosem.evaluate.models import corpus_sentences, count_tokens
from biosem.evaluate.schemas import TOKEN_COUNTS
from biosem.io import read_table, write_table
from biosem.logs import configure_logging

log = logging.getLogger(__name__)


def main(snakemake) -> None:
    configure_logging(snakemake)
    documents = pd.concat(
        [read_table(p, columns=["corpus", "document_id", "text"]) for p in sorted(snakemake.input.documents)]
    )
    counts = count_tokens(corpus_sentences(documents))
    log.info("%d documents: %d tokens, %d distinct", len(documents), int(counts["count"].sum()), len(counts))
    write_table(counts, snakemake.output.counts, TOKEN_COUNTS)


if __name__ == "__main__":
    main(snakemake)  # noqa: F821 - injected by Snakemake
