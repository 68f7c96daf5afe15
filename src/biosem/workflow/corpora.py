"""Wiring of the corpora stage: which sources a corpus reads, and the stage's targets.

Rules: ``workflow/rules/corpora.smk``, one rule per corpus format (``ingest_pubtator``,
``ingest_conll``), each constrained to the corpora of its format (:meth:`Corpora.of_format`), one job
per corpus; every format writes the same documents / sentences / mentions intermediates.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from biosem.layout import outputs, paths

TABLES = ("documents", "sentences", "mentions")


class Corpora:
    """The corpora stage under ``config["corpora"]``.

    Raises:
        ValueError: on construction, when a corpus of ``corpora.build`` has no ``corpora.specs``
            entry or refers to a source missing from ``sources`` (the full MedMentions corpus is not
            pinned by default: users add ``sources.medmentions_st21pv`` with the sha256 of their copy).
    """

    def __init__(self, config: Mapping[str, Any]) -> None:
        self.section: Mapping[str, Any] = config["corpora"]
        self.specs: Mapping[str, Any] = self.section["specs"]
        self.sources: Mapping[str, Any] = config["sources"]
        self.build: list[str] = list(self.section["build"])
        for name in self.build:
            self.check(name)

    def of_format(self, fmt: str) -> list[str]:
        """Names of the configured corpora (``corpora.specs``) in format ``fmt`` (``pubtator``,
        ``conll``), sorted: the wildcard constraint of that format's ingest rule."""
        return sorted(name for name, spec in self.specs.items() if spec["format"] == fmt)

    def corpus_sources(self, name: str) -> dict[str, str]:
        """Public sources corpus ``name`` reads, by rule input name.

        ``{"train": src, "dev": src, "test": src}`` for a corpus given per split (``files``), or
        ``{"corpus": src, "train_pmids": src, ...}`` for one file plus split PMID lists.
        """
        spec = self.specs[name]
        if "files" in spec:
            return dict(spec["files"])
        sources = {"corpus": spec["file"]}
        sources.update({f"{split}_pmids": src for split, src in spec["split_lists"].items()})
        return sources

    def check(self, name: str) -> None:
        """Stop, naming the config key to set, when corpus ``name`` or one of its sources is not
        configured (see the class docstring)."""
        if name not in self.specs:
            raise ValueError(
                f"corpora.build lists {name!r}, which has no entry in corpora.specs "
                f"(configured: {', '.join(sorted(self.specs))})."
            )
        missing = sorted(set(self.corpus_sources(name).values()) - set(self.sources))
        if missing:
            raise ValueError(
                f"corpus {name!r} needs the public source(s) {', '.join(missing)}: add them under "
                "`sources:` in your config with their url and content sha256 (config/README.md § corpora)."
            )

    def inputs(self, wildcards: Any) -> dict[str, str]:
        """Rule input: the named source files of corpus ``wildcards.corpus``."""
        self.check(wildcards.corpus)
        return {
            key: paths.source(src, self.sources[src]["filename"])
            for key, src in self.corpus_sources(wildcards.corpus).items()
        }

    def checksums(self, wildcards: Any) -> list[str]:
        """The sidecars of the corpus's source files (re-checked by its ingest rule)."""
        return paths.checksums(self.inputs(wildcards).values())

    @staticmethod
    def tables(kind: str, names: list[str]) -> list[str]:
        """One intermediate of ``kind`` (documents, sentences, mentions) per corpus, in order."""
        return [paths.intermediate(kind, name) for name in names]

    def built(self) -> list[outputs.Built]:
        """The declared outputs of the stage (:mod:`biosem.layout.outputs`) for every built corpus."""
        return outputs.expand("corpora", corpus=self.build)

    def targets(self) -> list[str]:
        """The intermediates and declared outputs (counts) of every built corpus."""
        tables = [paths.intermediate(table, name) for name in self.build for table in TABLES]
        return tables + [b.path for b in self.built()]
