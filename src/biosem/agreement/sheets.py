"""The cells of the expert-study and survey sheets: the answer vocabulary, the target-term marks,
formula-injection neutralising (written CSV) and restoring (read back), and the reader of a filled sheet.

Shared by the studies (:mod:`biosem.agreement.studies`), the crowdsourcing and Label Studio interchange
(:mod:`biosem.agreement.interchange`) and the HTML forms (:mod:`biosem.agreement.forms`), so that none of
them imports another for these.
"""

from __future__ import annotations

import csv
import io
import zipfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from biosem.errors import SourceFormatError

SAME, NOT_SAME, DONT_KNOW = "same", "not same", "don't know"
ANSWERS = (SAME, NOT_SAME, DONT_KNOW)
"""The answer vocabulary of both studies."""

MARK_OPEN, MARK_CLOSE = "[[", "]]"
"""Brackets around the target term in the wic sheets' sentences."""


FORMULA_TRIGGERS = ("=", "+", "-", "@", "\t", "\r")
"""First characters that make a spreadsheet program read a cell as a formula (OWASP, "CSV Injection":
https://owasp.org/www-community/attacks/CSV_Injection)."""
QUOTE = "'"
"""The prefix that keeps such a cell text in a CSV file (OWASP's neutralisation)."""


def neutralise_cell(value: object) -> object:
    """A CSV cell that no spreadsheet program evaluates: a string beginning with one of
    :data:`FORMULA_TRIGGERS` gets a leading :data:`QUOTE` (``=HYPERLINK(...)`` -> ``'=HYPERLINK(...)``).

    A string that already begins with the quote followed by a trigger or by another quote gets one
    more, so that :func:`restore_cell` gives every string back exactly (``'=x`` -> ``''=x`` -> ``'=x``).
    Other values (numbers, NaN, other strings) are returned as they are.
    """
    if not isinstance(value, str) or not value:
        return value
    if value[0] in FORMULA_TRIGGERS or (value[0] == QUOTE and value[1:2] in (*FORMULA_TRIGGERS, QUOTE)):
        return QUOTE + value
    return value


def restore_cell(value: str) -> str:
    """The cell :func:`neutralise_cell` was given: one leading :data:`QUOTE` removed where it added one
    (a quote followed by a trigger or by another quote); any other string as it is."""
    if value[:1] == QUOTE and value[1:2] and value[1] in (*FORMULA_TRIGGERS, QUOTE):
        return value[1:]
    return value


def neutralise_frame(frame: pd.DataFrame) -> pd.DataFrame:
    """A copy of ``frame`` with every cell passed through :func:`neutralise_cell` (for CSV sheets)."""
    return _map_text(frame, neutralise_cell)


def restore_frame(frame: pd.DataFrame) -> pd.DataFrame:
    """A copy of a CSV sheet read as strings with every cell passed through :func:`restore_cell`."""
    return _map_text(frame, restore_cell)


def _map_text(frame: pd.DataFrame, function: Callable[[Any], Any]) -> pd.DataFrame:
    """``frame`` with ``function`` applied to every cell of its object (text) columns."""
    out = frame.copy()
    for column in out.columns:
        if out[column].dtype == object or isinstance(out[column].dtype, pd.StringDtype):
            out[column] = out[column].map(function)
    return out


def sheet_csv(frame: pd.DataFrame) -> str:
    """CSV text (UTF-8, LF, header) of a sheet or key, every text cell neutralised against formula
    injection (:func:`neutralise_cell`; terms and sentences come from third-party sources). The
    readers (:func:`read_sheet`, :func:`read_key`) undo it."""
    # pandas (like the csv module with "\n" line ends) leaves a field holding a carriage return
    # unquoted, which a reader takes for a line break: the fields pandas formats are quoted here
    # whenever they hold a comma, a quote, a line feed or a carriage return.
    text = neutralise_frame(frame).to_csv(index=False, lineterminator="\n", quoting=csv.QUOTE_ALL)
    rows = csv.reader(io.StringIO(text, newline=""))
    return "".join(",".join(_csv_field(field) for field in row) + "\n" for row in rows)


def _csv_field(text: str) -> str:
    """A CSV field, quoted (``"`` doubled inside) when it holds ``,``, ``"``, ``\\n`` or ``\\r``."""
    return '"' + text.replace('"', '""') + '"' if any(c in text for c in ',"\n\r') else text


def normalise_answer(value: object) -> str:
    """Canonical form of an answer cell: trimmed, lowercased, spaces collapsed, apostrophes straight."""
    if value is None or (isinstance(value, float) and np.isnan(value)):
        return ""
    text = str(value).replace("\u2019", "'").replace("\u2018", "'").replace("`", "'")
    return " ".join(text.lower().split())


def read_sheet(path: str | Path) -> pd.DataFrame:
    """A filled sheet as strings (CSV, or the first worksheet of an XLSX); empty cells are ``""``.

    CSV cells are restored from their neutralised form (:func:`restore_cell`: the leading quote
    :func:`sheet_csv` and the forms' export put before a formula-like text is removed); XLSX cells are
    read as they are (:func:`write_xlsx` writes text cells, without a quote).

    Raises:
        SourceFormatError: the file is neither ``.csv`` nor ``.xlsx``, or cannot be parsed.
    """
    path = Path(path)
    suffix = path.suffix.lower()
    try:
        if suffix == ".csv":
            return restore_frame(pd.read_csv(path, dtype=str, keep_default_na=False))
        if suffix == ".xlsx":
            frame = pd.read_excel(path, sheet_name=0, dtype=str, engine="openpyxl")
            return frame.fillna("")
    except (ValueError, KeyError, zipfile.BadZipFile, pd.errors.ParserError) as err:
        raise SourceFormatError(path, None, "a readable CSV or XLSX sheet", str(err)) from err
    raise SourceFormatError(path, None, "a .csv or .xlsx file", path.suffix)
