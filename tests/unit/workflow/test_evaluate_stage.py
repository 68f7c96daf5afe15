"""Wiring of the evaluate stage (biosem.workflow.evaluate): which families and models enter the DAG."""

from __future__ import annotations

from types import SimpleNamespace

import pytest
import yaml
from conftest import REPO

from biosem.workflow import evaluate
from biosem.workflow.evaluate import Evaluate


def config() -> dict:
    return yaml.safe_load((REPO / "config" / "config.yaml").read_text())


def stage(cfg: dict, corpora=(), termpairs=None, analogies=None, rated=None, wic=False) -> Evaluate:
    termpairs = (
        {"termpairs/hpo/fsn_syn_easy_random": "results/datasets/termpairs/hpo/fsn_syn_easy_random.parquet"}
        if termpairs is None
        else termpairs
    )
    return Evaluate(cfg, list(corpora), termpairs, analogies or {}, rated or {}, wic)


CORPORA = config()["evaluate"]["training"]["corpora"]
"""The default's training corpora: BC5CDR, NCBI Disease and eight token-per-line corpora (issue 38)."""


def test_trained_models_wait_for_their_corpora() -> None:
    cfg = config()
    p = stage(cfg)
    assert p.evaluated == [] and p.targets() == []
    p = stage(cfg, corpora=CORPORA)
    assert p.evaluated == ["cbow_w10", "cbow_w2", "sg_w10", "sg_w2"]
    assert p.targets()[:2] == ["results/evaluation/results.parquet", "results/evaluation/results.csv"]
    assert p.training_documents == [f"results/intermediate/documents/{c}.parquet" for c in CORPORA]
    # An external model is evaluated even without corpora (and no frequency bands then).
    cfg["evaluate"]["models"]["pubmed"] = {"format": "word2vec_binary", "path": "/data/pubmed.bin"}
    p = stage(cfg)
    assert p.evaluated == ["pubmed"]
    w = SimpleNamespace(model="pubmed")
    assert p.rated_inputs(w)["token_counts"] == []
    assert p.model_input(w) == "/data/pubmed.bin"


def test_families_follow_their_producers() -> None:
    cfg = config()
    p = stage(cfg, corpora=CORPORA)
    parts = p.parts()
    assert "results/evaluation/termpairs/mcnemar.parquet" in parts
    assert not any("/analogies/" in x or "/wic/" in x for x in parts)
    p = stage(
        cfg,
        corpora=CORPORA,
        analogies={"analogies/hpo/all_info": "results/datasets/analogies/hpo/all_info.parquet"},
        rated={"simlex/simverb3500": "results/datasets/simlex/rated/simverb3500.parquet"},
        wic=True,
    )
    assert p.analogy_terminologies == ["hpo"]
    assert p.built_rated == {"simlex/simverb3500": "results/datasets/simlex/rated/simverb3500.parquet"}
    assert p.wic_splits == ["results/datasets/wic/dev.parquet", "results/datasets/wic/test.parquet"]
    parts = p.parts()
    assert (
        "results/evaluation/analogies/sg_w2.parquet" in parts
        and "results/evaluation/baselines/wic_random.parquet" in parts
    )
    w = SimpleNamespace(model="sg_w2")
    assert p.model_input(w) == "results/evaluation/models/sg_w2.bin"
    assert p.analogy_inputs(w)["term_counts"] == ["results/intermediate/term_counts/hpo.parquet"]
    assert p.termpair_inputs(w)["relations"] == ["results/intermediate/relations/hpo.parquet"]
    assert p.training_params(w)["sg"] == 1 and p.training_params(w)["seed"] == cfg["seed"]
    # Without term-pair datasets there is no term-pair evaluation and no McNemar table.
    assert not any("/termpairs/" in x for x in stage(cfg, corpora=CORPORA, termpairs={}).parts())


def test_config_checks() -> None:
    cfg = config()
    cfg["evaluate"]["benchmarks"]["x"] = {"source": "nowhere", "format": "three_column"}
    with pytest.raises(ValueError, match="evaluate.benchmarks.x.source"):
        evaluate.check_config(cfg)
    cfg = config()
    cfg["evaluate"]["models"]["random"] = {"format": "glove", "path": "x"}
    with pytest.raises(ValueError, match="reserved"):
        stage(cfg)


def test_a_sentence_encoder_reads_its_embedding_table() -> None:
    """An encoder's evaluate rules read the table encode_strings writes from every dataset it is scored on."""
    cfg = config()
    cfg["evaluate"]["models"]["minilm"] = {"format": "sentence_transformers", "model": "/models/all-MiniLM-L6-v2"}
    p = stage(
        cfg,
        corpora=CORPORA,
        analogies={"analogies/hpo/all_info": "results/datasets/analogies/hpo/all_info.parquet"},
        rated={"simlex/simverb3500": "results/datasets/simlex/rated/simverb3500.parquet"},
        wic=True,
    )
    assert p.encoders == ["minilm"] and "minilm" in p.evaluated
    w = SimpleNamespace(model="minilm")
    table = "results/evaluation/embeddings/minilm.parquet"
    assert p.embeddings("minilm") == table
    assert all(f(w)["model"] == table for f in (p.rated_inputs, p.termpair_inputs, p.analogy_inputs, p.wic_inputs))
    inputs = p.encode_inputs(w)
    assert "model" not in inputs
    assert inputs["benchmarks"] == p.benchmark_files and inputs["built"] == list(p.built_rated.values())
    assert inputs["termpairs"] == ["results/datasets/termpairs/hpo/fsn_syn_easy_random.parquet"]
    assert inputs["concepts"] == ["results/intermediate/concepts/hpo.parquet"] and p.encoded_categories == ["hpo"]
    assert inputs["analogies"] == ["results/datasets/analogies/hpo/all_info.parquet"]
    assert inputs["term_counts"] == ["results/intermediate/term_counts/hpo.parquet"]
    assert inputs["splits"] == p.wic_splits
    # Families that are not scored add no input (and no category tables without term pairs).
    p = stage(cfg, termpairs={})
    inputs = p.encode_inputs(w)
    assert inputs["termpairs"] == inputs["concepts"] == inputs["analogies"] == inputs["splits"] == []
    assert p.encoded_categories == []


def test_a_null_model_is_not_evaluated() -> None:
    """`evaluate.models.sg_w2: null` in an overlay passes the schema and plans no sg_w2 job."""
    from conftest import validated_config

    base = yaml.safe_load((REPO / "config" / "config.yaml").read_text())
    cfg = validated_config(base, {"evaluate": {"models": {"sg_w2": None}}})
    assert cfg["evaluate"]["models"]["sg_w2"] is None
    assert cfg["evaluate"]["models"]["sg_w10"] == {"format": "train", "sg": 1, "window": 10}
    p = stage(cfg, corpora=CORPORA)
    assert sorted(p.models) == p.evaluated == p.trained == ["cbow_w10", "cbow_w2", "sg_w10"]
    parts = p.parts()
    assert not any("sg_w2." in x for x in parts)
    assert parts.count("results/evaluation/termpairs/mcnemar.parquet") == 1
    assert p.termpair_predictions() == [f"results/evaluation/termpairs/{m}.predictions.parquet" for m in p.evaluated]


def test_removing_every_model_is_an_error_naming_the_keys() -> None:
    from conftest import validated_config

    base = yaml.safe_load((REPO / "config" / "config.yaml").read_text())
    removed = {m: None for m in base["evaluate"]["models"]}
    cfg = validated_config(base, {"evaluate": {"models": removed}})
    with pytest.raises(ValueError, match=r"evaluate.models: every model is null \(removed: evaluate.models.cbow_w10, "):
        stage(cfg, corpora=CORPORA)
    # Removing the defaults while adding a model is fine; a config without models evaluates nothing.
    cfg = validated_config(base, {"evaluate": {"models": {**removed, "glove": {"format": "glove", "path": "g.txt"}}}})
    assert stage(cfg, corpora=CORPORA).evaluated == ["glove"]
    cfg["evaluate"]["models"] = {}
    assert stage(cfg, corpora=CORPORA).targets() == []
    # The name `random` stays reserved; removing a model called random is not using it.
    cfg = validated_config(base, {"evaluate": {"models": {"random": None}}})
    assert "random" not in stage(cfg, corpora=CORPORA).models


def test_frequency_bands_count_the_configured_corpus() -> None:
    cfg = config()
    p = stage(cfg, corpora=CORPORA)
    assert cfg["evaluate"]["rated"]["frequency_corpus"] == "training"
    assert p.frequency_documents == p.training_documents and p.band_corpus == "+".join(CORPORA)
    assert p.band_corpus.startswith("bc5cdr+ncbi_disease+craft+anatem+")
    w = SimpleNamespace(model="sg_w2")
    assert p.rated_inputs(w)["token_counts"] == ["results/evaluation/models/token_counts.parquet"]
    cfg["evaluate"]["rated"]["frequency_corpus"] = "biored"
    p = stage(cfg, corpora=[*CORPORA, "biored"])
    assert p.frequency_documents == ["results/intermediate/documents/biored.parquet"]
    assert p.training_documents == [f"results/intermediate/documents/{c}.parquet" for c in CORPORA]
    assert p.band_corpus == "biored" and p.rated_inputs(w)["token_counts"]
    with pytest.raises(ValueError, match="frequency_corpus: 'biored' is not ingested by the corpora stage"):
        stage(cfg, corpora=CORPORA)
    cfg["evaluate"]["rated"]["frequency_corpus"] = "pubmed"
    with pytest.raises(ValueError, match=r"'pubmed' is neither 'training' nor a key of `corpora.specs`"):
        stage(cfg, corpora=CORPORA)


def test_results_tables_per_family_and_terminology() -> None:
    """The report's parts of the results table: rated, the term pairs of every scored or category
    terminology, the analogies of every terminology, WiC when its splits are built."""
    cfg = config()
    termpairs = {f"termpairs/{t}/fsn_syn_easy_random": f"{t}.parquet" for t in ("mesh", "go")}
    analogies = {"analogies/doid/all_info": "doid.parquet", "analogies/doid/single_answer": "doid1.parquet"}
    p = stage(cfg, corpora=CORPORA, termpairs=termpairs, analogies=analogies, wic=True)
    terminologies = sorted({"mesh", "go", *p.encoded_categories})
    assert p.result_tables == ["rated", *(f"termpairs/{t}" for t in terminologies), "analogies/doid", "wic"]
    files = p.result_table_files()
    assert files[0] == "results/evaluation/tables/rated.csv" and "results/evaluation/tables/termpairs/go.csv" in files
    assert set(files) <= set(p.targets())
    assert stage(cfg, corpora=CORPORA, termpairs={}).result_tables == ["rated"]
