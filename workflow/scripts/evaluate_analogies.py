"""Score one model on every analogy dataset (BMASS): 3CosAdd, PairwiseDistance, 3CosMul.

Candidates per terminology: its terms counted at least `candidate_min_count` times in the corpus
plus every term of its analogies. Writes AccR/MAP/MRR per relation, macro and overall, and the top-k
predictions per analogy.
"""

import logging

import pandas as pd

from biosem.evaluate.models import load_rule_model
from biosem.evaluate.results import RESULTS, results_frame
from biosem.evaluate.schemas import ANALOGY_PREDICTIONS
from biosem.evaluate.suite import analogy_params, log_coverage, score_analogies
from biosem.io import write_table
from biosem.logs import configure_logging

log = logging.getLogger(__name__)


def main(snakemake) -> None:
    configure_logging(snakemake)
    model = load_rule_model(snakemake.wildcards.model, snakemake.params.spec, snakemake.input.model)
    rows, predictions = [], pd.DataFrame(columns=ANALOGY_PREDICTIONS.schema.names)
    if model is not None:
        rows, predictions = score_analogies(
            model,
            dict(zip(snakemake.params.datasets, snakemake.input.datasets, strict=True)),
            dict(zip(snakemake.params.terminologies, snakemake.input.term_counts, strict=True)),
            analogy_params(snakemake.params.analogies),
            workers=snakemake.threads,
        )
        log_coverage(rows)
    write_table(results_frame(rows), snakemake.output.results, RESULTS)
    write_table(predictions, snakemake.output.predictions, ANALOGY_PREDICTIONS)


if __name__ == "__main__":
    main(snakemake)  # noqa: F821 - injected by Snakemake
