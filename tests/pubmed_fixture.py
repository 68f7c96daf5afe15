"""A tiny hand-written PubMed XML file (DTD pubmed_250101): a structured abstract with inline markup,
an article without an abstract, a book article and a deleted citation (neither is an article), a plain
abstract. Written gzipped by the tests (tmp_path)."""

from __future__ import annotations

import gzip
from pathlib import Path

PUBMED_XML = b"""<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE PubmedArticleSet PUBLIC "-//NLM//DTD PubMedArticle, 1st January 2025//EN" "https://dtd.nlm.nih.gov/ncbi/pubmed/out/pubmed_250101.dtd">
<PubmedArticleSet>
  <PubmedArticle>
    <MedlineCitation Status="MEDLINE" Owner="NLM">
      <PMID Version="1">1001</PMID>
      <Article PubModel="Print">
        <Journal><Title>J Test</Title></Journal>
        <ArticleTitle>Effect of <i>Escherichia coli</i> on tumour growth.</ArticleTitle>
        <Abstract>
          <AbstractText Label="BACKGROUND" NlmCategory="BACKGROUND">Tumours grow.</AbstractText>
          <AbstractText Label="METHODS" NlmCategory="METHODS">We measured CO<sub>2</sub>
            in mice.</AbstractText>
          <AbstractText Label="RESULTS" NlmCategory="RESULTS">Growth slowed.</AbstractText>
        </Abstract>
      </Article>
      <MeshHeadingList>
        <MeshHeading><DescriptorName UI="D009369">Neoplasms</DescriptorName></MeshHeading>
      </MeshHeadingList>
    </MedlineCitation>
    <PubmedData><ArticleIdList><ArticleId IdType="pubmed">1001</ArticleId></ArticleIdList></PubmedData>
  </PubmedArticle>
  <PubmedArticle>
    <MedlineCitation Status="MEDLINE" Owner="NLM">
      <PMID Version="1">1002</PMID>
      <Article PubModel="Print">
        <ArticleTitle>A title without an abstract.</ArticleTitle>
      </Article>
    </MedlineCitation>
  </PubmedArticle>
  <PubmedBookArticle>
    <BookDocument><PMID Version="1">1003</PMID><ArticleTitle>A book chapter.</ArticleTitle></BookDocument>
  </PubmedBookArticle>
  <PubmedArticle>
    <MedlineCitation Status="MEDLINE" Owner="NLM">
      <PMID Version="1">1004</PMID>
      <Article PubModel="Print">
        <ArticleTitle>Plain abstract.</ArticleTitle>
        <Abstract><AbstractText>Cells divide.</AbstractText></Abstract>
      </Article>
    </MedlineCitation>
  </PubmedArticle>
  <DeleteCitation>
    <PMID Version="1">999</PMID>
    <PMID Version="1">998</PMID>
  </DeleteCitation>
</PubmedArticleSet>
"""


def write_pubmed(path: Path, content: bytes = PUBMED_XML) -> Path:
    with gzip.open(path, "wb") as fh:
        fh.write(content)
    return path
