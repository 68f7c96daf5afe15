"""Candidate sentence pairs of the selected mentions, by blocking, in four groups (BioWiC step 2).

Reads the selected mentions and the synonym term sets (the terminology's terms, with its abbreviation
term types, or the corpus term sets), plus the terminology's relations, mappings, concepts (records) and
the terms of the corpus concepts for pruning and the link test of label-0 pairs; writes the candidates
and their counts per group and label before and after pruning. Parameters: docs/design.md § wic.
"""

import logging

from biosem.io import read_table, write_table, write_text
from biosem.logs import configure_logging
from biosem.seeds import generator
from biosem.wic.candidates import build_candidates, params_from_config
from biosem.wic.io import read_term_sets, read_where
from biosem.wic.prune import ANCESTOR, RECORD, SYNONYM
from biosem.wic.schemas import CANDIDATES

log = logging.getLogger(__name__)


def main(snakemake) -> None:
    configure_logging(snakemake)
    wic = snakemake.params.wic
    params = params_from_config(wic, workers=snakemake.threads)
    selected = read_table(snakemake.input.selected)
    concepts = sorted(selected["concept_id"].unique())
    relations = mappings = records = link_terms = None
    links = params.negative_links
    if hasattr(snakemake.input, "terms"):
        term_sets = read_term_sets(
            snakemake.input.terms, selected["term_lower"].unique().tolist(), wic["abbreviation_ttys"]
        )
        # the ancestor closure walks the whole hierarchy; the direct rules only need the corpus concepts
        where = [("rel", "in", list(params.prune_relations))]
        if ANCESTOR not in links:
            where.append(("subject_id", "in", concepts))
        relations = read_where(snakemake.input.relations, where, ["subject_id", "rel", "object_id"])
        mappings = read_where(snakemake.input.mappings, [("concept_id", "in", concepts)])
        log.info(
            "terminology %s: %d term-set entries for corpus terms (%d abbreviations: tty %s), %d %s relations, "
            "%d mappings of the %d concepts",
            wic["terminology"],
            len(term_sets),
            int(term_sets["abbreviation"].sum()),
            wic["abbreviation_ttys"],
            len(relations),
            list(params.prune_relations),
            len(mappings),
            len(concepts),
        )
        if RECORD in links and wic["record_column"]:
            column = wic["record_column"]
            records = read_where(snakemake.input.concepts, [("concept_id", "in", concepts)], ["concept_id", column])
            records = records.rename(columns={column: "record"})
            log.info("record link: %d concepts in %d records", len(records), records["record"].nunique())
        elif RECORD in links:
            log.info("record link: terminology format has no records; skipped")
        if SYNONYM in links:
            link_terms = read_term_sets(snakemake.input.terms, None, concepts=concepts)
            log.info("synonym link: %d terms of the %d concepts", len(link_terms), len(concepts))
    else:
        corpus_terms = read_table(snakemake.input.corpus_terms)
        term_sets = corpus_terms[corpus_terms["documents"] >= wic["corpus_synonym_min_documents"]]
        log.info(
            "no terminology: corpus term sets, %d of %d (concept, term) in >= %d documents; no pruning by relations",
            len(term_sets),
            len(corpus_terms),
            wic["corpus_synonym_min_documents"],
        )
    log.info("link tests of label-0 pairs: %s", list(links) or "none")
    rng = generator(snakemake.params.seed, "wic", "candidates")
    candidates, counts, stats = build_candidates(
        selected, term_sets, params, rng, relations, mappings, records=records, link_terms=link_terms
    )
    for key, value in stats.items():
        log.info("%s = %d", key, value)
    for row in counts.to_dict("records"):
        detail = ", ".join(f"{k} {v}" for k, v in row.items() if k not in ("group", "label"))
        log.info("%s label %d: %s", row["group"], row["label"], detail)
    log.info("candidate sentence pairs written = %d", len(candidates))
    write_table(candidates, snakemake.output.candidates, CANDIDATES)
    write_text(counts.to_csv(sep="\t", index=False, lineterminator="\n"), snakemake.output.counts)


if __name__ == "__main__":
    main(snakemake)  # noqa: F821 - injected by Snakemake
