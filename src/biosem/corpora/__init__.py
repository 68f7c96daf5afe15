"""Corpus ingestion: PubTator corpora and CRAFT into documents / sentences / mentions intermediates.

Modules: :mod:`~biosem.corpora.schemas` (the table schemas, the contract with later stages),
:mod:`~biosem.corpora.formats` (the corpus formats: each one's sources and own tables),
:mod:`~biosem.corpora.pubtator` (strict reader on the ``bioc`` data model),
:mod:`~biosem.corpora.ingest` (PubTator corpus quirks, concept ids, duplicates, the tables),
:mod:`~biosem.corpora.knowtator` (Knowtator XML and Knowtator-2 XML readers),
:mod:`~biosem.corpora.craft` (the CRAFT release tarball: documents, mentions, notices, the tables),
:mod:`~biosem.corpora.sentences` (pysbd segmentation with exact offsets),
:mod:`~biosem.corpora.shards` (corpus shards for counting), :mod:`~biosem.corpora.pubmed_xml`.
"""
