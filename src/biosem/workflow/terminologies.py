"""Wiring of the ingest and termpairs stages: terminology inputs, term-pair targets and resources.

Rules: ``workflow/rules/ingest.smk`` (one adapter per format) and ``workflow/rules/termpairs.smk``
(Schulz & Juric, AAAI 2020: positives, the joint first nearest-term search, 20 datasets, counts).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from biosem.layout import outputs, paths
from biosem.sources import licensed_files
from biosem.terminology.schemas import TERMINOLOGY_TABLES
from biosem.termpairs import DATASETS, DIFFICULTIES
from biosem.termpairs.params import CONSTRUCTION_KEYS, EXCLUSION_KEYS
from biosem.workflow.params import pick

INGEST_KEYS: dict[str, tuple[str, ...]] = {
    "rf2": ("path", "release_type", "language_refsets"),
    "rrf": ("path", "languages", "sabs", "trailing_nullcols"),
    "obo": ("id_prefixes", "underscores_as_spaces", "exclude_synonym_types", "allow_cycles"),
    "mesh": ("supplementary", "permuted_terms"),
}
"""The keys of a ``terminologies.<name>`` entry that the ingest script of each format reads (rules
``ingest_snomed``, ``ingest_umls``, ``ingest_obo``, ``ingest_mesh``): the rule's ``spec`` param. The
others are not params: ``format`` picks the rule, ``source`` and ``sources`` name its input files,
``licence`` is the release's (editing it reruns no ingestion)."""


class Terminologies:
    """The configured terminologies (``config["terminologies"]``) and their intermediates."""

    def __init__(self, config: Mapping[str, Any]) -> None:
        self.specs: Mapping[str, Any] = config["terminologies"]
        self.sources: Mapping[str, Any] = config["sources"]
        self.names: list[str] = sorted(self.specs)
        """The configured terminologies, sorted (the ``{terminology}`` wildcard constraint)."""

    def of_format(self, fmt: str) -> list[str]:
        """Names of the terminologies in format ``fmt`` (rf2, rrf, obo or mesh), sorted."""
        return sorted(name for name, spec in self.specs.items() if spec["format"] == fmt)

    def spec(self, wildcards: Any) -> dict[str, Any]:
        """Params of an ingest rule: the :data:`INGEST_KEYS` of the terminology's format, from its entry."""
        spec = self.specs[wildcards.terminology]
        return pick(spec, INGEST_KEYS[spec["format"]])

    def release_root(self, wildcards: Any) -> str:
        """Params of ``checksum_licensed_release``: the licensed release folder
        (``terminologies.<terminology>.path``) its checksums are relative to."""
        return self.specs[wildcards.terminology]["path"]

    def licensed_inputs(self, wildcards: Any) -> list[str]:
        """The files of a licensed release folder (rf2/rrf), so that Snakemake tracks them.

        Raises:
            SourceNotFoundError: the folder does not exist or holds no release files.
        """
        spec = self.specs[wildcards.terminology]
        return licensed_files(wildcards.terminology, spec["path"], spec["format"])

    def obo_input(self, wildcards: Any) -> str:
        """The fetched OBO file of an OBO terminology."""
        name = self.specs[wildcards.terminology]["source"]
        return paths.source(name, self.sources[name]["filename"])

    def obo_checksums(self, wildcards: Any) -> list[str]:
        """The sidecar of the OBO file (re-checked by ``ingest_obo``)."""
        return paths.checksums([self.obo_input(wildcards)])

    def mesh_checksums(self, wildcards: Any) -> list[str]:
        """The sidecars of the MeSH files (re-checked by ``ingest_mesh``)."""
        return paths.checksums(self.mesh_inputs(wildcards).values())

    def mesh_inputs(self, wildcards: Any) -> dict[str, str]:
        """The fetched files of a MeSH terminology by role (``terminologies.<name>.sources``): the XML
        form's ``descriptors`` or the tables form's ``thesaurus``, ``trees``, ``pharmacological_actions``,
        plus ``supplementary_records`` when ``supplementary`` is on.

        Raises:
            ValueError: a role names a source that ``sources`` does not define.
        """
        spec = self.specs[wildcards.terminology]
        roles = spec["sources"]
        wanted = ["descriptors"] if "descriptors" in roles else ["thesaurus", "trees", "pharmacological_actions"]
        if spec["supplementary"]:
            wanted.append("supplementary_records")
        inputs = {}
        for role in wanted:
            name = roles.get(role)
            if name not in self.sources:
                raise ValueError(
                    f"terminologies.{wildcards.terminology}.sources.{role}: {name!r} is not a source "
                    f"(define sources.{name} or set the role)"
                )
            inputs[role] = paths.source(name, self.sources[name]["filename"])
        return inputs

    @staticmethod
    def intermediates(name: str) -> list[str]:
        """The five Parquet intermediates of terminology ``name``."""
        return [paths.intermediate(table, name) for table in TERMINOLOGY_TABLES]

    @staticmethod
    def ingest_outputs() -> dict[str, str]:
        """Named outputs of an ingest rule (``{terminology}`` wildcard)."""
        return {table: paths.intermediate(table, "{terminology}") for table in TERMINOLOGY_TABLES}

    def targets(self, read: Iterable[str]) -> list[str]:
        """The intermediates of the terminologies some stage reads (``read``), in name order. A
        terminology that is configured but read by no stage is ingested only when asked for
        (``snakemake results/intermediate/terms/<name>.parquet``)."""
        return [path for name in sorted(set(read)) for path in self.intermediates(name)]


class TermPairs:
    """The termpairs stage under ``config["termpairs"]``.

    Raises:
        ValueError: on construction, when ``termpairs.terminologies`` names an unconfigured terminology.
    """

    def __init__(self, config: Mapping[str, Any]) -> None:
        self.section: Mapping[str, Any] = config["termpairs"]
        self.terminologies: list[str] = list(self.section["terminologies"])
        unknown = [t for t in self.terminologies if t not in config["terminologies"]]
        if unknown:
            raise ValueError(
                f"config termpairs.terminologies lists {', '.join(unknown)}, which have no entry in "
                f"terminologies (configured: {', '.join(sorted(config['terminologies']))})."
            )
        self.joint_search: list[str] = list(self.section["joint_search"])
        self.construction = pick(self.section, CONSTRUCTION_KEYS)
        self.seed: int = config["seed"]
        self.random_rounds: int = self.section["random_rounds"]
        """Params of ``sample_termpair_negatives`` beside the seed: redraws of a random negative."""
        self.formats = {name: spec["format"] for name, spec in config["terminologies"].items()}

    def exclusion(self, wildcards: Any) -> dict[str, Any]:
        """Params of ``build_termpair_positives`` beyond the construction: what negatives exclude
        (:data:`~biosem.termpairs.params.EXCLUSION_KEYS`) and the terminology's ``format`` (a
        concept grouping such as the MeSH descriptor exists in one format only)."""
        return {**pick(self.section, EXCLUSION_KEYS), "format": self.formats[wildcards.terminology]}

    @staticmethod
    def datasets(terminology: str) -> list[str]:
        """The 20 dataset Parquet files of one terminology (``{terminology}`` may be a wildcard)."""
        return [outputs.termpair_dataset.path(terminology=terminology, dataset=name) for name in DATASETS]

    @staticmethod
    def stats(terminology: str) -> list[str]:
        """The per-dataset counts of one terminology (``{terminology}`` may be a wildcard)."""
        return [outputs.termpair_stats.path(terminology=terminology, dataset=name) for name in DATASETS]

    def neighbours(self, wildcards: Any) -> dict[str, str]:
        """The joint first search a Levenshtein dataset reads when its kind is in
        ``termpairs.joint_search``; nothing otherwise."""
        if wildcards.strategy == "levenshtein" and wildcards.kind in self.joint_search:
            return {
                "neighbours": outputs.termpair_neighbours.path(
                    terminology=wildcards.terminology, difficulty=wildcards.difficulty
                )
            }
        return {}

    @staticmethod
    def threads(wildcards: Any) -> int:
        """The exact Levenshtein search scales with threads (term-length groups searched
        concurrently; outputs do not depend on them); random negatives are single-threaded.
        Snakemake caps threads at --cores."""
        return 8 if getattr(wildcards, "strategy", "levenshtein") == "levenshtein" else 1

    @staticmethod
    def mem_mb(wildcards: Any, input: Any) -> int:
        """Peak memory grows with the positives and components: 64 MB per MB of input, at least 4 GB."""
        return max(4000, int(64 * input.size_mb))

    @staticmethod
    def runtime(wildcards: Any, input: Any, attempt: int) -> int:
        """Minutes for a cluster's time limit: grows with the input; doubled on the retry."""
        if getattr(wildcards, "strategy", "levenshtein") != "levenshtein":
            return 30 * attempt
        return attempt * int(30 + 8 * input.size_mb)

    def built(self) -> list[outputs.Built]:
        """The declared outputs of the stage (:mod:`biosem.layout.outputs`) for every terminology."""
        return outputs.expand("termpairs", terminology=self.terminologies, dataset=DATASETS)

    def targets(self) -> list[str]:
        return [b.path for b in self.built()]


__all__ = ["CONSTRUCTION_KEYS", "DIFFICULTIES", "INGEST_KEYS", "Terminologies", "TermPairs"]
