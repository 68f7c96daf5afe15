"""Write a study's Label Studio project files: the labelling config (XML) and one task file per
blinded sheet (biosem.agreement.interchange)."""

import logging

import pandas as pd

from biosem.agreement.interchange import labelstudio_config, labelstudio_tasks, tasks_json
from biosem.io import write_text
from biosem.logs import configure_logging

log = logging.getLogger(__name__)


def main(snakemake) -> None:
    configure_logging(snakemake)
    kind = snakemake.params.kind
    write_text(labelstudio_config(kind), snakemake.output.config)
    pairs = [("sheet", "tasks")] if kind == "termpairs" else [("sheet_a", "tasks_a"), ("sheet_b", "tasks_b")]
    for sheet_name, tasks_name in pairs:
        sheet = pd.read_csv(snakemake.input[sheet_name], dtype=str, keep_default_na=False)
        tasks = labelstudio_tasks(sheet, kind)
        log.info("%s %s: %d Label Studio tasks", kind, sheet_name, len(tasks))
        write_text(tasks_json(tasks), snakemake.output[tasks_name])


if __name__ == "__main__":
    main(snakemake)  # noqa: F821 - injected by Snakemake
