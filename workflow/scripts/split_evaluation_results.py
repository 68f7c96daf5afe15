"""Split the tidy results table for the report's pages: rated, term pairs and analogies per terminology, WiC."""

import logging

from biosem.evaluate.families import write_tables
from biosem.io import read_table
from biosem.logs import configure_logging

log = logging.getLogger(__name__)


def main(snakemake) -> None:
    configure_logging(snakemake)
    results = read_table(snakemake.input.results)
    counts = write_tables(results, dict(zip(snakemake.params.tables, snakemake.output.tables, strict=True)))
    for table, n in counts.items():
        log.info("%s: %d rows", table, n)
    log.info("%d rows in %d tables (the results table: %d)", sum(counts.values()), len(counts), len(results))


if __name__ == "__main__":
    main(snakemake)  # noqa: F821 - injected by Snakemake
