"""Ingest an OBO ontology (HPO, GO, ...) into the terminology intermediates."""

from biosem.logs import configure_logging
from biosem.sources import verify_fetched
from biosem.terminology.obo import read_obo
from biosem.terminology.write import write_terminology


def main(snakemake) -> None:
    configure_logging(snakemake)
    verify_fetched(snakemake.input.checksums)
    tables = read_obo(snakemake.input.obo, snakemake.wildcards.terminology)
    write_terminology(tables, dict(snakemake.output.items()), snakemake.wildcards.terminology)


if __name__ == "__main__":
    main(snakemake)  # noqa: F821 - injected by Snakemake
