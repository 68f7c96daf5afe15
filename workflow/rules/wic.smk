# BioWiC word-in-context splits (Rouhizadeh et al., Scientific Data 2024).
# select mentions -> candidate pairs by blocking -> test/dev/train -> validation (DESIGN.md § wic).


validate(config["wic"], schema="../schemas/wic.schema.yaml")

WIC = config["wic"]
WIC_WORK = "results/intermediate/wic"
WIC_OUT = "results/datasets/wic"
WIC_SPLITS = ["train", "dev", "test"]


def wic_check_corpora():
    """Stop with the config key to set when wic.corpora names a corpus the corpora stage lacks."""
    unknown = [c for c in WIC["corpora"] if c not in CORPUS_SPECS]
    if unknown:
        raise ValueError(
            f"config wic.corpora lists {', '.join(unknown)}, which have no entry in corpora.specs "
            f"(configured: {', '.join(sorted(CORPUS_SPECS))})."
        )


wic_check_corpora()


def wic_terminology():
    """The configured UMLS terminology (format rrf), or None."""
    name = WIC["terminology"]
    if name is not None and TERMINOLOGIES.get(name, {}).get("format") != "rrf":
        raise ValueError(
            f"config wic.terminology: {name!r} must name a terminology of format rrf (UMLS), or be null"
        )
    return name


def wic_corpus_tables(kind):
    """One intermediate per configured corpus (sentences or mentions), in config order."""
    return expand(
        "results/intermediate/{kind}/{corpus}.parquet", kind=kind, corpus=WIC["corpora"]
    )


def wic_terminology_tables(*tables):
    """The UMLS terminology's intermediates by table name (none without a terminology)."""
    name = wic_terminology()
    return {} if name is None else {t: intermediate(t, name) for t in tables}


def wic_select_inputs(wildcards):
    return {
        "sentences": wic_corpus_tables("sentences"),
        "mentions": wic_corpus_tables("mentions"),
        **wic_terminology_tables("concepts", "mappings"),
    }


def wic_candidate_inputs(wildcards):
    return {
        "selected": f"{WIC_WORK}/selected.parquet",
        "corpus_terms": f"{WIC_WORK}/corpus_terms.parquet",
        **wic_terminology_tables("terms", "relations", "mappings"),
    }


def wic_nltk_folders():
    """Where WordNet is looked for after $NLTK_DATA: config wic.nltk_data, then <mirror>/nltk_data."""
    folders = [WIC["nltk_data"]] if WIC["nltk_data"] else []
    return folders + [os.path.join(m, "nltk_data") for m in config["mirror_dirs"]]


rule select_wic_mentions:
    input:
        unpack(wic_select_inputs),
    output:
        selected=f"{WIC_WORK}/selected.parquet",
        corpus_terms=f"{WIC_WORK}/corpus_terms.parquet",
        counts=report(
            f"{WIC_OUT}/selection_counts.tsv",
            caption="../report/wic_selection.rst",
            category="wic",
            labels={"table": "mentions and sentences per step"},
        ),
    log:
        "logs/select_wic_mentions/wic.log",
    benchmark:
        "benchmarks/select_wic_mentions/wic.tsv"
    conda:
        "../envs/biosem.yaml"
    resources:
        mem_mb=4000,
    params:
        seed=config["seed"],
        terminology=wic_terminology(),
        code_systems=WIC["code_systems"],
        nltk_data=wic_nltk_folders(),
    script:
        "../scripts/select_wic_mentions.py"


rule build_wic_candidates:
    input:
        unpack(wic_candidate_inputs),
    output:
        candidates=f"{WIC_WORK}/candidates.parquet",
        counts=report(
            f"{WIC_OUT}/candidate_counts.tsv",
            caption="../report/wic_candidates.rst",
            category="wic",
            labels={"table": "candidate pairs per group"},
        ),
    log:
        "logs/build_wic_candidates/wic.log",
    benchmark:
        "benchmarks/build_wic_candidates/wic.tsv"
    conda:
        "../envs/biosem.yaml"
    threads: 2
    resources:
        mem_mb=8000,
    params:
        seed=config["seed"],
        wic=WIC,
    script:
        "../scripts/build_wic_candidates.py"


rule split_wic:
    input:
        candidates=f"{WIC_WORK}/candidates.parquet",
        selected=f"{WIC_WORK}/selected.parquet",
    output:
        train_json=f"{WIC_OUT}/train.json",
        dev_json=f"{WIC_OUT}/dev.json",
        test_json=f"{WIC_OUT}/test.json",
        train_parquet=f"{WIC_OUT}/train.parquet",
        dev_parquet=f"{WIC_OUT}/dev.parquet",
        test_parquet=f"{WIC_OUT}/test.parquet",
        quotas=f"{WIC_OUT}/quotas.json",
        counts=report(
            f"{WIC_OUT}/counts.tsv",
            caption="../report/wic_counts.rst",
            category="wic",
            labels={"table": "instances per split, group and label"},
        ),
    log:
        "logs/split_wic/wic.log",
    benchmark:
        "benchmarks/split_wic/wic.tsv"
    conda:
        "../envs/biosem.yaml"
    resources:
        mem_mb=4000,
    params:
        seed=config["seed"],
        wic=WIC,
    script:
        "../scripts/split_wic.py"


rule validate_wic:
    input:
        train=f"{WIC_OUT}/train.json",
        dev=f"{WIC_OUT}/dev.json",
        test=f"{WIC_OUT}/test.json",
        quotas=f"{WIC_OUT}/quotas.json",
    output:
        report=report(
            f"{WIC_OUT}/validation.txt",
            caption="../report/wic_validation.rst",
            category="wic",
            labels={"table": "validation"},
        ),
    log:
        "logs/validate_wic/wic.log",
    localrule: True
    conda:
        "../envs/biosem.yaml"
    params:
        train_sentence_cap=WIC["train_sentence_cap"],
    script:
        "../scripts/validate_wic.py"


def wic_targets():
    """Outputs of this stage requested by `rule all`."""
    return [
        *expand(
            f"{WIC_OUT}/{{split}}.{{ext}}", split=WIC_SPLITS, ext=["json", "parquet"]
        ),
        f"{WIC_OUT}/counts.tsv",
        f"{WIC_OUT}/candidate_counts.tsv",
        f"{WIC_OUT}/selection_counts.tsv",
        f"{WIC_OUT}/validation.txt",
    ]
