"""The pure helpers of the term-pair benchmark (bench/bench_termpairs.py): kernel list, MeSH source files
from the config, dataset selection, counts, step table, agreement of the kernels, and its command line."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

import pandas as pd
import pytest
import yaml
from conftest import REPO

SCRIPT = REPO / "bench" / "bench_termpairs.py"


@pytest.fixture(scope="module")
def bench() -> ModuleType:
    spec = importlib.util.spec_from_file_location("bench_termpairs", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_parse_kernels(bench: ModuleType) -> None:
    assert bench.parse_kernels("avx512,numba") == ["avx512", "numba"]
    assert bench.parse_kernels(" numba , avx512,numba") == ["numba", "avx512"]
    for bad in ("", ",", "avx2", "numba,sse"):
        with pytest.raises(ValueError):
            bench.parse_kernels(bad)


def test_mesh_files_follow_the_config(bench: ModuleType, tmp_path: Path) -> None:
    config = {
        "sources": {"thes": {"filename": "t.rds"}, "supp": {"filename": "s.tsv.gz"}},
        "terminologies": {"mesh": {"sources": {"thesaurus": "thes", "supplementary_records": "supp"}}},
    }
    assert bench.mesh_files(config, tmp_path) == {
        "thesaurus": tmp_path / "t.rds",
        "supplementary_records": tmp_path / "s.tsv.gz",
    }
    with pytest.raises(KeyError):
        bench.mesh_files(config, tmp_path, "mesh_xml")


def test_mesh_files_of_the_default_config(bench: ModuleType) -> None:
    config = yaml.safe_load(bench.DEFAULT_CONFIG.read_text())
    files = bench.mesh_files(config, "/m")
    assert set(files) == {"thesaurus", "trees", "pharmacological_actions", "supplementary_records"}
    assert files["thesaurus"] == Path("/m/data_mesh_thesaurus.rds")


def test_dataset_names(bench: ModuleType) -> None:
    every = bench.dataset_names()
    assert len(every) == 20 and len(set(every)) == 20
    assert ("fsn_syn", "hard", "levenshtein") in every
    assert bench.dataset_names(["same_as_easy_random", "fsn_syn_hard_levenshtein"]) == [
        ("fsn_syn", "hard", "levenshtein"),
        ("same_as", "easy", "random"),
    ]
    with pytest.raises(ValueError, match="fsn_syn_medium_random"):
        bench.dataset_names(["fsn_syn_medium_random"])


def test_positive_counts_list_every_kind(bench: ModuleType) -> None:
    positives = pd.DataFrame({"kind": ["fsn_syn", "fsn_syn", "syn_syn"], "difficulty": ["easy", "easy", "hard"]})
    counts = bench.positive_counts(positives)
    assert len(counts) == 10
    assert counts["fsn_syn_easy"] == 2 and counts["syn_syn_hard"] == 1
    assert counts["fsn_syn_hard"] == 0 and counts["same_as_easy"] == 0


def _stats(kind: str, difficulty: str, strategy: str, seconds: float, **extra: object) -> dict[str, object]:
    return {"kind": kind, "difficulty": difficulty, "strategy": strategy, "seconds": seconds, **extra}


def test_step_times_group_the_datasets(bench: ModuleType) -> None:
    report = {
        "ingest_s": 1.0,
        "positives_s": 2.0,
        "datasets": {
            "a": _stats("fsn_syn", "easy", "random", 0.5),
            "b": _stats("same_as", "hard", "random", 0.25),
            "c": _stats("same_as", "hard", "levenshtein", 3.0),
            "d": _stats("fsn_syn", "hard", "levenshtein", 4.0),
            "e": _stats("syn_syn", "hard", "levenshtein", 6.0),
        },
        "joint_search": {"hard": {"seconds": 10.0, "pool": 5}},
    }
    steps = bench.step_times(report, ["fsn_syn", "syn_syn"])
    assert steps == {
        "ingest": 1.0,
        "positives": 2.0,
        "random": 0.8,
        "association_levenshtein": 3.0,
        "hard_levenshtein": 10.0,
        "hard_search": 10.0,
        "total": 26.8,
    }
    # Without a joint search every Levenshtein dataset of a kind is its own step.
    assert bench.step_times(report, [])["association_levenshtein"] == 13.0
    assert bench.step_times({"ingest_s": 1.5}, ["fsn_syn"]) == {"ingest": 1.5, "total": 1.5}


def test_step_times_of_cpu_seconds(bench: ModuleType) -> None:
    report = {
        "ingest_s": 1.0,
        "ingest_cpu_s": 0.5,
        "datasets": {"a": _stats("fsn_syn", "easy", "random", 9.0, cpu_seconds=1.5)},
        "joint_search": {"easy": {"seconds": 10.0, "cpu_seconds": 18.0}},
    }
    assert bench.step_times(report, ["fsn_syn"], cpu=True) == {
        "ingest": 0.5,
        "random": 1.5,
        "easy_search": 18.0,
        "total": 20.0,
    }


def test_kernels_disagree(bench: ModuleType) -> None:
    same = _stats("fsn_syn", "hard", "levenshtein", 1.0, positives=3, negatives=3, rows=6)
    other = {**same, "mean_levenshtein_negative": 7.5, "seconds": 9.0}
    runs = [
        {"input": "mesh", "kernel": "avx512", "datasets": {"x": same, "y": same, "only_here": same}},
        {"input": "mesh", "kernel": "numba", "datasets": {"x": {**same, "seconds": 2.0}, "y": other}},
        {"input": "snomed", "kernel": "avx512", "datasets": {"y": other}},
        {"input": "cut", "kernel": "numba"},
    ]
    assert bench.kernels_disagree(runs) == ["mesh y"]


def test_inputs_and_child_command_line(bench: ModuleType) -> None:
    args = bench.argparse.Namespace(
        release="/r",
        mesh_dir="/m",
        mesh_supplementary=True,
        workers=2,
        config="c.yaml",
        out="o/t.json",
        subset_terms=10,
        subset_queries=5,
        skip_subset=True,
        joint_search=None,
        datasets=["fsn_syn_easy_random"],
    )
    inputs = bench.inputs_from_args(args)
    assert [(i.name, i.reader, i.supplementary) for i in inputs] == [
        ("snomed_scale", "rf2", False),
        ("mesh", "mesh", False),
        ("mesh_supplementary", "mesh", True),
    ]
    argv = bench.child_argv(args, inputs[2], "numba")
    assert argv[argv.index("--run") + 1] == "mesh_supplementary:numba"
    assert "--skip-subset" in argv and "--joint-search" not in argv
    assert argv[-2:] == ["--datasets", "fsn_syn_easy_random"]
    assert bench.run_path(Path("o/t.json"), inputs[2], "numba") == Path("o/t.mesh_supplementary.numba.json")
    # Each run's process is given every input it may be asked for.
    for inp in inputs:
        child = bench.build_parser("avx512").parse_args(bench.child_argv(args, inp, "avx512")[2:])
        assert bench.inputs_from_args(child) == inputs
        assert (child.workers, child.out, child.datasets) == (2, "o/t.json", ["fsn_syn_easy_random"])


def test_command_line_errors(bench: ModuleType, capsys: pytest.CaptureFixture[str]) -> None:
    for argv in (
        [],
        ["--mesh-supplementary", "--release", "/r"],
        ["--release", "/r", "--kernels", "sse"],
        ["--release", "/r", "--datasets", "nope"],
    ):
        with pytest.raises(SystemExit) as exit_info:
            bench.main(argv)
        assert exit_info.value.code == 2
    assert "unknown dataset(s): nope" in capsys.readouterr().err
