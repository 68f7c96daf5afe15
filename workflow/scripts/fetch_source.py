"""Copy a public source from a mirror folder, or download it, verify its pinned sha256 and write that
digest to the sidecar the rules reading the source re-check it against."""

import logging

from biosem.logs import configure_logging
from biosem.sources import fetch_source, write_checksum

log = logging.getLogger(__name__)


def main(snakemake) -> None:
    configure_logging(snakemake)
    origin = fetch_source(
        snakemake.wildcards.source,
        snakemake.params.spec,
        snakemake.params.mirror_dirs,
        snakemake.output.source,
    )
    write_checksum(snakemake.output.source, snakemake.params.spec["sha256"], snakemake.output.checksum)
    log.info(origin)


if __name__ == "__main__":
    main(snakemake)  # noqa: F821 - injected by Snakemake
