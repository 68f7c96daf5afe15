"""Plot the BioWiC splits' instances per group and label."""

import logging
from pathlib import Path

from biosem.io import read_table
from biosem.logs import configure_logging
from biosem.report.plots import save_png, wic_composition, wic_figure

log = logging.getLogger(__name__)


def main(snakemake) -> None:
    configure_logging(snakemake)
    splits = {Path(path).stem: read_table(path, columns=["cat", "label"]) for path in snakemake.input.splits}
    composition = wic_composition(splits)
    log.info("instances per split, group and label:\n%s", composition.to_string(index=False))
    save_png(wic_figure(composition), snakemake.output.plot)


if __name__ == "__main__":
    main(snakemake)  # noqa: F821 - injected by Snakemake
