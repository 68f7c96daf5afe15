"""Sample the negatives of one term-pair dataset and write it as Parquet and as the reference TSV."""

import json
import logging

from biosem.io import read_table, write_table, write_text
from biosem.logs import configure_logging
from biosem.seeds import generator
from biosem.termpairs.exclusion import EXCLUSION_REASONS
from biosem.termpairs.negatives import build_dataset, to_reference_tsv
from biosem.termpairs.schemas import TERMPAIR_DATASET
from biosem.termpairs.summary import empty_note

log = logging.getLogger(__name__)


def main(snakemake) -> None:
    configure_logging(snakemake)
    w = snakemake.wildcards
    positives = read_table(snakemake.input.positives)
    components = read_table(snakemake.input.components)
    neighbours = read_table(snakemake.input.neighbours) if hasattr(snakemake.input, "neighbours") else None
    rng = generator(snakemake.params.seed, "termpairs", w.terminology, w.kind, w.difficulty, w.strategy)
    dataset, stats = build_dataset(
        positives,
        components,
        w.kind,
        w.difficulty,
        w.strategy,
        rng,
        workers=snakemake.threads,
        random_rounds=snakemake.params.random_rounds,
        neighbours=neighbours,
    )
    for key, value in stats.items():
        log.info("%s %s_%s_%s: %s = %s", w.terminology, w.kind, w.difficulty, w.strategy, key, value)
    for rule, reason in EXCLUSION_REASONS.items():
        nearer = stats.get(f"excluded_{rule}_nearer")
        log.info(
            "%s %s_%s_%s: %d candidate negatives removed as %s%s",
            w.terminology,
            w.kind,
            w.difficulty,
            w.strategy,
            stats[f"excluded_{rule}"],
            reason,
            "" if nearer is None else f" ({nearer} of them as near as the first term's farthest negative)",
        )
    if dataset.empty:
        of_kind = positives.loc[positives["kind"] == w.kind, "difficulty"].value_counts().to_dict()
        note = empty_note(w.kind, w.difficulty, of_kind)
        log.info("%s %s_%s_%s: empty dataset written: %s", w.terminology, w.kind, w.difficulty, w.strategy, note)
    write_table(dataset, snakemake.output.parquet, TERMPAIR_DATASET)
    write_text(to_reference_tsv(dataset), snakemake.output.tsv)
    write_text(json.dumps(stats, indent=1, sort_keys=True) + "\n", snakemake.output.stats)


if __name__ == "__main__":
    main(snakemake)  # noqa: F821 - injected by Snakemake
