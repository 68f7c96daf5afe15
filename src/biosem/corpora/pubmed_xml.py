"""PubMed/MEDLINE XML (baseline and update files, ``pubmed25n0001.xml.gz``): titles and abstracts.

Format: NLM's PubMed DTD (https://dtd.nlm.nih.gov/ncbi/pubmed/out/pubmed_250101.dtd). A file is a
``PubmedArticleSet`` of ``PubmedArticle`` elements, each with ``MedlineCitation/PMID`` and
``MedlineCitation/Article`` holding ``ArticleTitle`` and ``Abstract/AbstractText`` (one element per
section of a structured abstract, labelled by its ``Label`` attribute). Update files also hold
``DeleteCitation`` (PMIDs withdrawn from PubMed), which is not an article and is skipped, as are
``PubmedBookArticle`` records (book chapters). Revisions and deletions are not carried across files:
give the baseline files only, where each PMID occurs once.

Read with lxml's ``iterparse`` one article at a time (memory stays flat on a 40 MB file).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import dataclass

from lxml import etree

from biosem.errors import SourceFormatError
from biosem.sources import open_binary


@dataclass(frozen=True)
class PubmedArticle:
    """One citation: its PMID, title and abstract (the sections' texts joined by a space; "" if none).

    Inline markup (``<i>``, ``<sup>``) is flattened to its text; labels of structured abstracts
    (``BACKGROUND``, ``METHODS``) are not part of the text.
    """

    pmid: str
    title: str
    abstract: str

    @property
    def text(self) -> str:
        """Title and abstract joined by a space (either may be empty)."""
        return " ".join(t for t in (self.title, self.abstract) if t)


def _text(element: etree._Element | None) -> str:
    return " ".join("".join(element.itertext()).split()) if element is not None else ""


def read_pubmed_xml(path: str | os.PathLike[str]) -> Iterator[PubmedArticle]:
    """The articles of a PubMed XML file (plain or gzipped), in file order.

    Raises:
        SourceFormatError: the file is not well-formed XML, or an article has no PMID (names the line).
    """
    with open_binary(path) as handle:
        events = etree.iterparse(handle, events=("end",), tag=("PubmedArticle", "DeleteCitation", "PubmedBookArticle"))
        try:
            for _, element in events:
                if element.tag == "PubmedArticle":
                    citation = element.find("MedlineCitation")
                    pmid = _text(citation.find("PMID")) if citation is not None else ""
                    if not pmid:
                        raise SourceFormatError(
                            path, element.sourceline, "a PubmedArticle with MedlineCitation/PMID", "no PMID"
                        )
                    article = citation.find("Article")
                    title = _text(article.find("ArticleTitle")) if article is not None else ""
                    sections = article.findall("Abstract/AbstractText") if article is not None else []
                    abstract = " ".join(t for t in map(_text, sections) if t)
                    yield PubmedArticle(pmid, title, abstract)
                element.clear()
                parent = element.getparent()
                if parent is not None:  # drop the articles already read
                    while element.getprevious() is not None:
                        del parent[0]
        except etree.XMLSyntaxError as err:
            raise SourceFormatError(path, err.lineno, "well-formed PubMed XML", str(err)) from err
