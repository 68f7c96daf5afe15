"""The ``biosem`` command (biosem.cli): help, exit codes of the wrapped checks, ``info`` on the repository's
config, and the console script declared in pyproject.toml."""

from __future__ import annotations

import gzip
import json
import os
import subprocess
import sys
import time
import tomllib
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

import numpy as np
import pandas as pd
import pytest
from conftest import REPO, SHARED_DATA
from gensim.models import KeyedVectors

from biosem.cli import main
from biosem.errors import SourceFormatError
from biosem.evaluate.benchmarks import read_rated_pairs
from biosem.evaluate.models import WordVectors, infer_vector_format, load_keyed_vectors
from biosem.evaluate.rated import evaluate_rated_datasets
from biosem.evaluate.results import COLUMNS
from biosem.evaluate.suite import rated_params
from biosem.layout import outputs
from biosem.release import check as release_check
from biosem.termpairs import DATASETS as TERMPAIR_DATASETS
from biosem.wic import GROUPS, TRAIN_SENTENCE_CAP
from biosem.wic import validate as wic_validate
from biosem.workflow.checkout import load_config


def _exit_code(argv: list[str]) -> int:
    """``main(argv)``'s exit code, whether it returns it or argparse raises SystemExit."""
    try:
        return main(argv)
    except SystemExit as exc:
        return 0 if exc.code is None else int(exc.code)


def test_console_script_is_declared() -> None:
    pyproject = tomllib.loads((REPO / "pyproject.toml").read_text())
    assert pyproject["project"]["scripts"]["biosem"] == "biosem.cli:main"


@pytest.mark.parametrize("command", [[], ["validate-wic"], ["check-release"], ["info"], ["evaluate"]], ids=" ".join)
def test_help_exits_0(command: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert _exit_code([*command, "--help"]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"usage: biosem {' '.join(command)}".rstrip())


HEAVY = ("gensim", "pandas", "snakemake", "pyarrow", "mlcroissant", "torch")
"""Modules that take seconds to import: ``biosem --help`` must not load them."""


def test_importing_the_cli_loads_nothing_heavy() -> None:
    """biosem.cli, and biosem.arguments (the checks' arguments, which the checks' own modules import too),
    import the standard library and biosem's light modules only (each command imports the rest when it
    runs): in a fresh interpreter, building the whole parser loads none of HEAVY."""
    probe = (
        "import sys, biosem.arguments, biosem.cli; biosem.cli.build_parser(); "
        f"print(' '.join(m for m in {HEAVY!r} if m in sys.modules))"
    )
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))
    result = subprocess.run([sys.executable, "-c", probe], check=True, capture_output=True, text=True, env=env)
    assert result.stdout.split() == []


@pytest.mark.parametrize("command", [[], ["validate-wic"], ["check-release"], ["info"], ["evaluate"]], ids=" ".join)
def test_help_answers_at_once(command: list[str]) -> None:
    """Each ``--help`` in a subprocess, as a user runs it: under 1 s on an idle machine; the bound here is
    generous (a loaded CI runner), the import check above is the exact one."""
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))
    start = time.perf_counter()
    result = subprocess.run(
        [sys.executable, "-c", "import sys; from biosem.cli import main; sys.exit(main())", *command, "--help"],
        check=False,
        capture_output=True,
        text=True,
        env=env,
    )
    elapsed = time.perf_counter() - start
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("usage: biosem")
    assert elapsed < 3, f"biosem {' '.join(command)} --help took {elapsed:.2f} s"


def test_a_command_is_required(capsys: pytest.CaptureFixture[str]) -> None:
    assert _exit_code([]) == 2
    assert "required" in capsys.readouterr().err


def _help(
    capsys: pytest.CaptureFixture[str], run: Callable[[list[str]], int], argv: list[str], prog: str
) -> tuple[str, str]:
    """What ``run(argv + ["--help"])`` prints, as (the usage line after ``usage: <prog>``, the argument
    sections); the description between them is each command's own."""
    with pytest.raises(SystemExit) as done:
        run([*argv, "--help"])
    assert done.value.code == 0
    out = capsys.readouterr().out
    usage = out.partition("\n")[0]
    assert usage.startswith(f"usage: {prog} ")
    return usage.removeprefix(f"usage: {prog}"), out[out.index("positional arguments:") :]


@pytest.mark.parametrize(
    ("command", "module", "names", "helps"),
    [
        (
            "validate-wic",
            wic_validate,
            ["folder", "-h,", "--quotas", "--train-cap"],
            [
                "folder with any of train.json, dev.json, test.json",
                "--quotas FILE  quotas JSON (default: FOLDER/quotas.json if present, else the paper's)",
                "--train-cap N  max uses of a sentence in train (default: the reference's cap)",
            ],
        ),
        (
            "check-release",
            release_check,
            ["folders", "-h,"],
            [
                "release roots (results/release/0.1.0), release folders (results/release/0.1.0/public, under any "
                "name) or dataset folders"
            ],
        ),
    ],
    ids=["validate-wic", "check-release"],
)
def test_both_command_lines_of_a_check_take_the_same_arguments(
    command: str,
    module: ModuleType,
    names: list[str],
    helps: list[str],
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``biosem <command> --help`` and ``python -m <module> --help`` give the same usage after the program name
    and the same arguments with the same help (declared once, in biosem.arguments)."""
    monkeypatch.setenv("COLUMNS", "200")  # one line per argument
    usage, arguments = _help(capsys, main, [command], f"biosem {command}")
    assert _help(capsys, module.main, [], f"python -m {module.__name__}") == (usage, arguments)
    assert [line.split()[0] for line in arguments.splitlines() if line.startswith("  ")] == names
    for text in helps:
        assert text in arguments


# --- validate-wic ------------------------------------------------------------------------------------
def _rec(t1: str, t2: str, cat: str, label: int) -> dict:
    s1, s2 = f"We saw {t1} in one patient.", f"Another {t2} case was reported."
    a, b = s1.index(t1), s2.index(t2)
    return {
        **{"term1": t1, "term2": t2, "sentence1": s1, "sentence2": s2},
        **{"start1": a, "end1": a + len(t1), "start2": b, "end2": b + len(t2), "cat": cat, "label": label},
    }


def _write_valid_set(folder: Path) -> None:
    """One instance per group and label in each split; quotas 2 per group in test and dev."""
    for split, tag in (("test", "t"), ("dev", "d"), ("train", "r")):
        recs = [_rec(f"{tag}{g[:4]}{y}a", f"{tag}{g[:4]}{y}b", g, y) for g in GROUPS for y in (1, 0)]
        (folder / f"{split}.json").write_text(json.dumps(recs))
    (folder / "quotas.json").write_text(json.dumps({s: {g: 2 for g in GROUPS} for s in ("test", "dev")}))


def test_validate_wic_exit_codes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _write_valid_set(tmp_path)
    assert _exit_code(["validate-wic", str(tmp_path)]) == 0
    assert "OK: no violations" in capsys.readouterr().out

    # a test term pair copied into train: a violation (exit 1), listed by kind
    train = json.loads((tmp_path / "train.json").read_text())
    train.append(json.loads((tmp_path / "test.json").read_text())[0])
    (tmp_path / "train.json").write_text(json.dumps(train))
    assert _exit_code(["validate-wic", str(tmp_path)]) == 1
    assert "shared_term_pair: train[" in capsys.readouterr().out
    assert wic_validate.main([str(tmp_path)]) == 1  # python -m biosem.wic.validate: the same
    capsys.readouterr()

    # the validator's own options pass through
    assert _exit_code(["validate-wic", str(tmp_path), "--quotas", str(tmp_path / "absent.json")]) == 2

    # no split in the folder, or a file that is not JSON: unreadable (exit 2)
    empty = tmp_path / "empty"
    empty.mkdir()
    assert _exit_code(["validate-wic", str(empty)]) == 2
    assert "no train.json, dev.json, test.json" in capsys.readouterr().err
    (empty / "test.json").write_text('[{"term1": ')
    assert _exit_code(["validate-wic", str(empty)]) == 2
    assert "test.json" in capsys.readouterr().err


def test_validate_wic_caps_train_sentences_at_the_reference_cap_by_default(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Without ``--train-cap``, both command lines check train against TRAIN_SENTENCE_CAP: a sentence
    used more often is the one violation; ``--train-cap`` raises the cap in both."""
    uses = TRAIN_SENTENCE_CAP + 2  # even: as many label 1 as label 0
    train = [_rec("fever", f"sign{k}", GROUPS[0], k % 2) for k in range(uses)]
    assert len({rec["sentence1"] for rec in train}) == 1
    (tmp_path / "train.json").write_text(json.dumps(train))
    folder = str(tmp_path)
    violation = f"sentence used {uses} times (cap {TRAIN_SENTENCE_CAP}): 'We saw fever in one patient.'"

    assert _exit_code(["validate-wic", folder]) == 1
    out = capsys.readouterr().out
    assert out.endswith(f"1 violations: train_sentence_cap 1\ntrain_sentence_cap: train: {violation}\n")
    assert wic_validate.main([folder]) == 1  # python -m biosem.wic.validate
    assert capsys.readouterr().out == out

    assert _exit_code(["validate-wic", folder, "--train-cap", str(uses)]) == 0
    assert "OK: no violations" in capsys.readouterr().out
    assert wic_validate.main([folder, "--train-cap", str(uses)]) == 0
    assert "OK: no violations" in capsys.readouterr().out


# --- check-release -----------------------------------------------------------------------------------
def test_check_release_on_an_empty_folder_fails_with_the_problems(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "0.1.0" / "public"
    folder.mkdir(parents=True)
    assert _exit_code(["check-release", str(folder)]) == 1
    out = capsys.readouterr().out
    assert out.startswith(
        f"{folder}: no dataset folder (croissant.json, README.md), release folder (RELEASE.md, SHA256SUMS, "
        f"<family>/<name>/) or release root (release folders in it) under {folder}"
    )
    assert release_check.main([str(folder)]) == 1  # python -m biosem.release.check: the same
    assert capsys.readouterr().out == out


def test_check_release_needs_a_folder(capsys: pytest.CaptureFixture[str]) -> None:
    assert _exit_code(["check-release"]) == 2
    assert "folders" in capsys.readouterr().err


# --- info --------------------------------------------------------------------------------------------
@pytest.fixture
def in_repo(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(REPO)


def test_info_lists_sources_terminologies_and_builds(in_repo: None, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["info"]) == 0
    blocks = [block.splitlines() for block in capsys.readouterr().out.strip().split("\n\n")]
    assert [block[0] for block in blocks] == ["Sources", "Terminologies", "Built"]
    sources, terminologies = ({line.split()[0]: line for line in block[1:]} for block in blocks[:2])
    built = {tuple(line.split()[:2]): line.split()[2:] for line in blocks[2][1:]}
    assert sources["name"].split() == ["name", "version", "licence", "sha256", "present"]
    assert "2025-01-16" in sources["hpo"] and "6b77de067eec" in sources["hpo"]
    assert "2021-12-15" in sources["go"] and "CC-BY-4.0" in sources["go"]
    assert "MeSH 2024" in sources["mesh_thesaurus"]
    # columns are aligned: every version starts where the header's does
    column = sources["name"].index("version")
    assert all(line[column - 2 : column] == "  " and line[column] != " " for line in sources.values())
    assert terminologies["mesh"].split()[1:3] == ["mesh", "mesh_thesaurus,"]  # by its sources
    assert terminologies["hpo"].split() == ["hpo", "obo", "hpo"]
    assert built[("family", "of")] == ["built", "folder"]
    assert {family for family, _ in built} >= {"termpairs", "wic", "analogies", "simlex", "agreement", "evaluate"}
    files = len(outputs.expand("termpairs", terminology=["hpo"], dataset=TERMPAIR_DATASETS))
    assert built[("termpairs", "hpo")][1:] == ["of", str(files), "results/datasets/termpairs/hpo"]
    assert built[("wic", "-")][-1] == "results/datasets/wic"
    assert built[("evaluate", "-")][-1] == "results/evaluation"
    assert "6b77de067eec " in sources["hpo"]  # the text cuts the digest to 12 digits; --json has all 64


def test_info_json(in_repo: None, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["info", "--json"]) == 0
    info = json.loads(capsys.readouterr().out)
    sources = {s["name"]: s for s in info["sources"]}
    assert sources["hpo"]["version"] == "2025-01-16"
    assert sources["go"]["version"] == "2021-12-15"
    assert sources["mesh_thesaurus"]["version"].startswith("MeSH 2024")
    assert all(len(s["sha256"]) == 64 and s["present"] in ("resources", "mirror", None) for s in sources.values())
    assert all(int(s["sha256"], 16) >= 0 for s in sources.values())
    assert sources["hpo"]["sha256"].startswith("6b77de067eec")
    terminologies = {t["name"]: t for t in info["terminologies"]}
    assert terminologies["mesh"]["format"] == "mesh"
    assert terminologies["hpo"] == {"name": "hpo", "format": "obo", "source": "hpo"}
    assert terminologies["snomed_sample"]["path"].endswith("RF2Release")
    built = {(b["family"], b["unit"]): b for b in info["built"]}
    assert {family for family, _ in built} >= {"termpairs", "wic", "analogies", "simlex", "agreement", "evaluate"}
    assert {("termpairs", "mesh"), ("termpairs", "hpo"), ("wic", None), ("simlex", "nouns")} <= set(built)
    assert built[("simlex", "nouns")]["folder"] == "results/datasets/simlex/nouns"
    assert built[("evaluate", None)]["folder"] == "results/evaluation"
    assert all(0 <= b["built"] <= b["files"] for b in built.values())


def test_info_reports_presence(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys) -> None:
    """A source fetched under resources/ or found in a mirror; a termpairs counts.tsv that exists."""
    (tmp_path / "config").mkdir()
    (tmp_path / "workflow" / "schemas").mkdir(parents=True)
    for schema in (REPO / "workflow" / "schemas").glob("*.yaml"):
        (tmp_path / "workflow" / "schemas" / schema.name).write_text(schema.read_text())
    (tmp_path / "config" / "config.yaml").write_text((REPO / "config" / "config.yaml").read_text())
    mirror = tmp_path / "mirror"
    (mirror / "obo").mkdir(parents=True)
    (mirror / "obo" / "goslim_generic.obo").write_text("format-version: 1.2\n")
    (tmp_path / "resources" / "hpo").mkdir(parents=True)
    (tmp_path / "resources" / "hpo" / "hp.obo.gz").write_bytes(b"")
    (tmp_path / "results" / "datasets" / "termpairs" / "hpo").mkdir(parents=True)
    (tmp_path / "results" / "datasets" / "termpairs" / "hpo" / "counts.tsv").write_text("dataset\n")
    overlay = tmp_path / "overlay.yaml"
    overlay.write_text(f"mirror_dirs: [{mirror}]\ntermpairs: {{terminologies: [hpo, go]}}\n")
    monkeypatch.chdir(tmp_path)

    assert main(["info", "--json", "--configfile", str(overlay)]) == 0
    info = json.loads(capsys.readouterr().out)
    sources = {s["name"]: s for s in info["sources"]}
    assert (sources["hpo"]["present"], sources["hpo"]["path"]) == ("resources", "resources/hpo/hp.obo.gz")
    assert (sources["go_slim"]["present"], sources["go_slim"]["path"]) == ("mirror", f"{mirror}/obo/goslim_generic.obo")
    assert (sources["go"]["present"], sources["go"]["path"]) == (None, None)
    # the overlay replaced the list (update_config), other termpairs keys stay
    termpairs = [(b["unit"], b["built"], b["files"]) for b in info["built"] if b["family"] == "termpairs"]
    files = len(outputs.expand("termpairs", terminology=["hpo"], dataset=TERMPAIR_DATASETS))
    assert termpairs == [("hpo", 1, files), ("go", 0, files)]
    assert all(b["built"] == 0 for b in info["built"] if b["family"] != "termpairs")


def test_info_on_an_invalid_config_exits_2(tmp_path: Path, in_repo: None, capsys) -> None:
    overlay = tmp_path / "bad.yaml"
    overlay.write_text("sede: 7\n")
    assert main(["info", "--configfile", str(overlay)]) == 2
    assert "sede" in capsys.readouterr().err
    assert main(["info", "--configfile", str(tmp_path / "absent.yaml")]) == 2
    assert "absent.yaml" in capsys.readouterr().err


def test_info_outside_the_repository_exits_2(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys) -> None:
    monkeypatch.chdir(tmp_path)
    assert main(["info"]) == 2
    err = capsys.readouterr().err
    assert "no config/config.yaml in" in err and "change to the checkout's root folder" in err
    assert "run biosem info" not in err
    assert main(["evaluate", "v.txt", "--output", "out.tsv"]) == 2
    err = capsys.readouterr().err
    assert "biosem evaluate reads the workflow config" in err and "change to the checkout's root folder" in err


# --- evaluate ----------------------------------------------------------------------------------------
SIMLEX = SHARED_DATA / "simlex999" / "SimLex-999.txt"


def _checkout(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A folder with the repository's config and schemas, its mirror the shared data, 200 bootstrap resamples;
    the current folder. Returns the overlay to pass with --configfile."""
    (tmp_path / "config").mkdir()
    (tmp_path / "workflow" / "schemas").mkdir(parents=True)
    for schema in (REPO / "workflow" / "schemas").glob("*.yaml"):
        (tmp_path / "workflow" / "schemas" / schema.name).write_text(schema.read_text())
    (tmp_path / "config" / "config.yaml").write_text((REPO / "config" / "config.yaml").read_text())
    overlay = tmp_path / "overlay.yaml"
    overlay.write_text(f"mirror_dirs: [{SHARED_DATA}]\nevaluate: {{rated: {{n_resamples: 200}}}}\n")
    monkeypatch.chdir(tmp_path)
    return overlay


def _glove_from_simlex(path: Path, dim: int = 8, drop: int = 40) -> list[str]:
    """A GloVe-format file (no header) with seeded random vectors for the SimLex-999 words, leaving out ``drop``
    of them (so some pairs are uncovered); returns the words written."""
    pairs = read_rated_pairs(SIMLEX, "simlex999")
    words = sorted(set(pairs["word1"]) | set(pairs["word2"]))
    rng = np.random.default_rng(25)
    keep = sorted(rng.choice(len(words), size=len(words) - drop, replace=False))
    vectors = rng.normal(size=(len(keep), dim))
    lines = [" ".join([words[i], *(f"{v:.6f}" for v in row)]) for i, row in zip(keep, vectors)]
    path.write_text("\n".join(lines) + "\n")
    return [words[i] for i in keep]


@pytest.mark.skipif(not SIMLEX.is_file(), reason=f"SimLex-999 not in the shared data ({SIMLEX})")
def test_evaluate_gives_the_workflow_scores(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys) -> None:
    """The rho, n and coverage on SimLex-999 are those of the evaluate_rated_pairs rule's library call; the built
    rated dataset of a configured rating set (simverb3500) is scored too, one under results/ that the config does
    not name is not; TSV and Parquet outputs hold the same table."""
    overlay = _checkout(tmp_path, monkeypatch)
    glove = tmp_path / "toy.50d.txt"
    words = _glove_from_simlex(glove)
    mine = pd.DataFrame({"word1": words[:30], "word2": words[30:60], "score": np.arange(30.0)})
    Path(outputs.rated_dataset.path(ratings="simverb3500")).parent.mkdir(parents=True)
    mine.to_parquet(outputs.rated_dataset.path(ratings="simverb3500"))
    mine.to_parquet(outputs.rated_dataset.path(ratings="not_configured"))

    argv = ["evaluate", str(glove), "--families", "rated", "--configfile", str(overlay)]
    assert main([*argv, "--output", str(tmp_path / "out.tsv")]) == 0
    out = capsys.readouterr().out
    assert "toy.50d  rated" in out and "simlex999" in out
    table = pd.read_csv(tmp_path / "out.tsv", sep="\t", keep_default_na=False, na_values=[""])
    assert main([*argv, "--output", str(tmp_path / "out.parquet")]) == 0
    parquet = pd.read_parquet(tmp_path / "out.parquet")
    assert list(table.columns) == list(parquet.columns) == COLUMNS
    assert len(table) == len(parquet)
    np.testing.assert_allclose(table["value"], parquet["value"], rtol=1e-11)

    config = load_config([overlay])
    kv = load_keyed_vectors(glove, "glove")
    expected = evaluate_rated_datasets(
        WordVectors("toy.50d", kv, lowercase=False),
        {"simlex999": read_rated_pairs(SIMLEX, "simlex999"), "simlex/simverb3500": mine.assign(pos=None)},
        rated_params(config["evaluate"]["rated"]),
        config["seed"],
    )
    got = parquet.set_index(["dataset", "subset"])
    assert set(got.index.get_level_values("dataset")) == {*config["evaluate"]["benchmarks"], "simlex/simverb3500"}
    for row in expected:
        found = got.loc[(row["dataset"], "all")]
        assert found["model"] == "toy.50d" and found["metric"] == row["metric"] == "cosine:spearman"
        assert found["value"] == row["value"] and found["n"] == row["n"] and found["coverage"] == row["coverage"]
        assert (found["ci_low"], found["ci_high"]) == (row["ci_low"], row["ci_high"])
    simlex = got.loc[("simlex999", "all")]
    assert 0.9 < simlex["coverage"] < 1 and simlex["n"] == round(999 * simlex["coverage"])
    assert got.loc[("simlex/simverb3500", "all"), "n"] == 30


def test_evaluate_infers_the_vector_format(tmp_path: Path) -> None:
    kv = KeyedVectors(3)
    kv.add_vectors(["alpha", "beta", "gamma"], np.arange(9, dtype=np.float32).reshape(3, 3) + 0.5)
    kv.save_word2vec_format(str(tmp_path / "v.txt"), binary=False)
    kv.save_word2vec_format(str(tmp_path / "v.bin"), binary=True)
    (tmp_path / "v.glove").write_text("alpha 0.5 1.5 2.5\nbeta 3.5 4.5 5.5\n")
    with gzip.open(tmp_path / "v.glove.gz", "wt") as fh:
        fh.write("alpha 0.5 1.5 2.5\n")
    (tmp_path / "v.ftbin").write_bytes((793712314).to_bytes(4, "little") + (12).to_bytes(4, "little"))
    assert infer_vector_format(tmp_path / "v.txt") == "word2vec_text"
    assert infer_vector_format(tmp_path / "v.bin") == "word2vec_binary"
    assert infer_vector_format(tmp_path / "v.glove") == "glove"
    assert infer_vector_format(tmp_path / "v.glove.gz") == "glove"
    assert infer_vector_format(tmp_path / "v.ftbin") == "fasttext"
    for name in ("v.txt", "v.bin", "v.glove"):
        loaded = load_keyed_vectors(tmp_path / name, infer_vector_format(tmp_path / name))
        np.testing.assert_array_equal(loaded["alpha"], [0.5, 1.5, 2.5])
    (tmp_path / "empty.txt").write_text("\n")
    with pytest.raises(SourceFormatError, match="empty.txt"):
        infer_vector_format(tmp_path / "empty.txt")


def test_evaluate_errors_exit_2(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys) -> None:
    overlay = _checkout(tmp_path, monkeypatch)
    out = ["--output", str(tmp_path / "out.tsv"), "--configfile", str(overlay)]
    assert main(["evaluate", str(tmp_path / "absent.txt"), *out]) == 2
    assert "absent.txt" in capsys.readouterr().err
    (tmp_path / "a").mkdir()
    (tmp_path / "a" / "v.txt").write_text("alpha 0.5 1.5\n")
    (tmp_path / "v.txt").write_text("alpha 0.5 1.5\n")
    assert main(["evaluate", str(tmp_path / "a" / "v.txt"), str(tmp_path / "v.txt"), *out]) == 2
    assert "two models are named 'v'" in capsys.readouterr().err
    assert not (tmp_path / "out.tsv").exists()


# Term pairs of a MeSH-like terminology (capitalised terms) and an HPO-like one (lower case): (term1, term2, label).
MESH_PAIRS = [
    ("Malaria", "Fever", 1),
    ("Abnormalities, Drug-Induced", "drug induced abnormalities", 1),
    ("Anemia", "Heart Attack", 0),
    ("Fever", "Anemia", 0),
    ("Heart Attack", "heart", 1),
    ("malaria", "fever", 1),
    ("anemia", "drug", 0),
    ("Drug", "Malaria", 0),
    ("Fever", "Heart", 0),
    ("Anemia", "Anemia drug", 1),
]
HPO_PAIRS = [
    ("fever", "malaria", 1),
    ("heart", "attack", 1),
    ("drug", "anemia", 0),
    ("fever", "heart", 0),
    ("attack", "drug", 0),
    ("anemia", "malaria", 1),
]
VOCABULARY = ["malaria", "fever", "anemia", "drug", "abnormalities", "induced", "heart", "attack"]


def _termpair_checkout(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, Path, Path]:
    """A checkout (:func:`_checkout`) with two built term-pair datasets (MeSH-like and HPO-like
    fsn_syn_easy_random) and two GloVe files of the same 8 words: ``lower.txt`` all in lower case, ``mixed.txt``
    with ``Malaria`` capitalised. Returns the overlay and the two files."""
    overlay = _checkout(tmp_path, monkeypatch)
    for terminology, pairs in (("mesh", MESH_PAIRS), ("hpo", HPO_PAIRS)):
        path = Path(outputs.termpair_dataset.path(terminology=terminology, dataset="fsn_syn_easy_random"))
        path.parent.mkdir(parents=True, exist_ok=True)
        pd.DataFrame(pairs, columns=["term1", "term2", "label"]).to_parquet(path)
    rng = np.random.default_rng(40)
    vectors = rng.normal(size=(len(VOCABULARY), 4))
    files = []
    for name, words in (("lower", VOCABULARY), ("mixed", ["Malaria", *VOCABULARY[1:]])):
        lines = [" ".join([w, *(f"{v:.6f}" for v in row)]) for w, row in zip(words, vectors)]
        files.append(tmp_path / f"{name}.txt")
        files[-1].write_text("\n".join(lines) + "\n")
    return overlay, files[0], files[1]


def _rows(text: str) -> list[list[str]]:
    """The summary's lines split at whitespace (headers with a space in a column name split too)."""
    return [line.split() for line in text.splitlines()]


def test_evaluate_matches_a_lower_case_vocabulary_in_lower_case(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Without a flag, a vocabulary without upper case (lower.txt) scores every capitalised MeSH term (coverage
    1) and a mixed-case one (mixed.txt) is matched as written (1 of 10 MeSH pairs, 4 of 6 HPO pairs: a WARNING);
    the summary gives datasets, items scored and coverage per family and per terminology."""
    overlay, lower, mixed = _termpair_checkout(tmp_path, monkeypatch)
    out = tmp_path / "out.tsv"
    argv = ["evaluate", str(lower), str(mixed), "--families", "termpairs", "--configfile", str(overlay), "-o", str(out)]
    assert main(argv) == 0
    captured = capsys.readouterr()
    rows = _rows(captured.out)
    assert ["lower", "termpairs", "2", "16", "1.000"] in rows
    assert ["mixed", "termpairs", "2", "5", "0.100-0.667"] in rows
    for model, terminology, n, coverage in [
        ("lower", "mesh", "10", "1.000"),
        ("lower", "hpo", "6", "1.000"),
        ("mixed", "mesh", "1", "0.100"),
        ("mixed", "hpo", "4", "0.667"),
    ]:
        assert [model, f"termpairs/{terminology}", "1", n, coverage] in rows
    assert ["model", "family", "datasets", "items", "scored", "coverage"] in rows
    assert ["model", "datasets", "of", "datasets", "items", "scored", "coverage"] in rows
    err = captured.err.splitlines()
    assert [line for line in err if line.startswith("WARNING")] == [
        "WARNING: mixed covers 0.100 of termpairs/mesh/fsn_syn_easy_random"
    ]
    assert captured.err.count("model lower: no upper-case letter in its 8 keys, so terms are matched in lower") == 1
    assert captured.err.count("model mixed: upper-case letters in its keys, so terms are matched as written") == 1
    table = pd.read_csv(out, sep="\t", keep_default_na=False, na_values=[""])
    auc = table[table["metric"] == "avg_cos:auc"].set_index(["model", "dataset"])
    assert auc.loc[("lower", "termpairs/mesh/fsn_syn_easy_random"), ["n", "coverage"]].tolist() == [10, 1.0]
    assert auc.loc[("mixed", "termpairs/hpo/fsn_syn_easy_random"), "n"] == 4
    assert table.loc[table["model_b"].isna(), "coverage"].notna().all()


def test_evaluate_case_sensitive_warns_about_low_coverage(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``--case-sensitive`` matches the lower-case vocabulary as written: 2 of the 10 MeSH pairs are covered
    (both terms in lower case), below 0.5, so the exact WARNING line is printed; ``--lowercase`` and
    ``--case-sensitive`` exclude each other."""
    overlay, lower, _ = _termpair_checkout(tmp_path, monkeypatch)
    out = tmp_path / "out.tsv"
    argv = ["evaluate", str(lower), "--families", "termpairs", "--configfile", str(overlay), "-o", str(out)]
    assert main([*argv, "--case-sensitive"]) == 0
    captured = capsys.readouterr()
    assert ["lower", "termpairs", "2", "8", "0.200-1.000"] in _rows(captured.out)
    assert ["lower", "termpairs/mesh", "1", "2", "0.200"] in _rows(captured.out)
    assert [line for line in captured.err.splitlines() if line.startswith("WARNING")] == [
        "WARNING: lower covers 0.200 of termpairs/mesh/fsn_syn_easy_random"
    ]
    assert "lowercase: auto" not in captured.err  # nothing detected: the flag decided
    assert main([*argv, "--lowercase"]) == 0
    assert ["lower", "termpairs", "2", "16", "1.000"] in _rows(capsys.readouterr().out)
    assert _exit_code([*argv, "--lowercase", "--case-sensitive"]) == 2
    assert "not allowed with argument" in capsys.readouterr().err
