"""Corpus ingestion: PubTator corpora into documents / sentences / mentions intermediates.

Modules: :mod:`~biosem.corpora.schemas` (the three table schemas, the contract with later stages),
:mod:`~biosem.corpora.pubtator` (strict reader on the ``bioc`` data model),
:mod:`~biosem.corpora.sentences` (pysbd segmentation with exact offsets),
:mod:`~biosem.corpora.ingest` (corpus quirks, concept ids, duplicates, the tables).
"""
