"""Word rules of the simlex vocabulary (issue 37): POS evidence, numbers, units, abbreviations,
fragments, chemical names as verbs, and one entry per spelling."""

from __future__ import annotations

from collections import Counter

import nltk
import pandas as pd
import pytest
from conftest import SHARED_DATA

from biosem.simlex.evidence import (
    WORD_RULES,
    Evidence,
    WordRules,
    is_number_word,
    merge_variants,
    tag_evidence,
    term_word_key,
    terminology_words,
    variant_groups,
    word_rule,
    wrong_wordnet_pos,
)
from biosem.simlex.vocabulary import (
    Analyser,
    CorpusCounts,
    Document,
    VocabularyParams,
    filter_table,
    vocabulary_table,
    word_count_table,
    word_rules,
)

NLTK_DATA = str(SHARED_DATA / "nltk_data")
if NLTK_DATA not in nltk.data.path:
    nltk.data.path.insert(0, NLTK_DATA)

RULES = WordRules(single_word_terms=frozenset({"cathepsin"}))


@pytest.mark.parametrize(
    ("word", "number"),
    [
        ("twelve", True),
        ("dozen", True),
        ("million", True),
        ("12", True),
        ("iii", True),
        ("xiv", True),
        ("ratio", False),  # a quotient in WordNet, not an integer
        ("half", False),
        ("score", False),  # its first sense is a mark, not twenty
        ("mix", False),  # a Roman numeral of m, i, x, but a word
        ("dose", False),
    ],
)
def test_number_words(word: str, number: bool) -> None:
    assert is_number_word(word) is number


@pytest.mark.parametrize(
    ("word", "pos", "wrong"),
    [
        ("genotype", "verb", True),  # WordNet: a noun only
        ("warfarin", "verb", True),
        ("offspring", "verb", True),
        ("phosphorylate", "verb", False),  # not in WordNet: stays possible
        ("excrete", "verb", False),
        ("ventricular", "noun", True),  # an adjective only
        ("analyze", "noun", True),  # a verb only, and no gerund
        ("sequencing", "noun", False),  # a gerund (WordNet: the verb sequence)
        ("dystrophin", "noun", False),
    ],
)
def test_wrong_wordnet_pos(word: str, pos: str, wrong: bool) -> None:
    assert wrong_wordnet_pos(word, pos) is wrong


@pytest.mark.parametrize(
    ("lemma", "pos", "evidence", "rule"),
    [
        ("twelve", "verb", Evidence(), "number_word"),
        ("genotype", "verb", Evidence(pos_share=0.9), "wordnet_pos"),
        ("warfarin", "verb", Evidence(pos_share=0.11, noun_verb_share=1.0), "wordnet_pos"),
        ("phosphorylate", "verb", Evidence(pos_share=0.89), None),  # kept: not WordNet, mostly a verb
        ("phosphorylate", "verb", Evidence(pos_share=0.3), "tag_share"),
        ("carbamazepine", "verb", Evidence(pos_share=0.15), "tag_share"),  # a drug name the tagger calls a verb
        ("carbamazepine", "verb", Evidence(pos_share=0.9), "chemical_verb"),  # even when it mostly does
        ("sirolimus", "verb", Evidence(pos_share=0.9), "chemical_verb"),  # WHO INN stem -limus
        ("control", "verb", Evidence(pos_share=0.15, noun_verb_share=0.99), None),  # WordNet verb: ambiguity is normal
        ("acute", "noun", Evidence(pos_share=0.2, noun_verb_share=0.24), "tag_share"),  # mostly an adjective
        ("dopaminergic", "noun", Evidence(pos_share=0.3, noun_verb_share=0.3), "tag_share"),
        ("versus", "noun", Evidence(pos_share=0.63), "function_word"),
        ("mdx", "noun", Evidence(), "abbreviation"),
        ("mmol", "noun", Evidence(after_number_share=1.0), "abbreviation"),
        ("microg", "noun", Evidence(after_number_share=0.9), "unit"),
        ("cardiotoxic", "noun", Evidence(), "adjective_form"),
        ("imperfecta", "noun", Evidence(in_term_share=1.0), "fragment"),
        ("cathepsin", "noun", Evidence(in_term_share=1.0), None),  # a one-word term of the terminologies
        ("rubripe", "verb", Evidence(pos_share=1.0, in_term_share=0.625), "fragment"),  # Fugu rubripes
        ("adheren", "verb", Evidence(pos_share=1.0, in_term_share=1.0), "fragment"),  # adherens junction
        ("biotinylate", "verb", Evidence(pos_share=0.9, in_term_share=0.2), None),  # a lab verb used alone
        ("dystrophin", "noun", Evidence(in_term_share=0.1), None),
        ("homolog", "noun", Evidence(aliases=("homologue",)), None),  # WordNet knows the British spelling
    ],
)
def test_word_rules(lemma: str, pos: str, evidence: Evidence, rule: str | None) -> None:
    assert word_rule(lemma, pos, evidence, RULES) == rule
    assert rule is None or rule in WORD_RULES


def test_rules_can_be_switched_off() -> None:
    off = WordRules(number_words=False, wordnet_pos=False, min_unknown_length=0, chemical_verbs=False)
    assert word_rule("twelve", "verb", Evidence(), off) is None
    assert word_rule("genotype", "verb", Evidence(), off) is None
    assert word_rule("carbamazepine", "verb", Evidence(pos_share=0.9), off) is None


def test_adjective_tags_of_nouns_are_modifiers() -> None:
    # glucose cannot be an adjective: its JJ tags are "glucose levels", not evidence against the noun
    assert tag_evidence("glucose", "noun", {"noun": 17, "adjective": 34, "verb": 1}) == (17, 18, 18)
    # acute can: its JJ tags count
    assert tag_evidence("acute", "noun", {"noun": 94, "adjective": 351, "verb": 17}) == (94, 111, 462)
    # a word WordNet lacks counts its JJ tags when it ends like an adjective
    assert tag_evidence("dopaminergic", "noun", {"noun": 18, "adjective": 38}) == (18, 18, 56)
    assert tag_evidence("dystrophin", "noun", {"noun": 20, "adjective": 22, "other": 1}) == (20, 20, 21)


def test_terminology_words() -> None:
    terms = pd.DataFrame(
        {
            "term": ["Osteogenesis Imperfecta", "Osteogenesis", "Cathepsins", "Torsades de Pointes", "Old term"],
            "active": [True, True, True, True, False],
        }
    )
    multi, single = terminology_words([terms])
    # words are keyed as the corpus tokens are (term_word_key: surface key of the letters)
    assert term_word_key("Pointes") == "pointe" and term_word_key("E.") == "e"
    assert tuple(map(term_word_key, ["osteogenesis", "imperfecta"])) in multi
    assert ("torsade", "de", "pointe") in multi
    assert ("old", "term") not in multi
    assert single == {"osteogenesis", "cathepsin"}


def test_british_and_american_spellings_are_one_entry() -> None:
    lemmas = [
        ("apnoea", "noun"),
        ("apnea", "noun"),
        ("haemangioblastoma", "noun"),
        ("hemangioblastoma", "noun"),
        ("oesophagitis", "noun"),  # no American partner: keeps its name
        ("leucine", "noun"),  # the ungated rule would give "leukine": no partner, unchanged
        ("probands", "noun"),
        ("proband", "noun"),
        ("dinucleotides", "noun"),
        ("dinucleotide", "noun"),
        ("dose", "noun"),
        ("dosage", "noun"),  # a derivation, not a spelling: two entries (pairs exclude them)
    ]
    entry = variant_groups(lemmas, Counter({("apnoea", "noun"): 8, ("apnea", "noun"): 15}))
    assert entry[("apnoea", "noun")] == "apnea" and entry[("apnea", "noun")] == "apnea"
    assert entry[("haemangioblastoma", "noun")] == "hemangioblastoma"
    assert entry[("oesophagitis", "noun")] == "oesophagitis"
    assert entry[("leucine", "noun")] == "leucine"
    assert entry[("probands", "noun")] == "proband"
    assert entry[("dinucleotides", "noun")] == "dinucleotide"
    assert entry[("dosage", "noun")] == "dosage" and entry[("dose", "noun")] == "dose"

    counts = Counter({("apnoea", "noun"): 8, ("apnea", "noun"): 15, ("sleep", "noun"): 9})
    docs = Counter({("apnoea", "noun"): 3, ("apnea", "noun"): 6, ("sleep", "noun"): 4})
    merged, merged_docs, merges = merge_variants(counts, docs)
    assert merged == Counter({("apnea", "noun"): 23, ("sleep", "noun"): 9})
    assert merged_docs[("apnea", "noun")] == 9
    assert merges.to_dict("records") == [{"lemma": "apnoea", "pos": "noun", "entry": "apnea", "tokens": 8}]


def _counts() -> CorpusCounts:
    kept = {
        ("apnoea", "noun"): 4,
        ("apnea", "noun"): 3,  # 7 together: above min_count 5, each alone below
        ("warfarin", "noun"): 38,
        ("warfarin", "verb"): 6,
        ("phosphorylate", "verb"): 8,
        ("ventricular", "noun"): 14,
        ("mmol", "noun"): 6,
        ("twelve", "verb"): 6,
    }
    tags = {
        ("apnoea", "noun"): 4,
        ("apnea", "noun"): 3,
        ("warfarin", "noun"): 49,
        ("warfarin", "verb"): 6,
        ("phosphorylate", "verb"): 8,
        ("phosphorylate", "noun"): 1,
        ("ventricular", "noun"): 14,
        ("ventricular", "adjective"): 186,
        ("mmol", "noun"): 6,
        ("twelve", "verb"): 6,
        ("twelve", "number"): 40,
    }
    return CorpusCounts(
        documents=3,
        word_tokens=1000,
        counts=Counter(kept),
        document_counts=Counter({k: 1 for k in kept}),
        tag_counts=Counter(tags),
        after_number=Counter({("mmol", "noun"): 6}),
    )


def test_vocabulary_table_and_filters() -> None:
    counts = _counts()
    table = vocabulary_table(counts, 5, 0.1, RULES).set_index(["lemma", "pos"])["dropped_by"].to_dict()
    assert table == {
        ("apnea", "noun"): "",
        ("mmol", "noun"): "abbreviation",
        ("ventricular", "noun"): "wordnet_pos",
        ("warfarin", "noun"): "",
        ("phosphorylate", "verb"): "",
        ("twelve", "verb"): "number_word",
        ("warfarin", "verb"): "wordnet_pos",
    }
    words = word_count_table(counts, 5, 0.1, RULES)
    apnea = words.set_index(["lemma", "pos"]).loc[("apnea", "noun")]
    assert apnea["count"] == 7 and apnea["pos_tokens"] == 7 and apnea["evidence_tokens"] == 7
    steps = filter_table(counts, 5, 0.1, RULES).set_index(["pos", "step"])
    assert steps.loc[("noun", "merged_variants"), "types"] == 1
    assert steps.loc[("noun", "wordnet_pos"), "types"] == 1
    assert steps.loc[("noun", "abbreviation"), "tokens"] == 6
    assert steps.loc[("verb", "number_word"), "types"] == 1
    assert steps.loc[("verb", "vocabulary"), "types"] == 1
    # without rules: the paper's vocabulary (count and POS share only), no merge
    paper = word_count_table(counts, 5, 0.1)
    assert ("warfarin", "verb") in set(zip(paper["lemma"], paper["pos"], strict=True))
    assert "apnea" not in set(paper["lemma"])


def test_word_rules_from_params() -> None:
    rules = word_rules(VocabularyParams(min_tag_share=0.75, chemical_verbs=False), frozenset({"x"}))
    assert rules.min_tag_share == 0.75 and not rules.chemical_verbs and rules.single_word_terms == {"x"}


@pytest.fixture(scope="module")
def analyser() -> Analyser:
    terms, _ = terminology_words([pd.DataFrame({"term": ["Osteogenesis Imperfecta"], "active": [True]})])
    return Analyser(VocabularyParams(), None, terms)


@pytest.mark.parametrize(("token", "filtered"), [("kHz", True), ("vWF", True), ("mtDNA", True), ("Patients", False)])
def test_mixed_case_filter(analyser: Analyser, token: str, filtered: bool) -> None:
    assert (analyser.token_filter(token, token.lower(), "NN", in_multiword=False) == "mixed_case") is filtered


def test_evidence_counts(analyser: Analyser) -> None:
    docs = [
        Document("1", ("Osteogenesis imperfecta was treated with 5 mmol of calcium.",), split=True),
        Document("2", ("The acute phase was severe.",), split=True),
    ]
    counts = analyser.count_documents(docs)
    assert counts.in_term[("imperfecta", "noun")] == counts.counts[("imperfecta", "noun")] == 1
    assert counts.after_number[("mmol", "noun")] == 1
    assert counts.tag_counts[("acute", "adjective")] == 1
    assert analyser.term_mask(["Osteogenesis", "imperfecta", ",", "type", "I"]) == [True, True, False, False, False]
