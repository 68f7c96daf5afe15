"""Write a release's RELEASE.md, config.yaml and top-level SHA256SUMS (after its dataset folders).

RELEASE.md lists every dataset with its counts and licence, the datasets withheld from a public
release, the command and config, the biosem version and git commit, and key dependency versions. Its
report page (outside the release folder) is the Markdown rendered to HTML.
"""

import logging
from pathlib import Path

from biosem.io import write_text
from biosem.logs import configure_logging
from biosem.release.build import write_release
from biosem.release.provenance import Provenance, dependency_versions
from biosem.release.registry import ReleaseDataset
from biosem.report.tables import render_page

log = logging.getLogger(__name__)


def main(snakemake) -> None:
    configure_logging(snakemake)
    release = snakemake.params.release
    members = [ReleaseDataset.from_params(p) for p in snakemake.params.datasets]
    withheld = [ReleaseDataset.from_params(p) for p in snakemake.params.withheld]
    provenance = Provenance.from_params(snakemake.params.provenance)
    entries = write_release(
        Path(snakemake.output.manifest).parent,
        [(d, d.licence_status(release)) for d in members],
        [(d, d.licence_status(release)) for d in withheld],
        provenance,
        dependency_versions(),
        snakemake.params.config,
    )
    write_text(render_page(snakemake.output.manifest), snakemake.output.page)
    log.info(
        "release %s (%s): %d datasets (%s), %d withheld (%s), %d files in SHA256SUMS",
        provenance.release_version,
        provenance.visibility,
        len(members),
        ", ".join(d.id for d in members),
        len(withheld),
        ", ".join(d.id for d in withheld),
        len(entries),
    )


if __name__ == "__main__":
    main(snakemake)  # noqa: F821 - injected by Snakemake
