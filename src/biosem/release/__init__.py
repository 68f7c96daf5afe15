"""Reproducible releases of the datasets biosem builds (docs/design.md § Release).

* :mod:`~biosem.release.registry`: what each family releases (files, sources, parameters, paper);
  :mod:`~biosem.release.families` holds the built-in providers.
* :mod:`~biosem.release.licence`: the licence guard (UMLS / SNOMED CT-derived data are restricted).
* :mod:`~biosem.release.card`, :mod:`~biosem.release.croissant`, :mod:`~biosem.release.checksums`:
  the dataset card (Hugging Face YAML + datasheet), Croissant metadata, ``SHA256SUMS``.
* :mod:`~biosem.release.build`: assembles a dataset folder and the release manifest.
* :mod:`~biosem.release.check` (with :mod:`~biosem.release.content`): re-checks a built folder before
  publishing (every file listed, restricted status from recorded provenance, restricted ids in content).
"""

from biosem.release import families as _families  # noqa: F401 - registers the built-in providers
