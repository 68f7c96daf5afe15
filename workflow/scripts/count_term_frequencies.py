"""Count every term of one terminology in the configured corpus (BMASS term frequencies).

Reads the ``terms`` intermediate and the corpus (documents Parquet of the configured corpora, then plain
or gzipped text files, one document per line); writes the ``term_counts`` intermediate. Rules:
:mod:`biosem.analogies.frequency` (docs/design.md § analogies).
"""

import itertools
import logging
import time
from collections import Counter

from biosem.analogies.frequency import (
    attach_counts,
    count_occurrences,
    document_chunks,
    prepare_terms,
    resolve_backend,
    term_patterns,
    text_file_chunks,
)
from biosem.analogies.schemas import TERM_COUNTS
from biosem.io import read_table, write_table
from biosem.logs import configure_logging

log = logging.getLogger(__name__)


def main(snakemake) -> None:
    configure_logging(snakemake)
    name = snakemake.wildcards.terminology
    prepared = prepare_terms(read_table(snakemake.input.terms))
    patterns = term_patterns(prepared)
    log.info(
        "%s: %d active terms of %d concepts, %d distinct normalised forms (%d terms normalise to nothing)",
        name, len(prepared), prepared["concept_id"].nunique(), len(patterns),
        int((prepared["normalised"] == "").sum()),
    )  # fmt: skip
    backend = resolve_backend(snakemake.params.backend)
    chunk_bytes = int(snakemake.params.chunk_mb * 2**20)
    corpus: Counter[str] = Counter()
    chunks = itertools.chain(
        document_chunks(snakemake.input.documents, chunk_bytes, stats=corpus),
        *(text_file_chunks(path, chunk_bytes, stats=corpus) for path in snakemake.input.text_files),
    )
    start = time.perf_counter()
    counts, run = count_occurrences(patterns, chunks, workers=snakemake.threads, backend=backend)
    elapsed = time.perf_counter() - start
    log.info(
        "corpus: %d documents (%d duplicate document ids skipped), %.1f MB in %d chunks",
        corpus["documents"], corpus["duplicate documents"], run["bytes"] / 1e6, run["chunks"],
    )  # fmt: skip
    log.info(
        "%d matches; %d of %d normalised forms occur; %.1f s, %.1f MB/s (%s, %d workers)",
        run["matches"], int((counts > 0).sum()), len(patterns), elapsed,
        run["bytes"] / 1e6 / max(elapsed, 1e-9), backend, snakemake.threads,
    )  # fmt: skip
    table = attach_counts(prepared, patterns, counts)
    best = table.groupby("concept_id")["count"].max()
    for threshold in (1, 5, 25):
        log.info("concepts with a term occurring >= %d times: %d", threshold, int((best >= threshold).sum()))
    write_table(table, snakemake.output.term_counts, TERM_COUNTS)


if __name__ == "__main__":
    main(snakemake)  # noqa: F821 - injected by Snakemake
