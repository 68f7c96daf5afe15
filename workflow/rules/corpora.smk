# Corpus ingestion (PubTator: BC5CDR, NCBI Disease, MedMentions) into documents, sentences and
# mentions, one job per corpus.


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
