"""Variant pairs (issue 37): a simlex pair never joins two spellings or two forms of one stem."""

from __future__ import annotations

import nltk
import numpy as np
import pandas as pd
import pytest
from conftest import SHARED_DATA

from biosem.seeds import generator
from biosem.simlex.pairs import PairParams, build_pairs, params_from_config
from biosem.simlex.variants import VariantParams, common_prefix_variant, variant_kind, variant_kinds

NLTK_DATA = str(SHARED_DATA / "nltk_data")
if NLTK_DATA not in nltk.data.path:
    nltk.data.path.insert(0, NLTK_DATA)


@pytest.mark.parametrize(
    ("a", "b", "kind"),
    [
        ("apnoea", "apnea", "spelling"),  # British / American
        ("haemangioblastoma", "hemangioblastoma", "spelling"),
        ("tumours", "tumor", "inflection"),  # spelling and number: the last step needed
        ("infections", "infection", "inflection"),
        ("stimulant", "stimulation", "porter"),  # one stem
        ("transplant", "transplantation", "porter"),
        ("dosage", "dose", "wordnet"),  # a WordNet derivation
        ("mutation", "mutant", "wordnet"),
        ("stimulation", "stimulus", "wordnet"),  # both derive from "stimulate"
        ("administer", "administrate", "wordnet"),
        ("neoplasia", "neoplasm", "common_prefix"),  # endings only
        ("phenobarbital", "phenobarbitone", "common_prefix"),
        # not variants
        ("tumor", "neoplasm", None),
        ("attach", "attack", None),  # one letter apart, two words
        ("regulate", "downregulate", None),  # a prefix changes the meaning
        ("motion", "movement", None),  # WordNet links both to "move", but they share no stem
        ("grain", "cereal", None),
        ("glomerulonephritis", "glomerulopathy", None),
    ],
)
def test_variant_kind(a: str, b: str, kind: str | None) -> None:
    assert variant_kind(a, b) == kind


def test_tests_can_be_switched_off() -> None:
    none = VariantParams(stemmers=(), wordnet=False, prefix_share=None)
    assert variant_kind("stimulant", "stimulation", none) is None
    assert variant_kind("apnoea", "apnea", none) == "spelling"  # the shared normaliser always applies
    assert variant_kind("dosage", "dose", VariantParams(stemmers=("lancaster",), wordnet=False)) == "lancaster"
    assert not common_prefix_variant("attach", "attack")
    with pytest.raises(ValueError, match="unknown stemmer"):
        variant_kind("a", "b", VariantParams(stemmers=("krovetz",)))
    with pytest.raises(ValueError, match="aligned"):
        variant_kinds(["a"], [])


def test_published_pairs_are_almost_never_variants() -> None:
    """The published sets hold no variant pairs: the tests' false positives there (docs of variants)."""
    hits = {}
    for name in ("Bio-SimLex", "Bio-SimVerb"):
        table = pd.read_csv(
            SHARED_DATA / "bio-simlex-simverb" / f"{name}.txt", sep="\t", header=None, keep_default_na=False
        )
        kinds = variant_kinds(table[0].tolist(), table[1].tolist())
        hits[name] = sorted((a, b) for a, b, k in zip(table[0], table[1], kinds, strict=True) if k)
    assert hits == {"Bio-SimLex": [("paleness", "pallor")], "Bio-SimVerb": [("filter", "filtrate")]}


BIO = ["stimulant", "stimulation", "dosage", "dose", "neoplasia", "neoplasm", "tumor", "kinase", "lipid"]
BIO += ["apnea", "apnoea"]


def _build(params: PairParams):
    domains = pd.DataFrame({"lemma": BIO, "pos": "noun", "domain": "biomedical"})
    pairs = [("stimulant", "stimulation"), ("dosage", "dose"), ("neoplasia", "neoplasm"), ("neoplasm", "tumor")]
    pairs += [("kinase", "lipid")]
    relations = pd.DataFrame(
        {
            "pos": "noun",
            "word1": [min(p) for p in pairs],
            "word2": [max(p) for p in pairs],
            "relation": "synonym",
            "resource": "wordnet",
            "term1": [min(p) for p in pairs],
            "term2": [max(p) for p in pairs],
            "evidence": "x",
            "via": "identity",
        }
    )
    usf = pd.DataFrame(
        {"cue": ["x"], "target": ["y"], "n_produced": [1], "fsg": [0.1], "bsg": [np.nan], "qps": ["N"], "tps": [None]}
    )
    accepted = pd.DataFrame(
        [("noun", "associated_biomedical", "apnea", "apnoea", "accept")],
        columns=["pos", "quarter", "word1", "word2", "decision"],
    )
    return build_pairs(
        "noun", domains, relations, usf, accepted, params, lambda q: generator(1, "simlex_pairs", "noun", q)
    )


def test_build_pairs_excludes_variant_pairs() -> None:
    params = PairParams(quarter_size=60, on_shortfall="shrink", max_pairs_per_word=None)
    pairs, counts, _ = _build(params)
    chosen = {tuple(sorted(p)) for p in zip(pairs["word1"], pairs["word2"], strict=True)}
    assert {("neoplasm", "tumor"), ("kinase", "lipid")} <= chosen
    assert not any(variant_kind(a, b) for a, b in chosen)
    by = counts.set_index("quarter")
    # three resource pairs and one reviewed (accepted) pair are variants
    assert by.loc["associated_biomedical", "variant_pairs"] == 4
    assert by.loc["associated_biomedical", "selected"] == 2
    assert by.loc["unassociated_biomedical", "variant_pairs"] == 1  # the random draws skipped apnea / apnoea
    assert by.loc["associated_biomedical", "cause"] == "candidates"
    # the paper's behaviour: nothing excluded
    paper, paper_counts, _ = _build(PairParams(quarter_size=40, on_shortfall="shrink", exclude_variants=False))
    assert ("stimulant", "stimulation") in {tuple(sorted(p)) for p in zip(paper["word1"], paper["word2"], strict=True)}
    assert (paper_counts["variant_pairs"] == 0).all()


def test_variant_params_from_config() -> None:
    cfg = {"quarter_size": 5, "variant_stemmers": ["porter", "lancaster"], "variant_prefix_share": None}
    params = params_from_config(cfg, "verb")
    assert params.variants() == VariantParams(stemmers=("porter", "lancaster"), prefix_share=None)
