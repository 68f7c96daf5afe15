#!/usr/bin/env python3
"""Compare two ``results/`` trees file by file (sha256); exit 1 on any difference.

Usage::

    python tests/cluster/compare_results.py <expected results/> <actual results/>

Every regular file under either folder counts (paths relative to the folder). Prints one line per
missing, extra or differing file and a summary; the trees must be non-empty and byte-identical.
"""

from __future__ import annotations

import hashlib
import sys
from pathlib import Path


def tree_digests(root: Path) -> dict[str, str]:
    """Relative POSIX path -> sha256 hex digest of every regular file under ``root``."""
    digests = {}
    for path in sorted(p for p in root.rglob("*") if p.is_file()):
        h = hashlib.sha256()
        with path.open("rb") as handle:
            for block in iter(lambda: handle.read(1 << 20), b""):
                h.update(block)
        digests[path.relative_to(root).as_posix()] = h.hexdigest()
    return digests


def compare(expected: Path, actual: Path) -> tuple[list[str], int]:
    """Differences between the trees as human-readable lines (empty when identical), and the
    number of files compared."""
    want, got = tree_digests(expected), tree_digests(actual)
    problems = [f"missing: {p}" for p in sorted(want.keys() - got.keys())]
    problems += [f"extra: {p}" for p in sorted(got.keys() - want.keys())]
    problems += [
        f"differs: {p} ({want[p][:12]} vs {got[p][:12]})" for p in sorted(want.keys() & got.keys()) if want[p] != got[p]
    ]
    if not want:
        problems.append(f"no files under {expected}")
    return problems, len(want)


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    expected, actual = map(Path, argv)
    for folder in (expected, actual):
        if not folder.is_dir():
            print(f"not a folder: {folder}", file=sys.stderr)
            return 1
    problems, n = compare(expected, actual)
    for line in problems:
        print(line, file=sys.stderr)
    if problems:
        print(f"{len(problems)} differences between {expected} and {actual}", file=sys.stderr)
        return 1
    print(f"{n} files under results/ identical (sha256)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
