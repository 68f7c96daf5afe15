"""Per-article open-access notices in a release (issue 38): a WiC-like dataset whose rows take sentences
from CRAFT articles lists each article with its notice and URL in the card and ``croissant.json``;
an article without a permitting notice stops the build; ``check-release`` verifies them."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from biosem.corpora.notices import PERMITTING_CLASSES
from biosem.release.build import build_dataset, write_release
from biosem.release.check import check_release
from biosem.release.croissant import recorded_sources
from biosem.release.licence import Attribution
from biosem.release.notices import NOTICES_HEADING, NoticeError, check_notices, recorded_notices, row_documents
from biosem.release.provenance import Provenance
from biosem.release.registry import Paper, ReleaseDataset, Source

PAPER = Paper("Author 2024", "A. Author. 2024. WiC. Venue.", "@misc{a2024,\n  title = {WiC}\n}", "https://example.org")
CRAFT = Source(
    "craft",
    "public",
    "corpus craft (release tarball)",
    "CC-BY-3.0",
    "CRAFT v5.0.2",
    "https://example.org/craft.tar.gz",
    "cd" * 32,
    attribution=Attribution("CRAFT", "Bada et al."),
)
BC5CDR = Source("bc5cdr_test", "public", "corpus bc5cdr (test)", "NCBI public domain notice", "1", None, "ef" * 32)


def _notice(pmid: str, pmcid: str, statement: str) -> dict:
    url = f"http://www.ncbi.nlm.nih.gov/pmc/articles/{pmcid}"
    citation = "BMC Neuroscience. 2001; 2: 5."
    return {
        "corpus": "craft",
        "document_id": pmid,
        "pmcid": pmcid,
        "url": url,
        "citation": citation,
        "statement": statement,
        "notice": f"{citation}\nPubMed ID: {pmid}\n\nA Author\n\n{url}\n\n{statement}",
    }


NOTICES = pd.DataFrame(
    [
        _notice(
            "11319941",
            "PMC31432",
            "Copyright © 2001 Rosen and Williams; licensee BioMed Central Ltd. This is an Open Access article: "
            "verbatim copying and redistribution of this article are permitted in all media for any purpose, "
            "provided this notice is preserved along with the article's original URL.",
        ),
        _notice(
            "15207008",
            "PMC449704",
            "Copyright © 2004 Yu et al; licensee BioMed Central Ltd. This is an Open Access article distributed "
            "under the terms of the Creative Commons Attribution License (), which permits unrestricted use.",
        ),
        _notice(
            "15784609",
            "PMC1069131",
            "© The Author 2005. Published by Oxford University Press. All rights reserved",
        ),
    ]
)


def _provenance() -> Provenance:
    return Provenance("1.2.3", "public", "0.1.0", "unknown", "unknown", "snakemake release_public", ())


def _wic(tmp_path: Path, pairs: list[tuple[str, str, str, str]]) -> ReleaseDataset:
    """A WiC-like dataset: one row per (corpus1, document_id1, corpus2, document_id2)."""
    n = len(pairs)
    table = pa.table(
        {
            "term1": ["a"] * n,
            "term2": ["b"] * n,
            "label": pa.array([i % 2 for i in range(n)], pa.int64()),
            "corpus1": [p[0] for p in pairs],
            "document_id1": [p[1] for p in pairs],
            "corpus2": [p[2] for p in pairs],
            "document_id2": [p[3] for p in pairs],
        }
    )
    pq.write_table(table, tmp_path / "test.parquet")
    notices = tmp_path / "notices.parquet"
    pq.write_table(pa.Table.from_pandas(NOTICES, preserve_index=False), notices)
    return ReleaseDataset(
        family="wic",
        name="biowic",
        pretty_name="WiC",
        summary="Pairs.",
        motivation="Testing.",
        configs={"default": {"test": str(tmp_path / "test.parquet")}},
        sources=(CRAFT, BC5CDR),
        parameters={"seed": 1},
        paper=PAPER,
        label_column="label",
        notices=(str(notices),),
        permitted_notices=tuple(PERMITTING_CLASSES),
    )


ROWS = [
    ("craft", "11319941", "craft", "11319941"),
    ("craft", "11319941", "craft", "15207008"),
    ("bc5cdr", "123", "bc5cdr", "456"),
]
CONFIG = {
    "seed": 1,
    "corpora": {"specs": {"craft": {"format": "craft", "archive": "craft"}, "bc5cdr": {"format": "pubtator"}}},
    "wic": {"permitted_notices": list(PERMITTING_CLASSES)},
}


def test_row_documents_count_rows_per_article() -> None:
    table = pa.table({"corpus1": ["craft", "craft"], "document_id1": ["1", "1"], "corpus2": ["craft", "x"]})
    assert row_documents([table]).values.tolist() == [["craft", "1", 2]]  # corpus2 has no document_id2
    table = table.append_column("document_id2", pa.array(["1", "2"]))
    got = row_documents([table]).values.tolist()
    assert got == [["craft", "1", 2], ["x", "2", 1]]  # a row with both sides in one article counts once


def test_card_and_croissant_list_each_article_with_its_notice(tmp_path: Path) -> None:
    dataset = ReleaseDataset.from_params(_wic(tmp_path, ROWS).to_params())  # the rule's params round trip
    out = tmp_path / "release" / "public" / "wic" / "biowic"
    status = dataset.licence_status()
    built = build_dataset(dataset, out, status, _provenance(), {}, NOTICES)
    assert built.articles["document_id"].tolist() == ["11319941", "15207008"]
    assert built.articles["rows"].tolist() == [2, 1]
    card = (out / "README.md").read_text()
    licence = card.split("## Licence and attribution", 1)[1].split("\n## ", 1)[0]
    assert NOTICES_HEADING in licence
    for row in NOTICES.iloc[:2].itertuples():
        assert f"PMID {row.document_id} ({row.pmcid}; {row.citation}; " in licence
        assert f"<{row.url}> — {row.statement}" in licence
        assert row.notice in licence  # verbatim, in the collapsed block
    assert "15784609" not in card
    doc = json.loads((out / "croissant.json").read_text())
    recorded = recorded_notices(doc)
    assert recorded["document_id"].tolist() == ["11319941", "15207008"]
    assert recorded["notice_class"].tolist() == ["bmc_verbatim", "cc_by"]
    # the articles are not sources: the licence verdict only sees the sources' licences
    assert [s.name for s in recorded_sources(doc)] == ["craft", "bc5cdr_test"]
    assert (
        check_notices("wic/biowic", [pq.read_table(p) for p in out.rglob("*.parquet")], doc, card, {"craft"}, None)
        == []
    )


def test_an_article_without_a_permitting_notice_stops_the_build(tmp_path: Path) -> None:
    dataset = _wic(tmp_path, [*ROWS, ("craft", "15784609", "craft", "11319941")])
    with pytest.raises(NoticeError, match=r"craft 15784609 \(http.*PMC1069131\): notice class all_rights_reserved"):
        build_dataset(dataset, tmp_path / "out", dataset.licence_status(), _provenance(), {}, NOTICES)
    dataset = _wic(tmp_path, [("craft", "99999999", "craft", "11319941")])
    with pytest.raises(NoticeError, match="craft 99999999: no notice"):
        build_dataset(dataset, tmp_path / "out", dataset.licence_status(), _provenance(), {}, NOTICES)
    with pytest.raises(ValueError, match="needs their articles' notices|need their articles' notices"):
        build_dataset(dataset, tmp_path / "out", dataset.licence_status(), _provenance(), {})


def test_check_release_verifies_the_article_notices(tmp_path: Path) -> None:
    dataset = _wic(tmp_path, ROWS)
    root = tmp_path / "0.1.0" / "public"
    status = dataset.licence_status()
    build_dataset(dataset, root / dataset.id, status, _provenance(), {}, NOTICES)
    write_release(root, [(dataset, status)], [], _provenance(), {}, CONFIG)
    assert check_release(root) == []
    folder = root / dataset.id
    doc = json.loads((folder / "croissant.json").read_text())
    card = (folder / "README.md").read_text()
    tables = [pq.read_table(p) for p in folder.rglob("*.parquet")]
    # a notice dropped from croissant.json, a URL missing from the card, a class not permitted
    dropped = {**doc, "prov:wasDerivedFrom": [e for e in doc["prov:wasDerivedFrom"] if "15207008" not in str(e)]}
    assert check_notices("wic/biowic", tables, dropped, card, {"craft"}, None) == [
        "wic/biowic: rows hold sentences of craft PMID 15207008, whose notice croissant.json does not record"
    ]
    without_url = card.replace("<http://www.ncbi.nlm.nih.gov/pmc/articles/PMC31432>", "")
    assert check_notices("wic/biowic", tables, doc, without_url, {"craft"}, None) == [
        "wic/biowic/README.md: craft PMID 11319941: its URL http://www.ncbi.nlm.nih.gov/pmc/articles/PMC31432 "
        f"is not listed under '{NOTICES_HEADING}'"
    ]
    assert check_notices("wic/biowic", tables, doc, card, {"craft"}, ["cc_by"]) == [
        "wic/biowic: craft PMID 11319941: notice of class bmc_verbatim, not a permitted class (['cc_by'])"
    ]
    # check-release reports a card edited after the build (checksums aside)
    (folder / "README.md").write_text(without_url)
    assert any("is not listed under" in p for p in check_release(root))
