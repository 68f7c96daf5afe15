"""Dataset cards: ``README.md`` with Hugging Face YAML metadata and datasheet sections.

The YAML header follows the Hub's dataset-card specification (``configs`` with ``data_files`` per
split, ``dataset_info`` with features and split sizes, ``license``, ``size_categories``,
``source_datasets``, ``pretty_name``), rendered by ``huggingface_hub.DatasetCardData`` from
``datasets.DatasetInfo`` objects, so ``datasets.load_dataset(<folder>, <config>)`` reads it. The body
follows "Datasheets for Datasets" (Gebru et al., CACM 2021): motivation, composition (counts per
config, split, group and label), collection process (the construction parameters actually used),
sources with their releases and checksums, known limitations, licence, and the paper followed.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

import datasets
import pandas as pd
import pyarrow as pa
import yaml
from datasets.info import DatasetInfo, DatasetInfosDict
from datasets.splits import SplitDict, SplitInfo
from huggingface_hub import DatasetCardData

from biosem.release import citations
from biosem.release.licence import (
    Attribution,
    LicenceStatus,
    dataset_licence,
    hub_licence,
    identify_licence,
    restricted_notice,
)
from biosem.release.notices import notices_section
from biosem.release.provenance import Provenance
from biosem.release.registry import ReleaseDataset
from biosem.release.shards import ShardInfo

SIZE_CATEGORIES = (
    (1_000, "n<1K"),
    (10_000, "1K<n<10K"),
    (100_000, "10K<n<100K"),
    (1_000_000, "100K<n<1M"),
    (10_000_000, "1M<n<10M"),
    (100_000_000, "10M<n<100M"),
    (1_000_000_000, "100M<n<1B"),
)

CREDITS_HEADING = "## Licence and attribution"
"""The card section with the dataset's licence and its sources' credits (checked by ``biosem.release.check``)."""

FileChecksums = Mapping[str, Sequence[tuple[str, int, str]]]
"""``{source name: [(file, bytes, sha256), ...]}`` for licensed release folders and local files."""


def size_category(rows: int) -> str:
    """The Hub's ``size_categories`` value for a dataset of ``rows`` rows (all configs and splits)."""
    for bound, label in SIZE_CATEGORIES:
        if rows < bound:
            return label
    return "n>1B"


def config_schemas(dataset: ReleaseDataset, shards: Sequence[ShardInfo]) -> dict[str, object]:
    """``{config: Arrow schema}``; the splits of one config must share their schema.

    Raises:
        ValueError: two splits of a config have different schemas.
    """
    out: dict[str, object] = {}
    for shard in shards:
        known = out.setdefault(shard.config, shard.schema)
        if not shard.schema.equals(known):  # type: ignore[attr-defined]
            raise ValueError(f"{dataset.id}: splits of config {shard.config!r} differ in schema")
    return out


def loadable_splits(dataset: ReleaseDataset, shards: Sequence[ShardInfo]) -> dict[str, list[str]]:
    """``{config: [split, ...]}`` of the shards with rows, in the dataset's order.

    The card declares only these: the Hugging Face loader cannot load a split without rows
    ("Instruction ... corresponds to no data"), so an empty shard is released as a file (its config
    is part of the construction) but not declared as a loadable config or split.
    """
    rows = {(s.config, s.split): s.rows for s in shards}
    out: dict[str, list[str]] = {}
    for config, splits in dataset.configs.items():
        kept = [split for split in splits if rows.get((config, split), 0) > 0]
        if kept:
            out[config] = kept
    return out


def features(dataset: ReleaseDataset, schema: pa.Schema) -> datasets.Features:
    """The ``datasets`` features of a config: its Arrow columns, with the label column as a
    ``ClassLabel`` named by :attr:`~biosem.release.registry.ReleaseDataset.label_names`.

    Raises:
        ValueError: the label column is not of an integer type.
    """
    out = datasets.Features.from_arrow_schema(schema)
    label = dataset.label_column
    if dataset.label_names and label in out:
        if not pa.types.is_integer(schema.field(label).type):
            raise ValueError(
                f"{dataset.id}: label column {label!r}: expected integers 0..{len(dataset.label_names) - 1} "
                f"for its names, found type {schema.field(label).type}"
            )
        out[label] = datasets.ClassLabel(names=list(dataset.label_names))
    return out


def source_urls(dataset: ReleaseDataset) -> list[str]:
    """The card's ``source_datasets``: per source its work's home page (``attribution.url``), else its
    download URL; sorted, each once. Licensed folders and local files have none."""
    urls = set()
    for s in dataset.sources:
        url = (s.attribution.url if s.attribution else None) or s.url
        if url:
            urls.add(url)
    return sorted(urls)


def card_metadata(dataset: ReleaseDataset, shards: Sequence[ShardInfo], status: LicenceStatus) -> str:
    """The YAML header (without the ``---`` fences)."""
    schemas = config_schemas(dataset, shards)
    loadable = loadable_splits(dataset, shards)
    infos = {}
    for config in loadable:
        splits = SplitDict()
        mine = [s for s in shards if s.config == config and s.split in loadable[config]]
        for shard in mine:
            splits.add(SplitInfo(name=shard.split, num_bytes=shard.arrow_bytes, num_examples=shard.rows))
        infos[config] = DatasetInfo(
            features=features(dataset, schemas[config]),  # type: ignore[arg-type]
            splits=splits,
            download_size=sum(s.file_bytes for s in mine),
            dataset_size=sum(s.arrow_bytes for s in mine),
            config_name=config,
        )
    configs = []
    for position, config in enumerate(loadable):
        entry: dict[str, object] = {
            "config_name": config,
            "data_files": [{"split": split, "path": dataset.data_file(config, split)} for split in loadable[config]],
        }
        if position == 0 and not dataset.single_config:
            entry["default"] = True
        configs.append(entry)
    extra: dict[str, Any] = dict(hub_licence(status))
    if status.restricted:
        extra["extra_gated_prompt"] = (
            "This dataset is derived from restricted sources: "
            + "; ".join(status.reasons)
            + ". Confirm that you hold the required licence."
        )
    card = DatasetCardData(
        pretty_name=dataset.pretty_name,
        language=list(dataset.languages),
        size_categories=[size_category(sum(s.rows for s in shards))],
        source_datasets=source_urls(dataset) or None,
        task_categories=list(dataset.task_categories) or None,
        tags=["biomedical", "biosem", dataset.family],
        configs=configs or None,
        **extra,
    )
    DatasetInfosDict(infos).to_dataset_card_data(card)
    return card.to_yaml()


def markdown_table(frame: pd.DataFrame) -> str:
    """A GitHub-flavoured Markdown table of ``frame`` (cells escaped for ``|`` and newlines)."""

    def cell(value: object) -> str:
        text = "" if value is None or (isinstance(value, float) and pd.isna(value)) else str(value)
        return text.replace("|", "\\|").replace("\n", " ")

    header = "| " + " | ".join(cell(c) for c in frame.columns) + " |"
    rule = "|" + "|".join("---" for _ in frame.columns) + "|"
    rows = ["| " + " | ".join(cell(v) for v in row) + " |" for row in frame.itertuples(index=False)]
    return "\n".join([header, rule, *rows])


VALIDITY_DETAIL_CHARS = 160
"""A flagged check's detail is cut to this many characters in the card (the report shows it whole)."""

BASELINE_CHECKS = {
    "exact_match_auc": "exact match",
    "levenshtein_ratio_auc": "Levenshtein ratio",
    "char3_jaccard_auc": "char 3-gram Jaccard",
}
"""The string baselines (AUC) the card tabulates, as :mod:`biosem.validity` names them."""


CARD_MEASURES = {
    "association_recorded_synonym": "any",
    "trivial_share": "",
    "group_left_out": None,
    "mean_answers": "",
    "weak_pos_evidence_pairs": "",
    "published_wrong_pos_pairs": "",
}
"""Reported (``info``) checks the card lists under the flags, with the stratum shown (``None``: every
stratum): the measures a reader of the card needs besides the flags (association pairs the source also
records as synonyms, the share of WiC items whose terms are equal, the groups left out of a split, Amb,
the corpus POS evidence and the published set's POS share)."""


def validity_limitations(table: pd.DataFrame) -> str:
    """The part of "Known limitations" read from the family's ``validity.tsv`` rows of this dataset
    (:mod:`biosem.validity`; docs/design.md § Validity): how many checks ran and which were flagged
    (check, dataset and stratum, value, the pass condition and the detail), the measures of
    :data:`CARD_MEASURES`, then the model-free string
    baselines as a table of AUCs (a dataset at ``>= 0.95`` is solvable by string matching; the
    Levenshtein-negative datasets are built to fall below 0.5). Empty text for an empty table.

    Args:
        table: rows of :func:`biosem.validity.read_validity` (columns :data:`biosem.validity.COLUMNS`).
    """
    if table.empty:
        return ""
    from biosem.validity import FLAG

    flagged = table[table["status"] == FLAG]
    is_baseline = flagged["check"].str.startswith(tuple(c.removesuffix("_auc") for c in BASELINE_CHECKS))
    lines = [
        f"Validity checks of this build (`validity.tsv` beside the family's `counts.tsv`): {len(table):,} checks, "
        f"{len(flagged):,} flagged{':' if len(flagged) else '.'}",
        "",
    ]
    for row in flagged[~is_baseline].itertuples(index=False):
        where = f"`{row.dataset}`" + (f" / `{row.stratum}`" if row.stratum else "")
        detail = str(row.detail)
        if len(detail) > VALIDITY_DETAIL_CHARS:
            detail = detail[: VALIDITY_DETAIL_CHARS - 1] + "…"
        lines.append(
            f"* {where}: `{row.check}` = {_validity_value(row.value)} (passes when {row.threshold})"
            + (f"; {detail}" if detail else "")
        )
    if is_baseline.any():
        solvable = flagged[is_baseline]
        names = dict.fromkeys(
            f"`{d}`" + (f" / `{s}`" if s else "") for d, s in zip(solvable["dataset"], solvable["stratum"])
        )
        lines.append(
            f"* Solvable by string matching (a string baseline's AUC or accuracy >= 0.95, {len(solvable):,} "
            f"values): {', '.join(names)}"
        )
    wanted = table["check"].map(CARD_MEASURES)
    measured = table[
        (table["status"] != FLAG)
        & table["check"].isin(list(CARD_MEASURES))
        & (wanted.isna() | (wanted == table["stratum"]))
    ]
    if not measured.empty:
        lines += ["", "Measured (reported without a threshold):", ""]
        for row in measured.itertuples(index=False):
            where = f"`{row.dataset}`" + (f" / `{row.stratum}`" if row.stratum and row.stratum != "any" else "")
            detail = str(row.detail)
            if len(detail) > VALIDITY_DETAIL_CHARS:
                detail = detail[: VALIDITY_DETAIL_CHARS - 1] + "…"
            lines.append(f"* {where}: `{row.check}` = {_validity_value(row.value)}" + (f"; {detail}" if detail else ""))
    baselines = table[table["check"].isin(list(BASELINE_CHECKS))]
    if not baselines.empty:
        wide = baselines.pivot_table(
            index=["dataset", "stratum"], columns="check", values="value", aggfunc="first", sort=False
        ).reset_index()
        wide = wide[["dataset", "stratum", *[c for c in BASELINE_CHECKS if c in wide.columns]]]
        wide = wide.rename(columns=BASELINE_CHECKS)
        if (wide["stratum"] == "").all():
            wide = wide.drop(columns="stratum")
        for column in BASELINE_CHECKS.values():
            if column in wide.columns:
                wide[column] = wide[column].map(_validity_value)
        lines += [
            "",
            "Model-free baselines (AUC of a string similarity as the score of label 1; 0.5 is chance, a dataset "
            "at 0.95 or more is flagged as solvable by string matching, and datasets whose negatives are the "
            "nearest look-alike terms are built to score below 0.5):",
            "",
            markdown_table(wide),
        ]
    return "\n".join(lines) + "\n"


def _validity_value(value: object) -> str:
    number = float(value)
    if number != number:  # NaN
        return "undefined"
    return f"{int(number):,}" if number.is_integer() and abs(number) >= 1 else f"{number:.3g}"


def _composition_section(dataset: ReleaseDataset, composition: pd.DataFrame, shards: Sequence[ShardInfo]) -> str:
    lines = []
    totals = pd.DataFrame([{"config": s.config, "split": s.split, "rows": s.rows, "file": s.path} for s in shards])
    lines.append(f"{sum(s.rows for s in shards):,} rows in {len(shards)} file(s).\n")
    empty = [f"`{s.config}/{s.split}`" if not dataset.single_config else f"`{s.split}`" for s in shards if s.rows == 0]
    if empty:
        lines.append(
            "Empty (0 rows): " + ", ".join(empty) + ". Their files are released so that every config of "
            "the construction is present, but the card does not declare them as configs or splits: the "
            "Hugging Face loader cannot load a split without rows.\n"
        )
    wide = composition
    if "label" in composition.columns:
        wide = (
            composition[composition["rows"] > 0]
            .pivot_table(
                index=[c for c in composition.columns if c not in ("label", "rows")],
                columns="label",
                values="rows",
                aggfunc="sum",
                fill_value=0,
                sort=True,
            )
            .reset_index()
        )
        wide.columns = [c if c in composition.columns else f"label {c}" for c in wide.columns]
        order = {(s.config, s.split): i for i, s in enumerate(shards)}
        wide = (
            wide.assign(_o=[order[(c, s)] for c, s in zip(wide["config"], wide["split"])])
            .sort_values("_o", kind="stable")
            .drop(columns="_o")
        )
    if dataset.single_config:
        wide = wide.drop(columns="config")
        totals = totals.drop(columns="config")
    if dataset.group_columns or dataset.label_column:
        keys = ([] if dataset.single_config else ["config"]) + ["split"]
        keys += [f"`{g}`" for g in dataset.group_columns] + (["label"] if dataset.label_column else [])
        lines.append(f"Rows per {', '.join(keys[:-1])} and {keys[-1]}:\n")
        lines.append(markdown_table(wide) + "\n")
    lines.append("Files:\n")
    lines.append(markdown_table(totals) + "\n")
    return "\n".join(lines)


def type_name(arrow_type: pa.DataType) -> str:
    """A short Arrow type name for the card (``list<string>`` rather than the item field's spelling)."""
    if pa.types.is_list(arrow_type) or pa.types.is_large_list(arrow_type):
        return f"list<{type_name(arrow_type.value_type)}>"
    return str(arrow_type)


def _features_table(dataset: ReleaseDataset, shards: Sequence[ShardInfo]) -> str:
    schemas = config_schemas(dataset, shards)
    rows = []
    seen: dict[str, list[str]] = {}
    for config, schema in schemas.items():
        for field in schema:  # type: ignore[attr-defined]
            key = f"{field.name}\t{type_name(field.type)}"
            seen.setdefault(key, []).append(config)
    for key, configs in seen.items():
        name, dtype = key.split("\t")
        row = {"column": f"`{name}`", "type": dtype, "description": dataset.columns.get(name, "")}
        if name == dataset.label_column and dataset.label_names:
            row["type"] = f"class label ({dtype})"
            names = ", ".join(f"{i} = `{n}`" for i, n in enumerate(dataset.label_names))
            row["description"] = f"{row['description']} Names: {names}.".strip()
        if len(schemas) > 1 and len(configs) < len(schemas):
            row["description"] += f" (configs: {', '.join(configs)})"
        rows.append(row)
    return markdown_table(pd.DataFrame(rows, columns=["column", "type", "description"]))


def _sources_section(dataset: ReleaseDataset, checksums: FileChecksums) -> str:
    rows = []
    for s in dataset.sources:
        if s.kind == "public":
            check = f"content sha256 `{s.sha256}`" if s.sha256 else "not pinned"
        else:
            files = checksums.get(s.name if s.kind == "licensed" else (s.path or s.name), [])
            check = f"{len(files)} file(s), sha256 below" if files else "not hashed"
        rows.append(
            {
                "source": f"`{s.name}`",
                "role": s.role,
                "release / version": s.release or s.version or "",
                "licence": s.licence or "none stated",
                "url": s.url or "",
                "checksum": check,
            }
        )
    out = [markdown_table(pd.DataFrame(rows)) + "\n"]
    for s in dataset.sources:
        key = s.name if s.kind == "licensed" else (s.path or s.name)
        listed = checksums.get(key) if s.kind != "public" else None
        if listed:
            what = f"release folder `{s.release}`" if s.kind == "licensed" else f"file `{s.name}`"
            out.append(f"SHA-256 of {what} (`{s.name}`):\n")
            out.append(markdown_table(pd.DataFrame(list(listed), columns=["file", "bytes", "sha256"])) + "\n")
    return "\n".join(out)


def licence_section(dataset: ReleaseDataset, status: LicenceStatus, articles: pd.DataFrame | None = None) -> str:
    """The card's "Licence and attribution" section: the dataset's licence, then one credit per source
    group, then the articles the rows take sentences from with their notices (``articles``:
    :func:`biosem.release.notices.released_articles`; ``None`` or empty: none).

    Raises:
        AttributionError: a source's licence requires attribution and its config gives none.
    """
    meta = ", ".join(f"`{k}: {v}`" for k, v in hub_licence(status).items())
    licence = dataset_licence(status)
    if status.restricted:
        head = "**Restricted**: see the notice at the top."
    elif licence is not None:
        name = f"[{licence.name}]({licence.url})" if licence.url else licence.name
        head = f"**Licence: {name}**, the terms of the sources this dataset adapts"
        free = sorted({k.name for k in map(identify_licence, status.source_licences) if k and not k.conditions})
        if licence.conditions and free:
            head += f" (no condition from the sources under: {', '.join(free)})"
        head += "."
    else:
        listed = "; ".join(status.source_licences)
        head = f"**Licence: the terms of each source apply** ({listed}); check them before redistributing."
    if status.asserted:
        names = ", ".join(f"`{n}`" for n in status.asserted)
        head += (
            f" The publishers of {names} state no licence: the release's configuration asserts that it may be "
            "published (`release.assert_licences`), on the responsibility of whoever cut the release."
        )
    credits = dataset.credits()
    bullets = "\n".join(f"* {', '.join(f'`{n}`' for n in c.sources)}: {c.text}" for c in credits)
    scope = "" if status.restricted else "Open sources only: no UMLS or SNOMED CT content. "
    notices = notices_section(articles) if articles is not None else ""
    return (
        f"{head} Hugging Face metadata: {meta}.\n\n"
        "Credits, as the sources' licences ask:\n\n"
        f"{bullets}\n\n"
        f"{scope}biosem's code is Apache-2.0; that licence does not cover the data.\n"
        + (f"\n{notices}" if notices else "")
    )


def _usage(dataset: ReleaseDataset, shards: Sequence[ShardInfo]) -> str:
    loadable = loadable_splits(dataset, shards)
    if not loadable:
        return "Every file of this dataset is empty: there is nothing to load.\n"
    first = next(iter(loadable))
    data_dir = "data" if dataset.single_config else f"data/{first}"
    name = "" if dataset.single_config else f', "{first}"'
    return (
        "```python\n"
        "from datasets import load_dataset\n\n"
        f'ds = load_dataset("path/to/{dataset.name}"{name})  # this folder; configs from the card\n'
        f'ds = load_dataset("parquet", data_dir="path/to/{dataset.name}/{data_dir}")  # one config\n'
        "```\n"
    )


Example = tuple[str, str, Mapping[str, Any]]
"""``(config, split, row)``: a row shown in the card (:func:`example_shard`)."""


def example_shard(dataset: ReleaseDataset, shards: Sequence[ShardInfo]) -> ShardInfo | None:
    """The shard whose first row the card shows: ``train`` of the first config that has one with rows,
    else the first shard with rows, in the dataset's order; ``None`` when every shard is empty."""
    with_rows = [s for s in shards if s.rows > 0]
    return next((s for s in with_rows if s.split == "train"), with_rows[0] if with_rows else None)


def _example_section(dataset: ReleaseDataset, example: Example | None) -> str:
    if example is None:
        return "No example: every file is empty.\n"
    config, split, row = example
    where = f"`{split}`" if dataset.single_config else f"`{split}` of config `{config}`"
    text = json.dumps(dict(row), indent=2, ensure_ascii=False, default=str)
    return f"The first row of {where}:\n\n```json\n{text}\n```\n"


def bibtex_entries(dataset: ReleaseDataset) -> list[str]:
    """BibTeX of the paper followed, the further papers, then one entry per source (the files of one
    work, i.e. with the same attribution, share an entry; see :func:`biosem.release.citations.source_bibtex`)."""
    out = [dataset.paper.bibtex]
    out += [entry for entry in citations.papers(dataset.references) if entry not in out]
    seen: set[object] = set()
    for s in dataset.sources:
        work = s.attribution or (s.kind, s.name)
        if work in seen:
            continue
        seen.add(work)
        credited = s.attribution or Attribution(title=s.release or s.name, creator="")
        entry = citations.source_bibtex(s.name, credited, s.version, s.url)
        if entry not in out:
            out.append(entry)
    return out


def render_card(
    dataset: ReleaseDataset,
    shards: Sequence[ShardInfo],
    composition: pd.DataFrame,
    status: LicenceStatus,
    provenance: Provenance,
    checksums: FileChecksums,
    example: Example | None = None,
    validity: pd.DataFrame | None = None,
    articles: pd.DataFrame | None = None,
) -> str:
    """The whole ``README.md``: YAML header, then the card and datasheet sections.

    Args:
        composition: :func:`biosem.release.shards.composition` of the dataset.
        checksums: per-file SHA-256 of licensed release folders (by terminology name) and local
            files (by configured path).
        example: the row shown under "Example" (the first row of :func:`example_shard`).
        validity: the dataset's validity checks (:func:`validity_limitations`), shown under "Known
            limitations".
        articles: the articles the rows take sentences from, with their notices
            (:func:`biosem.release.notices.released_articles`), listed under "Licence and attribution".
    """
    notice = restricted_notice(status)
    commit = (
        provenance.git_commit
        if provenance.git_state in ("clean", "unknown")
        else f"{provenance.git_commit} (modified working tree)"
    )
    parameters = yaml.safe_dump(dict(dataset.parameters), sort_keys=True, allow_unicode=True, width=100)
    limitations = "\n".join(f"* {item}" for item in dataset.limitations) or "* None recorded."
    if validity is not None and not validity.empty:
        limitations += "\n\n" + validity_limitations(validity).rstrip("\n")
    body = [
        "---",
        card_metadata(dataset, shards, status).rstrip("\n"),
        "---",
        "",
        f"# {dataset.pretty_name}",
        "",
        *([notice] if notice else []),
        dataset.summary,
        "",
        (
            f"Release `{provenance.release_version}` (`{provenance.visibility}`) of the `{dataset.id}` dataset, "
            f"built by biosem {provenance.biosem_version} (git commit {commit}) following {dataset.paper.citation}"
        ),
        "",
        CREDITS_HEADING,
        "",
        licence_section(dataset, status, articles),
        "## Dataset structure",
        "",
        _features_table(dataset, shards),
        "",
        _usage(dataset, shards),
        "### Example",
        "",
        _example_section(dataset, example),
        "## Datasheet",
        "",
        "### Motivation",
        "",
        dataset.motivation,
        "",
        "### Composition",
        "",
        _composition_section(dataset, composition, shards),
        "### Collection process",
        "",
        (
            "Built automatically, without new annotation, by the biosem Snakemake workflow from the sources "
            "below. The command and the complete configuration are in the release's `RELEASE.md` and "
            "`config.yaml`:"
        ),
        "",
        "```",
        provenance.command,
        "```",
        "",
        "Construction parameters used (from the config):",
        "",
        "```yaml",
        parameters.rstrip("\n"),
        "```",
        "",
        "### Sources",
        "",
        _sources_section(dataset, checksums),
        "### Known limitations",
        "",
        limitations,
        "",
        "### Licence",
        "",
        (
            "See [Licence and attribution](#licence-and-attribution) at the top: the licence, and the credit "
            "each source's licence asks for when this dataset or a work built on it is shared."
        ),
        "",
        "### Citation",
        "",
        (
            f"The construction follows [{dataset.paper.citation}]({dataset.paper.url}) Please cite it, the "
            "further papers the construction builds on and the sources (their publishers' requested "
            "citations are in each `note`):"
        ),
        "",
        "```bibtex",
        "\n\n".join(bibtex_entries(dataset)),
        "```",
        "",
        "## Checksums",
        "",
        "`SHA256SUMS` lists every file of this folder; check with `sha256sum -c SHA256SUMS`.",
        "",
    ]
    return "\n".join(body)
