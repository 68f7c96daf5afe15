"""Croissant metadata (``croissant.json``) for a released dataset, built and validated by mlcroissant.

Croissant 1.1 (https://docs.mlcommons.org/croissant/docs/croissant-spec-1.1.html): one
``cr:FileObject`` per Parquet file (relative ``contentUrl``, ``sha256``), one ``cr:RecordSet`` per
config and split whose fields extract the Parquet columns, the Responsible-AI properties for the
collection process, raw sources and limitations, and W3C PROV provenance
(``prov:wasDerivedFrom`` the sources with their versions and checksums, ``prov:wasGeneratedBy`` the
biosem run). Everything is local: mlcroissant reads the files next to ``croissant.json`` offline.
"""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import mlcroissant as mlc
import pandas as pd
import pyarrow as pa
import rdflib

from biosem.io import write_text
from biosem.release.licence import LicenceStatus, croissant_licences, is_unstated, plain_text
from biosem.release.notices import ARTICLE_TYPE, notices_jsonld
from biosem.release.provenance import Provenance
from biosem.release.registry import ReleaseDataset, Source
from biosem.release.shards import ShardInfo

CROISSANT_VERSION = "http://mlcommons.org/croissant/1.1"
PROV = "http://www.w3.org/ns/prov#"
PARQUET = "application/x-parquet"
SCHEMA_ENUMERATION = rdflib.URIRef("https://schema.org/Enumeration")
"""``sc:Enumeration``: the data type of a record set of categories (Croissant 1.1 § categorical data)."""


class CroissantValidationError(ValueError):
    """mlcroissant reported errors on a generated or given ``croissant.json``."""


def data_type(arrow_type: pa.DataType) -> tuple[Any, bool]:
    """``(Croissant data type, is_array)`` of an Arrow column type (lists map to arrays of their item)."""
    if pa.types.is_list(arrow_type) or pa.types.is_large_list(arrow_type):
        item, _ = data_type(arrow_type.value_type)
        return item, True
    if pa.types.is_boolean(arrow_type):
        return mlc.DataType.BOOL, False
    if pa.types.is_integer(arrow_type):
        return mlc.DataType.INTEGER, False
    if pa.types.is_floating(arrow_type):
        return mlc.DataType.FLOAT, False
    if pa.types.is_date(arrow_type):
        return mlc.DataType.DATE, False
    if pa.types.is_timestamp(arrow_type):
        return mlc.DataType.DATETIME, False
    return mlc.DataType.TEXT, False


def record_set_id(dataset: ReleaseDataset, config: str, split: str) -> str:
    """``<split>`` for a single-config dataset, else ``<config>.<split>``."""
    return split if dataset.single_config else f"{config}.{split}"


def _file_id(shard: ShardInfo) -> str:
    return shard.path.removeprefix("data/").removesuffix(".parquet").replace("/", ".")


def label_record_set(dataset: ReleaseDataset) -> mlc.RecordSet | None:
    """The enumeration of the label column's classes (``<label>_names``: ``index``, ``name``; Croissant
    1.1 § categorical data), which the label fields reference; ``None`` without label names."""
    if not dataset.label_names or not dataset.label_column:
        return None
    rs = f"{dataset.label_column}_names"
    return mlc.RecordSet(
        id=rs,
        name=rs,
        description=f"Classes of the `{dataset.label_column}` column: its integer value and the class name.",
        data_types=[SCHEMA_ENUMERATION],
        key=[f"{rs}/index"],
        fields=[
            mlc.Field(id=f"{rs}/index", name="index", data_types=[mlc.DataType.INTEGER]),
            mlc.Field(id=f"{rs}/name", name="name", data_types=[mlc.DataType.TEXT]),
        ],
        data=[{f"{rs}/index": i, f"{rs}/name": n} for i, n in enumerate(dataset.label_names)],
    )


def build_metadata(
    dataset: ReleaseDataset,
    shards: Sequence[ShardInfo],
    status: LicenceStatus,
    provenance: Provenance,
) -> mlc.Metadata:
    """The mlcroissant ``Metadata`` of a dataset (raises mlcroissant's ``ValidationError`` on errors)."""
    distribution = []
    labels = label_record_set(dataset)
    record_sets = [labels] if labels is not None else []
    for shard in shards:
        fid = _file_id(shard)
        distribution.append(
            mlc.FileObject(
                id=fid,
                name=fid,
                description=f"{dataset.id} {shard.config}/{shard.split}: {shard.rows} rows",
                content_url=shard.path,
                content_size=f"{shard.file_bytes} B",
                encoding_formats=[PARQUET],
                sha256=shard.sha256,
            )
        )
        rs = record_set_id(dataset, shard.config, shard.split)
        fields = []
        for column in shard.schema:
            dtype, is_array = data_type(column.type)
            fields.append(
                mlc.Field(
                    id=f"{rs}/{column.name}",
                    name=column.name,
                    description=dataset.columns.get(column.name) or None,
                    data_types=[dtype],
                    is_array=True if is_array else None,
                    array_shape="-1" if is_array else None,
                    source=mlc.Source(file_object=fid, extract=mlc.Extract(column=column.name)),
                    references=(
                        mlc.Source(field=f"{labels.id}/index")
                        if labels is not None and column.name == dataset.label_column
                        else mlc.Source()
                    ),
                )
            )
        record_sets.append(
            mlc.RecordSet(
                id=rs,
                name=rs,
                description=f"Config {shard.config}, split {shard.split} ({shard.rows} rows).",
                fields=fields,
            )
        )
    raw = [
        f"{s.name} ({s.role}): {s.release or s.version or 'unversioned'}; licence {s.licence or 'none stated'}"
        + (f"; content sha256 {s.sha256}" if s.sha256 else "")
        for s in dataset.sources
    ]
    parameters = json.dumps(dict(dataset.parameters), sort_keys=True, ensure_ascii=False)
    return mlc.Metadata(
        name=f"biosem-{dataset.family}-{dataset.name}",
        description=dataset.summary,
        conforms_to=[CROISSANT_VERSION],
        cite_as=dataset.paper.bibtex,
        license=croissant_licences(status),
        url=provenance.url,
        version=provenance.release_version,
        date_published=provenance.date,
        keywords=["biomedical", "biosem", dataset.family],
        in_language=list(dataset.languages),
        distribution=distribution,
        record_sets=record_sets,
        data_collection=(
            f"Built automatically by biosem {provenance.biosem_version} (git commit {provenance.git_commit}) "
            f"from the sources, without new annotation, following {dataset.paper.citation} Command: "
            f"{provenance.command}"
        ),
        data_collection_type=["Derived from existing resources"],
        data_collection_raw_data="; ".join(raw),
        data_preprocessing_protocol=[
            *([f"Changes to the sources: {dataset.changes}."] if dataset.changes else []),
            f"Construction parameters (JSON): {parameters}",
        ],
        data_limitations=list(dataset.limitations) or None,
        data_use_cases=[dataset.motivation],
    )


def provenance_jsonld(
    dataset: ReleaseDataset, provenance: Provenance, articles: pd.DataFrame | None = None
) -> dict[str, Any]:
    """W3C PROV properties: the sources (with version, licence, checksum, credit), then the articles the
    rows take sentences from with their notices (:func:`biosem.release.notices.notices_jsonld`), and the
    generating run; and ``creditText`` (schema.org): every source's credit, as the card's "Licence and
    attribution" gives it."""
    credits = dataset.credits()
    credit_of = {name: plain_text(c.text) for c in credits for name in c.sources}
    derived = []
    for s in dataset.sources:
        entry: dict[str, Any] = {
            "@type": "sc:Dataset" if s.kind == "public" else "sc:CreativeWork",
            "name": s.name,
            "description": s.role,
        }
        if s.url:
            entry["url"] = s.url
        if s.release or s.version:
            entry["version"] = s.release or s.version
        # Every licence config states for the source, its file's first ("none stated" when it states
        # none), and its terminology format: what biosem.release.check decides "restricted" from.
        licences = [s.licence or "none stated", *s.extra_licences]
        entry["license"] = licences[0] if len(licences) == 1 else licences
        if s.format:
            entry["encodingFormat"] = s.format
        if s.sha256:
            entry["sha256"] = s.sha256
        if s.name in credit_of:
            entry["creditText"] = credit_of[s.name]
        derived.append(entry)
    derived += notices_jsonld(articles) if articles is not None else []
    generated = {
        "@type": "prov:Activity",
        "name": f"biosem {provenance.biosem_version} release {provenance.release_version} ({provenance.visibility})",
        "description": f"git commit {provenance.git_commit} ({provenance.git_state}); command: {provenance.command}",
    }
    return {
        "creditText": " ".join(plain_text(c.text) for c in credits),
        "prov:wasDerivedFrom": derived,
        "prov:wasGeneratedBy": generated,
    }


def recorded_sources(doc: dict[str, Any]) -> list[Source]:
    """The sources a ``croissant.json`` document records (``prov:wasDerivedFrom``): name, licences, format.
    Article entries (:data:`biosem.release.notices.ARTICLE_TYPE`) are not sources and are skipped.

    Raises:
        ValueError: the document records no sources, or an entry has no name.
    """
    entries = doc.get("prov:wasDerivedFrom")
    if not isinstance(entries, list) or not entries:
        raise ValueError("no source provenance: expected a list of sources in prov:wasDerivedFrom, found none")
    out = []
    for entry in entries:
        if isinstance(entry, dict) and entry.get("@type") == ARTICLE_TYPE:
            continue  # an article with its notice (biosem.release.notices), not a source with a licence
        if not isinstance(entry, dict) or not entry.get("name"):
            raise ValueError(f"prov:wasDerivedFrom: expected a source with a name, found {entry!r}")
        licences = entry.get("license", "none stated")
        licences = [licences] if isinstance(licences, str) else [str(x) for x in licences] or ["none stated"]
        out.append(
            Source(
                name=str(entry["name"]),
                kind="public" if entry.get("@type") == "sc:Dataset" else "recorded",
                role=str(entry.get("description", "")),
                licence=None if is_unstated(licences[0]) else licences[0],
                format=entry.get("encodingFormat"),
                extra_licences=tuple(licences[1:]),
            )
        )
    return out


def croissant_json(
    dataset: ReleaseDataset,
    shards: Sequence[ShardInfo],
    status: LicenceStatus,
    provenance: Provenance,
    articles: pd.DataFrame | None = None,
) -> dict[str, Any]:
    """The ``croissant.json`` document (JSON-LD dict): mlcroissant's serialisation plus PROV (with the
    articles and their notices, when the rows carry sentences of articles with notices)."""
    metadata = build_metadata(dataset, shards, status, provenance)
    if metadata.issues.errors:
        raise CroissantValidationError(metadata.issues.report())
    doc = metadata.to_json()
    doc["@context"]["prov"] = PROV
    doc.update(provenance_jsonld(dataset, provenance, articles))
    return doc


def write_croissant(doc: dict[str, Any], path: str | os.PathLike[str]) -> None:
    """Write ``doc`` as indented JSON (stable key order as mlcroissant produced it), atomically."""
    write_text(json.dumps(doc, indent=2, ensure_ascii=False) + "\n", path)


def validate_croissant(path: str | os.PathLike[str], check_records: int = 0) -> list[str]:
    """Validate a ``croissant.json`` with mlcroissant; return its warnings.

    Args:
        check_records: also read up to this many records of every record set (offline: the
            ``contentUrl`` files next to the JSON).

    Raises:
        CroissantValidationError: mlcroissant reports errors, or reading records fails.
    """
    try:
        dataset = mlc.Dataset(jsonld=Path(path))
    except mlc.ValidationError as exc:
        raise CroissantValidationError(f"{path}: {exc}") from exc
    issues = dataset.metadata.issues
    if issues.errors:
        raise CroissantValidationError(f"{path}: {issues.report()}")
    if check_records:
        for record_set in dataset.metadata.record_sets:
            try:
                for number, _ in enumerate(dataset.records(record_set=record_set.id)):
                    if number + 1 >= check_records:
                        break
            except Exception as exc:  # mlcroissant raises many types; report which record set failed
                raise CroissantValidationError(f"{path}: record set {record_set.id}: {exc}") from exc
    return sorted(str(w) for w in issues.warnings)
