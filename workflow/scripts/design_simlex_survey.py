"""Lay out the rating survey of one pair set: sheets per group, design table, instructions (docs/design.md § simlex).

The sheets' cells are neutralised against formula injection (biosem.agreement.sheets.sheet_csv).
"""

import logging

from biosem.agreement.sheets import sheet_csv
from biosem.io import read_table, write_table, write_text
from biosem.logs import configure_logging
from biosem.seeds import generator
from biosem.simlex.schemas import SURVEY_ITEMS
from biosem.simlex.survey import design_survey, design_table, instructions, params_from_config

log = logging.getLogger(__name__)

SHEET_COLUMNS = ["page", "position", "item_id", "pair_id", "role", "word1", "word2"]


def main(snakemake) -> None:
    configure_logging(snakemake)
    dataset = snakemake.wildcards.dataset
    params = params_from_config(snakemake.params.survey)
    pairs = read_table(snakemake.input.pairs)
    items = design_survey(pairs, dataset, params, generator(snakemake.params.seed, "simlex_survey", dataset))
    design = design_table(items)
    for row in design.itertuples(index=False):
        log.info(
            "%s group %d page %d: %d unique, %d consistency, %d duplicates (%d items)",
            dataset,
            row.group,
            row.page,
            row.unique,
            row.consistency,
            row.duplicate,
            row.items,
        )
    write_table(items, snakemake.output.survey, SURVEY_ITEMS)
    for group, path in enumerate(snakemake.output.sheets, 1):
        sheet = items.loc[items["group"] == group, SHEET_COLUMNS]
        write_text(sheet_csv(sheet), path)
    write_text(design.to_csv(sep="\t", index=False, lineterminator="\n"), snakemake.output.design)
    write_text(instructions(dataset, params, int(design["items"].max())), snakemake.output.instructions)


if __name__ == "__main__":
    main(snakemake)  # noqa: F821 - injected by Snakemake
