"""The ``biosem`` command: checks and a summary of a biosem checkout, without running the workflow.

Subcommands wrap the library's own command lines (same arguments, output and exit codes):

* ``biosem validate-wic DIR``: :mod:`biosem.wic.validate` (0 valid, 1 violations, 2 unreadable input);
* ``biosem check-release DIR...``: :mod:`biosem.release.check` (0 every folder passes, 1 a problem);
* ``biosem info [--configfile FILE ...] [--json]``: the config of the current folder (``config/config.yaml``
  with overlays merged on it as ``snakemake --configfile`` does, validated against
  ``workflow/schemas/config.schema.yaml`` with its defaults set, as ``workflow/rules/common.smk`` does),
  its sources and terminologies, and which datasets are built (paths of :mod:`biosem.workflow.paths`).
"""

from __future__ import annotations

import argparse
import copy
import json
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import yaml

from biosem import __version__
from biosem.release import check as release_check
from biosem.wic import validate as wic_validate
from biosem.workflow import paths

CONFIG_FILE = "config/config.yaml"
CONFIG_SCHEMA = "workflow/schemas/config.schema.yaml"
SHA256_SHORT = 12
"""Hex digits of a source's pinned sha256 that ``biosem info`` prints."""


# --- info ------------------------------------------------------------------------------------------


def load_config(configfiles: Sequence[str | Path] = (), base: str | Path = CONFIG_FILE) -> dict[str, Any]:
    """``base`` with each of ``configfiles`` merged on it key by key (``snakemake.utils.update_config``, as
    ``snakemake --configfile``), validated against :data:`CONFIG_SCHEMA` with its defaults set.

    Paths are relative to the current folder (the repository root).

    Raises:
        OSError: a config file or the schema cannot be read.
        yaml.YAMLError: a config file is not YAML.
        snakemake_interface_common.exceptions.WorkflowError: the merged config does not validate.
    """
    from snakemake.utils import update_config, validate

    for path in (base, CONFIG_SCHEMA):
        if not Path(path).is_file():
            raise FileNotFoundError(f"no {path} in {Path.cwd()}: run biosem info in the repository root")
    config: dict[str, Any] = {}
    for path in (base, *configfiles):
        layer = yaml.safe_load(Path(path).read_text(encoding="utf-8")) or {}
        update_config(config, copy.deepcopy(layer))
    validate(config, CONFIG_SCHEMA, set_default=True)
    return config


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


def describe(config: Mapping[str, Any]) -> dict[str, list[dict[str, Any]]]:
    """The summary ``biosem info`` prints, from a validated config.

    Returns ``{"sources": [...], "terminologies": [...], "built": [...]}``: per source its ``name``,
    ``version``, ``licence``, ``sha256`` (the first :data:`SHA256_SHORT` digits), ``present``
    (``resources``, ``mirror`` or None) and ``path``; per terminology its ``name``, ``format`` and
    ``source`` (its ``sources`` key(s)) or ``path``; per expected output its ``dataset``, ``path`` and
    whether it ``exists``: the ``counts.tsv`` of every terminology of ``termpairs.terminologies``, the
    WiC ``test.json`` and the analogies ``summary.tsv``.
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
                "sha256": spec["sha256"][:SHA256_SHORT],
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
    targets = [
        (f"termpairs/{t}", paths.termpairs(t, "counts", "tsv"))
        for t in config.get("termpairs", {}).get("terminologies", [])
    ]
    targets += [("wic", paths.wic("test", "json")), ("analogies", paths.analogies_summary("summary"))]
    built = [{"dataset": name, "path": path, "exists": Path(path).is_file()} for name, path in targets]
    return {"sources": sources, "terminologies": terminologies, "built": built}


def _table(rows: Sequence[Sequence[object]]) -> list[str]:
    """Rows as left-aligned columns (None printed as ``-``)."""
    cells = [["-" if v is None else str(v) for v in row] for row in rows]
    widths = [max(len(row[i]) for row in cells) for i in range(len(cells[0]))] if cells else []
    return ["  ".join(c.ljust(w) for c, w in zip(row, widths)).rstrip() for row in cells]


def format_info(info: Mapping[str, list[dict[str, Any]]]) -> str:
    """:func:`describe`'s summary as plain aligned text, one section per key."""
    lines = ["Sources"]
    lines += _table(
        [("name", "version", "licence", "sha256", "present")]
        + [(s["name"], s["version"], s["licence"], s["sha256"], s["present"] or "no") for s in info["sources"]]
    )
    lines += ["", "Terminologies"]
    lines += _table(
        [("name", "format", "source or path")]
        + [(t["name"], t["format"], t.get("source") or t.get("path")) for t in info["terminologies"]]
    )
    lines += ["", "Built"]
    lines += _table(
        [("dataset", "built", "path")]
        + [(b["dataset"], "yes" if b["exists"] else "no", b["path"]) for b in info["built"]]
    )
    return "\n".join(lines) + "\n"


def run_info(args: argparse.Namespace) -> int:
    """Print the summary (text or ``--json``); return 2 if the config cannot be read or does not validate."""
    from snakemake_interface_common.exceptions import WorkflowError

    try:
        config = load_config(args.configfile)
    except (OSError, yaml.YAMLError, WorkflowError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    info = describe(config)
    sys.stdout.write(json.dumps(info, indent=2) + "\n" if args.json else format_info(info))
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
    f"Check built release folders ({paths.release('<version>', '<visibility>')}) before publishing them: every "
    "SHA256SUMS, the croissant.json of each dataset (validated with mlcroissant, offline), each card's YAML "
    "header and licence metadata against the licences its sources' provenance gives, and, in a public release, "
    "no restricted dataset and no restricted terminology identifier in its tables. Prints one line per problem "
    "(or OK) per folder; exits 1 if any folder has a problem, else 0."
)
INFO = (
    "Summarise the workflow config of the current folder (the repository root): config/config.yaml, with each "
    "--configfile merged on it key by key as snakemake does, validated against workflow/schemas/"
    "config.schema.yaml. Lists each source (version, licence, pinned sha256, whether it is fetched under "
    "resources/ or found in a mirror_dirs folder; checksums are not re-checked), each terminology (format, "
    "source or path), and which datasets are built (term-pair counts.tsv, WiC test.json, analogies summary). "
    "Exits 2 if the config cannot be read or does not validate."
)


def build_parser() -> argparse.ArgumentParser:
    """The ``biosem`` parser; each subcommand's ``run`` is in its ``func`` default."""
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
    wic_validate.add_arguments(p)
    p.set_defaults(func=wic_validate.run)

    p = sub.add_parser("check-release", help="check built release folders before publishing", description=CHECK_RELEASE)
    release_check.add_arguments(p)
    p.set_defaults(func=release_check.run)

    p = sub.add_parser("info", help="sources, terminologies and built datasets of the config", description=INFO)
    p.add_argument(
        "--configfile",
        nargs="+",
        action="extend",
        default=[],
        metavar="FILE",
        help="config overlays merged on config/config.yaml in order (as snakemake --configfile)",
    )
    p.add_argument("--json", action="store_true", help="print JSON instead of text")
    p.set_defaults(func=run_info)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Run ``biosem`` with ``argv`` (default: ``sys.argv[1:]``); return the subcommand's exit code."""
    args = build_parser().parse_args(argv)
    return args.func(args)


if __name__ == "__main__":
    sys.exit(main())
