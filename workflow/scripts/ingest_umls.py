"""Ingest a UMLS Metathesaurus (RRF: MRCONSO, MRREL, MRSTY, MRSAB) into the terminology intermediates.

Streams with :func:`biosem.terminology.rrf.write_rrf` (no table held whole: a full release stays
under the rule's 4 GB); the files are byte-identical to ``write_terminology(read_rrf(...))``.
"""

from pathlib import Path

from biosem.logs import configure_logging
from biosem.terminology.rrf import write_rrf


def main(snakemake) -> None:
    configure_logging(snakemake)
    spec = snakemake.params.spec
    write_rrf(
        Path(spec["path"]),
        snakemake.wildcards.terminology,
        dict(snakemake.output.items()),
        languages=spec["languages"],
        sabs=spec["sabs"],
        trailing_nullcols=spec.get("trailing_nullcols", False),
    )


if __name__ == "__main__":
    main(snakemake)  # noqa: F821 - injected by Snakemake
