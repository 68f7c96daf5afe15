"""Licence guard: which released datasets may be published, and what their cards must say.

A dataset records the licence of every source it derives from (:class:`biosem.release.registry.Source`).
A licence is named by identity, never by spelling: a config licence string must be the SPDX id or one
of the names of a licence in the closed list :data:`LICENCES` (compared after :func:`normalise_licence`:
case, spaces, hyphens and underscores), each with its terms (restricted or not, Hub id, credit); any
other string is a config error listing the known ones (:func:`check_config_licences`), and no decision
depends on a substring. A dataset is *restricted* when one of its sources is a terminology in a
licensed distribution format (UMLS RRF, SNOMED CT RF2) or is under a restricted licence (the SNOMED CT
Affiliate Licence, the UMLS Metathesaurus Licence, or one ``release.restricted_licences`` names): these
rules are built in, the config can only add to them, and every licence the config states for a source
counts (none replaces another). A licence string biosem does not know (in a ``croissant.json`` that
:mod:`biosem.release.check` reads) restricts its dataset. A source that states no licence keeps its
dataset out of the public release as well, unless the release asserts its licence
(``release.assert_licences``). SNOMED International's Affiliate
Licence forbids publishing SNOMED CT-derived content to non-licensees, and UMLS Metathesaurus content
may only go to people who hold a UMLS licence themselves (UMLS Metathesaurus License, § 12; source
vocabularies may add terms, "license levels" 1–3). The public release therefore refuses restricted
datasets (:func:`require_public`); the private release carries them with :func:`restricted_notice`
at the top of the card.

Open sources are credited as their licences ask. The knowledge is split by what it is about, each in
one place: what a licence requires (its Hub id, its terms' URL, whether attribution is required and
the wording of a credit under it) is a :class:`Licence` in :data:`LICENCES` here; what a source is
(title, creator, version to name) is ``sources.<name>.attribution`` in the config
(:class:`Attribution`); what biosem changed is the dataset's ``changes`` (one text per family in
:mod:`biosem.release.families`). :func:`credits` combines them into a card's credit lines and refuses a
source whose licence requires attribution when its config gives none. A config licence string names
a :class:`Licence` by identity (:func:`identify_licence`).

Wordings follow the licensors: NLM's Terms and Conditions for MeSH (acknowledge NLM as the source,
no implied endorsement, name the MeSH version used or say the data are not the most current; NLM's
older MeSH memorandum adds: state modifications), CC BY 4.0 § 3(a) (creator, licence link,
indication of changes, the licensor's disclaimer), the HPO licence (the acknowledgement statement
"... is using the Human Phenotype Ontology (version)", citation, files not altered) and a courtesy
credit for CC0 and public-domain sources.

Dataset-card licence identifiers follow the Hugging Face Hub (``cc-by-4.0``, ``cc0-1.0``, ``other``
with ``license_name``/``license_link``); Croissant gets the SPDX URL where one exists, else the
terms' URL.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # pragma: no cover
    from biosem.release.registry import Source

BUILT_IN_RESTRICTED_FORMATS = ("rf2", "rrf")
"""Formats always restricted (SNOMED CT RF2, UMLS RRF): ``release.restricted_formats`` only adds to them."""
SNOMED_CT, UMLS = "snomed-ct-affiliate-licence", "umls-metathesaurus-licence"
"""The keys of the two restricted licences built in (:data:`LICENCES`)."""
FORMAT_LICENCE = {"rf2": SNOMED_CT, "rrf": UMLS}
"""The licence a licensed distribution format implies (its card notice)."""


@dataclass(frozen=True)
class Attribution:
    """How a source is credited (``sources.<name>.attribution`` in config).

    Attributes:
        title: the work's title (``"Gene Ontology"``, ``"Medical Subject Headings (MeSH)"``).
        creator: who made it, as it reads after "by" or "courtesy of" (``"the Gene Ontology
            Consortium"``, ``"the U.S. National Library of Medicine (NLM)"``).
        version: the version the credit names (``"MeSH 2024"``); ``None``: the source's ``version``.
        url: the work's home page; ``None``: the source's ``url``.
        citation: the publication the licensor asks users to cite, or ``None``.
    """

    title: str
    creator: str
    version: str | None = None
    url: str | None = None
    citation: str | None = None


@dataclass(frozen=True)
class Licence:
    """A licence biosem knows: how the Hub and Croissant name it, and how a card credits a source under it.

    Attributes:
        key: biosem's id; the Hub ``license_name`` when ``hub_id`` is ``other``.
        name: its name in a card (``"CC BY 4.0"``, ``"NLM Terms and Conditions for MeSH"``).
        url: the licence text or terms (``None``: none to link).
        hub_id: the Hub ``license`` id; ``other`` when the Hub has none.
        spdx: SPDX id, or ``None``.
        aliases: the other config strings naming it, besides ``key``, ``spdx`` and ``name``
            (compared after :func:`normalise_licence`; exact, never a substring).
        conditions: ``False`` when it puts no condition on derived data (CC0, a public-domain
            notice): a dataset's licence is then decided by its other sources (:func:`hub_licence`).
        attribution_required: a source under it must have ``sources.<name>.attribution``
            (:func:`credits` raises :class:`AttributionError` otherwise).
        credit: Markdown template of the source's credit line, with the fields of :func:`credit_line`.
        restricted: derived data may not be published (SNOMED CT, UMLS): its datasets go to the
            private release only, with :attr:`notice` at the top of the card.
        notice: for a restricted licence, the card's notice (after "This dataset is ").
    """

    key: str
    name: str
    url: str | None
    hub_id: str
    spdx: str | None
    aliases: tuple[str, ...]
    conditions: bool
    attribution_required: bool
    credit: str
    restricted: bool = False
    notice: str = ""

    @property
    def names(self) -> tuple[str, ...]:
        """Every config string naming it: key, SPDX id, name and aliases."""
        return tuple(n for n in (self.key, self.spdx, self.name, *self.aliases) if n)


# Credit templates. Fields: {title} (linked to the home page when known), {title_text} (plain),
# {work} ("{title}, version <version>", or {title} without a version), {version}, {creator},
# {by} (" by <creator>" or ""), {url}, {licence} (linked name), {changes}.
_CC_BY_CREDIT = (
    "{work}{by}, used under {licence}. Changes: {changes}. The licensor provides it "
    "as is, without warranties, and does not endorse this dataset."
)
_CC0_CREDIT = (
    "{work}{by}, dedicated to the public domain under {licence}; credited as a courtesy (CC0 asks for no attribution)."
)
_PUBLIC_DOMAIN_CREDIT = "{work}{by}: a U.S. Government work in the public domain ({licence}), credited as a courtesy."
_NLM_MESH_CREDIT = (
    "Courtesy of {creator}, {version} ({title}). Modified by biosem: {changes}. This dataset reflects "
    "{version}, not the most current MeSH data available from NLM. NLM has not endorsed this dataset, is "
    "not responsible for the derived data and provides MeSH without warranty ({licence})."
)
_HPO_CREDIT = (
    "This dataset is using the {title_text} (version {version}){by}. Find out more at {url}. Changes: "
    "{changes}; it does not redistribute HPO files, and the HPO's own content and logical relationships are "
    "not altered. Used under the {licence}."
)
_SOFTWARE_CREDIT = "{work}{by}, under {licence}. Changes: {changes}."
_TERMS_CREDIT = "{work}{by}, used under {licence}. Changes: {changes}."
_RESTRICTED_CREDIT = "{work}{by}, under {licence}: its licence decides who may receive this dataset."

LICENCES: tuple[Licence, ...] = (
    Licence(
        "cc-by-4.0",
        "CC BY 4.0",
        "https://creativecommons.org/licenses/by/4.0/",
        "cc-by-4.0",
        "CC-BY-4.0",
        ("cc-by-4.0", "cc-by-4.0-international"),
        conditions=True,
        attribution_required=True,
        credit=_CC_BY_CREDIT,
    ),
    Licence(
        "cc-by-3.0",
        "CC BY 3.0",
        "https://creativecommons.org/licenses/by/3.0/",
        "cc-by-3.0",
        "CC-BY-3.0",
        ("cc-by-3.0-unported",),
        conditions=True,
        attribution_required=True,
        credit=_CC_BY_CREDIT,
    ),
    Licence(
        "cc0-1.0",
        "CC0 1.0",
        "https://creativecommons.org/publicdomain/zero/1.0/",
        "cc0-1.0",
        "CC0-1.0",
        ("cc0", "cc0-1.0-universal"),
        conditions=False,
        attribution_required=False,
        credit=_CC0_CREDIT,
    ),
    Licence(
        "us-government-public-domain",
        "NCBI/NLM public-domain notice",
        None,
        "other",
        None,
        ("ncbi-public-domain-notice", "nlm-public-domain-notice", "us-government-work"),
        conditions=False,
        attribution_required=False,
        credit=_PUBLIC_DOMAIN_CREDIT,
    ),
    Licence(
        "nlm-mesh-terms",
        "NLM Terms and Conditions for MeSH",
        "https://www.nlm.nih.gov/databases/download/terms_and_conditions_mesh.html",
        "other",
        None,
        ("nlm-terms-and-conditions-(mesh)",),
        conditions=True,
        attribution_required=True,
        credit=_NLM_MESH_CREDIT,
    ),
    Licence(
        "hpo-licence",
        "HPO licence",
        "https://hpo.jax.org/license",
        "other",
        None,
        ("hpo-license",),
        conditions=True,
        attribution_required=True,
        credit=_HPO_CREDIT,
    ),
    Licence(
        "apache-2.0",
        "Apache-2.0",
        "https://www.apache.org/licenses/LICENSE-2.0",
        "apache-2.0",
        "Apache-2.0",
        (),
        conditions=True,
        attribution_required=False,
        credit=_SOFTWARE_CREDIT,
    ),
    Licence(
        "mit",
        "MIT",
        "https://opensource.org/licenses/MIT",
        "mit",
        "MIT",
        (),
        conditions=True,
        attribution_required=False,
        credit=_SOFTWARE_CREDIT,
    ),
    Licence(
        "bsd-2-clause",
        "BSD 2-Clause",
        "https://opensource.org/licenses/BSD-2-Clause",
        "bsd-2-clause",
        "BSD-2-Clause",
        (),
        conditions=True,
        attribution_required=False,
        credit=_SOFTWARE_CREDIT,
    ),
    Licence(
        "usf-free-association-norms-terms",
        "USF Free Association Norms terms of use",
        "http://w3.usf.edu/FreeAssociation/",
        "other",
        None,
        (),
        conditions=True,
        attribution_required=False,
        credit=_TERMS_CREDIT,
    ),
    Licence(
        "wordnet-3.0-licence",
        "WordNet 3.0 licence",
        "https://wordnet.princeton.edu/license-and-commercial-use",
        "other",
        None,
        ("wordnet-3.0-license",),
        conditions=True,
        attribution_required=False,
        credit=_TERMS_CREDIT,
    ),
    Licence(
        SNOMED_CT,
        "SNOMED CT Affiliate Licence",
        "https://www.snomed.org/get-snomed",
        "other",
        None,
        ("snomed-ct", "snomed-ct-affiliate-license"),
        conditions=True,
        attribution_required=False,
        credit=_RESTRICTED_CREDIT,
        restricted=True,
        notice=(
            "derived from **SNOMED CT** (© SNOMED International). Use requires a SNOMED CT Affiliate "
            "Licence (or a national release centre licence) for every user; SNOMED International does "
            "not permit publishing SNOMED CT-derived content. Do not upload it to a public location."
        ),
    ),
    Licence(
        UMLS,
        "UMLS Metathesaurus Licence",
        "https://uts.nlm.nih.gov/uts/license/license.html",
        "other",
        None,
        ("umls", "umls-metathesaurus-license"),
        conditions=True,
        attribution_required=False,
        credit=_RESTRICTED_CREDIT,
        restricted=True,
        notice=(
            "derived from the **UMLS Metathesaurus** (U.S. National Library of Medicine). Share it only "
            "with people who hold their own UMLS Metathesaurus License; the source vocabularies it draws "
            "on may add restrictions (license levels 1–3, SNOMED CT in the UMLS included)."
        ),
    ),
)
"""The closed list of licences biosem knows, with their terms. A config licence string must name one
(:func:`identify_licence`); another licence is added here, once, with its terms."""

UNSTATED = ("none stated", "unknown", "")
"""Licence strings meaning the source states no licence (``None`` in config is read as the first)."""


def normalise_licence(text: str) -> str:
    """Lowercase, runs of spaces, underscores and hyphens as one hyphen (``"CC BY 4.0"`` -> ``"cc-by-4.0"``)."""
    return re.sub(r"[\s_-]+", "-", text.strip().lower())


def _by_name() -> dict[str, Licence]:
    out: dict[str, Licence] = {}
    for licence in LICENCES:
        for name in licence.names:
            if out.setdefault(normalise_licence(name), licence) is not licence:
                raise RuntimeError(f"licence name {name!r} names two licences")  # pragma: no cover
    return out


_BY_NAME = _by_name()


def identify_licence(text: str | None) -> Licence | None:
    """The :data:`LICENCES` entry a licence string names, or ``None`` (none stated, or not one biosem knows).

    By identity: the whole string, normalised (:func:`normalise_licence`), must be the key, SPDX id,
    name or an alias of one licence (``"CC BY 4.0"``, ``"CC-BY-4.0"``, ``"SNOMED CT"``). Nothing is
    matched inside a longer string: ``"IHTSDO Affiliate Licence"`` names no licence.
    """
    if not text:
        return None
    return _BY_NAME.get(normalise_licence(text))


def known_licences() -> str:
    """The licences a config may name, for error messages: per licence its SPDX id or key and its name."""
    parts = [f"{lic.spdx or lic.key} ({lic.name}{', restricted' if lic.restricted else ''})" for lic in LICENCES]
    return "; ".join(parts) + f"; or {UNSTATED[0]!r} when the source states none"


class UnknownLicenceError(ValueError):
    """A config licence string names no licence biosem knows (:data:`LICENCES`); the message lists them.

    Attributes:
        key: the config key (``sources.hpo.licence``); text: the string given.
    """

    def __init__(self, key: str, text: str) -> None:
        self.key, self.text = key, text
        super().__init__(
            f"config {key}: {text!r} is not a licence biosem knows. Give the SPDX id or the name of one of: "
            f"{known_licences()}. biosem decides what a release may publish from a licence's identity, never "
            "from words in its name: a licence not listed is added, with its terms, to "
            "biosem.release.licence.LICENCES."
        )


def licence_keys(config: Mapping[str, Any]) -> list[tuple[str, str]]:
    """``(config key, licence string)`` of every licence the config states: ``sources.*.licence``,
    ``terminologies.*.licence``, ``corpora.specs.*.licence`` and each ``release.restricted_licences`` item."""
    found = []
    for section in ("sources", "terminologies"):
        for name, spec in (config.get(section) or {}).items():
            if isinstance(spec, Mapping) and spec.get("licence") is not None:
                found.append((f"{section}.{name}.licence", str(spec["licence"])))
    for name, spec in ((config.get("corpora") or {}).get("specs") or {}).items():
        if isinstance(spec, Mapping) and spec.get("licence") is not None:
            found.append((f"corpora.specs.{name}.licence", str(spec["licence"])))
    for i, text in enumerate((config.get("release") or {}).get("restricted_licences") or ()):
        found.append((f"release.restricted_licences[{i}]", str(text)))
    return found


def check_config_licences(config: Mapping[str, Any]) -> None:
    """Refuse a config licence string that names no licence biosem knows (``"none stated"`` and
    ``"unknown"`` may stand for a source's licence, not in ``release.restricted_licences``).

    Raises:
        UnknownLicenceError: the first unknown string, with its key and the known licences.
    """
    for key, text in licence_keys(config):
        if identify_licence(text) is None and (key.startswith("release.") or not is_unstated(text)):
            raise UnknownLicenceError(key, text)


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
        restricted: True when the dataset may not go to the public release: a source is restricted
            (SNOMED CT, UMLS) or states no licence and the release does not assert it.
        reasons: one line per such source (``"snomed_sample: format rf2, licence SNOMED CT"``,
            ``"simverb3500_data: no licence stated ..."``).
        source_licences: the distinct licence strings of all sources, sorted (every licence config
            states for a source, e.g. a terminology's ``licence`` beside its file's).
        unstated: sources without a stated licence that the release does not assert (their lines
            are among ``reasons``).
        asserted: sources without a stated licence whose licence ``release.assert_licences`` asserts.
        restricted_by: keys of the restricted :data:`LICENCES` the sources are under, their formats
            implying them (RF2: SNOMED CT, RRF: UMLS), sorted: the card's notices and Hub licence.
    """

    restricted: bool
    reasons: tuple[str, ...]
    source_licences: tuple[str, ...]
    unstated: tuple[str, ...] = ()
    asserted: tuple[str, ...] = ()
    restricted_by: tuple[str, ...] = ()


def is_unstated(licence: str | None) -> bool:
    """True when ``licence`` states no licence (``None``, ``"none stated"``, ``"unknown"``, blank)."""
    return licence is None or licence.strip().lower() in UNSTATED


def classify(
    sources: Iterable[Source],
    restricted_formats: Sequence[str] = (),
    restricted_licences: Sequence[str] = (),
    asserted: Sequence[str] = (),
) -> LicenceStatus:
    """Decide whether a dataset built from ``sources`` may go to the public release.

    Every licence counts and none replaces another: a source is restricted when its ``format`` is
    one of :data:`BUILT_IN_RESTRICTED_FORMATS` or ``restricted_formats`` (exact, lowercase), or any
    of its licences (its file's ``licence`` and the ``extra_licences`` config gives the same content,
    e.g. a terminology's ``licence``) is a restricted licence of :data:`LICENCES` (SNOMED CT, UMLS),
    one that ``restricted_licences`` names, or a string that names no licence biosem knows
    (:func:`identify_licence`: by identity, never a substring). The config lists only add
    restrictions: an empty list lifts none.

    A source whose own ``licence`` states none (:func:`is_unstated`) keeps the dataset out of the
    public release too, unless its name is in ``asserted`` (``release.assert_licences``); a licence
    given elsewhere (a terminology's) does not state the file's. Asserting never lifts a SNOMED CT or
    UMLS restriction.

    Raises:
        UnknownLicenceError: an item of ``restricted_licences`` names no licence biosem knows.
    """
    formats = {f.lower() for f in (*BUILT_IN_RESTRICTED_FORMATS, *restricted_formats)}
    added = set()
    for i, text in enumerate(restricted_licences):
        licence = identify_licence(text)
        if licence is None:
            raise UnknownLicenceError(f"release.restricted_licences[{i}]", text)
        added.add(licence.key)
    chosen = set(asserted)
    reasons, licences, unstated, vouched, keys = [], set(), set(), set(), set()
    for source in sources:
        stated = [lic for lic in (source.licence, *source.extra_licences) if not is_unstated(lic)]
        licences.update(stated if stated else ["none stated"])
        if is_unstated(source.licence) and stated:
            licences.add("none stated")
        why = []
        if source.format and source.format.lower() in formats:
            why.append(f"format {source.format}")
            if source.format.lower() in FORMAT_LICENCE:
                keys.add(FORMAT_LICENCE[source.format.lower()])
        for text in stated:
            licence = identify_licence(text)
            if licence is None:
                why.append(f"licence {text} (not a licence biosem knows)")
            elif licence.restricted or licence.key in added:
                why.append(f"licence {text}")
                if licence.restricted:
                    keys.add(licence.key)
        if why:
            reasons.append(f"{source.name}: {', '.join(why)}")
        elif is_unstated(source.licence):
            if source.name in chosen:
                vouched.add(source.name)
            else:
                unstated.add(source.name)
                reasons.append(
                    f"{source.name}: no licence stated (expected a licence in its config, or "
                    f"{source.name!r} in release.assert_licences)"
                )
    return LicenceStatus(
        bool(reasons),
        tuple(sorted(set(reasons))),
        tuple(sorted(licences)),
        tuple(sorted(unstated)),
        tuple(sorted(vouched)),
        tuple(sorted(keys)),
    )


def require_public(datasets: Iterable[tuple[str, LicenceStatus]]) -> None:
    """Raise :class:`RestrictedLicenceError` listing every restricted dataset in ``datasets``.

    Args:
        datasets: ``(dataset id, status)`` pairs requested for the public release.
    """
    refused = [(name, "; ".join(status.reasons)) for name, status in datasets if status.restricted]
    if refused:
        raise RestrictedLicenceError(sorted(refused))


def licence_by_key(key: str) -> Licence:
    """The :data:`LICENCES` entry with ``key``."""
    return next(licence for licence in LICENCES if licence.key == key)


def restricted_notice(status: LicenceStatus) -> str:
    """Markdown notice for the top of a restricted dataset's card ("" when not restricted)."""
    if not status.restricted:
        return ""
    parts = [licence_by_key(key).notice for key in status.restricted_by]
    if status.unstated:
        parts.append(
            f"derived from sources that state no licence ({', '.join(status.unstated)}): biosem cannot tell "
            "whether it may be published. Check their terms; `release.assert_licences` asserts a licence."
        )
    if not parts:  # a licence the release restricts, or one biosem does not know
        parts = ["derived from a source under a restricted licence; check its terms before sharing."]
    body = "\n".join(f"> * This dataset is {p}" for p in parts)
    reasons = "\n".join(f"> * restricted source {r}" for r in status.reasons)
    return (
        "> **Restricted licence — private release only.**\n>\n"
        f"{body}\n{reasons}\n>\n"
        "> biosem's `release_public` target refuses this dataset.\n"
    )


CARD_LINK = "README.md"
"""``license_link`` of a licence without a URL of its own: the card, whose "Licence and attribution"
section gives every source's licence as stated."""


def _hub_entry(licence: Licence) -> dict[str, str]:
    if licence.hub_id != "other":
        return {"license": licence.hub_id}
    return {"license": "other", "license_name": licence.key, "license_link": licence.url or CARD_LINK}


def dataset_licence(status: LicenceStatus) -> Licence | None:
    """The one licence an open dataset is shared under, or ``None`` (restricted, unstated or mixed).

    Sources under licences without conditions (CC0, a public-domain notice) leave the choice to the
    others: CC BY 4.0 + CC0 is CC BY 4.0, NLM's MeSH terms + a public-domain corpus are NLM's terms;
    when no source sets a condition, the one such licence with a Hub id decides (CC0 + a public-domain
    corpus is CC0). A dataset of one source names that source's licence.
    """
    if status.restricted or any(lic.lower() in UNSTATED for lic in status.source_licences):
        return None
    found = [identify_licence(lic) for lic in status.source_licences]
    if any(f is None for f in found):  # not a licence biosem knows (classify restricts such a dataset)
        return None
    known = {f.key: f for f in found if f is not None}
    binding = {k: f for k, f in known.items() if f.conditions}
    if not binding:  # no source sets a condition (CC0, public domain): the one with a Hub id, if just one
        binding = {k: f for k, f in known.items() if f.hub_id != "other"} if len(known) > 1 else known
    return next(iter(binding.values())) if len(binding) == 1 else None


def hub_licence(status: LicenceStatus) -> dict[str, str]:
    """The card's licence metadata: ``{"license": id}``, or ``other`` with ``license_name``/``license_link``.

    The ids are the Hub's lower-case licence ids (``cc-by-4.0``, ``cc0-1.0``, ``apache-2.0``, ``mit``;
    https://huggingface.co/docs/hub/repositories-licenses). A restricted dataset gets the licence of
    its restricted source (SNOMED CT before UMLS). An open dataset with a source that states no
    licence is ``unknown``; one with a single licence that binds it (:func:`dataset_licence`) gets
    that licence's Hub id, or ``other`` named by its key and linked to its terms (NLM's MeSH terms,
    the HPO licence: its URL, else the card); any other mix is
    ``other`` named ``biosem-derived-mixed`` and linked to the card, which gives the per-source licences.
    """
    if status.restricted:
        keys = status.restricted_by
        if not keys:
            if status.unstated:
                return {"license": "unknown"}
            return {"license": "other", "license_name": "restricted", "license_link": CARD_LINK}
        licence = licence_by_key(SNOMED_CT if SNOMED_CT in keys else keys[0])
        return {"license": "other", "license_name": licence.key, "license_link": licence.url or CARD_LINK}
    if any(lic.lower() in UNSTATED for lic in status.source_licences):
        return {"license": "unknown"}
    licence = dataset_licence(status)
    if licence is None:
        return {"license": "other", "license_name": "biosem-derived-mixed", "license_link": CARD_LINK}
    return _hub_entry(licence)


def croissant_licences(status: LicenceStatus) -> list[str]:
    """Licence entries for Croissant: per source licence its SPDX URL, else its terms' URL, else its name."""
    out = []
    for lic in status.source_licences:
        known = identify_licence(lic)
        if known and known.spdx:
            out.append(f"https://spdx.org/licenses/{known.spdx}.html")
        else:
            out.append(known.url if known and known.url else lic)
    return sorted(set(out))


# --- credits --------------------------------------------------------------------------------------


class AttributionError(ValueError):
    """A source's licence requires attribution and its config gives none.

    Attributes:
        sources: the source names without ``attribution``.
    """

    def __init__(self, dataset: str, sources: Sequence[tuple[str, str]]) -> None:
        self.sources = [name for name, _ in sources]
        lines = "\n".join(f"  - {name} ({licence})" for name, licence in sources)
        super().__init__(
            f"{dataset}: the licences of these sources require attribution, and their config has none:\n"
            f"{lines}\nAdd `sources.<name>.attribution` (title, creator; see config/README.md § sources)."
        )


@dataclass(frozen=True)
class Credit:
    """One credit line of a card: the sources it covers, their licence and the Markdown text.

    Attributes:
        sources: source names, in the dataset's order.
        licence: the :data:`LICENCES` entry, or ``None`` (a licence biosem does not know, or none).
        text: Markdown.
    """

    sources: tuple[str, ...]
    licence: Licence | None
    text: str


def _link(text: str, url: str | None) -> str:
    return f"[{text}]({url})" if url else text


def credit_line(
    licence: Licence | None,
    attribution: Attribution,
    version: str | None,
    url: str | None,
    changes: str,
    stated: str | None = None,
) -> str:
    """The Markdown credit of a work under ``licence`` (``None``: ``stated`` is an unknown licence text).

    Args:
        attribution: title, creator and, when set, the version, home page and citation to credit.
        version, url: the source's own, used when ``attribution`` gives none.
        changes: what biosem did to the content (:attr:`biosem.release.registry.ReleaseDataset.changes`),
            without a final full stop.
    """
    version = attribution.version or version
    url = attribution.url or url
    title = _link(attribution.title, url)
    fields = {
        "title": title,
        "title_text": attribution.title,
        "work": f"{title}, version {version}" if version else title,
        "version": version or "an unstated version",
        "creator": attribution.creator,
        "by": f" by {attribution.creator}" if attribution.creator else "",
        "url": url or "its publisher",
        "changes": changes.rstrip("."),
    }
    if licence is None:
        fields["stated"] = f"licence as stated: {stated}" if stated else "the publisher states no licence"
        text = "{work}{by}; {stated}. Changes: {changes}. Check its terms before redistributing."
    else:
        fields["licence"] = _link(licence.name, licence.url)
        text = licence.credit
    out = text.format(**fields)
    if attribution.citation:
        out += f" Please cite: {attribution.citation}"
    return out


def _source_credit(source: Source, licence: Licence | None, changes: str) -> str:
    if source.kind == "licensed":
        return (
            f"Licensed release `{source.release or source.name}` (licence: {source.licence or 'none stated'}): "
            "its licence decides who may receive this dataset."
        )
    credited = source.attribution or Attribution(title=f"`{source.name}`", creator="")
    return credit_line(licence, credited, source.version, source.url, changes, source.licence)


def credits(sources: Iterable[Source], changes: str, dataset: str = "dataset") -> list[Credit]:
    """One credit per group of sources with the same licence and attribution (the files of one work).

    Credits under licences that require attribution come first, then the others, each in the
    sources' order.

    A licensed source (a UMLS or SNOMED CT release folder) is named with its licence, whose terms
    decide who may receive the dataset (the card's restricted-licence notice says so). A source
    without ``attribution`` is credited by its name, version and URL, which only licences without an
    attribution requirement accept.

    Raises:
        AttributionError: a source's licence requires attribution and it has none.
    """
    missing = []
    groups: dict[tuple[object, ...], tuple[list[str], Licence | None, str]] = {}
    for source in sources:
        licence = identify_licence(source.licence)
        if source.kind == "licensed":
            key: tuple[object, ...] = ("licensed", source.name)
        elif source.attribution is None:
            if licence is not None and licence.attribution_required:
                missing.append((source.name, source.licence or ""))
                continue
            key = ("unattributed", source.name)
        else:  # the files of one work (same licence and attribution) share one credit
            key = (source.licence, source.attribution, source.attribution.version or source.version)
        if key not in groups:
            groups[key] = ([], licence, _source_credit(source, licence, changes))
        groups[key][0].append(source.name)
    if missing:
        raise AttributionError(dataset, missing)
    out = [Credit(tuple(names), licence, text) for names, licence, text in groups.values()]
    return sorted(out, key=lambda c: not (c.licence and c.licence.attribution_required))


def plain_text(markdown: str) -> str:
    """``markdown`` with links as ``text (url)`` and without backticks (for Croissant ``creditText``)."""
    return re.sub(r"\[([^\]]+)\]\(([^)]+)\)", r"\1 (\2)", markdown).replace("`", "")
