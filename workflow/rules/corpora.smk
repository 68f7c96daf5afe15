# Corpus ingestion into documents, sentences and mentions (biosem.corpora.schemas), one job per corpus.
# One rule per corpus format (biosem.corpora.formats), each constrained to the corpora of its format, so
# exactly one rule writes a corpus: a new format is one more rule here, its script and its reader.
# PubTator (BC5CDR, NCBI Disease, BioRED, MedMentions), CRAFT, token-per-line files (conll: MTL-2016).
# Priority 20 (with train_word2vec): the corpora gate word2vec training, whose single-threaded jobs are the
# longest of the default; started first, they run beside each other instead of beside an idle core.


rule ingest_pubtator:
    input:
        unpack(plan.corpora.inputs),
        checksums=plan.corpora.checksums,
    output:
        **plan.corpora.ingest_outputs(),
    log:
        paths.log("ingest_pubtator", "{corpus}"),
    benchmark:
        paths.benchmark("ingest_pubtator", "{corpus}")
    wildcard_constraints:
        corpus=name_pattern(plan.corpora.of_format("pubtator")),
    priority: 20
    conda:
        "../envs/biosem.yaml"
    threads: 2
    resources:
        mem_mb=2000,
    params:
        spec=plan.corpora.spec,
        sentences=plan.corpora.sentences,
    script:
        "../scripts/ingest_pubtator.py"


# CRAFT (the v5.0.2 release tarball, read without unpacking): its per-article open-access notices as well.
rule ingest_craft:
    input:
        unpack(plan.corpora.inputs),
        checksums=plan.corpora.checksums,
    output:
        **plan.corpora.ingest_outputs(),
        module_counts=outputs.corpus_module_counts.template,
        notices=paths.intermediate("notices", "{corpus}"),
    log:
        paths.log("ingest_craft", "{corpus}"),
    benchmark:
        paths.benchmark("ingest_craft", "{corpus}")
    wildcard_constraints:
        corpus=name_pattern(plan.corpora.of_format("craft")),
    priority: 20
    conda:
        "../envs/biosem.yaml"
    threads: 2
    resources:
        mem_mb=2000,
    params:
        spec=plan.corpora.spec,
        sentences=plan.corpora.sentences,
    script:
        "../scripts/ingest_craft.py"


# Token-per-line text without offsets (the MTL-Bioinformatics-2016 corpora): documents and sentences for
# word and term counting and word2vec; an empty mentions table.
rule ingest_conll:
    input:
        unpack(plan.corpora.inputs),
        checksums=plan.corpora.checksums,
    output:
        **plan.corpora.ingest_outputs(),
    log:
        paths.log("ingest_conll", "{corpus}"),
    benchmark:
        paths.benchmark("ingest_conll", "{corpus}")
    wildcard_constraints:
        corpus=name_pattern(plan.corpora.of_format("conll")),
    priority: 20
    conda:
        "../envs/biosem.yaml"
    resources:
        mem_mb=2000,
    params:
        spec=plan.corpora.spec,
    script:
        "../scripts/ingest_conll.py"
