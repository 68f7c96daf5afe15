"""Build the BMASS analogy datasets of one terminology: Single-Answer, Multi-Answer, All-Info.

Reads the ``relations`` and ``concepts`` intermediates and the ``term_counts``; writes each setting and its
unigram subset as reference text and Parquet, and the per-relation counts table. Rules:
:mod:`biosem.analogies.construct` (docs/design.md § analogies).
"""

import logging

from biosem.analogies.construct import DATASETS, STATUS_KEPT, AnalogyParams, build_analogies
from biosem.analogies.formats import write_analogies
from biosem.analogies.schemas import ANALOGIES
from biosem.analogies.summary import describe
from biosem.io import read_arrow, read_table, write_table, write_text
from biosem.logs import configure_logging

log = logging.getLogger(__name__)


def main(snakemake) -> None:
    configure_logging(snakemake)
    name = snakemake.wildcards.terminology
    params = AnalogyParams(**snakemake.params.construction)
    log.info("%s: %s", name, params)
    relations = read_arrow(snakemake.input.relations, columns=["subject_id", "rel", "rela", "object_id"])
    datasets, counts = build_analogies(
        relations,
        read_table(snakemake.input.term_counts),
        params,
        name,
        concepts=read_table(snakemake.input.concepts, columns=["concept_id", "active", "module"]),
    )
    for line in describe(counts, params, name):
        log.info("%s", line)
    kept = counts[counts["status"] == STATUS_KEPT]
    if kept.empty:
        log.warning(
            "%s: no relation survives (min_frequency %d, min_one_to_one %d, pairs_per_relation %d): "
            "the analogy files are empty and counts.tsv says why per relation",
            name, params.min_frequency, params.min_one_to_one, params.pairs_per_relation,
        )  # fmt: skip
    for dataset in DATASETS:
        frame = datasets[dataset]
        write_analogies(frame, snakemake.output[f"{dataset}_txt"])
        write_table(frame, snakemake.output[f"{dataset}_parquet"], ANALOGIES)
        log.info("%s: %s: %d analogies", name, dataset, len(frame))
    write_text(
        counts.to_csv(sep="\t", index=False, na_rep="", float_format="%.3f", lineterminator="\n"),
        snakemake.output.counts,
    )


if __name__ == "__main__":
    main(snakemake)  # noqa: F821 - injected by Snakemake
