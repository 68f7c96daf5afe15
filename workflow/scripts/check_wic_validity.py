"""Validity checks of the WiC splits (label balance, string baselines, surface variants among the
negatives, trivial share, duplicates, leakage between splits) -> ``validity.tsv``.

Reads the three split Parquet files and, when given, ``quotas.json`` (the groups ``quota_policy:
balanced`` left out of a split); writes the checks with :func:`biosem.validity.write_validity`.
Checks: :mod:`biosem.wic.validity`; docs/design.md § Validity.
"""

import logging

from biosem.io import read_table
from biosem.logs import configure_logging
from biosem.validity import FLAG, write_validity
from biosem.wic.validate import load_left_out
from biosem.wic.validity import wic_validity

log = logging.getLogger(__name__)


def main(snakemake) -> None:
    configure_logging(snakemake)
    splits = {name: read_table(getattr(snakemake.input, name)) for name in ("train", "dev", "test")}
    for name, frame in splits.items():
        log.info("%s: %d items", name, len(frame))
    left_out = load_left_out(snakemake.input.quotas) if hasattr(snakemake.input, "quotas") else {}
    table = write_validity(wic_validity(splits, left_out), snakemake.output.validity)
    flagged = table[table["status"] == FLAG]
    log.info("%d checks, %d flagged", len(table), len(flagged))
    for row in flagged.itertuples(index=False):
        log.info(
            "flag: %s %s %s = %s (%s) %s", row.dataset, row.stratum, row.check, row.value, row.threshold, row.detail
        )


if __name__ == "__main__":
    main(snakemake)  # noqa: F821 - injected by Snakemake
