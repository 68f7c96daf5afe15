"""Score one model on WiC: cosine of context-window vectors, threshold tuned on dev."""

import logging

from biosem.evaluate.models import load_rule_model
from biosem.evaluate.results import RESULTS, results_frame
from biosem.evaluate.wic import evaluate_context_cosine
from biosem.io import read_table, write_table
from biosem.logs import configure_logging
from biosem.seeds import generator

log = logging.getLogger(__name__)


def main(snakemake) -> None:
    configure_logging(snakemake)
    cfg = snakemake.params.wic
    name = snakemake.wildcards.model
    model = load_rule_model(name, snakemake.params.spec, snakemake.input.model)
    rows = []
    if model is not None:
        dev, test = (read_table(p) for p in snakemake.input.splits)
        log.info("WiC dev %d, test %d instances", len(dev), len(test))
        rows = evaluate_context_cosine(
            model,
            dev,
            test,
            cfg["window"],
            lambda key: generator(snakemake.params.seed, "evaluate", "wic", name, key),
            cfg["n_resamples"],
            cfg["confidence_level"],
        )
    write_table(results_frame(rows), snakemake.output.results, RESULTS)


if __name__ == "__main__":
    main(snakemake)  # noqa: F821 - injected by Snakemake
