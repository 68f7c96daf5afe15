"""Wiring of the sources stage: the ``fetch_source`` rule's params and the names of the configured
sources. Rules: ``workflow/rules/sources.smk``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from biosem.sources import FETCH_KEYS
from biosem.workflow.params import pick


class Sources:
    """The public sources under ``config["sources"]`` and where they are looked for (``mirror_dirs``)."""

    def __init__(self, config: Mapping[str, Any]) -> None:
        self.specs: Mapping[str, Any] = config["sources"]
        self.names: list[str] = sorted(self.specs)
        """The configured sources, sorted (the ``{source}`` wildcard constraint)."""
        self.mirror_dirs: list[str] = config["mirror_dirs"]
        """``mirror_dirs``: the folders searched before a source's URL (``fetch_source``'s params)."""

    def spec(self, wildcards: Any) -> dict[str, Any]:
        """Params of ``fetch_source``: the :data:`~biosem.sources.FETCH_KEYS` of ``sources.<source>``, the
        keys that decide the file (editing a source's licence, version or attribution refetches nothing)."""
        return pick(self.specs[wildcards.source], FETCH_KEYS)
