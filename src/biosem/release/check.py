"""Check a built release folder before publishing it: ``python -m biosem.release.check <folder>``.

Walks every file below the folder, hidden ones included, and checks every ``SHA256SUMS`` (the
release's and each dataset's): a file that is not listed, missing or altered, or a symbolic link, is
a problem. Validates every ``croissant.json`` with mlcroissant (reading a few records of each record
set, offline), parses every card's YAML header and checks its licence metadata (a ``license``;
``license_name`` with ``other``) and its "Licence and attribution" section.

Whether a dataset is restricted is decided from its provenance, never from the card's text: the
sources ``croissant.json`` records (``prov:wasDerivedFrom``: licences, terminology format) are
classified again (:func:`biosem.release.licence.classify`, with the ``release`` section of the
release's ``config.yaml``), and the card's licence metadata must be the one they give. In a public
release a restricted dataset is a problem, and so is any identifier of a restricted terminology in a
concept column of a Parquet, TSV/CSV or JSON file (:mod:`biosem.release.content`).

Rows that take sentences from articles with their own open-access notice (CRAFT; the corpora of a
format with a ``notices`` table in the release's ``config.yaml``, and any corpus whose articles
``croissant.json`` records) are checked article by article (:func:`biosem.release.notices.check_notices`):
``croissant.json`` records the article's notice, the notice is of a class ``wic.permitted_notices``
permits, and the card lists the article's URL under "Article notices".
Prints one line per problem and exits 1 if there is any.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import yaml

from biosem.corpora import formats
from biosem.layout import paths
from biosem.release.card import CREDITS_HEADING
from biosem.release.checksums import SUMS_NAME, verify_sha256sums, walk_release
from biosem.release.content import scan_table
from biosem.release.croissant import CroissantValidationError, recorded_sources, validate_croissant
from biosem.release.licence import LicenceStatus, classify, hub_licence
from biosem.release.notices import check_notices

TABLE_SUFFIXES = {".parquet": None, ".tsv": "\t", ".csv": ",", ".json": None, ".jsonl": None}
"""Files whose concept columns the content check reads (public releases)."""


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


def _release_rules(base: Path) -> dict[str, Any]:
    """The ``release`` section of the release's ``config.yaml`` (empty when there is none)."""
    return dict(_release_config(base).get("release") or {})


def _notice_rules(config: dict[str, Any]) -> tuple[set[str], list[str] | None]:
    """The corpora whose articles carry notices (a format with a ``notices`` table) and the permitted
    notice classes (``wic.permitted_notices``; ``None`` when the config does not say), from a release's config."""
    specs = ((config.get("corpora") or {}).get("specs")) or {}
    corpora = {name for name, spec in specs.items() if formats.has_notices(spec)}
    permitted = (config.get("wic") or {}).get("permitted_notices")
    return corpora, (list(permitted) if permitted is not None else None)


def _licence_status(folder: Path, rules: dict[str, Any]) -> LicenceStatus:
    """The dataset's licence status from the sources its ``croissant.json`` records.

    Raises:
        ValueError: no readable source provenance.
    """
    try:
        doc = json.loads((folder / "croissant.json").read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as exc:
        raise ValueError(f"no source provenance: expected a readable croissant.json ({exc})") from exc
    return classify(
        recorded_sources(doc),
        restricted_formats=rules.get("restricted_formats") or (),
        restricted_licences=rules.get("restricted_licences") or (),
        asserted=rules.get("assert_licences") or (),
    )


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


def check_release(root: str | Path, records: int = 3) -> list[str]:
    """Problems found in release folder ``root`` (``results/release/<version>/<visibility>``)."""
    base = Path(root)
    files, _, links = walk_release(base)
    problems = [
        f"symbolic link: {p.relative_to(base).as_posix()} -> {os.readlink(p)} (expected real files only)" for p in links
    ]
    problems += (
        [f"{SUMS_NAME}: {p}" for p in verify_sha256sums(base, hidden=True)]
        if (base / SUMS_NAME).is_file()
        else [f"no {SUMS_NAME} in {base}"]
    )
    public = base.name == "public"
    config = _release_config(base)
    rules = dict(config.get("release") or {})
    notice_corpora, permitted = _notice_rules(config)
    cards = sorted(base.glob("*/*/README.md"))
    if not cards:
        problems.append(f"no dataset folder (<family>/<name>/README.md) under {base}")
    for card in cards:
        folder = card.parent
        name = folder.relative_to(base).as_posix()
        if (folder / SUMS_NAME).is_file():
            problems += [f"{name}/{SUMS_NAME}: {p}" for p in verify_sha256sums(folder, hidden=True)]
        else:
            problems.append(f"{name}: no {SUMS_NAME}")
        text = card.read_text(encoding="utf-8")
        try:
            meta = yaml.safe_load(text.split("---\n")[1]) if text.startswith("---\n") else None
        except yaml.YAMLError as exc:
            meta = None
            problems.append(f"{name}/README.md: YAML header does not parse ({exc})")
        if not isinstance(meta, dict) or "pretty_name" not in meta:
            problems.append(f"{name}/README.md: no YAML header")
            meta = {}
        elif not meta.get("license"):
            problems.append(f"{name}/README.md: no `license` in the YAML header")
        elif meta["license"] == "other" and not meta.get("license_name"):
            problems.append(f"{name}/README.md: `license: other` without `license_name`")
        if f"\n{CREDITS_HEADING}\n" not in text:
            problems.append(f"{name}/README.md: no '{CREDITS_HEADING}' section (source credits)")
        try:
            status = _licence_status(folder, rules)
        except ValueError as exc:
            problems.append(f"{name}/croissant.json: {exc}")
        else:
            if public and status.restricted:
                problems.append(
                    f"{name}: restricted dataset in a public release (from the sources croissant.json records: "
                    f"{'; '.join(status.reasons)})"
                )
            expected = hub_licence(status)
            found = {k: meta.get(k) for k in expected}
            if meta and found != expected:
                problems.append(
                    f"{name}/README.md: licence metadata {found} does not match its sources' provenance "
                    f"(expected {expected})"
                )
        try:
            validate_croissant(folder / "croissant.json", check_records=records)
        except (CroissantValidationError, OSError) as exc:
            problems.append(f"{name}/croissant.json: {exc}")
        problems += _article_notice_problems(folder, name, text, notice_corpora, permitted)
    if public:
        problems += scan_content(base, files)
    return problems


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The command line's arguments (also ``biosem check-release``'s, :mod:`biosem.cli`)."""
    parser.add_argument("folders", nargs="+", help=f"release folders, e.g. {paths.release('0.1.0', 'public')}")


def run(args: argparse.Namespace) -> int:
    """Print each folder's problems (or ``OK``); return 1 if any folder has a problem, else 0."""
    failed = False
    for folder in args.folders:
        problems = check_release(folder)
        for problem in problems:
            print(f"{folder}: {problem}")
        failed |= bool(problems)
        if not problems:
            print(f"{folder}: OK")
    return 1 if failed else 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m biosem.release.check", description=__doc__.splitlines()[0])
    add_arguments(parser)
    return run(parser.parse_args(argv))


if __name__ == "__main__":
    sys.exit(main())
