"""Plot one terminology's term-pair datasets: pairs per dataset and Levenshtein distances."""

import logging
from pathlib import Path

from biosem.io import read_table
from biosem.logs import configure_logging
from biosem.report.plots import levenshtein_counts, save_png, termpair_figure, termpair_sizes

log = logging.getLogger(__name__)


def main(snakemake) -> None:
    configure_logging(snakemake)
    datasets = {
        Path(path).stem: read_table(path, columns=["label", "levenshtein"]) for path in sorted(snakemake.input.datasets)
    }
    sizes = termpair_sizes(datasets)
    distances = levenshtein_counts(datasets)
    log.info("%s pairs per dataset:\n%s", snakemake.wildcards.terminology, sizes.to_string(index=False))
    log.info("pairs per Levenshtein distance:\n%s", distances[distances.sum(axis=1) > 0].to_string())
    save_png(termpair_figure(snakemake.wildcards.terminology, sizes, distances), snakemake.output.plot)


if __name__ == "__main__":
    main(snakemake)  # noqa: F821 - injected by Snakemake
