"""A run killed with SIGKILL mid-rule resumes: after ``snakemake --unlock`` (the lock a killed snakemake
leaves), the README's command picks up the default workflow profile (``profiles/default/profile.yaml``,
loaded without being asked), whose ``rerun-incomplete`` rebuilds what the killed jobs left behind, and the
run ends with the same bytes as an uninterrupted one."""

from __future__ import annotations

import hashlib
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
import yaml
from conftest import CONFIG_FILES, REPO, SHARED_DATA, copy_workflow, run_workflow

from biosem.layout.outputs import termpair_counts, termpair_dataset
from biosem.termpairs import DATASETS


def _digests(root: Path, names: list[str]) -> dict[str, str]:
    return {name: hashlib.sha256((root / name).read_bytes()).hexdigest() for name in names}


def test_the_default_profile_sits_where_snakemake_loads_it() -> None:
    profile = yaml.safe_load((REPO / "profiles" / "default" / "profile.yaml").read_text())
    assert profile["rerun-incomplete"] is True and profile["latency-wait"] >= 5
    assert not (REPO / "workflow" / "profiles").exists()


def _descendants(pid: int) -> list[int]:
    """The processes below ``pid`` (from /proc), nearest first."""
    children: dict[int, list[int]] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        children.setdefault(int(fields[1]), []).append(int(stat.parent.name))
    found, queue = [], [pid]
    while queue:
        for child in sorted(children.get(queue.pop(0), [])):
            found.append(child)
            queue.append(child)
    return found


def _job_script(pid: int) -> bool:
    try:
        return b".snakemake/scripts/" in Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return False


@pytest.mark.workflow
@pytest.mark.parametrize("killed", ["job", "workflow"])
def test_kill_9_mid_rule_then_the_readme_command_resumes_to_identical_bytes(
    killed: str, tmp_path: Path, workflow_runs: dict[int, Path]
) -> None:
    """``job``: SIGKILL to one running rule's process; snakemake fails that job and stops, and the README's
    command alone resumes. ``workflow``: SIGKILL to snakemake and its jobs (a crashed node); the stale lock
    is removed with ``snakemake --unlock`` (README § Troubleshooting), then the README's command resumes."""
    workdir = copy_workflow(tmp_path / "killed")
    target = termpair_counts.path(terminology="cl")
    outputs = [target, *(termpair_dataset.path(terminology="cl", dataset=name) for name in DATASETS)]
    env = dict(os.environ, NLTK_DATA=str(SHARED_DATA / "nltk_data"))
    cmd = [sys.executable, "-m", "snakemake", target, "--cores", "2", "--configfile", *CONFIG_FILES]
    proc = subprocess.Popen(
        cmd, cwd=workdir, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True
    )
    started = time.monotonic()
    # Kill once the term-pair stage is writing its datasets (some written, the summary not yet) and a
    # rule's script is running.
    jobs: list[int] = []
    while proc.poll() is None and time.monotonic() - started < 900:
        if sum((workdir / name).exists() for name in outputs[1:]) >= 2:
            jobs = [pid for pid in _descendants(proc.pid) if _job_script(pid)]
            if jobs:
                break
        time.sleep(0.05)
    assert proc.poll() is None and jobs, "the run ended before it could be killed"
    if killed == "job":
        os.kill(jobs[0], signal.SIGKILL)
        assert proc.wait(timeout=600) != 0
    else:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
        assert run_workflow(workdir, 1, "--unlock").returncode == 0
    assert not (workdir / target).exists()

    # The README's command (run_workflow: snakemake --cores N with the tests' config files), nothing else.
    resumed = run_workflow(workdir, 2, target)
    assert resumed.returncode == 0, resumed.stderr[-5000:]
    assert "Using workflow specific profile profiles/default" in resumed.stderr
    assert "IncompleteFilesException" not in resumed.stderr
    assert _digests(workdir, outputs) == _digests(workflow_runs[2], outputs)
