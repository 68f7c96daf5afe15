# Bio-SimLex / Bio-SimVerb vocabulary, pairs and survey (Chiu et al. 2018).


rule count_corpus_words_shard:
    input:
        sentences=plan.simlex.sentence_tables(),
        text_files=plan.simlex.text_files(),
        lrspl=plan.simlex.optional_file("specialist", "lrspl"),
        fragment_terms=plan.simlex.fragment_term_tables(),
    output:
        partial=temp(paths.shard("word_counts", plan.simlex.name)),
    log:
        paths.log("count_corpus_words_shard", f"{plan.simlex.name}/{{scatteritem}}"),
    benchmark:
        paths.benchmark(
            "count_corpus_words_shard", f"{plan.simlex.name}/{{scatteritem}}"
        )
    conda:
        "../envs/biosem.yaml"
    threads: 2
    resources:
        mem_mb=4000,
    params:
        vocabulary=plan.simlex.vocabulary,
        deduplicate=plan.simlex.deduplicate_documents,
        nltk_data=plan.simlex.nltk_folders(),
    script:
        "../scripts/count_corpus_words_shard.py"


rule count_corpus_words:
    input:
        partial=gather.corpus(paths.shard("word_counts", plan.simlex.name)),
        fragment_terms=plan.simlex.fragment_term_tables(),
    output:
        counts=paths.intermediate("word_counts", plan.simlex.name),
        filters=outputs.simlex_filters.template,
    log:
        paths.log("count_corpus_words", plan.simlex.name),
    conda:
        "../envs/biosem.yaml"
    resources:
        mem_mb=4000,
    params:
        vocabulary=plan.simlex.vocabulary,
        nltk_data=plan.simlex.nltk_folders(),
    script:
        "../scripts/count_corpus_words.py"


rule split_word_domains:
    input:
        counts=paths.intermediate("word_counts", plan.simlex.name),
        filters=outputs.simlex_filters.template,
        reviewed=plan.simlex.optional_file("domain", "reviewed"),
    output:
        domains=paths.intermediate("word_domains", plan.simlex.name),
        sheet=outputs.simlex_domains.template,
        correlation=outputs.simlex_correlation.template,
    log:
        paths.log("split_word_domains", plan.simlex.name),
    conda:
        "../envs/biosem.yaml"
    resources:
        mem_mb=2000,
    params:
        domain=plan.simlex.domain,
    script:
        "../scripts/split_word_domains.py"


rule parse_usf:
    input:
        usf=plan.simlex.usf_source,
        checksums=plan.simlex.usf_checksums,
    output:
        paths.intermediate("usf", "usf"),
    log:
        paths.log("parse_usf", "usf"),
    conda:
        "../envs/biosem.yaml"
    resources:
        mem_mb=2000,
    params:
        expected_rows=plan.simlex.usf_expected_rows,
        expected_cues=plan.simlex.usf_expected_cues,
    script:
        "../scripts/parse_usf.py"


rule collect_lexical_relations:
    input:
        domains=paths.intermediate("word_domains", plan.simlex.name),
        terms=plan.simlex.terminology_tables("terms"),
        relations=plan.simlex.terminology_tables("relations"),
        synonym_tables=plan.simlex.synonym_tables(),
        lrspl=plan.simlex.optional_file("specialist", "lrspl"),
        lragr=plan.simlex.optional_file("specialist", "lragr"),
        lrnom=plan.simlex.optional_file("specialist", "lrnom"),
    output:
        variants=paths.intermediate("lexicon_variants", plan.simlex.name),
        relations=paths.intermediate("lexical_relations", plan.simlex.name),
    log:
        paths.log("collect_lexical_relations", plan.simlex.name),
    conda:
        "../envs/biosem.yaml"
    resources:
        mem_mb=3000,
    params:
        resources=plan.simlex.resources,
        spelling=plan.simlex.spelling,
        nltk_data=plan.simlex.nltk_folders(),
    script:
        "../scripts/collect_lexical_relations.py"


rule build_simlex_pairs:
    input:
        domains=paths.intermediate("word_domains", plan.simlex.name),
        relations=paths.intermediate("lexical_relations", plan.simlex.name),
        usf=paths.intermediate("usf", "usf"),
        accepted=plan.simlex.optional_file("pairs", "accepted"),
    output:
        pairs=outputs.simlex_pairs.template,
        tsv=outputs.simlex_pairs_tsv.template,
        counts=outputs.simlex_counts.template,
        review_biomedical=outputs.simlex_review_biomedical.template,
        review_general=outputs.simlex_review_general.template,
    log:
        paths.log("build_simlex_pairs", "{dataset}"),
    wildcard_constraints:
        dataset="nouns|verbs",
    conda:
        "../envs/biosem.yaml"
    resources:
        mem_mb=3000,
    params:
        pairs=plan.simlex.pairs,
        seed=plan.simlex.seed,
    script:
        "../scripts/build_simlex_pairs.py"


rule check_simlex_validity:
    input:
        unpack(plan.simlex.validity_inputs),
    output:
        validity=outputs.simlex_validity.template,
    log:
        paths.log("check_simlex_validity", "{dataset}"),
    wildcard_constraints:
        dataset="nouns|verbs",
    conda:
        "../envs/biosem.yaml"
    resources:
        mem_mb=2000,
    params:
        validity=plan.simlex.validity_params,
        nltk_data=plan.simlex.nltk_folders(),
    script:
        "../scripts/check_simlex_validity.py"


rule design_simlex_survey:
    input:
        pairs=outputs.simlex_pairs.template,
    output:
        survey=outputs.simlex_survey_items.template,
        sheets=plan.simlex.survey_sheets("{dataset}"),
        design=outputs.simlex_survey_design.template,
        instructions=outputs.simlex_survey_instructions.template,
    log:
        paths.log("design_simlex_survey", "{dataset}"),
    wildcard_constraints:
        dataset="nouns|verbs",
    localrule: True
    conda:
        "../envs/biosem.yaml"
    params:
        survey=plan.simlex.survey,
        seed=plan.simlex.seed,
    script:
        "../scripts/design_simlex_survey.py"


rule write_survey_forms:
    input:
        survey=outputs.simlex_survey_items.template,
        instructions=outputs.simlex_survey_instructions.template,
    output:
        forms=plan.simlex.survey_forms("{dataset}"),
    log:
        paths.log("write_survey_forms", "{dataset}"),
    wildcard_constraints:
        dataset="nouns|verbs",
    localrule: True
    conda:
        "../envs/biosem.yaml"
    params:
        survey=plan.simlex.survey,
    script:
        "../scripts/write_survey_forms.py"


rule write_crowdsourcing_survey:
    input:
        survey=outputs.simlex_survey_items.template,
        instructions=outputs.simlex_survey_instructions.template,
    output:
        batch=outputs.simlex_crowdsourcing_batch.template,
        template=outputs.simlex_crowdsourcing_task.template,
    log:
        paths.log("write_crowdsourcing_survey", "{dataset}"),
    wildcard_constraints:
        dataset="nouns|verbs",
    localrule: True
    conda:
        "../envs/biosem.yaml"
    params:
        scale_min=plan.simlex.scale_min,
        scale_max=plan.simlex.scale_max,
        dont_know=plan.simlex.dont_know,
    script:
        "../scripts/write_crowdsourcing_survey.py"
