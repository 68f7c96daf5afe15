"""Check the 20 term-pair datasets of one terminology and write their ``validity.tsv``.

Reads the datasets' Parquet files, the terminology's ``terms`` (association synonym shares, negatives
recorded as synonyms) and ``concepts`` (MeSH descriptors); writes the rows of
:func:`biosem.termpairs.validity.termpair_validity`. Checks: docs/design.md § Validity; issue 37.
"""

import logging
from pathlib import Path

from biosem.io import read_table
from biosem.logs import configure_logging
from biosem.termpairs.exclusion import concept_groups
from biosem.termpairs.params import exclusion_from_config
from biosem.termpairs.validity import termpair_validity
from biosem.validity import FLAG, write_validity

log = logging.getLogger(__name__)


def main(snakemake) -> None:
    configure_logging(snakemake)
    terminology = snakemake.wildcards.terminology
    datasets = {Path(path).stem: read_table(path) for path in sorted(snakemake.input.datasets)}
    terms = read_table(snakemake.input.terms, columns=["concept_id", "term", "scope"])
    concepts = read_table(snakemake.input.concepts)
    exclusion = exclusion_from_config(snakemake.params.exclusion)
    # Descriptor siblings are measured wherever the format has descriptors, excluded or not.
    descriptors = concept_groups(concepts, "descriptor", snakemake.params.exclusion["format"])
    checks = termpair_validity(datasets, terms, descriptors, exclusion)
    table = write_validity(checks, snakemake.output.validity)
    flagged = table[table["status"] == FLAG]
    log.info(
        "%s: %d datasets, %d checks, %d flagged (%s)",
        terminology,
        len(datasets),
        len(table),
        len(flagged),
        ", ".join(f"{name}: {n}" for name, n in flagged["check"].value_counts().sort_index().items()) or "none",
    )
    for row in flagged.itertuples():
        where = f"{row.dataset} {row.check}" + (f" [{row.stratum}]" if row.stratum else "")
        log.info("%s: flag %s = %s (%s) %s", terminology, where, row.value, row.threshold, row.detail)


if __name__ == "__main__":
    main(snakemake)  # noqa: F821 - injected by Snakemake
