# Releases: Hugging Face-layout datasets with cards, Croissant, checksums and a licence guard
# (docs/design.md § Release). Not part of `rule all`: run `snakemake --cores 8 release_public` or
# `release_private`, which end with the checks of `biosem check-release`. Layout: results/release/<version>/<public|private>/<family>/<dataset>/.
# Dataset list, input functions and params: plan.release (providers: biosem.release.families).


rule checksum_licensed_release:
    input:
        plan.terminologies.licensed_inputs,
    output:
        paths.licensed_checksums("{terminology}"),
    log:
        paths.log("checksum_licensed_release", "{terminology}"),
    benchmark:
        paths.benchmark("checksum_licensed_release", "{terminology}")
    conda:
        "../envs/biosem.yaml"
    resources:
        mem_mb=500,
    params:
        root=plan.terminologies.release_root,
    script:
        "../scripts/checksum_licensed_release.py"


# One rule per released dataset (its files are fixed by the config), for either visibility.
for _release_dataset in plan.release.datasets:

    rule:
        name:
            f"build_release_{_release_dataset.family}_{_release_dataset.name}"
        input:
            data=_release_dataset.input_files(),
            licensed=plan.release.licensed_checksums(_release_dataset),
            local=_release_dataset.local_files(),
            validity=list(_release_dataset.validity),
            notices=list(_release_dataset.notices),
            guard=plan.release.guard(_release_dataset.id),
        output:
            **plan.release.dataset_outputs(_release_dataset),
        log:
            paths.log("build_release_dataset", f"{{visibility}}/{_release_dataset.id}"),
        benchmark:
            paths.benchmark(
                "build_release_dataset", f"{{visibility}}/{_release_dataset.id}"
            )
        conda:
            "../envs/biosem.yaml"
        resources:
            mem_mb=4000,
        params:
            dataset=plan.release.dataset_params(_release_dataset),
            release=plan.release.licence_params,
            provenance=plan.release.provenance,
        script:
            "../scripts/build_release_dataset.py"


rule write_release_manifest:
    input:
        plan.release.manifest_inputs,
    output:
        manifest=paths.release(
            plan.release.release["version"], "{visibility}", "RELEASE.md"
        ),
        config=paths.release(
            plan.release.release["version"], "{visibility}", "config.yaml"
        ),
        sums=paths.release(
            plan.release.release["version"], "{visibility}", "SHA256SUMS"
        ),
        # RELEASE.md rendered for the report, which offers a .md file as a download only.
        page=report(
            paths.report_page(
                paths.release(
                    plan.release.release["version"], "{visibility}", "RELEASE.md"
                )
            ),
            caption="../report/release_manifest.rst",
            category="Release",
            labels={
                "release": plan.release.release["version"],
                "visibility": "{visibility}",
            },
        ),
    log:
        paths.log("write_release_manifest", "{visibility}"),
    localrule: True
    conda:
        "../envs/biosem.yaml"
    params:
        datasets=plan.release.manifest_datasets,
        withheld=plan.release.manifest_withheld,
        release=plan.release.licence_params,
        provenance=plan.release.provenance,
        config=plan.release.config,
    script:
        "../scripts/write_release_manifest.py"


# The release gate: no output, so it runs whenever the target is asked for, after everything else; the
# checks of `biosem check-release` on the folder built, which is removed when they fail.
rule release_public:
    input:
        plan.release.public_target,
    log:
        paths.log("check_release", "public"),
    localrule: True
    conda:
        "../envs/biosem.yaml"
    params:
        visibility="public",
    script:
        "../scripts/check_release.py"


rule release_private:
    input:
        paths.release(plan.release.release["version"], "private", "SHA256SUMS"),
    log:
        paths.log("check_release", "private"),
    localrule: True
    conda:
        "../envs/biosem.yaml"
    params:
        visibility="private",
    script:
        "../scripts/check_release.py"
