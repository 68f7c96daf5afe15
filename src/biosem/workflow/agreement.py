"""Wiring of the agreement stage: rating sets into rated datasets with IAA-1/IAA-2 and
Krippendorff's alpha, expert study sheets for termpairs and wic, and their scoring once filled
sheets are listed in the config (docs/design.md § simlex "Ratings", § termpairs). Rules:
``workflow/rules/agreement.smk``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from biosem.layout import paths

SHEET_EXTENSIONS = ("csv", "xlsx")
WIC_RATERS = ("a", "b")
PLATFORM_FORMATS = ("mturk", "prolific")  # biosem.agreement.interchange.PLATFORMS


class Agreement:
    """The agreement stage under ``config["agreement"]``."""

    def __init__(self, config: Mapping[str, Any], wic_built: bool) -> None:
        self.section: Mapping[str, Any] = config["agreement"]
        self.ratings: Mapping[str, Any] = self.section["ratings"]
        self.filled: Mapping[str, Any] = self.section["filled_sheets"]
        self.sources: Mapping[str, Any] = config["sources"]
        self.termpair_terminologies: list[str] = list(config["termpairs"]["terminologies"])
        self.wic_built = wic_built

    def ratings_input(self, wildcards: Any) -> list[str]:
        """The ratings files of one rating set: a fetched public source, a local path, or the survey
        forms' exports."""
        spec = self.ratings[wildcards.ratings]
        if "source" in spec:
            return [paths.source(spec["source"], self.sources[spec["source"]]["filename"])]
        if "exports" in spec:
            return list(spec["exports"])
        return [spec["path"]]

    def ratings_checksums(self, wildcards: Any) -> list[str]:
        """The sidecar of a fetched ratings source (none for local files)."""
        return paths.checksums(self.ratings_input(wildcards))

    def ratings_design(self, wildcards: Any) -> list[str]:
        """The survey design a rating set is checked against: that of the survey forms' exports or of a
        platform results file (none for other formats)."""
        spec = self.ratings[wildcards.ratings]
        if "exports" in spec or spec["format"] in PLATFORM_FORMATS:
            return [paths.simlex("survey", spec["survey"], "items.parquet")]
        return []

    def ratings_spec(self, wildcards: Any) -> Mapping[str, Any]:
        return self.ratings[wildcards.ratings]

    def study_terminologies(self) -> list[str]:
        """Terminologies that get a term-pair study sheet (default: every termpairs terminology)."""
        chosen = self.section["termpair_study"]["terminologies"]
        built = self.termpair_terminologies
        return sorted(built if chosen is None else [t for t in chosen if t in built])

    @staticmethod
    def _sheet_paths(entries: Mapping[str, Any]) -> list[str]:
        """Rater entries (a sheet path, or ``{path, format, annotator}``) -> the files, in rater order."""
        return [e["path"] if isinstance(e, Mapping) else e for e in entries.values()]

    @staticmethod
    def _sheet_formats(entries: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
        """Rater -> ``{format, annotator}`` for the entries that are not plain sheets (Label Studio exports)."""
        return {
            rater: {"format": e["format"], "annotator": e["annotator"]}
            for rater, e in entries.items()
            if isinstance(e, Mapping)
        }

    def filled_termpair_sheets(self, wildcards: Any) -> list[str]:
        return self._sheet_paths(self.filled["termpairs"][wildcards.terminology])

    def termpair_sheet_formats(self, wildcards: Any) -> dict[str, dict[str, Any]]:
        return self._sheet_formats(self.filled["termpairs"][wildcards.terminology])

    def termpair_raters(self, wildcards: Any) -> list[str]:
        return list(self.filled["termpairs"][wildcards.terminology])

    def filled_wic_sheets(self, wildcards: Any) -> list[str]:
        return self._sheet_paths(self.filled["wic"])

    def wic_sheet_formats(self) -> dict[str, dict[str, Any]]:
        return self._sheet_formats(self.filled["wic"])

    @staticmethod
    def rating_outputs(name: str) -> list[str]:
        return [
            paths.rated(name, "txt"),
            paths.rated(name, "parquet"),
            paths.rating_agreement(name),
            paths.rater_agreement(name),
        ]

    def rated_datasets(self) -> dict[str, str]:
        """``"simlex/<rating set>"`` -> the rated dataset's Parquet, by name."""
        return {f"simlex/{name}": paths.rated(name, "parquet") for name in sorted(self.ratings)}

    def termpair_study_outputs(self, terminology: str) -> list[str]:
        folder = f"termpairs/{terminology}"
        out = [
            paths.study(folder, "sheets", "sheet.csv"),
            paths.study(folder, "sheets", "sheet.xlsx"),
            paths.study(folder, "key.csv"),
            paths.study(folder, "composition.tsv"),
            paths.study(folder, "forms", "sheet.html"),
            *self.labelstudio_outputs(folder),
        ]
        if terminology in self.filled["termpairs"]:
            out += [paths.study(folder, "scores.tsv"), paths.study(folder, "votes.csv")]
        return out

    def wic_study_outputs(self) -> list[str]:
        out = [paths.study("wic", "sheets", f"sheet_{rater}.{ext}") for rater in WIC_RATERS for ext in SHEET_EXTENSIONS]
        out += [paths.study("wic", "key.csv"), paths.study("wic", "composition.tsv")]
        out += [paths.study("wic", "forms", f"sheet_{rater}.html") for rater in WIC_RATERS]
        out += [*self.labelstudio_outputs("wic")]
        if self.filled["wic"]:
            out += [paths.study("wic", "scores.tsv"), paths.study("wic", "answers.csv")]
        return out

    @staticmethod
    def labelstudio_outputs(folder: str) -> list[str]:
        """The Label Studio labelling config and task files of a study (one task file per sheet)."""
        sheets = ["sheet"] if folder.startswith("termpairs/") else [f"sheet_{r}" for r in WIC_RATERS]
        return [paths.study(folder, "labelstudio", "config.xml")] + [
            paths.study(folder, "labelstudio", f"{sheet}.json") for sheet in sheets
        ]

    def targets(self) -> list[str]:
        out: list[str] = []
        for name in sorted(self.ratings):
            out += self.rating_outputs(name)
        for terminology in self.study_terminologies():
            out += self.termpair_study_outputs(terminology)
        if self.wic_built:
            out += self.wic_study_outputs()
        return out
