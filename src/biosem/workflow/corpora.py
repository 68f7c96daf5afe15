"""Workflow wiring of the corpora stage: which sources a corpus reads, and the stage's targets.

Used by ``workflow/rules/corpora.smk`` (kept free of function definitions, as ``snakemake --lint``
asks); every function takes the whole Snakemake ``config``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

TABLES = ("documents", "sentences", "mentions")


def corpus_sources(config: Mapping[str, Any], name: str) -> dict[str, str]:
    """Public sources corpus ``name`` reads, by rule input name.

    ``{"train": src, "dev": src, "test": src}`` for a corpus given per split (``files``), or
    ``{"corpus": src, "train_pmids": src, ...}`` for one file plus split PMID lists.
    """
    spec = config["corpora"]["specs"][name]
    if "files" in spec:
        return dict(spec["files"])
    sources = {"corpus": spec["file"]}
    sources.update({f"{split}_pmids": src for split, src in spec["split_lists"].items()})
    return sources


def check_corpus(config: Mapping[str, Any], name: str) -> None:
    """Stop, naming the config key to set, when corpus ``name`` or one of its sources is not configured.

    Raises:
        ValueError: ``name`` has no ``corpora.specs`` entry, or refers to a source missing from
            ``sources`` (the full MedMentions corpus is not pinned by default: its checksum is not
            known offline, so users add ``sources.medmentions_st21pv`` with the sha256 of their copy).
    """
    specs = config["corpora"]["specs"]
    if name not in specs:
        raise ValueError(
            f"corpora.build lists {name!r}, which has no entry in corpora.specs "
            f"(configured: {', '.join(sorted(specs))})."
        )
    missing = sorted(set(corpus_sources(config, name).values()) - set(config["sources"]))
    if missing:
        raise ValueError(
            f"corpus {name!r} needs the public source(s) {', '.join(missing)}: add them under "
            "`sources:` in your config with their url and content sha256 (config/README.md § corpora)."
        )


def check_build(config: Mapping[str, Any]) -> None:
    """:func:`check_corpus` for every corpus in ``corpora.build``."""
    for name in config["corpora"]["build"]:
        check_corpus(config, name)


def corpus_inputs(
    config: Mapping[str, Any], source_file: Callable[[str], str], wildcards: Any
) -> dict[str, str]:
    """Rule input: named source files of corpus ``wildcards.corpus`` (``source_file`` maps a source to its path)."""
    check_corpus(config, wildcards.corpus)
    return {key: source_file(src) for key, src in corpus_sources(config, wildcards.corpus).items()}


def corpus_intermediates(name: str) -> list[str]:
    """The three Parquet intermediates of corpus ``name``."""
    return [f"results/intermediate/{table}/{name}.parquet" for table in TABLES]


def corpus_targets(config: Mapping[str, Any]) -> list[str]:
    """Outputs of the stage for ``rule all``: the intermediates and counts of every built corpus."""
    targets: list[str] = []
    for name in config["corpora"]["build"]:
        targets += corpus_intermediates(name)
        targets.append(f"results/intermediate/corpus_counts/{name}.tsv")
    return targets
