"""Merge the shards' word counts into the Bio-SimLex vocabulary counts (docs/design.md § simlex).

Reads the partial counts of every shard (rule ``count_corpus_words_shard``); writes the
``word_counts`` intermediate and the per-filter counts table, identical for any number of shards.
Parameters: config ``simlex.vocabulary`` (min_count, min_pos_share).
"""

import logging

from biosem.io import read_table, write_table, write_text
from biosem.logs import configure_logging
from biosem.simlex.schemas import WORD_COUNTS
from biosem.simlex.sharding import merge_counts
from biosem.simlex.vocabulary import filter_table, params_from_config, word_count_table

log = logging.getLogger(__name__)


def main(snakemake) -> None:
    configure_logging(snakemake)
    params = params_from_config(snakemake.params.vocabulary)
    tables = [read_table(p) for p in snakemake.input.partial]
    for path, table in zip(snakemake.input.partial, tables, strict=True):
        totals = table[table["record"] == "total"].set_index("step")["tokens"]
        log.info(
            "shard %s: %d documents, %d word tokens",
            path.rsplit("/", 1)[-1].removesuffix(".parquet"), totals.get("documents", 0), totals.get("word_tokens", 0),
        )  # fmt: skip
    counts = merge_counts(tables)
    log.info("merged %d shards: %d documents, %d word tokens", len(tables), counts.documents, counts.word_tokens)
    table = word_count_table(counts, params.min_count, params.min_pos_share)
    filters = filter_table(counts, params.min_count, params.min_pos_share)
    for row in filters.itertuples(index=False):
        log.info("%s %s: %d tokens, %d types", row.pos, row.step, row.tokens, row.types)
    write_table(table, snakemake.output.counts, WORD_COUNTS)
    write_text(filters.to_csv(sep="\t", index=False, lineterminator="\n"), snakemake.output.filters)


if __name__ == "__main__":
    main(snakemake)  # noqa: F821 - injected by Snakemake
