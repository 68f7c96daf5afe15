"""Score the filled term-pair sheets: majority vote, NaN rate, Krippendorff's alpha, accuracy /
recall / precision of the automatic labels per dataset (Schulz & Juric 2020, Table 3).

The key is first checked against the sheet written with it (an edited key is named as such).
"""

import logging

from biosem.agreement.studies import check_key, majority_vote, read_filled_sheets, read_key, score_termpair_study
from biosem.io import write_text
from biosem.logs import configure_logging

log = logging.getLogger(__name__)


def main(snakemake) -> None:
    configure_logging(snakemake)
    key = read_key(snakemake.input.key)
    sheets = check_key(key, snakemake.input.key, {"sheet": snakemake.input.distributed}, "write_termpair_study")
    raters = snakemake.params.raters
    answers, _ = read_filled_sheets(
        dict(zip(raters, snakemake.input.sheets)),
        key,
        sheets,
        ["term1", "term2"],
        snakemake.params.formats,
        "termpairs",
    )
    dont_know = snakemake.params.dont_know
    scores = score_termpair_study(answers, key, dont_know, snakemake.params.datasets)
    log.info(
        "%d raters, %d items; dont_know=%s\n%s",
        len(raters),
        len(key),
        dont_know,
        scores.to_string(index=False),
    )
    votes = answers.reset_index().merge(key[["item", "dataset", "label"]], on="item")
    votes["majority"] = majority_vote(answers, dont_know).to_numpy()
    write_text(
        scores.to_csv(sep="\t", index=False, lineterminator="\n", float_format="%.4f"),
        snakemake.output.scores,
    )
    write_text(votes.to_csv(index=False, lineterminator="\n"), snakemake.output.votes)


if __name__ == "__main__":
    main(snakemake)  # noqa: F821 - injected by Snakemake
