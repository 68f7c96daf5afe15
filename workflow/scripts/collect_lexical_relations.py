"""Collect the lexical resources of the associated biomedical quarter (docs/design.md § simlex).

OBO synonyms and siblings of the configured terminologies, WordNet synonyms, optional synonym
tables; lexicon variants (spelling, lemminflect / LRAGR inflections, LRNOM / WordNet / suffix-rule
derivations) map resource words onto the vocabulary. Writes ``lexicon_variants`` and
``lexical_relations``.
"""

import logging

import pandas as pd

from biosem.io import read_table, write_table
from biosem.logs import configure_logging
from biosem.simlex.resources import (
    VariantSources,
    lexicon_variants,
    params_from_config,
    read_synonym_table,
    resource_pairs,
    terminology_relations,
    wordnet_synonyms,
)
from biosem.simlex.schemas import LEXICAL_RELATIONS, LEXICON_VARIANTS
from biosem.simlex.specialist import read_lragr, read_lrnom, read_lrspl
from biosem.simlex.spelling import SpellingNormaliser
from biosem.simlex.vocabulary import configure_nltk_data

log = logging.getLogger(__name__)


def main(snakemake) -> None:
    configure_logging(snakemake)
    log.info("NLTK data from %s", configure_nltk_data(snakemake.params.nltk_data))
    cfg = params_from_config(snakemake.params.resources)
    vocabulary = read_table(snakemake.input.domains, columns=["lemma", "pos"])
    relations = []
    for name, terms_path, rel_path in zip(
        cfg["terminologies"], snakemake.input.terms, snakemake.input.relations, strict=True
    ):
        found = terminology_relations(
            read_table(terms_path),
            read_table(rel_path),
            name,
            cfg["synonym_scopes"],
            cfg["parent_relation"],
            cfg["roots"].get(name),
        )
        for relation, n in found.groupby("relation").size().items():
            log.info("%s: %d single-word %s pairs", name, n, relation)
        relations.append(found)
    for name, path in zip(sorted(cfg["synonym_tables"]), snakemake.input.synonym_tables, strict=True):
        found = read_synonym_table(path, name)
        log.info("synonym table %s: %d pairs", name, len(found))
        relations.append(found)
    relations = (
        pd.concat(relations, ignore_index=True)
        if relations
        else pd.DataFrame(columns=["term1", "term2", "relation", "resource", "evidence"])
    )
    lrspl = read_lrspl(snakemake.input.lrspl[0]) if snakemake.input.lrspl else None
    spelling = SpellingNormaliser(
        dict(zip(lrspl["variant"], lrspl["base"], strict=True)) if lrspl is not None else None,
        snakemake.params.spelling["spelling_table"],
        snakemake.params.spelling["spelling_rules"],
    )
    sources = VariantSources(
        spelling=spelling,
        lragr=read_lragr(snakemake.input.lragr[0]) if snakemake.input.lragr else None,
        lrnom=read_lrnom(snakemake.input.lrnom[0]) if snakemake.input.lrnom else None,
        wordnet_derivations=cfg["wordnet_derivations"],
        suffix_rules=cfg["suffix_rules"],
    )
    words = sorted(set(relations["term1"]) | set(relations["term2"]))
    variants = lexicon_variants(words, vocabulary, sources)
    log.info("%d resource words; %d reach the vocabulary", len(words), variants["word"].nunique())
    for (pos, kind, source), n in variants.groupby(["pos", "kind", "source"]).size().items():
        log.info("variants %s %s (%s): %d", pos, kind, source, n)
    pairs = resource_pairs(relations, variants)
    if cfg["wordnet_synonyms"]:
        wordnet = wordnet_synonyms(vocabulary)
        log.info("WordNet synonyms among vocabulary lemmas: %s", wordnet.groupby("pos").size().to_dict())
        pairs = pd.concat([pairs, wordnet], ignore_index=True)
    for (pos, resource, relation, via), n in pairs.groupby(["pos", "resource", "relation", "via"]).size().items():
        log.info("%s pairs from %s %s via %s: %d", pos, resource, relation, via, n)
    write_table(variants, snakemake.output.variants, LEXICON_VARIANTS)
    write_table(pairs, snakemake.output.relations, LEXICAL_RELATIONS)


if __name__ == "__main__":
    main(snakemake)  # noqa: F821 - injected by Snakemake
