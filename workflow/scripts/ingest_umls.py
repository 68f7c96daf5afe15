"""Ingest a UMLS Metathesaurus (RRF: MRCONSO, MRREL, MRSTY, MRSAB) into the terminology intermediates."""

from pathlib import Path

from biosem.logs import configure_logging
from biosem.terminology.rrf import read_rrf
from biosem.terminology.write import write_terminology


def main(snakemake) -> None:
    configure_logging(snakemake)
    spec = snakemake.params.spec
    tables = read_rrf(
        Path(spec["path"]),
        snakemake.wildcards.terminology,
        languages=spec["languages"],
        sabs=spec["sabs"],
        trailing_nullcols=spec.get("trailing_nullcols", False),
    )
    write_terminology(tables, dict(snakemake.output.items()), snakemake.wildcards.terminology)


if __name__ == "__main__":
    main(snakemake)  # noqa: F821 - injected by Snakemake
