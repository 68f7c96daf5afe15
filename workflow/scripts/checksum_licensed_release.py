"""Hash the files of a licensed terminology release (UMLS RRF, SNOMED CT RF2) for release cards.

Writes ``file, bytes, sha256`` (paths relative to the release folder). Licensed files are never
copied or published; their checksums identify exactly which release the datasets derive from.
"""

import logging

from biosem.io import write_text
from biosem.logs import configure_logging
from biosem.release.build import checksum_table

log = logging.getLogger(__name__)


def main(snakemake) -> None:
    configure_logging(snakemake)
    table = checksum_table(list(snakemake.input), snakemake.params.root)
    log.info(
        "%s: %d files, %d bytes hashed",
        snakemake.wildcards.terminology,
        len(table),
        int(table["bytes"].sum()),
    )
    write_text(table.to_csv(sep="\t", index=False, lineterminator="\n"), snakemake.output[0])


if __name__ == "__main__":
    main(snakemake)  # noqa: F821 - injected by Snakemake
