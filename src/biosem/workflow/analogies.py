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
from biosem.workflow import paths

EXTENSIONS = ("txt", "parquet")
REPORTED = ("single_answer", "multi_answer", "all_info")
"""The settings whose text file the report shows (biosem.workflow.report)."""


class Analogies:
    """The analogies stage under ``config["analogies"]``.

    Raises:
        ValueError: on construction, when ``analogies.terminologies`` or ``overrides`` name an
            unconfigured terminology, or ``analogies.corpora`` a corpus without ``corpora.specs``.
    """

    def __init__(self, config: Mapping[str, Any]) -> None:
        self.section: Mapping[str, Any] = config["analogies"]
        self.seed = int(config["seed"])
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
        return {f"{name}_{ext}": paths.analogies(terminology, name, ext) for name in DATASETS for ext in EXTENSIONS}

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
        return [paths.analogies(name, "counts", "tsv") for name in self.terminologies]

    def datasets(self) -> dict[str, str]:
        """``"analogies/<terminology>/<setting>"`` -> Parquet, for every built terminology."""
        found = {
            f"analogies/{t}/{name}": paths.analogies(t, name, "parquet")
            for t in self.terminologies
            for name in DATASETS
        }
        return dict(sorted(found.items()))

    def targets(self) -> list[str]:
        out: list[str] = []
        for name in self.terminologies:
            out.append(paths.intermediate("term_counts", name))
            out += self.dataset_outputs(name).values()
            out.append(paths.analogies(name, "counts", "tsv"))
        if self.terminologies:
            out += [paths.analogies_summary("summary"), paths.analogies_summary("relations")]
        return out
