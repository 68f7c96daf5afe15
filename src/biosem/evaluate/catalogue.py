"""Which datasets there are to score, and which of them are built: the files ``biosem evaluate`` reads.

A :class:`Catalogue` lists the datasets of each family by the name the results table gives them and the file
the workflow writes them to. The workflow plan declares them for a config
(:meth:`biosem.workflow.evaluate.Evaluate.catalogue`, the datasets the evaluate rules score);
:meth:`Catalogue.built` keeps those whose files exist. The external rated benchmarks are sources, not built
datasets: :func:`find_benchmarks` finds each one's checksum-matching file (fetched or in a mirror).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from biosem.evaluate import FAMILIES
from biosem.layout import paths
from biosem.sources import content_sha256, find_in_mirrors


@dataclass(frozen=True)
class Catalogue:
    """The datasets of each family, name -> file (sorted by name), as the workflow names and writes them.

    Attributes:
        rated: ``simlex/<rating set>`` -> the rated dataset's Parquet (``word1, word2, score``).
        termpairs: ``termpairs/<terminology>/<dataset>`` -> Parquet (``term1, term2, label``).
        analogies: ``analogies/<terminology>/<setting>`` -> Parquet.
        term_counts: ``<terminology>`` -> its ``term_counts`` intermediate (the analogies' candidate terms),
            for every terminology of ``analogies``.
        wic: ``wic/dev`` and ``wic/test`` -> the split's Parquet, or empty.
        token_counts: the token counts of the frequency-band corpus (rule ``count_frequency_tokens``; rated
            datasets are scored per frequency band when it exists), and ``band_corpus`` its corpus's name in
            the results table.
    """

    rated: Mapping[str, str] = field(default_factory=dict)
    termpairs: Mapping[str, str] = field(default_factory=dict)
    analogies: Mapping[str, str] = field(default_factory=dict)
    term_counts: Mapping[str, str] = field(default_factory=dict)
    wic: Mapping[str, str] = field(default_factory=dict)
    token_counts: str | None = None
    band_corpus: str | None = None

    def family(self, family: str) -> Mapping[str, str]:
        """The datasets of one of :data:`biosem.evaluate.FAMILIES` (rated: the built rated datasets only).

        Raises:
            KeyError: ``family`` is not one of them.
        """
        if family not in FAMILIES:
            raise KeyError(f"no dataset family {family!r} (one of {', '.join(FAMILIES)})")
        return getattr(self, family)

    def built(self, families: Sequence[str] = FAMILIES) -> Catalogue:
        """The datasets of ``families`` whose files exist: an analogy dataset only when its terminology's term
        counts exist too, the WiC splits both or neither; the token counts when they exist and rated datasets
        are asked for."""
        exists = {
            family: {name: path for name, path in self.family(family).items() if Path(path).is_file()}
            if family in families
            else {}
            for family in FAMILIES
        }
        term_counts = {t: p for t, p in self.term_counts.items() if Path(p).is_file()}
        exists["analogies"] = {
            name: path for name, path in exists["analogies"].items() if name.split("/")[1] in term_counts
        }
        used = {name.split("/")[1] for name in exists["analogies"]}
        if len(exists["wic"]) < len(self.wic):
            exists["wic"] = {}
        rated = "rated" in families and self.token_counts is not None and Path(self.token_counts).is_file()
        return Catalogue(
            **{family: dict(sorted(found.items())) for family, found in exists.items()},
            term_counts={t: p for t, p in sorted(term_counts.items()) if t in used},
            token_counts=self.token_counts if rated else None,
            band_corpus=self.band_corpus,
        )

    def missing(self, families: Sequence[str]) -> list[str]:
        """The families of ``families`` but ``rated`` (whose external benchmarks are sources) without a dataset
        here, each as ``"<family>: no built dataset under results/datasets"``."""
        return [
            f"{f}: no built dataset under {paths.DATASETS}" for f in families if f != "rated" and not self.family(f)
        ]


def benchmark_file(source: str, spec: Mapping[str, Any], mirror_dirs: Sequence[str]) -> tuple[str | None, list[str]]:
    """The file of a benchmark's source (config ``sources.<source>``) whose content matches its pinned sha256:
    fetched under ``resources/`` (:func:`biosem.layout.paths.source`) or in a mirror
    (:func:`biosem.sources.find_in_mirrors`); else None. Also returns what was tried and why it failed."""
    tried = []
    fetched = paths.source(source, spec["filename"])
    if Path(fetched).is_file():
        got = content_sha256(fetched)
        if got == spec["sha256"]:
            return fetched, []
        tried.append(f"{fetched} (sha256 {got} != pinned {spec['sha256']})")
    found, more = find_in_mirrors(source, spec, mirror_dirs)
    return (str(found) if found is not None else None), tried + more


def find_benchmarks(config: Mapping[str, Any]) -> tuple[list[tuple[dict[str, Any], str]], list[str]]:
    """The external rated benchmarks of config ``evaluate.benchmarks`` whose files are found
    (:func:`benchmark_file`, in the mirrors of ``mirror_dirs``), by name: ``(spec with its "name", file)``; and a
    note per benchmark skipped (``benchmark <name> skipped: no file of source <source> (<what was tried>)``)."""
    benchmarks, notes = [], []
    section = config["evaluate"]["benchmarks"]
    for name in sorted(section):
        spec = {"name": name, **section[name]}
        source = spec["source"]
        path, tried = benchmark_file(source, config["sources"][source], config.get("mirror_dirs") or [])
        if path is None:
            notes.append(f"benchmark {name} skipped: no file of source {source} ({'; '.join(tried) or 'none'})")
        else:
            benchmarks.append((spec, path))
    return benchmarks, notes
