"""What a biosem checkout holds under its config, for the ``biosem`` command (:mod:`biosem.cli`): the config of
the current folder, the summary ``biosem info`` prints (sources, terminologies, what each stage has built) and
the datasets ``biosem evaluate`` scores (:func:`evaluate_checkout`).

What exists under a config comes from the workflow's plan (:class:`biosem.workflow.plan.Plan`, the declared
outputs of :mod:`biosem.layout.outputs` its stages expand); the files then say which of them are built. Paths are
relative to the current folder, the root of the checkout.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from biosem.evaluate.catalogue import find_benchmarks
from biosem.layout import paths
from biosem.report.tables import text_table
from biosem.workflow.config import CONFIG_FILE, CONFIG_SCHEMA
from biosem.workflow.config import load_config as load_workflow_config
from biosem.workflow.plan import Plan, Stages

if TYPE_CHECKING:
    import pandas as pd

SHA256_SHORT = 12
"""Hex digits of a source's pinned sha256 that ``biosem info`` prints as text (``--json`` gives all 64)."""


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


def format_info(info: Mapping[str, list[dict[str, Any]]]) -> str:
    """:func:`describe`'s summary as plain aligned text, one section per key (sha256 cut to
    :data:`SHA256_SHORT` digits; ``--json`` has them all)."""
    lines = ["Sources"]
    lines += text_table(
        [("name", "version", "licence", "sha256", "present")]
        + [
            (s["name"], s["version"], s["licence"], s["sha256"][:SHA256_SHORT], s["present"] or "no")
            for s in info["sources"]
        ]
    )
    lines += ["", "Terminologies"]
    lines += text_table(
        [("name", "format", "source or path")]
        + [(t["name"], t["format"], t.get("source") or t.get("path")) for t in info["terminologies"]]
    )
    lines += ["", "Built"]
    lines += text_table(
        [("family", "of", "built", "folder")]
        + [(b["family"], b["unit"], f"{b['built']} of {b['files']}", b["folder"]) for b in info["built"]]
    )
    return "\n".join(lines) + "\n"


def evaluate_checkout(
    models: Mapping[str, Mapping[str, Any]], config: Mapping[str, Any], families: Sequence[str]
) -> tuple[pd.DataFrame, list[str]]:
    """Score each model (name -> spec, as config ``evaluate.models``) on the external rated benchmarks of config
    ``evaluate.benchmarks`` whose files are found (:func:`biosem.evaluate.catalogue.find_benchmarks`) and on the
    built datasets of ``families`` (of :data:`biosem.evaluate.FAMILIES`): those the plan declares under
    ``config`` (:meth:`biosem.workflow.evaluate.Evaluate.catalogue`; the release and the report are not planned)
    whose files exist (:meth:`biosem.evaluate.catalogue.Catalogue.built`), with the workflow's parameters (config
    ``evaluate``, ``seed``): :func:`biosem.evaluate.suite.evaluate_models`.

    Returns the tidy results table (:data:`biosem.evaluate.results.RESULTS`, sorted) and notes on what was
    skipped (a benchmark without a file, a family without a built dataset).

    Raises:
        ValueError: a stage's config names something that is not configured (:class:`biosem.workflow.plan.Stages`),
            or a model cannot be loaded.
        SourceFormatError, FileNotFoundError: a vector or dataset file cannot be read.
    """
    from biosem.evaluate.suite import evaluate_models

    catalogue = Stages(config).evaluate.catalogue().built(families)
    benchmarks, notes = find_benchmarks(config) if "rated" in families else ([], [])
    results = evaluate_models(models, catalogue, benchmarks, config["evaluate"], int(config["seed"]))
    return results, notes + catalogue.missing(families)
