"""The ``biosem`` command: checks and a summary of a biosem checkout, without running the workflow.

Subcommands wrap the library's own command lines (same arguments, output and exit codes):

* ``biosem validate-wic DIR``: :mod:`biosem.wic.validate` (0 valid, 1 violations, 2 unreadable input);
* ``biosem check-release DIR...``: :mod:`biosem.release.check` (0 every folder passes, 1 a problem; a
  release root, a release folder or a dataset folder);
* ``biosem info [--configfile FILE ...] [--json]``: the config of the current folder (``config/config.yaml``
  with overlays merged on it as ``snakemake --configfile`` does, validated against
  ``workflow/schemas/config.schema.yaml`` with its defaults set, as ``workflow/rules/common.smk`` does),
  its sources and terminologies, and what each stage has built (the declared outputs of
  :mod:`biosem.layout.outputs` its plan expands, :class:`biosem.workflow.plan.Plan`);
* ``biosem evaluate VECTORS... -o FILE``: scores of word vectors or sentence encoders on the built datasets.

This module imports only the standard library and biosem's light modules at the top: every subcommand
imports what it needs when it runs, so ``biosem --help`` and each ``biosem <command> --help`` answer at
once (gensim, pandas, snakemake and mlcroissant take seconds to import).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from biosem import __version__
from biosem.evaluate import CASE_AUTO, COVERAGE_WARNING, WORD_VECTOR_FORMATS
from biosem.layout import outputs, paths
from biosem.workflow.config import CONFIG_FILE, CONFIG_SCHEMA

if TYPE_CHECKING:
    import pandas as pd

SHA256_SHORT = 12
"""Hex digits of a source's pinned sha256 that ``biosem info`` prints as text (``--json`` gives all 64)."""


# --- info ------------------------------------------------------------------------------------------


def load_config(
    configfiles: Sequence[str | Path] = (), base: str | Path = CONFIG_FILE, command: str = "info"
) -> dict[str, Any]:
    """``base`` with each of ``configfiles`` merged on it key by key (as ``snakemake --configfile``), validated
    against :data:`biosem.workflow.config.CONFIG_SCHEMA` with its defaults set
    (:func:`biosem.workflow.config.load_config`).

    Paths are relative to the current folder, which must be the root of a biosem checkout: ``command`` names
    the subcommand in the message when it is not.

    Raises:
        FileNotFoundError: no ``base`` or schema here (the message says to change to the checkout's root), or
            a config file cannot be found.
        OSError: a config file or the schema cannot be read.
        yaml.YAMLError: a config file is not YAML.
        biosem.workflow.config.ConfigError: the merged config does not validate (a few lines naming the key).
    """
    from biosem.workflow.config import load_config as load_workflow_config

    for path in (base, CONFIG_SCHEMA):
        if not Path(path).is_file():
            raise FileNotFoundError(
                f"no {path} in {Path.cwd()}: biosem {command} reads the workflow config of a biosem checkout; "
                "change to the checkout's root folder (the one holding config/ and workflow/) and run it there"
                + (" (vector files may be given with absolute paths)" if command == "evaluate" else "")
            )
    return load_workflow_config(configfiles, base)


def source_location(name: str, spec: Mapping[str, Any], mirror_dirs: Sequence[str]) -> tuple[str | None, str | None]:
    """Where source ``name`` is: ``("resources", path)`` once fetched (:func:`paths.source`), else
    ``("mirror", path)`` for the first of ``mirror_dirs`` holding its ``mirror_path``, else ``(None, None)``.

    Only the files' existence is looked at; their checksums are checked by the workflow when it runs.
    """
    fetched = paths.source(name, spec["filename"])
    if Path(fetched).is_file():
        return "resources", fetched
    if spec.get("mirror_path"):
        for mirror in mirror_dirs:
            candidate = Path(mirror) / spec["mirror_path"]
            if candidate.is_file():
                return "mirror", str(candidate)
    return None, None


UNIT_WILDCARDS = ("terminology", "ratings", "corpus", "dataset")
"""The wildcard whose value names the unit of a stage's outputs in ``biosem info`` (a term-pair terminology,
a rating set, a corpus, a simlex pair set); outputs without one are the stage's own."""


def built_outputs(config: Mapping[str, Any]) -> list[dict[str, Any]]:
    """What each stage builds under ``config`` and how much of it exists: the declared outputs
    (:mod:`biosem.layout.outputs`) the workflow plan expands (:class:`biosem.workflow.plan.Plan`, as ``rule
    all`` asks for them), grouped per stage and unit (:data:`UNIT_WILDCARDS`; the term-pair datasets of a
    terminology, one rating set, ...).

    Returns one dict per group, in the plan's order: ``family`` (the stage: termpairs, corpora, wic,
    analogies, simlex, agreement, evaluate), ``unit`` (the wildcard value or None), ``folder`` (the folder of
    its first declared file), ``files`` and ``built`` (how many of them exist).

    Raises:
        ValueError: the plan rejects the config (a stage names something that is not configured).
    """
    from biosem.workflow.plan import Plan

    groups: dict[tuple[str, str | None], dict[str, Any]] = {}
    for built in Plan(config).built:
        unit = next((built.wildcards[w] for w in UNIT_WILDCARDS if w in built.wildcards), None)
        key = (built.output.stage, unit)
        if key not in groups:
            groups[key] = {"family": key[0], "unit": unit, "folder": str(Path(built.path).parent), "files": 0}
            groups[key]["built"] = 0
        groups[key]["files"] += 1
        groups[key]["built"] += int(Path(built.path).is_file())
    return list(groups.values())


def describe(config: Mapping[str, Any]) -> dict[str, list[dict[str, Any]]]:
    """The summary ``biosem info`` prints, from a validated config.

    Returns ``{"sources": [...], "terminologies": [...], "built": [...]}``: per source its ``name``,
    ``version``, ``licence``, ``sha256`` (all 64 digits), ``present`` (``resources``, ``mirror`` or None) and
    ``path``; per terminology its ``name``, ``format`` and ``source`` (its ``sources`` key(s)) or ``path``;
    and what every stage builds (:func:`built_outputs`).
    """
    mirror_dirs = list(config.get("mirror_dirs") or [])
    sources = []
    for name, spec in config.get("sources", {}).items():
        present, where = source_location(name, spec, mirror_dirs)
        sources.append(
            {
                "name": name,
                "version": spec.get("version"),
                "licence": spec.get("licence"),
                "sha256": spec["sha256"],
                "present": present,
                "path": where,
            }
        )
    terminologies = []
    for name, spec in config.get("terminologies", {}).items():
        entry: dict[str, Any] = {"name": name, "format": spec.get("format")}
        if "source" in spec:
            entry["source"] = spec["source"]
        elif "sources" in spec:
            entry["source"] = ", ".join(str(v) for v in spec["sources"].values())
        if "path" in spec:
            entry["path"] = spec["path"]
        terminologies.append(entry)
    return {"sources": sources, "terminologies": terminologies, "built": built_outputs(config)}


def _table(rows: Sequence[Sequence[object]]) -> list[str]:
    """Rows as left-aligned columns (None printed as ``-``)."""
    cells = [["-" if v is None else str(v) for v in row] for row in rows]
    widths = [max(len(row[i]) for row in cells) for i in range(len(cells[0]))] if cells else []
    return ["  ".join(c.ljust(w) for c, w in zip(row, widths)).rstrip() for row in cells]


def format_info(info: Mapping[str, list[dict[str, Any]]]) -> str:
    """:func:`describe`'s summary as plain aligned text, one section per key (sha256 cut to
    :data:`SHA256_SHORT` digits; ``--json`` has them all)."""
    lines = ["Sources"]
    lines += _table(
        [("name", "version", "licence", "sha256", "present")]
        + [
            (s["name"], s["version"], s["licence"], s["sha256"][:SHA256_SHORT], s["present"] or "no")
            for s in info["sources"]
        ]
    )
    lines += ["", "Terminologies"]
    lines += _table(
        [("name", "format", "source or path")]
        + [(t["name"], t["format"], t.get("source") or t.get("path")) for t in info["terminologies"]]
    )
    lines += ["", "Built"]
    lines += _table(
        [("family", "of", "built", "folder")]
        + [(b["family"], b["unit"], f"{b['built']} of {b['files']}", b["folder"]) for b in info["built"]]
    )
    return "\n".join(lines) + "\n"


def run_info(args: argparse.Namespace) -> int:
    """Print the summary (text or ``--json``); return 2 if the config cannot be read or does not validate."""
    import yaml

    try:
        info = describe(load_config(args.configfile))
    except (OSError, yaml.YAMLError, ValueError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    sys.stdout.write(json.dumps(info, indent=2) + "\n" if args.json else format_info(info))
    return 0


# --- evaluate --------------------------------------------------------------------------------------

FAMILIES = ("rated", "termpairs", "analogies", "wic")
"""The dataset families ``biosem evaluate`` scores (rated: the external benchmarks and biosem's rated datasets)."""


def benchmark_file(source: str, spec: Mapping[str, Any], mirror_dirs: Sequence[str]) -> tuple[str | None, list[str]]:
    """The file of a benchmark's source whose content matches its pinned sha256: fetched under ``resources/``
    (:func:`paths.source`) or in a mirror (:func:`biosem.sources.find_in_mirrors`); else None and what was tried."""
    from biosem.sources import content_sha256, find_in_mirrors

    tried = []
    fetched = paths.source(source, spec["filename"])
    if Path(fetched).is_file():
        got = content_sha256(fetched)
        if got == spec["sha256"]:
            return fetched, []
        tried.append(f"{fetched} (sha256 {got} != pinned {spec['sha256']})")
    found, more = find_in_mirrors(source, spec, mirror_dirs)
    return (str(found) if found is not None else None), tried + more


def built_datasets(families: Sequence[str]) -> dict[str, dict[str, str]]:
    """The built datasets under the results folder of the current folder (:mod:`biosem.layout.outputs`), named as
    the workflow names them: ``rated`` (``simlex/<name>``), ``termpairs`` (``termpairs/<t>/<dataset>``),
    ``analogies`` (``analogies/<t>/<setting>``, for terminologies whose term counts exist, keyed
    ``term_counts/<t>`` too) and ``wic`` (``wic/dev``, ``wic/test``, both or neither); name -> Parquet, sorted."""
    from glob import glob

    from biosem.analogies.construct import DATASETS as ANALOGY_DATASETS
    from biosem.termpairs import DATASETS as TERMPAIR_DATASETS

    found: dict[str, dict[str, str]] = {family: {} for family in families}
    if "rated" in families:
        for path in glob(outputs.rated_dataset.path(ratings="*")):
            found["rated"][f"simlex/{Path(path).stem}"] = path
    if "termpairs" in families:
        for dataset in TERMPAIR_DATASETS:
            for path in glob(outputs.termpair_dataset.path(terminology="*", dataset=dataset)):
                found["termpairs"][f"termpairs/{Path(path).parent.name}/{dataset}"] = path
    if "analogies" in families:
        for setting in ANALOGY_DATASETS:
            for path in glob(outputs.analogy_dataset.path(terminology="*", setting=setting)):
                terminology = Path(path).parent.name
                counts = paths.intermediate("term_counts", terminology)
                if Path(counts).is_file():
                    found["analogies"][f"analogies/{terminology}/{setting}"] = path
                    found["analogies"][f"term_counts/{terminology}"] = counts
    if "wic" in families:
        splits = {f"wic/{s}": outputs.wic_split.path(split=s) for s in ("dev", "test")}
        if all(Path(p).is_file() for p in splits.values()):
            found["wic"] = splits
    return {family: dict(sorted(names.items())) for family, names in found.items()}


def model_spec(path: Path, args: argparse.Namespace) -> dict[str, Any]:
    """The config-style spec (config ``evaluate.models``) of one VECTORS argument: a folder is a
    sentence-transformers model, a file a word-vector file of ``--format`` or the inferred format."""
    from biosem.evaluate.models import infer_vector_format

    if path.is_dir():
        return {
            "format": "sentence_transformers",
            "model": str(path),
            "device": args.device,
            "batch_size": args.batch_size,
            "local_files_only": True,
        }
    fmt = args.format or infer_vector_format(path)
    return {"format": fmt, "path": str(path), "lowercase": args.lowercase, "max_vocab": args.max_vocab}


def model_name(path: Path) -> str:
    """A model's name in the results table: its file or folder name without ``.gz`` and one more suffix."""
    name = path.name.removesuffix(".gz")
    return Path(name).stem if not path.is_dir() else name


def evaluate_models(
    models: Mapping[str, Mapping[str, Any]], config: Mapping[str, Any], families: Sequence[str]
) -> tuple["pd.DataFrame", list[str]]:
    """Score each model (name -> spec) on the external rated benchmarks of config ``evaluate.benchmarks`` and the
    built datasets of ``families`` (:func:`built_datasets`), with the workflow's parameters (config ``evaluate``,
    ``seed``) and its library functions (:mod:`biosem.evaluate.suite`); term-pair category separation is not scored.
    A sentence encoder encodes each distinct string of these datasets once (:func:`encoders.encode_distinct`).

    Returns the tidy results table (:data:`biosem.evaluate.results.RESULTS`, sorted) and notes on what was skipped.

    Raises:
        ValueError: a model cannot be loaded (a sentence encoder without sentence-transformers or weights).
        SourceFormatError, FileNotFoundError: a vector or dataset file cannot be read.
    """
    from biosem.evaluate.analogies import evaluate_analogy_datasets
    from biosem.evaluate.encoders import EmbeddingTable, encode_distinct
    from biosem.evaluate.models import SentenceEncoder, load_representation
    from biosem.evaluate.results import collect, results_frame
    from biosem.evaluate.suite import (
        analogy_inputs,
        analogy_params,
        encoder_strings,
        read_rated_datasets,
        read_token_counts,
        score_rated,
        score_wic,
        termpair_params,
    )
    from biosem.evaluate.termpairs import evaluate_termpair_datasets
    from biosem.io import ParquetTables, read_table
    from biosem.workflow.evaluate import frequency_corpora

    section, seed = config["evaluate"], int(config["seed"])
    built = built_datasets(families)
    notes: list[str] = []
    benchmarks = []
    if "rated" in families:
        for name in sorted(section["benchmarks"]):
            spec = {"name": name, **section["benchmarks"][name]}
            source = spec["source"]
            path, tried = benchmark_file(source, config["sources"][source], config.get("mirror_dirs") or [])
            if path is None:
                notes.append(f"benchmark {name} skipped: no file of source {source} ({'; '.join(tried) or 'none'})")
            else:
                benchmarks.append((spec, path))
    rated = read_rated_datasets(benchmarks, built.get("rated", {}).items()) if "rated" in families else {}
    counts_path = outputs.token_counts.template  # the workflow's frequency-band counts
    token_counts = read_token_counts(counts_path) if rated and Path(counts_path).is_file() else None
    band_corpus = "+".join(frequency_corpora(section))
    termpairs = ParquetTables(built.get("termpairs", {}), columns=["term1", "term2", "label"])
    analogy_sets = built.get("analogies", {})
    analogies = list(
        analogy_inputs(
            {k: v for k, v in analogy_sets.items() if k.startswith("analogies/")},
            {k.split("/")[1]: v for k, v in analogy_sets.items() if k.startswith("term_counts/")},
            section["analogies"]["candidate_min_count"],
        )
    )
    wic = [read_table(built["wic"][f"wic/{s}"]) for s in ("dev", "test")] if built.get("wic") else []
    frames = []
    for name, spec in models.items():
        model = load_representation(name, spec)
        if model is None:
            raise ValueError(f"model {name}: the sentence encoder {spec['model']} could not be loaded (logged above)")
        if isinstance(model, SentenceEncoder):  # each distinct string encoded once, as rule encode_strings does
            strings = encoder_strings(
                model, rated, termpairs, (), [(f, c) for _, f, c in analogies], wic, section["wic"]["window"]
            )
            model = EmbeddingTable.from_arrow(name, encode_distinct(model, strings))
        rows: list[dict[str, object]] = []
        if rated:
            rows += score_rated(model, rated, section["rated"], seed, token_counts, band_corpus)
        if termpairs:
            rows += evaluate_termpair_datasets(model, termpairs, termpair_params(section["termpairs"]), seed)[0]
        for _, datasets, candidates in analogies:
            rows += evaluate_analogy_datasets(model, datasets, candidates, analogy_params(section["analogies"]))[0]
        if wic:
            rows += score_wic(model, wic[0], wic[1], section["wic"], seed)
        frames.append(results_frame(rows))
    for family in families:
        if family != "rated" and not built.get(family):
            notes.append(f"{family}: no built dataset under {paths.DATASETS}")
    return collect(frames), notes


def format_summary(results: "pd.DataFrame") -> str:
    """What each model scored, for every family: per model and family the datasets scored, the items scored (the
    sum of their ``n``) and the range of their coverage (:func:`biosem.evaluate.results.dataset_coverage`); the
    same per model and group of datasets outside the rated family (a terminology's term pairs or analogies, the
    category separation, the WiC splits); then Spearman's rho, n and coverage of every rated dataset (subset
    ``all``)."""
    from biosem.evaluate.rated import METRIC
    from biosem.evaluate.results import coverage_summary, dataset_coverage

    if results.empty:
        return "no results\n"
    coverage = dataset_coverage(results)
    coverage["group"] = coverage["dataset"].str.rsplit("/", n=1).str[0]

    def rows(frame: "pd.DataFrame", by: list[str]) -> list[tuple[object, ...]]:
        return [
            (*(getattr(r, c) for c in by), r.datasets, f"{r.n:,}", _coverage_range(r.coverage_min, r.coverage_max))
            for r in coverage_summary(frame, by).itertuples(index=False)
        ]

    header = ("datasets", "items scored", "coverage")
    lines = _table([("model", "family", *header), *rows(coverage, ["model", "family"])])
    grouped = coverage[coverage["family"] != "rated"]
    if len(grouped):
        lines += ["", *_table([("model", "datasets of", *header), *rows(grouped, ["model", "group"])])]
    rated = results[(results["metric"] == METRIC) & (results["subset"] == "all")]
    if len(rated):
        lines += [""]
        lines += _table(
            [("model", "dataset", "rho", "n", "coverage")]
            + [(r.model, r.dataset, f"{r.value:.4f}", r.n, f"{r.coverage:.3f}") for r in rated.itertuples(index=False)]
        )
    return "\n".join(lines) + "\n"


def _coverage_range(low: float, high: float) -> str:
    """A coverage range as the summary prints it: ``1.000``, or ``0.065-0.118``."""
    return f"{low:.3f}" if f"{low:.3f}" == f"{high:.3f}" else f"{low:.3f}-{high:.3f}"


def run_evaluate(args: argparse.Namespace) -> int:
    """Score the models, write ``--output`` (Parquet, or TSV for a ``.tsv`` name) and print a summary (what each
    model scored of every family: :func:`format_summary`) and a ``WARNING: <model> covers <x> of <dataset>`` line
    (stderr) per dataset covered below :data:`biosem.evaluate.COVERAGE_WARNING`; return 2 on a config, model or
    dataset that cannot be read."""
    import yaml
    from snakemake_interface_common.exceptions import WorkflowError

    from biosem.errors import SourceFormatError
    from biosem.evaluate.results import COLUMNS, RESULTS, coverage_warnings
    from biosem.io import write_table, write_text
    from biosem.logs import configure_logging

    configure_logging(None)
    models: dict[str, dict[str, Any]] = {}
    try:
        config = load_config(args.configfile, command="evaluate")
        for vectors in args.vectors:
            path = Path(vectors)
            if not path.exists():
                raise FileNotFoundError(f"no such file or folder: {path}")
            name = model_name(path)
            if name in models:
                raise ValueError(f"two models are named {name!r}: rename one of the files")
            models[name] = model_spec(path, args)
        results, notes = evaluate_models(models, config, args.families)
    except (OSError, yaml.YAMLError, WorkflowError, SourceFormatError, ValueError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    for note in notes:
        print(f"note: {note}", file=sys.stderr)
    if args.output.suffix == ".tsv":
        write_text(
            results[COLUMNS].to_csv(sep="\t", index=False, lineterminator="\n", float_format="%.12g"), args.output
        )
    else:
        write_table(results, args.output, RESULTS)
    sys.stdout.write(format_summary(results))
    for warning in coverage_warnings(results, COVERAGE_WARNING):
        print(warning, file=sys.stderr)
    print(f"{len(results)} rows written to {args.output}")
    return 0


# --- the command -----------------------------------------------------------------------------------

VALIDATE_WIC = (
    "Check a BioWiC-format split set (train.json, dev.json and/or test.json in FOLDER, as released by "
    "Rouhizadeh et al. 2024 or built by biosem): record schema, term offsets, per-group quotas (FOLDER/quotas.json, "
    "--quotas, or the paper's), label balance, no duplicate sentence or term pair in test, no test sentence or "
    "term pair in train or dev, and the train sentence cap. Prints one line per violation; exits 0 if the set is "
    "valid, 1 if there are violations, 2 if FOLDER holds no split or a file cannot be read."
)
CHECK_RELEASE = (
    f"Check built releases before publishing them: a release root ({paths.release('<version>')}), a release folder "
    f"({paths.release('<version>', '<visibility>')}, under any name) or a single dataset folder. Every SHA256SUMS "
    "(hidden files included; no symbolic link or empty folder), the croissant.json of each dataset (validated with "
    "mlcroissant, offline), each card's YAML header and licence metadata against the licences its sources' "
    "provenance gives, and, in a public release, no restricted dataset, none built by the private release and no "
    "restricted terminology identifier in its tables. Public or private is read from the release's RELEASE.md (a "
    "lone dataset folder: its croissant.json), never from a folder name. release_public and release_private run "
    "the same checks as their last step. Prints one line per problem (or OK and the verdict) per folder; exits 1 "
    "if any folder has a problem, else 0."
)
EVALUATE = (
    "Score embeddings on the datasets of this checkout, as the workflow's evaluate rules do: each VECTORS is a "
    "word-vector file (word2vec binary or text, GloVe text, fastText .bin; the format is inferred from the file "
    "unless --format is given; gzip read through) or a local sentence-transformers model folder (needs the "
    "encoders extra). Datasets: the external rated benchmarks of config evaluate.benchmarks (SimLex-999, "
    "SimVerb-3500, ...; the fetched file under resources/ or a mirror_dirs copy, checksum-checked) and whatever "
    f"datasets are built under {paths.DATASETS} (rated, term pairs, analogies with their term counts, WiC dev/test); "
    "term-pair category separation is not scored. Parameters and seed: the config (config/config.yaml of the "
    "current folder with each --configfile merged on it). Writes the workflow's tidy results table "
    "(model, dataset, subset, metric, value, n, coverage, ci_low, ci_high) to --output and prints a summary of "
    "what each model scored (datasets, items and coverage per family and per dataset group; rho per rated dataset) "
    f"and a WARNING line for each dataset a model covers less than {COVERAGE_WARNING} of. A vocabulary without an "
    "upper-case letter (GloVe 6B) is matched in lower case, any other as written (logged), unless --lowercase or "
    "--case-sensitive says otherwise. Exits 2 if the config, a model or a dataset cannot be read."
)
INFO = (
    "Summarise the workflow config of the current folder (the repository root): config/config.yaml, with each "
    "--configfile merged on it key by key as snakemake does, validated against workflow/schemas/"
    "config.schema.yaml. Lists each source (version, licence, pinned sha256, whether it is fetched under "
    "resources/ or found in a mirror_dirs folder; checksums are not re-checked), each terminology (format, "
    "source or path), and what each stage builds under this config (termpairs, corpora, wic, analogies, simlex, "
    "agreement, evaluate): per family and unit (a terminology, a rating set, a corpus) how many of its declared "
    "files exist, and their folder. --json gives full sha256 digests. Exits 2 if the config cannot be read or "
    "does not validate."
)


def _add_configfile(parser: argparse.ArgumentParser) -> None:
    """The ``--configfile`` option of the subcommands that read the workflow's config."""
    parser.add_argument(
        "--configfile",
        nargs="+",
        action="extend",
        default=[],
        metavar="FILE",
        help="config overlays merged on config/config.yaml in order (as snakemake --configfile)",
    )


def add_validate_wic_arguments(parser: argparse.ArgumentParser) -> None:
    """``biosem validate-wic``'s arguments: those of :func:`biosem.wic.validate.add_arguments`, declared here
    so that ``--help`` imports nothing heavy (``--train-cap`` None stands for its default, resolved when the
    command runs; tests/unit/test_cli.py compares the two)."""
    parser.add_argument("folder", help="folder with any of train.json, dev.json, test.json")
    parser.add_argument("--quotas", help="quotas JSON (default: FOLDER/quotas.json if present, else the paper's)")
    parser.add_argument(
        "--train-cap", type=int, default=None, help="max uses of a sentence in train (default: the reference's cap)"
    )


def run_validate_wic(args: argparse.Namespace) -> int:
    """:func:`biosem.wic.validate.run` (``--train-cap`` defaulting to :data:`biosem.wic.TRAIN_SENTENCE_CAP`)."""
    from biosem.wic import TRAIN_SENTENCE_CAP
    from biosem.wic import validate as wic_validate

    if args.train_cap is None:
        args.train_cap = TRAIN_SENTENCE_CAP
    return wic_validate.run(args)


def add_check_release_arguments(parser: argparse.ArgumentParser) -> None:
    """``biosem check-release``'s arguments: those of :func:`biosem.release.check.add_arguments`, declared here
    so that ``--help`` imports nothing heavy (tests/unit/test_cli.py compares the two)."""
    parser.add_argument(
        "folders",
        nargs="+",
        help=(
            f"release roots ({paths.release('0.1.0')}), release folders ({paths.release('0.1.0', 'public')}, "
            "under any name) or dataset folders"
        ),
    )


def run_check_release(args: argparse.Namespace) -> int:
    """:func:`biosem.release.check.run`."""
    from biosem.release import check as release_check

    return release_check.run(args)


def build_parser() -> argparse.ArgumentParser:
    """The ``biosem`` parser; each subcommand's ``run`` is in its ``func`` default. Building it imports
    nothing beyond the standard library and biosem's constants."""
    parser = argparse.ArgumentParser(
        prog="biosem",
        description=(
            "biosem: checks and a summary of a biosem checkout beside the Snakemake workflow, which builds the "
            "datasets (snakemake --cores N). Run `biosem <command> --help` for each command."
        ),
    )
    parser.add_argument("--version", action="version", version=f"biosem {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="<command>")

    p = sub.add_parser("validate-wic", help="check a BioWiC-format split set", description=VALIDATE_WIC)
    add_validate_wic_arguments(p)
    p.set_defaults(func=run_validate_wic)

    p = sub.add_parser("check-release", help="check built release folders before publishing", description=CHECK_RELEASE)
    add_check_release_arguments(p)
    p.set_defaults(func=run_check_release)

    p = sub.add_parser("info", help="sources, terminologies and what each stage has built", description=INFO)
    _add_configfile(p)
    p.add_argument("--json", action="store_true", help="print JSON instead of text (full sha256 digests)")
    p.set_defaults(func=run_info)

    p = sub.add_parser("evaluate", help="score embedding files or encoders on the datasets", description=EVALUATE)
    p.add_argument("vectors", nargs="+", metavar="VECTORS", help="word-vector files or sentence-transformers folders")
    p.add_argument("--output", "-o", type=Path, required=True, help="results table: .parquet, or .tsv")
    p.add_argument("--format", choices=WORD_VECTOR_FORMATS, help="format of every vector file (default: inferred)")
    case = p.add_mutually_exclusive_group()
    case.add_argument(
        "--lowercase",
        dest="lowercase",
        action="store_const",
        const=True,
        default=CASE_AUTO,
        help="lowercase the vectors' keys and every term (default: only for a vocabulary without upper case)",
    )
    case.add_argument(
        "--case-sensitive",
        dest="lowercase",
        action="store_const",
        const=False,
        help="match terms as written, even against a vocabulary without upper case",
    )
    p.add_argument("--max-vocab", type=int, metavar="N", help="keep the first N vectors of each file")
    p.add_argument(
        "--families",
        nargs="+",
        choices=FAMILIES,
        default=list(FAMILIES),
        help="dataset families to score (default: all)",
    )
    p.add_argument("--device", default="cpu", help="sentence encoders: torch device (default cpu)")
    p.add_argument("--batch-size", type=int, default=64, help="sentence encoders: batch size (default 64)")
    _add_configfile(p)
    p.set_defaults(func=run_evaluate)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Run ``biosem`` with ``argv`` (default: ``sys.argv[1:]``); return the subcommand's exit code."""
    args = build_parser().parse_args(argv)
    return args.func(args)


if __name__ == "__main__":
    sys.exit(main())
