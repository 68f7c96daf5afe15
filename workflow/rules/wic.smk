# BioWiC word-in-context splits (Rouhizadeh et al., Scientific Data 2024): select mentions,
# candidate pairs by blocking, test/dev/train, validation (docs/design.md § wic).


rule select_wic_mentions:
    input:
        unpack(plan.wic.select_inputs),
    output:
        selected=outputs.wic_selected.template,
        corpus_terms=outputs.wic_corpus_terms.template,
        definitions=outputs.wic_abbreviation_definitions.template,
        counts=outputs.wic_selection_counts.template,
    log:
        paths.log("select_wic_mentions", "wic"),
    benchmark:
        paths.benchmark("select_wic_mentions", "wic")
    conda:
        "../envs/biosem.yaml"
    resources:
        mem_mb=4000,
    params:
        seed=plan.wic.seed,
        wic=plan.wic.select_params,
        nltk_data=plan.wic.nltk_folders(),
    script:
        "../scripts/select_wic_mentions.py"


rule build_wic_candidates:
    input:
        unpack(plan.wic.candidate_inputs),
    output:
        candidates=outputs.wic_candidates.template,
        counts=outputs.wic_candidate_counts.template,
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
        seed=plan.wic.seed,
        wic=plan.wic.candidate_params,
    script:
        "../scripts/build_wic_candidates.py"


rule split_wic:
    input:
        candidates=outputs.wic_candidates.template,
        selected=outputs.wic_selected.template,
    output:
        train_json=outputs.wic_split_json.path(split="train"),
        dev_json=outputs.wic_split_json.path(split="dev"),
        test_json=outputs.wic_split_json.path(split="test"),
        train_parquet=outputs.wic_split.path(split="train"),
        dev_parquet=outputs.wic_split.path(split="dev"),
        test_parquet=outputs.wic_split.path(split="test"),
        quotas=outputs.wic_quotas.template,
        counts=outputs.wic_counts.template,
    log:
        paths.log("split_wic", "wic"),
    benchmark:
        paths.benchmark("split_wic", "wic")
    conda:
        "../envs/biosem.yaml"
    resources:
        mem_mb=4000,
    params:
        seed=plan.wic.seed,
        wic=plan.wic.split_params,
    script:
        "../scripts/split_wic.py"


rule validate_wic:
    input:
        train=outputs.wic_split_json.path(split="train"),
        dev=outputs.wic_split_json.path(split="dev"),
        test=outputs.wic_split_json.path(split="test"),
        quotas=outputs.wic_quotas.template,
    output:
        report=outputs.wic_validation.template,
    log:
        paths.log("validate_wic", "wic"),
    localrule: True
    conda:
        "../envs/biosem.yaml"
    params:
        train_sentence_cap=plan.wic.train_sentence_cap,
    script:
        "../scripts/validate_wic.py"


rule check_wic_validity:
    input:
        train=outputs.wic_split.path(split="train"),
        dev=outputs.wic_split.path(split="dev"),
        test=outputs.wic_split.path(split="test"),
        quotas=outputs.wic_quotas.template,
    output:
        validity=outputs.wic_validity.template,
    log:
        paths.log("check_wic_validity", "wic"),
    conda:
        "../envs/biosem.yaml"
    resources:
        mem_mb=2000,
    script:
        "../scripts/check_wic_validity.py"
