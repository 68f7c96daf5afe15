"""Models (biosem.evaluate.models): formats, lowercasing, most-frequent-N, phrases, training, encoders."""

from __future__ import annotations

import functools
import hashlib
import logging
import os
import subprocess
import sys
import types
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from conftest import config_with_defaults
from gensim.models import FastText, KeyedVectors
from gensim.models.fasttext import save_facebook_model

from biosem.errors import SourceFormatError
from biosem.evaluate import models
from biosem.evaluate.models import (
    SentenceEncoder,
    TrainingParams,
    WordVectors,
    corpus_sentences,
    count_tokens,
    has_upper_case,
    load_keyed_vectors,
    load_representation,
    lowercase_keys,
    resolve_case,
    save_word2vec_binary,
    tokenize,
    train_word2vec,
)
from biosem.logs import Progress

WORDS = ["Heart", "heart", "attack", "infarction", "myocardial"]
VECS = np.array([[1, 0, 0], [0, 1, 0], [0, 0, 1], [1, 1, 0], [0, 1, 1]], dtype=np.float32)


def model_spec(spec: dict) -> dict:
    """A model spec as the workflow sees it: validated, the schema's per-format defaults filled in."""
    return config_with_defaults(evaluate={"models": {"m": spec}})["evaluate"]["models"]["m"]


def toy_kv() -> KeyedVectors:
    kv = KeyedVectors(3)
    kv.add_vectors(WORDS, VECS)
    return kv


def test_tokenize_splits_on_punctuation_and_underscores() -> None:
    assert tokenize("Non-small-cell lung_cancer (NSCLC), type 2") == [
        "non",
        "small",
        "cell",
        "lung",
        "cancer",
        "nsclc",
        "type",
        "2",
    ]
    assert tokenize("Alpha-Synuclein", lowercase=False) == ["Alpha", "Synuclein"]
    assert tokenize("β-blocker") == ["β", "blocker"]


@pytest.mark.parametrize("fmt", ["word2vec_text", "word2vec_binary", "glove"])
def test_formats_round_trip_with_max_vocab(tmp_path: Path, fmt: str) -> None:
    kv = toy_kv()
    path = tmp_path / f"vectors.{fmt}"
    if fmt == "glove":
        lines = [" ".join([w, *map(str, v)]) for w, v in zip(WORDS, VECS)]
        path.write_text("\n".join(lines) + "\n")
    else:
        kv.save_word2vec_format(str(path), binary=fmt == "word2vec_binary")
    loaded = load_keyed_vectors(path, fmt)
    assert loaded.index_to_key == WORDS
    assert np.array_equal(loaded.vectors, VECS)
    first3 = load_keyed_vectors(path, fmt, max_vocab=3)
    assert first3.index_to_key == WORDS[:3]


def test_unknown_format_and_missing_file(tmp_path: Path) -> None:
    (tmp_path / "v.txt").write_text("1 1\na 1\n")
    with pytest.raises(ValueError, match="unknown word-vector format"):
        load_keyed_vectors(tmp_path / "v.txt", "csv")
    with pytest.raises(FileNotFoundError):
        load_keyed_vectors(tmp_path / "missing.bin", "word2vec_binary")


@pytest.mark.parametrize(
    ("fmt", "text", "line", "expected", "found"),
    [
        ("word2vec_text", "3 3\na 1 2 3\nb 1 2\nc 1 2 3\n", 3, "a word and 3 values (as the header says)", "2 values"),
        ("glove", "a 1 2 3\nb 1 2 3 4\n", 2, "a word and 3 values (as the first row has)", "4 values"),
        ("word2vec_text", "2 3\na 1 2 3\nb 1 nan 3\n", 3, "finite values (no nan or inf)", "nan"),
        ("glove", "a 1 2 3\nb inf 2 3\n", 2, "finite values (no nan or inf)", "inf"),
        ("word2vec_text", "2 3\na 1 2 3\nb 1 x 3\n", 3, "a word and 3 numbers (as the header says)", "'x'"),
        ("word2vec_text", "4 3\na 1 2 3\nb 1 2 3\n", 4, "4 vectors, as the header (line 1) says", "2 vectors: the"),
        ("word2vec_text", "1 3\na 1 2 3\nb 1 2 3\n\n", 3, "1 vectors, as the header (line 1) says", "2 rows"),
    ],
)
def test_malformed_vector_files_name_file_and_line(tmp_path, fmt, text, line, expected, found) -> None:
    """gensim's own errors name neither file nor line, and it reads nan/inf and ignores rows beyond the count."""
    path = tmp_path / "v.txt"
    path.write_text(text)
    with pytest.raises(SourceFormatError) as err:
        load_keyed_vectors(path, fmt)
    assert (err.value.path, err.value.line, err.value.expected) == (path, line, expected)
    assert err.value.found.startswith(found)


def test_malformed_binary_vectors_name_the_file(tmp_path) -> None:
    kv = KeyedVectors(3)
    kv.add_vectors(["a", "b"], np.array([[1, 2, 3], [1, np.nan, 3]], dtype=np.float32))
    kv.save_word2vec_format(str(tmp_path / "nan.bin"), binary=True)
    with pytest.raises(SourceFormatError, match=r"nan.bin: expected finite values .* in the vector of 'b'"):
        load_keyed_vectors(tmp_path / "nan.bin", "word2vec_binary")
    toy_kv().save_word2vec_format(str(tmp_path / "v.bin"), binary=True)
    data = (tmp_path / "v.bin").read_bytes()
    (tmp_path / "less.bin").write_bytes(data.replace(b"5 3\n", b"4 3\n", 1))
    with pytest.raises(
        SourceFormatError, match=r"less.bin: expected 4 vectors, .*; found '\d+ more bytes after vector 4"
    ):
        load_keyed_vectors(tmp_path / "less.bin", "word2vec_binary")
    (tmp_path / "more.bin").write_bytes(data.replace(b"5 3\n", b"6 3\n", 1))
    with pytest.raises(
        SourceFormatError, match=r"more.bin: expected 6 vectors, as the header \(line 1\) says; found 'fewer"
    ):
        load_keyed_vectors(tmp_path / "more.bin", "word2vec_binary")


def test_lowercasing_keeps_the_first_most_frequent_vector() -> None:
    low = lowercase_keys(toy_kv())
    assert low.index_to_key == ["heart", "attack", "infarction", "myocardial"]
    assert np.array_equal(low["heart"], VECS[0])  # "Heart" came first in the file


def test_phrase_vectors_mean_of_words_and_coverage() -> None:
    model = WordVectors("toy", toy_kv(), lowercase=True)
    vectors, covered = model.phrase_vectors(["Heart attack", "heart-ATTACK", "heart failure", "failure"])
    assert covered.tolist() == [True, True, False, False]
    assert vectors[0] == pytest.approx([0.5, 0, 0.5])
    assert vectors[1] == pytest.approx([0.5, 0, 0.5])
    assert not vectors[2].any()
    vectors, covered = model.phrase_vectors(["heart failure", "failure"], require_all=False)
    assert covered.tolist() == [True, False]
    assert vectors[0] == pytest.approx([1, 0, 0])
    # Case kept: "heart" is the lowercase vector, "Heart" the capitalised one.
    cased = WordVectors("toy", toy_kv(), lowercase=False)
    vectors, covered = cased.phrase_vectors(["Heart", "heart", "HEART"])
    assert covered.tolist() == [True, True, False]
    assert vectors[0] == pytest.approx([1, 0, 0]) and vectors[1] == pytest.approx([0, 1, 0])


def test_phrase_key_of_a_phrase_model_wins_over_its_words() -> None:
    kv = toy_kv()
    kv.add_vectors(["myocardial infarction"], np.array([[9, 9, 9]], dtype=np.float32))
    model = WordVectors("toy", kv, lowercase=False)
    vectors, covered = model.phrase_vectors(["myocardial infarction", "infarction myocardial"])
    assert covered.all()
    assert vectors[0] == pytest.approx([9, 9, 9])
    assert vectors[1] == pytest.approx([0.5, 1, 0.5])


def test_phrase_words_csr_mean_and_max_pool() -> None:
    model = WordVectors("toy", toy_kv(), lowercase=True)
    pw = model.phrase_words(["heart attack", "myocardial failure", "failure"])
    assert pw.counts.tolist() == [2, 1, 0]
    assert pw.all_known.tolist() == [True, False, False]
    assert pw.mean()[0] == pytest.approx([0.5, 0, 0.5])
    assert pw.max_pool()[1] == pytest.approx([0, 1, 1])
    assert np.isneginf(pw.max_pool()[2]).all()
    words, mask = pw.padded(np.array([1, 0, 2]))
    assert mask.tolist() == [[True, False], [True, True], [False, False]]
    assert words[1, 1] == pytest.approx([0, 0, 1])


def test_fasttext_bin_gives_vectors_to_unknown_words(tmp_path: Path) -> None:
    sentences = [["myocardial", "infarction", "heart", "attack"]] * 20
    model = FastText(vector_size=8, window=2, min_count=1, epochs=2, seed=1, workers=1, min_n=3, max_n=4, bucket=1000)
    model.build_vocab(corpus_iterable=sentences)
    model.train(corpus_iterable=sentences, total_examples=len(sentences), epochs=2)
    path = tmp_path / "ft.bin"
    save_facebook_model(model, str(path))
    rep = load_representation("ft", model_spec({"format": "fasttext", "path": str(path), "lowercase": True}))
    vectors, covered = rep.phrase_vectors(["Infarctions", "heart"])
    assert covered.all()
    assert np.abs(vectors[0]).sum() > 0
    with pytest.raises(ValueError, match="max_vocab"):
        load_keyed_vectors(path, "fasttext", max_vocab=10)


def documents() -> pd.DataFrame:
    text = [
        "Aspirin reduces the risk of myocardial infarction in patients with coronary disease.",
        "Myocardial infarction (heart attack) follows coronary occlusion; aspirin is given early.",
        "Insulin treats diabetes mellitus; metformin also lowers glucose in type 2 diabetes.",
    ] * 10
    return pd.DataFrame(
        {"corpus": ["c"] * len(text), "document_id": [f"{i:03d}" for i in range(len(text))], "text": text}
    )


def test_corpus_sentences_and_token_counts() -> None:
    docs = documents().sample(frac=1.0, random_state=3)  # input order must not matter
    sentences = corpus_sentences(docs)
    assert sentences == corpus_sentences(documents())
    assert sentences[0][:3] == ["aspirin", "reduces", "the"]
    counts = count_tokens(sentences).set_index("token")
    assert counts.loc["aspirin", "count"] == 20 and counts.loc["aspirin", "document_count"] == 20
    assert counts.loc["diabetes", "count"] == 20 and counts.loc["diabetes", "document_count"] == 10


def test_training_is_byte_identical_across_runs_and_hash_seeds(tmp_path: Path) -> None:
    params = TrainingParams(sg=1, window=2, vector_size=16, min_count=2, epochs=3, seed=5)
    sentences = corpus_sentences(documents())
    a, b = tmp_path / "a.bin", tmp_path / "b.bin"
    save_word2vec_binary(train_word2vec(sentences, params), a)
    save_word2vec_binary(train_word2vec(sentences, params), b)
    assert a.read_bytes() == b.read_bytes()
    # A fresh interpreter with another string-hash salt trains the same bytes.
    docs = tmp_path / "docs.parquet"
    documents().to_parquet(docs)
    script = (
        "import pandas as pd, sys\n"
        "from biosem.evaluate.models import TrainingParams, corpus_sentences, train_word2vec, save_word2vec_binary\n"
        "p = TrainingParams(sg=1, window=2, vector_size=16, min_count=2, epochs=3, seed=5)\n"
        f"save_word2vec_binary(train_word2vec(corpus_sentences(pd.read_parquet({str(docs)!r})), p), sys.argv[1])\n"
    )
    c = tmp_path / "c.bin"
    env = dict(os.environ, PYTHONHASHSEED="12345")
    subprocess.run([sys.executable, "-c", script, str(c)], check=True, env=env)
    assert hashlib.sha256(c.read_bytes()).hexdigest() == hashlib.sha256(a.read_bytes()).hexdigest()
    kv = KeyedVectors.load_word2vec_format(str(a), binary=True)
    assert kv.index_to_key[0] in {"aspirin", "myocardial", "infarction", "diabetes", "coronary", "in", "the"}
    assert "metformin" in kv.key_to_index and kv.vector_size == 16


def test_training_rejects_empty_corpus() -> None:
    with pytest.raises(ValueError, match="empty corpus"):
        train_word2vec([], TrainingParams(sg=0, window=2))
    with pytest.raises(ValueError, match="min_count"):
        train_word2vec([["a", "b"]], TrainingParams(sg=0, window=2, min_count=5))


def test_sentence_encoder_is_skipped_with_a_message_when_absent(
    caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "sentence_transformers", None)  # import fails
    with caplog.at_level(logging.WARNING):
        assert load_representation("enc", model_spec({"format": "sentence_transformers", "model": "x/y"})) is None
    assert "sentence-transformers package is not installed" in caplog.text


def test_sentence_encoder_with_a_stand_in_package(
    caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    class FakeModel:
        def __init__(self, name: str, device: str = "cpu", local_files_only: bool = True) -> None:
            if name == "missing":
                raise OSError("no weights in the cache")

        def encode(self, texts, batch_size=64, convert_to_numpy=True, show_progress_bar=False):
            return np.array([[len(t), 1.0] for t in texts])

        def get_sentence_embedding_dimension(self) -> int:
            return 2

    monkeypatch.setitem(sys.modules, "sentence_transformers", types.SimpleNamespace(SentenceTransformer=FakeModel))
    enc = load_representation("enc", model_spec({"format": "sentence_transformers", "model": "some/model"}))
    vectors, covered = enc.phrase_vectors(["ab", "abcd"])
    assert covered.all() and vectors.tolist() == [[2, 1], [4, 1]]
    assert not enc.word_level
    with caplog.at_level(logging.WARNING):
        assert load_representation("enc", model_spec({"format": "sentence_transformers", "model": "missing"})) is None
    assert "could not be loaded" in caplog.text


def test_auto_case_matches_a_lower_case_vocabulary_in_lower_case(caplog: pytest.LogCaptureFixture) -> None:
    """``lowercase: auto``: a vocabulary without an upper-case letter (GloVe 6B) is matched in lower case, a
    mixed-case one as written; the choice is logged once per model; true / false decide it whatever the keys."""
    lower = KeyedVectors(3)
    lower.add_vectors(["heart", "attack", "δ", "il6"], np.eye(4, 3, dtype=np.float32))
    terms = ["Heart Attack", "heart attack", "IL6", "Δ"]
    assert not has_upper_case(lower.index_to_key) and has_upper_case(["heart", "Δ"]) and has_upper_case(["IL6"])
    with caplog.at_level(logging.INFO, logger="biosem.evaluate.models"):
        auto = WordVectors("glove", lower, lowercase="auto")
    assert auto.lowercase is True and auto.kv is lower  # keys already lower case: no copy
    assert auto.phrase_vectors(terms)[1].tolist() == [True, True, True, True]
    assert caplog.text.count("model glove: no upper-case letter in its 4 keys") == 1
    assert "lowercase: auto" in caplog.text and "--case-sensitive" in caplog.text
    written = WordVectors("glove", lower, lowercase=False)  # --case-sensitive, config lowercase: false
    assert written.lowercase is False and written.phrase_vectors(terms)[1].tolist() == [False, True, False, False]
    caplog.clear()
    with caplog.at_level(logging.INFO, logger="biosem.evaluate.models"):
        mixed = WordVectors("toy", toy_kv(), lowercase="auto")  # "Heart" and "heart" are two keys
    assert mixed.lowercase is False and "upper-case letters in its keys, so terms are matched as written" in caplog.text
    vectors, covered = mixed.phrase_vectors(["Heart", "heart", "HEART"])
    assert covered.tolist() == [True, True, False] and vectors[0].tolist() == [1, 0, 0]
    assert WordVectors("toy", toy_kv(), lowercase=True).phrase_vectors(["HEART"])[1].tolist() == [True]
    assert resolve_case("x", ["a"], True) is True and resolve_case("x", ["a"], False) is False
    with pytest.raises(ValueError, match="lowercase must be true, false or 'auto', not 'yes'"):
        WordVectors("toy", toy_kv(), lowercase="yes")


def test_a_glove_file_loads_with_auto_case_by_default(tmp_path: Path) -> None:
    """Through the config spec (schema default ``auto``) a lower-case GloVe file matches capitalised terms; with
    ``lowercase: false`` it does not."""
    path = tmp_path / "lower.txt"
    path.write_text("malaria 0.1 0.2\nfever 0.3 0.1\n")
    spec = model_spec({"format": "glove", "path": str(path)})
    assert spec["lowercase"] == "auto"
    assert load_representation("g", spec).phrase_vectors(["Malaria", "Fever"])[1].tolist() == [True, True]
    cased = load_representation("g", {**spec, "lowercase": False})
    assert cased.phrase_vectors(["Malaria", "fever"])[1].tolist() == [False, True]


class BatchingModel:
    """A stand-in for a sentence-transformers model that batches as ``SentenceTransformer.encode`` does (the
    whole input sorted by length, longest first, then cut into batches) and whose vectors depend on the batch
    (the longest string of the batch: its padding), so that any change of the batches changes the vectors.
    Runs its forward hooks on each batch's output as ``nn.Module.__call__`` does."""

    def __init__(self) -> None:
        self.hooks: dict[int, object] = {}
        self.calls = 0

    def register_forward_hook(self, hook):
        key = len(self.hooks) + 100 * self.calls
        self.hooks[key] = hook
        return types.SimpleNamespace(remove=lambda: self.hooks.pop(key))

    def encode(self, texts, batch_size=64, convert_to_numpy=True, show_progress_bar=False):
        self.calls += 1
        order = np.argsort([-len(t) for t in texts], kind="stable")
        out = np.zeros((len(texts), 2), dtype=np.float32)
        for start in range(0, len(texts), batch_size):
            batch = order[start : start + batch_size]
            padding = max(len(texts[i]) for i in batch)
            rows = np.array([[len(texts[i]), padding] for i in batch], dtype=np.float32)
            for hook in list(self.hooks.values()):
                hook(self, ({},), {"sentence_embedding": rows})
            out[batch] = rows
        return out


def test_sentence_encoder_logs_progress_and_encodes_in_one_call(
    caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Progress at every tenth of the strings (a fake clock: 11 s a batch), from a hook that counts each batch's
    rows; the vectors are those of one ``encode`` call over all strings (the batches as the model cuts them),
    and the hook is gone afterwards."""
    strings = [f"term {'x' * (i % 37)} {i}" for i in range(1000)]
    model = BatchingModel()
    expected = model.encode(strings, batch_size=64)
    ticks = iter(range(0, 100_000, 11))
    monkeypatch.setattr(models, "Progress", functools.partial(Progress, clock=lambda: float(next(ticks))))
    with caplog.at_level(logging.INFO, logger="biosem.evaluate.models"):
        vectors, covered = SentenceEncoder("enc", model, batch_size=64).phrase_vectors(strings)
    assert np.array_equal(vectors, expected) and covered.all() and model.calls == 2 and not model.hooks
    lines = [r.getMessage() for r in caplog.records if r.getMessage().startswith("enc: encoding")]
    # 16 batches of 64 (the last of 40): a line each time another tenth is passed, then the final one
    assert [line.split(" (")[1].split(" strings")[0] for line in lines] == [
        "128/1,000",
        "256/1,000",
        "320/1,000",
        "448/1,000",
        "512/1,000",
        "640/1,000",
        "704/1,000",
        "832/1,000",
        "960/1,000",
        "1,000/1,000",
    ]
    assert lines[-1].startswith("enc: encoding: 100% (1,000/1,000 strings)") and "done in" in lines[-1]
