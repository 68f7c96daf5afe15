"""Collect every per-family, per-model results table into one tidy table (Parquet and CSV)."""

import logging

from biosem.evaluate.results import collect, write_results
from biosem.io import read_table
from biosem.logs import configure_logging

log = logging.getLogger(__name__)


def main(snakemake) -> None:
    configure_logging(snakemake)
    frame = collect(read_table(p) for p in sorted(snakemake.input.parts))
    n = write_results(frame, snakemake.output.parquet, snakemake.output.csv)
    log.info("%d result rows: %d models, %d datasets", n, frame["model"].nunique(), frame["dataset"].nunique())
    for (model, dataset), grp in frame.groupby(["model", "dataset"], sort=True):
        log.info("%s / %s: %d rows", model, dataset, len(grp))


if __name__ == "__main__":
    main(snakemake)  # noqa: F821 - injected by Snakemake
