# Terminology ingestion: one adapter per format, five validated Parquet intermediates per terminology.


rule ingest_snomed:
    input:
        plan.terminologies.licensed_inputs,
    output:
        **plan.terminologies.ingest_outputs(),
    log:
        paths.log("ingest_snomed", "{terminology}"),
    benchmark:
        paths.benchmark("ingest_snomed", "{terminology}")
    wildcard_constraints:
        terminology=name_pattern(plan.terminologies.of_format("rf2")),
    conda:
        "../envs/biosem.yaml"
    resources:
        mem_mb=6000,
    params:
        spec=plan.terminologies.spec,
    script:
        "../scripts/ingest_snomed.py"


rule ingest_umls:
    input:
        plan.terminologies.licensed_inputs,
    output:
        **plan.terminologies.ingest_outputs(),
    log:
        paths.log("ingest_umls", "{terminology}"),
    benchmark:
        paths.benchmark("ingest_umls", "{terminology}")
    wildcard_constraints:
        terminology=name_pattern(plan.terminologies.of_format("rrf")),
    conda:
        "../envs/biosem.yaml"
    threads: 2
    resources:
        # a full-size release (MRCONSO 16 M, MRREL 60 M rows) stays under 4 GB (docs/benchmarks.md)
        mem_mb=4000,
        runtime=30,
    params:
        spec=plan.terminologies.spec,
    script:
        "../scripts/ingest_umls.py"


rule ingest_obo:
    input:
        obo=plan.terminologies.obo_input,
        checksums=plan.terminologies.obo_checksums,
    output:
        **plan.terminologies.ingest_outputs(),
    log:
        paths.log("ingest_obo", "{terminology}"),
    benchmark:
        paths.benchmark("ingest_obo", "{terminology}")
    wildcard_constraints:
        terminology=name_pattern(plan.terminologies.of_format("obo")),
    conda:
        "../envs/biosem.yaml"
    resources:
        mem_mb=2000,
    params:
        spec=plan.terminologies.spec,
    script:
        "../scripts/ingest_obo.py"


rule ingest_mesh:
    input:
        unpack(plan.terminologies.mesh_inputs),
        checksums=plan.terminologies.mesh_checksums,
    output:
        **plan.terminologies.ingest_outputs(),
    log:
        paths.log("ingest_mesh", "{terminology}"),
    benchmark:
        paths.benchmark("ingest_mesh", "{terminology}")
    wildcard_constraints:
        terminology=name_pattern(plan.terminologies.of_format("mesh")),
    conda:
        "../envs/biosem.yaml"
    resources:
        # MeSH 2024 with its 323,304 supplementary records peaks near 1 GB
        mem_mb=3000,
    params:
        spec=plan.terminologies.spec,
    script:
        "../scripts/ingest_mesh.py"
