#!/usr/bin/env python3
"""Compare two ``results/`` trees file by file (sha256); exit 1 on any difference.

Usage::

    python tests/cluster/compare_results.py <expected results/> <actual results/> [--shards N --logs <logs/>]

Every regular file under either folder counts (paths relative to the folder). Prints one line per
missing, extra or differing file and a summary; the trees must be non-empty and byte-identical.
With ``--shards N --logs <logs/>`` (the actual run's logs), the corpus counts must also have run as N
shard jobs: every folder under ``logs/<shard rule>/`` holds exactly the logs ``1-of-N.log`` ...
``N-of-N.log``, for both shard rules (``SHARD_RULES``), so a sharded run compared with an unsharded
one shows that the merged counts do not depend on the number of shards.
"""

from __future__ import annotations

import argparse
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


SHARD_RULES = ("count_corpus_words_shard", "count_term_frequencies_shard")
"""Rules run once per corpus shard (scatter item ``<k>-of-<N>``)."""


def check_shards(logs: Path, shards: int) -> list[str]:
    """Problems (empty when none) with the shard jobs' logs: each of :data:`SHARD_RULES` has at
    least one folder of logs, and every such folder holds exactly ``1-of-N.log`` ... ``N-of-N.log``."""
    want = [f"{k}-of-{shards}.log" for k in range(1, shards + 1)]
    problems = []
    for rule in SHARD_RULES:
        folders = sorted(p for p in (logs / rule).glob("*") if p.is_dir())
        if not folders:
            problems.append(f"no shard logs under {logs / rule}")
        for folder in folders:
            got = sorted((p.name for p in folder.glob("*.log")), key=lambda name: int(name.split("-", 1)[0]))
            if got != want:
                problems.append(f"shards of {rule}/{folder.name}: expected {want}, found {got}")
    return problems


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("expected", type=Path)
    parser.add_argument("actual", type=Path)
    parser.add_argument("--shards", type=int, help="the actual run counted the corpus in this many shards")
    parser.add_argument("--logs", type=Path, help="the actual run's logs/ folder (with --shards)")
    args = parser.parse_args(argv)
    if (args.shards is None) != (args.logs is None):
        parser.error("--shards and --logs go together")
    expected, actual = args.expected, args.actual
    for folder in (expected, actual):
        if not folder.is_dir():
            print(f"not a folder: {folder}", file=sys.stderr)
            return 1
    problems, n = compare(expected, actual)
    if args.shards is not None:
        shard_problems = check_shards(args.logs, args.shards)
        problems += shard_problems
        if not shard_problems:
            print(f"corpus counts ran in {args.shards} shards ({', '.join(SHARD_RULES)})", file=sys.stderr)
    for line in problems:
        print(line, file=sys.stderr)
    if problems:
        print(f"{len(problems)} differences between {expected} and {actual}", file=sys.stderr)
        return 1
    print(f"{n} files under results/ identical (sha256)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
