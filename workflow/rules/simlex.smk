# Bio-SimLex / Bio-SimVerb vocabulary, pairs and survey (Chiu et al. 2018).
# Rules only; functions and config checks are in helpers/simlex.smk (included first).


rule count_corpus_words:
    input:
        sentences=simlex_workflow.sentence_tables(SIMLEX),
        text_files=SIMLEX["text_files"],
        lrspl=simlex_workflow.optional_file(SIMLEX, "specialist", "lrspl"),
    output:
        counts=f"results/intermediate/word_counts/{SIMLEX_NAME}.parquet",
        filters=report(
            "results/datasets/simlex/vocabulary/filters.tsv",
            caption="../report/simlex_filters.rst",
            category="Simlex",
            labels={"table": "vocabulary filters"},
        ),
    log:
        f"logs/count_corpus_words/{SIMLEX_NAME}.log",
    benchmark:
        f"benchmarks/count_corpus_words/{SIMLEX_NAME}.tsv"
    conda:
        "../envs/biosem.yaml"
    threads: 2
    resources:
        mem_mb=4000,
    params:
        vocabulary=SIMLEX["vocabulary"],
        deduplicate=SIMLEX["deduplicate_documents"],
        nltk_data=SIMLEX_NLTK,
    script:
        "../scripts/count_corpus_words.py"


rule split_word_domains:
    input:
        counts=f"results/intermediate/word_counts/{SIMLEX_NAME}.parquet",
        filters="results/datasets/simlex/vocabulary/filters.tsv",
        reviewed=simlex_workflow.optional_file(SIMLEX, "domain", "reviewed"),
    output:
        domains=f"results/intermediate/word_domains/{SIMLEX_NAME}.parquet",
        sheet=report(
            "results/datasets/simlex/review/domains.csv",
            caption="../report/simlex_domains.rst",
            category="Simlex",
            labels={"table": "domain review sheet"},
        ),
        correlation=report(
            "results/datasets/simlex/vocabulary/frequency_correlation.tsv",
            caption="../report/simlex_correlation.rst",
            category="Simlex",
            labels={"table": "corpus vs general-English frequency"},
        ),
    log:
        f"logs/split_word_domains/{SIMLEX_NAME}.log",
    conda:
        "../envs/biosem.yaml"
    resources:
        mem_mb=2000,
    params:
        domain=SIMLEX["domain"],
    script:
        "../scripts/split_word_domains.py"


rule parse_usf:
    input:
        source_file(SIMLEX["usf"]["source"]),
    output:
        "results/intermediate/usf/usf.parquet",
    log:
        "logs/parse_usf/usf.log",
    conda:
        "../envs/biosem.yaml"
    resources:
        mem_mb=2000,
    params:
        expected_rows=SIMLEX["usf"]["expected_rows"],
        expected_cues=SIMLEX["usf"]["expected_cues"],
    script:
        "../scripts/parse_usf.py"


rule collect_lexical_relations:
    input:
        domains=f"results/intermediate/word_domains/{SIMLEX_NAME}.parquet",
        terms=simlex_workflow.terminology_tables(SIMLEX, "terms"),
        relations=simlex_workflow.terminology_tables(SIMLEX, "relations"),
        synonym_tables=simlex_workflow.synonym_tables(SIMLEX),
        lrspl=simlex_workflow.optional_file(SIMLEX, "specialist", "lrspl"),
        lragr=simlex_workflow.optional_file(SIMLEX, "specialist", "lragr"),
        lrnom=simlex_workflow.optional_file(SIMLEX, "specialist", "lrnom"),
    output:
        variants=f"results/intermediate/lexicon_variants/{SIMLEX_NAME}.parquet",
        relations=f"results/intermediate/lexical_relations/{SIMLEX_NAME}.parquet",
    log:
        f"logs/collect_lexical_relations/{SIMLEX_NAME}.log",
    conda:
        "../envs/biosem.yaml"
    resources:
        mem_mb=3000,
    params:
        resources=SIMLEX["resources"],
        spelling=SIMLEX["vocabulary"],
        nltk_data=SIMLEX_NLTK,
    script:
        "../scripts/collect_lexical_relations.py"


rule build_simlex_pairs:
    input:
        domains=f"results/intermediate/word_domains/{SIMLEX_NAME}.parquet",
        relations=f"results/intermediate/lexical_relations/{SIMLEX_NAME}.parquet",
        usf="results/intermediate/usf/usf.parquet",
        accepted=simlex_workflow.optional_file(SIMLEX, "pairs", "accepted"),
    output:
        pairs="results/datasets/simlex/{dataset}/pairs.parquet",
        tsv="results/datasets/simlex/{dataset}/pairs.tsv",
        counts=report(
            "results/datasets/simlex/{dataset}/counts.tsv",
            caption="../report/simlex_counts.rst",
            category="Simlex",
            labels={"dataset": "{dataset}", "table": "pairs per quarter"},
        ),
        review_biomedical="results/datasets/simlex/{dataset}/review_associated_biomedical.csv",
        review_general="results/datasets/simlex/{dataset}/review_associated_general.csv",
    log:
        "logs/build_simlex_pairs/{dataset}.log",
    wildcard_constraints:
        dataset="nouns|verbs",
    conda:
        "../envs/biosem.yaml"
    resources:
        mem_mb=3000,
    params:
        pairs=SIMLEX["pairs"],
        seed=config["seed"],
    script:
        "../scripts/build_simlex_pairs.py"


rule design_simlex_survey:
    input:
        pairs="results/datasets/simlex/{dataset}/pairs.parquet",
    output:
        survey="results/datasets/simlex/survey/{dataset}/items.parquet",
        sheets=expand(
            "results/datasets/simlex/survey/{{dataset}}/group{group}.csv",
            group=SIMLEX_GROUPS,
        ),
        design=report(
            "results/datasets/simlex/survey/{dataset}/design.tsv",
            caption="../report/simlex_survey.rst",
            category="Simlex",
            labels={"dataset": "{dataset}", "table": "survey design"},
        ),
        instructions=report(
            "results/datasets/simlex/survey/{dataset}/instructions.md",
            caption="../report/simlex_instructions.rst",
            category="Simlex",
            labels={"dataset": "{dataset}", "table": "annotator instructions"},
        ),
    log:
        "logs/design_simlex_survey/{dataset}.log",
    wildcard_constraints:
        dataset="nouns|verbs",
    localrule: True
    conda:
        "../envs/biosem.yaml"
    params:
        survey=SIMLEX["survey"],
        seed=config["seed"],
    script:
        "../scripts/design_simlex_survey.py"
