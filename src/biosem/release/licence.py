"""Licence guard: which released datasets may be published, and what their cards must say.

A dataset records the licence of every source it derives from (:class:`biosem.release.registry.Source`).
It is *restricted* when one of them is a terminology in a licensed distribution format (UMLS RRF,
SNOMED CT RF2) or carries a restricted licence (SNOMED CT, UMLS): these rules are built in, the config
can only add to them, and every licence the config states for a source counts (none replaces
another). A source that states no licence keeps its dataset out of the public release as well, unless
the release asserts its licence (``release.assert_licences``). SNOMED International's Affiliate
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
a :class:`Licence` by its head (:func:`identify_licence`).

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
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # pragma: no cover
    from biosem.release.registry import Source

BUILT_IN_RESTRICTED_FORMATS = ("rf2", "rrf")
"""Formats always restricted (SNOMED CT RF2, UMLS RRF): ``release.restricted_formats`` only adds to them."""
BUILT_IN_RESTRICTED_LICENCES = ("SNOMED", "UMLS")
"""Licence substrings always restricted: ``release.restricted_licences`` only adds to them."""


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
        aliases: the config licence strings naming it, normalised (:func:`normalise_licence`).
        conditions: ``False`` when it puts no condition on derived data (CC0, a public-domain
            notice): a dataset's licence is then decided by its other sources (:func:`hub_licence`).
        attribution_required: a source under it must have ``sources.<name>.attribution``
            (:func:`credits` raises :class:`AttributionError` otherwise).
        credit: Markdown template of the source's credit line, with the fields of :func:`credit_line`.
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
        ("cc-by-3.0", "cc-by-3.0-unported"),
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
        ("cc0", "cc0-1.0", "cc0-1.0-universal"),
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
        ("ncbi-public-domain-notice", "nlm-public-domain-notice"),
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
        ("nlm-terms-and-conditions-(mesh)", "nlm-terms-and-conditions-for-mesh"),
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
        ("hpo-licence", "hpo-license"),
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
        ("apache-2.0",),
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
        ("mit",),
        conditions=True,
        attribution_required=False,
        credit=_SOFTWARE_CREDIT,
    ),
)
"""Every licence biosem names precisely; anything else is reported as written (Hub ``other``)."""

_BY_ALIAS = {alias: licence for licence in LICENCES for alias in licence.aliases}


def normalise_licence(text: str) -> str:
    """Lowercase, runs of spaces, underscores and hyphens as one hyphen (``"CC BY 4.0"`` -> ``"cc-by-4.0"``)."""
    return re.sub(r"[\s_-]+", "-", text.strip().lower())


def identify_licence(text: str | None) -> Licence | None:
    """The :data:`LICENCES` entry a config licence string names, or ``None``.

    The string is tried whole, then up to its first ``;`` and then up to its first ``(``: what follows
    is commentary (``"NLM Terms and Conditions (MeSH); credit NLM, ..."`` names ``nlm-mesh-terms``;
    ``"HPO licence (https://hpo.jax.org/license)"`` names ``hpo-licence``).
    """
    if not text:
        return None
    for candidate in (text, text.split(";", 1)[0], text.split("(", 1)[0]):
        found = _BY_ALIAS.get(normalise_licence(candidate))
        if found is not None:
            return found
    return None


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
        restricted: True when the dataset may not go to the public release: a source is restricted
            (SNOMED CT, UMLS) or states no licence and the release does not assert it.
        reasons: one line per such source (``"snomed_sample: format rf2, licence SNOMED CT"``,
            ``"simverb3500_data: no licence stated ..."``).
        source_licences: the distinct licence strings of all sources, sorted (every licence config
            states for a source, e.g. a terminology's ``licence`` beside its file's).
        unstated: sources without a stated licence that the release does not assert (their lines
            are among ``reasons``).
        asserted: sources without a stated licence whose licence ``release.assert_licences`` asserts.
    """

    restricted: bool
    reasons: tuple[str, ...]
    source_licences: tuple[str, ...]
    unstated: tuple[str, ...] = ()
    asserted: tuple[str, ...] = ()


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
    e.g. a terminology's ``licence``) contains one of :data:`BUILT_IN_RESTRICTED_LICENCES` or
    ``restricted_licences`` (case-insensitive substring: ``"SNOMED CT Affiliate Licence"`` matches
    ``"SNOMED"``). The config lists only add restrictions: an empty list lifts none.

    A source whose own ``licence`` states none (:func:`is_unstated`) keeps the dataset out of the
    public release too, unless its name is in ``asserted`` (``release.assert_licences``); a licence
    given elsewhere (a terminology's) does not state the file's. Asserting never lifts a SNOMED CT or
    UMLS restriction.
    """
    formats = {f.lower() for f in (*BUILT_IN_RESTRICTED_FORMATS, *restricted_formats)}
    needles = {n.lower() for n in (*BUILT_IN_RESTRICTED_LICENCES, *restricted_licences)}
    chosen = set(asserted)
    reasons, licences, unstated, vouched = [], set(), set(), set()
    for source in sources:
        stated = [lic for lic in (source.licence, *source.extra_licences) if not is_unstated(lic)]
        licences.update(stated if stated else ["none stated"])
        if is_unstated(source.licence) and stated:
            licences.add("none stated")
        why = []
        if source.format and source.format.lower() in formats:
            why.append(f"format {source.format}")
        why += [f"licence {lic}" for lic in stated if any(n in lic.lower() for n in needles)]
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
    )


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
    if status.unstated:
        parts.append(
            f"derived from sources that state no licence ({', '.join(status.unstated)}): biosem cannot tell "
            "whether it may be published. Check their terms; `release.assert_licences` asserts a licence."
        )
    if not parts:  # a restricted licence configured by the user that biosem has no text for
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

_URL = re.compile(r"https?://[^\s)]+")


def unlisted_licence(text: str) -> Licence:
    """A licence biosem does not list, named by its config string: ``key`` a Hub-style id made of the
    text (lowercase, runs of other characters as ``-``, URLs left out), ``url`` the first URL in the
    text; it is assumed to set conditions and to ask for no particular credit wording."""
    found = _URL.search(text)
    key = re.sub(r"[^a-z0-9.]+", "-", _URL.sub(" ", text).lower()).strip("-.") or "unnamed"
    return Licence(
        key=key,
        name=text.strip(),
        url=found.group(0) if found else None,
        hub_id="other",
        spdx=None,
        aliases=(),
        conditions=True,
        attribution_required=False,
        credit=_SOFTWARE_CREDIT,
    )


def _hub_entry(licence: Licence) -> dict[str, str]:
    if licence.hub_id != "other":
        return {"license": licence.hub_id}
    return {"license": "other", "license_name": licence.key, "license_link": licence.url or CARD_LINK}


def dataset_licence(status: LicenceStatus) -> Licence | None:
    """The one licence an open dataset is shared under, or ``None`` (restricted, unstated or mixed).

    Sources under licences without conditions (CC0, a public-domain notice) leave the choice to the
    others: CC BY 4.0 + CC0 is CC BY 4.0, NLM's MeSH terms + a public-domain corpus are NLM's terms;
    when no source sets a condition, the one such licence with a Hub id decides (CC0 + a public-domain
    corpus is CC0). A licence biosem does not list counts as one with conditions (:func:`unlisted_licence`), so a
    dataset of one source names that source's licence.
    """
    if status.restricted or any(lic.lower() in UNSTATED for lic in status.source_licences):
        return None
    found = [identify_licence(lic) or unlisted_licence(lic) for lic in status.source_licences]
    known = {f.key: f for f in found}
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
    the HPO licence, a licence biosem does not list: its URL, else the card); any other mix is
    ``other`` named ``biosem-derived-mixed`` and linked to the card, which gives the per-source licences.
    """
    if status.restricted:
        keys = _restricted_keys(status)
        if not keys:
            if status.unstated:
                return {"license": "unknown"}
            return {"license": "other", "license_name": "restricted", "license_link": CARD_LINK}
        name, link, _ = RESTRICTED_NOTICES["snomed" if "snomed" in keys else keys[0]]
        return {"license": "other", "license_name": name, "license_link": link}
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
