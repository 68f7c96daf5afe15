"""Sum the shards' term counts of one terminology into its ``term_counts`` intermediate (BMASS).

Reads the ``terms`` intermediate and every shard's nonzero counts (rule
``count_term_frequencies_shard``); writes the ``term_counts`` intermediate, identical for any number
of shards, and logs what counting with the case changed per rule. Rules:
:mod:`biosem.analogies.frequency`, :mod:`biosem.analogies.matching` (docs/design.md § analogies).
"""

import logging

from biosem.analogies.frequency import merge_partial_counts
from biosem.analogies.matching import CASE_RULES, CaseRules, attach_counts, prepare_terms, term_patterns
from biosem.analogies.schemas import TERM_COUNTS
from biosem.io import read_table, write_table
from biosem.logs import configure_logging
from biosem.wic.lexical import configure_nltk_data

log = logging.getLogger(__name__)


def main(snakemake) -> None:
    configure_logging(snakemake)
    name = snakemake.wildcards.terminology
    rules = CaseRules(**snakemake.params.case_rules)
    log.info("%s: %s", name, rules)
    if rules.needs_wordnet:
        log.info("WordNet from %s", configure_nltk_data(snakemake.params.nltk_data))
    prepared = prepare_terms(read_table(snakemake.input.terms), rules)
    patterns = term_patterns(prepared)
    log.info(
        "%s: %d active terms of %d concepts, %d patterns (%d terms normalise to nothing)",
        name, len(prepared), prepared["concept_id"].nunique(), len(patterns.forms),
        int((prepared["normalised"] == "").sum()),
    )  # fmt: skip
    partial = [read_table(p) for p in snakemake.input.partial]
    for path, table in zip(snakemake.input.partial, partial, strict=True):
        log.info("shard %s: %d forms occur, %d matches", path, len(table), int(table["count"].sum()))
    forms, modes, concepts = patterns.slots()
    counts = merge_partial_counts(forms, partial, modes, concepts)
    log.info(
        "merged %d shards: %d matches; %d of %d patterns occur",
        len(partial), int(counts.sum()), int((counts > 0).sum()), len(patterns.forms),
    )  # fmt: skip
    table = attach_counts(prepared, patterns, counts)
    for rule in CASE_RULES:
        hit = table[table["case_rule"] == rule]
        if hit.empty:
            log.info("%s: rule %s: no term", name, rule)
            continue
        drop = (hit["count_folded"] - hit["count_cased"]).sort_values(ascending=False, kind="stable")
        top = hit.loc[drop.index[:10]]
        pairs = zip(top["term"], top["count_folded"], top["count_cased"])
        examples = ", ".join(f"{t!r} {f} -> {c}" for t, f, c in pairs)
        log.info(
            "%s: rule %s: %d terms counted %s (%d occurrences lowercased -> %d with the case); largest drops: %s",
            name, rule, len(hit), hit["mode"].iloc[0], int(hit["count_folded"].sum()), int(hit["count_cased"].sum()),
            examples,
        )  # fmt: skip
    context = table[table["in_context"]]
    drop = (context["count_cased"] - context["count"]).sort_values(ascending=False, kind="stable")
    top = context.loc[drop.index[:10]]
    log.info(
        "%s: %d abbreviations counted only in documents naming their concept otherwise (%d occurrences -> %d); "
        "largest drops: %s",
        name, len(context), int(context["count_cased"].sum()), int(context["count"].sum()),
        ", ".join(f"{t!r} ({c}) {a} -> {b}" for t, c, a, b in zip(
            top["term"], top["concept_id"], top["count_cased"], top["count"])) or "none",
    )  # fmt: skip
    best = table.groupby("concept_id")["count"].max()
    for threshold in (1, 5, 25):
        log.info("concepts with a term occurring >= %d times: %d", threshold, int((best >= threshold).sum()))
    write_table(table, snakemake.output.term_counts, TERM_COUNTS)


if __name__ == "__main__":
    main(snakemake)  # noqa: F821 - injected by Snakemake
