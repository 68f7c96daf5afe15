"""Sum the shards' term counts of one terminology into its ``term_counts`` intermediate (BMASS).

Reads the ``terms`` intermediate and every shard's nonzero counts (rule
``count_term_frequencies_shard``); writes the ``term_counts`` intermediate, identical for any number
of shards. Rules: :mod:`biosem.analogies.frequency` (docs/design.md § analogies).
"""

import logging

from biosem.analogies.frequency import attach_counts, merge_partial_counts, prepare_terms, term_patterns
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
    partial = [read_table(p) for p in snakemake.input.partial]
    for path, table in zip(snakemake.input.partial, partial, strict=True):
        log.info("shard %s: %d forms occur, %d matches", path, len(table), int(table["count"].sum()))
    counts = merge_partial_counts(patterns, partial)
    log.info(
        "merged %d shards: %d matches; %d of %d normalised forms occur",
        len(partial), int(counts.sum()), int((counts > 0).sum()), len(patterns),
    )  # fmt: skip
    table = attach_counts(prepared, patterns, counts)
    best = table.groupby("concept_id")["count"].max()
    for threshold in (1, 5, 25):
        log.info("concepts with a term occurring >= %d times: %d", threshold, int((best >= threshold).sum()))
    write_table(table, snakemake.output.term_counts, TERM_COUNTS)


if __name__ == "__main__":
    main(snakemake)  # noqa: F821 - injected by Snakemake
