"""Score one model on every rated word-pair dataset (external benchmarks and biosem's own).

Spearman's rho of cosine vs human score, coverage, OOV policy, BCa intervals, frequency bands (counted
on the corpus ``params.band_corpus``, written in the rows' ``corpus`` column).
"""

import logging

from biosem.evaluate.benchmarks import read_rated_pairs
from biosem.evaluate.models import load_rule_model
from biosem.evaluate.rated import RatedParams, evaluate_rated_datasets
from biosem.evaluate.results import RESULTS, results_frame
from biosem.io import read_table, write_table
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
        datasets = {}
        for spec, path in zip(snakemake.params.benchmarks, snakemake.input.benchmarks, strict=True):
            datasets[spec["name"]] = read_rated_pairs(path, spec["format"], spec.get("member"))
        for dataset, path in zip(snakemake.params.built, snakemake.input.built, strict=True):
            datasets[dataset] = read_rated_pairs(path, "parquet")
        for dataset, pairs in sorted(datasets.items()):
            log.info("%s: %d pairs", dataset, len(pairs))
        counts = None
        if len(snakemake.input.token_counts):
            table = read_table(snakemake.input.token_counts[0], columns=["token", "count"])
            counts = dict(zip(table["token"], table["count"].astype(int)))
            log.info("frequency bands counted on %s: %d tokens", snakemake.params.band_corpus, sum(counts.values()))
        params = RatedParams(
            **{**snakemake.params.rated, "frequency_bands": tuple(snakemake.params.rated["frequency_bands"])}
        )
        rows = evaluate_rated_datasets(
            model, datasets, params, snakemake.params.seed, counts, band_corpus=snakemake.params.band_corpus
        )
    write_table(results_frame(rows), snakemake.output.results, RESULTS)


if __name__ == "__main__":
    main(snakemake)  # noqa: F821 - injected by Snakemake
