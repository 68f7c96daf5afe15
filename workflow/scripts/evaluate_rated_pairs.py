"""Score one model on every rated word-pair dataset (external benchmarks and biosem's own).

Spearman's rho of cosine vs human score, coverage, OOV policy, BCa intervals, frequency bands (counted
on the corpus ``params.band_corpus``, written in the rows' ``corpus`` column).
"""

import logging

from biosem.evaluate.models import load_rule_model
from biosem.evaluate.results import RESULTS, results_frame
from biosem.evaluate.suite import log_coverage, read_rated_datasets, read_token_counts, score_rated
from biosem.io import write_table
from biosem.logs import configure_logging
from biosem.sources import verify_fetched

log = logging.getLogger(__name__)


def main(snakemake) -> None:
    configure_logging(snakemake)
    verify_fetched(snakemake.input.checksums)
    name = snakemake.wildcards.model
    model = load_rule_model(name, snakemake.params.spec, snakemake.input.model)
    rows = []
    if model is not None:
        benchmarks = zip(snakemake.params.benchmarks, snakemake.input.benchmarks, strict=True)
        built = zip(snakemake.params.built, snakemake.input.built, strict=True)
        datasets = read_rated_datasets(benchmarks, built)
        counts = None
        if len(snakemake.input.token_counts):
            counts = read_token_counts(snakemake.input.token_counts[0])
            log.info("frequency bands counted on %s: %d tokens", snakemake.params.band_corpus, sum(counts.values()))
        rows = score_rated(
            model, datasets, snakemake.params.rated, snakemake.params.seed, counts, snakemake.params.band_corpus
        )
        log_coverage(rows)
    write_table(results_frame(rows), snakemake.output.results, RESULTS)


if __name__ == "__main__":
    main(snakemake)  # noqa: F821 - injected by Snakemake
