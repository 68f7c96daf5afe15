"""Check a built release before publishing it: ``python -m biosem.release.check <folder>...``.

A folder is a release root (``results/release/<version>/``, checked release by release), a release
folder (``results/release/<version>/<visibility>/`` under any name: ``RELEASE.md`` and dataset folders
``<family>/<name>/``), or a single dataset folder (``croissant.json``, ``README.md``, ``data/``: what is
uploaded to the Hub). Which it is, and whether it is public, is read from what the release recorded,
never from a folder's name (:func:`release_visibility`): a release folder is private only when its
``RELEASE.md`` says so, a lone dataset folder only when its ``croissant.json`` records that the private
release built it; anything else is checked as public.

Walks every file below the folder, hidden ones included, and checks every ``SHA256SUMS`` (the
release's and each dataset's): a file that is not listed, missing or altered, a symbolic link or an
empty folder is a problem. Validates every ``croissant.json`` with mlcroissant (reading a few records
of each record set, offline), parses every card's YAML header and checks its licence metadata (a
``license``; ``license_name`` with ``other``) and its "Licence and attribution" section.

Whether a dataset is restricted is decided from its provenance, never from the card's text: the
sources ``croissant.json`` records (``prov:wasDerivedFrom``: licences, terminology format) are
classified again (:func:`biosem.release.licence.classify`, with the ``release`` section of the
release's ``config.yaml``), and the card's licence metadata must be the one they give. In a public
release a restricted dataset is a problem, so is a dataset the private release built, and so is any
identifier of a restricted terminology in a concept column of a Parquet, TSV/CSV or JSON file
(:mod:`biosem.release.content`).

Rows that take sentences from articles with their own open-access notice (CRAFT; the corpora of a
format with a ``notices`` table in the release's ``config.yaml``, and any corpus whose articles
``croissant.json`` records) are checked article by article (:func:`biosem.release.notices.check_notices`):
``croissant.json`` records the article's notice, the notice is of a class ``wic.permitted_notices``
permits, and the card lists the article's URL under "Article notices".
Prints one line per problem and exits 1 if there is any.

The workflow runs the same checks as the last step of ``release_public`` / ``release_private``
(``workflow/scripts/check_release.py``), and removes the release folder when they fail.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import yaml

from biosem.arguments import add_check_release_arguments
from biosem.corpora import formats
from biosem.release.card import CREDITS_HEADING
from biosem.release.checksums import SUMS_NAME, verify_sha256sums, walk_release
from biosem.release.content import scan_table
from biosem.release.croissant import CroissantValidationError, recorded_sources, validate_croissant
from biosem.release.licence import LicenceStatus, UnknownLicenceError, classify, hub_licence
from biosem.release.notices import check_notices

TABLE_SUFFIXES = {".parquet": None, ".tsv": "\t", ".csv": ",", ".json": None, ".jsonl": None}
"""Files whose concept columns the content check reads (public releases)."""
MANIFEST = "RELEASE.md"
DATASET_FILES = ("croissant.json", "README.md")
"""Either marks a dataset folder."""
VISIBILITIES = ("public", "private")
_MANIFEST_TITLE = re.compile(r"^# biosem release \S+ \((public|private)\)$")
"""The first line of ``RELEASE.md`` (:func:`biosem.release.build.render_release`)."""
_GENERATED_BY = re.compile(r" \((public|private)\)$")
"""The end of ``prov:wasGeneratedBy.name`` in ``croissant.json``
(:func:`biosem.release.croissant.provenance_jsonld`)."""


def _read_table(path: Path) -> pa.Table | None:
    """A table file as Arrow (``None``: a JSON file that is not a list of records)."""
    if path.suffix == ".parquet":
        return pq.read_table(path)
    if path.suffix in (".tsv", ".csv"):
        return pa.Table.from_pandas(
            pd.read_csv(path, sep=TABLE_SUFFIXES[path.suffix], dtype=str, keep_default_na=False),
            preserve_index=False,
        )
    text = path.read_text(encoding="utf-8")
    records = (
        [json.loads(line) for line in text.splitlines() if line.strip()]
        if path.suffix == ".jsonl"
        else json.loads(text)
    )
    if not isinstance(records, list) or not all(isinstance(r, dict) for r in records):
        return None
    columns = sorted({k for r in records for k in r})
    return pa.table({c: pa.array([_text(r.get(c)) for r in records]) for c in columns})


def _text(value: object) -> object:
    if isinstance(value, list):
        return [str(v) for v in value]
    return None if value is None else str(value)


def scan_content(base: Path, files: Sequence[Path]) -> list[str]:
    """Problems: restricted identifiers (:func:`biosem.release.content.scan_table`) in table files."""
    problems = []
    for path in files:
        if path.suffix not in TABLE_SUFFIXES:
            continue
        rel = path.relative_to(base).as_posix()
        try:
            table = _read_table(path)
        except (OSError, ValueError, pa.ArrowException) as exc:
            problems.append(f"{rel}: cannot read it to check its concept ids ({exc})")
            continue
        for f in scan_table(table) if table is not None else []:
            problems.append(
                f"{rel}: column {f.column}: {f.count} value(s) look like {f.kind}s (e.g. {f.example}); "
                "expected none in a public release"
            )
    return problems


def _release_config(base: Path) -> dict[str, Any]:
    """The release's ``config.yaml`` (empty when there is none)."""
    path = base / "config.yaml"
    if not path.is_file():
        return {}
    config = yaml.safe_load(path.read_text(encoding="utf-8"))
    return config if isinstance(config, dict) else {}


def _notice_rules(config: dict[str, Any]) -> tuple[set[str], list[str] | None]:
    """The corpora whose articles carry notices (a format with a ``notices`` table) and the permitted
    notice classes (``wic.permitted_notices``; ``None`` when the config does not say), from a release's config."""
    specs = ((config.get("corpora") or {}).get("specs")) or {}
    corpora = {name for name, spec in specs.items() if formats.has_notices(spec)}
    permitted = (config.get("wic") or {}).get("permitted_notices")
    return corpora, (list(permitted) if permitted is not None else None)


def _croissant(folder: Path) -> dict[str, Any]:
    """A dataset folder's ``croissant.json`` as a dict.

    Raises:
        ValueError: it is missing or not a JSON object.
    """
    try:
        doc = json.loads((folder / "croissant.json").read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as exc:
        raise ValueError(f"no source provenance: expected a readable croissant.json ({exc})") from exc
    if not isinstance(doc, dict):
        raise ValueError(f"no source provenance: expected a JSON object, found {type(doc).__name__}")
    return doc


def _licence_status(folder: Path, rules: dict[str, Any]) -> LicenceStatus:
    """The dataset's licence status from the sources its ``croissant.json`` records.

    Raises:
        ValueError: no readable source provenance.
    """
    try:
        return classify(
            recorded_sources(_croissant(folder)),
            restricted_formats=rules.get("restricted_formats") or (),
            restricted_licences=rules.get("restricted_licences") or (),
            asserted=rules.get("assert_licences") or (),
        )
    except UnknownLicenceError as exc:
        raise ValueError(f"the release's config.yaml: {exc}") from exc


def manifest_visibility(base: Path) -> str | None:
    """``public`` or ``private`` as the release's ``RELEASE.md`` records it (its title), else ``None``."""
    try:
        first = (base / MANIFEST).read_text(encoding="utf-8").split("\n", 1)[0]
    except (OSError, UnicodeDecodeError):
        return None
    match = _MANIFEST_TITLE.match(first)
    return match.group(1) if match else None


def recorded_visibility(folder: Path) -> str | None:
    """``public`` or ``private``: the release that built a dataset, as its ``croissant.json`` records it
    (``prov:wasGeneratedBy``), else ``None``."""
    try:
        generated = _croissant(folder).get("prov:wasGeneratedBy")
    except ValueError:
        return None
    name = generated.get("name") if isinstance(generated, dict) else None
    match = _GENERATED_BY.search(name) if isinstance(name, str) else None
    return match.group(1) if match else None


@dataclass
class Release:
    """One release to check: its folder, the dataset folders in it, and how problems name its paths.

    Attributes:
        base: the release folder, or the dataset folder of a lone dataset.
        prefix: put before every path a problem names (``public/`` when a release root was given).
        datasets: the dataset folders, relative to ``base`` (``[""]``: ``base`` is the dataset folder).
        lone: ``base`` is a single dataset folder (no manifest, no release ``SHA256SUMS``).
    """

    base: Path
    prefix: str = ""
    datasets: list[str] = field(default_factory=list)
    lone: bool = False


def _dataset_folders(base: Path) -> list[str]:
    """``<family>/<name>`` of the dataset folders of a release folder (a ``croissant.json`` or card in them)."""
    found = {p.parent.relative_to(base).as_posix() for name in DATASET_FILES for p in base.glob(f"*/*/{name}")}
    return sorted(found)


def find_releases(root: Path, nested: bool = True) -> tuple[list[Release], list[str]]:
    """What ``root`` holds, by its content: a lone dataset folder, a release folder, or (``nested``) a
    release root whose sub-folders are each one of these; and the problems of what is none of them."""
    if any((root / name).is_file() for name in DATASET_FILES):
        return [Release(root, datasets=[""], lone=True)], []
    if (root / MANIFEST).is_file() or (root / SUMS_NAME).is_file() or _dataset_folders(root):
        return [Release(root, datasets=_dataset_folders(root))], []
    nothing = (
        f"no dataset folder (croissant.json, README.md), release folder ({MANIFEST}, {SUMS_NAME}, "
        f"<family>/<name>/) or release root (release folders in it) under {root}"
    )
    if not nested or not root.is_dir():
        return [], [nothing]
    entries = sorted(root.iterdir())
    children = [p for p in entries if p.is_dir() and not p.is_symlink()]
    releases, problems = [], []
    for child in children:
        found, _ = find_releases(child, nested=False)
        for release in found:
            release.prefix = f"{child.name}/"
        releases += found
        if not found:
            problems.append(
                f"{child.name}: neither a release folder nor a dataset folder (expected none in a release root)"
            )
    if not releases:
        return [], [nothing]
    problems += [
        f"{p.name}: {'symbolic link' if p.is_symlink() else 'file'} outside the releases (expected none in a "
        "release root)"
        for p in entries
        if p not in children
    ]
    return releases, problems


def _article_notice_problems(
    folder: Path, name: str, card: str, notice_corpora: set[str], permitted: list[str] | None
) -> list[str]:
    """:func:`biosem.release.notices.check_notices` on a dataset folder's Parquet files."""
    try:
        doc = json.loads((folder / "croissant.json").read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError):
        return []  # reported by the provenance check
    tables = []
    for path in sorted(folder.rglob("*.parquet")):
        try:
            tables.append(pq.read_table(path))
        except (OSError, pa.ArrowException) as exc:
            return [f"{name}: cannot read {path.relative_to(folder).as_posix()} to check its articles' notices ({exc})"]
    return check_notices(name, tables, doc, card, notice_corpora, permitted)


def release_visibility(release: Release) -> tuple[str, str]:
    """``(visibility, why)`` of a release, from what it recorded (never from a folder name): a release
    folder is ``private`` only when its ``RELEASE.md`` says so, a lone dataset folder only when its
    ``croissant.json`` records that the private release built it; else ``public``, the stricter checks."""
    if release.lone:
        recorded = recorded_visibility(release.base)
        if recorded == "private":
            return "private", "its croissant.json records the private release"
        return "public", "its croissant.json records the public release" if recorded else "nothing records private"
    recorded = manifest_visibility(release.base)
    if recorded == "private":
        return "private", f"its {MANIFEST} says so"
    return "public", f"its {MANIFEST} says so" if recorded else f"no {MANIFEST} records private"


def _check_release(release: Release, records: int, expect: str | None = None) -> tuple[list[str], str]:
    """The problems of one release (paths relative to it) and its verdict line; ``expect``: the visibility
    the release must have (the workflow's gate)."""
    base = release.base
    files, folders, links = walk_release(base)
    problems = [
        f"symbolic link: {p.relative_to(base).as_posix()} -> {os.readlink(p)} (expected real files only)" for p in links
    ]
    holding = {parent for path in [*files, *links] for parent in path.parents}
    empty = [p for p in folders if p not in holding]
    problems += [
        f"empty folder: {p.relative_to(base).as_posix()} (expected none: a release holds the files its "
        f"{SUMS_NAME} lists)"
        for p in empty
        if p.parent not in empty
    ]
    if not release.lone:
        problems += _verify_sums(base, "")
    visibility, why = release_visibility(release)
    public = visibility == "public"
    if expect is not None and visibility != expect:
        problems.append(f"{MANIFEST}: the release is {visibility} ({why}); expected a {expect} release")
    config = _release_config(base) if not release.lone else {}
    rules = dict(config.get("release") or {})
    notice_corpora, permitted = _notice_rules(config)
    if not release.datasets:
        problems.append(f"no dataset folder (<family>/<name>/croissant.json) under {base}")
    restricted = []
    for name in release.datasets:
        folder = base / name if name else base
        label = name or "this dataset"
        where = f"{name}/" if name else ""
        problems += _verify_sums(folder, where)
        card = folder / "README.md"
        text = card.read_text(encoding="utf-8") if card.is_file() else ""
        meta: Any = None
        if not text:
            problems.append(f"{where}README.md: no card")
        else:
            try:
                meta = yaml.safe_load(text.split("---\n")[1]) if text.startswith("---\n") else None
            except yaml.YAMLError as exc:
                problems.append(f"{where}README.md: YAML header does not parse ({exc})")
        if text and (not isinstance(meta, dict) or "pretty_name" not in meta):
            problems.append(f"{where}README.md: no YAML header")
        if not isinstance(meta, dict):
            meta = {}
        elif not meta.get("license"):
            problems.append(f"{where}README.md: no `license` in the YAML header")
        elif meta["license"] == "other" and not meta.get("license_name"):
            problems.append(f"{where}README.md: `license: other` without `license_name`")
        if text and f"\n{CREDITS_HEADING}\n" not in text:
            problems.append(f"{where}README.md: no '{CREDITS_HEADING}' section (source credits)")
        try:
            status = _licence_status(folder, rules)
        except ValueError as exc:
            problems.append(f"{where}croissant.json: {exc}")
        else:
            if status.restricted:
                restricted.append(label)
            if public and status.restricted:
                problems.append(
                    f"{label}: restricted dataset in a public release (from the sources croissant.json records: "
                    f"{'; '.join(status.reasons)})"
                )
            expected = hub_licence(status)
            found = {k: meta.get(k) for k in expected}
            if meta and found != expected:
                problems.append(
                    f"{where}README.md: licence metadata {found} does not match its sources' provenance "
                    f"(expected {expected})"
                )
        if public and not release.lone and recorded_visibility(folder) == "private":
            problems.append(
                f"{label}: built by the private release (croissant.json, prov:wasGeneratedBy) but found in a "
                f"public release ({why}); rebuild it with release_public"
            )
        try:
            validate_croissant(folder / "croissant.json", check_records=records)
        except (CroissantValidationError, OSError) as exc:
            problems.append(f"{where}croissant.json: {exc}")
        problems += _article_notice_problems(folder, label, text, notice_corpora, permitted)
    if public:
        problems += scan_content(base, files)
    count = f"{len(release.datasets)} dataset(s)" if not release.lone else "one dataset"
    verdict = f"{visibility} release ({why}): {count}"
    if restricted and not public:
        verdict += f", restricted: {', '.join(restricted)}: share it only with licensees"
    return [f"{release.prefix}{p}" for p in problems], verdict


def _verify_sums(folder: Path, where: str) -> list[str]:
    """The problems of ``folder/SHA256SUMS`` (paths prefixed with ``where``)."""
    if not (folder / SUMS_NAME).is_file():
        return [f"{where}{SUMS_NAME}: missing" if where else f"no {SUMS_NAME} in {folder}"]
    try:
        return [f"{where}{SUMS_NAME}: {p}" for p in verify_sha256sums(folder, hidden=True)]
    except (ValueError, UnicodeDecodeError) as exc:
        return [f"{where}{SUMS_NAME}: {exc}"]


def check(root: str | Path, records: int = 3, expect: str | None = None) -> tuple[list[str], list[str]]:
    """``(problems, verdicts)`` of ``root``: every problem (paths relative to ``root``), and one line per
    release found saying whether it was checked as public or private and why. ``expect`` (``public`` or
    ``private``): each release must be one (the workflow's gate knows which it built)."""
    base = Path(root)
    releases, problems = find_releases(base)
    verdicts = []
    for release in releases:
        found, verdict = _check_release(release, records, expect)
        problems += found
        verdicts.append(f"{release.prefix}{verdict}" if release.prefix else verdict)
    return problems, verdicts


class ReleaseCheckError(ValueError):
    """The release a workflow run built fails :func:`check`; the message lists every problem (each naming
    the dataset and file) and says the folder was removed.

    Attributes:
        folder: the release folder; problems: the problems found.
    """

    def __init__(self, folder: str | Path, problems: Sequence[str], removed: bool = True) -> None:
        self.folder, self.problems = Path(folder), list(problems)
        shown = "\n".join(f"  - {p}" for p in self.problems[:50])
        more = f"\n  ... and {len(self.problems) - 50} more" if len(self.problems) > 50 else ""
        gone = " The release folder was removed: nothing of it can be published by mistake." if removed else ""
        super().__init__(
            f"{self.folder}: the release check (biosem check-release) found {len(self.problems)} problem(s):\n"
            f"{shown}{more}\n{gone.strip()} Fix the cause (the paths above are relative to the release folder; "
            "an input of a dataset is listed in its card), then run the release target again."
        )


def check_release(root: str | Path, records: int = 3) -> list[str]:
    """Problems found in ``root``: a release root, a release folder or a dataset folder (module docstring)."""
    return check(root, records)[0]


def run(args: argparse.Namespace) -> int:
    """Print the problems of each of ``args.folders`` (:func:`biosem.arguments.add_check_release_arguments`), or
    ``OK`` and its verdicts; return 1 if any folder has a problem, else 0."""
    failed = False
    for folder in args.folders:
        problems, verdicts = check(folder)
        for problem in problems:
            print(f"{folder}: {problem}")
        failed |= bool(problems)
        if not problems:
            print(f"{folder}: OK ({'; '.join(verdicts)})")
    return 1 if failed else 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m biosem.release.check", description=__doc__.splitlines()[0])
    add_check_release_arguments(parser)
    return run(parser.parse_args(argv))


if __name__ == "__main__":
    sys.exit(main())
