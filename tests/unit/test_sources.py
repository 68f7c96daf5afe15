"""Tests of source location and verification (biosem.sources), on files made in ``tmp_path``."""

from __future__ import annotations

import gzip
import hashlib
from pathlib import Path

import pytest

from biosem.errors import SourceFormatError, SourceIntegrityError, SourceNotFoundError
from biosem.sources import (
    content_sha256,
    fetch_source,
    find_in_mirrors,
    is_gzip,
    licensed_files,
    read_checksum,
    require_directory,
    verify_fetched,
    write_checksum,
)

CONTENT = b"format-version: 1.2\n[Term]\nid: HP:0000001\nname: All\n" * 1000
SHA = hashlib.sha256(CONTENT).hexdigest()
OTHER = b"format-version: 1.2\n[Term]\nid: HP:0000001\nname: Something else\n"


def _write(path: Path, data: bytes) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    return path


def _leftovers(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir()) if folder.exists() else []


def test_content_sha256_same_for_gzip_and_plain(tmp_path: Path) -> None:
    plain = _write(tmp_path / "hp.obo", CONTENT)
    packed = _write(tmp_path / "hp.obo.gz", gzip.compress(CONTENT, mtime=0))
    assert packed.read_bytes() != plain.read_bytes()
    assert is_gzip(packed) and not is_gzip(plain)
    assert content_sha256(plain) == content_sha256(packed) == SHA
    # A gzip of other bytes differs; a file named .gz that is not gzip is hashed as is.
    assert content_sha256(_write(tmp_path / "other.gz", gzip.compress(OTHER))) == hashlib.sha256(OTHER).hexdigest()
    fake = _write(tmp_path / "fake.gz", b"x")
    assert not is_gzip(fake)
    assert content_sha256(fake) == hashlib.sha256(b"x").hexdigest()
    assert content_sha256(_write(tmp_path / "empty", b"")) == hashlib.sha256(b"").hexdigest()


def test_fetch_from_first_matching_mirror(tmp_path: Path) -> None:
    m1, m2, m3 = tmp_path / "m1", tmp_path / "m2", tmp_path / "m3"
    m1.mkdir()  # no copy here
    _write(m2 / "obo" / "hp.obo.gz", gzip.compress(CONTENT, mtime=0))
    _write(m3 / "obo" / "hp.obo.gz", CONTENT)  # also matches, but m2 comes first
    spec = {
        "mirror_path": "obo/hp.obo.gz",
        "sha256": SHA,
        "url": "http://unreachable.invalid/hp.obo",
    }
    dest = tmp_path / "resources" / "hpo" / "hp.obo.gz"
    msg = fetch_source("hpo", spec, [m1, m2, m3], dest)
    assert msg == f"hpo: copied from mirror {m2 / 'obo' / 'hp.obo.gz'} (sha256 {SHA} verified)"
    assert dest.read_bytes() == (m2 / "obo" / "hp.obo.gz").read_bytes()
    assert content_sha256(dest) == SHA
    assert _leftovers(dest.parent) == ["hp.obo.gz"]  # no temporary file left beside it


def test_mirror_with_wrong_checksum_is_skipped(tmp_path: Path) -> None:
    bad = _write(tmp_path / "bad" / "hp.obo", OTHER)
    good = _write(tmp_path / "good" / "hp.obo", CONTENT)
    spec = {"mirror_path": "hp.obo", "sha256": SHA}
    found, tried = find_in_mirrors("hpo", spec, [tmp_path / "bad", tmp_path / "absent", tmp_path / "good"])
    assert found == good
    other_sha = hashlib.sha256(OTHER).hexdigest()
    assert tried == [
        f"{bad} (sha256 {other_sha} != pinned {SHA})",
        f"{tmp_path / 'absent' / 'hp.obo'} (absent)",
    ]
    dest = tmp_path / "out" / "hp.obo"
    fetch_source("hpo", spec, [tmp_path / "bad", tmp_path / "good"], dest)
    assert dest.read_bytes() == CONTENT


def test_truncated_gzip_is_named_and_the_next_mirror_is_tried(tmp_path: Path) -> None:
    packed = gzip.compress(CONTENT, mtime=0)
    cut = _write(tmp_path / "m1" / "hp.obo.gz", packed[: len(packed) // 2])
    good = _write(tmp_path / "m2" / "hp.obo.gz", packed)
    with pytest.raises(SourceFormatError) as err:
        content_sha256(cut)
    assert err.value.path == cut and err.value.expected == "a complete gzip stream"

    spec = {"mirror_path": "hp.obo.gz", "sha256": SHA}
    found, tried = find_in_mirrors("hpo", spec, [tmp_path / "m1", tmp_path / "m2"])
    assert found == good
    assert len(tried) == 1 and tried[0].startswith(f"{cut} ({cut}: expected a complete gzip stream")

    with pytest.raises(SourceNotFoundError, match="expected a complete gzip stream"):
        fetch_source("hpo", spec, [tmp_path / "m1"], tmp_path / "out" / "hp.obo.gz")
    assert _leftovers(tmp_path / "out") == []


def test_only_wrong_mirror_raises_naming_it(tmp_path: Path) -> None:
    bad = _write(tmp_path / "mirror" / "obo" / "hp.obo", OTHER)
    spec = {"mirror_path": "obo/hp.obo", "sha256": SHA}
    dest = tmp_path / "resources" / "hpo" / "hp.obo"
    with pytest.raises(SourceNotFoundError) as err:
        fetch_source("hpo", spec, [tmp_path / "mirror"], dest)
    msg = str(err.value)
    assert str(bad) in msg
    assert hashlib.sha256(OTHER).hexdigest() in msg and SHA in msg
    assert "sources.hpo.sha256" in msg
    assert not dest.exists()
    assert _leftovers(dest.parent) == []


def test_missing_source_message(tmp_path: Path) -> None:
    spec = {"mirror_path": "umnsrs/UMNSRS_similarity.csv", "sha256": SHA}
    mirrors = [tmp_path / "shared" / "data", tmp_path / "elsewhere"]
    dest = tmp_path / "resources" / "umnsrs" / "UMNSRS_similarity.csv"
    with pytest.raises(SourceNotFoundError) as err:
        fetch_source("umnsrs", spec, mirrors, dest)
    msg = str(err.value)
    assert "source 'umnsrs' not found" in msg
    for m in mirrors:
        assert f"{m / 'umnsrs' / 'UMNSRS_similarity.csv'} (absent)" in msg
    assert "`mirror_dirs`" in msg and "'umnsrs/UMNSRS_similarity.csv'" in msg
    assert "`sources.umnsrs.url`" in msg and "`sources.umnsrs.sha256`" in msg
    assert isinstance(err.value, FileNotFoundError)
    assert not dest.exists()


def test_missing_source_without_mirror_path_or_url(tmp_path: Path) -> None:
    with pytest.raises(SourceNotFoundError, match=r"Looked at: nothing \(no mirror_path, no url\).*sources\.x\.url"):
        fetch_source("x", {"sha256": SHA}, [tmp_path], tmp_path / "out" / "x")


def test_url_download_verified(tmp_path: Path) -> None:
    served = _write(tmp_path / "server" / "hp.obo", CONTENT)
    spec = {"mirror_path": "hp.obo", "sha256": SHA, "url": served.as_uri()}
    dest = tmp_path / "resources" / "hp.obo"
    msg = fetch_source("hpo", spec, [tmp_path / "no-mirror"], dest)
    assert msg == f"hpo: downloaded from {served.as_uri()} (sha256 {SHA} verified)"
    assert dest.read_bytes() == CONTENT
    assert _leftovers(dest.parent) == ["hp.obo"]


def test_url_with_wrong_content_leaves_no_partial_file(tmp_path: Path) -> None:
    served = _write(tmp_path / "server" / "hp.obo", OTHER)
    spec = {"mirror_path": "hp.obo", "sha256": SHA, "url": served.as_uri()}
    dest = tmp_path / "resources" / "hp.obo"
    with pytest.raises(SourceNotFoundError) as err:
        fetch_source("hpo", spec, [tmp_path / "no-mirror"], dest)
    msg = str(err.value)
    assert served.as_uri() in msg and hashlib.sha256(OTHER).hexdigest() in msg
    assert f"{tmp_path / 'no-mirror' / 'hp.obo'} (absent)" in msg
    assert not dest.exists()
    assert _leftovers(dest.parent) == []  # the temporary download was removed


def test_unreachable_url_named(tmp_path: Path) -> None:
    missing = (tmp_path / "server" / "nope.obo").as_uri()
    spec = {"sha256": SHA, "url": missing}
    dest = tmp_path / "resources" / "nope.obo"
    with pytest.raises(SourceNotFoundError, match="nope.obo") as err:
        fetch_source("nope", spec, [], dest)
    assert missing in str(err.value)
    assert _leftovers(dest.parent) == []


def test_existing_destination_untouched_on_failure(tmp_path: Path) -> None:
    dest = _write(tmp_path / "resources" / "hp.obo", b"previous good copy")
    with pytest.raises(SourceNotFoundError):
        fetch_source("hpo", {"mirror_path": "hp.obo", "sha256": SHA}, [tmp_path / "none"], dest)
    assert dest.read_bytes() == b"previous good copy"


# --------------------------------------------------------------------------------------------------
# Licensed sources
# --------------------------------------------------------------------------------------------------
def test_require_directory_names_config_key(tmp_path: Path) -> None:
    assert require_directory("umls", tmp_path, "rrf") == tmp_path
    with pytest.raises(SourceNotFoundError) as err:
        require_directory("umls", tmp_path / "2024AA" / "META", "rrf")
    msg = str(err.value)
    assert "`terminologies.umls.path`" in msg and str(tmp_path / "2024AA" / "META") in msg and "UMLS META (RRF)" in msg
    with pytest.raises(SourceNotFoundError, match=r"`terminologies\.snomed\.path`.*SNOMED CT RF2 release"):
        require_directory("snomed", tmp_path / "missing", "rf2")
    # A file is not a folder.
    with pytest.raises(SourceNotFoundError, match="terminologies.x.path"):
        require_directory("x", _write(tmp_path / "file.txt", b""), "rf2")


def test_licensed_files_rf2_and_rrf(tmp_path: Path) -> None:
    rf2 = tmp_path / "SnomedCT"
    for rel in [
        "Snapshot/Terminology/sct2_Concept_Snapshot_INT_20240101.txt",
        "Snapshot/Terminology/sct2_Description_Snapshot-en_INT_20240101.txt",
        "Snapshot/Refset/Content/der2_cRefset_AssociationSnapshot_INT_20240101.txt",
        "Delta/Terminology/sct2_Concept_Delta_INT_20240101.txt",  # Delta folders are skipped
        "Snapshot/Terminology/README.txt",
    ]:
        _write(rf2 / rel, b"id\n")
    assert licensed_files("snomed", rf2, "rf2") == [
        str(rf2 / "Snapshot/Refset/Content/der2_cRefset_AssociationSnapshot_INT_20240101.txt"),
        str(rf2 / "Snapshot/Terminology/sct2_Concept_Snapshot_INT_20240101.txt"),
        str(rf2 / "Snapshot/Terminology/sct2_Description_Snapshot-en_INT_20240101.txt"),
    ]
    rrf = tmp_path / "META"
    for rel in ["MRCONSO.RRF", "MRREL.RRF.gz", "MRSTY.RRF", "MRFILES.txt", "CHANGE/DELETEDCUI.RRF"]:
        _write(rrf / rel, b"x|\n")
    assert licensed_files("umls", rrf, "rrf") == [
        str(rrf / "MRCONSO.RRF"),
        str(rrf / "MRREL.RRF.gz"),
        str(rrf / "MRSTY.RRF"),
    ]


def test_licensed_files_missing_folder_names_config_key(tmp_path: Path) -> None:
    with pytest.raises(SourceNotFoundError, match=r"`terminologies\.umls\.path`"):
        licensed_files("umls", tmp_path / "nowhere", "rrf")


def test_licensed_files_unknown_format(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="unknown licensed format 'obo'"):
        licensed_files("x", tmp_path, "obo")


def test_licensed_files_empty_folder_names_config_key(tmp_path: Path) -> None:
    (tmp_path / "META").mkdir()
    with pytest.raises(SourceNotFoundError) as err:
        licensed_files("umls", tmp_path / "META", "rrf")
    msg = str(err.value)
    assert "MR*.RRF" in msg and str(tmp_path / "META") in msg
    assert "terminologies.umls.path" in msg


# Integrity after the fetch ------------------------------------------------------------------------
def _fetched(tmp_path: Path, data: bytes = CONTENT, name: str = "hp.obo") -> tuple[Path, Path]:
    """A source as fetch_source leaves it: the file under resources/ and its sidecar."""
    mirror = _write(tmp_path / "mirror" / "hp" / name, data)
    dest = tmp_path / "resources" / "hp" / name
    spec = {"filename": name, "mirror_path": f"hp/{name}", "sha256": content_sha256(mirror)}
    fetch_source("hp", spec, [tmp_path / "mirror"], dest)
    sidecar = dest.with_name(name + ".sha256")
    write_checksum(dest, spec["sha256"], sidecar)
    return dest, sidecar


def test_sidecar_holds_the_pinned_digest(tmp_path: Path) -> None:
    dest, sidecar = _fetched(tmp_path)
    assert sidecar.read_text() == f"{SHA}  hp.obo\n"
    assert read_checksum(sidecar) == SHA
    assert verify_fetched([sidecar]) == [dest]
    assert verify_fetched([]) == []


def test_edited_source_is_refused_naming_file_digests_and_fix(tmp_path: Path) -> None:
    dest, sidecar = _fetched(tmp_path)
    dest.write_bytes(CONTENT.replace(b"name: All", b"name: Edited"))
    found = content_sha256(dest)
    with pytest.raises(SourceIntegrityError) as err:
        verify_fetched([sidecar])
    message = str(err.value)
    assert isinstance(err.value, SourceFormatError) and err.value.path == dest
    assert (err.value.expected_sha256, err.value.found_sha256) == (SHA, found)
    assert str(dest) in message and SHA in message and found in message
    assert "delete it to refetch it" in message and f"rm {dest}" in message


def test_gzip_source_checked_on_its_content(tmp_path: Path) -> None:
    dest, sidecar = _fetched(tmp_path, gzip.compress(CONTENT, mtime=0), "hp.obo.gz")
    assert read_checksum(sidecar) == SHA  # the content digest, as pinned
    assert verify_fetched([sidecar]) == [dest]
    dest.write_bytes(gzip.compress(CONTENT, mtime=0)[:-20])  # truncated after the fetch
    with pytest.raises(SourceFormatError, match="a complete gzip stream"):
        verify_fetched([sidecar])


def test_bad_sidecar_or_path_is_refused(tmp_path: Path) -> None:
    dest, sidecar = _fetched(tmp_path)
    sidecar.write_text("not a digest  hp.obo\n")
    with pytest.raises(SourceFormatError, match="a sha256"):
        verify_fetched([sidecar])
    sidecar.write_text("")
    with pytest.raises(SourceFormatError, match="a sha256"):
        read_checksum(sidecar)
    with pytest.raises(ValueError, match="not a checksum sidecar"):
        verify_fetched([dest])
