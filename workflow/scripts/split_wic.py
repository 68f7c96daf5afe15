"""Test, dev and train splits of the candidate pairs, in the released BioWiC format (step 3).

Reads the candidates and the selected mentions; writes train/dev/test as JSON (released schema) and
Parquet (plus provenance columns), the quotas used (with the groups ``quota_policy: balanced`` left out
of a split and why) and the counts per split × group × label.
Parameters: docs/design.md § wic, config/README.md § wic.
"""

import json
import logging

from biosem.io import read_table, write_table, write_text
from biosem.logs import configure_logging
from biosem.seeds import generator
from biosem.wic.io import write_released_json
from biosem.wic.schemas import SPLIT
from biosem.wic.splits import (
    counts_table,
    split_candidates,
    split_params_from_config,
    split_records,
)

log = logging.getLogger(__name__)


def main(snakemake) -> None:
    configure_logging(snakemake)
    params = split_params_from_config(snakemake.params.wic)
    candidates = read_table(snakemake.input.candidates)
    selected = read_table(snakemake.input.selected)
    rng = generator(snakemake.params.seed, "wic", "split")
    result = split_candidates(candidates, selected, params, rng)
    for key, value in result.stats.items():
        log.info("%s = %d", key, value)
    for split, quotas in result.quotas.items():
        log.info("%s quotas (%s policy): %s", split, params.quota_policy, quotas)
    for split, groups in result.left_out.items():
        for group, why in groups.items():
            log.info("%s: %s left out: %s", split, group, why)
    splits = {name: split_records(candidates, selected, idx) for name, idx in result.indices.items()}
    for name, frame in splits.items():
        n = write_released_json(frame, snakemake.output[f"{name}_json"])
        write_table(frame, snakemake.output[f"{name}_parquet"], SPLIT)
        log.info(
            "%s: %d instances, %d distinct sentences",
            name,
            n,
            len(set(frame["sentence1"]) | set(frame["sentence2"])),
        )
    counts = counts_table(splits, result.quotas, result.stats, result.left_out, params.quota_policy)
    for row in counts.itertuples(index=False):
        log.info(
            "%s %s label %d = %d (quota %s, paper %s; candidate term pairs %s, candidates left %s%s)",
            row.split,
            row.cat,
            row.label,
            row.n,
            row.quota,
            row.paper_quota,
            row.candidate_term_pairs,
            row.candidates_left,
            f"; short of the paper's quota, bound: {row.bound}" if row.bound else "",
        )
    quotas = {
        **result.quotas,
        "quota_policy": params.quota_policy,
        "min_stratum": params.min_stratum,
        "left_out": result.left_out,
        "train_sentence_cap": params.train_sentence_cap,
    }
    write_text(json.dumps(quotas, indent=2, sort_keys=True) + "\n", snakemake.output.quotas)
    write_text(counts.to_csv(sep="\t", index=False, lineterminator="\n"), snakemake.output.counts)


if __name__ == "__main__":
    main(snakemake)  # noqa: F821 - injected by Snakemake
