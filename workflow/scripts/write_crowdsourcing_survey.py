"""Write the rating survey of one pair set as a crowdsourcing batch: the batch CSV (one row per HIT =
survey page) and the HTML task template with ${column} placeholders (MTurk / Prolific-style tools;
biosem.agreement.interchange). Cells that a spreadsheet would read as a formula are neutralised
(biosem.agreement.sheets.sheet_csv), and the results reader undoes it."""

import logging

from biosem.agreement.interchange import survey_hits, survey_task_template
from biosem.agreement.sheets import sheet_csv
from biosem.io import read_table, write_text
from biosem.logs import configure_logging

log = logging.getLogger(__name__)


def main(snakemake) -> None:
    configure_logging(snakemake)
    items = read_table(snakemake.input.survey)
    hits = survey_hits(items)
    slots = int(hits["n_items"].astype(int).max())
    template = survey_task_template(
        snakemake.wildcards.dataset,
        slots,
        open(snakemake.input.instructions, encoding="utf-8").read(),
        (snakemake.params.scale_min, snakemake.params.scale_max),
        snakemake.params.dont_know,
    )
    log.info(
        "%s: %d items in %d HITs (one per group and page), %d item slots per HIT; don't know offered: %s",
        snakemake.wildcards.dataset,
        len(items),
        len(hits),
        slots,
        snakemake.params.dont_know,
    )
    write_text(sheet_csv(hits), snakemake.output.batch)
    write_text(template, snakemake.output.template)


if __name__ == "__main__":
    main(snakemake)  # noqa: F821 - injected by Snakemake
