"""SHA-256 checksum lists in the ``sha256sum`` format (``sha256sum -c SHA256SUMS`` verifies them).

One line per file, ``<64 hex digits><two spaces><path>``, paths relative to the list's folder with
``/`` separators, sorted by path (byte order of the UTF-8 path), LF line endings: the same files give
the same bytes on any machine.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Iterable
from pathlib import Path

from biosem.io import write_text

SUMS_NAME = "SHA256SUMS"
_BLOCK = 1 << 20


def sha256_file(path: str | os.PathLike[str]) -> str:
    """Hex SHA-256 of a file's raw bytes (no decompression, unlike ``biosem.sources.content_sha256``)."""
    digest = hashlib.sha256()
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(_BLOCK), b""):
            digest.update(block)
    return digest.hexdigest()


def list_files(root: str | os.PathLike[str], exclude: Iterable[str] = (SUMS_NAME,), hidden: bool = False) -> list[str]:
    """Every regular file under ``root`` as a sorted relative POSIX path, minus ``exclude``.

    Hidden files (a path part starting with ``.``, e.g. a temporary file of an atomic write) are
    left out unless ``hidden`` (as :mod:`biosem.release.check` asks: a hidden file is published too).
    """
    base = Path(root)
    skip = set(exclude)
    out = []
    for path in base.rglob("*"):
        rel = path.relative_to(base).as_posix()
        if not path.is_file() or rel in skip:
            continue
        if hidden or not any(p.startswith(".") for p in rel.split("/")):
            out.append(rel)
    return sorted(out, key=lambda p: p.encode("utf-8"))


def format_sums(entries: Iterable[tuple[str, str]]) -> str:
    """``sha256sum`` text for ``(relative path, hex digest)`` pairs, sorted by path.

    Raises:
        ValueError: a path contains a newline or a backslash (``sha256sum`` would escape it), or is
            absolute.
    """
    lines = []
    for rel, digest in sorted(entries, key=lambda e: e[0].encode("utf-8")):
        if "\n" in rel or "\\" in rel or rel.startswith("/"):
            raise ValueError(f"cannot list {rel!r} in {SUMS_NAME}: relative path without newline or backslash expected")
        lines.append(f"{digest}  {rel}\n")
    return "".join(lines)


def write_sha256sums(root: str | os.PathLike[str], name: str = SUMS_NAME) -> list[tuple[str, str]]:
    """Hash every file under ``root`` (except ``name`` itself) into ``root/name``; return the entries."""
    base = Path(root)
    entries = [(rel, sha256_file(base / rel)) for rel in list_files(base, exclude=(name,))]
    write_text(format_sums(entries), base / name)
    return entries


def parse_sha256sums(text: str) -> dict[str, str]:
    """``{relative path: hex digest}`` from ``sha256sum`` text.

    Raises:
        ValueError: a line is not ``<64 hex>  <path>``.
    """
    out = {}
    for number, line in enumerate(text.splitlines(), start=1):
        digest, sep, rel = line.partition("  ")
        if not sep or len(digest) != 64 or any(c not in "0123456789abcdef" for c in digest) or not rel:
            raise ValueError(f"{SUMS_NAME} line {number}: expected '<64 hex digits>  <path>'; found {line!r}")
        out[rel] = digest
    return out


def verify_sha256sums(root: str | os.PathLike[str], name: str = SUMS_NAME, hidden: bool = False) -> list[str]:
    """Check ``root/name`` against the files under ``root``; return one line per problem (empty: OK).

    Problems: a listed file missing or with another digest, a file present but not listed (hidden
    files too with ``hidden``).
    """
    base = Path(root)
    listed = parse_sha256sums((base / name).read_text(encoding="utf-8"))
    present = set(list_files(base, exclude=(name,), hidden=hidden))
    problems = [f"missing: {rel}" for rel in sorted(set(listed) - present)]
    problems += [f"not listed: {rel}" for rel in sorted(present - set(listed))]
    problems += [
        f"digest mismatch: {rel}" for rel in sorted(set(listed) & present) if sha256_file(base / rel) != listed[rel]
    ]
    return problems


def walk_release(root: Path) -> tuple[list[Path], list[Path], list[Path]]:
    """``(files, folders, symlinks)`` under ``root``, hidden ones included, links never followed."""
    files, folders, links = [], [], []
    for top, dirs, names in os.walk(root, followlinks=False):
        for name in dirs + names:
            path = Path(top) / name
            if path.is_symlink():
                links.append(path)
            elif name in dirs:
                folders.append(path)
            else:
                files.append(path)
    return sorted(files), sorted(folders), sorted(links)
