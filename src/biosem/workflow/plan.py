"""One plan of the whole workflow: every stage's input functions, params and targets.

``workflow/rules/common.smk`` validates the config and makes one :class:`Plan`; every rule file
reads its input functions and params from ``plan.<stage>``, its outputs from
:mod:`biosem.layout.outputs` and other paths from :mod:`biosem.layout.paths`. Each stage's
``built()`` expands its declared outputs over the wildcard values it knows; its ``targets()`` are
their paths (and the intermediates it asks for). Stages that depend on others (evaluate, agreement,
release, report) are given the other stages' built datasets here, so no stage rediscovers another's
outputs and the order in which rule files are included does not matter.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from biosem.layout import outputs
from biosem.termpairs import DATASETS as TERMPAIR_DATASETS
from biosem.workflow.agreement import Agreement
from biosem.workflow.analogies import Analogies
from biosem.workflow.corpora import Corpora
from biosem.workflow.evaluate import Evaluate
from biosem.workflow.release import ReleasePlan, active_stages
from biosem.workflow.report import Report
from biosem.workflow.simlex import Simlex
from biosem.workflow.sources import Sources
from biosem.workflow.terminologies import Terminologies, TermPairs
from biosem.workflow.wic import Wic

FAMILIES = ("termpairs", "wic", "analogies", "simlex", "agreement", "evaluate")
"""The stages with a target rule of their name (Snakefile; ``report_pages`` is the report's)."""


class Stages:
    """The stages that build and score the datasets under one config, without the release and the report
    (which also need the checkout and the licences): what :class:`Plan` is made of, and what ``biosem
    evaluate`` reads to know which datasets exist under a config (:meth:`Evaluate.catalogue`).

    Args:
        config: the workflow config, validated against ``workflow/schemas/config.schema.yaml``
            with its defaults set.

    Raises:
        ValueError: a stage's config names something that is not configured (the message names
            the key to set).
    """

    def __init__(self, config: Mapping[str, Any]) -> None:
        self.config = config
        self.sources = Sources(config)
        self.terminologies = Terminologies(config)
        self.termpairs = TermPairs(config)
        self.corpora = Corpora(config)
        self.wic = Wic(config)
        self.analogies = Analogies(config)
        self.simlex = Simlex(config)
        self.agreement = Agreement(config, wic_built=bool(self.wic.targets()))
        self.evaluate = Evaluate(
            config,
            corpora=self.corpora.build,
            termpair_datasets={
                f"termpairs/{t}/{d}": outputs.termpair_dataset.path(terminology=t, dataset=d)
                for t in self.termpairs.terminologies
                for d in TERMPAIR_DATASETS
            },
            analogy_datasets=self.analogies.datasets(),
            rated_datasets=self.agreement.rated_datasets(),
            wic_built=bool(self.wic.targets()),
        )

    def stages(self) -> dict[str, Any]:
        """The stages with declared outputs, by name, in the order their outputs are listed."""
        return {
            "termpairs": self.termpairs,
            "corpora": self.corpora,
            "wic": self.wic,
            "analogies": self.analogies,
            "simlex": self.simlex,
            "agreement": self.agreement,
            "evaluate": self.evaluate,
        }


class Plan(Stages):
    """Every stage of one Snakemake invocation: the :class:`Stages`, the release and the report.

    Args:
        config: the workflow config, validated against ``workflow/schemas/config.schema.yaml``
            with its defaults set.
        basedir: the workflow's folder (``workflow.basedir``), whose git checkout names the code.
        config_files: the config files given, relative to the workflow folder.
        config_args: ``--config`` items (``key=value``).

    Raises:
        ValueError: a stage's config names something that is not configured (the message names
            the key to set), or a source's licence is not one biosem knows.
    """

    def __init__(
        self,
        config: Mapping[str, Any],
        basedir: str = ".",
        config_files: Sequence[str] = ("config/config.yaml",),
        config_args: Sequence[str] = (),
    ) -> None:
        super().__init__(config)
        stages = self.stages()
        stage_targets = {name: stage.targets() for name, stage in stages.items()}
        self.release = ReleasePlan(
            config,
            active_stages(stage_targets),
            basedir=basedir,
            config_files=config_files,
            config_args=config_args,
        )
        self.built: list[outputs.Built] = [built for stage in stages.values() for built in stage.built()]
        """Every declared output the stages build (:mod:`biosem.layout.outputs`) with its wildcard values."""
        self.report = Report(self.built)
        self.family_targets: dict[str, list[str]] = {
            **{name: stage_targets[name] for name in FAMILIES},
            "report_pages": self.report.targets(),
        }
        """The files of each family's target rule (``snakemake --cores N termpairs``; ``report_pages``: every
        report page): that family's part of :meth:`targets`, one list per rule named in :data:`FAMILIES`."""
        # The terminologies whose intermediates some rule of `rule all` reads.
        scores_termpairs = bool(self.evaluate.evaluated and self.evaluate.termpair_datasets)
        read = [
            *self.termpairs.terminologies,
            *self.analogies.terminologies,
            *self.simlex.section["resources"]["terminologies"],
            *([self.wic.terminology] if self.wic.terminology else []),
            *(self.evaluate.category_terminologies if scores_termpairs else []),
        ]
        self._targets = [
            *self.terminologies.targets(read),
            *(path for targets in stage_targets.values() for path in targets),
            *self.report.targets(),
        ]

    def targets(self) -> list[str]:
        """What ``rule all`` builds: the intermediates of every terminology a stage reads, every
        stage's outputs (with the plots of the datasets) and the report's pages (releases are cut
        explicitly)."""
        return list(self._targets)

    @staticmethod
    def name_pattern(names: Sequence[str]) -> str:
        """A wildcard constraint matching exactly these names (or nothing)."""
        return "|".join(names) if names else "(?!x)x"
