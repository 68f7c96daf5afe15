"""The ``biosem`` command: checks and a summary of a biosem checkout, without running the workflow.

Subcommands wrap the library's own command lines (same output and exit codes; the same arguments, declared once
in :mod:`biosem.arguments`):

* ``biosem validate-wic DIR``: :mod:`biosem.wic.validate` (0 valid, 1 violations, 2 unreadable input);
* ``biosem check-release DIR...``: :mod:`biosem.release.check` (0 every folder passes, 1 a problem; a
  release root, a release folder or a dataset folder);
* ``biosem info [--configfile FILE ...] [--json]``: the config of the current folder (``config/config.yaml``
  with overlays merged on it as ``snakemake --configfile`` does, validated against
  ``workflow/schemas/config.schema.yaml`` with its defaults set, as ``workflow/rules/common.smk`` does),
  its sources and terminologies, and what each stage has built (:func:`biosem.workflow.checkout.describe`:
  the declared outputs of :mod:`biosem.layout.outputs` its plan expands, :class:`biosem.workflow.plan.Plan`);
* ``biosem evaluate VECTORS... -o FILE``: scores of word vectors or sentence encoders on the datasets the plan
  declares under the config and that are built (:func:`biosem.workflow.checkout.evaluate_checkout`).

This module parses the arguments and calls those library functions. It imports only the standard library and
biosem's light modules (:mod:`biosem.arguments`, :mod:`biosem.layout.paths`, the constants of
:mod:`biosem.evaluate`) at the top: every subcommand imports what it needs when it runs, so ``biosem --help`` and
each ``biosem <command> --help`` answer at once (gensim, pandas, snakemake and mlcroissant take seconds to
import).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from biosem import __version__
from biosem.arguments import add_check_release_arguments, add_validate_wic_arguments
from biosem.evaluate import CASE_AUTO, COVERAGE_WARNING, FAMILIES, WORD_VECTOR_FORMATS
from biosem.layout import paths

# --- info ------------------------------------------------------------------------------------------


def run_info(args: argparse.Namespace) -> int:
    """Print the summary of :func:`biosem.workflow.checkout.describe` (text, or ``--json``); return 2 if the config
    cannot be read or does not validate."""
    import yaml

    from biosem.workflow.checkout import describe, format_info, load_config

    try:
        info = describe(load_config(args.configfile))
    except (OSError, yaml.YAMLError, ValueError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    sys.stdout.write(json.dumps(info, indent=2) + "\n" if args.json else format_info(info))
    return 0


# --- evaluate --------------------------------------------------------------------------------------


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


def run_evaluate(args: argparse.Namespace) -> int:
    """Score the models (:func:`biosem.workflow.checkout.evaluate_checkout`), write ``--output`` (Parquet, or TSV
    for a ``.tsv`` name) and print a summary (what each model scored of every family:
    :func:`biosem.evaluate.suite.format_summary`) and a ``WARNING: <model> covers <x> of <dataset>`` line (stderr)
    per dataset covered below :data:`biosem.evaluate.COVERAGE_WARNING`; return 2 on a config, model or dataset
    that cannot be read."""
    import yaml
    from snakemake_interface_common.exceptions import WorkflowError

    from biosem.errors import SourceFormatError
    from biosem.evaluate.results import COLUMNS, RESULTS, coverage_warnings
    from biosem.evaluate.suite import format_summary
    from biosem.io import write_table, write_text
    from biosem.logs import configure_logging
    from biosem.workflow.checkout import evaluate_checkout, load_config

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
        results, notes = evaluate_checkout(models, config, args.families)
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
    "SimVerb-3500, ...; the fetched file under resources/ or a mirror_dirs copy, checksum-checked) and the "
    f"datasets the config builds that exist under {paths.DATASETS} (its rating sets, term-pair and analogy "
    "terminologies with their term counts, WiC dev/test); "
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


def run_validate_wic(args: argparse.Namespace) -> int:
    """:func:`biosem.wic.validate.run`."""
    from biosem.wic import validate as wic_validate

    return wic_validate.run(args)


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
