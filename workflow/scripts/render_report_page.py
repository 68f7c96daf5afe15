"""Render one table or text file of the report to a self-contained HTML page."""

import logging

from biosem.io import write_text
from biosem.logs import configure_logging
from biosem.report.tables import MAX_ROWS, render_page

log = logging.getLogger(__name__)


def main(snakemake) -> None:
    configure_logging(snakemake)
    every_row = snakemake.params.all_rows  # a long page: no embedded copy of the file (biosem.report.tables)
    page = render_page(snakemake.input.table, max_rows=None if every_row else MAX_ROWS, embed=not every_row)
    write_text(page, snakemake.output.page)
    log.info("%s: page of %d bytes written to %s", snakemake.input.table, len(page), snakemake.output.page)


if __name__ == "__main__":
    main(snakemake)  # noqa: F821 - injected by Snakemake
