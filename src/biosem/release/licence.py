"""Licence guard: which released datasets may be published, and what their cards must say.

A dataset records the licence of every source it derives from (:class:`biosem.release.registry.Source`).
It is *restricted* when one of them is a terminology in a licensed distribution format (UMLS RRF,
SNOMED CT RF2) or carries a restricted licence (SNOMED CT, UMLS). SNOMED International's Affiliate
Licence forbids publishing SNOMED CT-derived content to non-licensees, and UMLS Metathesaurus content
may only go to people who hold a UMLS licence themselves (UMLS Metathesaurus License, § 12; source
vocabularies may add terms, "license levels" 1–3). The public release therefore refuses restricted
datasets (:func:`require_public`); the private release carries them with :func:`restricted_notice`
at the top of the card.

Dataset-card licence identifiers follow the Hugging Face Hub (``cc-by-4.0``, ``cc0-1.0``, ``other``
with ``license_name``/``license_link``); Croissant gets the SPDX URL where one exists.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # pragma: no cover
    from biosem.release.registry import Source

DEFAULT_RESTRICTED_FORMATS = ("rf2", "rrf")
DEFAULT_RESTRICTED_LICENCES = ("SNOMED CT", "UMLS")


@dataclass(frozen=True)
class KnownLicence:
    """A licence biosem can name precisely: Hub identifier, SPDX id (or None) and a link."""

    hub_id: str
    spdx: str | None
    url: str


# Keys are lowercased licence strings as written in config (`sources.<name>.licence`,
# `terminologies.<name>.licence`, `corpora.specs.<name>.licence`).
KNOWN_LICENCES: dict[str, KnownLicence] = {
    "cc-by-4.0": KnownLicence("cc-by-4.0", "CC-BY-4.0", "https://creativecommons.org/licenses/by/4.0/"),
    "cc0": KnownLicence("cc0-1.0", "CC0-1.0", "https://creativecommons.org/publicdomain/zero/1.0/"),
    "cc0-1.0": KnownLicence("cc0-1.0", "CC0-1.0", "https://creativecommons.org/publicdomain/zero/1.0/"),
    "apache-2.0": KnownLicence("apache-2.0", "Apache-2.0", "https://www.apache.org/licenses/LICENSE-2.0"),
    "mit": KnownLicence("mit", "MIT", "https://opensource.org/licenses/MIT"),
}

RESTRICTED_NOTICES: dict[str, tuple[str, str, str]] = {
    # key (lowercase match) -> (Hub license_name, link, notice)
    "snomed": (
        "snomed-ct-affiliate-licence",
        "https://www.snomed.org/get-snomed",
        (
            "derived from **SNOMED CT** (© SNOMED International). Use requires a SNOMED CT Affiliate "
            "Licence (or a national release centre licence) for every user; SNOMED International does "
            "not permit publishing SNOMED CT-derived content. Do not upload it to a public location."
        ),
    ),
    "umls": (
        "umls-metathesaurus-licence",
        "https://uts.nlm.nih.gov/uts/license/license.html",
        (
            "derived from the **UMLS Metathesaurus** (U.S. National Library of Medicine). Share it only "
            "with people who hold their own UMLS Metathesaurus License; the source vocabularies it draws "
            "on may add restrictions (license levels 1–3, SNOMED CT in the UMLS included)."
        ),
    ),
}


UNSTATED = ("none stated", "unknown", "")
"""Licence strings meaning the source states no licence (``None`` in config is read as the first)."""


class RestrictedLicenceError(ValueError):
    """Restricted-licence datasets were requested for the public release.

    Attributes:
        datasets: ``(dataset id, reason)`` for every refused dataset.
    """

    def __init__(self, datasets: Sequence[tuple[str, str]]) -> None:
        self.datasets = list(datasets)
        lines = "\n".join(f"  - {name}: {reason}" for name, reason in self.datasets)
        super().__init__(
            f"the public release refuses {len(self.datasets)} dataset(s) derived from restricted "
            f"sources (SNOMED International forbids publishing SNOMED CT-derived data; UMLS-derived "
            f"data need each user's own UMLS licence):\n{lines}\n"
            "Build them with `release_private`, or leave them out of `release.datasets` "
            "(or add them to `release.exclude`)."
        )


@dataclass(frozen=True)
class LicenceStatus:
    """The licence verdict for one dataset.

    Attributes:
        restricted: True when one source is restricted.
        reasons: one line per restricted source (``"snomed_sample: format rf2, licence SNOMED CT"``).
        source_licences: the distinct licence strings of all sources, sorted.
    """

    restricted: bool
    reasons: tuple[str, ...]
    source_licences: tuple[str, ...]


def classify(
    sources: Iterable[Source],
    restricted_formats: Sequence[str] = DEFAULT_RESTRICTED_FORMATS,
    restricted_licences: Sequence[str] = DEFAULT_RESTRICTED_LICENCES,
) -> LicenceStatus:
    """Decide whether a dataset built from ``sources`` is restricted.

    A source is restricted when its ``format`` is in ``restricted_formats`` (compared exactly,
    lowercase) or its ``licence`` contains one of ``restricted_licences`` (case-insensitive
    substring, so ``"SNOMED CT Affiliate Licence"`` matches ``"SNOMED CT"``).
    """
    formats = {f.lower() for f in restricted_formats}
    needles = [s.lower() for s in restricted_licences]
    reasons = []
    licences = set()
    for source in sources:
        licence = source.licence or "none stated"
        licences.add(licence)
        why = []
        if source.format and source.format.lower() in formats:
            why.append(f"format {source.format}")
        if any(n in licence.lower() for n in needles):
            why.append(f"licence {licence}")
        if why:
            reasons.append(f"{source.name}: {', '.join(why)}")
    return LicenceStatus(bool(reasons), tuple(sorted(set(reasons))), tuple(sorted(licences)))


def require_public(datasets: Iterable[tuple[str, LicenceStatus]]) -> None:
    """Raise :class:`RestrictedLicenceError` listing every restricted dataset in ``datasets``.

    Args:
        datasets: ``(dataset id, status)`` pairs requested for the public release.
    """
    refused = [(name, "; ".join(status.reasons)) for name, status in datasets if status.restricted]
    if refused:
        raise RestrictedLicenceError(sorted(refused))


def _restricted_keys(status: LicenceStatus) -> list[str]:
    text = " ".join(status.reasons).lower()
    keys = [key for key in RESTRICTED_NOTICES if key in text]
    if "format rf2" in text and "snomed" not in keys:
        keys.append("snomed")
    if "format rrf" in text and "umls" not in keys:
        keys.append("umls")
    return sorted(set(keys))


def restricted_notice(status: LicenceStatus) -> str:
    """Markdown notice for the top of a restricted dataset's card ("" when not restricted)."""
    if not status.restricted:
        return ""
    parts = [RESTRICTED_NOTICES[k][2] for k in _restricted_keys(status)]
    if not parts:  # a restricted licence configured by the user that biosem has no text for
        parts = ["derived from a source under a restricted licence; check its terms before sharing."]
    body = "\n".join(f"> * This dataset is {p}" for p in parts)
    reasons = "\n".join(f"> * restricted source {r}" for r in status.reasons)
    return (
        "> **Restricted licence — private release only.**\n>\n"
        f"{body}\n{reasons}\n>\n"
        "> biosem's `release_public` target refuses this dataset.\n"
    )


def hub_licence(status: LicenceStatus) -> dict[str, str]:
    """The card's licence metadata: ``{"license": id}`` or ``other`` with name and link.

    A restricted dataset gets the licence of its restricted source (SNOMED CT before UMLS). An open
    dataset with a source that states no licence is ``unknown``; one whose sources share one known
    licence gets that licence's Hub id; any other mix is ``other`` named ``biosem-derived-mixed``,
    with the per-source licences listed in the card.
    """
    if status.restricted:
        keys = _restricted_keys(status)
        if not keys:
            return {"license": "other", "license_name": "restricted"}
        name, link, _ = RESTRICTED_NOTICES["snomed" if "snomed" in keys else keys[0]]
        return {"license": "other", "license_name": name, "license_link": link}
    if any(lic.lower() in UNSTATED for lic in status.source_licences):
        return {"license": "unknown"}
    known = {KNOWN_LICENCES.get(lic.lower()) for lic in status.source_licences}
    if len(known) == 1 and None not in known:
        (only,) = known
        assert only is not None
        return {"license": only.hub_id}
    return {"license": "other", "license_name": "biosem-derived-mixed"}


def croissant_licences(status: LicenceStatus) -> list[str]:
    """Licence entries for Croissant: the SPDX URL of each known source licence, else its name."""
    out = []
    for lic in status.source_licences:
        known = KNOWN_LICENCES.get(lic.lower())
        out.append(f"https://spdx.org/licenses/{known.spdx}.html" if known and known.spdx else lic)
    return sorted(set(out))
