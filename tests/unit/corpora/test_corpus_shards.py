"""Corpus shards: scatter items, globs, byte-range parts of text files, document-id hashing, PubMed XML."""

from __future__ import annotations

import gzip
from pathlib import Path

import pytest
from pubmed_fixture import PUBMED_XML, write_pubmed

from biosem.corpora.pubmed_xml import read_pubmed_xml
from biosem.corpora.shards import (
    expand_corpus_files,
    file_parts,
    parse_scatter_item,
    read_lines,
    shard_mask,
)
from biosem.errors import SourceFormatError, SourceNotFoundError


def test_scatter_item() -> None:
    assert parse_scatter_item("1-of-1") == (0, 1)
    assert parse_scatter_item("7-of-7") == (6, 7)
    for bad in ("0-of-3", "4-of-3", "3", "a-of-b"):
        with pytest.raises(ValueError, match="scatter item"):
            parse_scatter_item(bad)


def test_expand_globs(tmp_path: Path) -> None:
    for name in ("b.xml.gz", "a.xml.gz", "c.txt"):
        (tmp_path / name).write_bytes(b"x")
    files = expand_corpus_files([str(tmp_path / "c.txt"), str(tmp_path / "*.xml.gz"), str(tmp_path / "a.xml.gz")])
    assert [Path(f).name for f in files] == ["c.txt", "a.xml.gz", "b.xml.gz"]  # sorted matches, no repeat
    with pytest.raises(SourceNotFoundError, match="matches no file"):
        expand_corpus_files([str(tmp_path / "*.tsv")])


def test_shard_mask_partitions_ids() -> None:
    ids = [str(i) for i in range(1000)] + ["PMID:1", "PMID:1"]
    for n in (1, 3, 7):
        masks = [shard_mask(ids, k, n) for k in range(n)]
        assert sum(m.astype(int) for m in masks).tolist() == [1] * len(ids)  # every id in exactly one shard
        assert all(m[-1] == m[-2] for m in masks)  # copies of an id meet
        if n > 1:
            assert min(m.sum() for m in masks) > 1000 / n / 2  # roughly balanced
    # stable across runs and machines (pandas' SipHash with its fixed key): pinned values
    shard_of = {i: [k for k in range(7) if shard_mask([i], k, 7)[0]] for i in ("12345", "PMID:1", "a")}
    assert shard_of == {"12345": [2], "PMID:1": [5], "a": [3]}


@pytest.mark.parametrize("n", [1, 2, 3, 7, 50])
def test_file_parts_cover_every_line_once(tmp_path: Path, n: int) -> None:
    lines = [f"document {i} " + "word " * (i % 13) + "\n" for i in range(200)]
    plain = tmp_path / "a.txt"
    plain.write_text("".join(lines[:120]), encoding="utf-8")
    packed = tmp_path / "b.txt.gz"
    with gzip.open(packed, "wt", encoding="utf-8") as fh:
        fh.write("".join(lines[120:170]))
    last = tmp_path / "c.txt"
    last.write_text("".join(lines[170:]).rstrip("\n"), encoding="utf-8")  # no final newline
    xml = write_pubmed(tmp_path / "d.xml.gz")
    files = [str(plain), str(packed), str(last), str(xml)]
    seen: list[str] = []
    whole: list[str] = []
    for k in range(n):
        for part in file_parts(files, k, n):
            if part.path in (str(packed), str(xml)):
                assert part.whole
                whole.append(part.path)
            if part.pubmed:
                continue
            seen += [line.decode("utf-8").rstrip("\n") + "\n" for _, line in read_lines(part)]
    assert sorted(whole) == [str(packed), str(xml)]  # each unsplittable file in exactly one shard
    assert sorted(seen) == sorted(lines)


def test_read_lines_offsets(tmp_path: Path) -> None:
    path = tmp_path / "a.txt"
    path.write_bytes(b"ab\ncd\n\nef\n")
    parts = file_parts([str(path)], 0, 1)
    assert list(read_lines(parts[0])) == [(0, b"ab\n"), (3, b"cd\n"), (6, b"\n"), (7, b"ef\n")]
    # 10 bytes in 3 shards: [0, 3), [3, 6), [6, 10): a line goes where its first byte is
    got = [[line for _, line in read_lines(p)] for k in range(3) for p in file_parts([str(path)], k, 3)]
    assert got == [[b"ab\n"], [b"cd\n"], [b"\n", b"ef\n"]]


def test_pubmed_xml(tmp_path: Path) -> None:
    articles = list(read_pubmed_xml(write_pubmed(tmp_path / "pubmed25n0001.xml.gz")))
    assert [a.pmid for a in articles] == ["1001", "1002", "1004"]  # no book article, no deleted citation
    first = articles[0]
    assert first.title == "Effect of Escherichia coli on tumour growth."
    assert first.abstract == "Tumours grow. We measured CO2 in mice. Growth slowed."  # sections joined, no labels
    assert articles[1].abstract == "" and articles[1].text == "A title without an abstract."
    assert articles[2].text == "Plain abstract. Cells divide."


def test_pubmed_xml_errors(tmp_path: Path) -> None:
    broken = write_pubmed(tmp_path / "broken.xml.gz", PUBMED_XML[:-30])
    with pytest.raises(SourceFormatError, match="well-formed PubMed XML"):
        list(read_pubmed_xml(broken))
    no_pmid = PUBMED_XML.replace(b'<PMID Version="1">1002</PMID>', b"")
    with pytest.raises(SourceFormatError, match="no PMID") as err:
        list(read_pubmed_xml(write_pubmed(tmp_path / "nopmid.xml.gz", no_pmid)))
    starts = [i for i, line in enumerate(no_pmid.split(b"\n"), 1) if line.strip() == b"<PubmedArticle>"]
    assert err.value.line == starts[1]  # the start tag of the article without PMID
