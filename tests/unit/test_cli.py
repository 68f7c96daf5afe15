"""The ``biosem`` command (biosem.cli): help, exit codes of the wrapped checks, ``info`` on the repository's
config, and the console script declared in pyproject.toml."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

import pytest
from conftest import REPO

from biosem.cli import main
from biosem.release import check as release_check
from biosem.wic import GROUPS
from biosem.wic import validate as wic_validate


def _exit_code(argv: list[str]) -> int:
    """``main(argv)``'s exit code, whether it returns it or argparse raises SystemExit."""
    try:
        return main(argv)
    except SystemExit as exc:
        return 0 if exc.code is None else int(exc.code)


def test_console_script_is_declared() -> None:
    pyproject = tomllib.loads((REPO / "pyproject.toml").read_text())
    assert pyproject["project"]["scripts"]["biosem"] == "biosem.cli:main"


@pytest.mark.parametrize("command", [[], ["validate-wic"], ["check-release"], ["info"]], ids=" ".join)
def test_help_exits_0(command: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert _exit_code([*command, "--help"]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"usage: biosem {' '.join(command)}".rstrip())


def test_a_command_is_required(capsys: pytest.CaptureFixture[str]) -> None:
    assert _exit_code([]) == 2
    assert "required" in capsys.readouterr().err


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


# --- check-release -----------------------------------------------------------------------------------
def test_check_release_on_an_empty_folder_fails_with_the_problems(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "0.1.0" / "public"
    folder.mkdir(parents=True)
    assert _exit_code(["check-release", str(folder)]) == 1
    out = capsys.readouterr().out
    assert f"{folder}: no SHA256SUMS in {folder}" in out
    assert f"{folder}: no dataset folder (<family>/<name>/README.md) under {folder}" in out
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
    sources, terminologies, built = ({line.split()[0]: line for line in block[1:]} for block in blocks)
    assert sources["name"].split() == ["name", "version", "licence", "sha256", "present"]
    assert "2025-01-16" in sources["hpo"] and "6b77de067eec" in sources["hpo"]
    assert "2021-12-15" in sources["go"] and "CC-BY-4.0" in sources["go"]
    assert "MeSH 2024" in sources["mesh_thesaurus"]
    # columns are aligned: every version starts where the header's does
    column = sources["name"].index("version")
    assert all(line[column - 2 : column] == "  " and line[column] != " " for line in sources.values())
    assert terminologies["mesh"].split()[1:3] == ["mesh", "mesh_thesaurus,"]  # by its sources
    assert terminologies["hpo"].split() == ["hpo", "obo", "hpo"]
    assert "results/datasets/termpairs/hpo/counts.tsv" in built["termpairs/hpo"]
    assert "results/datasets/wic/test.json" in built["wic"]


def test_info_json(in_repo: None, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["info", "--json"]) == 0
    info = json.loads(capsys.readouterr().out)
    sources = {s["name"]: s for s in info["sources"]}
    assert sources["hpo"]["version"] == "2025-01-16"
    assert sources["go"]["version"] == "2021-12-15"
    assert sources["mesh_thesaurus"]["version"].startswith("MeSH 2024")
    assert all(len(s["sha256"]) == 12 and s["present"] in ("resources", "mirror", None) for s in sources.values())
    terminologies = {t["name"]: t for t in info["terminologies"]}
    assert terminologies["mesh"]["format"] == "mesh"
    assert terminologies["hpo"] == {"name": "hpo", "format": "obo", "source": "hpo"}
    assert terminologies["snomed_sample"]["path"].endswith("RF2Release")
    built = {b["dataset"]: b for b in info["built"]}
    assert {"termpairs/mesh", "termpairs/hpo", "wic", "analogies"} <= set(built)
    assert built["analogies"]["path"] == "results/datasets/analogies/summary.tsv"
    assert all(b["exists"] == (REPO / b["path"]).is_file() for b in built.values())


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
    assert [b["dataset"] for b in info["built"]] == ["termpairs/hpo", "termpairs/go", "wic", "analogies"]
    assert [b["exists"] for b in info["built"]] == [True, False, False, False]


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
    assert "no config/config.yaml in" in capsys.readouterr().err
