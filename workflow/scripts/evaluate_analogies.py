"""Score one model on every analogy dataset (BMASS): 3CosAdd, PairwiseDistance, 3CosMul.

Candidates per terminology: its terms counted at least `candidate_min_count` times in the corpus
plus every term of its analogies. Writes AccR/MAP/MRR per relation, macro and overall, and the top-k
predictions per analogy.
"""

import logging

import pandas as pd

from biosem.evaluate.analogies import AnalogyParams, evaluate_analogy_datasets
from biosem.evaluate.models import load_rule_model
from biosem.evaluate.results import RESULTS, results_frame
from biosem.evaluate.schemas import ANALOGY_PREDICTIONS
from biosem.io import read_table, write_table
from biosem.logs import configure_logging

log = logging.getLogger(__name__)
COLUMNS = ["relation", "a_term", "b_terms", "c_term", "d_terms"]


def main(snakemake) -> None:
    configure_logging(snakemake)
    cfg = snakemake.params.analogies
    params = AnalogyParams(
        methods=tuple(cfg["methods"]),
        top_k=cfg["top_k"],
        block_mb=cfg["block_mb"],
        candidate_min_count=cfg["candidate_min_count"],
        require_all_words=cfg["require_all_words"],
    )
    model = load_rule_model(snakemake.wildcards.model, snakemake.params.spec, snakemake.input.model)
    rows, predictions = [], [pd.DataFrame(columns=ANALOGY_PREDICTIONS.schema.names)]
    if model is not None:
        paths = dict(zip(snakemake.params.datasets, snakemake.input.datasets, strict=True))
        for terminology, counts_path in zip(snakemake.params.terminologies, snakemake.input.term_counts, strict=True):
            counts = read_table(counts_path, columns=["term", "count"])
            candidates = sorted(set(counts.loc[counts["count"] >= params.candidate_min_count, "term"]))
            log.info("%s: %d terms with count >= %d", terminology, len(candidates), params.candidate_min_count)
            datasets = {n: read_table(p, columns=COLUMNS) for n, p in paths.items() if n.split("/")[1] == terminology}
            r, p = evaluate_analogy_datasets(model, datasets, candidates, params, workers=snakemake.threads)
            rows += r
            predictions.append(p)
    write_table(results_frame(rows), snakemake.output.results, RESULTS)
    write_table(pd.concat(predictions, ignore_index=True), snakemake.output.predictions, ANALOGY_PREDICTIONS)


if __name__ == "__main__":
    main(snakemake)  # noqa: F821 - injected by Snakemake
