# Corpus ingestion (PubTator: BC5CDR, NCBI Disease, MedMentions) into documents/sentences/mentions.
# Wiring helpers live in biosem.workflow.corpora (this file defines no functions: snakemake --lint).
from functools import partial

from biosem.workflow.corpora import check_build, corpus_inputs, corpus_targets

check_build(config)

# Names other stages use: the corpora section and its specs (keys = corpus names).
CORPORA = config["corpora"]
CORPUS_SPECS = CORPORA["specs"]

# `rule all` collects the stage's outputs through corpora_targets() (common.smk).
corpora_targets = partial(corpus_targets, config)


rule ingest_pubtator:
    input:
        unpack(partial(corpus_inputs, config, source_file)),
    output:
        documents="results/intermediate/documents/{corpus}.parquet",
        sentences="results/intermediate/sentences/{corpus}.parquet",
        mentions="results/intermediate/mentions/{corpus}.parquet",
        counts=report(
            "results/intermediate/corpus_counts/{corpus}.tsv",
            caption="../report/corpora_counts.rst",
            category="Corpora",
            labels={"corpus": "{corpus}", "table": "counts per split"},
        ),
    log:
        "logs/ingest_pubtator/{corpus}.log",
    benchmark:
        "benchmarks/ingest_pubtator/{corpus}.tsv"
    wildcard_constraints:
        corpus=name_pattern(sorted(CORPUS_SPECS)),
    conda:
        "../envs/biosem.yaml"
    threads: 2
    resources:
        mem_mb=2000,
    params:
        spec=lookup(dpath="corpora/specs/{corpus}", within=config),
        sentences=CORPORA["sentences"],
    script:
        "../scripts/ingest_pubtator.py"
