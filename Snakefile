# biosem: regenerate biomedical semantic-evaluation datasets from their sources.
# Design: docs/design.md; every config key: config/README.md.
from snakemake.utils import min_version

min_version("9.0")


configfile: "config/config.yaml"


report: "workflow/report/workflow.rst"


include: "workflow/rules/common.smk"
include: "workflow/rules/sources.smk"
include: "workflow/rules/ingest.smk"
include: "workflow/rules/corpora.smk"
include: "workflow/rules/termpairs.smk"
include: "workflow/rules/wic.smk"
include: "workflow/rules/analogies.smk"
include: "workflow/rules/simlex.smk"
include: "workflow/rules/agreement.smk"
include: "workflow/rules/evaluate.smk"
include: "workflow/rules/release.smk"
include: "workflow/rules/report.smk"


rule all:
    default_target: True
    input:
        plan.targets(),


# One target rule per family (`snakemake --cores 2 termpairs`, ..., `report_pages`): its part of
# `rule all`, from the plan (README § Outputs).
for _family, _family_targets in plan.family_targets.items():

    rule:
        name:
            _family
        input:
            _family_targets,
        localrule: True
