# Scores of word/term representations on every built dataset and the external benchmarks
# (docs/design.md § Evaluation): train or load models, one evaluation rule per family and model, one
# tidy results table, report plots.


# Priority 20: the single-threaded trainings are the longest jobs of the default; started as soon as the
# corpora are in (the corpus rules share the priority), they run beside each other.
rule train_word2vec:
    input:
        documents=plan.evaluate.training_documents,
    output:
        vectors=outputs.model_vectors.template,
    log:
        paths.log("train_word2vec", "{model}"),
    benchmark:
        paths.benchmark("train_word2vec", "{model}")
    wildcard_constraints:
        model=name_pattern(plan.evaluate.trained),
    priority: 20
    conda:
        "../envs/biosem.yaml"
    threads: 1
    resources:
        mem_mb=2000,
    params:
        training=plan.evaluate.training_params,
    script:
        "../scripts/train_word2vec.py"


rule count_frequency_tokens:
    input:
        documents=plan.evaluate.frequency_documents,
    output:
        counts=plan.evaluate.token_counts(),
    log:
        paths.log("count_frequency_tokens", "counts"),
    conda:
        "../envs/biosem.yaml"
    resources:
        mem_mb=2000,
    script:
        "../scripts/count_frequency_tokens.py"


rule encode_strings:
    input:
        unpack(plan.evaluate.encode_inputs),
        checksums=plan.evaluate.benchmark_checksums,
    output:
        embeddings=outputs.model_embeddings.template,
    log:
        paths.log("encode_strings", "{model}"),
    benchmark:
        paths.benchmark("encode_strings", "{model}")
    wildcard_constraints:
        model=name_pattern(plan.evaluate.encoders),
    conda:
        "../envs/biosem.yaml"
    resources:
        mem_mb=6000,
    params:
        spec=plan.evaluate.model_spec,
        benchmarks=plan.evaluate.benchmarks,
        built=plan.evaluate.rated_names,
        termpairs=plan.evaluate.termpair_names,
        category_terminologies=plan.evaluate.encoded_categories,
        categories=plan.evaluate.categories,
        termpair_construction=plan.termpairs.construction,
        analogies=plan.evaluate.analogy_names,
        analogy_terminologies=plan.evaluate.analogy_terminologies,
        candidate_min_count=plan.evaluate.candidate_min_count,
        wic_window=plan.evaluate.wic_window,
        seed=plan.evaluate.seed,
    script:
        "../scripts/encode_strings.py"


rule evaluate_rated_pairs:
    input:
        unpack(plan.evaluate.rated_inputs),
        checksums=plan.evaluate.benchmark_checksums,
    output:
        results=outputs.rated_scores.template,
    log:
        paths.log("evaluate_rated_pairs", "{model}"),
    benchmark:
        paths.benchmark("evaluate_rated_pairs", "{model}")
    conda:
        "../envs/biosem.yaml"
    resources:
        mem_mb=4000,
    params:
        spec=plan.evaluate.model_spec,
        benchmarks=plan.evaluate.benchmarks,
        built=plan.evaluate.rated_names,
        rated=plan.evaluate.rated_params,
        band_corpus=plan.evaluate.band_corpus,
        seed=plan.evaluate.seed,
    script:
        "../scripts/evaluate_rated_pairs.py"


rule evaluate_termpairs:
    input:
        unpack(plan.evaluate.termpair_inputs),
    output:
        results=outputs.termpair_scores.template,
        predictions=outputs.termpair_predictions.template,
    log:
        paths.log("evaluate_termpairs", "{model}"),
    benchmark:
        paths.benchmark("evaluate_termpairs", "{model}")
    conda:
        "../envs/biosem.yaml"
    resources:
        mem_mb=6000,
    params:
        spec=plan.evaluate.model_spec,
        datasets=plan.evaluate.termpair_names,
        category_terminologies=plan.evaluate.category_terminologies,
        evaluate=plan.evaluate.termpair_params,
        termpairs=plan.termpairs.construction,
        seed=plan.evaluate.seed,
    script:
        "../scripts/evaluate_termpairs.py"


rule compare_termpair_models:
    input:
        predictions=plan.evaluate.termpair_predictions(),
    output:
        results=outputs.termpair_model_comparison.template,
    log:
        paths.log("compare_termpair_models", "mcnemar"),
    conda:
        "../envs/biosem.yaml"
    resources:
        mem_mb=4000,
    params:
        models=plan.evaluate.evaluated,
    script:
        "../scripts/compare_termpair_models.py"


rule evaluate_analogies:
    input:
        unpack(plan.evaluate.analogy_inputs),
    output:
        results=outputs.analogy_scores.template,
        predictions=outputs.analogy_predictions.template,
    log:
        paths.log("evaluate_analogies", "{model}"),
    benchmark:
        paths.benchmark("evaluate_analogies", "{model}")
    conda:
        "../envs/biosem.yaml"
    # One thread: a dataset is ranked in one group unless its candidates x queries pass `block_mb`, which the
    # default never does; for UMLS-scale candidate sets, `--set-threads evaluate_analogies=N` ranks groups
    # in N threads (same results).
    threads: 1
    resources:
        mem_mb=6000,
    params:
        spec=plan.evaluate.model_spec,
        datasets=plan.evaluate.analogy_names,
        terminologies=plan.evaluate.analogy_terminologies,
        analogies=plan.evaluate.analogy_params,
    script:
        "../scripts/evaluate_analogies.py"


rule evaluate_wic:
    input:
        unpack(plan.evaluate.wic_inputs),
    output:
        results=outputs.wic_scores.template,
    log:
        paths.log("evaluate_wic", "{model}"),
    conda:
        "../envs/biosem.yaml"
    resources:
        mem_mb=4000,
    params:
        spec=plan.evaluate.model_spec,
        wic=plan.evaluate.wic_params,
        seed=plan.evaluate.seed,
    script:
        "../scripts/evaluate_wic.py"


rule evaluate_wic_random:
    input:
        splits=plan.evaluate.wic_splits,
    output:
        results=outputs.wic_random_scores.template,
    log:
        paths.log("evaluate_wic_random", "random"),
    conda:
        "../envs/biosem.yaml"
    params:
        wic=plan.evaluate.wic_random_params,
        seed=plan.evaluate.seed,
    script:
        "../scripts/evaluate_wic_random.py"


rule collect_evaluation:
    input:
        parts=plan.evaluate.parts(),
    output:
        parquet=outputs.evaluation_results.template,
        csv=outputs.evaluation_results_csv.template,
    log:
        paths.log("collect_evaluation", "results"),
    conda:
        "../envs/biosem.yaml"
    script:
        "../scripts/collect_evaluation.py"


# The results table split by family (and terminology) for the report's pages (one page of the whole
# table would show its head only): biosem.evaluate.families.
rule split_evaluation_results:
    input:
        results=outputs.evaluation_results.template,
    output:
        tables=plan.evaluate.result_table_files(),
    log:
        paths.log("split_evaluation_results", "results"),
    localrule: True
    conda:
        "../envs/biosem.yaml"
    params:
        tables=plan.evaluate.result_tables,
    script:
        "../scripts/split_evaluation_results.py"


rule plot_evaluation:
    input:
        results=outputs.evaluation_results.template,
    output:
        analogies=outputs.evaluation_plot_analogies.report(),
        frequency_bands=outputs.evaluation_plot_frequency_bands.report(),
        rated=outputs.evaluation_plot_rated.report(),
        termpairs=outputs.evaluation_plot_termpairs.report(),
        wic=outputs.evaluation_plot_wic.report(),
    log:
        paths.log("plot_evaluation", "plots"),
    conda:
        "../envs/biosem.yaml"
    script:
        "../scripts/plot_evaluation.py"
