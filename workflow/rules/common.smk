# Config validation, target lists and wildcard constraints shared by every stage.
import os

from snakemake.utils import validate

from biosem.sources import licensed_files
from biosem.termpairs import DIFFICULTIES, POSITIVE_KINDS, STRATEGIES

validate(config, schema="../schemas/config.schema.yaml", set_default=True)

TERMINOLOGIES = config["terminologies"]
TERMINOLOGY_TABLES = ["concepts", "terms", "relations", "associations", "mappings"]


def terminologies_of(fmt):
    """Names of the configured terminologies in format ``fmt`` (rf2, rrf or obo)."""
    return sorted(n for n, spec in TERMINOLOGIES.items() if spec["format"] == fmt)


def name_pattern(names):
    """A wildcard constraint matching exactly these names (or nothing)."""
    return "|".join(names) if names else "(?!x)x"


wildcard_constraints:
    source=name_pattern(sorted(config["sources"])),
    terminology=name_pattern(sorted(TERMINOLOGIES)),
    kind=name_pattern(POSITIVE_KINDS),
    difficulty=name_pattern(DIFFICULTIES),
    strategy=name_pattern(STRATEGIES),


def source_file(name):
    """Path of public source ``name`` once fetched into resources/."""
    return f"resources/{name}/{config['sources'][name]['filename']}"


def source_spec(wildcards):
    return config["sources"][wildcards.source]


def terminology_spec(wildcards):
    return TERMINOLOGIES[wildcards.terminology]


def licensed_inputs(wildcards):
    """The files of a licensed release folder (rf2/rrf), so Snakemake tracks them."""
    spec = TERMINOLOGIES[wildcards.terminology]
    return licensed_files(wildcards.terminology, spec["path"], spec["format"])


def obo_input(wildcards):
    return source_file(TERMINOLOGIES[wildcards.terminology]["source"])


def intermediate(table, terminology):
    return f"results/intermediate/{table}/{terminology}.parquet"


def intermediates(terminology):
    return [intermediate(t, terminology) for t in TERMINOLOGY_TABLES]


def termpair_datasets(terminology):
    """The 20 dataset Parquet files of one terminology."""
    return expand(
        "results/datasets/termpairs/{terminology}/{kind}_{difficulty}_{strategy}.parquet",
        terminology=terminology,
        kind=POSITIVE_KINDS,
        difficulty=DIFFICULTIES,
        strategy=STRATEGIES,
    )


JOINT_SEARCH_KINDS = list(
    config["termpairs"].get("joint_search", ["fsn_syn", "syn_syn"])
)


def termpair_neighbours_file(terminology, difficulty):
    return (
        f"results/intermediate/termpair_neighbours/{terminology}/{difficulty}.parquet"
    )


def termpair_neighbours(wildcards):
    """The joint first search (rule search_termpair_neighbours) a Levenshtein dataset reads when its
    kind is in ``termpairs.joint_search``; nothing otherwise."""
    if wildcards.strategy == "levenshtein" and wildcards.kind in JOINT_SEARCH_KINDS:
        return {
            "neighbours": termpair_neighbours_file(
                wildcards.terminology, wildcards.difficulty
            )
        }
    return {}


def termpair_threads(wildcards):
    """The exact Levenshtein search scales with threads (term-length groups searched concurrently by
    the bit-parallel kernel; the outputs do not depend on them); random negatives are
    single-threaded. Snakemake caps threads at --cores.
    """
    return 8 if getattr(wildcards, "strategy", "levenshtein") == "levenshtein" else 1


def termpair_mem_mb(wildcards, input):
    """Peak memory grows with the positives + components (~72 MB at SNOMED CT scale: ~4.6 GB)."""
    return max(4000, int(64 * input.size_mb))


def termpair_runtime(wildcards, input, attempt):
    """Minutes: Levenshtein datasets of a full SNOMED CT release take hours on 2 cores (README
    "Benchmarks"); doubled on the retry."""
    if getattr(wildcards, "strategy", "levenshtein") != "levenshtein":
        return 30 * attempt
    return attempt * int(30 + 8 * input.size_mb)


def all_targets():
    targets = []
    for name in sorted(TERMINOLOGIES):
        targets += intermediates(name)
    for name in config["termpairs"]["terminologies"]:
        targets += termpair_datasets(name)
        targets.append(f"results/datasets/termpairs/{name}/counts.tsv")
    # Each stage file defines <stage>_targets(); they are included after this file.
    for stage_targets in (
        corpora_targets,
        wic_targets,
        analogies_targets,
        simlex_targets,
        agreement_targets,
        evaluate_targets,
        release_targets,
    ):
        targets += stage_targets()
    return targets
