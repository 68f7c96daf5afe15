"""Plot the kept analogy relations of every terminology (instances, Amb) beside BMASS."""

import logging

from biosem.analogies.summary import read_counts
from biosem.logs import configure_logging
from biosem.report.plots import analogies_figure, analogy_relations, save_png

log = logging.getLogger(__name__)


def main(snakemake) -> None:
    configure_logging(snakemake)
    relations = analogy_relations(read_counts(snakemake.input.relations))
    log.info("relations plotted:\n%s", relations.to_string(index=False))
    save_png(analogies_figure(relations), snakemake.output.plot)


if __name__ == "__main__":
    main(snakemake)  # noqa: F821 - injected by Snakemake
