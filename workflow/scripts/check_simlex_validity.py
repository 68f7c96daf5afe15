"""Check the simlex pair sets (Bio-SimLex nouns, Bio-SimVerb verbs) and write their ``validity.tsv``.

Reads each dataset's ``pairs.parquet`` (its name is the folder: ``nouns`` or ``verbs``), the published
set of the same POS (``published``, in the same order: Bio-SimLex for nouns, Bio-SimVerb for verbs,
``word1<TAB>word2<TAB>score``) and the ``word_counts`` intermediate (corpus POS evidence); writes the
rows of :func:`biosem.simlex.checks.simlex_validity`. One dataset per job (wildcard ``dataset``) or
both at once. Checks: docs/design.md § Validity; issue 37.
"""

import logging
from pathlib import Path

from biosem.evaluate.benchmarks import read_rated_pairs
from biosem.io import read_table
from biosem.logs import configure_logging
from biosem.simlex.checks import simlex_validity
from biosem.simlex.pairs import params_from_config
from biosem.simlex.schemas import POS_OF_DATASET
from biosem.simlex.vocabulary import configure_nltk_data
from biosem.validity import FLAG, write_validity

log = logging.getLogger(__name__)


def _paths(value) -> list[str]:
    return [value] if isinstance(value, str) else list(value)


def main(snakemake) -> None:
    configure_logging(snakemake)
    log.info("NLTK data from %s", configure_nltk_data(snakemake.params.nltk_data))
    pair_paths, published_paths = _paths(snakemake.input.pairs), _paths(snakemake.input.published)
    if len(pair_paths) != len(published_paths):
        raise ValueError(f"one published set per dataset: {len(pair_paths)} datasets, {len(published_paths)} sets")
    datasets = [Path(p).parent.name for p in pair_paths]
    pairs = {d: read_table(p, columns=["word1", "word2", "quarter"]) for d, p in zip(datasets, pair_paths, strict=True)}
    published = {d: read_rated_pairs(p, "three_column") for d, p in zip(datasets, published_paths, strict=True)}
    for dataset in datasets:
        log.info(
            "%s (%s): %d pairs; published %s: %d pairs",
            dataset, POS_OF_DATASET.get(dataset, "?"), len(pairs[dataset]), dataset, len(published[dataset]),
        )  # fmt: skip
    word_counts = read_table(snakemake.input.word_counts, columns=["lemma", "pos", "pos_tokens", "evidence_tokens"])
    checks = simlex_validity(
        pairs,
        word_counts,
        published,
        strong_pos_share=snakemake.params.vocabulary["min_tag_share"],
        variants=params_from_config(snakemake.params.pairs, "noun").variants(),
    )
    table = write_validity(checks, snakemake.output.validity)
    for row in table[table["stratum"] == ""].itertuples():
        log.info(
            "%s %s = %s (%s, %s) %s", row.dataset, row.check, row.value, row.threshold or "-", row.status, row.detail
        )
    flagged = table[table["status"] == FLAG]
    log.info(
        "%d checks, %d flagged (%s)",
        len(table),
        len(flagged),
        ", ".join(f"{d} {c}" for d, c in zip(flagged["dataset"], flagged["check"], strict=True)) or "none",
    )


if __name__ == "__main__":
    main(snakemake)  # noqa: F821 - injected by Snakemake
