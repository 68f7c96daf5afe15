"""PubTator ingestion on hand-made snippets: each corpus quirk, duplicates, offsets and bad input."""

from __future__ import annotations

from pathlib import Path

import pyarrow.parquet as pq
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from biosem.corpora.ingest import ingest_corpus, normalise_concept_ids
from biosem.corpora.pubtator import read_pmid_list, read_pubtator
from biosem.corpora.schemas import DOCUMENTS, MENTIONS, SENTENCES
from biosem.corpora.sentences import Segmenter
from biosem.errors import SourceFormatError
from biosem.io import write_table

T = "\t"


def _write(tmp_path: Path, name: str, lines: list[str]) -> Path:
    path = tmp_path / name
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def _doc(
    pmid: str,
    title: str,
    abstract: str,
    mentions: list[tuple[str, str, str]],
    extra: list[str] = (),
) -> list[str]:
    """PubTator lines; mentions as (mention text, type, id column), located by their first occurrence."""
    text = f"{title} {abstract}"
    lines = [f"{pmid}|t|{title}", f"{pmid}|a|{abstract}"]
    cursor = 0
    for mention, mtype, cid in mentions:
        start = text.index(mention, cursor)
        lines.append(T.join([pmid, str(start), str(start + len(mention)), mention, mtype, cid]))
        cursor = start + 1
    return lines + list(extra) + [""]


# ------------------------------------------------------------------------------------------------
# concept ids
# ------------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("raw", "namespace", "expected"),
    [
        ("D014262", "MESH", ["MESH:D014262"]),  # BC5CDR / NCBI bare MeSH
        ("C535662", "MESH", ["MESH:C535662"]),  # MeSH supplementary concept
        ("-1", "MESH", []),  # BC5CDR: no id
        ("", "MESH", []),
        (
            "D001943|D010051",
            "MESH",
            ["MESH:D001943", "MESH:D010051"],
        ),  # NCBI composite (alternatives)
        (
            "D007674+D006222",
            "MESH",
            ["MESH:D007674", "MESH:D006222"],
        ),  # NCBI composite (conjunction)
        ("OMIM:300322+OMIM:102600", "MESH", ["OMIM:300322", "OMIM:102600"]),
        ("C535918|OMIM:115470", "MESH", ["MESH:C535918", "OMIM:115470"]),
        ("MESH:C535662", "MESH", ["MESH:C535662"]),  # already prefixed (NCBI test set)
        (" D008661", "MESH", ["MESH:D008661"]),  # NCBI: leading space
        ("OMIM:106210 ", "MESH", ["OMIM:106210"]),  # NCBI: trailing space
        ("D020225|-", "MESH", ["MESH:D020225"]),  # "-" part of a composite
        ("D002544|-1", "MESH", ["MESH:D002544"]),  # BC5CDR dev 8638876: "-1" part of a composite
        ("D002971|D002971", "MESH", ["MESH:D002971"]),  # duplicates removed, order kept
        ("UMLS:C0854135", "UMLS", ["UMLS:C0854135"]),  # MedMentions (scispacy copy)
        ("C4308010", "UMLS", ["UMLS:C4308010"]),  # MedMentions (original release)
        ("C080122,C090663,D019335", "MESH", ["MESH:C080122", "MESH:C090663", "MESH:D019335"]),  # BioRED lists
        ("3172,3651,6927", "NCBIGene", ["NCBIGene:3172", "NCBIGene:3651", "NCBIGene:6927"]),  # BioRED genes
        ("9606", "NCBITaxon", ["NCBITaxon:9606"]),
        (" CVCL_1452", "Cellosaurus", ["Cellosaurus:CVCL_1452"]),
        ("c|DEL|1181_1186+20|26", "tmVar", ["tmVar:c|DEL|1181_1186+20|26"]),  # a variant is one id
        ("rs74805019", "tmVar", ["tmVar:rs74805019"]),
        ("-", "tmVar", []),
    ],
)
def test_normalise_concept_ids(raw: str, namespace: str, expected: list[str]) -> None:
    assert normalise_concept_ids(raw, namespace) == expected


@pytest.mark.parametrize("raw", ["X123", "MESH:12345", "UMLS:C123", "OMIM:abc", "D0142 62"])
def test_malformed_concept_ids_rejected(raw: str) -> None:
    with pytest.raises(ValueError, match="concept id"):
        normalise_concept_ids(raw, "MESH")


# ------------------------------------------------------------------------------------------------
# BC5CDR: CID relation lines, -1 ids, composite mention 7th column, train file repeating dev
# ------------------------------------------------------------------------------------------------
def test_bc5cdr_quirks(tmp_path: Path) -> None:
    lines = _doc(
        "227508",
        "Naloxone reverses the antihypertensive effect of clonidine.",
        "It was inhibited by nalozone. Hemorrhagic cystitis occurred.",
        [
            ("Naloxone", "Chemical", "D009270"),
            ("clonidine", "Chemical", "D003000"),
            ("nalozone", "Chemical", "-1"),
        ],
        [
            f"227508{T}CID{T}D008750{T}D007022",
        ],
    )
    text = (
        "Naloxone reverses the antihypertensive effect of clonidine. It was inhibited by nalozone. "
        "Hemorrhagic cystitis occurred."
    )
    start = text.index("Hemorrhagic")
    # composite mention with its component texts in a 7th column (bioc checks ids vs texts)
    lines.insert(
        5,
        T.join(
            [
                "227508",
                str(start),
                str(start + 20),
                "Hemorrhagic cystitis",
                "Disease",
                "D006470|D003556",
                "Hemorrhagic|cystitis",
            ]
        ),
    )
    train = _write(tmp_path, "train.txt", lines)
    tables = ingest_corpus("bc5cdr", {"train": train}, "MESH", Segmenter())
    m = tables.mentions
    assert m["text"].tolist() == ["Naloxone", "clonidine", "nalozone", "Hemorrhagic cystitis"]
    assert m["concept_ids"].tolist() == [
        ["MESH:D009270"],
        ["MESH:D003000"],
        [],
        ["MESH:D006470", "MESH:D003556"],
    ]
    counts = tables.counts.set_index("split")
    assert counts.loc["train", "relations"] == 1  # CID read, counted, not stored
    assert counts.loc["train", "mentions_without_ids"] == 1
    assert counts.loc["train", "composite_ids"] == 1
    assert tables.documents["text"].tolist() == [text]


def test_composite_text_column_must_match_ids(tmp_path: Path) -> None:
    lines = _doc("1", "Hemorrhagic cystitis.", "None.", [])
    lines.insert(
        2,
        T.join(["1", "0", "20", "Hemorrhagic cystitis", "Disease", "D006470|D003556", "Hemorrhagic"]),
    )
    with pytest.raises(SourceFormatError) as err:
        list(read_pubtator(_write(tmp_path, "c.txt", lines)))
    assert err.value.line == 3


def test_document_in_train_and_dev_stays_in_dev(tmp_path: Path) -> None:
    """The mirrored BC5CDR training file repeats the development abstracts after its own."""
    own = _doc("100", "Own title.", "Own abstract.", [("Own", "Chemical", "D000001")])
    shared = _doc("200", "Shared title.", "Shared abstract.", [("Shared", "Disease", "D000002")])
    train = _write(tmp_path, "train.txt", own + shared)
    dev = _write(tmp_path, "dev.txt", shared)
    tables = ingest_corpus("bc5cdr", {"train": train, "dev": dev}, "MESH", Segmenter())
    assert dict(zip(tables.documents["document_id"], tables.documents["split"], strict=True)) == {
        "100": "train",
        "200": "dev",
    }
    counts = tables.counts.set_index("split")
    assert counts.loc["train", "records"] == 2
    assert counts.loc["train", "duplicates_dropped"] == 1
    assert counts.loc["train", "documents"] == 1
    assert counts.loc["dev", "documents"] == 1
    assert counts.loc["all", "documents"] == 2
    assert tables.mentions.groupby("document_id").size().to_dict() == {"100": 1, "200": 1}


# ------------------------------------------------------------------------------------------------
# NCBI Disease: composite ids, OMIM, PMID twice, trimmed mention text, no final blank line
# ------------------------------------------------------------------------------------------------
NCBI_DOC = _doc(
    "8528200",
    "Instability of the CAG repeat in Machado-Joseph disease.",
    "Breast and ovarian cancer and Pelizaeus-Merzbacher disease (PMD) co-occur.",
    [
        ("Machado-Joseph disease", "SpecificDisease", "D017827"),
        ("Breast and ovarian cancer", "CompositeMention", "D001943|D010051"),
        ("Pelizaeus-Merzbacher disease", "SpecificDisease", "OMIM:312080"),
        ("PMD", "SpecificDisease", "OMIM:312080 "),
    ],
)


def test_ncbi_quirks_and_identical_duplicate(tmp_path: Path) -> None:
    other = _doc("9999999", "Huntington disease (HD).", "HD is rare.", [("HD", "SpecificDisease", "D006816")])
    lines = NCBI_DOC + other + NCBI_DOC
    lines = lines[:-1]  # like NCBI's files: no blank line after the last document
    train = _write(tmp_path, "NCBItrainset_corpus.txt", lines)
    tables = ingest_corpus("ncbi_disease", {"train": train}, "MESH", Segmenter())
    assert sorted(tables.documents["document_id"]) == ["8528200", "9999999"]
    counts = tables.counts.set_index("split")
    assert counts.loc["train", "records"] == 3
    assert counts.loc["train", "duplicates_dropped"] == 1
    assert counts.loc["train", "composite_ids"] == 1
    assert counts.loc["train", "ids_trimmed"] == 1
    m = tables.mentions[tables.mentions["document_id"] == "8528200"]
    assert m["concept_ids"].tolist() == [
        ["MESH:D017827"],
        ["MESH:D001943", "MESH:D010051"],
        ["OMIM:312080"],
        ["OMIM:312080"],
    ]
    assert m["type"].tolist() == [
        "SpecificDisease",
        "CompositeMention",
        "SpecificDisease",
        "SpecificDisease",
    ]


def test_conflicting_duplicate_is_an_error(tmp_path: Path) -> None:
    changed = [line.replace("D017827", "D000001") for line in NCBI_DOC]
    path = _write(tmp_path, "train.txt", NCBI_DOC + changed)
    with pytest.raises(SourceFormatError, match="8528200") as err:
        ingest_corpus("ncbi_disease", {"train": path}, "MESH", Segmenter())
    assert err.value.line == len(NCBI_DOC) + 1  # the second title line
    assert "train.txt:1" in str(err.value)  # names the first copy


def test_mention_text_with_trailing_space_accepted_and_counted(tmp_path: Path) -> None:
    title, abstract = (
        "Epilepsy.",
        'Generalized epilepsy and febrile seizures " plus " (GEFS +) is familial.',
    )
    text = f"{title} {abstract}"
    span = 'Generalized epilepsy and febrile seizures " plus "'
    start = text.index(span)
    lines = [
        f"1|t|{title}",
        f"1|a|{abstract}",
        T.join(
            [
                "1",
                str(start),
                str(start + len(span)),
                span + "  ",
                "SpecificDisease",
                "D004829+D003294",
            ]
        ),
        "",
    ]
    tables = ingest_corpus("ncbi_disease", {"train": _write(tmp_path, "t.txt", lines)}, "MESH", Segmenter())
    assert tables.mentions["text"].tolist() == [span]
    assert tables.counts.set_index("split").loc["train", "mention_text_trimmed"] == 1


# ------------------------------------------------------------------------------------------------
# MedMentions: UMLS: prefixes, semantic-type column, one file + split lists, gzip
# ------------------------------------------------------------------------------------------------
MM_DOC = _doc(
    "25763772",
    "DCTN4 as a modifier of chronic Pseudomonas aeruginosa infection in cystic fibrosis",
    "Pseudomonas aeruginosa (Pa) infection in cystic fibrosis (CF) patients is associated with worse outcomes.",
    [
        ("DCTN4", "T116,T123", "UMLS:C4308010"),
        ("chronic Pseudomonas aeruginosa infection", "T047", "C0854135"),
        ("cystic fibrosis", "UnknownType", "UMLS:C0010674"),
    ],
)


def _mm_lists(tmp_path: Path) -> dict[str, Path]:
    return {
        "train": _write(tmp_path, "trng.txt", ["25763772", "1111111"]),
        "dev": _write(tmp_path, "dev.txt", ["2222222"]),
        "test": _write(tmp_path, "test.txt", ["3333333"]),
    }


def test_medmentions_quirks(tmp_path: Path) -> None:
    import gzip

    corpus = tmp_path / "corpus_pubtator.txt.gz"
    corpus.write_bytes(gzip.compress(("\n".join(MM_DOC) + "\n").encode("utf-8")))
    tables = ingest_corpus("medmentions", {"all": corpus}, "UMLS", Segmenter(), _mm_lists(tmp_path))
    assert tables.documents["split"].tolist() == ["train"]
    m = tables.mentions
    assert m["type"].tolist() == ["T116,T123", "T047", "UnknownType"]
    assert m["concept_ids"].tolist() == [["UMLS:C4308010"], ["UMLS:C0854135"], ["UMLS:C0010674"]]
    # title (82 characters, no final period) is a sentence of its own
    first = tables.sentences.iloc[0]
    assert (first["start"], first["end"]) == (0, 82)


def test_medmentions_document_outside_split_lists(tmp_path: Path) -> None:
    lines = MM_DOC + _doc("4444444", "Unlisted.", "Abstract.", [])
    with pytest.raises(SourceFormatError, match="split PMID list") as err:
        ingest_corpus(
            "medmentions",
            {"all": _write(tmp_path, "c.txt", lines)},
            "UMLS",
            Segmenter(),
            _mm_lists(tmp_path),
        )
    assert err.value.line == len(MM_DOC) + 1


def test_pmid_list_rejects_repeats(tmp_path: Path) -> None:
    assert read_pmid_list(_write(tmp_path, "ok.txt", ["1", "", "2"])) == ["1", "2"]
    with pytest.raises(SourceFormatError) as err:
        read_pmid_list(_write(tmp_path, "bad.txt", ["1", "2", "1"]))
    assert err.value.line == 3


# ------------------------------------------------------------------------------------------------
# offsets and malformed input
# ------------------------------------------------------------------------------------------------
def test_title_abstract_offsets_are_joined_by_one_space(tmp_path: Path) -> None:
    # An abstract with edge whitespace is kept byte for byte (bioc's reader strips lines).
    lines = [
        "5|t|Aspirin use.",
        "5|a|Aspirin helps.  ",
        T.join(["5", "13", "20", "Aspirin", "Chemical", "D001241"]),
        "",
    ]
    tables = ingest_corpus("c", {"test": _write(tmp_path, "t.txt", lines)}, "MESH", Segmenter())
    doc = tables.documents.iloc[0]
    assert doc["text"] == "Aspirin use. Aspirin helps.  "
    assert doc["abstract"] == "Aspirin helps.  "
    mention = tables.mentions.iloc[0]
    assert (mention["start"], mention["end"], mention["sentence_id"]) == (13, 20, 1)


@pytest.mark.parametrize(
    ("bad_line", "match"),
    [
        (T.join(["5", "0", "7", "Aspirn", "Chemical", "D001241"]), "mention text"),  # wrong text
        (
            T.join(["5", "1", "8", "Aspirin", "Chemical", "D001241"]),
            "mention text",
        ),  # shifted offsets
        (
            T.join(["5", "0", "99", "Aspirin", "Chemical", "D001241"]),
            "offsets within",
        ),  # beyond the text
        (T.join(["5", "0", "7", "Aspirin", "Chemical", "X1"]), "concept id"),  # malformed id
    ],
)
def test_wrong_mentions_raise_with_line(tmp_path: Path, bad_line: str, match: str) -> None:
    lines = [
        "5|t|Aspirin use.",
        "5|a|It helps.",
        T.join(["5", "0", "7", "Aspirin", "Chemical", "D001241"]),
        bad_line,
        "",
    ]
    path = _write(tmp_path, "bad.txt", lines)
    with pytest.raises(SourceFormatError, match=match) as err:
        ingest_corpus("c", {"test": path}, "MESH", Segmenter())
    assert err.value.line == 4
    assert err.value.path == path


@pytest.mark.parametrize(
    ("lines", "line"),
    [
        (["5|t|T.", "5|a|A.", "5 0 1 T Chemical D1"], 3),  # spaces instead of tabs
        (
            ["5|t|T.", "5|a|A.", T.join(["5", "x", "1", "T", "Chemical", "D1"])],
            3,
        ),  # 6 columns, no offsets
        (
            ["5|t|T.", "5|a|A.", T.join(["5", "0", "one", "T", "Chemical", "D1"])],
            3,
        ),  # non-integer end
        (["5|t|T.", "5|a|A.", T.join(["5", "1", "0", "T", "Chemical", "D1"])], 3),  # start > end
        (["5|t|T.", "5|a|A.", T.join(["6", "0", "1", "T", "Chemical", "D1"])], 3),  # another PMID
        (["5|t|T.", "6|a|A."], 2),  # abstract of another document
        (["5|a|A."], 1),  # abstract without title
        (["5|t|T.", "5|a|A.", "6|t|U."], 3),  # no blank line between documents
        (
            ["5|t|T.", T.join(["5", "0", "1", "T", "Chemical", "D1"]), "5|a|A."],
            3,
        ),  # abstract after mentions
        (
            ["5|t|T.", "5|a|A.", T.join(["5", "0", "1", "T", "Chemical", "D1", "x", "y"])],
            3,
        ),  # 8 columns
        (["5|t|T.", "5|a|A.", "5\tCID\tD1"], 3),  # 3-column relation
    ],
)
def test_malformed_lines_raise_with_line(tmp_path: Path, lines: list[str], line: int) -> None:
    path = _write(tmp_path, "bad.txt", lines)
    with pytest.raises(SourceFormatError) as err:
        list(read_pubtator(path))
    assert err.value.line == line


def test_crlf_and_five_column_mentions(tmp_path: Path) -> None:
    path = tmp_path / "crlf.txt"
    path.write_bytes(b"7|t|Aspirin.\r\n7|a|Done.\r\n7\t0\t7\tAspirin\tChemical\r\n\r\n")
    (doc,) = list(read_pubtator(path))
    assert doc.document.title == "Aspirin." and doc.document.abstract == "Done."
    (ann,) = doc.document.annotations
    assert (ann.start, ann.end, ann.text, ann.type, ann.id) == (0, 7, "Aspirin", "Chemical", "")
    assert doc.document.relations == []


def test_tables_match_schemas(tmp_path: Path) -> None:
    tables = ingest_corpus("ncbi_disease", {"train": _write(tmp_path, "t.txt", NCBI_DOC)}, "MESH", Segmenter())
    for frame, spec in (
        (tables.documents, DOCUMENTS),
        (tables.sentences, SENTENCES),
        (tables.mentions, MENTIONS),
    ):
        out = tmp_path / f"{spec.name}.parquet"
        assert write_table(frame, out, spec) == len(frame)
        assert pq.read_schema(out).equals(spec.schema)
    m = pq.read_table(tmp_path / "mentions.parquet").to_pandas()
    s = pq.read_table(tmp_path / "sentences.parquet").to_pandas().set_index("sentence_id")
    for row in m.itertuples():
        assert s.loc[row.sentence_id, "text"][row.sentence_start : row.sentence_end] == row.text


# ------------------------------------------------------------------------------------------------
# BioRED: namespaces per mention type, ','-separated ids, tmVar variants, 5-column relation lines
# ------------------------------------------------------------------------------------------------
BIORED_TYPES = {"GeneOrGeneProduct": "NCBIGene", "OrganismTaxon": "NCBITaxon", "SequenceVariant": "tmVar"}


def test_biored_quirks(tmp_path: Path) -> None:
    lines = _doc(
        "10491763",
        "HNF-6 and type II diabetes in patients.",
        "The Pro75Ala variant and glucose.",
        [
            ("HNF-6", "GeneOrGeneProduct", "3175"),
            ("type II diabetes", "DiseaseOrPhenotypicFeature", "D003924,D003920"),
            ("patients", "OrganismTaxon", "9606"),
            ("Pro75Ala", "SequenceVariant", "p|SUB|P|75|A"),
            ("glucose", "ChemicalEntity", "D005947"),
        ],
        ["10491763\tAssociation\t3175\tD003924\tNo"],
    )
    tables = ingest_corpus(
        "biored", {"test": _write(tmp_path, "t.txt", lines)}, "MESH", Segmenter(), type_namespaces=BIORED_TYPES
    )
    assert tables.mentions["concept_ids"].tolist() == [
        ["NCBIGene:3175"],
        ["MESH:D003924", "MESH:D003920"],
        ["NCBITaxon:9606"],
        ["tmVar:p|SUB|P|75|A"],
        ["MESH:D005947"],
    ]
    assert tables.counts.set_index("split").loc["all", "relations"] == 1
    with pytest.raises(ValueError, match="namespace"):
        ingest_corpus("biored", {"test": tmp_path / "t.txt"}, "MESH", Segmenter(), type_namespaces={"Gene": "HGNC"})


# ------------------------------------------------------------------------------------------------
# workflow wiring (biosem.workflow.corpora) on the shipped config
# ------------------------------------------------------------------------------------------------
def test_config_wiring() -> None:
    import yaml
    from conftest import REPO
    from snakemake.utils import validate

    from biosem.workflow.corpora import Corpora

    config = yaml.safe_load((REPO / "config" / "config.yaml").read_text())
    validate(config["corpora"], str(REPO / "workflow" / "schemas" / "corpora.schema.yaml"))
    corpora = Corpora(config)
    assert corpora.corpus_sources("bc5cdr") == {"train": "bc5cdr_train", "dev": "bc5cdr_dev", "test": "bc5cdr_test"}
    assert corpora.corpus_sources("biored") == {"train": "biored_train", "dev": "biored_dev", "test": "biored_test"}
    for split in ("train", "dev", "test"):
        source = config["sources"][f"biored_{split}"]
        assert source["licence"] == "NCBI public domain notice" and len(source["sha256"]) == 64
        assert source["url"].startswith("https://raw.githubusercontent.com/ndlongvn/BioRED-NER-RE/637e02c9746d")
    assert corpora.corpus_sources("medmentions_sample") == {
        "corpus": "medmentions_sample",
        "train_pmids": "medmentions_pmids_train",
        "dev_pmids": "medmentions_pmids_dev",
        "test_pmids": "medmentions_pmids_test",
    }

    class Wildcards:
        corpus = "ncbi_disease"

    assert corpora.inputs(Wildcards)["dev"] == "resources/ncbi_disease_dev/NCBIdevelopset_corpus.txt"
    assert "results/intermediate/sentences/medmentions_sample.parquet" in corpora.targets()
    assert "results/intermediate/mentions/biored.parquet" in corpora.targets()
    # the full MedMentions corpus is configured but its source must be added with its checksum
    with pytest.raises(ValueError, match="medmentions_st21pv"):
        corpora.check("medmentions")
    with pytest.raises(ValueError, match="no entry in corpora.specs"):
        corpora.check("nope")


# ------------------------------------------------------------------------------------------------
# property: any well-formed PubTator document round-trips through the reader and ingestion
# ------------------------------------------------------------------------------------------------
_TEXT = st.text(alphabet=st.sampled_from(list("ab .|:-+Éμ()")), min_size=1, max_size=60)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    title=_TEXT,
    abstract=st.text(alphabet=st.sampled_from(list("ab .|:-+Éμ()")), max_size=80),
    data=st.data(),
)
def test_pubtator_round_trip(tmp_path: Path, title: str, abstract: str, data: st.DataObject) -> None:
    text = f"{title} {abstract}"
    spans = [(i, j) for i in range(len(text)) for j in range(i + 1, min(len(text), i + 8) + 1) if text[i:j].strip()]
    assume(spans)
    chosen = data.draw(st.lists(st.sampled_from(spans), min_size=1, max_size=5))
    ids = data.draw(
        st.lists(
            st.sampled_from(["D000001", "-1", "OMIM:123456|D000002", "C000003+D000004"]),
            min_size=len(chosen),
            max_size=len(chosen),
        )
    )
    lines = [f"42|t|{title}", f"42|a|{abstract}"]
    lines += [
        T.join(["42", str(s), str(e), text[s:e], "Disease", cid]) for (s, e), cid in zip(chosen, ids, strict=True)
    ]
    path = tmp_path / "rt.txt"
    path.write_text("\n".join(lines) + "\n\n", encoding="utf-8")
    tables = ingest_corpus("c", {"dev": path}, "MESH", Segmenter())
    assert tables.documents["text"].tolist() == [text]
    m = tables.mentions
    expected = sorted(((s, e), k) for k, (s, e) in enumerate(chosen))
    assert list(zip(m["start"], m["end"], strict=True)) == [se for se, _ in expected]
    assert m["text"].tolist() == [text[s:e] for (s, e), _ in expected]
    assert m["concept_ids"].tolist() == [normalise_concept_ids(ids[k], "MESH") for _, k in expected]
    sents = tables.sentences.set_index("sentence_id")["text"]
    for row in m.itertuples():
        assert sents[row.sentence_id][row.sentence_start : row.sentence_end] == row.text


@pytest.mark.parametrize("pmid", ["99503X0", "PMC123", "-5"])
def test_a_pmid_must_be_all_digits(tmp_path: Path, pmid: str) -> None:
    path = _write(tmp_path, "bad.txt", ["5|t|T.", "5|a|A.", "", f"{pmid}|t|U.", f"{pmid}|a|B."])
    with pytest.raises(SourceFormatError, match="decimal digits") as err:
        list(read_pubtator(path))
    assert (err.value.path, err.value.line, err.value.found) == (path, 4, pmid)
    assert str(path) in str(err.value) and pmid in str(err.value)


def test_pmid_list_rejects_a_non_numeric_pmid(tmp_path: Path) -> None:
    path = _write(tmp_path, "list.txt", ["1", "99503X0"])
    with pytest.raises(SourceFormatError) as err:
        read_pmid_list(path)
    assert (err.value.path, err.value.line, err.value.found) == (path, 2, "99503X0")


@pytest.mark.parametrize("compress", [False, True])
def test_a_pubtator_line_that_is_not_utf8_names_file_and_line(tmp_path: Path, compress: bool) -> None:
    import gzip

    data = "5|t|T.\n5|a|A caf".encode() + b"\xe9 au lait.\n"
    path = tmp_path / ("bad.txt.gz" if compress else "bad.txt")
    path.write_bytes(gzip.compress(data) if compress else data)
    with pytest.raises(SourceFormatError, match="UTF-8 text") as err:
        list(read_pubtator(path))
    assert (err.value.path, err.value.line) == (path, 2)
    assert err.value.found == "5|a|A caf\\xe9 au lait." and str(path) in str(err.value)
