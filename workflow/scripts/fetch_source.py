"""Copy a public source from a mirror folder, or download it, and verify its pinned sha256."""

import logging

from biosem.logs import configure_logging
from biosem.sources import fetch_source

log = logging.getLogger(__name__)


def main(snakemake) -> None:
    configure_logging(snakemake)
    origin = fetch_source(
        snakemake.wildcards.source,
        snakemake.params.spec,
        snakemake.params.mirror_dirs,
        snakemake.output[0],
    )
    log.info(origin)


if __name__ == "__main__":
    main(snakemake)  # noqa: F821 - injected by Snakemake
