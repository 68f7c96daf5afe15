"""Build every positive term pair of one terminology and the similarity components.

Reads the concepts/terms/associations intermediates; writes the positives (all five kinds, easy and
hard) and the connected components of the similarity graph, which by default also join the concepts
of one MeSH descriptor and the surface variants of a term (params ``exclusion``; issue 37).
Parameters: docs/design.md § termpairs.
"""

import logging

from biosem.io import read_table, write_table
from biosem.logs import configure_logging
from biosem.termpairs.exclusion import concept_groups
from biosem.termpairs.params import exclusion_from_config, params_from_config
from biosem.termpairs.positives import build_positive_pairs, similarity_components
from biosem.termpairs.schemas import SIMILARITY_COMPONENTS, TERMPAIR_POSITIVES

log = logging.getLogger(__name__)


def main(snakemake) -> None:
    configure_logging(snakemake)
    params = params_from_config(snakemake.params.termpairs)
    concepts = read_table(snakemake.input.concepts)
    terms = read_table(snakemake.input.terms)
    associations = read_table(snakemake.input.associations)
    if terms.empty:
        raise ValueError(f"{snakemake.input.terms}: no terms (an empty terms table); no term pairs can be built")
    positives, counts = build_positive_pairs(concepts, terms, associations, params)
    for key, value in counts.items():
        log.info("%s: %s = %d", snakemake.wildcards.terminology, key, value)
    for (kind, difficulty), n in positives.groupby(["kind", "difficulty"]).size().items():
        log.info("%s: %s %s positives = %d", snakemake.wildcards.terminology, kind, difficulty, n)
    exclusion = exclusion_from_config(snakemake.params.exclusion)
    fmt = snakemake.params.exclusion["format"]
    groups = concept_groups(concepts, exclusion.exclude_same_group, fmt)
    if exclusion.exclude_same_group and groups is None:
        log.info("exclude_same_group %s: no such groups in a %s terminology", exclusion.exclude_same_group, fmt)
    components = similarity_components(positives, groups, exclusion.exclude_surface_variants)
    log.info(
        "similarity graph: %d terms in %d components of synonyms, %d after joining concepts of one %s, "
        "%d after joining surface variants (%d distinct surface keys)",
        len(components),
        components["synonym_component"].nunique(),
        components["group_component"].nunique(),
        exclusion.exclude_same_group if groups is not None else "group (none)",
        components["component"].nunique(),
        components["surface_key"].nunique(),
    )
    write_table(positives, snakemake.output.positives, TERMPAIR_POSITIVES)
    write_table(components, snakemake.output.components, SIMILARITY_COMPONENTS)


if __name__ == "__main__":
    main(snakemake)  # noqa: F821 - injected by Snakemake
