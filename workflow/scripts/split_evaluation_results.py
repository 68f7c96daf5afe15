"""Split the tidy results table by family (rated, termpairs, analogies, wic) for the report's pages."""

import logging

from biosem.evaluate.families import FAMILIES, write_family_tables
from biosem.io import read_table
from biosem.logs import configure_logging

log = logging.getLogger(__name__)


def main(snakemake) -> None:
    configure_logging(snakemake)
    results = read_table(snakemake.input.results)
    counts = write_family_tables(results, {family: getattr(snakemake.output, family) for family in FAMILIES})
    for family, n in counts.items():
        log.info("%s: %d rows", family, n)
    log.info("%d rows in all (the results table: %d)", sum(counts.values()), len(results))


if __name__ == "__main__":
    main(snakemake)  # noqa: F821 - injected by Snakemake
