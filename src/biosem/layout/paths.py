"""Every folder the workflow reads or writes: ``resources/``, ``results/``, ``logs/``, ``benchmarks/``.

The one place folders are spelled, and the paths whose names are not fixed by code (a source's file,
an intermediate table of a terminology or corpus, a log, a release). The files a stage writes inside
its folders are declared in :mod:`biosem.layout.outputs`, which builds their templates from the folders
here. Paths are relative to the folder Snakemake runs in (the repository root by default).

Layout (docs/design.md § Data flow)::

    resources/<source>/<file>                              public sources, fetched and verified
    resources/<source>/<file>.sha256                       their pinned content sha256 (re-checked on use)
    results/intermediate/<table>/<name>.parquet            terminology, corpus and count tables
    results/intermediate/<table>_shards/<name>/<k>-of-<N>.parquet   one shard's partial counts (temporary)
    results/datasets/<family>/...                          the datasets
    results/evaluation/..., results/agreement/...          scores and agreement
    results/report/{pages,plots}/...                       what the Snakemake report shows
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


# --- the families' folders (their files: biosem.layout.outputs) -------------------------------

TERMPAIRS = f"{DATASETS}/termpairs"
ANALOGIES = f"{DATASETS}/analogies"
WIC = f"{DATASETS}/wic"
SIMLEX = f"{DATASETS}/simlex"


# --- release -----------------------------------------------------------------------------------


def release(version: str, *parts: str) -> str:
    """A file or folder of release ``version`` (``release("0.1.0", "public", "SHA256SUMS")``)."""
    return "/".join((f"{RELEASE}/{version}", *parts))


def licensed_checksums(terminology: str) -> str:
    """sha256 of every file of a licensed release folder (provenance of restricted datasets)."""
    return f"{RELEASE}/checksums/{terminology}.tsv"


# --- report ------------------------------------------------------------------------------------

REPORT = f"{RESULTS}/report"
REPORT_PLOTS = f"{REPORT}/plots"


def report_page(source: str) -> str:
    """The HTML page that shows the table or text file ``source`` (a path under ``results/``) in
    the Snakemake report: ``results/report/pages/<source under results/>.html``."""
    return f"{REPORT}/pages/{under_results(source)}.html"


def under_results(path: str) -> str:
    """``path`` without its leading ``results/`` (a report page's name and its log's)."""
    return path.removeprefix(RESULTS + "/")
