"""Parse the USF free association norms (Appendix A) into the ``usf`` intermediate (docs/design.md § Intermediates)."""

import logging

from biosem.io import write_table
from biosem.logs import configure_logging
from biosem.simlex.schemas import USF
from biosem.simlex.usf import check_counts, read_usf
from biosem.sources import verify_fetched

log = logging.getLogger(__name__)


def main(snakemake) -> None:
    configure_logging(snakemake)
    verify_fetched(snakemake.input.checksums)
    usf = read_usf(snakemake.input.usf)
    log.info(
        "USF: %d cue-target rows, %d cues, %d targets, %d rows with a normed target",
        len(usf),
        usf["cue"].nunique(),
        usf["target"].nunique(),
        int(usf["normed"].sum()),
    )
    check_counts(usf, snakemake.params.expected_rows, snakemake.params.expected_cues, snakemake.input.usf)
    write_table(usf, snakemake.output[0], USF)


if __name__ == "__main__":
    main(snakemake)  # noqa: F821 - injected by Snakemake
