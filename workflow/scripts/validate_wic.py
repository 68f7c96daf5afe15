"""Validate the workflow's BioWiC splits with the same checks as ``python -m biosem.wic.validate``.

Writes the report; fails (so that the report is kept in the log only) if there is any violation.
"""

import logging
from pathlib import Path

from biosem.io import write_text
from biosem.logs import configure_logging
from biosem.wic.validate import load_left_out, load_quotas, load_splits, report, validate_splits

log = logging.getLogger(__name__)


def main(snakemake) -> None:
    configure_logging(snakemake)
    splits = load_splits(Path(snakemake.input.test).parent)
    quotas = load_quotas(snakemake.input.quotas)
    left_out = load_left_out(snakemake.input.quotas)
    violations = validate_splits(splits, quotas, snakemake.params.train_sentence_cap, left_out)
    text = report(violations, splits, left_out)
    for line in text.splitlines():
        log.info("%s", line)
    if violations:
        raise SystemExit(f"{len(violations)} BioWiC rule violation(s); see {snakemake.log[0]}")
    write_text(text, snakemake.output.report)


if __name__ == "__main__":
    main(snakemake)  # noqa: F821 - injected by Snakemake
