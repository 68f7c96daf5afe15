"""The real CRAFT v5.0.2 tarball in the source mirror: documents, splits, notices and the annotation
counts per module against the corpus documentation (read and checked; no sentence segmentation)."""

from __future__ import annotations

from collections import Counter

import pytest
from conftest import SHARED_DATA

from biosem.corpora.craft import MODULES, CraftDocument, CraftStats, document_mentions, read_craft

ARCHIVE = SHARED_DATA / "craft" / "CRAFT-5.0.2.tar.gz"

pytestmark = pytest.mark.skipif(not ARCHIVE.is_file(), reason="source mirror not available")

# ../shared/data/README.md (CRAFT row) and CRAFT's concept-annotation README: annotations per module,
# proper classes / with extension classes. MONDO (Knowtator-2, one set) is not in that table: measured.
README = {
    "CHEBI": (6748, 17163),
    "CL": (5792, 9147),
    "GO_BP": (12961, 19802),
    "GO_CC": (5259, 11712),
    "GO_MF": (469, 5892),
    "MOP": (341, 497),
    "NCBITaxon": (10463, 10811),
    "PR": (23447, 27794),
    "SO": (12243, 34091),
    "UBERON": (18820, 22326),
    "MONDO": (3080, 3080),
}
# Measured: mentions of several spans once spans are trimmed and joined (MONDO 16579849-4069 has a second,
# empty span; SO+extensions 16968134 repeats a span), proper / with extensions.
DISCONTINUOUS = {
    "CHEBI": (32, 57),
    "CL": (419, 424),
    "GO_BP": (765, 813),
    "GO_CC": (94, 180),
    "GO_MF": (0, 48),
    "MOP": (0, 0),
    "NCBITaxon": (2, 2),
    "PR": (128, 154),
    "SO": (153, 254),
    "UBERON": (353, 388),
    "MONDO": (68, 68),
}


@pytest.fixture(scope="module", params=["proper", "extensions"])
def corpus(request: pytest.FixtureRequest) -> tuple[str, list[CraftDocument]]:
    return request.param, read_craft(ARCHIVE, request.param)


def test_documents_splits_and_notices(corpus: tuple[str, list[CraftDocument]]) -> None:
    _, docs = corpus
    assert len(docs) == 97
    assert Counter(d.split for d in docs) == {"train": 60, "dev": 7, "test": 30}  # CRAFT shared task 2019
    assert [d.pmid for d in docs] == sorted(d.pmid for d in docs)
    assert all(d.notice.url == f"http://www.ncbi.nlm.nih.gov/pmc/articles/{d.notice.pmcid}" for d in docs)
    assert len({d.notice.pmcid for d in docs}) == 97
    assert all(d.notice.statement and d.title for d in docs)


def test_annotations_per_module_match_the_readme(corpus: tuple[str, list[CraftDocument]]) -> None:
    annotation_set, docs = corpus
    column = 0 if annotation_set == "proper" else 1
    stats = {m: CraftStats("craft", "all", m) for m in MODULES}
    for doc in docs:
        document_mentions(doc, list(MODULES), stats)
    assert {m: s.annotations for m, s in stats.items()} == {m: n[column] for m, n in README.items()}
    assert {m: s.discontinuous for m, s in stats.items()} == {m: n[column] for m, n in DISCONTINUOUS.items()}
    dropped = {m: s.dropped_no_span for m, s in stats.items() if s.dropped_no_span}
    assert dropped == ({} if annotation_set == "proper" else {"GO_BP": 1})  # GO_BP+extensions 17696610
    assert {m: s.mentions for m, s in stats.items()} == {m: n[column] - dropped.get(m, 0) for m, n in README.items()}
    assert sum(s.discontinuous for s in stats.values()) == (2014 if annotation_set == "proper" else 2388)
    extension = sum(s.extension_class for s in stats.values())
    assert (extension == 0) if annotation_set == "proper" else extension > 90_000
