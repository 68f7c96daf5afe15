"""Every path the workflow reads or writes: ``resources/``, ``results/``, ``logs/``, ``benchmarks/``.

The one place paths are spelled. Rule files build their ``output:`` templates from these functions
with wildcard placeholders (``paths.termpair_dataset("{terminology}", "{dataset}")``); target lists,
input functions and the release registry call them with concrete names. Paths are relative to the
folder Snakemake runs in (the repository root by default).

Layout (docs/design.md § Data flow)::

    resources/<source>/<file>                              public sources, fetched and verified
    resources/<source>/<file>.sha256                       their pinned content sha256 (re-checked on use)
    results/intermediate/<table>/<name>.parquet            terminology, corpus and count tables
    results/intermediate/<table>_shards/<name>/<k>-of-<N>.parquet   one shard's partial counts (temporary)
    results/datasets/<family>/...                          the datasets
    results/evaluation/..., results/agreement/...          scores and agreement
    results/release/<version>/<visibility>/...             releases
    logs/<rule>/<name>.log, benchmarks/<rule>/<name>.tsv   one per job
"""

from __future__ import annotations

from collections.abc import Iterable

RESOURCES = "resources"
RESULTS = "results"
LOGS = "logs"
BENCHMARKS = "benchmarks"

INTERMEDIATE = f"{RESULTS}/intermediate"
DATASETS = f"{RESULTS}/datasets"
EVALUATION = f"{RESULTS}/evaluation"
AGREEMENT = f"{RESULTS}/agreement"
STUDIES = f"{AGREEMENT}/studies"
RELEASE = f"{RESULTS}/release"

# --- every stage -------------------------------------------------------------------------------


def log(rule: str, name: str) -> str:
    """Log file of one job of ``rule`` (``name`` holds its wildcards, e.g. ``hpo/easy``)."""
    return f"{LOGS}/{rule}/{name}.log"


def benchmark(rule: str, name: str) -> str:
    """Snakemake benchmark table of one job of ``rule``."""
    return f"{BENCHMARKS}/{rule}/{name}.tsv"


def source(name: str, filename: str) -> str:
    """A public source once fetched (``sources.<name>.filename``)."""
    return f"{RESOURCES}/{name}/{filename}"


CHECKSUM_SUFFIX = ".sha256"


def source_checksum(name: str, filename: str) -> str:
    """The sidecar the fetch writes beside a source: its verified, pinned content sha256
    (``resources/<source>/<file>.sha256``; biosem.sources.verify_fetched re-checks the file against it)."""
    return f"{source(name, filename)}{CHECKSUM_SUFFIX}"


def checksums(files: Iterable[str]) -> list[str]:
    """The sidecars (:func:`source_checksum`) of the fetched sources among ``files`` (those under
    ``resources/``; a local file given by path has none), in order: the ``checksums`` input of a rule
    that reads sources."""
    return [f"{f}{CHECKSUM_SUFFIX}" for f in files if f.startswith(f"{RESOURCES}/")]


def intermediate(table: str, name: str, ext: str = "parquet") -> str:
    """An intermediate table: ``table`` is its kind (``terms``, ``sentences``, ``term_counts``, ...)
    and ``name`` the terminology, corpus or vocabulary it belongs to."""
    return f"{INTERMEDIATE}/{table}/{name}.{ext}"


def shard(table: str, name: str, item: str = "{scatteritem}") -> str:
    """One shard's partial counts towards the ``table`` intermediate of ``name`` (``item``: Snakemake's
    scatter item ``<k>-of-<N>``); merged into :func:`intermediate` ``(table, name)``."""
    return f"{INTERMEDIATE}/{table}_shards/{name}/{item}.parquet"


# --- termpairs ---------------------------------------------------------------------------------


def termpairs(terminology: str, name: str, ext: str = "parquet") -> str:
    """A file of one terminology's term-pair folder: ``positives``, ``components``, a dataset
    (``fsn_syn_easy_random``, ...) or ``counts`` (ext ``tsv``)."""
    return f"{DATASETS}/termpairs/{terminology}/{name}.{ext}"


def termpair_stats(terminology: str, dataset: str) -> str:
    """Counts of one term-pair dataset, collected into its ``counts.tsv``."""
    return f"{DATASETS}/termpairs/{terminology}/stats/{dataset}.json"


def termpair_neighbours(terminology: str, difficulty: str) -> str:
    """The joint first nearest-term search of one terminology and difficulty."""
    return f"{INTERMEDIATE}/termpair_neighbours/{terminology}/{difficulty}.parquet"


# --- corpora -----------------------------------------------------------------------------------


def corpus_counts(corpus: str) -> str:
    """Documents, sentences and mentions per split of one ingested corpus."""
    return intermediate("corpus_counts", corpus, "tsv")


# --- analogies ---------------------------------------------------------------------------------


def analogies(terminology: str, name: str, ext: str) -> str:
    """A file of one terminology's analogy folder: a setting (``single_answer``, ...) or ``counts``."""
    return f"{DATASETS}/analogies/{terminology}/{name}.{ext}"


def analogies_summary(name: str) -> str:
    """A table over every terminology's analogies: ``summary`` (one row per terminology) or
    ``relations`` (one row per relation), each followed by the BMASS paper's figures."""
    return f"{DATASETS}/analogies/{name}.tsv"


# --- wic ---------------------------------------------------------------------------------------


def wic(name: str, ext: str) -> str:
    """A file of the BioWiC dataset folder: a split (``train``, ``dev``, ``test``) or a table."""
    return f"{DATASETS}/wic/{name}.{ext}"


def wic_work(name: str) -> str:
    """An intermediate of the wic stage (``selected``, ``corpus_terms``, ``candidates``)."""
    return f"{INTERMEDIATE}/wic/{name}.parquet"


# --- simlex ------------------------------------------------------------------------------------


def simlex(*parts: str) -> str:
    """A file of the Bio-SimLex / Bio-SimVerb folder, e.g. ``simlex("nouns", "pairs.parquet")``."""
    return "/".join((f"{DATASETS}/simlex", *parts))


def rated(name: str, ext: str) -> str:
    """A rated dataset aggregated from a rating set (``rated/<name>.{txt,parquet}``)."""
    return simlex("rated", f"{name}.{ext}")


# --- agreement ---------------------------------------------------------------------------------


def rating_agreement(name: str) -> str:
    """IAA-1 / IAA-2 / Krippendorff's alpha of one rating set."""
    return f"{AGREEMENT}/ratings/{name}.tsv"


def rater_agreement(name: str) -> str:
    """Per-rater agreement and exclusion of one rating set."""
    return f"{AGREEMENT}/ratings/raters/{name}.tsv"


def study(family: str, *parts: str) -> str:
    """A file of an expert study (``family`` is ``termpairs/<terminology>`` or ``wic``)."""
    return "/".join((f"{STUDIES}/{family}", *parts))


# --- evaluate ----------------------------------------------------------------------------------


def evaluation(*parts: str) -> str:
    """A file of the evaluation folder, e.g. ``evaluation("termpairs", "glove.parquet")``."""
    return "/".join((EVALUATION, *parts))


# --- release -----------------------------------------------------------------------------------


def release(version: str, *parts: str) -> str:
    """A file or folder of release ``version`` (``release("0.1.0", "public", "SHA256SUMS")``)."""
    return "/".join((f"{RELEASE}/{version}", *parts))


def licensed_checksums(terminology: str) -> str:
    """sha256 of every file of a licensed release folder (provenance of restricted datasets)."""
    return f"{RELEASE}/checksums/{terminology}.tsv"


# --- report ------------------------------------------------------------------------------------

REPORT = f"{RESULTS}/report"


def report_page(source: str) -> str:
    """The HTML page that shows the table or text file ``source`` (a path under ``results/``) in
    the Snakemake report: ``results/report/pages/<source under results/>.html``."""
    return f"{REPORT}/pages/{source.removeprefix(RESULTS + '/')}.html"


def report_plot(family: str, name: str) -> str:
    """A plot of a family's datasets for the Snakemake report (``report_plot("termpairs", "hpo")``)."""
    return f"{REPORT}/plots/{family}/{name}.png"
