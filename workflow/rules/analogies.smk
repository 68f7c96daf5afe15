# Rules of the analogies stage; its functions and config checks are in helpers/analogies.smk.


rule count_term_frequencies:
    input:
        unpack(term_frequency_inputs),
    output:
        term_counts="results/intermediate/term_counts/{terminology}.parquet",
    log:
        "logs/count_term_frequencies/{terminology}.log",
    benchmark:
        "benchmarks/count_term_frequencies/{terminology}.tsv"
    conda:
        "../envs/biosem.yaml"
    threads: 2
    resources:
        mem_mb=16000,  # a full UMLS (~10 M terms): one automaton per worker
    params:
        backend=ANALOGIES["backend"],
        chunk_mb=ANALOGIES["chunk_mb"],
    script:
        "../scripts/count_term_frequencies.py"


rule build_analogies:
    input:
        relations=intermediate("relations", "{terminology}"),
        concepts=intermediate("concepts", "{terminology}"),
        term_counts="results/intermediate/term_counts/{terminology}.parquet",
    output:
        **ANALOGY_OUTPUT,
        counts=report(
            f"{ANALOGIES_OUT}/counts.tsv",
            caption="../report/analogies_counts.rst",
            category="Analogies",
            labels={"terminology": "{terminology}", "table": "counts (Table 2)"},
        ),
    log:
        "logs/build_analogies/{terminology}.log",
    benchmark:
        "benchmarks/build_analogies/{terminology}.tsv"
    conda:
        "../envs/biosem.yaml"
    resources:
        mem_mb=8000,
    params:
        construction=analogy_construction,
    script:
        "../scripts/build_analogies.py"
