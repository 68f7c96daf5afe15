# Rules of the wic stage; its functions and config checks are in helpers/wic.smk.


rule select_wic_mentions:
    input:
        unpack(wic_select_inputs),
    output:
        selected=f"{WIC_WORK}/selected.parquet",
        corpus_terms=f"{WIC_WORK}/corpus_terms.parquet",
        counts=report(
            f"{WIC_OUT}/selection_counts.tsv",
            caption="../report/wic_selection.rst",
            category="wic",
            labels={"table": "mentions and sentences per step"},
        ),
    log:
        "logs/select_wic_mentions/wic.log",
    benchmark:
        "benchmarks/select_wic_mentions/wic.tsv"
    conda:
        "../envs/biosem.yaml"
    resources:
        mem_mb=4000,
    params:
        seed=config["seed"],
        terminology=wic_terminology(),
        code_systems=WIC["code_systems"],
        nltk_data=wic_nltk_folders(),
    script:
        "../scripts/select_wic_mentions.py"


rule build_wic_candidates:
    input:
        unpack(wic_candidate_inputs),
    output:
        candidates=f"{WIC_WORK}/candidates.parquet",
        counts=report(
            f"{WIC_OUT}/candidate_counts.tsv",
            caption="../report/wic_candidates.rst",
            category="wic",
            labels={"table": "candidate pairs per group"},
        ),
    log:
        "logs/build_wic_candidates/wic.log",
    benchmark:
        "benchmarks/build_wic_candidates/wic.tsv"
    conda:
        "../envs/biosem.yaml"
    threads: 2
    resources:
        mem_mb=8000,
    params:
        seed=config["seed"],
        wic=WIC,
    script:
        "../scripts/build_wic_candidates.py"


rule split_wic:
    input:
        candidates=f"{WIC_WORK}/candidates.parquet",
        selected=f"{WIC_WORK}/selected.parquet",
    output:
        train_json=f"{WIC_OUT}/train.json",
        dev_json=f"{WIC_OUT}/dev.json",
        test_json=f"{WIC_OUT}/test.json",
        train_parquet=f"{WIC_OUT}/train.parquet",
        dev_parquet=f"{WIC_OUT}/dev.parquet",
        test_parquet=f"{WIC_OUT}/test.parquet",
        quotas=f"{WIC_OUT}/quotas.json",
        counts=report(
            f"{WIC_OUT}/counts.tsv",
            caption="../report/wic_counts.rst",
            category="wic",
            labels={"table": "instances per split, group and label"},
        ),
    log:
        "logs/split_wic/wic.log",
    benchmark:
        "benchmarks/split_wic/wic.tsv"
    conda:
        "../envs/biosem.yaml"
    resources:
        mem_mb=4000,
    params:
        seed=config["seed"],
        wic=WIC,
    script:
        "../scripts/split_wic.py"


rule validate_wic:
    input:
        train=f"{WIC_OUT}/train.json",
        dev=f"{WIC_OUT}/dev.json",
        test=f"{WIC_OUT}/test.json",
        quotas=f"{WIC_OUT}/quotas.json",
    output:
        report=report(
            f"{WIC_OUT}/validation.txt",
            caption="../report/wic_validation.rst",
            category="wic",
            labels={"table": "validation"},
        ),
    log:
        "logs/validate_wic/wic.log",
    localrule: True
    conda:
        "../envs/biosem.yaml"
    params:
        train_sentence_cap=WIC["train_sentence_cap"],
    script:
        "../scripts/validate_wic.py"
