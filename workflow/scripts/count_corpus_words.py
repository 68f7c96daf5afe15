"""Merge the shards' word counts into the Bio-SimLex vocabulary counts (docs/design.md § simlex).

Reads the partial counts of every shard (rule ``count_corpus_words_shard``); merges spellings and
applies the word rules of :mod:`biosem.simlex.evidence` (WordNet, numbers, POS evidence, units,
abbreviations, fragments, chemical names as verbs); writes the ``word_counts`` intermediate and the
per-step counts table, identical for any number of shards. Parameters: config ``simlex.vocabulary``.
"""

import logging

from biosem.io import read_table, write_table, write_text
from biosem.logs import configure_logging
from biosem.simlex.evidence import WORD_RULES, merge_variants, terminology_words
from biosem.simlex.schemas import WORD_COUNTS
from biosem.simlex.sharding import merge_counts
from biosem.simlex.vocabulary import (
    WORD_COUNT_COLUMNS,
    configure_nltk_data,
    filter_table,
    params_from_config,
    vocabulary_table,
    word_rules,
)

log = logging.getLogger(__name__)


def main(snakemake) -> None:
    configure_logging(snakemake)
    params = params_from_config(snakemake.params.vocabulary)
    tables = [read_table(p) for p in snakemake.input.partial]
    for path, table in zip(snakemake.input.partial, tables, strict=True):
        totals = table[table["record"] == "total"].set_index("step")["tokens"]
        log.info(
            "shard %s: %d documents, %d word tokens",
            path.rsplit("/", 1)[-1].removesuffix(".parquet"), totals.get("documents", 0), totals.get("word_tokens", 0),
        )  # fmt: skip
    counts = merge_counts(tables)
    log.info("merged %d shards: %d documents, %d word tokens", len(tables), counts.documents, counts.word_tokens)
    log.info("NLTK data from %s", configure_nltk_data(snakemake.params.nltk_data))
    _, single = terminology_words(read_table(p, columns=["term", "active"]) for p in snakemake.input.fragment_terms)
    rules = word_rules(params, single)
    if rules.merge_variants:
        merges = merge_variants(counts.counts, counts.document_counts)[2]
        for pos, group in merges.groupby("pos"):
            top = group.head(12)
            shown = ", ".join(f"{a} -> {b}" for a, b in zip(top["lemma"], top["entry"], strict=True))
            log.info("%s: %d lemmas merged into another spelling or form (%s)", pos, len(group), shown)
    vocabulary = vocabulary_table(counts, params.min_count, params.min_pos_share, rules)
    filters = filter_table(counts, params.min_count, params.min_pos_share, rules)
    for row in filters.itertuples(index=False):
        log.info("%s %s: %d tokens, %d types", row.pos, row.step, row.tokens, row.types)
    for (pos, rule), group in vocabulary[vocabulary["dropped_by"].isin(WORD_RULES)].groupby(["pos", "dropped_by"]):
        top = group.sort_values(["count", "lemma"], ascending=[False, True], kind="stable").head(12)
        log.info("%s dropped by %s (%d): %s", pos, rule, len(group), ", ".join(top["lemma"]))
    table = vocabulary.loc[vocabulary["dropped_by"] == "", list(WORD_COUNT_COLUMNS)]
    write_table(table, snakemake.output.counts, WORD_COUNTS)
    write_text(filters.to_csv(sep="\t", index=False, lineterminator="\n"), snakemake.output.filters)


if __name__ == "__main__":
    main(snakemake)  # noqa: F821 - injected by Snakemake
