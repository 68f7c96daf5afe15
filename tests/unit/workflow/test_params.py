"""Rule params (biosem.workflow.params and the stage modules): the values a script reads, picked by one helper."""

from __future__ import annotations

import hashlib
from types import SimpleNamespace

from biosem.workflow.corpora import Corpora
from biosem.workflow.params import pick
from biosem.workflow.sources import Sources
from biosem.workflow.terminologies import Terminologies

SHA = hashlib.sha256(b"x").hexdigest()


def test_pick_keeps_the_keys_asked_for_in_their_order() -> None:
    section = {"a": 1, "b": [2], "c": {"d": 3}}
    assert pick(section, ("c", "a")) == {"c": {"d": 3}, "a": 1}
    assert list(pick(section, ("c", "a"))) == ["c", "a"]  # the order of the keys: a params' repr is stable
    assert pick(section, ("b", "missing")) == {"b": [2]}  # a key the section does not set is left out
    assert pick(section, ("b",))["b"] is section["b"]  # the section's own values, not copies
    assert pick(section, ()) == {}


def test_fetch_spec_holds_only_the_keys_that_decide_the_file() -> None:
    """The fetch rule's params: editing a source's licence, version or attribution refetches nothing."""
    spec = {
        "filename": "hp.obo",
        "mirror_path": "obo/hp.obo",
        "url": "https://example.org/hp.obo",
        "sha256": SHA,
        "version": "2025-01-16",
        "licence": "HPO licence",
        "attribution": {"title": "Human Phenotype Ontology", "creator": "the HPO Consortium"},
    }
    sources = Sources({"sources": {"hpo": spec, "x": {"filename": "x", "sha256": SHA}}, "mirror_dirs": ["m"]})
    assert sources.spec(SimpleNamespace(source="hpo")) == {
        k: spec[k] for k in ("filename", "mirror_path", "url", "sha256")
    }
    assert sources.spec(SimpleNamespace(source="x")) == {"filename": "x", "sha256": SHA}
    assert sources.names == ["hpo", "x"] and sources.mirror_dirs == ["m"]


def test_ingest_spec_holds_only_the_keys_of_its_format() -> None:
    """An ingest rule's params: editing a terminology's or a corpus's licence reruns no ingestion, nor do the
    keys that name its input files; the keys of its format keep their values."""
    obo = {"format": "obo", "source": "so", "id_prefixes": None, "underscores_as_spaces": True}
    obo |= {"exclude_synonym_types": ["VAR"], "allow_cycles": False, "licence": "CC-BY-4.0"}
    rrf = {"format": "rrf", "path": "/u", "languages": ["ENG"], "sabs": None, "licence": "UMLS"}
    mesh = {"format": "mesh", "sources": {"descriptors": "desc"}, "supplementary": True, "permuted_terms": False}
    rf2 = {"format": "rf2", "path": "/s", "release_type": "Full", "language_refsets": ["900000000000509007"]}
    terminologies = Terminologies({"terminologies": {"so": obo, "u": rrf, "m": mesh, "s": rf2}, "sources": {}})
    spec = terminologies.spec
    assert spec(SimpleNamespace(terminology="so")) == {
        "id_prefixes": None,
        "underscores_as_spaces": True,
        "exclude_synonym_types": ["VAR"],
        "allow_cycles": False,
    }
    assert spec(SimpleNamespace(terminology="u")) == {"path": "/u", "languages": ["ENG"], "sabs": None}
    assert spec(SimpleNamespace(terminology="m")) == {"supplementary": True, "permuted_terms": False}
    assert spec(SimpleNamespace(terminology="s")) == {k: rf2[k] for k in ("path", "release_type", "language_refsets")}

    pubtator = {"format": "pubtator", "namespace": "MESH", "files": {"test": "t"}, "licence": "CC0"}
    craft = {
        "format": "craft",
        "archive": "craft",
        "annotation_set": "proper",
        "modules": ["CL"],
        "licence": "CC-BY-3.0",
    }
    conll = {"format": "conll", "files": {"test": "c"}, "document_unit": "medline", "licence": "CC-BY-4.0"}
    specs = {"p": pubtator, "c": craft, "n": conll}
    sources = {name: {"filename": name} for name in ("t", "craft", "c")}
    corpora = Corpora(
        {"corpora": {"specs": specs, "build": [], "sentences": {}}, "sources": sources, "corpus_shards": 1}
    )
    assert corpora.spec(SimpleNamespace(corpus="p")) == {"namespace": "MESH"}
    assert corpora.spec(SimpleNamespace(corpus="c")) == {"annotation_set": "proper", "modules": ["CL"]}
    assert corpora.spec(SimpleNamespace(corpus="n")) == {"document_unit": "medline"}
