"""Write the blinded term-pair quality-check sheet (CSV + XLSX + HTML form), its private key and composition.

n_pos positives + n_neg negatives per dataset of one terminology (Schulz & Juric 2020: 30 + 30 over
20 datasets -> 1,200 pairs), shuffled; datasets with fewer pairs give all they have (counted).
"""

import logging
from pathlib import Path

from biosem.agreement.forms import study_form
from biosem.agreement.sheets import sheet_csv
from biosem.agreement.studies import TERMPAIR_INSTRUCTIONS, termpair_study, write_xlsx
from biosem.io import read_table, write_text
from biosem.logs import configure_logging
from biosem.seeds import generator

log = logging.getLogger(__name__)


def main(snakemake) -> None:
    configure_logging(snakemake)
    terminology = snakemake.wildcards.terminology
    seed = snakemake.params.seed
    by_name = {Path(p).name.removesuffix(".parquet"): p for p in snakemake.input.datasets}
    datasets = {name: read_table(by_name[name]) for name in snakemake.params.datasets}
    rngs = {name: generator(seed, "write_termpair_study", terminology, name) for name in datasets}
    sheet, key, composition = termpair_study(
        datasets,
        snakemake.params.n_pos,
        snakemake.params.n_neg,
        rngs,
        generator(seed, "write_termpair_study", terminology, "shuffle"),
    )
    log.info("%s composition:\n%s", terminology, composition.to_string(index=False))
    short = composition[composition["short"]]
    log.info(
        "%d items (%d positives, %d negatives); %d of %d datasets short of %d + %d (all their pairs taken)",
        len(key),
        int((key["label"] == 1).sum()),
        int((key["label"] == 0).sum()),
        len(short),
        len(composition),
        snakemake.params.n_pos,
        snakemake.params.n_neg,
    )
    repeated = int(key.duplicated(["term1", "term2"], keep=False).sum())
    log.info("%d items show a pair that is also another item (drawn for two datasets)", repeated)
    write_text(sheet_csv(sheet), snakemake.output.sheet)
    write_xlsx(sheet, snakemake.output.xlsx, TERMPAIR_INSTRUCTIONS)
    write_text(sheet_csv(key), snakemake.output.key)
    write_text(study_form(sheet, "termpairs", "sheet"), snakemake.output.form)
    log.info("form: %d items in %s", len(sheet), snakemake.output.form)
    write_text(composition.to_csv(sep="\t", index=False, lineterminator="\n"), snakemake.output.composition)


if __name__ == "__main__":
    main(snakemake)  # noqa: F821 - injected by Snakemake
