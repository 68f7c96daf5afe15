"""Wiring of the corpora stage: which sources a corpus reads, its rule's outputs, the stage's targets.

Rules: ``workflow/rules/corpora.smk``, one per format (``ingest_pubtator``, ``ingest_craft``,
``ingest_conll``), one job
per corpus; each rule's ``{corpus}`` wildcard is constrained to the corpora of its format
(:meth:`Corpora.of_format`), so exactly one rule writes a corpus's tables. The formats and their
sources: :mod:`biosem.corpora.formats`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from biosem.corpora.formats import FORMATS, corpus_format, corpus_sources
from biosem.layout import outputs, paths
from biosem.workflow.params import pick

TABLES = ("documents", "sentences", "mentions")
"""The tables every corpus writes (besides ``corpus_counts``); a format may add its own (``notices``)."""

INGEST_KEYS: dict[str, tuple[str, ...]] = {
    "pubtator": ("namespace", "type_namespaces"),
    "craft": ("annotation_set", "modules"),
    "conll": ("document_unit", "sentences_per_document"),
}
"""The keys of a ``corpora.specs.<name>`` entry that the ingest script of each format (a key of
:data:`~biosem.corpora.formats.FORMATS`) reads: the rule's ``spec`` param. The others are not params:
``format`` picks the rule, ``files``, ``file``, ``split_lists`` and ``archive`` name its input files,
``licence`` is the release's (editing it reruns no ingestion)."""


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
        self.names: list[str] = sorted(self.specs)
        """The configured corpora, sorted (the ``{corpus}`` wildcard constraint)."""
        self.sentences: Mapping[str, Any] = self.section["sentences"]
        """``corpora.sentences``: the sentence splitter's options (params of the PubTator and CRAFT rules)."""
        self.shards: int = config["corpus_shards"]
        """``corpus_shards``: the scatter count of the corpus counts (``scattergather: corpus``)."""
        for name in self.build:
            self.check(name)

    def corpus_sources(self, name: str) -> dict[str, str]:
        """Public sources corpus ``name`` reads, by rule input name (:mod:`biosem.corpora.formats`).

        PubTator: ``{"train": src, "dev": src, "test": src}`` for a corpus given per split (``files``),
        or ``{"corpus": src, "train_pmids": src, ...}`` for one file plus split PMID lists; CRAFT:
        ``{"archive": src}``.
        """
        return {s.key: s.source for s in corpus_sources(self.specs[name])}

    def of_format(self, fmt: str) -> list[str]:
        """Names of the configured corpora in format ``fmt`` (a key of ``FORMATS``), sorted: the
        ``{corpus}`` wildcard constraint of that format's ingest rule."""
        if fmt not in FORMATS:
            raise ValueError(f"corpus format {fmt!r}: expected one of {', '.join(FORMATS)}")
        return sorted(name for name, spec in self.specs.items() if spec["format"] == fmt)

    def spec(self, wildcards: Any) -> dict[str, Any]:
        """Params of an ingest rule: the :data:`INGEST_KEYS` of the corpus's format, from its entry."""
        spec = self.specs[wildcards.corpus]
        return pick(spec, INGEST_KEYS[spec["format"]])

    @staticmethod
    def ingest_outputs() -> dict[str, str]:
        """The outputs every ingest rule writes (named): the three shared tables and ``corpus_counts``."""
        out = {table: paths.intermediate(table, "{corpus}") for table in TABLES}
        out["counts"] = outputs.corpus_counts.template
        return out

    def format_tables(self, table: str, names: list[str]) -> list[str]:
        """The ``table`` intermediates (a format's own, e.g. ``notices``) of those of ``names`` whose
        format writes it, in order: ``plan.corpora.format_tables("notices", wic_corpora)``."""
        return [paths.intermediate(table, name) for name in names if table in corpus_format(self.specs[name]).tables]

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
        """The declared outputs of the stage (:mod:`biosem.layout.outputs`) for every built corpus: those
        of every format, and those of a format's own part (``part="craft"``) for its corpora."""
        built = outputs.expand("corpora", corpus=self.build)
        for fmt in FORMATS:
            names = [name for name in self.build if self.specs[name]["format"] == fmt]
            built += outputs.expand("corpora", part=fmt, corpus=names)
        return built

    def targets(self) -> list[str]:
        """The intermediates (shared and of each format) and declared outputs (counts) of every built corpus."""
        tables = [paths.intermediate(table, name) for name in self.build for table in TABLES]
        extra = sorted({t for name in self.build for t in corpus_format(self.specs[name]).tables})
        tables += [path for table in extra for path in self.format_tables(table, self.build)]
        return tables + [b.path for b in self.built()]
