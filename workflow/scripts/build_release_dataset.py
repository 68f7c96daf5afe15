"""Build one released dataset folder: Parquet shards, card, Croissant (validated), SHA256SUMS.

Inputs: the dataset's Parquet files, the checksum tables of licensed releases, local source files and the
family's ``validity.tsv`` files (their checks join the card's known limitations; the dataset's entry names
them). Parameters: the dataset's registry entry (``biosem.release.registry``), the ``release`` config
section and the run's provenance. Licensed release folders come as checksum tables, local source
files are hashed here.
"""

import logging
from pathlib import Path

from biosem.logs import configure_logging
from biosem.release.build import build_dataset, read_checksum_table
from biosem.release.checksums import sha256_file
from biosem.release.provenance import Provenance
from biosem.release.registry import ReleaseDataset

log = logging.getLogger(__name__)


def main(snakemake) -> None:
    configure_logging(snakemake)
    dataset = ReleaseDataset.from_params(snakemake.params.dataset)
    status = dataset.licence_status(snakemake.params.release)
    provenance = Provenance.from_params(snakemake.params.provenance)
    checksums = {Path(p).stem: read_checksum_table(p) for p in snakemake.input.licensed}
    for path in snakemake.input.local:
        checksums[path] = [(Path(path).name, Path(path).stat().st_size, sha256_file(path))]
    log.info(
        "%s (%s): %s; sources %s",
        dataset.id,
        provenance.visibility,
        "restricted: " + "; ".join(status.reasons) if status.restricted else "open",
        ", ".join(s.name for s in dataset.sources),
    )
    built = build_dataset(dataset, Path(snakemake.output.card).parent, status, provenance, checksums)
    log.info("composition:\n%s", built.composition.to_string(index=False))


if __name__ == "__main__":
    main(snakemake)  # noqa: F821 - injected by Snakemake
