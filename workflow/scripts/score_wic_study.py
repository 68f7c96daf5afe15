"""Score the filled wic sheets: each rater's accuracy against the gold label and Cohen's kappa
between raters on the shared items (BioWiC § Technical validation).

The key is first checked against the two sheets written with it (an edited key is named as such).
"""

import logging

from biosem.agreement.studies import check_key, read_filled_sheets, read_key, score_wic_study
from biosem.io import write_text
from biosem.logs import configure_logging

log = logging.getLogger(__name__)


def main(snakemake) -> None:
    configure_logging(snakemake)
    key = read_key(snakemake.input.key)
    distributed = {"a": snakemake.input.distributed_a, "b": snakemake.input.distributed_b}
    sheets = check_key(key, snakemake.input.key, distributed, "write_wic_study")
    raters = snakemake.params.raters
    answers, which = read_filled_sheets(
        dict(zip(raters, snakemake.input.sheets)),
        key,
        sheets,
        ["term1", "term2"],
        snakemake.params.formats,
        "wic",
    )
    log.info("sheets filled: %s", which)
    scores = score_wic_study(answers, key, snakemake.params.dont_know)
    log.info("dont_know=%s\n%s", snakemake.params.dont_know, scores.to_string(index=False))
    out = answers.reset_index().merge(key[["item", "sample", "cat", "label"]], on="item")
    write_text(
        scores.to_csv(sep="\t", index=False, lineterminator="\n", float_format="%.4f"),
        snakemake.output.scores,
    )
    write_text(out.to_csv(index=False, lineterminator="\n"), snakemake.output.answers)


if __name__ == "__main__":
    main(snakemake)  # noqa: F821 - injected by Snakemake
