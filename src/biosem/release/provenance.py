"""Provenance of a release: code version, command, configuration and key dependency versions.

Everything here is a function of the checkout, the environment and the command's configuration —
never of the time, the host or the number of cores — so two builds of the same commit with the same
config and environment write byte-identical release files.
"""

from __future__ import annotations

import importlib.metadata
import os
import platform
import shlex
import subprocess
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import yaml

import biosem

UNKNOWN = "unknown"

KEY_DEPENDENCIES = (
    "snakemake",
    "pandas",
    "pyarrow",
    "numpy",
    "scipy",
    "rapidfuzz",
    "pronto",
    "pysbd",
    "nltk",
    "bioc",
    "pyahocorasick",
    "wordfreq",
    "lemminflect",
    "gensim",
    "scikit-learn",
    "statsmodels",
    "krippendorff",
    "mlcroissant",
    "datasets",
    "huggingface-hub",
)
"""Distributions whose versions RELEASE.md records (construction, formats, metadata)."""


@dataclass(frozen=True)
class Provenance:
    """Who and what produced a release.

    Attributes:
        release_version: ``release.version`` (semantic version).
        visibility: ``public`` or ``private``.
        biosem_version: ``biosem.__version__``.
        git_commit: full commit hash of the checkout, or ``"unknown"`` outside a git checkout.
        git_state: ``clean``, ``modified`` (tracked files differ from the commit) or ``"unknown"``.
        command: the snakemake command line, with ``--cores`` left as ``N`` (it changes no output).
        config_files: the config files in the order given (relative to the workflow folder).
        date: ``release.date_published`` (ISO date; Croissant ``datePublished``), or None.
        url: ``release.url`` or None.
    """

    release_version: str
    visibility: str
    biosem_version: str
    git_commit: str
    git_state: str
    command: str
    config_files: tuple[str, ...]
    date: str | None = None
    url: str | None = None

    def to_params(self) -> dict[str, Any]:
        out = asdict(self)
        out["config_files"] = list(self.config_files)
        return out

    @classmethod
    def from_params(cls, data: Mapping[str, Any]) -> Provenance:
        data = dict(data)
        data["config_files"] = tuple(data["config_files"])
        return cls(**data)


def _git(workdir: Path, *args: str) -> str | None:
    try:
        out = subprocess.run(
            ["git", "-C", str(workdir), *args],
            check=False,
            capture_output=True,
            text=True,
            timeout=30,
        )
    except (OSError, subprocess.TimeoutExpired):
        return None
    return out.stdout.strip() if out.returncode == 0 else None


def code_version(workdir: str | os.PathLike[str]) -> dict[str, str]:
    """``{"commit": ..., "state": ...}`` of the git checkout whose top level is ``workdir``.

    A folder that is not the top of a git checkout (a copy, an unpacked archive, or a folder inside
    an unrelated repository) gives ``"unknown"`` for both. The state ignores untracked files.
    """
    root = Path(workdir).resolve()
    top = _git(root, "rev-parse", "--show-toplevel")
    if top is None or Path(top).resolve() != root:
        return {"commit": UNKNOWN, "state": UNKNOWN}
    commit = _git(root, "rev-parse", "HEAD") or UNKNOWN
    status = _git(root, "status", "--porcelain", "--untracked-files=no")
    state = UNKNOWN if status is None else ("modified" if status else "clean")
    return {"commit": commit, "state": state}


def command_line(target: str, config_files: Sequence[str], config_args: Sequence[str] = ()) -> str:
    """The snakemake command that builds ``target`` with these config files and ``--config`` items."""
    parts = ["snakemake", "--cores", "N"]
    if config_files:
        parts += ["--configfile", *config_files]
    if config_args:
        parts += ["--config", *config_args]
    parts.append(target)
    return " ".join(p if p == "N" else shlex.quote(p) for p in parts)


def relative_paths(paths: Iterable[str | os.PathLike[str]], base: str | os.PathLike[str]) -> list[str]:
    """``paths`` relative to ``base`` (POSIX separators), so they do not depend on where the folder is."""
    return [Path(os.path.relpath(Path(p).absolute(), Path(base).absolute())).as_posix() for p in paths]


def dependency_versions(packages: Sequence[str] = KEY_DEPENDENCIES) -> dict[str, str]:
    """``{distribution: version}`` for Python, biosem and ``packages`` (``"not installed"`` if absent)."""
    out = {"python": platform.python_version(), "biosem": biosem.__version__}
    for name in packages:
        try:
            out[name] = importlib.metadata.version(name)
        except importlib.metadata.PackageNotFoundError:
            out[name] = "not installed"
    return out


def config_yaml(config: Mapping[str, Any]) -> str:
    """The effective configuration as YAML (keys sorted; plain types only)."""
    plain = _plain(config)
    return yaml.safe_dump(plain, sort_keys=True, allow_unicode=True, default_flow_style=False, width=100)


def _plain(value: Any) -> Any:
    if isinstance(value, Mapping):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return value
