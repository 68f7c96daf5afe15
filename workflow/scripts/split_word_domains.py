"""Split the vocabulary into biomedical and general words by relative frequency (docs/design.md § simlex).

Reads ``word_counts`` and the corpus size from the filters table; applies the reviewed domain file
if configured; writes ``word_domains``, the review sheet and the frequency-ranking correlation.
"""

import logging

import pandas as pd

from biosem.io import read_table, write_table, write_text
from biosem.logs import configure_logging
from biosem.simlex.domain import (
    apply_review,
    domain_table,
    frequency_correlation,
    params_from_config,
    read_reviewed_domains,
    review_sheet,
)
from biosem.simlex.schemas import WORD_DOMAINS

log = logging.getLogger(__name__)


def main(snakemake) -> None:
    configure_logging(snakemake)
    params = params_from_config(snakemake.params.domain)
    counts = read_table(snakemake.input.counts)
    filters = pd.read_csv(snakemake.input.filters, sep="\t")
    word_tokens = int(filters.loc[(filters["pos"] == "all") & (filters["step"] == "word_tokens"), "tokens"].iloc[0])
    table = domain_table(counts, word_tokens, params)
    if snakemake.input.reviewed:
        table, review = apply_review(table, read_reviewed_domains(snakemake.input.reviewed[0]))
        log.info("reviewed file %s: %s", snakemake.input.reviewed[0], review)
    for (pos, domain), n in table.groupby(["pos", "domain"]).size().items():
        log.info("%s %s: %d words", pos, domain, n)
    correlation = frequency_correlation(table)
    for row in correlation.itertuples(index=False):
        log.info(
            "Spearman rho corpus vs wordfreq, %s (%d words): %.3f (paper, vs BNC: 0.39)",
            row.pos,
            row.words,
            row.spearman_rho,
        )
    write_table(table, snakemake.output.domains, WORD_DOMAINS)
    write_text(
        review_sheet(table).to_csv(index=False, lineterminator="\n", float_format="%.6g"),
        snakemake.output.sheet,
    )
    write_text(
        correlation.to_csv(sep="\t", index=False, lineterminator="\n", float_format="%.6g"),
        snakemake.output.correlation,
    )


if __name__ == "__main__":
    main(snakemake)  # noqa: F821 - injected by Snakemake
