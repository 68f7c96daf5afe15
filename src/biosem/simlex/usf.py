"""USF free association norms, Appendix A (Nelson, McEvoy & Schreiber 2004) -> the ``usf`` table.

Format (one file per cue range, ``Cue_Target_Pairs.A-B`` ... ``Cue_Target_Pairs.T-Z``, here in a
tar.gz): Latin-1 text wrapped in ``<HTML>``, ``<BODY>``, ``<PRE>`` lines; the header line
``CUE, TARGET, NORMED?, #G, #P, FSG, BSG, MSG, OSG, #M, MMIAS, #O, OMIAS, QSS, QFR, QCON, QH, QPS,
QMC, QPR, QRSG, QUC, TSS, TFR, TCON, TH, TPS, TMC, TPR, TRSG, TUC`` (``TRF`` for TFR in ``D-F``); then
one row per cue-target pair,
31 fields separated by ``", "``; then closing tags (any case). A missing value is the byte 0xA5
(Latin-1 ``¥``); an empty field is empty. Words are upper case.

Traps: the cue word ``CUE`` is real (21 rows in ``Cue_Target_Pairs.C`` starting ``"CUE, "``), so only
the exact header line is skipped; 72,176 rows when parsed right (the published figure). The mirror's
files hold 5,018 distinct cue strings, while the norms' documentation counts 5,019 normed words;
no normed target lacks cue rows, so the difference is not visible in Appendix A itself (checked:
every target marked NORMED? YES is a cue). ``simlex.usf.expected_cues`` holds the count to check.
"""

from __future__ import annotations

import re
import tarfile
from pathlib import Path

import numpy as np
import pandas as pd

from biosem.errors import SourceFormatError

HEADER = (
    "CUE, TARGET, NORMED?, #G, #P, FSG, BSG, MSG, OSG, #M, MMIAS, #O, OMIAS, QSS, QFR, QCON, QH, QPS, "
    "QMC, QPR, QRSG, QUC, TSS, TFR, TCON, TH, TPS, TMC, TPR, TRSG, TUC"
)
COLUMNS = (
    "cue",
    "target",
    "normed",
    "n_given",
    "n_produced",
    "fsg",
    "bsg",
    "msg",
    "osg",
    "n_mediators",
    "mmias",
    "n_overlapping",
    "omias",
    "qss",
    "qfr",
    "qcon",
    "qh",
    "qps",
    "qmc",
    "qpr",
    "qrsg",
    "quc",
    "tss",
    "tfr",
    "tcon",
    "th",
    "tps",
    "tmc",
    "tpr",
    "trsg",
    "tuc",
)
"""Column names for the 31 header fields, in file order (see :data:`biosem.simlex.schemas.USF`)."""

_INT = (
    "n_given",
    "n_produced",
    "n_mediators",
    "mmias",
    "omias",
    "qss",
    "qfr",
    "quc",
    "tss",
    "tfr",
    "tuc",
)
_FLOAT = (
    "fsg",
    "bsg",
    "msg",
    "osg",
    "n_overlapping",
    "qcon",
    "qmc",
    "qpr",
    "qrsg",
    "tcon",
    "tmc",
    "tpr",
    "trsg",
)
_TEXT = ("qh", "qps", "th", "tps")
_REQUIRED = ("cue", "target", "normed", "n_given", "n_produced", "fsg")
HEADER_VARIANTS = (HEADER, HEADER.replace(", TFR,", ", TRF,"))
"""The header as published; ``Cue_Target_Pairs.D-F`` spells TFR as ``TRF``."""
_MISSING = "\u00a5"
_TAG = re.compile(r"^</?(html|body|pre)>$", re.IGNORECASE)
_MEMBER = re.compile(r"(^|/)Cue_Target_Pairs\.[A-Z]-?[A-Z]?$")


def _parse_member(name: str, text: str, path: Path) -> list[list[str]]:
    rows: list[list[str]] = []
    header_seen = False
    short = name.rsplit("/", 1)[-1]
    for lineno, line in enumerate(text.split("\n"), 1):
        line = line.rstrip("\r")
        if not line.strip() or _TAG.match(line.strip()):
            continue
        if line in HEADER_VARIANTS:
            header_seen = True
            continue
        fields = line.split(", ")
        if len(fields) != len(COLUMNS):
            raise SourceFormatError(path, lineno, f"{len(COLUMNS)} fields separated by ', ' in {short}", line)
        if not header_seen:
            raise SourceFormatError(path, lineno, f"the header line before the rows of {short}", line)
        rows.append([*fields, short, lineno])
    if not header_seen:
        raise SourceFormatError(path, None, f"the USF header line in {short}", "no header")
    return rows


def read_usf(path: str | Path) -> pd.DataFrame:
    """Parse the Appendix A archive (tar, tar.gz) or folder into the ``usf`` table.

    Members ``Cue_Target_Pairs.*`` are read in sorted name order (A-B, C, D-F, ...) and keep their row
    order. Words are lowercased; ``normed`` is ``NORMED? == "YES"``; ``¥`` and empty numeric fields
    become null; ``file``/``line`` locate each row (line within its member).

    Raises:
        SourceFormatError: no ``Cue_Target_Pairs.*`` member, a row without 31 fields, a member without
            the header, a NORMED? other than YES/NO, a non-numeric value in a numeric column, or a
            missing cue, target, #G, #P or FSG (with the member and line).
    """
    path = Path(path)
    texts: list[tuple[str, str]] = []
    if path.is_dir():
        for member in sorted(p for p in path.rglob("Cue_Target_Pairs.*") if p.is_file()):
            texts.append((member.name, member.read_bytes().decode("latin-1")))
    else:
        try:
            with tarfile.open(path) as tar:
                members = sorted(
                    (m for m in tar.getmembers() if m.isfile() and _MEMBER.search(m.name)),
                    key=lambda m: m.name,
                )
                for m in members:
                    fh = tar.extractfile(m)
                    assert fh is not None
                    texts.append((m.name, fh.read().decode("latin-1")))
        except tarfile.TarError as err:
            raise SourceFormatError(path, None, "a tar archive of USF Appendix A files", str(err)) from err
    if not texts:
        raise SourceFormatError(path, None, "Cue_Target_Pairs.* files (USF Appendix A)", "none")
    rows: list[list[str]] = []
    for name, text in texts:
        rows.extend(_parse_member(name, text, path))
    frame = pd.DataFrame(rows, columns=[*COLUMNS, "file", "line"])
    return _typed(frame, path)


def _typed(frame: pd.DataFrame, path: Path) -> pd.DataFrame:
    out = pd.DataFrame(
        {
            "cue": frame["cue"].str.strip().str.lower(),
            "target": frame["target"].str.strip().str.lower(),
        }
    )
    normed = frame["normed"].str.strip()
    bad = ~normed.isin(["YES", "NO"])
    if bad.any():
        i = int(np.flatnonzero(bad.to_numpy())[0])
        raise SourceFormatError(
            path,
            int(frame["line"].iat[i]),
            f"NORMED? YES or NO ({frame['file'].iat[i]})",
            normed.iat[i],
        )
    out["normed"] = normed == "YES"
    for col in (*_INT, *_FLOAT):
        raw = frame[col].str.strip().replace({_MISSING: "", "?": ""})
        values = pd.to_numeric(raw.where(raw != ""), errors="coerce")
        bad = values.isna() & (raw != "")
        if bad.any():
            i = int(np.flatnonzero(bad.to_numpy())[0])
            raise SourceFormatError(
                path,
                int(frame["line"].iat[i]),
                f"a number in {col} ({frame['file'].iat[i]})",
                raw.iat[i],
            )
        if col in _INT:
            if (values.dropna() % 1 != 0).any():
                i = int(np.flatnonzero((values % 1 != 0).fillna(False).to_numpy())[0])
                raise SourceFormatError(path, int(frame["line"].iat[i]), f"an integer in {col}", raw.iat[i])
            out[col] = values.astype("Int64")
        else:
            out[col] = values.astype("float64")
    for col in _TEXT:
        raw = frame[col].str.strip()
        out[col] = raw.where((raw != "") & (raw != _MISSING), None)
    for col in _REQUIRED:
        missing = out[col].isna() | (out[col].astype(str) == "")
        if missing.any():
            i = int(np.flatnonzero(missing.to_numpy())[0])
            raise SourceFormatError(
                path,
                int(frame["line"].iat[i]),
                f"a value for {col} ({frame['file'].iat[i]})",
                "missing",
            )
    out["file"] = frame["file"]
    out["line"] = frame["line"].astype("int64")
    return out[[*COLUMNS, "file", "line"]]


def check_counts(usf: pd.DataFrame, expected_rows: int | None, expected_cues: int | None, path: str | Path) -> None:
    """Stop when the parsed row or distinct-cue count differs from the configured expectation.

    Raises:
        SourceFormatError: the counts differ (the message gives both numbers).
    """
    rows, cues = len(usf), usf["cue"].nunique()
    if expected_rows is not None and rows != expected_rows:
        raise SourceFormatError(
            path,
            None,
            f"{expected_rows} cue-target rows (simlex.usf.expected_rows)",
            f"{rows} rows",
        )
    if expected_cues is not None and cues != expected_cues:
        raise SourceFormatError(path, None, f"{expected_cues} distinct cues (simlex.usf.expected_cues)", f"{cues} cues")


def normed_words(usf: pd.DataFrame) -> set[str]:
    """Words normed in USF: the cues (a target is normed exactly when it is also a cue)."""
    return set(usf["cue"].tolist())


def associated_pairs(usf: pd.DataFrame, min_producers: int, min_fsg: float = 0.0, min_bsg: float = 0.0) -> pd.DataFrame:
    """Cue-target rows with strong association in both directions (SimVerb-3500 criterion).

    Keeps rows with ``n_produced > min_producers`` (more than that many participants gave the
    target), ``fsg > min_fsg`` and ``bsg > min_bsg`` (so the target is normed: BSG is null otherwise).
    """
    keep = (usf["n_produced"] > min_producers) & (usf["fsg"] > min_fsg) & (usf["bsg"].fillna(-1) > min_bsg)
    return usf.loc[keep.fillna(False).to_numpy()].reset_index(drop=True)
