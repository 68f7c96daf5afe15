"""Build one released dataset folder: Parquet shards, card, Croissant (validated), SHA256SUMS.

Inputs: the dataset's Parquet files, the checksum tables of licensed releases, local source files, the
family's ``validity.tsv`` files (their checks join the card's known limitations; the dataset's entry names
them) and the notices of the corpora whose articles carry their own (CRAFT: each article a row takes a
sentence from is listed in the card and ``croissant.json`` with its notice and URL). Parameters: the
dataset's registry entry (``biosem.release.registry``), the ``release`` config section and the run's
provenance. Licensed release folders come as checksum tables, local source
files are hashed here.
"""

import logging
from pathlib import Path

import pandas as pd

from biosem.io import read_table
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
    notices = (
        pd.concat([read_table(p) for p in snakemake.input.notices], ignore_index=True) if dataset.notices else None
    )
    built = build_dataset(dataset, Path(snakemake.output.card).parent, status, provenance, checksums, notices)
    log.info("composition:\n%s", built.composition.to_string(index=False))
    if built.articles is not None:
        log.info(
            "article notices: %d articles (%s) of %s",
            len(built.articles),
            built.articles["notice_class"].value_counts().to_dict(),
            ", ".join(dataset.notices),
        )


if __name__ == "__main__":
    main(snakemake)  # noqa: F821 - injected by Snakemake
