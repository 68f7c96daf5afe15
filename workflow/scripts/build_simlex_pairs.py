"""Select the pairs of Bio-SimLex (nouns) or Bio-SimVerb (verbs) in four quarters (docs/design.md § simlex).

Writes the pairs (Parquet and ``word1<TAB>word2<TAB>quarter``), the counts per quarter and the expert
review sheets of the two associated quarters. Parameters: config ``simlex.pairs``.
"""

import logging

import pandas as pd

from biosem.io import read_table, write_table, write_text
from biosem.logs import configure_logging
from biosem.seeds import generator
from biosem.simlex.pairs import build_pairs, params_from_config, read_accepted_pairs
from biosem.simlex.schemas import POS_OF_DATASET, SIMLEX_PAIRS

log = logging.getLogger(__name__)


def main(snakemake) -> None:
    configure_logging(snakemake)
    dataset = snakemake.wildcards.dataset
    pos = POS_OF_DATASET[dataset]
    params = params_from_config(snakemake.params.pairs, pos)
    if snakemake.input.accepted:
        accepted = read_accepted_pairs(snakemake.input.accepted[0])
        log.info("accepted-pairs file %s: %d decisions", snakemake.input.accepted[0], len(accepted))
    else:
        accepted = pd.DataFrame(columns=["pos", "quarter", "word1", "word2", "decision"])
    pairs, counts, review = build_pairs(
        pos,
        read_table(snakemake.input.domains),
        read_table(snakemake.input.relations),
        read_table(snakemake.input.usf),
        accepted,
        params,
        lambda quarter: generator(snakemake.params.seed, "simlex_pairs", pos, quarter),
    )
    write_table(pairs, snakemake.output.pairs, SIMLEX_PAIRS)
    write_text(
        pairs[["word1", "word2", "quarter"]].to_csv(sep="\t", header=False, index=False, lineterminator="\n"),
        snakemake.output.tsv,
    )
    write_text(counts.to_csv(sep="\t", index=False, lineterminator="\n"), snakemake.output.counts)
    write_text(
        review["associated_biomedical"].to_csv(index=False, lineterminator="\n", float_format="%.6g"),
        snakemake.output.review_biomedical,
    )
    write_text(
        review["associated_general"].to_csv(index=False, lineterminator="\n", float_format="%.6g"),
        snakemake.output.review_general,
    )
    log.info("%s: %d pairs (paper: 988 Bio-SimLex nouns, 1,000 Bio-SimVerb verbs)", dataset, len(pairs))


if __name__ == "__main__":
    main(snakemake)  # noqa: F821 - injected by Snakemake
