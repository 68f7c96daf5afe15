"""Check the simlex pair sets (Bio-SimLex nouns, Bio-SimVerb verbs) and write their ``validity.tsv``.

Reads one dataset's ``pairs.parquet`` (wildcard ``dataset``: ``nouns`` or ``verbs``), the published set
it is compared with when ``simlex.published`` names one (Bio-SimLex for nouns, Bio-SimVerb for verbs,
``word1<TAB>word2<TAB>score``; its checksum is verified first) and the ``word_counts`` intermediate
(corpus POS evidence); writes the rows of :func:`biosem.simlex.checks.simlex_validity`. Checks:
docs/design.md § Validity; issue 37.
"""

import logging

from biosem.evaluate.benchmarks import read_rated_pairs
from biosem.io import read_table
from biosem.logs import configure_logging
from biosem.simlex.checks import simlex_validity
from biosem.simlex.schemas import POS_OF_DATASET
from biosem.simlex.variants import VariantParams
from biosem.simlex.vocabulary import configure_nltk_data
from biosem.sources import verify_fetched
from biosem.validity import FLAG, write_validity

log = logging.getLogger(__name__)


def main(snakemake) -> None:
    configure_logging(snakemake)
    log.info("NLTK data from %s", configure_nltk_data(snakemake.params.nltk_data))
    dataset = snakemake.wildcards.dataset
    pairs = {dataset: read_table(snakemake.input.pairs, columns=["word1", "word2", "quarter"])}
    verify_fetched(snakemake.input.checksums)
    published = {dataset: read_rated_pairs(path, "three_column") for path in snakemake.input.published}
    log.info(
        "%s (%s): %d pairs; published: %s",
        dataset,
        POS_OF_DATASET.get(dataset, "?"),
        len(pairs[dataset]),
        f"{len(published[dataset])} pairs" if published else "none configured",
    )
    word_counts = read_table(snakemake.input.word_counts, columns=["lemma", "pos", "pos_tokens", "evidence_tokens"])
    checks = simlex_validity(
        pairs,
        word_counts,
        published,
        strong_pos_share=snakemake.params.validity["min_tag_share"],
        variants=VariantParams.from_config(snakemake.params.validity["variants"]),
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
