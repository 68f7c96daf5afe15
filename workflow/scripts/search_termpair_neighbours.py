"""The first Levenshtein-negative search of the jointly searched term-pair datasets of one difficulty."""

import logging

from biosem.io import read_table, write_table
from biosem.logs import configure_logging
from biosem.termpairs.schemas import TERMPAIR_NEIGHBOURS
from biosem.termpairs.search import search_neighbours

log = logging.getLogger(__name__)


def main(snakemake) -> None:
    configure_logging(snakemake)
    w = snakemake.wildcards
    positives = read_table(snakemake.input.positives)
    components = read_table(snakemake.input.components)
    rows, counts = search_neighbours(
        positives, components, snakemake.params.kinds, w.difficulty, workers=snakemake.threads
    )
    for key, value in counts.items():
        log.info("%s %s (%s): %s = %s", w.terminology, w.difficulty, "+".join(snakemake.params.kinds), key, value)
    n = write_table(rows, snakemake.output.neighbours, TERMPAIR_NEIGHBOURS)
    log.info("%s %s: %d neighbour rows written", w.terminology, w.difficulty, n)


if __name__ == "__main__":
    main(snakemake)  # noqa: F821 - injected by Snakemake
