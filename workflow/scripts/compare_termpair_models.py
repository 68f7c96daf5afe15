"""McNemar's test between every pair of models on the held-out term pairs both scored."""

import logging

from biosem.evaluate.results import RESULTS, results_frame
from biosem.evaluate.termpairs import mcnemar_rows
from biosem.io import read_table, write_table
from biosem.logs import configure_logging

log = logging.getLogger(__name__)


def main(snakemake) -> None:
    configure_logging(snakemake)
    predictions = {
        m: read_table(p, categories=["dataset", "similarity"])
        for m, p in zip(snakemake.params.models, snakemake.input.predictions, strict=True)
    }
    rows = mcnemar_rows(predictions)
    significant = sum(
        1 for r in rows if r["metric"].endswith(":mcnemar_p") and r["value"] is not None and r["value"] < 0.05
    )
    log.info("%d model pairs x datasets x similarities tested; %d with p < 0.05", len(rows) // 2, significant)
    write_table(results_frame(rows), snakemake.output.results, RESULTS)


if __name__ == "__main__":
    main(snakemake)  # noqa: F821 - injected by Snakemake
