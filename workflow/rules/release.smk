# Releases: Hugging Face-layout datasets with cards, Croissant, checksums and a licence guard
# (DESIGN.md § Release). Not part of `rule all`; run `snakemake --cores 8 release_public` or
# `release_private`. Layout: results/release/<version>/<public|private>/<family>/<dataset>/.
# Dataset list, input functions and params: biosem.workflow.release (providers: biosem.release.families).
import os

from biosem.workflow import release as release_workflow
from biosem.release.provenance import relative_paths

RELEASE_PLAN = release_workflow.ReleasePlan(
    config,
    release_workflow.active_stages(
        config,
        {
            stage: globals().get(f"{stage}_targets")
            for stage in release_workflow.provider_stages()
        },
    ),
    basedir=workflow.basedir,
    config_files=relative_paths(
        workflow.overwrite_configfiles or ["config/config.yaml"], os.getcwd()
    ),
    config_args=workflow.config_settings.config_args or [],
)
release_targets = release_workflow.targets


rule checksum_licensed_release:
    input:
        licensed_inputs,
    output:
        f"{release_workflow.CHECKSUMS_DIR}/{{terminology}}.tsv",
    log:
        "logs/checksum_licensed_release/{terminology}.log",
    benchmark:
        "benchmarks/checksum_licensed_release/{terminology}.tsv"
    conda:
        "../envs/biosem.yaml"
    resources:
        mem_mb=500,
    params:
        root=lookup(dpath="terminologies/{terminology}/path", within=config),
    script:
        "../scripts/checksum_licensed_release.py"


# One rule per released dataset (its files are fixed by the config), for either visibility.
for _release_dataset in RELEASE_PLAN.datasets:

    rule:
        name:
            f"build_release_{_release_dataset.family}_{_release_dataset.name}"
        input:
            data=_release_dataset.input_files(),
            licensed=RELEASE_PLAN.licensed_checksums(_release_dataset),
            local=_release_dataset.local_files(),
            guard=RELEASE_PLAN.guard(_release_dataset.id),
        output:
            **RELEASE_PLAN.dataset_outputs(_release_dataset),
        log:
            f"logs/build_release_dataset/{{visibility}}/{_release_dataset.id}.log",
        benchmark:
            f"benchmarks/build_release_dataset/{{visibility}}/{_release_dataset.id}.tsv"
        wildcard_constraints:
            visibility="public|private",
        conda:
            "../envs/biosem.yaml"
        resources:
            mem_mb=4000,
        params:
            dataset=_release_dataset.to_params(),
            release=RELEASE_PLAN.release,
            provenance=RELEASE_PLAN.provenance,
        script:
            "../scripts/build_release_dataset.py"


rule write_release_manifest:
    input:
        RELEASE_PLAN.manifest_inputs,
    output:
        manifest=report(
            f"{RELEASE_PLAN.root}/{{visibility}}/RELEASE.md",
            caption="../report/release_manifest.rst",
            category="Release",
            labels={
                "release": RELEASE_PLAN.release["version"],
                "visibility": "{visibility}",
            },
        ),
        config=f"{RELEASE_PLAN.root}/{{visibility}}/config.yaml",
        sums=f"{RELEASE_PLAN.root}/{{visibility}}/SHA256SUMS",
    log:
        "logs/write_release_manifest/{visibility}.log",
    wildcard_constraints:
        visibility="public|private",
    localrule: True
    conda:
        "../envs/biosem.yaml"
    params:
        datasets=RELEASE_PLAN.manifest_datasets,
        withheld=RELEASE_PLAN.manifest_withheld,
        release=RELEASE_PLAN.release,
        provenance=RELEASE_PLAN.provenance,
        config=config,
    script:
        "../scripts/write_release_manifest.py"


rule release_public:
    input:
        RELEASE_PLAN.public_target,
    localrule: True


rule release_private:
    input:
        f"{RELEASE_PLAN.root}/private/SHA256SUMS",
    localrule: True
