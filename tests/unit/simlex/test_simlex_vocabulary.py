"""Vocabulary of the simlex family: each filter, lemmas, spelling, counts and determinism."""

from __future__ import annotations

import gzip
from pathlib import Path

import nltk
import pandas as pd
import pytest
from conftest import SHARED_DATA

from biosem.simlex.spelling import SpellingNormaliser
from biosem.simlex.vocabulary import (
    FILTERS,
    Analyser,
    Document,
    VocabularyParams,
    count_corpus,
    documents_from_sentences,
    documents_from_text,
    filter_table,
    word_count_table,
    wordnet_multiwords,
)

NLTK_DATA = str(SHARED_DATA / "nltk_data")
if NLTK_DATA not in nltk.data.path:
    nltk.data.path.insert(0, NLTK_DATA)


@pytest.fixture(scope="module")
def analyser() -> Analyser:
    return Analyser(VocabularyParams(), wordnet_multiwords())


@pytest.mark.parametrize(
    ("token", "tag", "expected"),
    [
        ("12", "NN", "number"),
        ("0.05", "NN", "number"),
        ("25%", "NN", "number"),
        ("III", "NNP", "number"),
        ("p53", "NN", "mixed_alphanumeric"),
        ("IL6", "NN", "mixed_alphanumeric"),
        ("alpha", "NN", "greek"),
        ("β", "NN", "greek"),
        ("κB", "NN", "greek"),
        ("dose-dependent", "NN", "multiword"),
        ("and/or", "NN", "multiword"),
        ("e.g.", "VBZ", "symbol"),
        ("change.", "VB", "symbol"),
        ("'s", "VBZ", "symbol"),
        ("may", "MD", "auxiliary"),
        ("was", "VBD", "auxiliary"),
        ("has", "VBZ", "auxiliary"),
        ("did", "VBD", "auxiliary"),
        ("ox", "NN", "short"),
        ("DNA", "NN", "acronym"),
        ("tumours", "NNS", None),
        ("phosphorylated", "VBN", None),
        ("Patients", "NNS", None),
    ],
)
def test_each_filter(analyser: Analyser, token: str, tag: str, expected: str | None) -> None:
    pos = "verb" if tag.startswith(("VB", "MD")) else "noun"
    lemma = analyser.lemma(token, tag) if tag != "NNP" else token.lower()
    assert analyser.token_filter(token, lemma, tag, in_multiword=False) == expected
    assert expected is None or expected in FILTERS
    del pos


def test_multiword_expressions_from_wordnet(analyser: Analyser) -> None:
    tokens = ["Cells", "were", "grown", "in", "vitro", "with", "amino", "acids", "."]
    lemmas = ["cell", "be", "grow", "in", "vitro", "with", "amino", "acid", "."]
    mask = analyser.multiword_mask(tokens, lemmas)
    assert mask == [False, False, False, True, True, False, True, True, False]
    # a token inside a span is dropped as a multi-word expression whatever else it is
    assert analyser.token_filter("vitro", "vitro", "NN", in_multiword=True) == "multiword"


def test_acronym_filter_can_be_switched_off() -> None:
    quiet = Analyser(VocabularyParams(drop_acronyms=False, multiword_lexicon=None), None)
    assert quiet.token_filter("DNA", "dna", "NN", in_multiword=False) is None


@pytest.mark.parametrize(
    ("token", "tag", "lemma"),
    [
        ("tumours", "NNS", "tumor"),  # British -> American, then plural
        ("effects", "NNS", "effect"),  # WordNet also lists "effects"
        ("doses", "NNS", "dose"),  # not WordNet's shortest candidate "dos"
        ("species", "NNS", "species"),
        ("data", "NNS", "data"),
        ("phosphorylated", "VBN", "phosphorylate"),  # unknown to WordNet: lemminflect rules
        ("analysed", "VBD", "analyze"),
        ("randomised", "VBN", "randomize"),
        ("oedema", "NN", "edema"),  # spelling rule, gated by wordfreq
        ("offspring", "VBG", "offspring"),  # not lemminflect's "offspre"
        ("found", "VBD", "find"),
    ],
)
def test_lemmas(analyser: Analyser, token: str, tag: str, lemma: str) -> None:
    assert analyser.lemma(token, tag) == lemma


def test_spelling_sources() -> None:
    spell = SpellingNormaliser()
    assert spell.normalise("tumour") == ("tumor", "breame")
    assert spell.normalise("oedema") == ("edema", "spelling_rule")
    assert spell.normalise("leucine") == ("leucine", "identity")  # "leukine" is no English word
    assert spell.normalise("advise") == ("advise", "identity")
    assert spell.normalise("four") == ("four", "identity")
    specialist = SpellingNormaliser({"anaemia": "anemia"}, use_rules=False)
    assert specialist.normalise("anaemia") == ("anemia", "specialist_lrspl")
    assert specialist.normalise("tumour") == ("tumour", "identity")  # LRSPL replaces the table


def _docs(*texts: str) -> list[Document]:
    return [Document(f"d{i}", (t,), split=True) for i, t in enumerate(texts)]


def test_counts_and_document_frequency(analyser: Analyser) -> None:
    docs = _docs(
        "The tumours were treated with 12 mg of drug.",
        "Tumour growth was inhibited by the drug in vitro.",
        "The drug may inhibit growth of the tumor.",
    )
    counts = analyser.count_documents(docs)
    assert counts.documents == 3
    assert counts.counts[("tumor", "noun")] == 3
    assert counts.document_counts[("tumor", "noun")] == 3
    assert counts.counts[("drug", "noun")] == 3
    assert counts.counts[("inhibit", "verb")] == 2
    assert ("vitro", "noun") not in counts.counts
    assert ("be", "verb") not in counts.counts
    assert counts.step_tokens[("verb", "auxiliary")] == 3  # were, was, may
    table = word_count_table(counts, min_count=3)
    assert set(table["lemma"]) == {"drug", "tumor"}
    assert (table["count"] >= 3).all()
    steps = filter_table(counts, min_count=3)
    noun = steps[steps["pos"] == "noun"].set_index("step")
    assert noun.loc["candidates", "tokens"] == noun.loc[[*FILTERS, "kept"], "tokens"].sum()


def test_pos_share_drops_tagging_noise() -> None:
    from collections import Counter

    from biosem.simlex.vocabulary import CorpusCounts

    counts = CorpusCounts(counts=Counter({("sirolimus", "noun"): 95, ("sirolimus", "verb"): 5, ("treat", "verb"): 9}))
    table = word_count_table(counts, min_count=5, min_pos_share=0.1)
    assert list(zip(table["lemma"], table["pos"], strict=True)) == [
        ("sirolimus", "noun"),
        ("treat", "verb"),
    ]


def test_workers_give_identical_counts() -> None:
    params = VocabularyParams(chunk_size=2)
    docs = _docs(
        *[
            f"Patients received {w} and the {w} doses were reduced."
            for w in ("insulin", "aspirin", "heparin", "warfarin", "statins")
        ]
    )
    one = count_corpus(docs, params, workers=1)
    two = count_corpus(docs, params, workers=2)
    assert one.counts == two.counts and one.document_counts == two.document_counts
    assert one.step_tokens == two.step_tokens and one.word_tokens == two.word_tokens
    assert one.counts[("dose", "noun")] == 5


def test_documents_from_text_and_sentences(tmp_path: Path) -> None:
    plain = tmp_path / "corpus.txt"
    plain.write_text("First abstract. Two sentences.\n\nSecond abstract.\n", encoding="utf-8")
    zipped = tmp_path / "corpus.txt.gz"
    with gzip.open(zipped, "wt", encoding="utf-8") as fh:
        fh.write("Only line.\n")
    docs = documents_from_text(plain)
    assert [d.document_id for d in docs] == ["corpus.txt:1", "corpus.txt:3"]
    assert not docs[0].split
    assert documents_from_text(zipped)[0].texts == ("Only line.",)
    a = pd.DataFrame({"document_id": ["2", "1", "1"], "sentence_id": [0, 1, 0], "text": ["b", "a2", "a1"]})
    b = pd.DataFrame({"document_id": ["1", "3"], "sentence_id": [0, 0], "text": ["dup", "c"]})
    docs = documents_from_sentences([a, b])
    assert [(d.document_id, d.texts) for d in docs] == [
        ("1", ("a1", "a2")),
        ("2", ("b",)),
        ("3", ("c",)),
    ]
    assert len(documents_from_sentences([a, b], deduplicate=False)) == 4


def test_plain_text_is_split_into_sentences(analyser: Analyser) -> None:
    counts = analyser.count_documents([Document("x", ("Drugs reduce pain. Pain returns.",), split=False)])
    assert counts.counts[("pain", "noun")] == 2  # "pain." would be a symbol without the split
