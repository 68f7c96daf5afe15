"""The WiC random baseline: a seeded coin flip per instance, accuracy per group and overall."""

import logging

from biosem.evaluate.results import RESULTS, results_frame
from biosem.evaluate.wic import evaluate_random
from biosem.io import read_table, write_table
from biosem.logs import configure_logging
from biosem.seeds import generator

log = logging.getLogger(__name__)


def main(snakemake) -> None:
    configure_logging(snakemake)
    cfg = snakemake.params.wic
    dev, test = (read_table(p, columns=["label", "cat"]) for p in snakemake.input.splits)
    rows = evaluate_random(
        {"dev": dev, "test": test},
        lambda key: generator(snakemake.params.seed, "evaluate", "wic", "random", key),
        cfg["n_resamples"],
        cfg["confidence_level"],
    )
    for row in rows:
        log.info("%s %s: accuracy %.4f (n %d)", row["dataset"], row["subset"], row["value"], row["n"])
    write_table(results_frame(rows), snakemake.output.results, RESULTS)


if __name__ == "__main__":
    main(snakemake)  # noqa: F821 - injected by Snakemake
