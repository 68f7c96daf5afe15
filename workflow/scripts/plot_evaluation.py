"""Report plots of the results table: rated pairs, frequency bands, term pairs, analogies, WiC (scores on
partial coverage marked)."""

import logging

from biosem.evaluate.plots import (
    partial_coverage,
    plot_frequency_bands,
    plot_relation_map,
    plot_scores_with_ci,
    plot_termpair_heatmap,
)
from biosem.io import read_table
from biosem.logs import configure_logging

log = logging.getLogger(__name__)


def main(snakemake) -> None:
    configure_logging(snakemake)
    results = read_table(snakemake.input.results)
    out = snakemake.output
    rated = results[(results["metric"] == "cosine:spearman") & (results["subset"] == "all")]
    log.info("rated: %d datasets", plot_scores_with_ci(rated, out.rated, "Rated pairs", "Spearman's rho"))
    partial = partial_coverage(rated["coverage"].to_numpy(dtype=float))
    log.info("rated: %d of %d scores on partial coverage (marked)", int(partial.sum()), len(rated))
    log.info("frequency bands: %d datasets", plot_frequency_bands(results, out.frequency_bands))
    log.info("term pairs: %d terminologies", plot_termpair_heatmap(results, out.termpairs))
    log.info("analogies: %d terminologies", plot_relation_map(results, out.analogies))
    wic = results[
        (results["dataset"] == "wic/test") & results["metric"].isin(["context_cosine:accuracy", "random:accuracy"])
    ]
    log.info("wic: %d groups", plot_scores_with_ci(wic, out.wic, "WiC test", "accuracy", group="subset"))


if __name__ == "__main__":
    main(snakemake)  # noqa: F821 - injected by Snakemake
