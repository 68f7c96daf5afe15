"""CRAFT ingestion on a tiny hand-written tarball: both Knowtator dialects, discontinuous mentions,
annotation sets, notices, sentences by line, each bad input, and shards."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest
from craft_fixture import GO_BP, MODULES, TEXTS, knowtator2_xml, knowtator_xml, span_of, write_craft

from biosem.analogies.frequency import DOCUMENT_SEPARATOR, document_chunks
from biosem.corpora.craft import ingest_craft, join_spans, parse_notice, read_craft, trim_span
from biosem.corpora.knowtator import obo_curie, read_knowtator, read_knowtator2
from biosem.corpora.schemas import DOCUMENTS, MENTIONS, NOTICES, SENTENCES
from biosem.corpora.sentences import Segmenter
from biosem.errors import SourceFormatError
from biosem.io import to_arrow, write_table
from biosem.simlex.sharding import shard_documents

GO_BP_FILE = "concept-annotation/GO_BP/GO_BP/knowtator/{}.txt.knowtator.xml"
MONDO_FILE = "concept-annotation/MONDO/MONDO_without_genotype_annotations/knowtator-2/{}.xml"


@pytest.fixture
def tarball(tmp_path: Path) -> Path:
    return write_craft(tmp_path)


def _ingest(archive: Path, annotation_set: str = "proper", processes: int = 1):
    return ingest_craft("craft", archive, Segmenter(), annotation_set, MODULES, processes)


# ------------------------------------------------------------------------------------------------
# readers
# ------------------------------------------------------------------------------------------------
def test_knowtator_reader_gives_class_spans_and_lines() -> None:
    anns = [
        ("A1", "GO:0010467", "gene expression", [span_of("1001", "Gene expression")]),
        ("A2", "CL_GO_EXT:cell", "cell", [span_of("1001", "agenesis of"), span_of("1001", "corpus callosum", 2)]),
    ]
    got = read_knowtator(knowtator_xml("1001", anns).encode(), "f.xml", "1001", TEXTS["1001"])
    assert [(a.annotation_id, a.class_id, a.spans) for a in got] == [(a, c, tuple(s)) for a, c, _, s in anns]
    assert [a.extension_class for a in got] == [False, True]
    assert all(a.line for a in got)


def test_knowtator2_reader_turns_obo_purls_into_curies() -> None:
    anns = [("1001-2", "MONDO:0009022", "x", [span_of("1001", "agenesis of"), span_of("1001", "corpus callosum", 2)])]
    got = read_knowtator2(knowtator2_xml("1001", anns).encode(), "f.xml", "1001", TEXTS["1001"])
    assert [(a.annotation_id, a.class_id, len(a.spans)) for a in got] == [("1001-2", "MONDO:0009022", 2)]
    assert obo_curie("http://purl.obolibrary.org/obo/HP_0001660") == "HP:0001660"
    assert obo_curie("http://example.org/MONDO_1") is None


def test_span_helpers() -> None:
    assert join_spans([(5, 9), (0, 3), (5, 9), (7, 12), (12, 14)]) == [(0, 3), (5, 14)]
    assert trim_span("ab  cd \n\n", 2, 9) == (4, 6) and trim_span("a   b", 1, 4) == (1, 1)


def test_notice_layout_and_errors(tmp_path: Path) -> None:
    text = "J. 2001; 1: 2.\nPubMed ID: 7\n\nAuthor\n\nhttp://www.ncbi.nlm.nih.gov/pmc/articles/PMC9\n\nCopyright.\n"
    got = parse_notice(text, "n.copyright", "7", "PMC9")
    assert (got.pmcid, got.url, got.citation, got.statement) == (
        "PMC9",
        "http://www.ncbi.nlm.nih.gov/pmc/articles/PMC9",
        "J. 2001; 1: 2.",
        "Copyright.",
    )
    assert got.notice == text.rstrip()
    with pytest.raises(SourceFormatError, match="PubMed ID: 8"):
        parse_notice(text, "n.copyright", "8", "PMC9")
    with pytest.raises(SourceFormatError, match="URL of PMC10"):
        parse_notice(text, "n.copyright", "7", "PMC10")
    with pytest.raises(SourceFormatError, match="one line holding the article's URL"):
        parse_notice(text.replace("http://", "see http://"), "n.copyright", "7", "PMC9")


# ------------------------------------------------------------------------------------------------
# the corpus
# ------------------------------------------------------------------------------------------------
def test_ingest_tables(tarball: Path) -> None:
    tables = _ingest(tarball)
    for frame, spec in (
        (tables.documents, DOCUMENTS),
        (tables.sentences, SENTENCES),
        (tables.mentions, MENTIONS),
        (tables.notices, NOTICES),
    ):
        to_arrow(frame, spec)  # the shared schemas, checked
    docs = tables.documents.set_index("document_id")
    assert docs["split"].to_dict() == {"1001": "train", "1002": "dev"}
    assert docs.loc["1001", "title"] == "Agenesis of the corpus callosum in mice" and docs.loc["1001", "abstract"] == ""
    assert (docs["text"] == pd.Series(TEXTS)).all()
    # sentences: one per line (headings apart), the paragraph split by pysbd; "E. coli" not split
    sents = tables.sentences[tables.sentences["document_id"] == "1001"]["text"].tolist()
    assert sents == [
        "Agenesis of the corpus callosum in mice",
        "Abstract",
        "We studied agenesis of the corpus callosum in mice.",
        "Gene expression was low in E. coli cultures.",
    ]
    m = tables.mentions
    assert m.groupby("type").size().to_dict() == {"GO_BP": 3, "MONDO": 2, "NCBITaxon": 1}
    disc = m[m["discontinuous"]]
    assert len(disc) == 1
    row = disc.iloc[0]
    assert row["text"] == "agenesis of the corpus callosum" and row["concept_ids"] == ["MONDO:0009022"]
    assert [tuple(s.values()) for s in row["spans"]] == [
        span_of("1001", "agenesis of"),
        span_of("1001", "corpus callosum", 2),
    ]
    assert (row["start"], row["end"]) == (row["spans"][0]["start"], row["spans"][-1]["end"])
    assert m[~m["discontinuous"]]["spans"].map(len).eq(1).all()
    # offsets: document and sentence
    text = m["document_id"].map(docs["text"])
    assert all(t[s:e] == x for t, s, e, x in zip(text, m["start"], m["end"], m["text"], strict=True))
    sent = tables.sentences.set_index(["document_id", "sentence_id"])["text"]
    s_text = sent.reindex(pd.MultiIndex.from_frame(m[["document_id", "sentence_id"]])).tolist()
    assert all(
        t[a:b] == x for t, a, b, x in zip(s_text, m["sentence_start"], m["sentence_end"], m["text"], strict=True)
    )
    # mention ids in document order (start, end, module)
    first = m[m["document_id"] == "1001"].sort_values("mention_id")
    assert first["text"].tolist() == [
        "Agenesis of the corpus callosum",
        "agenesis of the corpus callosum",
        "Gene expression",
        "E. coli",
    ]
    # notices: one per document, joined by document id
    notices = tables.notices.set_index("document_id")
    assert notices.loc["1002", "url"] == "http://www.ncbi.nlm.nih.gov/pmc/articles/PMC1002"
    assert notices.loc["1001", "statement"].startswith("Copyright ©")
    counts = tables.counts.set_index("split")
    assert counts.loc["all", ["documents", "sentences", "annotations", "mentions", "discontinuous"]].tolist() == [
        2,
        len(tables.sentences),
        6,
        6,
        1,
    ]
    modules = tables.module_counts.set_index(["split", "module"])
    assert modules.loc[("all", "MONDO"), ["annotations", "mentions", "discontinuous", "documents"]].tolist() == [
        2,
        2,
        1,
        1,
    ]
    assert modules.loc[("dev", "GO_BP"), "mentions"] == 2


def test_outputs_do_not_depend_on_processes(tarball: Path) -> None:
    one, two = _ingest(tarball, processes=1), _ingest(tarball, processes=2)
    for a, b in ((one.sentences, two.sentences), (one.mentions, two.mentions), (one.counts, two.counts)):
        pd.testing.assert_frame_equal(a, b)


def test_extension_set_reads_the_other_folders(tarball: Path) -> None:
    tables = _ingest(tarball, "extensions")
    m = tables.mentions
    assert sorted(c[0] for c in m["concept_ids"] if "_EXT:" in c[0]) == [
        "GO_EXT:observation",
        "NCBITaxon_EXT:mouse",
        "NCBITaxon_EXT:mouse",
    ]
    assert tables.counts.set_index("split").loc["all", "extension_class"] == 3
    assert tables.module_counts.set_index(["split", "module"]).loc[("all", "NCBITaxon"), "annotations"] == 3


def test_quirks_are_counted_not_fatal(tmp_path: Path) -> None:
    """An annotation without a span is dropped, an empty span left out, edge whitespace trimmed, a
    repeated span joined: each counted."""
    anns = [
        *GO_BP["1002"],
        ("GO_BP_9", "GO:0008150", "biological_process", []),  # no span (GO_BP+extensions 17696610)
        ("GO_BP_10", "GO:0007601", "visual perception", [span_of("1002", "retinal"), span_of("1002", "retinal")]),
    ]
    mondo = [("1002-1", "MONDO:0005283", "retinal disease", [span_of("1002", "retina\n"), (10, 10)])]
    archive = write_craft(
        tmp_path,
        {
            GO_BP_FILE.format("1002"): knowtator_xml("1002", anns).replace("<spannedText></spannedText>", ""),
            MONDO_FILE.format("1002"): knowtator2_xml("1002", mondo),
        },
    )
    tables = _ingest(archive)
    counts = tables.counts.set_index("split").loc["dev"]
    quirks = ["annotations", "mentions", "dropped_no_span", "spans_joined", "spans_trimmed", "empty_spans"]
    assert counts[quirks].to_dict() == dict(zip(quirks, [5, 4, 1, 1, 1, 1], strict=True))
    m = tables.mentions[tables.mentions["document_id"] == "1002"]
    mondo_row = m[m["type"] == "MONDO"].iloc[0]
    assert mondo_row["text"] == "retina" and not mondo_row["discontinuous"]
    assert "retinal" in tables.mentions["text"].tolist()


# ------------------------------------------------------------------------------------------------
# bad input: SourceFormatError naming the member (and the annotation id); nothing returned
# ------------------------------------------------------------------------------------------------
def _member(archive: Path, relative: str) -> str:
    return str(archive / "CRAFT-5.0.2" / relative)


@pytest.mark.parametrize(
    ("relative", "content", "named"),
    [
        pytest.param(
            GO_BP_FILE.format("1001"),
            knowtator_xml("1001", [("GO_BP_1", "GO:0010467", "x", [(100, 9999)])]),
            ["GO_BP_1", "a span within the document text", "100-9999"],
            id="span-outside-text",
        ),
        pytest.param(
            GO_BP_FILE.format("1001"),
            knowtator_xml("1001", GO_BP["1001"], spanned={"GO_BP_1": "Gene regulation"}),
            ["GO_BP_1", "spannedText", "Gene regulation"],
            id="spanned-text-differs",
        ),
        pytest.param(
            GO_BP_FILE.format("1001"),
            knowtator_xml("1001", GO_BP["1001"]).replace("</annotation>\n", "", 1),
            ["well-formed Knowtator XML"],
            id="malformed-xml",
        ),
        pytest.param(
            GO_BP_FILE.format("1001"),
            knowtator_xml("1001", [("GO_BP_1", "GO_EXT:regulation", "x", [span_of("1001", "Gene expression")])]),
            ["GO_BP_1", "a proper class", "GO_EXT:regulation"],
            id="extension-class-in-proper-set",
        ),
        pytest.param(
            GO_BP_FILE.format("1001"),
            knowtator_xml("1001", GO_BP["1001"]).replace('<classMention id="GO_BP_1">', '<classMention id="GO_BP_X">'),
            ["GO_BP_1", "a classMention with its id"],
            id="annotation-without-class",
        ),
        pytest.param(
            GO_BP_FILE.format("1001"),
            knowtator_xml("1001", GO_BP["1001"]).replace('textSource="1001.txt"', 'textSource="1002.txt"'),
            ["annotations of document 1001.txt", "1002.txt"],
            id="other-document",
        ),
        pytest.param(
            MONDO_FILE.format("1001"),
            knowtator2_xml("1001", [("1001-1", "MONDO:0009022", "x", [span_of("1001", "Agenesis of")])]).replace(
                ">Agenesis of<", ">agenesis of<"
            ),
            ["1001-1", "span text", "agenesis of"],
            id="knowtator2-span-text-differs",
        ),
        pytest.param(
            MONDO_FILE.format("1001"),
            knowtator2_xml("1001", [("1001-1", "MONDO:0009022", "x", [(5, 99999)])]),
            ["1001-1", "a span within the document text"],
            id="knowtator2-span-outside-text",
        ),
        pytest.param(
            MONDO_FILE.format("1001"),
            knowtator2_xml("1001", [("1001-1", "MONDO:1", "x", [span_of("1001", "mice")])]).replace(
                "http://purl.obolibrary.org/obo/MONDO_1", "MONDO:1"
            ),
            ["1001-1", "OBO PURL"],
            id="knowtator2-class-not-a-purl",
        ),
        pytest.param(
            "concept-annotation/FOO/FOO/knowtator/1001.txt.knowtator.xml",
            knowtator_xml("1001", []),
            ["an annotation file of a CRAFT module", "'FOO'"],
            id="unknown-module",
        ),
        pytest.param(
            "articles/txt/1003.txt",
            "An article in no split list\n",
            ["an article listed in a split list", "1003"],
            id="article-in-no-split",
        ),
    ],
)
def test_bad_input_names_member_and_annotation(tmp_path: Path, relative: str, content: str, named: list[str]) -> None:
    archive = write_craft(tmp_path, {relative: content})
    with pytest.raises(SourceFormatError) as err:
        _ingest(archive)
    message = str(err.value)
    assert str(err.value.path) == _member(archive, relative), message
    for part in named:
        assert part in message, message


@pytest.mark.parametrize(
    "relative",
    [
        GO_BP_FILE.format("1002"),
        MONDO_FILE.format("1001"),
        "articles/txt/1002.txt",
        "articles/txt/1001.copyright",
        "articles/ids/craft-ids-test.txt",
        "articles/ids/craft-idmappings.txt",
    ],
)
def test_missing_member(tmp_path: Path, relative: str) -> None:
    archive = write_craft(tmp_path, {relative: None})
    with pytest.raises(SourceFormatError, match=f"a member CRAFT-5.0.2/{relative}; found 'no such member'") as err:
        _ingest(archive)
    assert err.value.path == archive


def test_not_a_tarball_and_bad_arguments(tmp_path: Path, tarball: Path) -> None:
    truncated = tmp_path / "cut.tar.gz"
    truncated.write_bytes(tarball.read_bytes()[:300])
    with pytest.raises(SourceFormatError, match="a complete tar archive"):
        _ingest(truncated)
    with pytest.raises(ValueError, match="expected modules of"):
        ingest_craft("craft", tarball, Segmenter(), "proper", ["GO"])
    with pytest.raises(ValueError, match="expected modules of"):
        read_craft(tarball, "both")


def test_a_module_subset_reads_only_its_files(tmp_path: Path) -> None:
    # a broken file of a module not asked for is not read
    archive = write_craft(tmp_path, {GO_BP_FILE.format("1001"): "<broken"})
    docs = read_craft(archive, "proper", ["MONDO", "NCBITaxon"])
    assert [sorted(d.annotations) for d in docs] == [["MONDO", "NCBITaxon"]] * 2


# ------------------------------------------------------------------------------------------------
# shards: CRAFT documents are counted once whatever the number of shards
# ------------------------------------------------------------------------------------------------
def test_shards_count_craft_documents_once(tmp_path: Path, tarball: Path) -> None:
    """The term counts read the documents table, the word counts the sentences table, by shard of the
    document id: every CRAFT document is in exactly one shard, whole, for 1, 3 and 7 shards."""
    tables = _ingest(tarball)
    documents = tmp_path / "documents.parquet"
    write_table(tables.documents, documents, DOCUMENTS)
    sentences = tables.sentences[["corpus", "document_id", "sentence_id", "text"]]
    whole = {d.document_id: d.texts for d in shard_documents([sentences], [], 0, 1)[0]}
    assert set(whole) == {"1001", "1002"}
    for n in (1, 3, 7):
        texts: list[bytes] = []
        by_sentences: dict[str, tuple[str, ...]] = {}
        for k in range(n):
            texts += [
                t for chunk in document_chunks([documents], shard=(k, n)) for t in chunk.split(DOCUMENT_SEPARATOR)
            ]
            shard = shard_documents([sentences], [], k, n)[0]
            assert not set(by_sentences) & {d.document_id for d in shard}
            by_sentences.update({d.document_id: d.texts for d in shard})
        assert sorted(texts) == sorted(t.encode() for t in TEXTS.values())
        assert by_sentences == whole
