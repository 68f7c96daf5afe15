"""Ingest one PubTator corpus into the documents / sentences / mentions intermediates.

Inputs are either one PubTator file per split (``train``, ``dev``, ``test``) or one corpus file
(``corpus``) plus PMID lists (``train_pmids``, ...). Writes the three Parquet tables of
``biosem.corpora.schemas`` and a counts table per split. Rules: biosem.corpora.ingest docstring.
"""

import logging

from biosem.corpora.ingest import ingest_corpus, log_counts, write_corpus_tables
from biosem.corpora.schemas import SPLITS
from biosem.corpora.sentences import Segmenter
from biosem.logs import configure_logging
from biosem.sources import verify_fetched

log = logging.getLogger(__name__)


def main(snakemake) -> None:
    configure_logging(snakemake)
    corpus = snakemake.wildcards.corpus
    spec = snakemake.params.spec
    options = snakemake.params.sentences
    verify_fetched(snakemake.input.checksums)
    inputs = {key: path for key, path in snakemake.input.items() if key != "checksums"}
    if "corpus" in inputs:
        files = {"all": inputs["corpus"]}
        split_lists = {s: inputs[f"{s}_pmids"] for s in SPLITS if f"{s}_pmids" in inputs}
    else:
        files = {s: inputs[s] for s in SPLITS if s in inputs}
        split_lists = None
    log.info(
        "%s: PubTator files %s; split lists %s; namespace of bare ids %s (per mention type: %s)",
        corpus,
        files,
        split_lists,
        spec["namespace"],
        spec.get("type_namespaces") or "none",
    )
    segmenter = Segmenter(
        language=options["language"],
        mask_mention_periods=options["mask_mention_periods"],
        split_title=options["split_title"],
    )
    tables = ingest_corpus(
        corpus,
        files,
        spec["namespace"],
        segmenter,
        split_lists,
        processes=snakemake.threads,
        type_namespaces=spec.get("type_namespaces"),
    )
    log_counts(tables.counts, log)
    write_corpus_tables(tables, snakemake.output, corpus, log)


if __name__ == "__main__":
    main(snakemake)  # noqa: F821 - injected by Snakemake
