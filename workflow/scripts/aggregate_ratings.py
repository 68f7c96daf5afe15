"""Aggregate one rating set: bias correction, rater exclusion, IAA-1/IAA-2/alpha, rated dataset.

Reads the ratings (long format, the survey forms' exports or a crowdsourcing platform's results, both checked
against the survey design, or the SimVerb wide annotator matrix, possibly inside a zip), writes
the rated dataset (published txt + Parquet), the agreement table and the per-rater table.
Parameters: config agreement.ratings.<name>; docs/design.md § simlex "Ratings".
"""

import logging

import numpy as np

from biosem.agreement.forms import read_survey_exports
from biosem.agreement.interchange import PLATFORMS, read_platform_results
from biosem.agreement.ratings import (
    RATED_DATASET,
    aggregate_ratings,
    compare_with_published,
    long_to_matrix,
    params_from_config,
    parse_long_ratings,
    read_long_ratings,
    read_member,
    read_published,
    read_wide_matrix,
    to_published_txt,
)
from biosem.io import read_table, write_table, write_text
from biosem.logs import configure_logging
from biosem.sources import verify_fetched

log = logging.getLogger(__name__)


def main(snakemake) -> None:
    configure_logging(snakemake)
    verify_fetched(snakemake.input.checksums)
    spec = snakemake.params.spec
    params = params_from_config(spec)
    files = as_list(snakemake.input.ratings)
    path = files[0]
    if "exports" in spec:
        design = read_table(as_list(snakemake.input.design)[0])
        matrix = read_survey_exports(
            files,
            design,
            params.scale,
            spec["raters_per_group"],
            spec["allow_incomplete"],
            snakemake.wildcards.ratings,
        )
        log.info("%d survey exports checked against the design of %s", len(files), spec["survey"])
    elif spec["format"] == "wide":
        matrix = read_wide_matrix(path, spec["member"], spec["missing_value"], params.scale)
    elif spec["format"] in PLATFORMS:
        design = read_table(as_list(snakemake.input.design)[0])
        long, counts = read_platform_results(path, spec["format"], design, params.scale)
        log.info(
            "%s results: %d submissions, %d rejected and dropped, %d kept; %d ratings, %d don't know, %d raters",
            spec["format"],
            counts["submissions"],
            counts["rejected"],
            counts["kept"],
            counts["ratings"],
            counts["dont_know"],
            counts["raters"],
        )
        matrix = long_to_matrix(parse_long_ratings(long.astype(str), path, params.scale, integer=True), str(path))
    else:
        matrix = read_long_ratings(path, params.scale)
    log.info(
        "%s: %d items x %d raters, %d ratings, %d items with role consistency, %d repeated ratings",
        snakemake.wildcards.ratings,
        *matrix.values.shape,
        int((~np.isnan(matrix.values)).sum()),
        int(matrix.items["consistency"].sum()),
        len(matrix.repeats),
    )
    result = aggregate_ratings(matrix, params)
    log.info("counts: %s", result.counts)
    log.info("agreement:\n%s", result.agreement.drop(columns="definition").to_string(index=False))
    if spec["reference_member"]:
        published = read_published(read_member(path, spec["reference_member"]))
        log.info(
            "against the published %s: %s",
            spec["reference_member"],
            compare_with_published(result.dataset, published),
        )
    write_text(to_published_txt(result.dataset), snakemake.output.txt)
    write_table(result.dataset, snakemake.output.parquet, RATED_DATASET)
    write_text(tsv(result.agreement), snakemake.output.agreement)
    write_text(tsv(result.raters), snakemake.output.raters)


def as_list(files) -> list[str]:
    """A named input as a list of paths (one path or several)."""
    return [files] if isinstance(files, str) else list(files)


def tsv(frame) -> str:
    return frame.to_csv(sep="\t", index=False, lineterminator="\n", float_format="%.6g")


if __name__ == "__main__":
    main(snakemake)  # noqa: F821 - injected by Snakemake
