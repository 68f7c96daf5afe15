"""The workflow stays formatted (snakefmt) and lint-clean (snakemake --lint), as issue #2 requires."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from conftest import REPO, SHARED_DATA


def test_snakefmt_check_is_clean() -> None:
    files = ["Snakefile", *sorted(str(p.relative_to(REPO)) for p in (REPO / "workflow").rglob("*.smk"))]
    assert len(files) >= 16
    result = subprocess.run(
        [sys.executable, "-m", "snakefmt", "--check", *files], cwd=REPO, capture_output=True, text=True
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_snakemake_lint_is_clean(tmp_path: Path) -> None:
    env = dict(os.environ, NLTK_DATA=str(SHARED_DATA / "nltk_data"))
    result = subprocess.run(
        [sys.executable, "-m", "snakemake", "--lint"],
        cwd=REPO, env=env, capture_output=True, text=True,
    )
    out = result.stdout + result.stderr
    assert result.returncode == 0, out
    assert "Congratulations, your workflow is in a good condition!" in out, out
