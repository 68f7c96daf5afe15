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
    out = subprocess.run(
        ["git", "ls-files", "-co", "--exclude-standard"], cwd=REPO, capture_output=True, text=True, check=True
    )
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


CONFIG_FILES = ("config/config.yaml", "config/test/config.yaml", "config/test-paths.yaml")
"""The config files of the workflow tests: the embedded default, the test overlay (term pairs of the
small terminologies only) and the absolute mirror paths :func:`copy_workflow` writes."""


def workflow_config() -> dict:
    """The config the workflow tests run with: :data:`CONFIG_FILES` merged in order (mirror paths aside)."""
    from snakemake.utils import update_config

    config: dict = {}
    for name in CONFIG_FILES[:-1]:
        update_config(config, yaml.safe_load((REPO / name).read_text()))
    return config


def run_workflow(workdir: Path, cores: int, *extra: str) -> subprocess.CompletedProcess[str]:
    """Run snakemake in ``workdir`` with :data:`CONFIG_FILES` (a later ``--configfile`` in ``extra``
    replaces them)."""
    env = dict(os.environ, NLTK_DATA=str(SHARED_DATA / "nltk_data"))
    cmd = [
        sys.executable,
        "-m",
        "snakemake",
        "--cores",
        str(cores),
        "--configfile",
        *CONFIG_FILES,
        "--quiet=rules",
        *extra,
    ]
    return subprocess.run(cmd, check=False, cwd=workdir, env=env, capture_output=True, text=True)


@pytest.fixture(scope="session")
def workflow_runs(tmp_path_factory: pytest.TempPathFactory) -> dict[int, Path]:
    """The embedded default with the test overlay, run twice from scratch: with --cores 2 and with --cores 1."""
    runs = {}
    for cores in (2, 1):
        workdir = copy_workflow(tmp_path_factory.mktemp(f"run-cores{cores}"))
        result = run_workflow(workdir, cores)
        assert result.returncode == 0, result.stderr[-5000:]
        runs[cores] = workdir
    return runs


# --------------------------------------------------------------------------------------------------
# Config defaults: workflow/schemas/config.schema.yaml holds every default (common.smk validates the
# config once with set_default=True). Library functions that read a config section expect it complete;
# tests build such sections from a minimal config through the schema.
# --------------------------------------------------------------------------------------------------
CONFIG_SCHEMA = REPO / "workflow" / "schemas" / "config.schema.yaml"

MINIMAL_CONFIG: dict = {
    "seed": 0,
    "mirror_dirs": [],
    "sources": {},
    "terminologies": {},
    "termpairs": {"terminologies": []},
    "corpora": {"build": [], "specs": {}},
    "wic": {
        "corpora": ["c"],
        "terminology": None,
        "code_systems": {},
        "corpus_synonym_min_documents": 2,
        "nltk_data": None,
    },
    "analogies": {"terminologies": [], "corpora": [], "backend": "auto", "chunk_mb": 4},
    "simlex": {
        "vocabulary_name": "v",
        "corpora": [],
        "deduplicate_documents": True,
        "domain": {"biomedical_min_log_ratio": 1.0, "general_max_log_ratio": 0.0},
        "usf": {"source": "usf"},
        "resources": {"terminologies": []},
    },
    "evaluate": {
        "models": {},
        "training": {
            "corpora": ["c"],
            "vector_size": 10,
            "min_count": 1,
            "epochs": 1,
            "negative": 1,
            "sample": 0,
            "alpha": 0.025,
            "min_alpha": 0.0001,
        },
        "benchmarks": {},
        "rated": {
            "oov_policy": "skip",
            "require_all_words": True,
            "n_resamples": 0,
            "confidence_level": 0.95,
            "frequency_bands": [1],
            "min_band_pairs": 3,
        },
        "termpairs": {
            "similarities": ["avg_cos"],
            "require_all_words": False,
            "n_resamples": 0,
            "confidence_level": 0.95,
            "categories": {},
        },
        "analogies": {
            "methods": ["3CosAdd"],
            "top_k": 1,
            "candidate_min_count": 1,
            "require_all_words": True,
            "block_mb": 1,
        },
        "wic": {"window": 5, "n_resamples": 0, "confidence_level": 0.95},
    },
    "release": {
        "version": "0.1.0",
        "url": None,
        "datasets": None,
        "exclude": [],
        "restricted_formats": [],
        "restricted_licences": [],
    },
}
"""A config holding only what the schema requires (no section or key that has a default)."""


def validated_config(*layers: dict) -> dict:
    """``layers`` merged in order (as `--configfile a b`), validated against config.schema.yaml with its
    defaults filled in, as workflow/rules/common.smk does. No layer is modified."""
    import copy

    from snakemake.utils import update_config, validate

    config: dict = {}
    for layer in layers:
        update_config(config, copy.deepcopy(layer))
    validate(config, str(CONFIG_SCHEMA), set_default=True)
    return config


def config_with_defaults(**sections: dict) -> dict:
    """:data:`MINIMAL_CONFIG` with ``sections`` merged on it, validated (every default filled)."""
    return validated_config(MINIMAL_CONFIG, sections)
