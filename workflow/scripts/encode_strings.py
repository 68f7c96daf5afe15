"""Encode each distinct string of every dataset a sentence encoder is scored on, once: its embedding table.

Strings: rated items, term-pair terms and category sample terms, analogy candidate keys, WiC contexts
(biosem.evaluate.suite.encoder_strings). An encoder that cannot be loaded gets an empty table (logged), and
its evaluate rules write no scores, as before.
"""

import logging

from biosem.evaluate.encoders import EMBEDDINGS, encode_distinct
from biosem.evaluate.models import load_sentence_encoder
from biosem.evaluate.suite import analogy_inputs, category_samples, encoder_strings, read_rated_datasets
from biosem.io import ParquetTables, read_table, write_table
from biosem.logs import configure_logging
from biosem.sources import verify_fetched

log = logging.getLogger(__name__)


def main(snakemake) -> None:
    configure_logging(snakemake)
    verify_fetched(snakemake.input.checksums)
    name = snakemake.wildcards.model
    params = snakemake.params
    encoder = load_sentence_encoder(name, params.spec)
    table = EMBEDDINGS.schema.empty_table()
    if encoder is not None:
        rated = read_rated_datasets(
            zip(params.benchmarks, snakemake.input.benchmarks, strict=True),
            zip(params.built, snakemake.input.built, strict=True),
        )
        termpairs = ParquetTables(
            dict(zip(params.termpairs, snakemake.input.termpairs, strict=True)), columns=["term1", "term2"]
        )
        tables = zip(
            params.category_terminologies,
            snakemake.input.concepts,
            snakemake.input.terms,
            snakemake.input.relations,
            strict=True,
        )
        samples = category_samples(params.categories, tables, params.seed, params.termpair_construction)
        categories = [sample for _, sample, _ in samples]
        analogies = [
            (frames, candidates)
            for _, frames, candidates in analogy_inputs(
                dict(zip(params.analogies, snakemake.input.analogies, strict=True)),
                dict(zip(params.analogy_terminologies, snakemake.input.term_counts, strict=True)),
                params.candidate_min_count,
            )
        ]
        wic = [read_table(path) for path in snakemake.input.splits]
        strings = encoder_strings(encoder, rated, termpairs, categories, analogies, wic, params.wic_window)
        log.info(
            "%s: %d distinct strings from %d rated, %d term-pair, %d category, %d analogy and %d WiC tables",
            name,
            len(strings),
            len(rated),
            len(termpairs),
            len(categories),
            sum(len(frames) for frames, _ in analogies),
            len(wic),
        )
        table = encode_distinct(encoder, strings)
    write_table(table, snakemake.output.embeddings, EMBEDDINGS)


if __name__ == "__main__":
    main(snakemake)  # noqa: F821 - injected by Snakemake
