"""Candidate sentence pairs of the selected mentions, by blocking, in four groups (BioWiC step 2).

Reads the selected mentions, the abbreviations the texts define and the synonym term sets (the
terminology's terms, with its abbreviation term types and, for OBO terminologies, the synonym scopes of
``wic.synonym_scopes``; each namespace terminology's terms for the concepts of its namespace; or the
corpus term sets), plus each terminology's relations, mappings, concepts (records) and the terms of
the corpus concepts for pruning and the link test of label-0 pairs; writes the candidates and their
counts per group and label before and after pruning. Parameters: docs/design.md § wic.
"""

import logging

import pandas as pd

from biosem.io import read_table, read_term_sets, read_where, write_table, write_text
from biosem.logs import configure_logging
from biosem.seeds import generator
from biosem.wic.candidates import build_candidates, params_from_config
from biosem.wic.prune import ANCESTOR, RECORD, SYNONYM, namespace
from biosem.wic.schemas import CANDIDATES

log = logging.getLogger(__name__)


def _terminology_inputs(snakemake, wic: dict) -> list[dict]:
    """The terminologies whose tables the candidates read: ``wic.terminology`` first, then each
    namespace terminology, as ``{name, terms, relations, mappings, prune_relations, abbreviation_ttys}``."""
    out = []
    if hasattr(snakemake.input, "terms"):
        out.append(
            {
                "name": wic["terminology"],
                "terms": snakemake.input.terms,
                "relations": snakemake.input.relations,
                "mappings": snakemake.input.mappings,
                "prune_relations": wic["main_prune_relations"],
                "abbreviation_ttys": wic["abbreviation_ttys"],
            }
        )
    for i, entry in enumerate(wic["namespace_terminologies"]):
        out.append(
            {
                "name": entry["terminology"],
                "terms": snakemake.input.namespace_terms[i],
                "relations": snakemake.input.namespace_relations[i],
                "mappings": snakemake.input.namespace_mappings[i],
                "prune_relations": entry["prune_relations"],
                "abbreviation_ttys": entry["abbreviation_ttys"],
            }
        )
    return out


def main(snakemake) -> None:
    configure_logging(snakemake)
    wic = snakemake.params.wic
    params = params_from_config(wic, workers=snakemake.threads)
    selected = read_table(snakemake.input.selected)
    definitions = read_table(snakemake.input.definitions)
    log.info("abbreviations defined in the texts: %d distinct (short form, long form)", len(definitions))
    concepts = sorted(selected["concept_id"].unique())
    wanted = selected["term_lower"].unique().tolist()
    links = params.negative_links
    scopes = wic["synonym_scopes"]
    term_parts, relation_parts, mapping_parts, link_parts = [], [], [], []
    records = None
    for t in _terminology_inputs(snakemake, wic):
        term_parts.append(read_term_sets(t["terms"], wanted, t["abbreviation_ttys"], scopes=scopes))
        # the ancestor closure walks the whole hierarchy; the direct rules only need the corpus concepts
        where = [("rel", "in", list(t["prune_relations"]))]
        if ANCESTOR not in links:
            where.append(("subject_id", "in", concepts))
        relation_parts.append(read_where(t["relations"], where, ["subject_id", "rel", "object_id"]))
        mapping_parts.append(read_where(t["mappings"], [("concept_id", "in", concepts)]))
        if SYNONYM in links:
            link_parts.append(read_term_sets(t["terms"], None, concepts=concepts))
        log.info(
            "terminology %s: %d term-set entries for corpus terms (%d abbreviations: tty %s; synonym scopes %s), "
            "%d %s relations, %d mappings of the corpus concepts",
            t["name"],
            len(term_parts[-1]),
            int(term_parts[-1]["abbreviation"].sum()),
            t["abbreviation_ttys"],
            scopes if scopes is not None else "all",
            len(relation_parts[-1]),
            list(t["prune_relations"]),
            len(mapping_parts[-1]),
        )
    relations = mappings = link_terms = None
    if term_parts:
        term_sets = pd.concat(term_parts, ignore_index=True).drop_duplicates(
            ["concept_id", "term_lower", "abbreviation"]
        )
        term_sets = term_sets.groupby(["concept_id", "term_lower"], sort=True, as_index=False)["abbreviation"].any()
        relations = pd.concat(relation_parts, ignore_index=True)
        mappings = pd.concat(mapping_parts, ignore_index=True)
        if link_parts:
            link_terms = pd.concat(link_parts, ignore_index=True)
            log.info("synonym link: %d terms of the %d concepts", len(link_terms), len(concepts))
    if wic["terminology"] is None:
        # the corpora's own term sets for the concepts no namespace terminology covers
        corpus_terms = read_table(snakemake.input.corpus_terms)
        own = corpus_terms[corpus_terms["documents"] >= wic["corpus_synonym_min_documents"]]
        covered = {e["namespace"] for e in wic["namespace_terminologies"]}
        own = own[~namespace(own["concept_id"]).str.upper().isin(covered)]
        log.info(
            "no terminology: corpus term sets, %d of %d (concept, term) in >= %d documents; no pruning by relations "
            "but the namespace terminologies'",
            len(own),
            len(corpus_terms),
            wic["corpus_synonym_min_documents"],
        )
        own = own[["concept_id", "term_lower"]].assign(abbreviation=False)
        term_sets = pd.concat([term_sets, own], ignore_index=True) if term_parts else own
    if RECORD in links and wic["record_column"] and hasattr(snakemake.input, "concepts"):
        column = wic["record_column"]
        records = read_where(snakemake.input.concepts, [("concept_id", "in", concepts)], ["concept_id", column])
        records = records.rename(columns={column: "record"})
        log.info("record link: %d concepts in %d records", len(records), records["record"].nunique())
    elif RECORD in links:
        log.info("record link: no terminology with records (MeSH); skipped")
    log.info("link tests of label-0 pairs: %s", list(links) or "none")
    rng = generator(snakemake.params.seed, "wic", "candidates")
    candidates, counts, stats = build_candidates(
        selected,
        term_sets,
        params,
        rng,
        relations,
        mappings,
        records=records,
        link_terms=link_terms,
        definitions=definitions,
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
