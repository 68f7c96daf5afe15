"""Ingest the CRAFT corpus (Knowtator XML in its release tarball) into the corpus intermediates.

Reads the tarball (input ``archive``) without unpacking it, writes the documents / sentences / mentions
Parquet tables of ``biosem.corpora.schemas``, the per-article open-access notices (``notices``), the
counts per split and the counts per split and module. Rules: ``biosem.corpora.craft`` docstring;
config ``corpora.specs.<name>`` (``annotation_set``, ``modules``) and ``corpora.sentences``.
"""

import logging

from biosem.corpora.craft import class_counts, ingest_craft, log_counts
from biosem.corpora.schemas import DOCUMENTS, MENTIONS, NOTICES, SENTENCES
from biosem.corpora.sentences import Segmenter
from biosem.io import write_table, write_text
from biosem.logs import configure_logging
from biosem.sources import verify_fetched

log = logging.getLogger(__name__)


def main(snakemake) -> None:
    configure_logging(snakemake)
    corpus = snakemake.wildcards.corpus
    spec = snakemake.params.spec
    options = snakemake.params.sentences
    verify_fetched(snakemake.input.checksums)
    log.info(
        "%s: CRAFT tarball %s; annotation set %s; modules %s",
        corpus,
        snakemake.input.archive,
        spec["annotation_set"],
        ", ".join(spec["modules"]),
    )
    segmenter = Segmenter(
        language=options["language"],
        mask_mention_periods=options["mask_mention_periods"],
        split_title=options["split_title"],
        split_lines=True,
    )
    tables = ingest_craft(
        corpus,
        snakemake.input.archive,
        segmenter,
        annotation_set=spec["annotation_set"],
        modules=spec["modules"],
        processes=snakemake.threads,
    )
    log_counts(tables, log)
    prefixes = class_counts(tables.mentions)
    log.info("%s: mentions per class prefix: %s", corpus, ", ".join(f"{p} {n}" for p, n in sorted(prefixes.items())))
    for table, spec_, path in (
        (tables.documents, DOCUMENTS, snakemake.output.documents),
        (tables.sentences, SENTENCES, snakemake.output.sentences),
        (tables.mentions, MENTIONS, snakemake.output.mentions),
        (tables.notices, NOTICES, snakemake.output.notices),
    ):
        n = write_table(table, path, spec_)
        log.info("%s: wrote %d %s rows to %s", corpus, n, spec_.name, path)
    for frame, path in (
        (tables.counts, snakemake.output.counts),
        (tables.module_counts, snakemake.output.module_counts),
    ):
        write_text(frame.to_csv(sep="\t", index=False, lineterminator="\n"), path)


if __name__ == "__main__":
    main(snakemake)  # noqa: F821 - injected by Snakemake
