"""Score one model on WiC: cosine of context-window vectors, threshold tuned on dev."""

import logging

from biosem.evaluate.models import load_rule_model
from biosem.evaluate.results import RESULTS, results_frame
from biosem.evaluate.suite import log_coverage, score_wic
from biosem.io import read_table, write_table
from biosem.logs import configure_logging

log = logging.getLogger(__name__)


def main(snakemake) -> None:
    configure_logging(snakemake)
    model = load_rule_model(snakemake.wildcards.model, snakemake.params.spec, snakemake.input.model)
    rows = []
    if model is not None:
        dev, test = (read_table(p) for p in snakemake.input.splits)
        rows = score_wic(model, dev, test, snakemake.params.wic, snakemake.params.seed)
        log_coverage(rows)
    write_table(results_frame(rows), snakemake.output.results, RESULTS)


if __name__ == "__main__":
    main(snakemake)  # noqa: F821 - injected by Snakemake
