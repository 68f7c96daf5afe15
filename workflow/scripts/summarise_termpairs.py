"""Collect the per-dataset statistics of one terminology into the Table 2-shaped counts table."""

import json
import logging
from pathlib import Path

from biosem.io import read_table, write_text
from biosem.logs import configure_logging
from biosem.termpairs.summary import summarise

log = logging.getLogger(__name__)


def main(snakemake) -> None:
    configure_logging(snakemake)
    terminology = snakemake.wildcards.terminology
    stats = [json.loads(Path(path).read_text(encoding="utf-8")) for path in sorted(snakemake.input.stats)]
    associations = read_table(snakemake.input.associations, columns=["kind"])["kind"].value_counts().to_dict()
    table = summarise(stats, associations)
    log.info("%s counts:\n%s", terminology, table.to_string(index=False))
    per_difficulty = table[table["difficulty"] != "all"]  # one row per random/Levenshtein pair of datasets
    empty = per_difficulty[per_difficulty["status"] == "empty"]
    log.info("%s: %d of %d datasets empty", terminology, 2 * len(empty), 2 * len(per_difficulty))
    for row in empty.itertuples():
        log.info("%s: %s_%s_{random,levenshtein} empty: %s", terminology, row.kind, row.difficulty, row.note)
    write_text(table.to_csv(sep="\t", index=False, lineterminator="\n"), snakemake.output.counts)


if __name__ == "__main__":
    main(snakemake)  # noqa: F821 - injected by Snakemake
