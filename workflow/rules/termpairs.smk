# Term-pair similarity datasets (Schulz & Juric, AAAI 2020): positives, the joint first nearest-term
# search, then 20 datasets and a counts table (Table 2) per terminology.


rule build_termpair_positives:
    input:
        concepts=paths.intermediate("concepts", "{terminology}"),
        terms=paths.intermediate("terms", "{terminology}"),
        associations=paths.intermediate("associations", "{terminology}"),
    output:
        positives=outputs.termpair_positives.template,
        components=outputs.termpair_components.template,
    log:
        paths.log("build_termpair_positives", "{terminology}"),
    benchmark:
        paths.benchmark("build_termpair_positives", "{terminology}")
    conda:
        "../envs/biosem.yaml"
    threads: 2
    resources:
        mem_mb=4000,
    params:
        termpairs=plan.termpairs.construction,
        exclusion=plan.termpairs.exclusion,
    script:
        "../scripts/build_termpair_positives.py"


rule search_termpair_neighbours:
    input:
        positives=outputs.termpair_positives.template,
        components=outputs.termpair_components.template,
    output:
        neighbours=outputs.termpair_neighbours.template,
    log:
        paths.log("search_termpair_neighbours", "{terminology}/{difficulty}"),
    benchmark:
        paths.benchmark("search_termpair_neighbours", "{terminology}/{difficulty}")
    conda:
        "../envs/biosem.yaml"
    threads: plan.termpairs.threads
    resources:
        mem_mb=plan.termpairs.mem_mb,
        runtime=plan.termpairs.runtime,
    params:
        kinds=plan.termpairs.joint_search,
    script:
        "../scripts/search_termpair_neighbours.py"


rule sample_termpair_negatives:
    input:
        unpack(plan.termpairs.neighbours),
        positives=outputs.termpair_positives.template,
        components=outputs.termpair_components.template,
    output:
        parquet=outputs.termpair_dataset.path(
            terminology="{terminology}", dataset="{kind}_{difficulty}_{strategy}"
        ),
        tsv=outputs.termpair_dataset_tsv.path(
            terminology="{terminology}", dataset="{kind}_{difficulty}_{strategy}"
        ),
        stats=outputs.termpair_stats.path(
            terminology="{terminology}", dataset="{kind}_{difficulty}_{strategy}"
        ),
    log:
        paths.log(
            "sample_termpair_negatives", "{terminology}/{kind}_{difficulty}_{strategy}"
        ),
    benchmark:
        paths.benchmark(
            "sample_termpair_negatives", "{terminology}/{kind}_{difficulty}_{strategy}"
        )
    conda:
        "../envs/biosem.yaml"
    threads: plan.termpairs.threads
    resources:
        mem_mb=plan.termpairs.mem_mb,
        runtime=plan.termpairs.runtime,
    params:
        seed=plan.termpairs.seed,
        random_rounds=plan.termpairs.random_rounds,
    script:
        "../scripts/sample_termpair_negatives.py"


rule summarise_termpairs:
    input:
        datasets=plan.termpairs.datasets("{terminology}"),
        stats=plan.termpairs.stats("{terminology}"),
        associations=paths.intermediate("associations", "{terminology}"),
    output:
        counts=outputs.termpair_counts.template,
    log:
        paths.log("summarise_termpairs", "{terminology}"),
    localrule: True
    conda:
        "../envs/biosem.yaml"
    script:
        "../scripts/summarise_termpairs.py"


rule check_termpair_validity:
    input:
        datasets=plan.termpairs.datasets("{terminology}"),
        terms=paths.intermediate("terms", "{terminology}"),
        concepts=paths.intermediate("concepts", "{terminology}"),
    output:
        validity=outputs.termpair_validity.template,
    log:
        paths.log("check_termpair_validity", "{terminology}"),
    benchmark:
        paths.benchmark("check_termpair_validity", "{terminology}")
    conda:
        "../envs/biosem.yaml"
    resources:
        mem_mb=4000,
    params:
        exclusion=plan.termpairs.exclusion,
    script:
        "../scripts/check_termpair_validity.py"
