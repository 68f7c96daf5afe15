"""The one helper that picks a rule's params out of a config section.

Every rule's ``params`` are the exact values its script reads, exposed by its stage's module
(``plan.<stage>``, :class:`biosem.workflow.plan.Plan`). Snakemake reruns a job when the repr of one
of its params changes (``--rerun-triggers params``), so a rule given a whole section would rerun for
keys it never reads: a stage passes such a section through :func:`pick` with the keys the script reads.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any


def pick(section: Mapping[str, Any], keys: Iterable[str]) -> dict[str, Any]:
    """The entries of a config section among ``keys``, in the order of ``keys``.

    A key the section does not hold is left out (a section built by hand, without the schema's
    defaults), so the result holds only what the section sets: ``pick({"a": 1, "b": 2}, ("b", "c"))``
    is ``{"b": 2}``. The values are the section's own objects (not copies).
    """
    return {key: section[key] for key in keys if key in section}
