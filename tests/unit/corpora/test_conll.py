"""Token-per-line corpora (format conll): sentences, MEDLINE headers, sentence-block documents, errors."""

from __future__ import annotations

import gzip
from pathlib import Path

import pyarrow.parquet as pq
import pytest

from biosem.corpora.conll import (
    ingest_conll_corpus,
    medline_documents,
    read_conll,
    read_conll_corpus,
    sentence_block_documents,
)
from biosem.corpora.schemas import DOCUMENTS, MENTIONS, SENTENCES
from biosem.errors import SourceFormatError
from biosem.io import write_table


def write(path: Path, lines: list[str], newline: str = "\n") -> Path:
    path.write_text("".join(line + newline for line in lines), encoding="utf-8")
    return path


def tokens(*words: str, tag: str = "O") -> list[str]:
    return [f"{w}\t{tag}" for w in words]


GENIA = [
    *["UI\tLS", "-\t:", "95369245\tCD", ""],
    *["TI\tLS", "-\t:", "IL-2\tNN", "gene\tNN", "expression\tNN", ".\t.", ""],
    *["AB\tLS", "-\t:", "Activation\tNN", "of\tIN", "CD28\tNN", ".\t.", ""],
    *["It\tPRP", "requires\tVBZ", "oxygen\tNN", ".\t.", ""],
    *["UI\tLS", "-\t:", "92043714\tCD", ""],
    *["TI\tLS", "-\t:", "Charybdotoxin\tNN", "blocks\tVBZ", ""],
    *["channels\tNNS", ".\t.", ""],  # a title of two sentences
    *["AB\tLS", "-\t:", "Ion\tNN", "channels\tNNS", "open\tVBP", ".\t.", ""],
]


def test_sentences_from_blank_lines(tmp_path: Path) -> None:
    lines = [*tokens("( a )"[0], "a", ")"), "", "", *tokens("Figure", "1"), "   ", *tokens("Done", ".")]
    path = write(tmp_path / "a.tsv", lines, newline="\r\n")  # CRLF endings; two blank lines end one sentence
    got = list(read_conll(path))
    assert [s.tokens for s in got] == [("(", "a", ")"), ("Figure", "1"), ("Done", ".")]
    assert [s.line for s in got] == [1, 6, 9]  # 1-based first line; a line of spaces is blank
    assert got[0].text == "( a )" and got[0].tags == ("O", "O", "O")
    packed = tmp_path / "a.tsv.gz"
    packed.write_bytes(gzip.compress(path.read_bytes()))
    assert list(read_conll(packed)) == got  # gzip read transparently


@pytest.mark.parametrize(
    ("line", "why"),
    [
        ("token", "one column"),
        ("token\tO\textra", "three columns"),
        ("token\t", "empty tag"),
        ("\tO", "empty token"),
        ("two words\tO", "a token with a space"),
    ],
)
def test_malformed_line_names_file_and_line(tmp_path: Path, line: str, why: str) -> None:
    path = write(tmp_path / "bad.tsv", [*tokens("The", "cell"), "", *tokens("It"), line, *tokens("grows")])
    with pytest.raises(SourceFormatError) as err:
        list(read_conll(path))
    assert err.value.path == path and err.value.line == 5, why
    assert "token<TAB>tag" in str(err.value) and "bad.tsv:5" in str(err.value)


def test_not_utf8_and_empty_files(tmp_path: Path) -> None:
    path = tmp_path / "latin1.tsv"
    path.write_bytes(b"The\tO\nna\xefve\tO\n")
    with pytest.raises(SourceFormatError, match="UTF-8") as err:
        list(read_conll(path))
    assert err.value.line == 2
    empty = write(tmp_path / "empty.tsv", ["", ""])
    with pytest.raises(SourceFormatError, match="no token line"):
        list(read_conll(empty))


def test_medline_documents(tmp_path: Path) -> None:
    docs = list(medline_documents(write(tmp_path / "genia.tsv", GENIA)))
    assert [d.document_id for d in docs] == ["UI:95369245", "UI:92043714"]
    first, second = docs
    assert [s.text for s in first.title] == ["IL-2 gene expression ."]  # the labels TI - are not text
    assert [s.text for s in first.abstract] == ["Activation of CD28 .", "It requires oxygen ."]
    assert first.abstract[0].tags == ("NN", "IN", "NN", ".")  # gold tags kept, labels' tags dropped
    assert first.field_lines == 3 + 2 + 2 and first.line == 1
    assert [s.text for s in second.title] == ["Charybdotoxin blocks", "channels ."]
    assert [s.text for s in second.abstract] == ["Ion channels open ."]


@pytest.mark.parametrize(
    ("lines", "line", "expected"),
    [
        (tokens("Text", "first"), 1, "a document header"),
        (["UI\tLS", "-\t:", "95A\tCD"], 1, "a header sentence"),
        (["UI\tLS", "-\t:", "1\tCD", "", *tokens("No", "label")], 5, "a field label TI or AB"),
        (["UI\tLS", "-\t:", "1\tCD", "", "TI\tLS", "-\t:"], 5, "text after the field label"),
        (["UI\tLS", "-\t:", "1\tCD", "", "AB\tLS", "-\t:", "x\tNN", "", "TI\tLS", "-\t:", "y\tNN"], 9, "the title"),
        (["UI\tLS", "-\t:", "1\tCD", "", "UI\tLS", "-\t:", "2\tCD"], 1, "title or abstract text"),
    ],
)
def test_medline_errors(tmp_path: Path, lines: list[str], line: int, expected: str) -> None:
    path = write(tmp_path / "g.tsv", lines)
    with pytest.raises(SourceFormatError, match=expected) as err:
        list(medline_documents(path))
    assert err.value.path == path and err.value.line == line


def test_sentence_blocks(tmp_path: Path) -> None:
    lines = []
    for i in range(7):
        lines += [*tokens(f"w{i}", "x"), ""]
    path = write(tmp_path / "train.tsv", lines)
    docs = list(sentence_block_documents(path, "anatem", "train", 3))
    assert [d.document_id for d in docs] == ["anatem:train:000001", "anatem:train:000002", "anatem:train:000003"]
    assert [len(d.sentences) for d in docs] == [3, 3, 1] and not any(d.title for d in docs)
    assert docs[1].line == 10
    with pytest.raises(ValueError, match="sentences_per_document"):
        list(sentence_block_documents(path, "anatem", "train", 0))


def test_ingest_tables(tmp_path: Path) -> None:
    genia = {"train": write(tmp_path / "train.tsv", GENIA), "test": write(tmp_path / "test.tsv", GENIA[:23])}
    tables = ingest_conll_corpus("genia_pos", genia, "medline")
    docs, sents = tables.documents, tables.sentences
    # held-out files first: the document of both files stays in test; its identical train copy is dropped
    assert docs[["document_id", "split"]].values.tolist() == [["UI:95369245", "test"], ["UI:92043714", "train"]]
    assert docs.loc[0, "title"] == "IL-2 gene expression ."
    assert docs.loc[0, "text"] == docs.loc[0, "title"] + " " + docs.loc[0, "abstract"]
    text = docs.set_index("document_id")["text"]
    for row in sents.itertuples():
        assert text[row.document_id][row.start : row.end] == row.text
    assert sents.groupby("document_id")["sentence_id"].max().to_dict() == {"UI:95369245": 2, "UI:92043714": 2}
    assert tables.mentions.empty
    counts = tables.counts.set_index("split")
    assert counts.loc["all", "token_lines"] == sum(1 for line in GENIA + GENIA[:23] if line)
    assert counts.loc["all", "field_lines"] == 7 * 3 and counts.loc["all", "mentions"] == 0
    assert counts.loc["train", "duplicates_dropped"] == 1 and counts.loc["train", "records"] == 2
    assert counts.loc["all", "documents"] == 2 and counts.loc["all", "sentences"] == len(sents) == 6
    assert counts.loc["all", "tokens"] == 4 + 4 + 4 + 2 + 2 + 4  # text tokens of the two kept documents
    for frame, spec in ((docs, DOCUMENTS), (sents, SENTENCES), (tables.mentions, MENTIONS)):
        path = tmp_path / f"{spec.name}.parquet"
        write_table(frame, path, spec)  # the schemas of the corpus contract (the mentions table empty)
        assert pq.read_schema(path).equals(spec.schema)
    blocks = ingest_conll_corpus("x", {"dev": write(tmp_path / "dev.tsv", [*tokens("A", "b"), "", *tokens("C")])})
    assert blocks.documents[["document_id", "title", "abstract", "text"]].values.tolist() == [
        ["x:dev:000001", "", "A b C", "A b C"]
    ]


def test_conflicting_duplicate(tmp_path: Path) -> None:
    other = [line.replace("oxygen", "nitrogen") for line in GENIA]
    files = {"train": write(tmp_path / "train.tsv", GENIA), "dev": write(tmp_path / "dev.tsv", other)}
    with pytest.raises(SourceFormatError, match="other sentences") as err:
        read_conll_corpus("genia_pos", files, "medline")
    assert err.value.path == files["train"] and err.value.line == 1
    with pytest.raises(ValueError, match="document_unit"):
        read_conll_corpus("x", files, "pages")
    with pytest.raises(ValueError, match="keyed by"):
        read_conll_corpus("x", {"devel": files["dev"]})
