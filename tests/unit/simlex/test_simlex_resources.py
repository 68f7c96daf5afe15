"""Lexical resources: OBO synonyms and siblings, lexicon variants, SPECIALIST tables, WordNet synonyms."""

from __future__ import annotations

from pathlib import Path

import nltk
import pandas as pd
import pytest
from conftest import SHARED_DATA

from biosem.errors import SourceFormatError
from biosem.simlex.resources import (
    VariantSources,
    lexicon_variants,
    ontology_siblings,
    ontology_synonyms,
    read_synonym_table,
    resource_pairs,
    subtree,
    terminology_relations,
    wordnet_synonyms,
)
from biosem.simlex.specialist import read_lragr, read_lrnom, read_lrspl
from biosem.simlex.spelling import SpellingNormaliser

NLTK_DATA = str(SHARED_DATA / "nltk_data")
if NLTK_DATA not in nltk.data.path:
    nltk.data.path.insert(0, NLTK_DATA)


def _terms(rows: list[tuple[str, str, str, str | None]], inactive: tuple[str, ...] = ()) -> pd.DataFrame:
    return pd.DataFrame(
        [
            {"concept_id": c, "term": t, "term_type": tt, "scope": sc, "active": c not in inactive}
            for c, t, tt, sc in rows
        ]
    )


def _relations(edges: list[tuple[str, str]]) -> pd.DataFrame:
    return pd.DataFrame([{"subject_id": c, "rel": "is_a", "object_id": p} for c, p in edges])


def _vocabulary(nouns: list[str], verbs: list[str]) -> pd.DataFrame:
    return pd.DataFrame({"lemma": nouns + verbs, "pos": ["noun"] * len(nouns) + ["verb"] * len(verbs)})


GO_TERMS = _terms(
    [
        ("GO:1", "protein modification process", "preferred", None),
        ("GO:2", "phosphorylation", "preferred", None),
        ("GO:3", "acetylation", "preferred", None),
        ("GO:4", "protein methylation", "preferred", None),  # multi-word: no part in pairs
        ("GO:5", "secretion", "preferred", None),
        ("GO:6", "obsolete transport", "preferred", None),
    ]
)
GO_RELATIONS = _relations([("GO:2", "GO:1"), ("GO:3", "GO:1"), ("GO:4", "GO:1"), ("GO:5", "GO:1"), ("GO:6", "GO:1")])

HPO_TERMS = _terms(
    [
        ("HP:1", "Seizure", "preferred", None),
        ("HP:1", "Seizures", "synonym", "EXACT"),
        ("HP:1", "Convulsions", "synonym", "EXACT"),
        ("HP:1", "Fits", "synonym", "RELATED"),
        ("HP:2", "Oedema", "preferred", None),
        ("HP:2", "Swelling", "synonym", "EXACT"),
        ("HP:3", "Mild", "preferred", None),
        ("HP:9", "Clinical modifier", "preferred", None),
    ]
)


def test_synonyms_single_words_of_one_concept() -> None:
    syn = ontology_synonyms(HPO_TERMS, "hpo")
    assert list(zip(syn["term1"], syn["term2"], syn["evidence"], strict=True)) == [
        ("convulsions", "seizure", "HP:1"),
        ("convulsions", "seizures", "HP:1"),
        ("oedema", "swelling", "HP:2"),
        ("seizure", "seizures", "HP:1"),
    ]
    assert "fits" in set(ontology_synonyms(HPO_TERMS, "hpo", scopes=None)["term1"])


def test_siblings_share_a_direct_parent() -> None:
    sib = ontology_siblings(GO_TERMS, GO_RELATIONS, "go")
    pairs = set(zip(sib["term1"], sib["term2"], strict=True))
    assert pairs == {
        ("acetylation", "phosphorylation"),
        ("acetylation", "secretion"),
        ("phosphorylation", "secretion"),
    }
    assert set(sib["evidence"]) == {"GO:1"}
    inactive = ontology_siblings(
        _terms(
            [
                *zip(
                    GO_TERMS["concept_id"],
                    GO_TERMS["term"],
                    GO_TERMS["term_type"],
                    GO_TERMS["scope"],
                )
            ],
            inactive=("GO:5",),
        ),
        GO_RELATIONS,
        "go",
    )
    assert set(zip(inactive["term1"], inactive["term2"], strict=True)) == {("acetylation", "phosphorylation")}


def test_roots_restrict_to_a_subtree() -> None:
    relations = _relations([("HP:1", "HP:0"), ("HP:2", "HP:0"), ("HP:3", "HP:9")])
    assert subtree(relations, ["HP:0"]) == {"HP:0", "HP:1", "HP:2"}
    found = terminology_relations(HPO_TERMS, relations, "hpo", roots=["HP:0"])
    assert "mild" not in set(found["term1"]) | set(found["term2"])
    assert ("oedema", "seizure") in set(zip(found["term1"], found["term2"], strict=True))


def test_sibling_pair_found_through_derivation() -> None:
    """phosphorylation / acetylation (GO siblings, nouns) -> phosphorylate / acetylate (verbs).

    WordNet has no "phosphorylate"; the nominalisation suffix rule -ation -> -ate finds it because
    the verb is in the corpus vocabulary.
    """
    vocabulary = _vocabulary(nouns=["secretion"], verbs=["phosphorylate", "acetylate", "secrete"])
    sib = ontology_siblings(GO_TERMS, GO_RELATIONS, "go")
    variants = lexicon_variants(set(sib["term1"]) | set(sib["term2"]), vocabulary, VariantSources(SpellingNormaliser()))
    got = variants.set_index(["word", "pos"])
    assert got.loc[("phosphorylation", "verb"), "variant"] == "phosphorylate"
    assert got.loc[("phosphorylation", "verb"), "source"] == "suffix_rule"
    secretion = set(got.loc[[("secretion", "verb")], "source"])
    assert "wordnet" in secretion  # WordNet derivationally related form (the suffix rule agrees)
    pairs = resource_pairs(sib, variants)
    verbs = pairs[pairs["pos"] == "verb"]
    assert ("acetylate", "phosphorylate", "derivation") in set(
        zip(verbs["word1"], verbs["word2"], verbs["via"], strict=True)
    )
    assert ("phosphorylate", "secrete") in set(zip(verbs["word1"], verbs["word2"], strict=True))
    # the rule never invents a word: without the verb in the vocabulary there is no variant
    bare = lexicon_variants(
        ["phosphorylation"],
        _vocabulary(["secretion"], ["secrete"]),
        VariantSources(SpellingNormaliser()),
    )
    assert bare.empty


def test_synonym_pair_found_through_inflection_and_spelling() -> None:
    vocabulary = _vocabulary(nouns=["seizure", "convulsion", "edema", "swelling"], verbs=[])
    syn = ontology_synonyms(HPO_TERMS, "hpo")
    variants = lexicon_variants(set(syn["term1"]) | set(syn["term2"]), vocabulary, VariantSources(SpellingNormaliser()))
    pairs = resource_pairs(syn, variants)
    got = set(zip(pairs["word1"], pairs["word2"], pairs["via"], strict=True))
    assert ("convulsion", "seizure", "inflection") in got  # Convulsions (plural) -> convulsion
    assert ("edema", "swelling", "spelling") in got  # Oedema -> edema
    # Seizure / Seizures are one lemma: never a pair
    assert not ((pairs["word1"] == "seizure") & (pairs["word2"] == "seizure")).any()


def test_adjectives_are_not_verbs() -> None:
    vocabulary = _vocabulary(nouns=["hepatomegaly"], verbs=["mild", "transport"])
    variants = lexicon_variants(["mild", "transport", "hepatomegaly"], vocabulary, VariantSources(SpellingNormaliser()))
    got = set(zip(variants["word"], variants["pos"], strict=True))
    assert (
        "mild",
        "verb",
    ) not in got  # a tagger's "mild" verb is no reason to map the HPO modifier
    assert ("transport", "verb") in got  # zero derivation: transport is a verb too
    assert ("hepatomegaly", "noun") in got  # unknown to lemminflect and WordNet: a noun


def test_specialist_tables(tmp_path: Path) -> None:
    lrspl = tmp_path / "LRSPL"
    lrspl.write_text("E0008269|anaemia|anemia|\nE0000001|colour|color|\nE0000002|blood vessel|bloodvessel|\n")
    lragr = tmp_path / "LRAGR"
    lragr.write_text(
        "E1|convulsions|base|noun|count(thr_plur)|convulsion|convulsion|\nE2|ran|base|verb|past|run|run|\n"
    )
    lrnom = tmp_path / "LRNOM"
    lrnom.write_text("E0047537|phosphorylate|verb|E0047538|phosphorylation|noun|\nE3|happy|adj|E4|happiness|noun|\n")
    assert read_lrspl(lrspl).values.tolist() == [["anaemia", "anemia"], ["colour", "color"]]
    assert read_lragr(lragr).values.tolist() == [
        ["convulsions", "convulsion", "noun"],
        ["ran", "run", "verb"],
    ]
    assert read_lrnom(lrnom).values.tolist() == [["phosphorylation", "phosphorylate"]]
    vocabulary = _vocabulary(nouns=["convulsion"], verbs=["phosphorylate"])
    sources = VariantSources(
        SpellingNormaliser(use_rules=False),
        read_lragr(lragr),
        read_lrnom(lrnom),
        wordnet_derivations=False,
        suffix_rules=False,
    )
    variants = lexicon_variants(["phosphorylation", "convulsions"], vocabulary, sources)
    assert ("phosphorylation", "phosphorylate", "verb", "derivation", "specialist_lrnom") in set(
        variants.itertuples(index=False, name=None)
    )
    assert ("convulsions", "convulsion", "noun", "inflection", "specialist_lragr") in set(
        variants.itertuples(index=False, name=None)
    )
    bad = tmp_path / "BAD"
    bad.write_text("E1|only\n")
    with pytest.raises(SourceFormatError, match="BAD:1"):
        read_lrnom(bad)


def test_synonym_table(tmp_path: Path) -> None:
    path = tmp_path / "syn.tsv"
    path.write_text("# comment\nTumor\tneoplasm\nheart attack\tinfarction\n")
    table = read_synonym_table(path, "lexicon")
    assert table[["term1", "term2"]].values.tolist() == [["neoplasm", "tumor"]]
    path.write_text("one\ttwo\tthree\n")
    with pytest.raises(SourceFormatError, match="syn.tsv:1"):
        read_synonym_table(path, "lexicon")


def test_wordnet_synonyms_within_pos() -> None:
    table = wordnet_synonyms(_vocabulary(nouns=["tumor", "neoplasm", "growth"], verbs=["inhibit", "suppress", "tumor"]))
    pairs = set(zip(table["pos"], table["word1"], table["word2"], strict=True))
    assert ("noun", "neoplasm", "tumor") in pairs
    assert ("verb", "inhibit", "suppress") in pairs
    assert all(p in ("noun", "verb") for p, _, _ in pairs)
