"""Wiring of the analogies stage: BMASS analogies from terminology relations (Newman-Griffis et
al. 2017). Term frequencies in a corpus, then Single-Answer / Multi-Answer / All-Info analogies per
relation (docs/design.md § analogies). Rules: ``workflow/rules/analogies.smk``.
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Mapping
from typing import Any

from biosem.analogies.construct import DATASETS, params_from_config
from biosem.analogies.matching import case_rules_from_config
from biosem.corpora.shards import expand_corpus_files
from biosem.layout import outputs, paths

FORMATS = {"txt": outputs.analogy_dataset_text, "parquet": outputs.analogy_dataset}
"""The two files of a setting: the reference text format and Parquet."""


class Analogies:
    """The analogies stage under ``config["analogies"]``.

    Raises:
        ValueError: on construction, when ``analogies.terminologies`` or ``overrides`` name an
            unconfigured terminology, or ``analogies.corpora`` a corpus without ``corpora.specs``.
    """

    def __init__(self, config: Mapping[str, Any]) -> None:
        self.section: Mapping[str, Any] = config["analogies"]
        self.seed = int(config["seed"])
        self.backend: str = self.section["backend"]
        self.chunk_mb: float = self.section["chunk_mb"]
        """Params of ``count_term_frequencies_shard``: the matching backend and the text read per chunk."""
        self.mirror_dirs: list[str] = list(config["mirror_dirs"])
        self.formats = {name: spec["format"] for name, spec in config["terminologies"].items()}
        self.terminologies: list[str] = list(self.section["terminologies"])
        for name in self.terminologies + sorted(self.section["overrides"]):
            if name not in self.formats:
                raise ValueError(
                    f"config analogies: {name!r} is not a configured terminology (keys of `terminologies`)"
                )
        for name in self.section["corpora"]:
            if name not in config["corpora"]["specs"]:
                raise ValueError(
                    f"config analogies.corpora: {name!r} has no entry in corpora.specs; "
                    "list a configured corpus or give the text under analogies.text_files"
                )

    @staticmethod
    def dataset_outputs(terminology: str = "{terminology}") -> dict[str, str]:
        """The six settings' text and Parquet files, named ``<setting>_<ext>``."""
        return {
            f"{name}_{ext}": output.path(terminology=terminology, setting=name)
            for name in DATASETS
            for ext, output in FORMATS.items()
        }

    @staticmethod
    def validity_inputs(terminology: str = "{terminology}") -> dict[str, str]:
        """The six settings' Parquet files by setting name (inputs of ``check_analogy_validity``)."""
        return {name: outputs.analogy_dataset.path(terminology=terminology, setting=name) for name in DATASETS}

    def frequency_inputs(self, wildcards: Any) -> dict[str, Any]:
        """The terminology's terms and the frequency corpus (documents Parquet, then text files)."""
        return {
            "terms": paths.intermediate("terms", wildcards.terminology),
            "documents": [paths.intermediate("documents", c) for c in self.section["corpora"]],
            "text_files": expand_corpus_files(self.section["text_files"]),
        }

    def case_rules(self) -> dict[str, Any]:
        """Which terms are counted with their case (:class:`biosem.analogies.matching.CaseRules`
        fields), for the counting rules."""
        return dataclasses.asdict(case_rules_from_config(self.section))

    def nltk_folders(self) -> list[str]:
        """Where WordNet is looked for after $NLTK_DATA: ``analogies.nltk_data``, then <mirror>/nltk_data."""
        folders = [str(self.section["nltk_data"])] if self.section["nltk_data"] else []
        return folders + [os.path.join(m, "nltk_data") for m in self.mirror_dirs]

    def construction(self, wildcards: Any) -> dict[str, Any]:
        """Construction parameters of one terminology (global values, its overrides, its format)."""
        name = wildcards.terminology
        return dataclasses.asdict(params_from_config(self.section, name, self.formats[name], self.seed))

    def all_construction(self) -> dict[str, dict[str, Any]]:
        """Construction parameters of every built terminology, in ``analogies.terminologies`` order."""
        return {
            name: dataclasses.asdict(params_from_config(self.section, name, self.formats[name], self.seed))
            for name in self.terminologies
        }

    def summary_inputs(self) -> list[str]:
        """Every built terminology's ``counts.tsv``, in ``analogies.terminologies`` order."""
        return [outputs.analogy_counts.path(terminology=name) for name in self.terminologies]

    def datasets(self) -> dict[str, str]:
        """``"analogies/<terminology>/<setting>"`` -> Parquet, for every built terminology."""
        found = {
            f"analogies/{t}/{name}": outputs.analogy_dataset.path(terminology=t, setting=name)
            for t in self.terminologies
            for name in DATASETS
        }
        return dict(sorted(found.items()))

    def built(self) -> list[outputs.Built]:
        """The declared outputs of the stage (:mod:`biosem.layout.outputs`) for every terminology
        (none without one: the summaries and the plot are over terminologies)."""
        if not self.terminologies:
            return []
        return outputs.expand("analogies", terminology=self.terminologies, setting=DATASETS)

    def targets(self) -> list[str]:
        """The term counts of every terminology and the declared outputs."""
        return [paths.intermediate("term_counts", t) for t in self.terminologies] + [b.path for b in self.built()]
