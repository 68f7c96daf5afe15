"""USF free association norms: the real Appendix A and hand-made files with its traps."""

from __future__ import annotations

import io
import tarfile
from pathlib import Path

import pytest
from conftest import SHARED_DATA

from biosem.errors import SourceFormatError
from biosem.simlex.usf import HEADER, associated_pairs, check_counts, normed_words, read_usf

USF_ARCHIVE = SHARED_DATA / "usf-free-association" / "appendix_A.tar.gz"
MISSING = "\u00a5"


def _row(
    cue: str,
    target: str,
    normed: str = "YES",
    n_produced: int = 12,
    fsg: str = ".080",
    bsg: str = ".050",
    qps: str = "N",
    tps: str = "N",
) -> str:
    fields = [
        cue,
        target,
        normed,
        "150",
        str(n_produced),
        fsg,
        bsg,
        ".0010",
        ".0020",
        "1",
        "2",
        "1.0",
        "0",
        "13",
        "20",
        "5.10",
        "",
        qps,
        ".62",
        ".25",
        ".019",
        "1",
        "14",
        "6",
        MISSING,
        "",
        tps,
        "1.93",
        ".36",
        ".027",
        "1",
    ]
    return ", ".join(fields)


def _archive(path: Path, members: dict[str, list[str]]) -> Path:
    with tarfile.open(path, "w:gz") as tar:
        for name, lines in members.items():
            data = "\n".join(lines).encode("latin-1")
            info = tarfile.TarInfo(f"appendix_A/{name}")
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
    return path


def _wrap(*rows: str, header: str = HEADER) -> list[str]:
    return ["<HTML>", "<BODY>", "<PRE>", header, *rows, "</pre>", "</BODY>", "</HTML>", ""]


@pytest.mark.skipif(not USF_ARCHIVE.exists(), reason="USF mirror absent")
def test_real_appendix_a_counts() -> None:
    usf = read_usf(USF_ARCHIVE)
    assert len(usf) == 72176
    assert usf["cue"].nunique() == 5018
    assert (usf["cue"] == "cue").sum() == 21  # the cue word CUE is real
    assert usf["file"].nunique() == 8  # D-F spells TFR as TRF in its header and still parses
    assert usf.loc[usf["normed"], "bsg"].notna().all()
    assert usf.loc[~usf["normed"], "bsg"].isna().all()
    check_counts(usf, 72176, 5018, USF_ARCHIVE)
    with pytest.raises(SourceFormatError, match="5019 distinct cues"):
        check_counts(usf, 72176, 5019, USF_ARCHIVE)
    strong = associated_pairs(usf, 10)
    assert (strong["n_produced"] > 10).all() and (strong["bsg"] > 0).all() and (strong["fsg"] > 0).all()


def test_cue_named_cue_is_kept_and_only_the_header_skipped(tmp_path: Path) -> None:
    lines = _wrap(_row("CUE", "HINT"), _row("CUE", "SIGNAL", normed="NO", bsg=MISSING), _row("CUP", "MUG"))
    usf = read_usf(_archive(tmp_path / "a.tar.gz", {"Cue_Target_Pairs.C": lines}))
    assert list(usf["cue"]) == ["cue", "cue", "cup"]
    assert list(usf["target"]) == ["hint", "signal", "mug"]
    assert list(usf["normed"]) == [True, False, True]
    assert usf["bsg"].isna().tolist() == [False, True, False]
    assert usf["tcon"].isna().all()  # the 0xA5 byte is a missing value
    assert list(usf["line"]) == [5, 6, 7]
    assert normed_words(usf) == {"cue", "cup"}


def test_members_in_name_order(tmp_path: Path) -> None:
    archive = _archive(
        tmp_path / "b.tar.gz",
        {
            "Cue_Target_Pairs.S": _wrap(_row("SALT", "PEPPER")),
            "Cue_Target_Pairs.A-B": _wrap(_row("APPLE", "PEAR")),
        },
    )
    assert list(read_usf(archive)["cue"]) == ["apple", "salt"]


def test_malformed_row_names_file_and_line(tmp_path: Path) -> None:
    lines = _wrap(_row("CUP", "MUG"), "CUP, SAUCER, YES, 150")
    with pytest.raises(SourceFormatError, match=r"b\.tar\.gz:6: expected 31 fields"):
        read_usf(_archive(tmp_path / "b.tar.gz", {"Cue_Target_Pairs.C": lines}))
    with pytest.raises(SourceFormatError, match="NORMED"):
        read_usf(
            _archive(
                tmp_path / "c.tar.gz",
                {"Cue_Target_Pairs.C": _wrap(_row("CUP", "MUG", normed="MAYBE"))},
            )
        )
    with pytest.raises(SourceFormatError, match="a number in fsg"):
        read_usf(_archive(tmp_path / "d.tar.gz", {"Cue_Target_Pairs.C": _wrap(_row("CUP", "MUG", fsg="x"))}))
    with pytest.raises(SourceFormatError, match="Cue_Target_Pairs"):
        read_usf(_archive(tmp_path / "e.tar.gz", {"README": ["nothing"]}))


def test_associated_pairs_thresholds(tmp_path: Path) -> None:
    lines = _wrap(
        _row("CUP", "MUG", n_produced=11),  # kept
        _row("CUP", "TEA", n_produced=10),  # exactly 10 participants: not more than 10
        _row("CUP", "SAUCER", n_produced=30, bsg="0.000"),  # no backward strength
        _row("CUP", "HANDLE", n_produced=30, normed="NO", bsg=MISSING),  # target not normed
    )
    usf = read_usf(_archive(tmp_path / "f.tar.gz", {"Cue_Target_Pairs.C": lines}))
    assert list(associated_pairs(usf, 10)["target"]) == ["mug"]
    assert list(associated_pairs(usf, 9)["target"]) == ["mug", "tea"]
