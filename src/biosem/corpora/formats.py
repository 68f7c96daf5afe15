"""The corpus formats: which public sources a corpus of each format reads, and what it writes.

One entry per ``corpora.specs.<name>.format`` (config schema ``workflow/schemas/corpora.schema.yaml``).
Each format has one rule (``ingest_<format>``, ``workflow/rules/corpora.smk``), one script of the same
name and one reader module; every format writes the three shared tables (documents, sentences,
mentions: :mod:`biosem.corpora.schemas`) and ``corpus_counts``, and may write tables of its own
(:attr:`CorpusFormat.tables`). The workflow plan (:class:`biosem.workflow.corpora.Corpora`) and the
release registry (:func:`biosem.release.registry.corpus_sources`) read the sources from here, so adding
a format is: an entry in :data:`FORMATS`, its keys in the config schema, those its script reads in
:data:`biosem.workflow.corpora.INGEST_KEYS` (its rule's params), its rule, script and reader.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class CorpusSource:
    """One public source a corpus reads.

    Attributes:
        key: the ingest rule's input name (``train``, ``corpus``, ``train_pmids``, ``archive``).
        source: the ``sources`` entry.
        role: what the corpus takes from it, for release cards (``"train"``, ``"train PMID list"``,
            ``"release tarball"``; ``""``: the corpus itself).
    """

    key: str
    source: str
    role: str


@dataclass(frozen=True)
class CorpusFormat:
    """A corpus format.

    Attributes:
        name: the ``format`` value.
        sources: the sources of a corpus spec of this format, in a fixed order.
        tables: the intermediates it writes besides documents, sentences and mentions
            (``paths.intermediate(<table>, <corpus>)``), e.g. CRAFT's per-article ``notices``.
    """

    name: str
    sources: Callable[[Mapping[str, Any]], list[CorpusSource]]
    tables: tuple[str, ...] = ()

    @property
    def rule(self) -> str:
        """The ingest rule (and script) of the format: ``ingest_<format>``."""
        return f"ingest_{self.name}"


def _pubtator_sources(spec: Mapping[str, Any]) -> list[CorpusSource]:
    """PubTator: one file per split (``files``), or one file plus PMID lists (``file``, ``split_lists``)."""
    out = [CorpusSource("corpus", spec["file"], "")] if spec.get("file") else []
    out += [CorpusSource(split, src, split) for split, src in sorted((spec.get("files") or {}).items())]
    out += [
        CorpusSource(f"{split}_pmids", src, f"{split} PMID list")
        for split, src in sorted((spec.get("split_lists") or {}).items())
    ]
    return out


def _craft_sources(spec: Mapping[str, Any]) -> list[CorpusSource]:
    """CRAFT: the release tarball (``archive``)."""
    return [CorpusSource("archive", spec["archive"], "release tarball")]


NOTICE_TABLE = "notices"
"""The table of a format that gives each document its own open-access notice (CRAFT's
``<PMID>.copyright``): a released sentence of such a document carries its notice
(:mod:`biosem.release.notices`)."""


def _conll_sources(spec: Mapping[str, Any]) -> list[CorpusSource]:
    """Token-per-line (CoNLL-style) text: one file per split (``files``)."""
    return [CorpusSource(split, src, split) for split, src in sorted(spec["files"].items())]


PUBTATOR = CorpusFormat("pubtator", _pubtator_sources)
CRAFT = CorpusFormat("craft", _craft_sources, tables=(NOTICE_TABLE,))
CONLL = CorpusFormat("conll", _conll_sources)
FORMATS: dict[str, CorpusFormat] = {f.name: f for f in (PUBTATOR, CRAFT, CONLL)}
"""Every corpus format, by its ``format`` value."""


def corpus_format(spec: Mapping[str, Any]) -> CorpusFormat:
    """The format of a ``corpora.specs`` entry.

    Raises:
        ValueError: a format biosem does not read (the schema prevents it in a validated config).
    """
    if spec.get("format") not in FORMATS:
        raise ValueError(f"corpus format {spec.get('format')!r}: expected one of {', '.join(FORMATS)}")
    return FORMATS[spec["format"]]


def corpus_sources(spec: Mapping[str, Any]) -> list[CorpusSource]:
    """The public sources of a ``corpora.specs`` entry (:attr:`CorpusFormat.sources`)."""
    return corpus_format(spec).sources(spec)


def has_notices(spec: Mapping[str, Any]) -> bool:
    """Whether the documents of a ``corpora.specs`` entry carry their own notices (:data:`NOTICE_TABLE`);
    ``False`` for an unknown format."""
    fmt = FORMATS.get(spec.get("format")) if isinstance(spec, Mapping) else None
    return fmt is not None and NOTICE_TABLE in fmt.tables
