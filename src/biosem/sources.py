"""Locate, download and verify source files (docs/design.md § Sources).

A public source is given in config by a ``mirror_path`` (relative to each of ``mirror_dirs``), an
optional ``url`` and a pinned ``sha256``. The checksum is over the file's *content*: for a gzip file
(recognised by its magic bytes) the decompressed bytes, so a gzipped mirror copy and a plain
download of the same release verify alike. Mirrors are tried first, in order; then the URL.
Licensed sources (UMLS, SNOMED CT) are given by path and never downloaded.

Integrity after the fetch: the fetch writes a sidecar ``<file>.sha256`` holding the pinned content
digest it verified (``<sha256>  <filename>``); every rule that reads a fetched source takes the
sidecar as input and calls :func:`verify_fetched` first, which re-hashes the file and fails on a file
edited or corrupted in ``resources/`` since (deleting it refetches it).
"""

from __future__ import annotations

import gzip
import hashlib
import shutil
import urllib.request
import zlib
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import IO, Any

from biosem.errors import SourceFormatError, SourceIntegrityError, SourceNotFoundError
from biosem.io import atomic_path, write_text
from biosem.layout.paths import CHECKSUM_SUFFIX

_GZIP_MAGIC = b"\x1f\x8b"

FETCH_KEYS = ("filename", "mirror_path", "url", "sha256")
"""The keys of a ``sources`` entry that decide which file is fetched; ``version``, ``licence`` and
``attribution`` describe it for the release and do not."""


def fetch_spec(spec: Mapping[str, Any]) -> dict[str, Any]:
    """The :data:`FETCH_KEYS` of a ``sources`` entry (the ``fetch_source`` rule's params: editing a
    source's licence or attribution then refetches nothing)."""
    return {key: spec[key] for key in FETCH_KEYS if key in spec}


def is_gzip(path: str | Path) -> bool:
    """True if the file starts with the gzip magic bytes."""
    with open(path, "rb") as fh:
        return fh.read(2) == _GZIP_MAGIC


def open_binary(path: str | Path) -> IO[bytes]:
    """Open a file for reading bytes, decompressing it when it is gzip (by its magic bytes, not its name).

    Raises:
        OSError: the file cannot be opened (callers name the file in their own error).
    """
    return gzip.open(path, "rb") if is_gzip(path) else open(path, "rb")


def content_sha256(path: str | Path) -> str:
    """SHA-256 (hex) of the file's content: decompressed bytes for gzip files, raw bytes otherwise.

    Raises:
        SourceFormatError: a gzip file that is truncated or corrupt (names the file).
    """
    digest = hashlib.sha256()
    compressed = is_gzip(path)
    opener = gzip.open if compressed else open
    try:
        with opener(path, "rb") as fh:  # type: ignore[operator]
            for block in iter(lambda: fh.read(1 << 20), b""):
                digest.update(block)
    except (EOFError, zlib.error, gzip.BadGzipFile) as err:
        raise SourceFormatError(path, None, "a complete gzip stream", f"{type(err).__name__}: {err}") from err
    return digest.hexdigest()


def find_in_mirrors(
    name: str, spec: Mapping[str, Any], mirror_dirs: Iterable[str | Path]
) -> tuple[Path | None, list[str]]:
    """Return (first mirror copy whose checksum matches, list of what was looked at and why it failed)."""
    tried: list[str] = []
    rel = spec.get("mirror_path")
    if not rel:
        return None, tried
    for mirror in mirror_dirs:
        candidate = Path(mirror) / rel
        if not candidate.is_file():
            tried.append(f"{candidate} (absent)")
            continue
        try:
            got = content_sha256(candidate)
        except SourceFormatError as err:
            tried.append(f"{candidate} ({err})")
            continue
        if got != spec["sha256"]:
            tried.append(f"{candidate} (sha256 {got} != pinned {spec['sha256']})")
            continue
        return candidate, tried
    return None, tried


def fetch_source(name: str, spec: Mapping[str, Any], mirror_dirs: Iterable[str | Path], dest: str | Path) -> str:
    """Copy source ``name`` from a mirror, or download it, to ``dest``; verify its checksum.

    Returns a one-line description of where the file came from (for the log).

    Raises:
        SourceNotFoundError: no mirror copy matches and the URL is absent, unreachable or serves
            other content; the message names the source, every place looked at, and what to set.
    """
    mirror_dirs = list(mirror_dirs)
    found, tried = find_in_mirrors(name, spec, mirror_dirs)
    if found is not None:
        with atomic_path(dest) as tmp:
            shutil.copyfile(found, tmp)
        return f"{name}: copied from mirror {found} (sha256 {spec['sha256']} verified)"
    url = spec.get("url")
    if url:
        try:
            with atomic_path(dest) as tmp:
                with urllib.request.urlopen(url, timeout=60) as response, open(tmp, "wb") as out:
                    shutil.copyfileobj(response, out)
                got = content_sha256(tmp)
                if got != spec["sha256"]:
                    raise SourceNotFoundError(f"{url} served content with sha256 {got} != pinned {spec['sha256']}")
            return f"{name}: downloaded from {url} (sha256 {spec['sha256']} verified)"
        except (OSError, SourceNotFoundError, SourceFormatError) as exc:  # URLError is an OSError
            tried.append(f"{url} ({exc})")
    raise SourceNotFoundError(
        f"source {name!r} not found. Looked at: {'; '.join(tried) or 'nothing (no mirror_path, no url)'}. "
        f"Set `mirror_dirs` to a folder holding {spec.get('mirror_path')!r}, or make `sources.{name}.url` "
        f"reachable, or update `sources.{name}.sha256` if you deliberately use another release."
    )


_HEX = frozenset("0123456789abcdef")


def write_checksum(source: str | Path, sha256: str, sidecar: str | Path) -> None:
    """Write the sidecar of a fetched ``source``: ``<sha256>  <file name>`` (the verified, pinned
    *content* digest: of the decompressed bytes for a gzip file, so ``sha256sum -c`` applies to plain
    files only)."""
    write_text(f"{sha256}  {Path(source).name}\n", sidecar)


def read_checksum(sidecar: str | Path) -> str:
    """The digest a sidecar holds (first field of its first line).

    Raises:
        SourceFormatError: the first field is not 64 lower-case hex digits.
    """
    text = Path(sidecar).read_text(encoding="utf-8")
    first = text.split(maxsplit=1)[0] if text.strip() else ""
    if len(first) != 64 or not set(first) <= _HEX:
        raise SourceFormatError(sidecar, 1, "a sha256 (64 hex digits) then the file name", text.strip())
    return first


def verify_fetched(sidecars: Iterable[str | Path]) -> list[Path]:
    """Re-check fetched sources before use: for each sidecar ``<file>.sha256``, the content sha256 of
    ``<file>`` must equal the digest the sidecar holds (the pin verified at fetch; changing the pin in
    the config reruns the fetch, which rewrites the sidecar). Hashing costs seconds even for the MeSH
    RDS tables or MRCONSO.

    Returns the files checked.

    Raises:
        SourceIntegrityError: a file's content changed since the fetch; the message names the file,
            the expected and the found digest, and the fix (delete the file to refetch it).
        SourceFormatError: a sidecar without a digest, or a corrupt gzip file.
        ValueError: a path that does not end in :data:`CHECKSUM_SUFFIX`.
    """
    checked = []
    for sidecar in map(Path, sidecars):
        if not sidecar.name.endswith(CHECKSUM_SUFFIX):
            raise ValueError(f"{sidecar} is not a checksum sidecar (*{CHECKSUM_SUFFIX})")
        source = sidecar.with_name(sidecar.name[: -len(CHECKSUM_SUFFIX)])
        expected = read_checksum(sidecar)
        found = content_sha256(source)
        if found != expected:
            raise SourceIntegrityError(
                source,
                expected,
                found,
                f"The file changed after it was fetched and verified against the pinned sha256 (kept in "
                f"{sidecar}): delete it to refetch it (rm {source}). To use other content on purpose, put it in "
                "a mirror folder and update the source's pinned sha256 instead of editing resources/",
            )
        checked.append(source)
    return checked


def require_directory(name: str, path: str | Path, fmt: str) -> Path:
    """Check a licensed source folder exists; raise SourceNotFoundError naming the config key."""
    p = Path(path)
    if not p.is_dir():
        raise SourceNotFoundError(
            f"terminology {name!r} ({fmt}): folder {p} does not exist. Set `terminologies.{name}.path` "
            f"in your config to the folder of your {'UMLS META (RRF)' if fmt == 'rrf' else 'SNOMED CT RF2 release'}."
        )
    return p


def licensed_files(name: str, path: str | Path, fmt: str) -> list[str]:
    """The files of a licensed release folder that ingestion reads (sorted), for DAG inputs."""
    root = require_directory(name, path, fmt)
    if fmt == "rf2":
        pats = ["sct2_*.txt", "der2_*.txt"]
    elif fmt == "rrf":
        pats = ["MR*.RRF", "MR*.RRF.gz"]
    else:
        raise ValueError(f"unknown licensed format {fmt!r}")
    files = sorted({str(f) for pat in pats for f in root.rglob(pat) if "Delta" not in f.parts})
    if not files:
        raise SourceNotFoundError(
            f"terminology {name!r} ({fmt}): no {' or '.join(pats)} files under {root}. "
            f"Set `terminologies.{name}.path` in your config to the folder holding them."
        )
    return files
