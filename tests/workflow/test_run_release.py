"""Integration: `release_public` / `release_private` on the embedded default, built twice (in copies of
the two `workflow_runs`, with --cores 2 and --cores 1), the licence guard, offline loading with
`datasets`, Croissant validation and `snakemake --report`."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import zipfile
from collections import Counter
from pathlib import Path, PurePosixPath

import pandas as pd
import pyarrow.parquet as pq
import pytest
import yaml
from conftest import CONFIG_FILES, REPO, SHARED_DATA, run_workflow, validated_config, workflow_config

from biosem.layout import outputs, paths
from biosem.release.check import check_release
from biosem.release.checksums import parse_sha256sums, verify_sha256sums
from biosem.release.croissant import validate_croissant
from biosem.workflow.plan import Plan

pytestmark = pytest.mark.workflow

VERSION = yaml.safe_load((REPO / "config" / "config.yaml").read_text())["release"]["version"]
DATE_PUBLISHED = yaml.safe_load((REPO / "config" / "config.yaml").read_text())["release"]["date_published"]
OPEN = {
    "analogies/cl",
    "analogies/doid",
    "analogies/go",
    "analogies/go_slim",
    "analogies/hpo",
    "analogies/mesh",
    "analogies/so",
    "analogies/uberon",
    "simlex/pairs",
    "termpairs/cl",
    "termpairs/hpo",
    "wic/biowic",
}
RESTRICTED = {
    "analogies/snomed_sample",
    "analogies/umls_sample",
    "simlex/rated_simverb3500",  # SimVerb-3500 states no licence and release.assert_licences is empty
    "termpairs/snomed_sample",
    "termpairs/umls_sample",
}
UNSTATED = {"simlex/rated_simverb3500"}


@pytest.fixture(scope="session")
def release_runs(workflow_runs: dict[int, Path], tmp_path_factory: pytest.TempPathFactory) -> dict[int, Path]:
    """Both releases built in a copy of each default run (so the runs themselves stay untouched)."""
    runs = {}
    for cores, source in workflow_runs.items():
        workdir = tmp_path_factory.mktemp(f"release-cores{cores}") / "wf"
        shutil.copytree(source, workdir, symlinks=True)  # copy2 keeps mtimes: nothing upstream reruns
        before = _upstream_outputs(workdir)
        result = run_workflow(workdir, cores, "release_public", "release_private")
        assert result.returncode == 0, (result.stdout + result.stderr)[-5000:]
        assert _upstream_outputs(workdir) == before  # the release only reads the families' outputs
        runs[cores] = workdir
    return runs


def _upstream_outputs(workdir: Path) -> dict[str, int]:
    """Every file under ``results/`` but the release's own: its folders and the rendered pages of its
    ``RELEASE.md`` that the report shows (``report/pages/release/``)."""
    root = workdir / "results"
    release_pages = PurePosixPath(paths.report_page(paths.RELEASE)).with_suffix("").relative_to(paths.RESULTS)
    return {
        p.relative_to(root).as_posix(): p.stat().st_mtime_ns
        for p in root.rglob("*")
        if p.is_file()
        and p.relative_to(root).parts[0] != "release"
        and not PurePosixPath(p.relative_to(root).as_posix()).is_relative_to(release_pages)
    }


def release_root(run: Path, visibility: str) -> Path:
    return run / "results" / "release" / VERSION / visibility


def datasets_of(root: Path) -> set[str]:
    return {p.parent.relative_to(root).as_posix() for p in root.glob("*/*/croissant.json")}


def test_sha256sums_identical_across_builds_and_cores(release_runs: dict[int, Path]) -> None:
    for visibility in ("public", "private"):
        a = (release_root(release_runs[2], visibility) / "SHA256SUMS").read_bytes()
        b = (release_root(release_runs[1], visibility) / "SHA256SUMS").read_bytes()
        assert a == b, visibility
        assert len(parse_sha256sums(a.decode())) > 50


def test_public_release_holds_only_open_datasets(release_runs: dict[int, Path]) -> None:
    root = release_root(release_runs[2], "public")
    assert datasets_of(root) == OPEN
    assert not any(name in p.as_posix() for p in root.rglob("*") for name in ("snomed", "umls"))
    assert verify_sha256sums(root) == []
    manifest = (root / "RELEASE.md").read_text()
    for dataset in sorted(RESTRICTED):
        assert f"* `{dataset}`:" in manifest  # listed as withheld
    assert "git commit unknown" in manifest  # the test copy is not a git checkout
    assert f"snakemake --cores N --configfile {' '.join(CONFIG_FILES)} release_public" in manifest
    config = yaml.safe_load((root / "config.yaml").read_text())
    assert config["release"]["version"] == VERSION and config["termpairs"]["terminologies"]
    # WiC over CRAFT: every article a row takes a sentence from, with its notice and URL (issue 38)
    wic = root / "wic" / "biowic"
    rows = pd.concat([pq.read_table(p).to_pandas() for p in wic.glob("data/*.parquet")], ignore_index=True)
    articles = set(rows.loc[rows["corpus1"] == "craft", "document_id1"]) | set(
        rows.loc[rows["corpus2"] == "craft", "document_id2"]
    )
    assert len(articles) > 50 and not articles & {"15784609", "15917436", "16027110", "16221973", "16517939"}
    card = (wic / "README.md").read_text()
    notices = card.split("### Article notices", 1)[1].split("\n## ", 1)[0]
    assert all(f"`craft` PMID {pmid} (PMC" in notices for pmid in articles)
    recorded = json.loads((wic / "croissant.json").read_text())["prov:wasDerivedFrom"]
    assert {e["identifier"] for e in recorded if e["@type"] == "sc:ScholarlyArticle"} == {f"PMID:{p}" for p in articles}


def test_private_release_carries_restricted_notices(release_runs: dict[int, Path]) -> None:
    root = release_root(release_runs[2], "private")
    assert datasets_of(root) == OPEN | RESTRICTED
    assert verify_sha256sums(root) == []
    for dataset in sorted(OPEN | RESTRICTED):
        card = (root / dataset / "README.md").read_text()
        meta = yaml.safe_load(card.split("---\n")[1])
        restricted = dataset in RESTRICTED
        assert ("**Restricted licence — private release only.**" in card) == restricted, dataset
        assert (
            (meta["license"] == ("unknown" if dataset in UNSTATED else "other") and "extra_gated_prompt" in meta)
            if restricted
            else "extra_gated_prompt" not in meta
        )
        assert verify_sha256sums(root / dataset) == [], dataset
        # Hub conventions (tests/unit/release/test_card_conventions.py checks them in detail)
        assert meta["license"] in ("cc-by-4.0", "cc0-1.0", "apache-2.0", "mit", "unknown", "other"), dataset
        assert meta["license"] != "other" or (meta["license_name"] and meta["license_link"]), dataset
        assert all(s.startswith(("http://", "https://")) for s in meta.get("source_datasets", [])), dataset
        assert "### Example" in card and "```bibtex\n" in card, dataset
    snomed = (root / "termpairs" / "snomed_sample" / "README.md").read_text()
    assert "snomed-ct-affiliate-licence" in snomed and "sct2_Concept_Full_INT_20140131.txt" in snomed
    # Open datasets are the same bytes in both releases.
    public = release_root(release_runs[2], "public")
    for rel in (
        "termpairs/hpo/data/fsn_syn_easy_random/test-00000-of-00001.parquet",
        "wic/biowic/data/test-00000-of-00001.parquet",
    ):
        assert (root / rel).read_bytes() == (public / rel).read_bytes()


def test_released_rows_equal_the_family_outputs(release_runs: dict[int, Path]) -> None:
    run = release_runs[2]
    root = release_root(run, "public")
    pairs = [
        (
            "termpairs/hpo/data/syn_syn_hard_levenshtein/test-00000-of-00001.parquet",
            "results/datasets/termpairs/hpo/syn_syn_hard_levenshtein.parquet",
        ),
        ("wic/biowic/data/train-00000-of-00001.parquet", "results/datasets/wic/train.parquet"),
        # the family's dev split is released under the Hub's name
        ("wic/biowic/data/validation-00000-of-00001.parquet", "results/datasets/wic/dev.parquet"),
        (
            "analogies/hpo/data/all_info/test-00000-of-00001.parquet",
            "results/datasets/analogies/hpo/all_info.parquet",
        ),
        (
            "simlex/pairs/data/verbs/test-00000-of-00001.parquet",
            "results/datasets/simlex/verbs/pairs.parquet",
        ),
    ]
    for released, original in pairs:
        a, b = pq.read_table(root / released), pq.read_table(run / original)
        assert a.num_rows > 0 and a.equals(b.replace_schema_metadata(None)), released
    card = (root / "termpairs" / "hpo" / "README.md").read_text()
    counts = pq.read_metadata(run / "results/datasets/termpairs/hpo/fsn_syn_hard_random.parquet").num_rows
    assert f"| fsn_syn_hard_random | test | {counts // 2} | {counts // 2} |" in card


def test_release_check_passes(release_runs: dict[int, Path]) -> None:
    for visibility in ("public", "private"):
        assert check_release(release_root(release_runs[1], visibility)) == [], visibility


def test_every_croissant_validates_and_reads(release_runs: dict[int, Path]) -> None:
    root = release_root(release_runs[2], "private")
    files = sorted(root.glob("*/*/croissant.json"))
    assert len(files) == len(OPEN | RESTRICTED)
    for path in files:
        assert validate_croissant(path, check_records=3) == [], path  # datePublished from the config: no warning
        doc = json.loads(path.read_text())
        assert doc["datePublished"].startswith(DATE_PUBLISHED), path


def test_datasets_loads_every_split_offline(release_runs: dict[int, Path], tmp_path: Path) -> None:
    root = release_root(release_runs[2], "private")
    env = dict(os.environ, HF_DATASETS_OFFLINE="1", HF_HUB_OFFLINE="1", HF_HOME=str(tmp_path / "hf"))
    script = r"""
import json, sys, yaml, datasets, pyarrow.parquet as pq
from pathlib import Path
root = Path(sys.argv[1]); checked = 0
for card in sorted(root.glob("*/*/README.md")):
    meta = yaml.safe_load(card.read_text().split("---\n")[1])
    for config in meta["configs"]:
        ds = datasets.load_dataset(str(card.parent), config["config_name"], cache_dir=sys.argv[2])
        assert set(ds) <= {"train", "validation", "test"}, (card, sorted(ds))
        if "label" in ds[next(iter(ds))].features and card.parent.parts[-2] in ("termpairs", "wic"):
            assert isinstance(ds[next(iter(ds))].features["label"], datasets.ClassLabel), card
        for files in config["data_files"]:
            expected = pq.read_metadata(card.parent / files["path"]).num_rows
            assert ds[files["split"]].num_rows == expected, (card, config, files)
            checked += 1
    first = meta["configs"][0]["data_files"][0]["path"]
    folder = card.parent / Path(first).parent
    ds = datasets.load_dataset("parquet", data_dir=str(folder), cache_dir=sys.argv[2])
    assert sum(d.num_rows for d in ds.values()) == sum(pq.read_metadata(p).num_rows for p in folder.glob("*.parquet"))
    if card.parent.name == "biowic":
        assert sorted(ds) == ["test", "train", "validation"], sorted(ds)  # dev is named validation
print(checked)
"""
    done = subprocess.run(
        [sys.executable, "-c", script, str(root), str(tmp_path / "cache")],
        check=False,
        env=env,
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr[-5000:]
    # Every non-empty file is declared in its card and loads (empty ones cannot be loaded by `datasets`).
    files = sorted(root.glob("*/*/data/**/*.parquet"))
    # term pairs of the test overlay's 4 terminologies (snomed_sample, hpo, umls_sample, cl), analogies of 10
    assert len(files) == 20 * 4 + 6 * 10 + 3 + 2 + 1
    with_rows = [f for f in files if pq.read_metadata(f).num_rows > 0]
    assert int(done.stdout.strip().splitlines()[-1]) == len(with_rows) > len(files) // 2


def test_public_release_refuses_restricted_datasets(release_runs: dict[int, Path]) -> None:
    run = release_runs[1]
    direct = run_workflow(run, 1, "-n", f"results/release/{VERSION}/public/termpairs/snomed_sample/README.md")
    message = direct.stdout + direct.stderr  # Snakemake prints the error on stdout or stderr by version
    assert direct.returncode != 0
    assert (
        "RestrictedLicenceError" in message
        and "termpairs/snomed_sample: snomed_sample: format rf2, licence SNOMED CT" in message
    )
    (run / "config" / "explicit.yaml").write_text(yaml.safe_dump({"release": {"datasets": ["termpairs"]}}))
    explicit = run_workflow(
        run,
        1,
        "-n",
        "release_public",
        "--configfile",
        *CONFIG_FILES,
        "config/explicit.yaml",
    )
    message = explicit.stdout + explicit.stderr
    assert explicit.returncode != 0
    assert "refuses 2 dataset(s)" in message
    assert "- termpairs/snomed_sample: " in message and "- termpairs/umls_sample: " in message
    private = run_workflow(
        run,
        1,
        "-n",
        "release_private",
        "--configfile",
        *CONFIG_FILES,
        "config/explicit.yaml",
    )
    assert private.returncode == 0, (private.stdout + private.stderr)[-3000:]


def test_snakemake_report_includes_release(release_runs: dict[int, Path], tmp_path: Path) -> None:
    run = release_runs[2]
    env = dict(os.environ, NLTK_DATA=str(SHARED_DATA / "nltk_data"))
    report = tmp_path / "report.zip"
    cmd = [
        sys.executable,
        "-m",
        "snakemake",
        "--report",
        str(report),
        "all",
        "release_private",
        "release_public",
        "--configfile",
        *CONFIG_FILES,
    ]
    done = subprocess.run(cmd, check=False, cwd=run, env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr[-5000:]
    with zipfile.ZipFile(report) as archive:
        names = archive.namelist()
        (html,) = [n for n in names if n.endswith("/report.html")]
        page = archive.read(html).decode("utf-8")
        shown = {n: archive.read(n).decode("utf-8") for n in names if n.endswith(".html") and n != html}
    # public and private manifests, rendered: the report offers a .md file as a download only
    assert sum(n.endswith("/RELEASE.md.html") for n in names) == 2
    manifests = [text for n, text in shown.items() if n.endswith("/RELEASE.md.html")]
    assert all(re.search(r"<h1>biosem release [^<]+</h1>", text) and "<h2>Datasets</h2>" in text for text in manifests)
    # every table and text file of rule all is shown as an HTML page, none is a bare download
    plan = Plan(validated_config(workflow_config()))
    pages = plan.report.targets()
    plots = [b.path for b in plan.built if b.output.kind == outputs.PLOT]
    in_report = Counter(PurePosixPath(n).name for n in names)
    assert Counter(PurePosixPath(p).name for p in [*pages, *plots]) <= in_report
    counted = ("termpair_counts", "analogy_counts", "simlex_counts", "wic_counts")  # pages named counts.tsv.html
    assert len(pages) >= 60 and in_report["counts.tsv.html"] == sum(b.output.name in counted for b in plan.report.pages)
    assert not [n for n in names if n.endswith((".tsv", ".csv", ".txt", ".md"))]
    assert all("<table>" in text or "<pre>" in text or '<div class="md">' in text for text in shown.values())
    hpo = [text for text in shown.values() if "<h1>results/datasets/termpairs/hpo/counts.tsv</h1>" in text]
    assert len(hpo) == 1 and '<td class="num">' in hpo[0] and "fsn_syn" in hpo[0]
    # the datasets' own plots beside the evaluation plots
    plots = [n for n in names if n.endswith(".png")]
    assert {PurePosixPath(p).name for p in plots} | {"termpairs.png", "wic.png"} <= {
        PurePosixPath(n).name for n in plots
    }
    for category in (
        "Release",
        "Term pairs",
        "WiC",
        "Analogies",
        "Simlex",
        "Agreement",
        "Evaluation",
    ):
        assert f'"{category}"' in page, category
