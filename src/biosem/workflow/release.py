"""Wiring of the release stage: the datasets of this run's releases and the rule functions that
build them (``workflow/rules/release.smk``).

A :class:`ReleasePlan` is made once per Snakemake invocation (:class:`biosem.workflow.plan.Plan`);
its methods taking ``wildcards`` are input or params functions. Releases are cut explicitly with
the ``release_public`` / ``release_private`` targets, so ``rule all`` asks nothing of this stage.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from biosem import __version__
from biosem.layout import paths
from biosem.release import registry
from biosem.release.licence import LicenceStatus, check_config_licences, require_public
from biosem.release.provenance import code_version, command_line
from biosem.workflow.params import pick

VISIBILITIES = ("public", "private")

LICENCE_KEYS = ("restricted_formats", "restricted_licences", "assert_licences")
"""The keys of ``release`` that decide a dataset's licence status
(:meth:`~biosem.release.registry.ReleaseDataset.licence_status`): the ``release`` param of the release rules,
whose version, date and url are their ``provenance`` (editing ``release.datasets`` or ``release.exclude``
rebuilds no other dataset)."""


def provider_stages() -> list[str]:
    """The workflow stages whose outputs registered providers release."""
    return sorted({reg.stage for reg in registry.PROVIDERS.values()})


def active_stages(stage_targets: Mapping[str, Sequence[str]]) -> list[str]:
    """Stages of the registered providers that build something (non-empty targets) under the config."""
    return [stage for stage in provider_stages() if stage_targets.get(stage)]


class ReleasePlan:
    """The datasets of this run's releases and the rule functions that build them.

    Args:
        config: the whole workflow config (``config["release"]`` validated).
        stages: active stages (:func:`active_stages`).
        basedir: the workflow's folder (``workflow.basedir``), whose git checkout names the code.
        config_files: the config files given, relative to the workflow folder.
        config_args: ``--config`` items (``key=value``).

    Raises:
        UnknownLicenceError: a licence string of the config names no licence biosem knows (the
            message lists them; :func:`biosem.release.licence.check_config_licences`).
        ValueError: ``release.datasets`` / ``release.exclude`` name no dataset of the run, or
            ``release.assert_licences`` names no source of the released datasets.
    """

    def __init__(
        self,
        config: Mapping[str, Any],
        stages: Sequence[str],
        basedir: str,
        config_files: Sequence[str],
        config_args: Sequence[str] = (),
    ) -> None:
        check_config_licences(config)
        self.config = config
        self.release = config["release"]
        self.licence_params = pick(self.release, LICENCE_KEYS)
        """Params of the release rules (``release``): the :data:`LICENCE_KEYS` of ``release``."""
        self.root = paths.release(self.release["version"])
        self.basedir = basedir
        self.config_files = list(config_files)
        self.config_args = list(config_args)
        offered = registry.registered_datasets(config, stages)
        self.datasets = registry.select(offered, self.release["datasets"], self.release["exclude"])
        names = {s.name for d in self.datasets for s in d.sources}
        unknown = sorted(set(self.release.get("assert_licences", ())) - names)
        if unknown:
            raise ValueError(
                f"config release.assert_licences: {', '.join(unknown)} name no source of the released datasets "
                f"(expected one of: {', '.join(sorted(names)) or 'none'})"
            )
        self.status: dict[str, LicenceStatus] = {d.id: d.licence_status(self.release) for d in self.datasets}

    # --- membership -----------------------------------------------------------------------------

    def members(self, visibility: str) -> list[registry.ReleaseDataset]:
        """All datasets (private), or the unrestricted ones (public)."""
        if visibility == "private":
            return list(self.datasets)
        return [d for d in self.datasets if not self.status[d.id].restricted]

    def withheld(self, visibility: str) -> list[registry.ReleaseDataset]:
        """Restricted datasets left out of a public release (listed in its RELEASE.md)."""
        return [] if visibility == "private" else [d for d in self.datasets if self.status[d.id].restricted]

    def check_public(self) -> None:
        """Refuse a public release when ``release.datasets`` explicitly names restricted datasets.

        Raises:
            RestrictedLicenceError: listing them.
        """
        if self.release["datasets"] is not None:
            require_public([(d.id, self.status[d.id]) for d in self.datasets])

    # --- paths ----------------------------------------------------------------------------------

    def folder(self, dataset: registry.ReleaseDataset, visibility: str = "{visibility}") -> str:
        return f"{self.root}/{visibility}/{dataset.id}"

    def dataset_outputs(self, dataset: registry.ReleaseDataset) -> dict[str, Any]:
        """Named outputs of a dataset's rule (with the ``{visibility}`` wildcard)."""
        folder = self.folder(dataset)
        return {
            "data": [f"{folder}/{rel}" for *_, rel in dataset.shards()],
            "card": f"{folder}/README.md",
            "croissant": f"{folder}/croissant.json",
            "sums": f"{folder}/SHA256SUMS",
        }

    @staticmethod
    def licensed_checksums(dataset: registry.ReleaseDataset) -> list[str]:
        """Checksum tables of the licensed release folders the dataset derives from."""
        return [paths.licensed_checksums(name) for name in dataset.licensed_terminologies()]

    # --- rule functions -------------------------------------------------------------------------

    @staticmethod
    def dataset_params(dataset: registry.ReleaseDataset) -> dict[str, Any]:
        """Params ``dataset`` of a dataset's rule: the dataset as plain values
        (:meth:`~biosem.release.registry.ReleaseDataset.to_params`; ``from_params`` reads it back)."""
        return dataset.to_params()

    def guard(self, dataset_id: str) -> Callable[[Any], list[str]]:
        """An input function refusing to build restricted ``dataset_id`` into the public release."""
        return functools.partial(self._guard, dataset_id)

    def _guard(self, dataset_id: str, wildcards: Any) -> list[str]:
        if wildcards.visibility == "public":
            require_public([(dataset_id, self.status[dataset_id])])
        return []

    def manifest_inputs(self, wildcards: Any) -> list[str]:
        """The checksum lists of the release's dataset folders (after the licence check)."""
        if wildcards.visibility == "public":
            self.check_public()
        return [f"{self.folder(d, wildcards.visibility)}/SHA256SUMS" for d in self.members(wildcards.visibility)]

    def manifest_datasets(self, wildcards: Any) -> list[dict[str, Any]]:
        return [d.to_params() for d in self.members(wildcards.visibility)]

    def manifest_withheld(self, wildcards: Any) -> list[dict[str, Any]]:
        return [d.to_params() for d in self.withheld(wildcards.visibility)]

    def public_target(self, wildcards: Any) -> str:
        """Input of ``release_public``: the public checksum list (after the licence check)."""
        self.check_public()
        return f"{self.root}/public/SHA256SUMS"

    @functools.cached_property
    def _code(self) -> dict[str, str]:
        return code_version(self.basedir)

    def provenance(self, wildcards: Any) -> dict[str, Any]:
        """Params of the release rules: code version, command, config files (no time, host or cores)."""
        return {
            "release_version": self.release["version"],
            "visibility": wildcards.visibility,
            "biosem_version": __version__,
            "git_commit": self._code["commit"],
            "git_state": self._code["state"],
            "command": command_line(f"release_{wildcards.visibility}", self.config_files, self.config_args),
            "config_files": list(self.config_files),
            "date": self.release["date_published"],
            "url": self.release["url"],
        }
