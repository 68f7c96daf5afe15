"""The release gate, the last step of `release_public` / `release_private`: the checks of
`biosem check-release` (biosem.release.check: SHA256SUMS, hidden, unlisted and linked files, empty
folders, cards' licence metadata against the sources' provenance, Croissant, and in a public release
the content scan for UMLS CUIs and SNOMED CT ids) on the folder the run built. A failure removes the
release folder and stops the run, naming each dataset and file.
"""

import logging
import shutil
from pathlib import Path

from biosem.logs import configure_logging
from biosem.release.check import ReleaseCheckError, check

log = logging.getLogger(__name__)


def main(snakemake) -> None:
    configure_logging(snakemake)
    folder = Path(snakemake.input[0]).parent  # the release's SHA256SUMS: its folder
    problems, verdicts = check(folder, expect=snakemake.params.visibility)
    if problems:
        for problem in problems:
            log.error("%s: %s", folder, problem)
        shutil.rmtree(folder, ignore_errors=True)
        if folder.parent.is_dir() and not any(folder.parent.iterdir()):
            folder.parent.rmdir()  # results/release/<version>/ held this release only
        raise ReleaseCheckError(folder, problems, removed=not folder.exists())
    log.info("%s: OK (%s)", folder, "; ".join(verdicts))


if __name__ == "__main__":
    main(snakemake)  # noqa: F821 - injected by Snakemake
