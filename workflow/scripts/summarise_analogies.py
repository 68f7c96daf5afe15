"""Summarise the analogies of every terminology beside the BMASS paper (Newman-Griffis et al. 2017).

Reads each terminology's ``counts.tsv``; writes ``summary.tsv`` (one row per terminology: relations
considered and kept, analogies, Amb; then all terminologies, then the paper) and ``relations.tsv`` (one
row per relation with the reason it was kept or dropped; then the paper's 25). Rules:
:mod:`biosem.analogies.summary`.
"""

import logging

from biosem.analogies.construct import AnalogyParams
from biosem.analogies.summary import read_counts, summarise
from biosem.io import write_text
from biosem.logs import configure_logging

log = logging.getLogger(__name__)


def tsv(frame) -> str:
    return frame.to_csv(sep="\t", index=False, na_rep="", float_format="%.3f", lineterminator="\n")


def main(snakemake) -> None:
    configure_logging(snakemake)
    params = {name: AnalogyParams(**values) for name, values in snakemake.params.construction.items()}
    counts = {name: read_counts(path) for name, path in zip(params, snakemake.input.counts)}
    summary, relations = summarise(counts, params)
    for row in summary.to_dict("records"):
        log.info(
            "%s: %s of %s relations kept, %s analogies per setting, Amb mean %.2f; kept: %s",
            row["terminology"], row["relations_kept"], row["relations_considered"], row["analogies"],
            row["amb_mean"], row["kept"] or "none",
        )  # fmt: skip
    write_text(tsv(summary), snakemake.output.summary)
    write_text(tsv(relations), snakemake.output.relations)


if __name__ == "__main__":
    main(snakemake)  # noqa: F821 - injected by Snakemake
