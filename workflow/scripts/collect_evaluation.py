"""Collect every per-family, per-model results table into one tidy table (Parquet and CSV).

Logs what each model scored per family (datasets, items scored, range of coverage) and a WARNING line per
dataset a model covers less than half of (biosem.evaluate.COVERAGE_WARNING), as biosem evaluate prints them.
"""

import logging

from biosem.evaluate import COVERAGE_WARNING
from biosem.evaluate.results import collect, coverage_summary, coverage_warnings, dataset_coverage, write_results
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
    for r in coverage_summary(dataset_coverage(frame)).itertuples(index=False):
        log.info(
            "%s %s: %d datasets, %d items scored, coverage %.3f-%.3f",
            r.model,
            r.family,
            r.datasets,
            r.n,
            r.coverage_min,
            r.coverage_max,
        )
    for line in coverage_warnings(frame, COVERAGE_WARNING):
        log.warning("%s", line)


if __name__ == "__main__":
    main(snakemake)  # noqa: F821 - injected by Snakemake
