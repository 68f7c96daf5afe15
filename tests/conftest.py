"""Shared fixtures: where the source mirror lives, and a runner for the workflow in a temporary copy."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

REPO = Path(__file__).resolve().parents[1]
SHARED_DATA = (REPO.parent / "shared" / "data").resolve()


def _tracked_files() -> list[str]:
    out = subprocess.run(["git", "ls-files", "-co", "--exclude-standard"], cwd=REPO, capture_output=True, text=True, check=True)
    return [line for line in out.stdout.splitlines() if line and (REPO / line).is_file()]


def copy_workflow(dest: Path) -> Path:
    """Copy the repository's files (not results) into ``dest`` and point the config at the mirror."""
    for rel in _tracked_files():
        target = dest / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(REPO / rel, target)
    config = yaml.safe_load((REPO / "config" / "config.yaml").read_text())
    override = {"mirror_dirs": [str(SHARED_DATA)], "terminologies": {}}
    for name, spec in config["terminologies"].items():
        if "path" in spec:
            override["terminologies"][name] = {"path": str((REPO / spec["path"]).resolve())}
    (dest / "config" / "test-paths.yaml").write_text(yaml.safe_dump(override))
    return dest


def run_workflow(workdir: Path, cores: int, *extra: str) -> subprocess.CompletedProcess[str]:
    """Run snakemake in ``workdir`` with the embedded default (plus absolute mirror paths)."""
    env = dict(os.environ, NLTK_DATA=str(SHARED_DATA / "nltk_data"))
    cmd = [
        sys.executable, "-m", "snakemake", "--cores", str(cores),
        "--configfile", "config/config.yaml", "config/test-paths.yaml", "--quiet=rules", *extra,
    ]
    return subprocess.run(cmd, check=False, cwd=workdir, env=env, capture_output=True, text=True)


@pytest.fixture(scope="session")
def workflow_runs(tmp_path_factory: pytest.TempPathFactory) -> dict[int, Path]:
    """The embedded default run twice from scratch: with --cores 2 and with --cores 1."""
    runs = {}
    for cores in (2, 1):
        workdir = copy_workflow(tmp_path_factory.mktemp(f"run-cores{cores}"))
        result = run_workflow(workdir, cores)
        assert result.returncode == 0, result.stderr[-5000:]
        runs[cores] = workdir
    return runs
