"""Wiring of the agreement stage: rating sets into rated datasets with IAA-1/IAA-2 and
Krippendorff's alpha, expert study sheets for termpairs and wic, and their scoring once filled
sheets are listed in the config (docs/design.md § simlex "Ratings", § termpairs). Rules:
``workflow/rules/agreement.smk``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from biosem.layout import outputs, paths
from biosem.termpairs import DATASETS as TERMPAIR_DATASETS

WIC_RATERS = ("a", "b")
"""The two raters of the WiC study (sheets ``sheet_a``, ``sheet_b``)."""
PLATFORM_FORMATS = ("mturk", "prolific")  # biosem.agreement.interchange.PLATFORMS


class Agreement:
    """The agreement stage under ``config["agreement"]``.

    Raises:
        ValueError: a rating set's ``scale`` or ``rescale_to`` does not run from a lower to a higher
            value (naming the key).
    """

    def __init__(self, config: Mapping[str, Any], wic_built: bool) -> None:
        self.section: Mapping[str, Any] = config["agreement"]
        self.ratings: Mapping[str, Any] = self.section["ratings"]
        for name, spec in sorted(self.ratings.items()):
            for key in ("scale", "rescale_to"):
                if key not in spec:  # a spec built by hand, without the schema's defaults
                    continue
                low, high = spec[key]
                if not low < high:
                    raise ValueError(
                        f"config agreement.ratings.{name}.{key}: [{low:g}, {high:g}] must run from a lower to a "
                        "higher value ([lowest, highest], e.g. [0, 6])"
                    )
        self.filled: Mapping[str, Any] = self.section["filled_sheets"]
        self.raters_per_group: int = config["simlex"]["survey"]["raters_per_group"]
        self.sources: Mapping[str, Any] = config["sources"]
        self.termpair_terminologies: list[str] = list(config["termpairs"]["terminologies"])
        self.wic_built = wic_built
        # The params of the study rules, each the value its script reads.
        self.seed: int = config["seed"]
        self.termpair_datasets: list[str] = list(TERMPAIR_DATASETS)
        self.termpair_n_pos: int = self.section["termpair_study"]["n_pos"]
        self.termpair_n_neg: int = self.section["termpair_study"]["n_neg"]
        self.wic_per_rater: int = self.section["wic_study"]["per_rater"]
        self.wic_shared: int = self.section["wic_study"]["shared"]
        self.dont_know: str = self.section["dont_know"]
        self.wic_raters: list[str] = list(self.filled["wic"])

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
            return [outputs.simlex_survey_items.path(dataset=spec["survey"])]
        return []

    def ratings_spec(self, wildcards: Any) -> Mapping[str, Any]:
        """The rating set's config as ``aggregate_ratings`` reads it (its ``spec`` param). A set of survey
        exports also gets ``raters_per_group``, the raters each group of the design needs
        (``simlex.survey.raters_per_group``); the other formats go without it and without ``allow_incomplete``,
        which they do not read, so that neither key reruns them."""
        spec = self.ratings[wildcards.ratings]
        if "exports" in spec:
            return {**spec, "raters_per_group": self.raters_per_group}
        return {key: value for key, value in spec.items() if key != "allow_incomplete"}

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

    def rated_datasets(self) -> dict[str, str]:
        """``"simlex/<rating set>"`` -> the rated dataset's Parquet, by name."""
        return {f"simlex/{name}": outputs.rated_dataset.path(ratings=name) for name in sorted(self.ratings)}

    def built(self) -> list[outputs.Built]:
        """The declared outputs of the stage (:mod:`biosem.layout.outputs`): every rating set's, the study
        sheets of the term-pair terminologies and of WiC (when built), and the scores of the studies whose
        filled sheets the config lists."""
        studied = self.study_terminologies()
        out = outputs.expand("agreement", "ratings", ratings=sorted(self.ratings))
        out += outputs.expand("agreement", "termpair_study", terminology=studied)
        filled = [t for t in studied if t in self.filled["termpairs"]]
        out += outputs.expand("agreement", "termpair_study_filled", terminology=filled)
        if self.wic_built:
            out += outputs.expand("agreement", "wic_study", rater=WIC_RATERS)
            if self.filled["wic"]:
                out += outputs.expand("agreement", "wic_study_filled")
        return out

    def targets(self) -> list[str]:
        return [b.path for b in self.built()]
