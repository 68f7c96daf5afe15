# Helpers of the wic stage (functions, config checks); its rules are in ../wic.smk.

# BioWiC word-in-context splits (Rouhizadeh et al., Scientific Data 2024).
# select mentions -> candidate pairs by blocking -> test/dev/train -> validation (DESIGN.md § wic).


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
