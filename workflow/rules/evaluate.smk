# Scores of word/term representations on every built dataset and the external benchmarks
# (DESIGN.md § Evaluation): train or load models -> one evaluation rule per family and model ->
# one tidy results table -> report plots. Wiring helpers live in biosem.workflow.evaluate (this file
# defines no functions: snakemake --lint).
from functools import partial

from biosem.workflow import evaluate as evaluation
from biosem.termpairs import DATASETS as TERMPAIR_DATASET_NAMES

evaluation.check_config(config)

EVALUATE = config["evaluate"]
EVAL_OUT = evaluation.OUT
EVAL_PLAN = evaluation.evaluation_plan(
    config,
    source_file,
    TERMPAIR_DATASET_NAMES,
    corpora_targets(),
    analogies_targets(),
    agreement_targets(),
    wic_targets(),
)

# `rule all` collects the stage's outputs through evaluate_targets() (common.smk).
evaluate_targets = partial(evaluation.evaluation_targets, EVAL_PLAN)


wildcard_constraints:
    model=name_pattern(sorted(EVAL_PLAN.models)),


rule train_word2vec:
    input:
        documents=EVAL_PLAN.training_documents,
    output:
        vectors=f"{EVAL_OUT}/models/{{model}}.bin",
    log:
        "logs/train_word2vec/{model}.log",
    benchmark:
        "benchmarks/train_word2vec/{model}.tsv"
    wildcard_constraints:
        model=name_pattern(EVAL_PLAN.trained),
    conda:
        "../envs/biosem.yaml"
    threads: 1
    resources:
        mem_mb=2000,
    params:
        training=partial(evaluation.training_params, EVAL_PLAN, config),
    script:
        "../scripts/train_word2vec.py"


rule count_training_tokens:
    input:
        documents=EVAL_PLAN.training_documents,
    output:
        counts=f"{EVAL_OUT}/models/token_counts.parquet",
    log:
        "logs/count_training_tokens/counts.log",
    conda:
        "../envs/biosem.yaml"
    resources:
        mem_mb=2000,
    script:
        "../scripts/count_training_tokens.py"


rule evaluate_rated_pairs:
    input:
        unpack(partial(evaluation.rated_inputs, EVAL_PLAN)),
    output:
        results=f"{EVAL_OUT}/rated/{{model}}.parquet",
    log:
        "logs/evaluate_rated_pairs/{model}.log",
    benchmark:
        "benchmarks/evaluate_rated_pairs/{model}.tsv"
    conda:
        "../envs/biosem.yaml"
    resources:
        mem_mb=4000,
    params:
        spec=partial(evaluation.model_spec, EVAL_PLAN),
        benchmarks=EVAL_PLAN.benchmarks,
        built=list(EVAL_PLAN.built_rated),
        rated=EVALUATE["rated"],
        seed=config["seed"],
    script:
        "../scripts/evaluate_rated_pairs.py"


rule evaluate_termpairs:
    input:
        unpack(partial(evaluation.termpair_inputs, EVAL_PLAN)),
    output:
        results=f"{EVAL_OUT}/termpairs/{{model}}.parquet",
        predictions=f"{EVAL_OUT}/termpairs/{{model}}.predictions.parquet",
    log:
        "logs/evaluate_termpairs/{model}.log",
    benchmark:
        "benchmarks/evaluate_termpairs/{model}.tsv"
    conda:
        "../envs/biosem.yaml"
    resources:
        mem_mb=6000,
    params:
        spec=partial(evaluation.model_spec, EVAL_PLAN),
        datasets=list(EVAL_PLAN.termpair_datasets),
        category_terminologies=EVAL_PLAN.category_terminologies,
        evaluate=EVALUATE["termpairs"],
        termpairs=config["termpairs"],
        seed=config["seed"],
    script:
        "../scripts/evaluate_termpairs.py"


rule compare_termpair_models:
    input:
        predictions=evaluation.termpair_predictions(EVAL_PLAN),
    output:
        results=f"{EVAL_OUT}/termpairs/mcnemar.parquet",
    log:
        "logs/compare_termpair_models/mcnemar.log",
    conda:
        "../envs/biosem.yaml"
    resources:
        mem_mb=4000,
    params:
        models=EVAL_PLAN.evaluated,
    script:
        "../scripts/compare_termpair_models.py"


rule evaluate_analogies:
    input:
        unpack(partial(evaluation.analogy_inputs, EVAL_PLAN)),
    output:
        results=f"{EVAL_OUT}/analogies/{{model}}.parquet",
        predictions=f"{EVAL_OUT}/analogies/{{model}}.predictions.parquet",
    log:
        "logs/evaluate_analogies/{model}.log",
    benchmark:
        "benchmarks/evaluate_analogies/{model}.tsv"
    conda:
        "../envs/biosem.yaml"
    threads: 2
    resources:
        mem_mb=6000,
    params:
        spec=partial(evaluation.model_spec, EVAL_PLAN),
        datasets=list(EVAL_PLAN.analogy_datasets),
        terminologies=EVAL_PLAN.analogy_terminologies,
        analogies=EVALUATE["analogies"],
    script:
        "../scripts/evaluate_analogies.py"


rule evaluate_wic:
    input:
        unpack(partial(evaluation.wic_inputs, EVAL_PLAN)),
    output:
        results=f"{EVAL_OUT}/wic/{{model}}.parquet",
    log:
        "logs/evaluate_wic/{model}.log",
    conda:
        "../envs/biosem.yaml"
    resources:
        mem_mb=4000,
    params:
        spec=partial(evaluation.model_spec, EVAL_PLAN),
        wic=EVALUATE["wic"],
        seed=config["seed"],
    script:
        "../scripts/evaluate_wic.py"


rule evaluate_wic_random:
    input:
        splits=EVAL_PLAN.wic_splits,
    output:
        results=f"{EVAL_OUT}/baselines/wic_random.parquet",
    log:
        "logs/evaluate_wic_random/random.log",
    conda:
        "../envs/biosem.yaml"
    params:
        wic=EVALUATE["wic"],
        seed=config["seed"],
    script:
        "../scripts/evaluate_wic_random.py"


rule collect_evaluation:
    input:
        parts=evaluation.evaluation_parts(EVAL_PLAN),
    output:
        parquet=f"{EVAL_OUT}/results.parquet",
        csv=report(
            f"{EVAL_OUT}/results.csv",
            caption="../report/evaluate_results.rst",
            category="Evaluation",
            labels={"table": "results (tidy)"},
        ),
    log:
        "logs/collect_evaluation/results.log",
    conda:
        "../envs/biosem.yaml"
    script:
        "../scripts/collect_evaluation.py"


rule plot_evaluation:
    input:
        results=f"{EVAL_OUT}/results.parquet",
    output:
        analogies=report(
            f"{EVAL_OUT}/plots/analogies.png",
            caption="../report/evaluate_analogies.rst",
            category="Evaluation",
            labels={"plot": evaluation.PLOTS["analogies"]},
        ),
        frequency_bands=report(
            f"{EVAL_OUT}/plots/frequency_bands.png",
            caption="../report/evaluate_frequency_bands.rst",
            category="Evaluation",
            labels={"plot": evaluation.PLOTS["frequency_bands"]},
        ),
        rated=report(
            f"{EVAL_OUT}/plots/rated.png",
            caption="../report/evaluate_rated.rst",
            category="Evaluation",
            labels={"plot": evaluation.PLOTS["rated"]},
        ),
        termpairs=report(
            f"{EVAL_OUT}/plots/termpairs.png",
            caption="../report/evaluate_termpairs.rst",
            category="Evaluation",
            labels={"plot": evaluation.PLOTS["termpairs"]},
        ),
        wic=report(
            f"{EVAL_OUT}/plots/wic.png",
            caption="../report/evaluate_wic.rst",
            category="Evaluation",
            labels={"plot": evaluation.PLOTS["wic"]},
        ),
    log:
        "logs/plot_evaluation/plots.log",
    conda:
        "../envs/biosem.yaml"
    script:
        "../scripts/plot_evaluation.py"
