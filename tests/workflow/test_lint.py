"""The code stays formatted and lint-clean: ruff check and ruff format over the whole tree (settings in
pyproject.toml), snakefmt over the rule files, and snakemake --lint."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from conftest import REPO, SHARED_DATA


def _ruff(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "ruff", *args, "."], check=False, cwd=REPO, capture_output=True, text=True
    )


def test_ruff_check_is_clean() -> None:
    result = _ruff("check", "--no-cache")
    assert result.returncode == 0, result.stdout + result.stderr


def test_ruff_format_is_clean() -> None:
    result = _ruff("format", "--check", "--no-cache")
    assert result.returncode == 0, result.stdout + result.stderr


def test_snakefmt_check_is_clean() -> None:
    files = ["Snakefile", *sorted(str(p.relative_to(REPO)) for p in (REPO / "workflow").rglob("*.smk"))]
    stages = ["common", "sources", "ingest", "corpora", "termpairs", "wic", "analogies", "simlex", "agreement"]
    assert {f"workflow/rules/{s}.smk" for s in [*stages, "evaluate", "release"]} <= set(files)
    result = subprocess.run(
        [sys.executable, "-m", "snakefmt", "--check", *files], check=False, cwd=REPO, capture_output=True, text=True
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_snakemake_lint_is_clean(tmp_path: Path) -> None:
    env = dict(os.environ, NLTK_DATA=str(SHARED_DATA / "nltk_data"))
    result = subprocess.run(
        [sys.executable, "-m", "snakemake", "--lint"],
        check=False,
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
    )
    out = result.stdout + result.stderr
    assert result.returncode == 0, out
    assert "Congratulations, your workflow is in a good condition!" in out, out


_FLAG_PROBE = """
from pathlib import Path
from snakemake.api import SnakemakeApi
from snakemake.settings.types import ConfigSettings, OutputSettings, ResourceSettings, StorageSettings
with SnakemakeApi(OutputSettings()) as api:
    wf = api.workflow(resource_settings=ResourceSettings(cores=1), config_settings=ConfigSettings(),
                      storage_settings=StorageSettings(), snakefile=Path("Snakefile"))
    rule = wf._workflow.get_rule("all")
    print(len(rule.input), sum(1 for f in rule.input if getattr(f, "flags", None)))
"""


def test_rule_all_targets_carry_no_flags() -> None:
    # A report() flag on a target reaches rule all's input; `snakemake --report` then expands its
    # labels with rule all's empty wildcards and fails whenever rule all is visited first.
    env = dict(os.environ, NLTK_DATA=str(SHARED_DATA / "nltk_data"))
    result = subprocess.run(
        [sys.executable, "-c", _FLAG_PROBE], check=False, cwd=REPO, env=env, capture_output=True, text=True
    )
    assert result.returncode == 0, result.stderr[-3000:]
    inputs, flagged = map(int, result.stdout.split()[-2:])
    assert inputs >= 100
    assert flagged == 0
