"""What a checkout holds under its config (biosem.workflow.checkout, biosem.evaluate.catalogue): the datasets the
plan declares for the evaluate stage, those of them that are built, the benchmarks found, and the plan's stages
without the release."""

from __future__ import annotations

import copy
import hashlib
from pathlib import Path

import pytest
from conftest import validated_config, workflow_config

from biosem.analogies.construct import DATASETS as ANALOGY_DATASETS
from biosem.evaluate import FAMILIES
from biosem.evaluate.catalogue import Catalogue, find_benchmarks
from biosem.layout import outputs, paths
from biosem.termpairs import DATASETS as TERMPAIR_DATASETS
from biosem.workflow.plan import Plan, Stages

TERMINOLOGIES = ["snomed_sample", "hpo", "umls_sample", "cl"]
"""The term-pair terminologies of the workflow tests' config (config/test/config.yaml)."""


@pytest.fixture(scope="module")
def config() -> dict:
    """The workflow tests' config (the default with config/test/config.yaml), validated."""
    return validated_config(workflow_config())


@pytest.fixture(scope="module")
def declared(config: dict) -> Catalogue:
    return Stages(config).evaluate.catalogue()


def _touch(*files: str) -> None:
    for file in files:
        Path(file).parent.mkdir(parents=True, exist_ok=True)
        Path(file).write_bytes(b"")


def test_the_catalogue_is_what_the_plan_declares(config: dict, declared: Catalogue) -> None:
    """Every term-pair dataset of the config's four term-pair terminologies (20 each), the six settings of each
    analogies terminology with its term counts, the one rating set, the WiC dev and test splits, the token counts:
    the names and files the workflow's evaluate rules read (those of the full Plan)."""
    assert config["termpairs"]["terminologies"] == TERMINOLOGIES
    assert len(declared.termpairs) == 80 == len(TERMINOLOGIES) * len(TERMPAIR_DATASETS)
    assert declared.termpairs["termpairs/hpo/fsn_syn_easy_random"] == outputs.termpair_dataset.path(
        terminology="hpo", dataset="fsn_syn_easy_random"
    )
    assert {name.split("/")[1] for name in declared.termpairs} == set(TERMINOLOGIES)
    assert list(declared.termpairs) == sorted(declared.termpairs)
    analogies = config["analogies"]["terminologies"]
    assert len(declared.analogies) == len(analogies) * len(ANALOGY_DATASETS)
    assert declared.term_counts == {t: paths.intermediate("term_counts", t) for t in sorted(analogies)}
    assert declared.rated == {"simlex/simverb3500": outputs.rated_dataset.path(ratings="simverb3500")}
    assert declared.wic == {f"wic/{s}": outputs.wic_split.path(split=s) for s in ("dev", "test")}
    assert declared.token_counts == outputs.token_counts.template and declared.band_corpus
    plan = Plan(config).evaluate
    assert (plan.termpair_datasets, plan.analogy_datasets, plan.built_rated) == (
        dict(declared.termpairs),
        dict(declared.analogies),
        dict(declared.rated),
    )


def test_built_keeps_the_declared_datasets_whose_files_exist(
    declared: Catalogue, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """hpo's term pairs are built, cl's in part, snomed_sample's and umls_sample's not; go's are on disk but go
    is not a term-pair terminology of the config; hpo's analogies have their term counts, mesh's not; one WiC
    split of two; the rating set's dataset and one the config does not name."""
    monkeypatch.chdir(tmp_path)
    _touch(*(outputs.termpair_dataset.path(terminology="hpo", dataset=d) for d in TERMPAIR_DATASETS))
    _touch(outputs.termpair_dataset.path(terminology="cl", dataset="syn_syn_hard_levenshtein"))
    _touch(outputs.termpair_dataset.path(terminology="go", dataset="fsn_syn_easy_random"))
    for terminology in ("hpo", "mesh"):
        _touch(*(outputs.analogy_dataset.path(terminology=terminology, setting=s) for s in ANALOGY_DATASETS))
    _touch(paths.intermediate("term_counts", "hpo"), paths.intermediate("term_counts", "go"))
    _touch(outputs.wic_split.path(split="dev"))
    _touch(outputs.rated_dataset.path(ratings="simverb3500"), outputs.rated_dataset.path(ratings="mine"))

    built = declared.built()
    assert list(built.termpairs) == sorted(
        [f"termpairs/hpo/{d}" for d in TERMPAIR_DATASETS] + ["termpairs/cl/syn_syn_hard_levenshtein"]
    )
    assert set(built.analogies) == {f"analogies/hpo/{s}" for s in ANALOGY_DATASETS}
    assert built.term_counts == {"hpo": paths.intermediate("term_counts", "hpo")}  # go has no analogies here
    assert built.rated == {"simlex/simverb3500": outputs.rated_dataset.path(ratings="simverb3500")}
    assert built.wic == {} and built.token_counts is None
    assert built.missing(FAMILIES) == [f"wic: no built dataset under {paths.DATASETS}"]

    _touch(outputs.wic_split.path(split="test"), outputs.token_counts.template)
    built = declared.built(["termpairs", "wic"])
    assert list(built.wic) == ["wic/dev", "wic/test"] and len(built.termpairs) == 21
    assert built.rated == {} == built.analogies == built.term_counts and built.token_counts is None
    assert declared.built(["rated"]).token_counts == outputs.token_counts.template
    assert declared.built(["rated"]).missing(["rated", "analogies"]) == [
        f"analogies: no built dataset under {paths.DATASETS}"
    ]
    with pytest.raises(KeyError, match="no dataset family 'words'"):
        declared.built(["words"]).family("words")


def test_nothing_built_in_an_empty_folder(declared: Catalogue, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    built = declared.built()
    assert not any(built.family(f) for f in FAMILIES) and built.term_counts == {}
    assert built.missing(FAMILIES) == [f"{f}: no built dataset under {paths.DATASETS}" for f in FAMILIES[1:]]


def test_benchmarks_without_a_file_are_skipped_with_a_note(
    config: dict, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """No mirror and nothing fetched: every benchmark is skipped, each with a note naming its source; a fetched
    file whose content matches the pinned sha256 is found."""
    monkeypatch.chdir(tmp_path)
    cfg = {**config, "mirror_dirs": []}
    found, notes = find_benchmarks(cfg)
    names = sorted(cfg["evaluate"]["benchmarks"])
    assert found == [] and len(notes) == len(names) > 0
    source = cfg["evaluate"]["benchmarks"][names[0]]["source"]
    assert notes[0] == f"benchmark {names[0]} skipped: no file of source {source} (none)"

    text = b"old\tnew\t1.0\n"
    spec = {"filename": "bench.txt", "sha256": hashlib.sha256(text).hexdigest()}
    cfg = copy.deepcopy(cfg)
    cfg["sources"]["bench"] = spec
    cfg["evaluate"]["benchmarks"] = {"bench": {"source": "bench", "format": "three_column"}}
    Path(paths.source("bench", "bench.txt")).parent.mkdir(parents=True)
    Path(paths.source("bench", "bench.txt")).write_bytes(text)
    found, notes = find_benchmarks(cfg)
    assert found == [
        ({"name": "bench", "source": "bench", "format": "three_column"}, paths.source("bench", "bench.txt"))
    ]
    assert notes == []
    edited = b"edited\n"
    Path(paths.source("bench", "bench.txt")).write_bytes(edited)
    assert find_benchmarks(cfg)[1] == [
        f"benchmark bench skipped: no file of source bench ({paths.source('bench', 'bench.txt')} (sha256 "
        f"{hashlib.sha256(edited).hexdigest()} != pinned {spec['sha256']}))"
    ]


def test_the_stages_need_no_release(config: dict) -> None:
    """A source licence biosem does not know stops the full plan (its release) but not the stages that build and
    score the datasets, which ``biosem evaluate`` reads."""
    cfg = copy.deepcopy(config)
    source = next(iter(cfg["sources"]))
    cfg["sources"][source]["licence"] = "a licence nobody knows"
    with pytest.raises(ValueError, match="is not a licence biosem knows"):
        Plan(cfg)
    assert Stages(cfg).evaluate.catalogue().termpairs.keys() == Stages(config).evaluate.catalogue().termpairs.keys()
