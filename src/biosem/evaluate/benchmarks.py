"""Readers of rated word-pair datasets: the external benchmarks and biosem's own rated datasets.

Formats (``format`` in config ``evaluate.benchmarks``):

* ``simlex999``: SimLex-999.txt, tab-separated with a header line ``word1 word2 POS SimLex999
  conc(w1) ...`` (Hill et al. 2015); score 0-10.
* ``simverb3500``: SimVerb-3500.txt, tab-separated, no header: ``word1 word2 POS score relation``
  (Gerz et al. 2016); score 0-10. Read from the release zip when ``member`` is given.
* ``three_column``: ``word1<TAB>word2<TAB>score``, no header: Bio-SimLex, Bio-SimVerb (0-10), the
  wvlib copies of UMNSRS similarity/relatedness (0-1600 slider) and MayoSRS (1-4), and biosem's
  ``results/datasets/simlex/rated/<name>.txt``.
* ``parquet``: a Parquet table with columns ``word1, word2, score``.

Only the order of scores matters (Spearman), so scales are kept as published.
"""

from __future__ import annotations

import io
import math
import zipfile
from pathlib import Path

import pandas as pd

from biosem.errors import SourceFormatError
from biosem.io import read_table

FORMATS = ("simlex999", "simverb3500", "three_column", "parquet")
COLUMNS = ["word1", "word2", "score", "pos"]


def _lines(path: Path, member: str | None) -> list[str]:
    if member is not None:
        try:
            with zipfile.ZipFile(path) as zf, zf.open(member) as fh:
                data = fh.read()
        except (zipfile.BadZipFile, KeyError) as exc:
            raise SourceFormatError(path, None, f"a zip archive holding {member}", str(exc)) from exc
    else:
        data = path.read_bytes()
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise SourceFormatError(path, None, "UTF-8 text", repr(data[max(0, exc.start - 20) : exc.end + 20])) from exc
    return io.StringIO(text, newline=None).read().split("\n")


def _score(path: Path, lineno: int, field: str, line: str) -> float:
    try:
        value = float(field)
    except ValueError:
        value = math.nan
    if not math.isfinite(value):
        raise SourceFormatError(path, lineno, "a numeric similarity score", line)
    return value


def read_rated_pairs(path: str | Path, fmt: str, member: str | None = None) -> pd.DataFrame:
    """Read a rated-pair file into columns ``word1, word2, score, pos`` (pos may be None).

    Rows keep the file's order; blank lines are skipped.

    Raises:
        SourceFormatError: wrong number of fields, a non-numeric score, a missing header
            (``simlex999``), or an empty file (file, line, expectation).
        ValueError: unknown ``fmt``.
    """
    path = Path(path)
    if fmt not in FORMATS:
        raise ValueError(f"unknown rated-pair format {fmt!r}; expected one of {FORMATS}")
    if fmt == "parquet":
        frame = read_table(path)
        missing = {"word1", "word2", "score"} - set(frame.columns)
        if missing:
            raise SourceFormatError(path, None, "columns word1, word2, score", f"columns {list(frame.columns)}")
        out = frame[["word1", "word2", "score"]].copy()
        out["pos"] = frame["pos"] if "pos" in frame.columns else None
        return out[COLUMNS].astype({"score": "float64"}).reset_index(drop=True)
    rows: list[tuple[str, str, float, str | None]] = []
    lines = _lines(path, member)
    start = 0
    if fmt == "simlex999":
        header = lines[0].split("\t") if lines else []
        if header[:4] != ["word1", "word2", "POS", "SimLex999"]:
            raise SourceFormatError(
                path, 1, "the SimLex-999 header 'word1 word2 POS SimLex999 ...'", lines[0] if lines else ""
            )
        start = 1
    for offset, line in enumerate(lines[start:]):
        lineno = start + offset + 1
        if not line.strip():
            continue
        fields = line.split("\t")
        if fmt == "simlex999":
            if len(fields) < 4:
                raise SourceFormatError(path, lineno, "at least 4 tab-separated fields", line)
            rows.append((fields[0], fields[1], _score(path, lineno, fields[3], line), fields[2]))
        elif fmt == "simverb3500":
            if len(fields) != 5:
                raise SourceFormatError(path, lineno, "5 tab-separated fields (word1 word2 POS score relation)", line)
            rows.append((fields[0], fields[1], _score(path, lineno, fields[3], line), fields[2]))
        else:
            if len(fields) != 3:
                raise SourceFormatError(path, lineno, "3 tab-separated fields (word1 word2 score)", line)
            rows.append((fields[0], fields[1], _score(path, lineno, fields[2], line), None))
    if not rows:
        raise SourceFormatError(path, None, "at least one rated pair", "no data lines")
    return pd.DataFrame(rows, columns=COLUMNS)
