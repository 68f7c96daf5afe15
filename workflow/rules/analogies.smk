# BMASS analogies from terminology relations (Newman-Griffis et al. 2017): term frequencies in a
# corpus, then Single-Answer / Multi-Answer / All-Info analogies per relation (docs/design.md § analogies).


rule count_term_frequencies_shard:
    input:
        unpack(plan.analogies.frequency_inputs),
    output:
        partial=temp(paths.shard("term_counts", "{terminology}")),
    log:
        paths.log("count_term_frequencies_shard", "{terminology}/{scatteritem}"),
    benchmark:
        paths.benchmark("count_term_frequencies_shard", "{terminology}/{scatteritem}")
    conda:
        "../envs/biosem.yaml"
    threads: 2
    resources:
        mem_mb=16000,  # a full UMLS (~10 M terms): one automaton per worker
    params:
        backend=plan.analogies.backend,
        chunk_mb=plan.analogies.chunk_mb,
        case_rules=plan.analogies.case_rules(),
        nltk_data=plan.analogies.nltk_folders(),
    script:
        "../scripts/count_term_frequencies_shard.py"


rule count_term_frequencies:
    input:
        terms=paths.intermediate("terms", "{terminology}"),
        partial=gather.corpus(paths.shard("term_counts", "{{terminology}}")),
    output:
        term_counts=paths.intermediate("term_counts", "{terminology}"),
    log:
        paths.log("count_term_frequencies", "{terminology}"),
    conda:
        "../envs/biosem.yaml"
    resources:
        mem_mb=8000,  # the terms of a full UMLS, normalised
    params:
        case_rules=plan.analogies.case_rules(),
        nltk_data=plan.analogies.nltk_folders(),
    script:
        "../scripts/count_term_frequencies.py"


rule build_analogies:
    input:
        relations=paths.intermediate("relations", "{terminology}"),
        concepts=paths.intermediate("concepts", "{terminology}"),
        term_counts=paths.intermediate("term_counts", "{terminology}"),
    output:
        **plan.analogies.dataset_outputs(),
        counts=outputs.analogy_counts.template,
    log:
        paths.log("build_analogies", "{terminology}"),
    benchmark:
        paths.benchmark("build_analogies", "{terminology}")
    conda:
        "../envs/biosem.yaml"
    resources:
        mem_mb=8000,
    params:
        construction=plan.analogies.construction,
    script:
        "../scripts/build_analogies.py"


rule check_analogy_validity:
    input:
        **plan.analogies.validity_inputs(),
        term_counts=paths.intermediate("term_counts", "{terminology}"),
        concepts=paths.intermediate("concepts", "{terminology}"),
    output:
        validity=outputs.analogy_validity.template,
    log:
        paths.log("check_analogy_validity", "{terminology}"),
    conda:
        "../envs/biosem.yaml"
    resources:
        mem_mb=2000,
    params:
        construction=plan.analogies.construction,
    script:
        "../scripts/check_analogy_validity.py"


rule summarise_analogies:
    input:
        counts=plan.analogies.summary_inputs(),
    output:
        summary=outputs.analogy_summary.template,
        relations=outputs.analogy_relations.template,
    log:
        paths.log("summarise_analogies", "summary"),
    localrule: True
    conda:
        "../envs/biosem.yaml"
    params:
        construction=plan.analogies.all_construction(),
    script:
        "../scripts/summarise_analogies.py"
