"""Score one model on every term-pair dataset (Schulz & Juric 2020) and on category separation.

Per dataset and similarity: AUC, accuracy at the threshold tuned on a seeded half; the held-out
correctness per pair is kept for McNemar's test between models.
"""

import logging

from biosem.evaluate.models import load_rule_model
from biosem.evaluate.results import RESULTS, results_frame
from biosem.evaluate.schemas import TERMPAIR_PREDICTIONS
from biosem.evaluate.suite import category_samples, log_coverage, termpair_params
from biosem.evaluate.termpairs import (
    category_rows,
    empty_predictions,
    evaluate_termpair_datasets,
)
from biosem.io import ParquetTables, write_table
from biosem.logs import configure_logging

log = logging.getLogger(__name__)


def main(snakemake) -> None:
    configure_logging(snakemake)
    cfg = snakemake.params.evaluate
    seed = snakemake.params.seed
    model = load_rule_model(snakemake.wildcards.model, snakemake.params.spec, snakemake.input.model)
    rows, predictions = [], empty_predictions()
    if model is not None:
        params = termpair_params(cfg)
        datasets = ParquetTables(
            dict(zip(snakemake.params.datasets, snakemake.input.datasets, strict=True)),
            columns=["term1", "term2", "label"],
        )
        rows, predictions = evaluate_termpair_datasets(model, datasets, params, seed)
        tables = zip(
            snakemake.params.category_terminologies,
            snakemake.input.concepts,
            snakemake.input.terms,
            snakemake.input.relations,
            strict=True,
        )
        for terminology, sample, cat in category_samples(cfg["categories"], tables, seed, snakemake.params.termpairs):
            rows += category_rows(model, f"categories/{terminology}", sample, cat.bins)
        log_coverage(rows)
    write_table(results_frame(rows), snakemake.output.results, RESULTS)
    write_table(predictions, snakemake.output.predictions, TERMPAIR_PREDICTIONS)


if __name__ == "__main__":
    main(snakemake)  # noqa: F821 - injected by Snakemake
