"""Ingest a SNOMED CT RF2 release (Full or Snapshot) into the terminology intermediates."""

from pathlib import Path

from biosem.logs import configure_logging
from biosem.terminology.rf2 import read_rf2
from biosem.terminology.write import write_terminology


def main(snakemake) -> None:
    configure_logging(snakemake)
    spec = snakemake.params.spec
    tables = read_rf2(
        Path(spec["path"]),
        snakemake.wildcards.terminology,
        release_type=spec["release_type"],
        language_refsets=tuple(spec["language_refsets"]),
    )
    write_terminology(tables, dict(snakemake.output.items()), snakemake.wildcards.terminology)


if __name__ == "__main__":
    main(snakemake)  # noqa: F821 - injected by Snakemake
