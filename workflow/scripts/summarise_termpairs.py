"""Collect the per-dataset statistics of one terminology into the Table 2-shaped counts table."""

import json
import logging
from pathlib import Path

from biosem.io import write_text
from biosem.logs import configure_logging
from biosem.termpairs.summary import summarise

log = logging.getLogger(__name__)


def main(snakemake) -> None:
    configure_logging(snakemake)
    stats = [json.loads(Path(path).read_text(encoding="utf-8")) for path in sorted(snakemake.input.stats)]
    table = summarise(stats)
    log.info("%s counts:\n%s", snakemake.wildcards.terminology, table.to_string(index=False))
    write_text(table.to_csv(sep="\t", index=False, lineterminator="\n"), snakemake.output.counts)


if __name__ == "__main__":
    main(snakemake)  # noqa: F821 - injected by Snakemake
