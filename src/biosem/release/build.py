"""Assemble one released dataset folder and the release manifest.

A dataset folder (``results/release/<version>/<visibility>/<family>/<name>/``) holds the Parquet
shards, ``README.md`` (card), ``croissant.json`` and ``SHA256SUMS``. The release folder
(``results/release/<version>/<visibility>/``) adds ``RELEASE.md``, ``config.yaml`` and a
``SHA256SUMS`` over every file below it.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd
import pyarrow.parquet as pq

from biosem.io import write_text
from biosem.release.card import FileChecksums, example_shard, markdown_table, render_card
from biosem.release.checksums import SUMS_NAME, format_sums, sha256_file, walk_release
from biosem.release.croissant import croissant_json, validate_croissant, write_croissant
from biosem.release.licence import LicenceStatus, RestrictedLicenceError, hub_licence
from biosem.release.notices import released_articles
from biosem.release.provenance import Provenance, config_yaml
from biosem.release.registry import ReleaseDataset
from biosem.release.shards import ShardInfo, composition, write_shard

log = logging.getLogger(__name__)

VISIBILITIES = ("public", "private")


class SymlinkError(ValueError):
    """A release input or output goes through a symbolic link: the release copies real bytes only.

    Attributes:
        path: the path given; link: the symbolic link on it; target: where the link points.
    """

    def __init__(self, what: str, path: str | os.PathLike[str], link: str | os.PathLike[str]) -> None:
        self.path, self.link = str(path), str(link)
        self.target = os.readlink(link)
        super().__init__(
            f"{what} {self.path}: expected a regular file or folder, found a symbolic link {self.link} -> "
            f"{self.target}. The release follows no link (a link could put another dataset's rows here): "
            "replace it by the real file (rebuild it) and run again."
        )


def symlink_on_path(path: str | os.PathLike[str]) -> Path | None:
    """The first symbolic link among the components of ``path``, or ``None``.

    A relative path is checked component by component from the working directory (the workflow
    folder); an absolute one from the working directory when it lies below it, else only its last
    component (the folders above a workflow are not the release's business).
    """
    given = Path(path)
    current, rel = Path(), given
    if given.is_absolute():
        try:
            rel = given.relative_to(Path.cwd())
        except ValueError:
            return given if given.is_symlink() else None
        current = Path.cwd()
    for part in rel.parts:
        current = current / part
        if current.is_symlink():
            return current
    return None


def _refuse_symlink(what: str, path: str | os.PathLike[str]) -> None:
    link = symlink_on_path(path)
    if link is not None:
        raise SymlinkError(what, path, link)


def remove_unlisted(root: str | os.PathLike[str], keep: Sequence[str]) -> list[str]:
    """Remove every file under ``root`` not in ``keep`` (relative POSIX paths), hidden ones included,
    then the folders left empty; return the removed files' relative paths (each logged).

    Raises:
        SymlinkError: a symbolic link is under ``root`` (nothing is removed then).
    """
    base = Path(root)
    files, folders, links = walk_release(base)
    if links:
        raise SymlinkError("release folder", base, links[0])
    wanted = set(keep)
    removed = []
    for path in files:
        rel = path.relative_to(base).as_posix()
        if rel not in wanted:
            log.warning("removing %s: not a file of this release", path)
            path.unlink()
            removed.append(rel)
    for folder in reversed(folders):  # deepest first
        if not any(folder.iterdir()):
            folder.rmdir()
    return removed


def read_checksum_table(path: str | os.PathLike[str]) -> list[tuple[str, int, str]]:
    """Rows ``(file, bytes, sha256)`` of a table written by :func:`checksum_table`."""
    frame = pd.read_csv(
        path,
        sep="\t",
        dtype={"file": "string", "bytes": "int64", "sha256": "string"},
        keep_default_na=False,
    )
    return [(str(f), int(b), str(s)) for f, b, s in frame.itertuples(index=False)]


def checksum_table(files: Sequence[str | os.PathLike[str]], root: str | os.PathLike[str]) -> pd.DataFrame:
    """``file, bytes, sha256`` of ``files`` (paths relative to ``root``, sorted) — for a licensed
    release folder whose files are too large to hash in every release build."""
    rows = []
    for path in files:
        rel = Path(os.path.relpath(Path(path).absolute(), Path(root).absolute())).as_posix()
        rows.append({"file": rel, "bytes": Path(path).stat().st_size, "sha256": sha256_file(path)})
    return (
        pd.DataFrame(rows, columns=["file", "bytes", "sha256"])
        .sort_values("file", kind="stable")
        .reset_index(drop=True)
    )


@dataclass(frozen=True)
class BuiltDataset:
    """What :func:`build_dataset` wrote: the shards, the composition counts, the croissant warnings and
    the articles listed with their notices (``None`` for a dataset without per-article notices)."""

    shards: tuple[ShardInfo, ...]
    composition: pd.DataFrame
    croissant_warnings: tuple[str, ...]
    articles: pd.DataFrame | None = None


def read_validity_rows(files: Sequence[str]) -> pd.DataFrame:
    """Every row of the given ``validity.tsv`` files (:func:`biosem.validity.read_validity`), in file
    order; an empty table without files."""
    from biosem.validity import COLUMNS, read_validity

    tables = [read_validity(path) for path in files]
    return pd.concat(tables, ignore_index=True) if tables else pd.DataFrame(columns=list(COLUMNS))


def build_dataset(
    dataset: ReleaseDataset,
    out_dir: str | os.PathLike[str],
    status: LicenceStatus,
    provenance: Provenance,
    checksums: FileChecksums,
    notices: pd.DataFrame | None = None,
) -> BuiltDataset:
    """Write the dataset folder: shards, ``README.md``, ``croissant.json`` (validated), ``SHA256SUMS``.

    Every other file in the folder (a stale shard, a hidden file or folder) is removed first: the
    folder holds exactly the files its ``SHA256SUMS`` lists.

    ``notices``: the ``notices`` intermediates of :attr:`ReleaseDataset.notices`, concatenated; every
    article the rows take a sentence from is then listed with its notice in the card and
    ``croissant.json`` (:func:`biosem.release.notices.released_articles`).

    Raises:
        RestrictedLicenceError: the dataset is restricted and ``provenance.visibility`` is public.
        SymlinkError: an input Parquet file, the folder or anything in it is (or goes through) a
            symbolic link: the release copies real bytes and publishes no link.
        AttributionError: a source's licence requires attribution and its config gives none.
        CroissantValidationError: mlcroissant rejects the generated metadata.
        NoticeError: a row's article has no notice, or one of a class the dataset does not permit.
        ValueError: two splits of a config differ in schema, or the dataset names notices tables and
            none is given.
    """
    if dataset.notices and notices is None:
        raise ValueError(f"{dataset.id}: its rows need their articles' notices ({', '.join(dataset.notices)})")
    if status.restricted and provenance.visibility == "public":
        raise RestrictedLicenceError([(dataset.id, "; ".join(status.reasons))])
    for source in dataset.input_files():
        _refuse_symlink(f"{dataset.id}: input", source)
    _refuse_symlink(f"{dataset.id}: release folder", out_dir)
    dataset.credits()  # fail before writing anything when a source cannot be credited
    root = Path(out_dir)
    expected = dataset_files(dataset)
    if root.exists():
        remove_unlisted(root, expected)
    written = []
    for config, split, source, rel in dataset.shards():
        info, table = write_shard(source, root / rel, config, split, rel)
        log.info(
            "%s %s/%s: %d rows -> %s (%d bytes)",
            dataset.id,
            config,
            split,
            info.rows,
            rel,
            info.file_bytes,
        )
        written.append((info, table))
    shards = tuple(info for info, _ in written)
    articles = None
    if dataset.notices:
        articles = released_articles(
            dataset.id,
            [t for _, t in written],
            notices,
            dataset.permitted_notices,  # type: ignore[arg-type]
        )
        log.info("%s: %d articles with notices", dataset.id, len(articles))
    counts = composition(written, dataset.group_columns, dataset.label_column)
    chosen = example_shard(dataset, shards)
    example = None
    if chosen is not None:
        table = next(t for info, t in written if info is chosen)
        example = (chosen.config, chosen.split, table.slice(0, 1).to_pylist()[0])
    validity = read_validity_rows(dataset.validity)
    write_text(
        render_card(dataset, shards, counts, status, provenance, checksums, example, validity, articles),
        root / "README.md",
    )
    doc = croissant_json(dataset, shards, status, provenance, articles)
    write_croissant(doc, root / "croissant.json")
    warnings = validate_croissant(root / "croissant.json")
    for warning in warnings:
        log.info("croissant warning: %s", warning)
    entries = [(rel, sha256_file(root / rel)) for rel in expected if rel != SUMS_NAME]
    write_text(format_sums(entries), root / SUMS_NAME)
    log.info(
        "%s: %d rows, %d files listed in %s",
        dataset.id,
        sum(s.rows for s in shards),
        len(entries),
        SUMS_NAME,
    )
    return BuiltDataset(shards, counts, tuple(warnings), articles)


def dataset_files(dataset: ReleaseDataset) -> list[str]:
    """The files of a built dataset folder, relative to it: shards, card, Croissant, checksums."""
    return [rel for *_, rel in dataset.shards()] + ["README.md", "croissant.json", SUMS_NAME]


def dataset_rows(dataset: ReleaseDataset, folder: str | os.PathLike[str]) -> dict[tuple[str, str], int]:
    """``{(config, split): rows}`` read from the Parquet footers of a built dataset folder."""
    return {
        (config, split): pq.read_metadata(Path(folder) / rel).num_rows for config, split, _, rel in dataset.shards()
    }


def _licence_name(status: LicenceStatus) -> str:
    meta = hub_licence(status)
    return meta.get("license_name", meta["license"])


def _licence_cell(status: LicenceStatus) -> str:
    if status.restricted:
        return "no licence stated" if len(status.unstated) == len(status.reasons) else "restricted"
    if status.asserted:
        return f"licence asserted ({_licence_name(status)}; {', '.join(status.asserted)} state none)"
    return f"open ({_licence_name(status)})"


def render_release(
    datasets: Sequence[tuple[ReleaseDataset, LicenceStatus, Mapping[tuple[str, str], int]]],
    withheld: Sequence[tuple[ReleaseDataset, LicenceStatus]],
    provenance: Provenance,
    versions: Mapping[str, str],
    config_sha256: str,
) -> str:
    """``RELEASE.md``: every dataset with its counts and licence, how the release was made, versions.

    Args:
        datasets: ``(dataset, licence status, {(config, split): rows})`` of the released datasets.
        withheld: restricted datasets left out of a public release.
        versions: :func:`biosem.release.provenance.dependency_versions`.
        config_sha256: SHA-256 of the ``config.yaml`` written beside ``RELEASE.md``.
    """
    rows = []
    for dataset, status, counts in datasets:
        splits: dict[str, int] = {}
        for (config, split), n in counts.items():
            splits[split] = splits.get(split, 0) + n
        empty = sum(1 for n in counts.values() if n == 0)
        rows.append(
            {
                "dataset": f"[`{dataset.id}`]({dataset.id}/README.md)",
                "configs": len(dataset.configs),
                "rows per split": ", ".join(f"{s} {n:,}" for s, n in splits.items()),
                "rows": f"{sum(counts.values()):,}",
                "empty files": empty,
                "licence": _licence_cell(status),
                "follows": dataset.paper.short,
            }
        )
    table = markdown_table(pd.DataFrame(rows)) if rows else "No dataset."
    detail = []
    for dataset, _, counts in datasets:
        frame = pd.DataFrame([{"config": c, "split": s, "rows": f"{n:,}"} for (c, s), n in counts.items()])
        detail += [f"### `{dataset.id}`", "", markdown_table(frame), ""]
    commit = provenance.git_commit + (
        "" if provenance.git_state in ("clean", "unknown") else " (working tree modified)"
    )
    lines = [
        f"# biosem release {provenance.release_version} ({provenance.visibility})",
        "",
        (
            "Open-source-derived datasets only: nothing here derives from UMLS or SNOMED CT, or from a source "
            "that states no licence unless the configuration asserts it (`release.assert_licences`)."
            if provenance.visibility == "public"
            else "**Private release**: it contains datasets derived from UMLS and/or SNOMED CT, or from sources "
            "that state no licence (marked restricted; their cards carry the licence notice). Share it only with "
            "licensees."
        ),
        "",
        "## Datasets",
        "",
        table,
        "",
    ]
    if withheld:
        lines += [
            "Withheld from this public release (restricted licence; build `release_private`):",
            "",
            *[f"* `{d.id}`: {'; '.join(s.reasons)}" for d, s in withheld],
            "",
        ]
    lines += [
        "## How it was made",
        "",
        f"* biosem {provenance.biosem_version}, git commit {commit}",
        f"* release version {provenance.release_version}"
        + (f", published {provenance.date}" if provenance.date else ""),
        "* command (any `--cores` value gives the same bytes):",
        "",
        "  ```",
        f"  {provenance.command}",
        "  ```",
        "",
        "* configuration: `config.yaml` in this folder (the merged config of "
        f"{', '.join(f'`{c}`' for c in provenance.config_files) or 'the defaults'}), sha256 `{config_sha256}`",
        (
            '* provenance report: `snakemake --report` of the same run (see the README, "Cutting a release");'
            " it is kept beside this folder, not inside it, because Snakemake stamps it with run times."
        ),
        "",
        "## Software",
        "",
        markdown_table(pd.DataFrame([{"package": k, "version": v} for k, v in versions.items()])),
        "",
        "## Counts per config and split",
        "",
        *detail,
        "## Checksums",
        "",
        (
            "`SHA256SUMS` lists every file below this folder (each dataset folder also has its own);"
            " check with `sha256sum -c SHA256SUMS`."
        ),
        "",
    ]
    return "\n".join(lines)


def write_release(
    root: str | os.PathLike[str],
    datasets: Sequence[tuple[ReleaseDataset, LicenceStatus]],
    withheld: Sequence[tuple[ReleaseDataset, LicenceStatus]],
    provenance: Provenance,
    versions: Mapping[str, str],
    config: Mapping[str, Any],
) -> list[tuple[str, str]]:
    """Write ``config.yaml``, ``RELEASE.md`` and the top-level ``SHA256SUMS`` of a release folder.

    The dataset folders must already be built below ``root``. Every other file below ``root`` (the
    folder of a dataset no longer released, a hidden file or folder) is removed, so the folder holds
    exactly what its ``SHA256SUMS`` lists. Returns the checksum entries.

    Raises:
        RestrictedLicenceError: a public release lists a restricted dataset.
        SymlinkError: ``root`` is, or holds, a symbolic link.
    """
    base = Path(root)
    if provenance.visibility == "public":
        refused = [(d.id, "; ".join(s.reasons)) for d, s in datasets if s.restricted]
        if refused:
            raise RestrictedLicenceError(refused)
    _refuse_symlink("release", base)
    keep = ["RELEASE.md", "config.yaml", SUMS_NAME]
    keep += [f"{d.id}/{rel}" for d, _ in datasets for rel in dataset_files(d)]
    remove_unlisted(base, keep)
    write_text(config_yaml(config), base / "config.yaml")
    built = [(d, s, dataset_rows(d, base / d.id)) for d, s in datasets]
    text = render_release(built, withheld, provenance, versions, sha256_file(base / "config.yaml"))
    write_text(text, base / "RELEASE.md")
    entries = [
        ("RELEASE.md", sha256_file(base / "RELEASE.md")),
        ("config.yaml", sha256_file(base / "config.yaml")),
    ]
    for dataset, _ in datasets:
        for rel in dataset_files(dataset):
            entries.append((f"{dataset.id}/{rel}", sha256_file(base / dataset.id / rel)))
    write_text(format_sums(entries), base / SUMS_NAME)
    return entries
