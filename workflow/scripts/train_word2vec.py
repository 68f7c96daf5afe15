"""Train one of the default word2vec models on the configured corpora (deterministic, one thread).

Reads the documents Parquet of every training corpus, tokenises each document (lowercase, letters
and digits), trains gensim word2vec and writes the vectors in the word2vec binary format.
"""

import logging

import pandas as pd

from biosem.evaluate.models import (
    TrainingParams,
    corpus_sentences,
    save_word2vec_binary,
    train_word2vec,
)
from biosem.io import read_table
from biosem.logs import configure_logging

log = logging.getLogger(__name__)


def main(snakemake) -> None:
    configure_logging(snakemake)
    documents = pd.concat(
        [read_table(p, columns=["corpus", "document_id", "text"]) for p in sorted(snakemake.input.documents)]
    )
    sentences = corpus_sentences(documents)
    log.info("%d documents, %d tokens", len(sentences), sum(len(s) for s in sentences))
    params = TrainingParams(**snakemake.params.training)
    log.info("training %s: %s", snakemake.wildcards.model, params)
    vectors = train_word2vec(sentences, params)
    log.info("%s: %d words x %d dimensions", snakemake.wildcards.model, len(vectors), vectors.vector_size)
    save_word2vec_binary(vectors, snakemake.output.vectors)


if __name__ == "__main__":
    main(snakemake)  # noqa: F821 - injected by Snakemake
