# Term-pair similarity datasets (Schulz & Juric, AAAI 2020): positives, then 20 datasets per source.


rule build_termpair_positives:
    input:
        concepts=intermediate("concepts", "{terminology}"),
        terms=intermediate("terms", "{terminology}"),
        associations=intermediate("associations", "{terminology}"),
    output:
        positives="results/datasets/termpairs/{terminology}/positives.parquet",
        components="results/datasets/termpairs/{terminology}/components.parquet",
    log:
        "logs/build_termpair_positives/{terminology}.log",
    benchmark:
        "benchmarks/build_termpair_positives/{terminology}.tsv"
    conda:
        "../envs/biosem.yaml"
    threads: 2
    resources:
        mem_mb=4000,
    params:
        termpairs=config["termpairs"],
    script:
        "../scripts/build_termpair_positives.py"


rule search_termpair_neighbours:
    input:
        positives="results/datasets/termpairs/{terminology}/positives.parquet",
        components="results/datasets/termpairs/{terminology}/components.parquet",
    output:
        neighbours=termpair_neighbours_file("{terminology}", "{difficulty}"),
    log:
        "logs/search_termpair_neighbours/{terminology}/{difficulty}.log",
    benchmark:
        "benchmarks/search_termpair_neighbours/{terminology}/{difficulty}.tsv"
    conda:
        "../envs/biosem.yaml"
    threads: termpair_threads
    resources:
        mem_mb=termpair_mem_mb,
        runtime=termpair_runtime,
    params:
        kinds=JOINT_SEARCH_KINDS,
    script:
        "../scripts/search_termpair_neighbours.py"


rule sample_termpair_negatives:
    input:
        unpack(termpair_neighbours),
        positives="results/datasets/termpairs/{terminology}/positives.parquet",
        components="results/datasets/termpairs/{terminology}/components.parquet",
    output:
        parquet="results/datasets/termpairs/{terminology}/{kind}_{difficulty}_{strategy}.parquet",
        tsv="results/datasets/termpairs/{terminology}/{kind}_{difficulty}_{strategy}.tsv",
        stats="results/datasets/termpairs/{terminology}/stats/{kind}_{difficulty}_{strategy}.json",
    log:
        "logs/sample_termpair_negatives/{terminology}/{kind}_{difficulty}_{strategy}.log",
    benchmark:
        "benchmarks/sample_termpair_negatives/{terminology}/{kind}_{difficulty}_{strategy}.tsv"
    conda:
        "../envs/biosem.yaml"
    threads: termpair_threads
    resources:
        mem_mb=termpair_mem_mb,
        runtime=termpair_runtime,
    params:
        seed=config["seed"],
        random_rounds=config["termpairs"].get("random_rounds", 30),
    script:
        "../scripts/sample_termpair_negatives.py"


rule summarise_termpairs:
    input:
        stats=expand(
            "results/datasets/termpairs/{{terminology}}/stats/{kind}_{difficulty}_{strategy}.json",
            kind=POSITIVE_KINDS,
            difficulty=DIFFICULTIES,
            strategy=STRATEGIES,
        ),
    output:
        counts=report(
            "results/datasets/termpairs/{terminology}/counts.tsv",
            caption="../report/termpairs_counts.rst",
            category="termpairs",
            labels={"terminology": "{terminology}", "table": "counts (Table 2)"},
        ),
    log:
        "logs/summarise_termpairs/{terminology}.log",
    localrule: True
    conda:
        "../envs/biosem.yaml"
    script:
        "../scripts/summarise_termpairs.py"
