# Terminology ingestion: one adapter per format, five validated Parquet intermediates per terminology.

INGEST_OUTPUT = {
    table: f"results/intermediate/{table}/{{terminology}}.parquet"
    for table in TERMINOLOGY_TABLES
}


rule ingest_snomed:
    input:
        licensed_inputs,
    output:
        **INGEST_OUTPUT,
    log:
        "logs/ingest_snomed/{terminology}.log",
    benchmark:
        "benchmarks/ingest_snomed/{terminology}.tsv"
    wildcard_constraints:
        terminology=name_pattern(terminologies_of("rf2")),
    conda:
        "../envs/biosem.yaml"
    resources:
        mem_mb=6000,
    params:
        spec=terminology_spec,
    script:
        "../scripts/ingest_snomed.py"


rule ingest_umls:
    input:
        licensed_inputs,
    output:
        **INGEST_OUTPUT,
    log:
        "logs/ingest_umls/{terminology}.log",
    benchmark:
        "benchmarks/ingest_umls/{terminology}.tsv"
    wildcard_constraints:
        terminology=name_pattern(terminologies_of("rrf")),
    conda:
        "../envs/biosem.yaml"
    threads: 2
    resources:
        # biosem.terminology.rrf.write_rrf on a full-size release (MRCONSO 16 M, MRREL 60 M rows):
        # peak RSS 2.5 GB, 6 min on 2 loaded cores (README, "Benchmarks", scale).
        mem_mb=4000,
        runtime=30,
    params:
        spec=terminology_spec,
    script:
        "../scripts/ingest_umls.py"


rule ingest_obo:
    input:
        obo_input,
    output:
        **INGEST_OUTPUT,
    log:
        "logs/ingest_obo/{terminology}.log",
    wildcard_constraints:
        terminology=name_pattern(terminologies_of("obo")),
    conda:
        "../envs/biosem.yaml"
    resources:
        mem_mb=2000,
    params:
        spec=terminology_spec,
    script:
        "../scripts/ingest_obo.py"
