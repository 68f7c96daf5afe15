"""Ingest an OBO ontology (HPO, GO, UBERON, ...) into the terminology intermediates (only the terms of
``terminologies.<name>.id_prefixes`` when it is set; "_" as spaces with ``underscores_as_spaces``; without
the synonyms of the ``exclude_synonym_types``).

Duplicate term ids, a file without terms, a term without a name and is_a / part_of cycles stop the rule
(cycles are accepted, and logged, with terminologies.<name>.allow_cycles: true).
"""

from biosem.logs import configure_logging
from biosem.sources import verify_fetched
from biosem.terminology.obo import read_obo
from biosem.terminology.write import write_terminology


def main(snakemake) -> None:
    configure_logging(snakemake)
    verify_fetched(snakemake.input.checksums)
    spec = snakemake.params.spec
    tables = read_obo(
        snakemake.input.obo,
        snakemake.wildcards.terminology,
        id_prefixes=spec["id_prefixes"],
        underscores_as_spaces=spec["underscores_as_spaces"],
        exclude_synonym_types=spec["exclude_synonym_types"],
        allow_cycles=spec["allow_cycles"],
    )
    write_terminology(tables, dict(snakemake.output.items()), snakemake.wildcards.terminology)


if __name__ == "__main__":
    main(snakemake)  # noqa: F821 - injected by Snakemake
