# Corpus ingestion into documents, sentences and mentions, one rule per format (each constrained to
# the corpora of its format), one job per corpus: PubTator (BC5CDR, NCBI Disease, BioRED,
# MedMentions) and token-per-line files (conll: the MTL-Bioinformatics-2016 corpora).


rule ingest_pubtator:
    input:
        unpack(plan.corpora.inputs),
        checksums=plan.corpora.checksums,
    output:
        documents=paths.intermediate("documents", "{corpus}"),
        sentences=paths.intermediate("sentences", "{corpus}"),
        mentions=paths.intermediate("mentions", "{corpus}"),
        counts=outputs.corpus_counts.template,
    log:
        paths.log("ingest_pubtator", "{corpus}"),
    benchmark:
        paths.benchmark("ingest_pubtator", "{corpus}")
    wildcard_constraints:
        corpus=name_pattern(plan.corpora.of_format("pubtator")),
    conda:
        "../envs/biosem.yaml"
    threads: 2
    resources:
        mem_mb=2000,
    params:
        spec=lookup(dpath="corpora/specs/{corpus}", within=config),
        sentences=config["corpora"]["sentences"],
    script:
        "../scripts/ingest_pubtator.py"


rule ingest_conll:
    input:
        unpack(plan.corpora.inputs),
        checksums=plan.corpora.checksums,
    output:
        documents=paths.intermediate("documents", "{corpus}"),
        sentences=paths.intermediate("sentences", "{corpus}"),
        mentions=paths.intermediate("mentions", "{corpus}"),
        counts=outputs.corpus_counts.template,
    log:
        paths.log("ingest_conll", "{corpus}"),
    benchmark:
        paths.benchmark("ingest_conll", "{corpus}")
    wildcard_constraints:
        corpus=name_pattern(plan.corpora.of_format("conll")),
    conda:
        "../envs/biosem.yaml"
    resources:
        mem_mb=2000,
    params:
        spec=lookup(dpath="corpora/specs/{corpus}", within=config),
    script:
        "../scripts/ingest_conll.py"
