"""Check a built release folder before publishing it: ``python -m biosem.release.check <folder>``.

Checks every ``SHA256SUMS`` (the release's and each dataset's), validates every ``croissant.json``
with mlcroissant (reading a few records of each record set, offline), parses every card's YAML
header and checks its licence metadata (a ``license``; ``license_name`` with ``other``) and its
"Licence and attribution" section, and, for a public release, that no card is marked restricted.
Prints one line per problem and exits 1 if there is any.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import yaml

from biosem.release.card import CREDITS_HEADING
from biosem.release.checksums import SUMS_NAME, verify_sha256sums
from biosem.release.croissant import CroissantValidationError, validate_croissant
from biosem.workflow import paths

RESTRICTED_MARK = "**Restricted licence — private release only.**"


def check_release(root: str | Path, records: int = 3) -> list[str]:
    """Problems found in release folder ``root`` (``results/release/<version>/<visibility>``)."""
    base = Path(root)
    problems = (
        [f"{SUMS_NAME}: {p}" for p in verify_sha256sums(base)]
        if (base / SUMS_NAME).is_file()
        else [f"no {SUMS_NAME} in {base}"]
    )
    public = base.name == "public"
    cards = sorted(base.glob("*/*/README.md"))
    if not cards:
        problems.append(f"no dataset folder (<family>/<name>/README.md) under {base}")
    for card in cards:
        folder = card.parent
        name = folder.relative_to(base).as_posix()
        problems += [f"{name}/{SUMS_NAME}: {p}" for p in verify_sha256sums(folder)]
        text = card.read_text(encoding="utf-8")
        try:
            meta = yaml.safe_load(text.split("---\n")[1]) if text.startswith("---\n") else None
        except yaml.YAMLError as exc:
            meta = None
            problems.append(f"{name}/README.md: YAML header does not parse ({exc})")
        if not isinstance(meta, dict) or "pretty_name" not in meta:
            problems.append(f"{name}/README.md: no YAML header")
        elif not meta.get("license"):
            problems.append(f"{name}/README.md: no `license` in the YAML header")
        elif meta["license"] == "other" and not meta.get("license_name"):
            problems.append(f"{name}/README.md: `license: other` without `license_name`")
        if f"\n{CREDITS_HEADING}\n" not in text:
            problems.append(f"{name}/README.md: no '{CREDITS_HEADING}' section (source credits)")
        if public and RESTRICTED_MARK in text:
            problems.append(f"{name}: restricted dataset in a public release")
        try:
            validate_croissant(folder / "croissant.json", check_records=records)
        except (CroissantValidationError, OSError) as exc:
            problems.append(f"{name}/croissant.json: {exc}")
    return problems


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m biosem.release.check", description=__doc__.splitlines()[0])
    parser.add_argument("folders", nargs="+", help=f"release folders, e.g. {paths.release('0.1.0', 'public')}")
    args = parser.parse_args(argv)
    failed = False
    for folder in args.folders:
        problems = check_release(folder)
        for problem in problems:
            print(f"{folder}: {problem}")
        failed |= bool(problems)
        if not problems:
            print(f"{folder}: OK")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
