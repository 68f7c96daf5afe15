# Config validation, the workflow plan and wildcard constraints shared by every stage.
# Every rule file reads its outputs from biosem.layout.outputs (each file declared once), other paths
# from biosem.layout.paths and input functions, params and targets from `plan.<stage>`
# (biosem.workflow.plan): no stage wiring is defined in a rule file, and no rule file reads `config`.
# A param is the value its script reads (keys picked with biosem.workflow.params.pick), so that editing
# a key a rule does not read reruns nothing (tests/workflow/test_plan.py).
import os

from snakemake.exceptions import WorkflowError

from biosem.termpairs import DIFFICULTIES, POSITIVE_KINDS, STRATEGIES
from biosem.layout import outputs, paths
from biosem.workflow.config import CONFIG_SCHEMA, ConfigError, validate_config
from biosem.workflow.plan import Plan
from biosem.release.provenance import relative_paths

# One validation sets every default (the schema is the only place defaults live); a failure is a few
# lines naming the key, the file that set it and what is allowed (biosem.workflow.config).
try:
    validate_config(
        config,
        os.path.join(workflow.basedir, CONFIG_SCHEMA),
        [*workflow.configfiles, *(workflow.overwrite_configfiles or [])],
        workflow.config_settings.config_args or [],
    )
except ConfigError as error:
    raise WorkflowError(str(error)) from None

plan = Plan(
    config,
    basedir=workflow.basedir,
    config_files=relative_paths(
        workflow.overwrite_configfiles or ["config/config.yaml"], os.getcwd()
    ),
    config_args=workflow.config_settings.config_args or [],
)
name_pattern = Plan.name_pattern


# Corpus counts run as `corpus_shards` jobs (scatter items "<k>-of-<N>") and a merge; `--set-scatter
# corpus=N` overrides it. biosem.corpora.shards assigns documents to shards.
scattergather:
    corpus=plan.corpora.shards,


wildcard_constraints:
    source=name_pattern(plan.sources.names),
    terminology=name_pattern(plan.terminologies.names),
    kind=name_pattern(POSITIVE_KINDS),
    difficulty=name_pattern(DIFFICULTIES),
    strategy=name_pattern(STRATEGIES),
    corpus=name_pattern(plan.corpora.names),
    ratings=name_pattern(sorted(plan.agreement.ratings)),
    model=name_pattern(sorted(plan.evaluate.models)),
    results_table=name_pattern(plan.evaluate.result_tables),
    visibility="public|private",
