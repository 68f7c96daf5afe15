"""Check the analogy datasets of one terminology and write their ``validity.tsv``.

Reads the six settings' Parquet files (Single-Answer, Multi-Answer, All-Info and their unigram subsets),
the ``term_counts`` and ``concepts`` intermediates they were built from and the construction parameters
(which concepts and synonym scopes make a string ambiguous); writes the rows of
:func:`biosem.analogies.validity.analogy_validity` (abbreviations counted by lowercasing, ambiguous
answers, duplicates, answers among the question's terms, mean answers per analogy). Checks:
docs/design.md § Validity; issue 37.
"""

import logging

from biosem.analogies.construct import DATASETS, AnalogyParams, ambiguous_forms
from biosem.analogies.validity import analogy_validity
from biosem.io import read_table
from biosem.logs import configure_logging
from biosem.validity import FLAG, write_validity

log = logging.getLogger(__name__)


def main(snakemake) -> None:
    configure_logging(snakemake)
    terminology = snakemake.wildcards.terminology
    datasets = {name: read_table(getattr(snakemake.input, name)) for name in DATASETS}
    term_counts = read_table(snakemake.input.term_counts)
    params = AnalogyParams(**snakemake.params.construction)
    ambiguous = ambiguous_forms(term_counts, params, read_table(snakemake.input.concepts))
    log.info("%s: %d normalised strings name two or more concepts", terminology, len(ambiguous))
    table = write_validity(analogy_validity(datasets, term_counts, ambiguous), snakemake.output.validity)
    flagged = table[table["status"] == FLAG]
    log.info("%s: %d datasets, %d checks, %d flagged", terminology, len(datasets), len(table), len(flagged))
    for row in table.itertuples(index=False):
        log.info("%s %s %s = %s (%s, %s) %s", terminology, row.dataset, row.check, row.value, row.threshold or "-",
                 row.status, row.detail)  # fmt: skip


if __name__ == "__main__":
    main(snakemake)  # noqa: F821 - injected by Snakemake
