"""HTML pages of report tables (biosem.report.tables): values, separators, alignment, escaping, heads."""

from __future__ import annotations

import base64
import re
from pathlib import Path

import pytest

from biosem.errors import SourceFormatError
from biosem.report.tables import MAX_EMBED_BYTES, format_number, render_page, text_table


def cells(page: str) -> list[list[tuple[str, str]]]:
    """The body rows of a page as (class, text) per cell."""
    body = page.split("<tbody>", 1)[1].split("</tbody>", 1)[0]
    return [
        re.findall(r'<td(?: class="([^"]*)")?>(.*?)</td>', row)
        for row in re.findall(r"<tr>(.*?)</tr>", body, flags=re.S)
    ]


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        ("0", "0"),
        ("1234", "1,234"),
        ("-1234567", "-1,234,567"),
        ("0.712345", "0.7123"),
        ("12.3456", "12.35"),
        ("1234.56", "1,234.6"),
        ("0.000123", "0.000123"),
        ("nan", "nan"),
    ],
)
def test_format_number(text: str, shown: str) -> None:
    assert format_number(text) == shown


def test_counts_table_values_separators_and_alignment(tmp_path: Path) -> None:
    table = tmp_path / "counts.tsv"
    table.write_text(
        "kind\tdifficulty\tpositives\tmean_levenshtein\tnote\n"
        "fsn_syn\teasy\t12345\t3.14159\t\n"
        "same_as\thard\t0\t\tno same_as pairs in the source\n",
        encoding="utf-8",
    )
    page = render_page(table, title="hpo counts")
    assert "<title>hpo counts</title>" in page and "2 rows × 5 columns" in page
    assert '"DejaVu Sans"' in page and "&#34;" not in page.split("</style>")[0]  # the CSS itself is not escaped
    header = re.findall(r"<th( class=\"num\")?>(.*?)</th>", page)
    assert header == [
        ("", "kind"),
        ("", "difficulty"),
        (' class="num"', "positives"),
        (' class="num"', "mean_<wbr>levenshtein"),
        ("", "note"),
    ]
    assert cells(page) == [
        [("", "fsn_syn"), ("", "easy"), ("num", "12,345"), ("num", "3.142"), ("empty", "")],
        [("", "same_as"), ("", "hard"), ("num", "0"), ("empty", ""), ("", "no same_as pairs in the source")],
    ]
    # the file itself rides along as a download, byte for byte
    href = re.search(r'download="counts.tsv" href="data:text/tab-separated-values;charset=utf-8;base64,([^"]+)"', page)
    assert href and base64.b64decode(href.group(1)) == table.read_bytes()


def test_cells_are_escaped(tmp_path: Path) -> None:
    table = tmp_path / "sheet.csv"
    table.write_text('word,a<b_c\n<script>alert(1)</script>,"a & b, ""c"""\n', encoding="utf-8")
    page = render_page(table)
    assert "<script>" not in page and "<th>a&lt;b_<wbr>c</th>" in page
    assert cells(page) == [[("", "&lt;script&gt;alert(1)&lt;/script&gt;"), ("", "a &amp; b, &#34;c&#34;")]]


def test_large_table_shows_head_and_row_count(tmp_path: Path) -> None:
    table = tmp_path / "results.csv"
    table.write_text("i,value\n" + "".join(f"{i},{i * 1000}\n" for i in range(450)), encoding="utf-8")
    page = render_page(table, max_rows=100)
    rows = cells(page)
    assert len(rows) == 100 and rows[-1] == [("num", "99"), ("num", "99,000")]
    assert "450 rows × 2 columns; the first 100 shown" in page


def test_a_page_asked_for_all_rows_shows_every_row(tmp_path: Path) -> None:
    table = tmp_path / "results_termpairs.csv"
    table.write_text("i,value\n" + "".join(f"{i},{i * 1000}\n" for i in range(450)), encoding="utf-8")
    page = render_page(table, max_rows=None)
    rows = cells(page)
    assert len(rows) == 450 and rows[-1] == [("num", "449"), ("num", "449,000")]
    meta = page.split('<p class="meta">', 1)[1].split(" · ", 1)[0]
    assert meta == "450 rows × 2 columns"  # no "the first ... shown"
    assert "download=" in page and "download=" not in render_page(table, max_rows=None, embed=False)


def test_markdown_is_rendered_with_its_headings_and_tables(tmp_path: Path) -> None:
    """RELEASE.md (the report offers a .md file as a download only): headings, pipe tables, code blocks
    as HTML; raw HTML in the file escaped; the whole file whatever its length."""
    manifest = tmp_path / "RELEASE.md"
    datasets = "".join(f"| `termpairs/t{i}` | {i:,} |\n" for i in range(300))
    manifest.write_text(
        "# biosem release 0.1.0 (private)\n\n**Private release**: <b>licensees</b> only.\n\n"
        f"## Datasets\n\n| dataset | rows |\n|---|---|\n{datasets}\n"
        "## How it was made\n\n```\nsnakemake --cores N release_private\n```\n",
        encoding="utf-8",
    )
    page = render_page(manifest, title="release 0.1.0 (private)")
    body = page.split('<div class="md">', 1)[1]
    headings = re.findall(r"<(h[1-3])>(.*?)</h[1-3]>", body)
    assert headings == [("h1", "biosem release 0.1.0 (private)"), ("h2", "Datasets"), ("h2", "How it was made")]
    assert "<strong>Private release</strong>: &lt;b&gt;licensees&lt;/b&gt; only." in body
    assert body.count("<tr>") == 301 and "<td><code>termpairs/t299</code></td>" in body  # every row
    assert "<pre><code>snakemake --cores N release_private\n</code></pre>" in body
    assert "<pre>" not in page.split('<div class="md">', 1)[0]  # not shown as plain text
    assert f"{len(manifest.read_text().splitlines()):,} lines of Markdown" in page


def test_large_file_is_not_embedded(tmp_path: Path) -> None:
    table = tmp_path / "big.tsv"
    table.write_text("a\n" + "x" * (MAX_EMBED_BYTES + 10) + "\n", encoding="utf-8")
    assert "download=" not in render_page(table)


def test_text_file_head_escaped(tmp_path: Path) -> None:
    text = tmp_path / "single_answer.txt"
    text.write_text("# is_a\n" + "".join(f'HP:{i}:"a<b>"\tHP:2:"c"\n' for i in range(5)), encoding="utf-8")
    page = render_page(text, max_rows=3)
    pre = page.split("<pre>", 1)[1].split("</pre>", 1)[0]
    line = "HP:{}:&#34;a&lt;b&gt;&#34;\tHP:2:&#34;c&#34;"
    assert pre.splitlines() == ["# is_a", line.format(0), line.format(1)]
    assert "6 lines; the first 3 shown" in page


def test_bad_tables_name_the_file(tmp_path: Path) -> None:
    empty = tmp_path / "empty.tsv"
    empty.write_text("", encoding="utf-8")
    with pytest.raises(SourceFormatError, match="empty.tsv:1: expected a header line"):
        render_page(empty)
    ragged = tmp_path / "ragged.csv"
    ragged.write_text("a,b\n1,2\n1,2,3\n", encoding="utf-8")
    with pytest.raises(SourceFormatError, match=r"ragged.csv: expected rows with the header's number of fields"):
        render_page(ragged)
    other = tmp_path / "table.parquet"
    other.write_bytes(b"PAR1")
    with pytest.raises(SourceFormatError, match="expected a .tsv or .csv table"):
        render_page(other)
    latin = tmp_path / "notes.txt"
    latin.write_bytes("caf\xe9\n".encode("latin-1"))
    with pytest.raises(SourceFormatError, match="notes.txt: expected UTF-8 text"):
        render_page(latin)


def test_flagged_validity_rows_are_highlighted(tmp_path: Path) -> None:
    table = tmp_path / "validity.tsv"
    table.write_text(
        "dataset\tstratum\tcheck\tvalue\tthreshold\tstatus\tdetail\n"
        "test\tterm_identity\tmajority_class_accuracy\t0.9756\t<= 0.55\tflag\tn=410\n"
        "test\tsynonyms\tmajority_class_accuracy\t0.5\t<= 0.55\tpass\tn=60\n"
        "flag\t\tlabel_balance\t0.5\t>= 0.45\tpass\t\n",
        encoding="utf-8",
    )
    rows = cells(render_page(table))
    assert rows[0][5] == ("flag", "flag")
    assert rows[1][5] == ("", "pass")
    assert rows[2][0] == ("", "flag")  # only the status column's flags are highlighted
    assert "td.flag" in render_page(table)


def test_text_table_aligns_columns() -> None:
    """Columns start where the header's do, two spaces apart; None is ``-``; no trailing spaces."""
    lines = text_table([("model", "n", "coverage"), ("glove.6B.50d", 1234, None), ("w2v", 5, "0.500")])
    assert lines == ["model         n     coverage", "glove.6B.50d  1234  -", "w2v           5     0.500"]
    assert text_table([]) == []
