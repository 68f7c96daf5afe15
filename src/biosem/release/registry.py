"""The dataset registry: what each family releases, from which files, sources and parameters.

A *release dataset* is one publishable unit (one Hugging Face dataset repository, one card, one
``croissant.json``): a family (``termpairs``), a name (``hpo``), its configs and splits mapped to the
Parquet files the family's rules write, the sources it derives from (with their licences, versions and
checksums), the construction parameters taken from the config, and the paper it follows.

A family plugs in with one *provider*: a function ``config -> list[ReleaseDataset]`` decorated with
:func:`provider`, naming the workflow stage whose rules produce the files (the release includes it only
when that stage has targets under the config). The built-in providers are in
:mod:`biosem.release.families`; adding a family is a function of a dozen lines there.

Layout of a released dataset (Hugging Face datasets layout, paths relative to its folder):
``data/<split>-00000-of-00001.parquet`` for a dataset with one config (named ``default``), and
``data/<config>/<split>-00000-of-00001.parquet`` for a dataset with several configs.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass, field, replace
from typing import Any

from biosem.corpora import formats
from biosem.release.licence import Attribution, Credit, LicenceStatus, classify, credits

DEFAULT_CONFIG = "default"
NAME_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]*$")
SPLIT_RE = re.compile(r"^\w+$")  # the Hub's split-name rule


@dataclass(frozen=True)
class Source:
    """One source a dataset derives from.

    Attributes:
        name: config key (``sources.<name>``, ``terminologies.<name>``) or file name.
        kind: ``public`` (pinned in ``sources``: url + content sha256), ``licensed`` (a terminology
            release folder given by path; checksums computed by the release), or ``local`` (a file
            given by path in the config, e.g. a reviewed sheet or a text corpus).
        role: what the dataset takes from it (``"terminology"``, ``"corpus bc5cdr (train)"``).
        licence: licence as written in config (``None``: none stated).
        version, url, sha256: provenance of a public source (sha256 of the content; for gzip
            files of the decompressed bytes, see ``biosem.sources.content_sha256``).
        format: terminology format (``rf2``, ``rrf``, ``obo``) when the source is a terminology.
        release: name of a licensed release folder (its last path component), never the full path.
        path: the configured path of a licensed folder or local file (used to find it, not shown).
        attribution: how the source is credited (``sources.<name>.attribution``), or ``None``.
        extra_licences: further licences the config states for the same content (a terminology's or
            a corpus's ``licence`` over its file's): every one counts (:func:`~biosem.release.licence.classify`),
            none replaces ``licence``.
    """

    name: str
    kind: str
    role: str
    licence: str | None = None
    version: str | None = None
    url: str | None = None
    sha256: str | None = None
    format: str | None = None
    release: str | None = None
    path: str | None = None
    attribution: Attribution | None = None
    extra_licences: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if isinstance(self.attribution, Mapping):  # from params (to_params writes it as a dict)
            object.__setattr__(self, "attribution", Attribution(**self.attribution))
        object.__setattr__(self, "extra_licences", tuple(self.extra_licences))

    def with_licence(self, licence: str | None, **changes: Any) -> Source:
        """A copy with ``licence`` added to :attr:`extra_licences` (unless it is already stated) and ``changes``."""
        extra = self.extra_licences
        if licence and licence != self.licence and licence not in extra:
            extra = (*extra, licence)
        return replace(self, extra_licences=extra, **changes)


@dataclass(frozen=True)
class Paper:
    """The publication a family follows: a short name, a one-line citation, BibTeX and a link."""

    short: str
    citation: str
    bibtex: str
    url: str


@dataclass(frozen=True)
class ReleaseDataset:
    """One publishable dataset.

    Attributes:
        family, name: the dataset's id is ``<family>/<name>``; both match ``NAME_RE``.
        pretty_name: title of the card.
        summary: one paragraph: what a row is and what the dataset measures.
        motivation: why it exists (datasheet § Motivation).
        configs: ``{config: {split: input Parquet path}}``; a single config is named ``default``.
            Paths are relative to the workflow folder (outputs of the family's rules).
        sources: every source the rows derive from.
        parameters: the construction parameters used (JSON-able; from the config).
        paper: the publication the construction follows.
        columns: descriptions of known columns (``{column: text}``); columns not listed are
            released too, without a description.
        group_columns: columns whose values the composition tables count (e.g. ``("cat",)``).
        label_column: the label column counted in the composition tables, if any.
        label_names: names of ``label_column``'s integer values ``0, 1, ...`` in order (the card's
            ``class_label`` feature and Croissant's enumeration); empty: the labels are plain integers.
        limitations: known limitations (datasheet), one sentence each.
        validity: the family's ``validity.tsv`` files whose rows concern this dataset (every row of
            each); their flagged checks and string baselines join the card's known limitations.
        changes: what biosem did to the sources' content, for the credits their licences ask for
            (NLM: "Modified by biosem: ..."; CC BY: "Changes: ..."); one clause, no final full stop.
        task_categories: Hub task categories (``sentence-similarity``...).
        languages: ISO 639-1 codes of the text.
        references: keys of further papers the construction builds on
            (:data:`biosem.release.citations.PAPERS`), cited after :attr:`paper`.
        notices: the ``notices`` intermediates (Parquet paths) of the corpora whose articles carry
            their own open-access notice (CRAFT): the card and ``croissant.json`` list every article
            the rows take a sentence from, with its notice (:mod:`biosem.release.notices`).
        permitted_notices: the notice classes (:mod:`biosem.corpora.notices`) the rows may come from;
            an article of another class stops the build.
    """

    family: str
    name: str
    pretty_name: str
    summary: str
    motivation: str
    configs: Mapping[str, Mapping[str, str]]
    sources: tuple[Source, ...]
    parameters: Mapping[str, Any]
    paper: Paper
    columns: Mapping[str, str] = field(default_factory=dict)
    group_columns: tuple[str, ...] = ()
    label_column: str | None = None
    label_names: tuple[str, ...] = ()
    limitations: tuple[str, ...] = ()
    validity: tuple[str, ...] = ()
    changes: str = ""
    task_categories: tuple[str, ...] = ()
    languages: tuple[str, ...] = ("en",)
    references: tuple[str, ...] = ()
    notices: tuple[str, ...] = ()
    permitted_notices: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if self.label_names and not self.label_column:
            raise ValueError(f"release dataset {self.family}/{self.name}: label_names without a label_column")
        for label, value in (
            ("family", self.family),
            ("name", self.name),
            *(("config", c) for c in self.configs),
        ):
            if not NAME_RE.match(value):
                raise ValueError(
                    f"release dataset {self.family}/{self.name}: {label} {value!r} must match {NAME_RE.pattern}"
                )
        if not self.configs:
            raise ValueError(f"release dataset {self.id}: no configs")
        for config, splits in self.configs.items():
            if not splits:
                raise ValueError(f"release dataset {self.id}: config {config!r} has no splits")
            bad = [s for s in splits if not SPLIT_RE.match(s)]
            if bad:
                raise ValueError(f"release dataset {self.id}: split names {bad} must match {SPLIT_RE.pattern}")
        if len(self.configs) > 1 and DEFAULT_CONFIG in self.configs:
            raise ValueError(f"release dataset {self.id}: {DEFAULT_CONFIG!r} is reserved for single-config datasets")

    @property
    def id(self) -> str:
        return f"{self.family}/{self.name}"

    @property
    def single_config(self) -> bool:
        return len(self.configs) == 1 and DEFAULT_CONFIG in self.configs

    def data_file(self, config: str, split: str) -> str:
        """Path of one released Parquet file, relative to the dataset folder."""
        prefix = "data" if self.single_config else f"data/{config}"
        return f"{prefix}/{split}-00000-of-00001.parquet"

    def shards(self) -> list[tuple[str, str, str, str]]:
        """``(config, split, input path, released path)`` in config then split order."""
        return [
            (config, split, path, self.data_file(config, split))
            for config, splits in self.configs.items()
            for split, path in splits.items()
        ]

    def input_files(self) -> list[str]:
        return [path for _, _, path, _ in self.shards()]

    def licensed_terminologies(self) -> list[str]:
        """Names of the licensed terminology folders among the sources (their files get hashed)."""
        return sorted({s.name for s in self.sources if s.kind == "licensed"})

    def local_files(self) -> list[str]:
        """Configured local files among the sources (hashed when the dataset is built)."""
        return sorted({s.path for s in self.sources if s.kind == "local" and s.path})

    def licence_status(self, release: Mapping[str, Any] | None = None) -> LicenceStatus:
        """:func:`biosem.release.licence.classify` with the ``release`` section's added restricted formats
        and licences and its ``assert_licences``."""
        release = release or {}
        return classify(
            self.sources,
            restricted_formats=release.get("restricted_formats", ()),
            restricted_licences=release.get("restricted_licences", ()),
            asserted=release.get("assert_licences", ()),
        )

    def credits(self) -> list[Credit]:
        """The card's credit lines (:func:`biosem.release.licence.credits` with :attr:`changes`).

        Raises:
            AttributionError: a source's licence requires attribution and its config gives none.
        """
        changes = self.changes or "rows derived by biosem as described under Collection process"
        return credits(self.sources, changes, self.id)

    def to_params(self) -> dict[str, Any]:
        """A plain, JSON-able dict (for Snakemake ``params``); :meth:`from_params` inverts it."""
        out = asdict(self)
        out["configs"] = {c: dict(s) for c, s in self.configs.items()}
        return out

    @classmethod
    def from_params(cls, data: Mapping[str, Any]) -> ReleaseDataset:
        data = dict(data)
        data["sources"] = tuple(Source(**s) for s in data["sources"])
        data["paper"] = Paper(**data["paper"])
        for key in (
            "group_columns",
            "label_names",
            "limitations",
            "validity",
            "task_categories",
            "languages",
            "references",
            "notices",
            "permitted_notices",
        ):
            data[key] = tuple(data.get(key, ()))
        return cls(**data)


Provider = Callable[[Mapping[str, Any]], list[ReleaseDataset]]


@dataclass(frozen=True)
class Registration:
    """A provider and the workflow stage whose rules write its files."""

    family: str
    stage: str
    provider: Provider


PROVIDERS: dict[str, Registration] = {}


def provider(family: str, stage: str | None = None) -> Callable[[Provider], Provider]:
    """Register ``fn`` as a provider of release datasets of ``family``, built by rules of ``stage``.

    ``stage`` defaults to the family; the release includes the provider's datasets only when the
    stage has targets under the config (:class:`biosem.workflow.plan.Plan`).
    """

    def register(fn: Provider) -> Provider:
        key = f"{family}:{fn.__name__}"
        PROVIDERS[key] = Registration(family, stage or family, fn)
        return fn

    return register


def registered_datasets(config: Mapping[str, Any], active_stages: Sequence[str]) -> list[ReleaseDataset]:
    """Every dataset the registered providers of the active stages offer under ``config``, by id.

    Raises:
        ValueError: two providers offer the same dataset id.
    """
    out: dict[str, ReleaseDataset] = {}
    for key in sorted(PROVIDERS):
        reg = PROVIDERS[key]
        if reg.stage not in active_stages:
            continue
        for dataset in reg.provider(config):
            if dataset.family != reg.family:
                raise ValueError(f"provider {key} returned {dataset.id}, outside its family {reg.family}")
            if dataset.id in out:
                raise ValueError(f"release dataset {dataset.id} offered twice")
            out[dataset.id] = dataset
    return [out[k] for k in sorted(out)]


def _matches(dataset: ReleaseDataset, pattern: str) -> bool:
    return pattern in (dataset.family, dataset.id)


def select(
    datasets: Sequence[ReleaseDataset], include: Sequence[str] | None, exclude: Sequence[str] = ()
) -> list[ReleaseDataset]:
    """The datasets named by ``include`` (``None``: all) minus ``exclude``.

    Items are a family (``"termpairs"``) or a dataset id (``"termpairs/hpo"``).

    Raises:
        ValueError: an item matches no available dataset (the message lists what is available).
    """
    for label, items in (("release.datasets", include or []), ("release.exclude", exclude)):
        unknown = [i for i in items if not any(_matches(d, i) for d in datasets)]
        if unknown:
            available = ", ".join(d.id for d in datasets) or "none"
            raise ValueError(
                f"config {label}: {', '.join(unknown)} match no dataset of this run (available: {available})"
            )
    chosen = [d for d in datasets if include is None or any(_matches(d, i) for i in include)]
    return [d for d in chosen if not any(_matches(d, e) for e in exclude)]


# --- source helpers shared by the providers -------------------------------------------------------


def public_source(config: Mapping[str, Any], key: str, role: str) -> Source:
    """A source pinned under ``config["sources"][key]``; an unpinned key gives a source without
    checksum (the family's rules stop earlier with a message naming the key to add)."""
    spec = config.get("sources", {}).get(key)
    if spec is None:
        return Source(name=key, kind="public", role=role, licence=None, version="not pinned in sources")
    return Source(
        name=key,
        kind="public",
        role=role,
        licence=spec.get("licence"),
        version=spec.get("version"),
        url=spec.get("url"),
        sha256=spec.get("sha256"),
        attribution=Attribution(**spec["attribution"]) if spec.get("attribution") else None,
    )


def local_source(path: str, role: str, licence: str | None = None) -> Source:
    """A file given by path in the config (its sha256 is computed when the dataset is built)."""
    return Source(name=os.path.basename(str(path)), kind="local", role=role, licence=licence, path=str(path))


def terminology_sources(config: Mapping[str, Any], name: str, role: str = "terminology") -> list[Source]:
    """The sources of terminology ``name``: its public OBO or MeSH sources, or its licensed release folder."""
    spec = config["terminologies"][name]
    fmt = spec["format"]
    if fmt == "obo":
        src = public_source(config, spec["source"], f"{role} {name} (OBO)")
        return [src.with_licence(spec.get("licence"), format=fmt)]
    if fmt == "mesh":
        roles = spec["sources"]
        used = ["descriptors"] if "descriptors" in roles else ["thesaurus", "trees", "pharmacological_actions"]
        used += ["supplementary_records"] if spec["supplementary"] else []
        return [
            public_source(config, roles[r], f"{role} {name} (MeSH {r})").with_licence(spec.get("licence"), format=fmt)
            for r in used
        ]
    return [
        Source(
            name=name,
            kind="licensed",
            role=f"{role} ({fmt.upper()} release)",
            licence=spec.get("licence"),
            format=fmt,
            release=os.path.basename(os.path.normpath(str(spec["path"]))),
            path=str(spec["path"]),
        )
    ]


def terminology_parameters(config: Mapping[str, Any], name: str) -> dict[str, Any]:
    """The ingestion settings of terminology ``name`` (its config entry without the local path)."""
    spec = dict(config["terminologies"][name])
    if "path" in spec:
        spec["path"] = os.path.basename(os.path.normpath(str(spec.pop("path"))))
    return spec


def corpus_sources(config: Mapping[str, Any], corpus: str) -> list[Source]:
    """The pinned files of corpus ``corpus`` (``corpora.specs.<corpus>``), as its format names them
    (:mod:`biosem.corpora.formats`): PubTator text files and split lists, the CRAFT tarball."""
    spec = config["corpora"]["specs"][corpus]
    out = []
    for source in formats.corpus_sources(spec):
        role = f"corpus {corpus} ({source.role})" if source.role else f"corpus {corpus}"
        out.append(public_source(config, source.source, role).with_licence(spec.get("licence")))
    return out


def without(mapping: Mapping[str, Any], *keys: str) -> dict[str, Any]:
    """A copy of ``mapping`` without ``keys``."""
    return {k: v for k, v in mapping.items() if k not in keys}
