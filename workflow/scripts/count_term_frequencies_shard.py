"""Count every term of one terminology in one shard of the configured corpus (BMASS term frequencies).

Reads the ``terms`` intermediate and this shard's part of the corpus (its documents of the configured
corpora's documents Parquet, by document id; its parts of the text files: plain, gzipped or PubMed
XML); writes the shard's nonzero counts per counted form and match mode (every term lowercased, and
the terms counted with their case as written), which rule ``count_term_frequencies`` sums. Rules:
:mod:`biosem.analogies.frequency`, :mod:`biosem.analogies.matching`, :mod:`biosem.corpora.shards`
(docs/design.md § analogies).
"""

import itertools
import logging
import time
from collections import Counter

import numpy as np
import pandas as pd

from biosem.analogies.frequency import count_occurrences, document_chunks, part_chunks, resolve_backend
from biosem.analogies.matching import CaseRules, prepare_terms, term_patterns
from biosem.analogies.schemas import PARTIAL_TERM_COUNTS
from biosem.corpora.shards import file_parts, parse_scatter_item, part_label
from biosem.io import read_table, write_table
from biosem.logs import configure_logging
from biosem.wic.lexical import configure_nltk_data

log = logging.getLogger(__name__)


def main(snakemake) -> None:
    configure_logging(snakemake)
    name = snakemake.wildcards.terminology
    index, n = parse_scatter_item(snakemake.wildcards.scatteritem)
    rules = CaseRules(**snakemake.params.case_rules)
    if rules.needs_wordnet:
        log.info("WordNet from %s", configure_nltk_data(snakemake.params.nltk_data))
    patterns = term_patterns(prepare_terms(read_table(snakemake.input.terms), rules))
    backend = resolve_backend(snakemake.params.backend)
    chunk_bytes = int(snakemake.params.chunk_mb * 2**20)
    parts = file_parts(list(snakemake.input.text_files), index, n)
    modes = Counter(patterns.modes)
    log.info(
        "%s shard %d of %d: %d patterns (%s), %d abbreviations counted in context; text-file parts: %s",
        name, index + 1, n, len(patterns.forms), ", ".join(f"{m} {k}" for m, k in sorted(modes.items())),
        len(patterns.contexts), ", ".join(map(part_label, parts)) or "none",
    )  # fmt: skip
    corpus: Counter[str] = Counter()
    chunks = itertools.chain(
        document_chunks(snakemake.input.documents, chunk_bytes, stats=corpus, shard=(index, n)),
        *(part_chunks(part, chunk_bytes, stats=corpus) for part in parts),
    )
    start = time.perf_counter()
    counts, run = count_occurrences(
        patterns.forms,
        chunks,
        workers=snakemake.threads,
        backend=backend,
        modes=patterns.modes,
        contexts=patterns.counter_contexts(),
    )
    elapsed = time.perf_counter() - start
    log.info(
        "%s shard %d of %d: %d documents (%d duplicate document ids skipped), %.1f MB in %d chunks; "
        "%d matches; %.1f s, %.1f MB/s (%s, %d workers)",
        name, index + 1, n, corpus["documents"], corpus["duplicate documents"], run["bytes"] / 1e6, run["chunks"],
        run["matches"], elapsed, run["bytes"] / 1e6 / max(elapsed, 1e-9), backend, snakemake.threads,
    )  # fmt: skip
    hit = counts > 0
    forms, modes, concepts = (np.array(x, dtype=object)[hit] for x in patterns.slots())
    table = pd.DataFrame({"normalised": forms, "mode": modes, "concept_id": concepts, "count": counts[hit]})
    write_table(table, snakemake.output.partial, PARTIAL_TERM_COUNTS)


if __name__ == "__main__":
    main(snakemake)  # noqa: F821 - injected by Snakemake
