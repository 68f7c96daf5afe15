# BioWiC word-in-context splits (Rouhizadeh et al., Scientific Data 2024): select mentions,
# candidate pairs by blocking, test/dev/train, validation (docs/design.md § wic).


rule select_wic_mentions:
    input:
        unpack(plan.wic.select_inputs),
    output:
        selected=paths.wic_work("selected"),
        corpus_terms=paths.wic_work("corpus_terms"),
        counts=paths.wic("selection_counts", "tsv"),
    log:
        paths.log("select_wic_mentions", "wic"),
    benchmark:
        paths.benchmark("select_wic_mentions", "wic")
    conda:
        "../envs/biosem.yaml"
    resources:
        mem_mb=4000,
    params:
        seed=config["seed"],
        wic=plan.wic.select_params,
        nltk_data=plan.wic.nltk_folders(),
    script:
        "../scripts/select_wic_mentions.py"


rule build_wic_candidates:
    input:
        unpack(plan.wic.candidate_inputs),
    output:
        candidates=paths.wic_work("candidates"),
        counts=paths.wic("candidate_counts", "tsv"),
    log:
        paths.log("build_wic_candidates", "wic"),
    benchmark:
        paths.benchmark("build_wic_candidates", "wic")
    conda:
        "../envs/biosem.yaml"
    threads: 2
    resources:
        mem_mb=8000,
    params:
        seed=config["seed"],
        wic=plan.wic.candidate_params,
    script:
        "../scripts/build_wic_candidates.py"


rule split_wic:
    input:
        candidates=paths.wic_work("candidates"),
        selected=paths.wic_work("selected"),
    output:
        train_json=paths.wic("train", "json"),
        dev_json=paths.wic("dev", "json"),
        test_json=paths.wic("test", "json"),
        train_parquet=paths.wic("train", "parquet"),
        dev_parquet=paths.wic("dev", "parquet"),
        test_parquet=paths.wic("test", "parquet"),
        quotas=paths.wic("quotas", "json"),
        counts=paths.wic("counts", "tsv"),
    log:
        paths.log("split_wic", "wic"),
    benchmark:
        paths.benchmark("split_wic", "wic")
    conda:
        "../envs/biosem.yaml"
    resources:
        mem_mb=4000,
    params:
        seed=config["seed"],
        wic=plan.wic.split_params,
    script:
        "../scripts/split_wic.py"


rule validate_wic:
    input:
        train=paths.wic("train", "json"),
        dev=paths.wic("dev", "json"),
        test=paths.wic("test", "json"),
        quotas=paths.wic("quotas", "json"),
    output:
        report=paths.wic("validation", "txt"),
    log:
        paths.log("validate_wic", "wic"),
    localrule: True
    conda:
        "../envs/biosem.yaml"
    params:
        train_sentence_cap=config["wic"]["train_sentence_cap"],
    script:
        "../scripts/validate_wic.py"
