"""Write one self-contained HTML rating form per survey group (biosem.agreement.forms).

Reads the survey design and its instructions; each form shows the group's pages in the designed
order, a 0-6 slider per pair, and exports the long ratings format aggregate_ratings reads.
"""

import logging
from pathlib import Path

from biosem.agreement.forms import survey_form, survey_id
from biosem.io import read_table, write_text
from biosem.logs import configure_logging
from biosem.simlex.survey import params_from_config

log = logging.getLogger(__name__)


def main(snakemake) -> None:
    configure_logging(snakemake)
    params = params_from_config(snakemake.params.survey)
    items = read_table(snakemake.input.survey)
    text = Path(snakemake.input.instructions).read_text(encoding="utf-8")
    sid = survey_id(items)
    for group, path in enumerate(snakemake.output.forms, 1):
        rows = items[items["group"] == group]
        html = survey_form(
            items,
            group,
            text,
            (params.scale_min, params.scale_max),
            params.dont_know,
            params.identical_run_warning,
        )
        write_text(html, path)
        log.info(
            "%s group %d: %d items on %d pages (%d consistency, %d duplicates), %d bytes",
            sid,
            group,
            len(rows),
            rows["page"].nunique(),
            int((rows["role"] == "consistency").sum()),
            int((rows["role"] == "duplicate").sum()),
            len(html.encode("utf-8")),
        )


if __name__ == "__main__":
    main(snakemake)  # noqa: F821 - injected by Snakemake
