"""Locate, download and verify source files (docs/design.md § Sources).

A public source is given in config by a ``mirror_path`` (relative to each of ``mirror_dirs``), an
optional ``url`` and a pinned ``sha256``. The checksum is over the file's *content*: for a gzip file
(recognised by its magic bytes) the decompressed bytes, so a gzipped mirror copy and a plain
download of the same release verify alike. Mirrors are tried first, in order; then the URL.
Licensed sources (UMLS, SNOMED CT) are given by path and never downloaded.

A source can be one file inside an archive (the ontology files CRAFT ships as ``<NAME>.obo.zip``):
``member`` names it inside the file at ``url`` (and inside the mirror copy), ``mirror_member`` the
file inside the mirror copy when the mirror packs several sources into one archive (the mirror's
``craft/CRAFT-5.0.2.tar.gz`` holds ``.../UBERON/UBERON/UBERON.obo.zip``, which holds ``UBERON.obo``).
Archives are read in memory (:func:`read_member`: zip, or tar plain or compressed, told apart by their
content), and only the member is written to ``resources/``; the pinned ``sha256`` is then that of the
member's content, so a mirror copy and a download verify alike whatever archive carried them.

Integrity after the fetch: the fetch writes a sidecar ``<file>.sha256`` holding the pinned content
digest it verified (``<sha256>  <filename>``); every rule that reads a fetched source takes the
sidecar as input and calls :func:`verify_fetched` first, which re-hashes the file and fails on a file
edited or corrupted in ``resources/`` since (deleting it refetches it).
"""

from __future__ import annotations

import gzip
import hashlib
import io
import shutil
import tarfile
import urllib.request
import zipfile
import zlib
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import IO, Any

from biosem.errors import SourceFormatError, SourceIntegrityError, SourceNotFoundError
from biosem.io import atomic_path, write_text
from biosem.layout.paths import CHECKSUM_SUFFIX

_GZIP_MAGIC = b"\x1f\x8b"

FETCH_KEYS = ("filename", "mirror_path", "mirror_member", "url", "member", "sha256")
"""The keys of a ``sources`` entry that decide which file is fetched; ``version``, ``licence`` and
``attribution`` describe it for the release and do not."""


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


def bytes_sha256(data: bytes, where: str | Path) -> str:
    """SHA-256 (hex) of ``data``'s content: of the decompressed bytes when ``data`` is gzip (as
    :func:`content_sha256` for a file).

    Raises:
        SourceFormatError: gzip bytes that are truncated or corrupt (names ``where``).
    """
    if data.startswith(_GZIP_MAGIC):
        try:
            data = gzip.decompress(data)
        except (EOFError, zlib.error, gzip.BadGzipFile) as err:
            raise SourceFormatError(where, None, "a complete gzip stream", f"{type(err).__name__}: {err}") from err
    return hashlib.sha256(data).hexdigest()


def read_member(archive: str | Path | bytes, member: str, where: str | Path | None = None) -> bytes:
    """The bytes of ``member`` inside ``archive``: a zip, or a tar (plain, gzip, bzip2 or xz), told
    apart by content (zip: :func:`zipfile.is_zipfile`; tar: :func:`tarfile.open` mode ``r:*``).
    Nothing is unpacked to disk.

    Args:
        archive: the archive file, or its bytes (a member read from an enclosing archive).
        member: the member's full name in the archive (``CRAFT-5.0.2/concept-annotation/UBERON/UBERON/UBERON.obo.zip``,
            ``UBERON.obo``); a folder is not a member.
        where: how errors name the archive (default: ``archive`` when it is a path).

    Raises:
        SourceFormatError: ``archive`` is missing, neither a zip nor a tar archive, damaged, or
            has no regular file ``member`` (the message lists up to five members whose name ends
            like ``member``'s).
    """
    label = where if where is not None else (archive if not isinstance(archive, bytes) else "<archive bytes>")
    handle: IO[bytes]
    try:
        handle = io.BytesIO(archive) if isinstance(archive, bytes) else open(archive, "rb")
    except OSError as err:
        raise SourceFormatError(label, None, f"an archive holding {member}", f"{type(err).__name__}: {err}") from err
    with handle:
        try:
            if zipfile.is_zipfile(handle):
                handle.seek(0)
                with zipfile.ZipFile(handle) as zf:
                    names = zf.namelist()
                    if member not in names or member.endswith("/"):
                        raise SourceFormatError(label, None, f"zip member {member!r}", _near(member, names))
                    return zf.read(member)
            handle.seek(0)
            with tarfile.open(fileobj=handle, mode="r:*") as tf:
                try:
                    info = tf.getmember(member)
                except KeyError:
                    found = _near(member, tf.getnames())
                    raise SourceFormatError(label, None, f"tar member {member!r}", found) from None
                extracted = tf.extractfile(info) if info.isfile() else None
                if extracted is None:
                    found = f"a {info.type!r} entry"
                    raise SourceFormatError(label, None, f"tar member {member!r} (a regular file)", found)
                return extracted.read()
        except (tarfile.TarError, zipfile.BadZipFile, EOFError, zlib.error, OSError) as err:
            raise SourceFormatError(
                label, None, f"a zip or tar archive holding {member}", f"{type(err).__name__}: {err}"
            ) from err


def _near(member: str, names: list[str]) -> str:
    """Up to five archive members whose base name is ``member``'s (what a mistyped path meant), else
    the number of members."""
    base = member.rsplit("/", 1)[-1]
    near = sorted(n for n in names if n.rsplit("/", 1)[-1] == base)[:5]
    return f"no such member; same name at: {', '.join(near)}" if near else f"no such member among {len(names)}"


def extract_source(path: str | Path, spec: Mapping[str, Any], *, mirror: bool) -> bytes | None:
    """The bytes a source entry names inside the file ``path``: ``mirror_member`` (for a mirror copy,
    ``mirror``) then ``member``, each read from the bytes before it; ``None`` when the entry names
    no member (the file itself is the source).

    Raises:
        SourceFormatError: see :func:`read_member` (the message names ``path`` and the member path).
    """
    members = [spec.get("mirror_member") if mirror else None, spec.get("member")]
    members = [m for m in members if m]
    if not members:
        return None
    data: str | Path | bytes = Path(path)
    where = str(path)
    for member in members:
        data = read_member(data, member, where)
        where = f"{where}!{member}"
    assert isinstance(data, bytes)
    return data


def find_in_mirrors(
    name: str, spec: Mapping[str, Any], mirror_dirs: Iterable[str | Path]
) -> tuple[Path | None, list[str]]:
    """Return (first mirror copy whose checksum matches, list of what was looked at and why it failed).

    With ``member`` / ``mirror_member`` the checksum is that of the member read from the copy
    (:func:`extract_source`)."""
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
            member = extract_source(candidate, spec, mirror=True)
            got = content_sha256(candidate) if member is None else bytes_sha256(member, candidate)
        except SourceFormatError as err:
            tried.append(f"{candidate} ({err})")
            continue
        if got != spec["sha256"]:
            tried.append(f"{candidate} (sha256 {got} != pinned {spec['sha256']})")
            continue
        return candidate, tried
    return None, tried


def fetch_source(name: str, spec: Mapping[str, Any], mirror_dirs: Iterable[str | Path], dest: str | Path) -> str:
    """Copy source ``name`` from a mirror, or download it, to ``dest``; verify its checksum. A source
    with ``member`` (or, from a mirror, ``mirror_member``) writes only that member to ``dest``
    (:func:`extract_source`).

    Returns a one-line description of where the file came from (for the log).

    Raises:
        SourceNotFoundError: no mirror copy matches and the URL is absent, unreachable or serves
            other content; the message names the source, every place looked at, and what to set.
    """
    mirror_dirs = list(mirror_dirs)
    found, tried = find_in_mirrors(name, spec, mirror_dirs)
    if found is not None:
        with atomic_path(dest) as tmp:
            member = extract_source(found, spec, mirror=True)
            if member is None:
                shutil.copyfile(found, tmp)
            else:
                tmp.write_bytes(member)
        inside = "!".join(m for m in (spec.get("mirror_member"), spec.get("member")) if m)
        origin = f"{found}!{inside}" if inside else str(found)
        return f"{name}: copied from mirror {origin} (sha256 {spec['sha256']} verified)"
    url = spec.get("url")
    if url:
        try:
            with atomic_path(dest) as tmp:
                with urllib.request.urlopen(url, timeout=60) as response, open(tmp, "wb") as out:
                    shutil.copyfileobj(response, out)
                member = extract_source(tmp, spec, mirror=False)
                if member is not None:
                    tmp.write_bytes(member)
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
