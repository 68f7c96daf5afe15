"""Render a TSV/CSV table or a text file to one self-contained HTML page for the Snakemake report.

Snakemake's HTML report shows images, PDF and HTML inline and offers every other file as a download
only; these pages put each counts, agreement and dataset table in front of the reader. A page is one
HTML document with inline CSS and no script: numbers right-aligned with thousands separators, a line
with the source file as title and its size (rows and columns), the first :data:`MAX_ROWS` rows of a larger
table (or every row, where the page is asked for all), and the file itself as an embedded download link
when it is at most :data:`MAX_EMBED_BYTES`. A Markdown file (``.md``) is shown rendered (CommonMark with
tables, raw HTML escaped): Snakemake's report offers a ``.md`` file as a download only.
:func:`text_table` is the terminal's counterpart: rows as aligned plain text (``biosem info``, ``biosem evaluate``).
"""

from __future__ import annotations

import base64
import math
import mimetypes
import os
import re
from collections.abc import Sequence
from pathlib import Path

import pandas as pd
from jinja2 import Environment
from markdown_it import MarkdownIt
from markupsafe import Markup, escape

from biosem.errors import SourceFormatError

MAX_ROWS = 200
"""Rows (or text lines) a page shows by default; a longer table shows its head and its row count."""

MAX_EMBED_BYTES = 1_000_000
"""Files up to this size are embedded in their page as a download link (data URI)."""

SEPARATORS = {".tsv": "\t", ".csv": ","}
TEXT_SUFFIXES = (".txt", ".md")

_INTEGER = re.compile(r"^[+-]?\d+$")
_STYLE = Markup("""
body { font-family: "Segoe UI", Helvetica, Arial, "Liberation Sans", "DejaVu Sans", sans-serif;
       font-size: 14px;
       color: #1f2328; margin: 12px 16px; }
h1 { font-size: 16px; margin: 0 0 4px 0; }
p.meta { color: #57606a; margin: 0 0 10px 0; }
table { border-collapse: collapse; }
th, td { padding: 3px 10px; border-bottom: 1px solid #d0d7de; vertical-align: top; }
td { max-width: 36em; }
th { position: sticky; top: 0; background: #f6f8fa; text-align: left; border-bottom: 2px solid #8c959f; }
th { vertical-align: bottom; }
th.num { text-align: right; }
td.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
td.empty { color: #8c959f; }
td.flag { background: #fff1e5; color: #9a3412; font-weight: 600; }
tbody tr:nth-child(even) { background: #fafbfc; }
pre { font-size: 13px; background: #f6f8fa; padding: 8px; overflow-x: auto; }
a { color: #0969da; }
div.md { max-width: 72em; line-height: 1.45; }
div.md h1 { font-size: 20px; margin: 16px 0 8px 0; }
div.md h2 { font-size: 17px; margin: 20px 0 8px 0; border-bottom: 1px solid #d0d7de; }
div.md h3 { font-size: 15px; margin: 16px 0 6px 0; }
div.md code { font-size: 13px; background: #f6f8fa; padding: 1px 3px; }
div.md pre code { padding: 0; }
div.md table { margin: 8px 0; }
""")  # trusted CSS: not escaped

_TEMPLATE = Environment(autoescape=True, keep_trailing_newline=True).from_string(
    """<!DOCTYPE html>
<html lang="en">
<head><meta charset="utf-8"><title>{{ title }}</title><style>{{ style }}</style></head>
<body>
<h1>{{ title }}</h1>
<p class="meta">{{ meta }}{% if download %} · <a download="{{ download.name }}" href="{{ download.href }}">\
download {{ download.name }}</a>{% endif %}</p>
{% if columns is not none -%}
<table>
<thead><tr>{% for c in columns %}<th{% if c.numeric %} class="num"{% endif %}>{{ c.name }}</th>{% endfor %}</tr></thead>
<tbody>
{% for row in rows %}<tr>{% for cell in row %}<td{% if cell.css %} class="{{ cell.css }}"{% endif %}>\
{{ cell.text }}</td>{% endfor %}</tr>
{% endfor %}</tbody>
</table>
{%- elif markdown is not none -%}
<div class="md">
{{ markdown }}</div>
{%- else -%}
<pre>{{ text }}</pre>
{%- endif %}
</body>
</html>
"""
)


def format_number(text: str) -> str:
    """A numeric cell as shown: integers with thousands separators (``12,345``), other numbers
    with four significant digits, or one decimal from 1,000 up (``0.7123``, ``12.35``,
    ``1,234.6``); ``nan``/``inf`` as written. ``text`` must parse as a number (``float(text)``)."""
    if _INTEGER.match(text.strip()):
        return f"{int(text):,}"
    value = float(text)
    if not math.isfinite(value):
        return text.strip()
    if abs(value) >= 1000:
        return f"{value:,.1f}"
    return f"{value:.4g}"


def is_numeric(values: pd.Series) -> bool:
    """Whether every non-empty cell of a string column parses as a number (and one at least does)."""
    filled = values[values.str.strip() != ""]
    return len(filled) > 0 and bool(pd.to_numeric(filled, errors="coerce").notna().all())


def read_text_table(path: str | os.PathLike[str]) -> pd.DataFrame:
    """Read a TSV (``.tsv``) or CSV (``.csv``) with a header line, every cell a string (empty
    cells ``""``).

    Raises:
        SourceFormatError: the file has another suffix, no header line, or a row pandas cannot
            split into the header's columns (the message names the file and pandas' finding).
    """
    path = Path(path)
    sep = SEPARATORS.get(path.suffix)
    if sep is None:
        raise SourceFormatError(path, None, "a .tsv or .csv table", f"suffix {path.suffix!r}")
    try:
        return pd.read_csv(path, sep=sep, dtype=str, keep_default_na=False, na_filter=False)
    except pd.errors.EmptyDataError:
        raise SourceFormatError(path, 1, "a header line naming the columns", "an empty file") from None
    except pd.errors.ParserError as error:
        raise SourceFormatError(path, None, "rows with the header's number of fields", str(error)) from None


def table_html(
    frame: pd.DataFrame, title: str, max_rows: int | None = MAX_ROWS, download: dict[str, str] | None = None
) -> str:
    """One HTML page showing the string table ``frame`` (as :func:`read_text_table` reads it).

    Columns whose every non-empty cell is a number are right-aligned and formatted by
    :func:`format_number`; every cell is HTML-escaped; a ``status`` cell reading ``flag`` (a failed
    check of a ``validity.tsv``, :mod:`biosem.validity`) is highlighted. A table longer than ``max_rows`` shows its
    first ``max_rows`` rows (``None``: every row), and the line under the title says how many rows it has.
    ``download`` (``name``, ``href``) adds a download link.
    """
    numeric = {c: is_numeric(frame[c].astype(str)) for c in frame.columns}
    shown = frame if max_rows is None else frame.head(max_rows)
    rows = [
        [_cell(str(value), numeric[column], column) for column, value in zip(frame.columns, record)]
        for record in shown.itertuples(index=False, name=None)
    ]
    size = f"{len(frame):,} rows × {len(frame.columns):,} columns"
    if len(frame) > len(shown):
        size += f"; the first {len(shown):,} shown"
    return _TEMPLATE.render(
        title=title,
        style=_STYLE,
        meta=size,
        columns=[{"name": _header(str(c)), "numeric": numeric[c]} for c in frame.columns],
        rows=rows,
        markdown=None,
        download=download,
    )


def text_html(text: str, title: str, max_lines: int | None = MAX_ROWS, download: dict[str, str] | None = None) -> str:
    """One HTML page showing a text file (``.txt``) preformatted and escaped: its first ``max_lines``
    lines (``None``: every line), and the line count under the title."""
    lines = text.splitlines()
    size = f"{len(lines):,} lines"
    if max_lines is not None and len(lines) > max_lines:
        size += f"; the first {max_lines:,} shown"
        lines = lines[:max_lines]
    return _TEMPLATE.render(
        title=title,
        style=_STYLE,
        meta=size,
        columns=None,
        markdown=None,
        text="\n".join(lines),
        download=download,
    )


def markdown_html(text: str, title: str, download: dict[str, str] | None = None) -> str:
    """One HTML page showing a Markdown file rendered whole: CommonMark with GitHub's pipe tables
    (markdown-it-py); raw HTML in the file is escaped, not passed through. The line under the title gives
    the file's line count."""
    body = MarkdownIt("commonmark", {"html": False}).enable("table").render(text)
    return _TEMPLATE.render(
        title=title,
        style=_STYLE,
        meta=f"{len(text.splitlines()):,} lines of Markdown",
        columns=None,
        markdown=Markup(body),  # markdown-it escapes the text; raw HTML is off
        download=download,
    )


def render_page(
    path: str | os.PathLike[str], title: str | None = None, max_rows: int | None = MAX_ROWS, embed: bool = True
) -> str:
    """The HTML page of one table (``.tsv``, ``.csv``: :func:`table_html`), text file (``.txt``:
    :func:`text_html`; ``max_rows`` its lines) or Markdown file (``.md``: :func:`markdown_html`, always
    whole); ``title`` defaults to the path as given; ``max_rows`` None shows every row or line. Files up
    to :data:`MAX_EMBED_BYTES` are embedded as a download, unless ``embed`` is false (a page of every row
    of a long table: the report embeds each page as a data URI, which Chromium opens up to 2 MB only).

    Raises:
        SourceFormatError: another suffix, or a table :func:`read_text_table` cannot read; a text
            file that is not UTF-8 (names the file and the first bad byte's offset).
    """
    path = Path(path)
    title = title or str(path)
    download = _download(path) if embed else None
    if path.suffix in TEXT_SUFFIXES:
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError as error:
            raise SourceFormatError(path, None, "UTF-8 text", f"byte offset {error.start}: {error.reason}") from None
        if path.suffix == ".md":
            return markdown_html(text, title, download)
        return text_html(text, title, max_rows, download)
    return table_html(read_text_table(path), title, max_rows, download)


def _header(name: str) -> Markup:
    """A column name, escaped, that may wrap after its underscores (long snake_case names)."""
    return escape(name).replace("_", Markup("_<wbr>"))


FLAGGED = ("status", "flag")
"""A cell highlighted in every table: column ``status``, value ``flag`` (:data:`biosem.validity.FLAG`)."""


def _cell(text: str, numeric: bool, column: object = None) -> dict[str, str]:
    if text.strip() == "":
        return {"text": "", "css": "empty"}
    if (column, text) == FLAGGED:
        return {"text": text, "css": "flag"}
    if numeric:
        return {"text": format_number(text), "css": "num"}
    return {"text": text, "css": ""}


def _download(path: Path) -> dict[str, str] | None:
    if path.stat().st_size > MAX_EMBED_BYTES:
        return None
    mime = {".tsv": "text/tab-separated-values", ".md": "text/markdown"}.get(path.suffix) or (
        mimetypes.guess_type(path.name)[0] or "text/plain"
    )
    data = base64.b64encode(path.read_bytes()).decode("ascii")
    return {"name": path.name, "href": f"data:{mime};charset=utf-8;base64,{data}"}


def text_table(rows: Sequence[Sequence[object]]) -> list[str]:
    """Rows (the header first) as lines of left-aligned columns two spaces apart, trailing spaces cut; None is
    printed as ``-``."""
    cells = [["-" if v is None else str(v) for v in row] for row in rows]
    widths = [max(len(row[i]) for row in cells) for i in range(len(cells[0]))] if cells else []
    return ["  ".join(c.ljust(w) for c, w in zip(row, widths)).rstrip() for row in cells]
