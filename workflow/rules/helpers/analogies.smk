# Helpers of the analogies stage (functions, config checks); its rules are in ../analogies.smk.

# BMASS analogies from terminology relations (Newman-Griffis et al. 2017): term frequencies in a corpus,
# then Single-Answer / Multi-Answer / All-Info analogies per relation (DESIGN.md § analogies).
import dataclasses

from biosem.analogies.construct import DATASETS as ANALOGY_DATASETS
from biosem.analogies.construct import params_from_config as analogy_params_from_config

ANALOGIES = config["analogies"]
ANALOGIES_OUT = "results/datasets/analogies/{terminology}"
# Plain path templates (targets) and the rule's outputs (some flagged for the report). Targets must
# stay plain: a report flag on `rule all`'s input makes `snakemake --report` expand the labels'
# {terminology} with rule all's (empty) wildcards.
ANALOGY_PATHS = {
    f"{name}_{ext}": f"{ANALOGIES_OUT}/{name}.{ext}"
    for name in ANALOGY_DATASETS
    for ext in ("txt", "parquet")
}
ANALOGY_OUTPUT = dict(ANALOGY_PATHS)
# The three settings' reference files are shown in the report.
for _name in ("single_answer", "multi_answer", "all_info"):
    ANALOGY_OUTPUT[f"{_name}_txt"] = report(
        ANALOGY_OUTPUT[f"{_name}_txt"],
        # relative to the rule file that uses it (../analogies.smk), not to this file
        caption="../report/analogies_dataset.rst",
        category="Analogies",
        labels={"terminology": "{terminology}", "dataset": _name},
    )

for _name in ANALOGIES["terminologies"] + sorted(ANALOGIES["overrides"]):
    if _name not in TERMINOLOGIES:
        raise ValueError(
            f"config analogies: {_name!r} is not a configured terminology (keys of `terminologies`)"
        )
for _name in ANALOGIES["corpora"]:
    if _name not in config["corpora"]["specs"]:
        raise ValueError(
            f"config analogies.corpora: {_name!r} has no entry in corpora.specs; "
            "list a configured corpus or give the text under analogies.text_files"
        )


def term_frequency_inputs(wildcards):
    """The terminology's terms and the frequency corpus (documents Parquet, then text files)."""
    return {
        "terms": intermediate("terms", wildcards.terminology),
        "documents": expand(
            "results/intermediate/documents/{corpus}.parquet",
            corpus=ANALOGIES["corpora"],
        ),
        "text_files": ANALOGIES["text_files"],
    }


def analogy_construction(wildcards):
    """Construction parameters of one terminology (global values, its overrides, its format)."""
    params = analogy_params_from_config(
        ANALOGIES,
        wildcards.terminology,
        TERMINOLOGIES[wildcards.terminology]["format"],
        config["seed"],
    )
    return dataclasses.asdict(params)


def analogy_outputs(terminology):
    """Every output of one terminology: term counts, six datasets (text + Parquet), counts."""
    out = [f"results/intermediate/term_counts/{terminology}.parquet"]
    out += [path.format(terminology=terminology) for path in ANALOGY_PATHS.values()]
    out.append(f"{ANALOGIES_OUT}/counts.tsv".format(terminology=terminology))
    return out


def analogies_targets():
    """Outputs of this stage requested by `rule all`."""
    return [
        path for name in ANALOGIES["terminologies"] for path in analogy_outputs(name)
    ]
