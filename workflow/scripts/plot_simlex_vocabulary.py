"""Plot the simlex vocabulary: frequency ratio per domain and the domain split per part of speech."""

import logging

from biosem.io import read_table
from biosem.logs import configure_logging
from biosem.report.plots import domain_counts, log_ratio_counts, save_png, simlex_figure

log = logging.getLogger(__name__)


def main(snakemake) -> None:
    configure_logging(snakemake)
    domains = read_table(snakemake.input.domains, columns=["pos", "log_ratio", "domain"])
    counts = domain_counts(domains)
    log.info("lemmas per part of speech and domain:\n%s", counts.to_string())
    save_png(simlex_figure(log_ratio_counts(domains), counts), snakemake.output.plot)


if __name__ == "__main__":
    main(snakemake)  # noqa: F821 - injected by Snakemake
