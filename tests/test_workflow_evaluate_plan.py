"""Wiring of the evaluate stage (biosem.workflow.evaluate): which families and models enter the DAG."""

from __future__ import annotations

from types import SimpleNamespace

import pytest
import yaml
from conftest import REPO

from biosem.workflow import evaluate as targets


def config() -> dict:
    return yaml.safe_load((REPO / "config" / "config.yaml").read_text())


def plan(cfg: dict, corpora: list[str], analogies: list[str] = (), agreement: list[str] = (), wic: list[str] = ()):
    return targets.evaluation_plan(cfg, lambda name: f"resources/{name}/file", ["fsn_syn_easy_random"], corpora, analogies, agreement, wic)


DOCS = ["results/intermediate/documents/bc5cdr.parquet", "results/intermediate/documents/ncbi_disease.parquet"]


def test_trained_models_wait_for_their_corpora() -> None:
    cfg = config()
    p = plan(cfg, corpora=[])
    assert p.evaluated == [] and targets.evaluation_targets(p) == []
    p = plan(cfg, corpora=DOCS)
    assert p.evaluated == ["cbow_w10", "cbow_w2", "sg_w10", "sg_w2"]
    assert targets.evaluation_targets(p)[:2] == ["results/evaluation/results.parquet", "results/evaluation/results.csv"]
    # An external model is evaluated even without corpora (and no frequency bands then).
    cfg["evaluate"]["models"]["pubmed"] = {"format": "word2vec_binary", "path": "/data/pubmed.bin"}
    p = plan(cfg, corpora=[])
    assert p.evaluated == ["pubmed"]
    w = SimpleNamespace(model="pubmed")
    assert targets.rated_inputs(p, w)["token_counts"] == []
    assert targets.model_input(p, w) == "/data/pubmed.bin"


def test_families_follow_their_producers() -> None:
    cfg = config()
    p = plan(cfg, corpora=DOCS)
    parts = targets.evaluation_parts(p)
    assert "results/evaluation/termpairs/mcnemar.parquet" in parts
    assert not any("/analogies/" in x or "/wic/" in x for x in parts)
    p = plan(
        cfg, corpora=DOCS,
        analogies=["results/datasets/analogies/hpo/all_info.parquet", "results/datasets/analogies/hpo/counts.tsv",
                   "results/intermediate/term_counts/hpo.parquet"],
        agreement=["results/datasets/simlex/rated/simverb3500.parquet", "results/datasets/simlex/rated/simverb3500.txt"],
        wic=["results/datasets/wic/dev.parquet", "results/datasets/wic/test.parquet"],
    )
    assert p.analogy_datasets == {"analogies/hpo/all_info": "results/datasets/analogies/hpo/all_info.parquet"}
    assert p.analogy_terminologies == ["hpo"]
    assert p.built_rated == {"simlex/simverb3500": "results/datasets/simlex/rated/simverb3500.parquet"}
    parts = targets.evaluation_parts(p)
    assert "results/evaluation/analogies/sg_w2.parquet" in parts and "results/evaluation/baselines/wic_random.parquet" in parts
    w = SimpleNamespace(model="sg_w2")
    assert targets.analogy_inputs(p, w)["term_counts"] == ["results/intermediate/term_counts/hpo.parquet"]
    assert targets.termpair_inputs(p, w)["relations"] == ["results/intermediate/relations/hpo.parquet"]
    assert targets.training_params(p, cfg, w)["sg"] == 1 and targets.training_params(p, cfg, w)["seed"] == cfg["seed"]


def test_config_checks() -> None:
    cfg = config()
    cfg["evaluate"]["benchmarks"]["x"] = {"source": "nowhere", "format": "three_column"}
    with pytest.raises(ValueError, match="evaluate.benchmarks.x.source"):
        targets.check_config(cfg)
    cfg = config()
    cfg["evaluate"]["models"]["random"] = {"format": "glove", "path": "x"}
    with pytest.raises(ValueError, match="reserved"):
        targets.check_config(cfg)
