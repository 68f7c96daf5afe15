"""Write the two overlapping wic expert-check sheets (CSV + XLSX + HTML forms), their private key and counts.

Two samples of the test split (BioWiC: 100 each, 50 shared), scaled down when the split is smaller.
"""

import logging

import pandas as pd

from biosem.agreement.forms import study_form
from biosem.agreement.sheets import sheet_csv
from biosem.agreement.studies import WIC_INSTRUCTIONS, read_wic_split, wic_study, write_xlsx
from biosem.io import write_text
from biosem.logs import configure_logging
from biosem.seeds import generator

log = logging.getLogger(__name__)


def main(snakemake) -> None:
    configure_logging(snakemake)
    test = read_wic_split(snakemake.input.test)
    rng = generator(snakemake.params.seed, "write_wic_study")
    sheets, key, counts = wic_study(test, snakemake.params.per_rater, snakemake.params.shared, rng)
    if counts["scaled"]:
        log.warning(
            "test split has %d items, fewer than 2 x %d - %d: scaled to %d per sheet, %d shared",
            counts["test_items"],
            snakemake.params.per_rater,
            snakemake.params.shared,
            counts["per_rater"],
            counts["shared"],
        )
    log.info(
        "counts: %s; labels in the sample: %s",
        counts,
        key["label"].value_counts().sort_index().to_dict(),
    )
    write_text(sheet_csv(sheets["a"]), snakemake.output.sheet_a)
    write_xlsx(sheets["a"], snakemake.output.xlsx_a, WIC_INSTRUCTIONS)
    write_text(sheet_csv(sheets["b"]), snakemake.output.sheet_b)
    write_xlsx(sheets["b"], snakemake.output.xlsx_b, WIC_INSTRUCTIONS)
    for name, path in (("a", snakemake.output.form_a), ("b", snakemake.output.form_b)):
        write_text(study_form(sheets[name], "wic", f"sheet_{name}"), path)
        log.info("form of sheet %s: %d items in %s", name, len(sheets[name]), path)
    write_text(sheet_csv(key), snakemake.output.key)
    table = pd.DataFrame([counts])[["test_items", "per_rater", "shared", "items", "scaled"]]
    write_text(table.to_csv(sep="\t", index=False, lineterminator="\n"), snakemake.output.composition)


if __name__ == "__main__":
    main(snakemake)  # noqa: F821 - injected by Snakemake
