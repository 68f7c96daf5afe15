"""Rule params (biosem.workflow.params and the stage modules): the values a script reads, picked by one helper."""

from __future__ import annotations

import hashlib
from types import SimpleNamespace

from biosem.workflow.params import pick
from biosem.workflow.sources import Sources

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
