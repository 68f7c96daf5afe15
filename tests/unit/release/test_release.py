"""Release machinery on hand-made tables: licence guard, checksums, registry, composition, cards,
Croissant, dataset folders and the release manifest (no workflow run)."""

from __future__ import annotations

import hashlib
import json
import re
import shutil
import subprocess
from pathlib import Path

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
import yaml
from conftest import REPO

from biosem.release import registry
from biosem.release.build import build_dataset, checksum_table, read_checksum_table, write_release
from biosem.release.checksums import (
    format_sums,
    parse_sha256sums,
    verify_sha256sums,
    write_sha256sums,
)
from biosem.release.croissant import validate_croissant
from biosem.release.licence import (
    Attribution,
    RestrictedLicenceError,
    UnknownLicenceError,
    classify,
    croissant_licences,
    hub_licence,
    require_public,
    restricted_notice,
)
from biosem.release.provenance import (
    Provenance,
    code_version,
    command_line,
    config_yaml,
    relative_paths,
)
from biosem.release.registry import Paper, ReleaseDataset, Source, select
from biosem.release.shards import MAX_GROUPS_SHOWN, ShardInfo, composition

PAPER = Paper(
    "Author 2020",
    "A. Author. 2020. A paper. Venue.",
    "@misc{a2020,\n  title = {A paper}\n}",
    "https://example.org/paper",
)
HPO = Source(
    "hpo",
    "public",
    "terminology hpo (OBO)",
    "CC-BY-4.0",
    "2025-01-16",
    "https://example.org/hp.obo",
    "ab" * 32,
    "obo",
    attribution=Attribution("Example Phenotype Ontology", "the Example Consortium"),
)
SNOMED = Source(
    "snomed",
    "licensed",
    "terminology (RF2 release)",
    "SNOMED CT",
    format="rf2",
    release="MiniCT",
    path="/x/MiniCT",
)
UMLS = Source(
    "umls",
    "licensed",
    "terminology (RRF release)",
    "UMLS",
    format="rrf",
    release="META",
    path="/x/META",
)


def provenance(visibility: str = "public") -> Provenance:
    return Provenance(
        "1.2.3",
        visibility,
        "0.1.0",
        "unknown",
        "unknown",
        "snakemake --cores N release_public",
        ("config/config.yaml",),
    )


# --- licence --------------------------------------------------------------------------------------


def test_licensed_formats_and_licences_are_restricted() -> None:
    assert not classify([HPO]).restricted
    status = classify([HPO, SNOMED])
    assert status.restricted
    assert status.reasons == ("snomed: format rf2, licence SNOMED CT",)
    assert status.source_licences == ("CC-BY-4.0", "SNOMED CT")
    # A restricted licence on an open format (e.g. SNOMED CT content converted to OBO) is caught.
    obo_snomed = Source("sct_obo", "public", "terminology", "SNOMED CT Affiliate Licence", format="obo")
    assert classify([obo_snomed]).reasons == ("sct_obo: licence SNOMED CT Affiliate Licence",)
    # The config lists only add restrictions: empty lists lift none.
    assert classify([SNOMED], restricted_formats=[], restricted_licences=[]).restricted
    assert classify([HPO], restricted_licences=["CC BY 4.0"]).restricted
    with pytest.raises(UnknownLicenceError, match=r"release.restricted_licences\[0\]: 'cc-by' is not a licence"):
        classify([HPO], restricted_licences=["cc-by"])


def test_public_guard_lists_every_restricted_dataset() -> None:
    require_public([("termpairs/hpo", classify([HPO]))])
    with pytest.raises(RestrictedLicenceError) as err:
        require_public(
            [
                ("termpairs/umls", classify([UMLS])),
                ("termpairs/hpo", classify([HPO])),
                ("analogies/snomed", classify([SNOMED, HPO])),
            ]
        )
    message = str(err.value)
    assert "2 dataset(s)" in message
    assert "analogies/snomed: snomed: format rf2, licence SNOMED CT" in message
    assert "termpairs/umls: umls: format rrf, licence UMLS" in message
    assert "termpairs/hpo" not in message
    assert "release_private" in message
    assert [name for name, _ in err.value.datasets] == ["analogies/snomed", "termpairs/umls"]


def test_notices_and_hub_licences() -> None:
    assert restricted_notice(classify([HPO])) == ""
    snomed = restricted_notice(classify([SNOMED]))
    assert "Restricted licence" in snomed and "SNOMED CT" in snomed and "UMLS" not in snomed
    both = restricted_notice(classify([SNOMED, UMLS]))
    assert "SNOMED CT" in both and "UMLS Metathesaurus" in both
    assert hub_licence(classify([HPO])) == {"license": "cc-by-4.0"}
    cc0 = Source("mm", "public", "corpus", "CC0")
    cc0b = Source("mm2", "public", "corpus", "CC0-1.0")
    assert hub_licence(classify([cc0, cc0b])) == {"license": "cc0-1.0"}
    # CC0 adds no condition: the CC BY source decides; two licences with conditions are a mix.
    assert hub_licence(classify([HPO, cc0])) == {"license": "cc-by-4.0"}
    # Without conditions at all, CC0 (a Hub id) covers a public-domain corpus too.
    public_domain = Source("corpus", "public", "corpus", "NCBI public domain notice")
    assert hub_licence(classify([cc0, public_domain])) == {"license": "cc0-1.0"}
    assert hub_licence(classify([public_domain])) == {
        "license": "other",
        "license_name": "us-government-public-domain",
        "license_link": "README.md",
    }
    apache = Source("sheet", "local", "review", "Apache-2.0")
    assert hub_licence(classify([HPO, apache])) == {
        "license": "other",
        "license_name": "biosem-derived-mixed",
        "license_link": "README.md",
    }
    # One source under a named licence without a Hub id names it, linked to its terms.
    usf = Source("usf", "public", "norms", "USF Free Association Norms terms of use")
    assert hub_licence(classify([usf, cc0])) == {
        "license": "other",
        "license_name": "usf-free-association-norms-terms",
        "license_link": "http://w3.usf.edu/FreeAssociation/",
    }
    # A string that names no licence biosem knows restricts its dataset (by identity, never a substring).
    unknown = Source("usf", "public", "norms", "USF terms of use (free for research; https://example.org/usf)")
    status = classify([unknown, cc0])
    assert status.restricted and status.restricted_by == ()
    assert status.reasons == (
        "usf: licence USF terms of use (free for research; https://example.org/usf) (not a licence biosem knows)",
    )
    assert hub_licence(status) == {"license": "other", "license_name": "restricted", "license_link": "README.md"}
    assert hub_licence(classify([HPO, Source("x", "public", "r", None)])) == {"license": "unknown"}
    assert hub_licence(classify([UMLS, SNOMED]))["license_name"] == "snomed-ct-affiliate-licence"
    assert hub_licence(classify([UMLS]))["license_name"] == "umls-metathesaurus-licence"
    assert croissant_licences(classify([HPO, cc0])) == [
        "https://spdx.org/licenses/CC-BY-4.0.html",
        "https://spdx.org/licenses/CC0-1.0.html",
    ]


# --- checksums ------------------------------------------------------------------------------------


def test_sha256sums_sorted_verifiable_and_sha256sum_compatible(tmp_path: Path) -> None:
    (tmp_path / "data" / "b").mkdir(parents=True)
    (tmp_path / "data" / "b" / "test.parquet").write_bytes(b"\x00\x01")
    (tmp_path / "README.md").write_text("card\n")
    (tmp_path / ".hidden.tmp").write_text("temporary")
    entries = write_sha256sums(tmp_path)
    assert [rel for rel, _ in entries] == ["README.md", "data/b/test.parquet"]
    text = (tmp_path / "SHA256SUMS").read_text()
    assert text.splitlines()[0] == f"{hashlib.sha256(b'card' + bytes([10])).hexdigest()}  README.md"
    assert parse_sha256sums(text) == dict(entries)
    assert verify_sha256sums(tmp_path) == []
    if shutil.which("sha256sum"):
        done = subprocess.run(
            ["sha256sum", "-c", "SHA256SUMS"],
            check=False,
            cwd=tmp_path,
            capture_output=True,
            text=True,
        )
        assert done.returncode == 0, done.stdout + done.stderr
    (tmp_path / "README.md").write_text("changed\n")
    (tmp_path / "extra.txt").write_text("x")
    (tmp_path / "data" / "b" / "test.parquet").unlink()
    assert verify_sha256sums(tmp_path) == [
        "missing: data/b/test.parquet",
        "not listed: extra.txt",
        "digest mismatch: README.md",
    ]


def test_sha256sums_reject_bad_lines_and_paths() -> None:
    with pytest.raises(ValueError, match="line 1"):
        parse_sha256sums("nothex  file\n")
    with pytest.raises(ValueError, match="newline or backslash"):
        format_sums([("a\\b", "0" * 64)])
    assert format_sums([("b", "1" * 64), ("a", "0" * 64)]) == f"{'0' * 64}  a\n{'1' * 64}  b\n"


def test_checksum_table_of_a_release_folder(tmp_path: Path) -> None:
    (tmp_path / "Full" / "Terminology").mkdir(parents=True)
    files = [
        tmp_path / "Full" / "Terminology" / "sct2_Concept.txt",
        tmp_path / "Full" / "der2_Refset.txt",
    ]
    for i, f in enumerate(files):
        f.write_text(f"row {i}\n")
    table = checksum_table([str(f) for f in files], tmp_path)
    assert table["file"].tolist() == ["Full/Terminology/sct2_Concept.txt", "Full/der2_Refset.txt"]
    assert table["bytes"].tolist() == [6, 6]
    assert table["sha256"].iloc[1] == hashlib.sha256(b"row 1\n").hexdigest()
    table.to_csv(tmp_path / "t.tsv", sep="\t", index=False)
    assert read_checksum_table(tmp_path / "t.tsv")[0] == (
        "Full/Terminology/sct2_Concept.txt",
        6,
        hashlib.sha256(b"row 0\n").hexdigest(),
    )


# --- registry -------------------------------------------------------------------------------------


def make_dataset(tmp_path: Path, configs: dict | None = None, sources: tuple = (HPO,), **kw) -> ReleaseDataset:
    return ReleaseDataset(
        family=kw.pop("family", "termpairs"),
        name=kw.pop("name", "hpo"),
        pretty_name="Term pairs",
        summary="Pairs of terms.",
        motivation="Testing.",
        configs=configs or {"default": {"test": str(tmp_path / "x.parquet")}},
        sources=sources,
        parameters={"seed": 1, "easy_max_distance": 5, "languages": ["en"]},
        paper=PAPER,
        **kw,
    )


def test_dataset_layout_and_params_roundtrip(tmp_path: Path) -> None:
    single = make_dataset(tmp_path, {"default": {"train": "a.parquet", "test": "b.parquet"}})
    assert single.id == "termpairs/hpo"
    assert single.data_file("default", "train") == "data/train-00000-of-00001.parquet"
    multi = make_dataset(
        tmp_path,
        {
            "fsn_syn_easy_random": {"test": "a.parquet"},
            "same_as_hard_random": {"test": "b.parquet"},
        },
        label_column="label",
    )
    assert multi.data_file("same_as_hard_random", "test") == "data/same_as_hard_random/test-00000-of-00001.parquet"
    assert [s[2] for s in multi.shards()] == ["a.parquet", "b.parquet"]
    assert ReleaseDataset.from_params(json.loads(json.dumps(multi.to_params()))) == multi
    assert make_dataset(tmp_path, sources=(SNOMED, HPO)).licensed_terminologies() == ["snomed"]


@pytest.mark.parametrize(
    ("configs", "match"),
    [
        ({}, "no configs"),
        ({"a": {}}, "no splits"),
        ({"a": {"dev set": "x"}}, "split names"),
        ({"default": {"test": "x"}, "other": {"test": "y"}}, "reserved"),
        ({"a/b": {"test": "x"}}, "config"),
    ],
)
def test_dataset_rejects_bad_layouts(tmp_path: Path, configs: dict, match: str) -> None:
    with pytest.raises(ValueError, match=match):
        ReleaseDataset("f", "n", "p", "s", "m", configs, (), {}, PAPER)


def test_select_by_family_and_id(tmp_path: Path) -> None:
    a = make_dataset(tmp_path, name="hpo")
    b = make_dataset(tmp_path, name="snomed")
    c = make_dataset(tmp_path, family="wic", name="biowic")
    assert select([a, b, c], None) == [a, b, c]
    assert select([a, b, c], ["termpairs"], ["termpairs/snomed"]) == [a]
    assert select([a, b, c], ["wic/biowic", "termpairs/hpo"]) == [a, c]
    with pytest.raises(ValueError, match=r"release.datasets: analogies match no dataset .*available: termpairs/hpo"):
        select([a, b, c], ["analogies"])
    with pytest.raises(ValueError, match="release.exclude: termpairs/go"):
        select([a], None, ["termpairs/go"])


def test_providers_follow_the_config(tmp_path: Path) -> None:
    config = yaml.safe_load((REPO / "config" / "config.yaml").read_text())
    offered = registry.registered_datasets(config, ["termpairs", "wic"])
    ids = [d.id for d in offered]
    assert ids == [
        *(f"termpairs/{t}" for t in sorted(config["termpairs"]["terminologies"])),
        "wic/biowic",
    ]
    hpo = next(d for d in offered if d.name == "hpo")
    assert len(hpo.configs) == 20 and hpo.configs["fsn_syn_easy_random"] == {
        "test": "results/datasets/termpairs/hpo/fsn_syn_easy_random.parquet"
    }
    assert [s.name for s in hpo.sources] == ["hpo"] and hpo.sources[0].sha256 == config["sources"]["hpo"]["sha256"]
    assert hpo.parameters["easy_max_distance"] == config["termpairs"]["easy_max_distance"]
    snomed = next(d for d in offered if d.name == "snomed_sample")
    assert snomed.licence_status(config["release"]).restricted
    # The licensed folder is named, its local path is not published.
    assert snomed.sources[0].release == "RF2Release" and snomed.parameters["terminology"]["path"] == "RF2Release"
    wic = offered[-1]
    assert wic.single_config and list(wic.configs["default"]) == ["train", "validation", "test"]
    assert wic.configs["default"]["validation"].endswith("dev.parquet")  # the family keeps its split name
    names = {s.name for s in wic.sources}
    assert {
        "bc5cdr_train",
        "ncbi_disease_test",
        "medmentions_sample",
        "medmentions_pmids_dev",
    } <= names
    assert not wic.licence_status(config["release"]).restricted
    assert registry.registered_datasets(config, []) == []


# --- composition ----------------------------------------------------------------------------------


def shard(config: str, split: str, rows: int, schema: pa.Schema) -> ShardInfo:
    return ShardInfo(config, split, f"data/{config}/{split}.parquet", rows, 0, 0, "0" * 64, schema)


def test_composition_counts_groups_and_labels() -> None:
    t1 = pa.table({"cat": ["a", "a", "b", None], "label": [1, 0, 1, 1]})
    t2 = pa.table({"cat": pa.array([], pa.string()), "label": pa.array([], pa.int64())})
    tables = [(shard("x", "test", 4, t1.schema), t1), (shard("x", "dev", 0, t2.schema), t2)]
    out = composition(tables, ["cat"], "label")
    assert out.to_dict("records") == [
        {"config": "x", "split": "test", "cat": "(none)", "label": "1", "rows": 1},
        {"config": "x", "split": "test", "cat": "a", "label": "0", "rows": 1},
        {"config": "x", "split": "test", "cat": "a", "label": "1", "rows": 1},
        {"config": "x", "split": "test", "cat": "b", "label": "1", "rows": 1},
        {"config": "x", "split": "dev", "cat": "", "label": "", "rows": 0},
    ]
    plain = composition(tables, [], None)
    assert plain["rows"].tolist() == [4, 0]


def test_composition_caps_many_groups() -> None:
    relations = [f"r{i:03d}" for i in range(MAX_GROUPS_SHOWN + 5) for _ in range(1 + (i < 3))]
    table = pa.table({"relation": relations})
    out = composition([(shard("c", "test", len(relations), table.schema), table)], ["relation"], None)
    assert len(out) == MAX_GROUPS_SHOWN + 1
    assert out["rows"].sum() == len(relations)
    other = out[out["relation"] == "(5 other values)"]
    assert other["rows"].tolist() == [5]
    assert {"r000", "r001", "r002"} <= set(out["relation"])


# --- dataset folders ------------------------------------------------------------------------------


@pytest.fixture
def two_configs(tmp_path: Path) -> ReleaseDataset:
    src = tmp_path / "src"
    src.mkdir()
    full = pa.table(
        {
            "term1": ["fever", "pyrexia", "cough", "rash"],
            "term2": ["pyrexia", "fever", "fever", "cough"],
            "label": pa.array([1, 1, 0, 0], pa.int64()),
            "ids": pa.array([["HP:1"], ["HP:1", "HP:2"], [], ["HP:3"]], pa.list_(pa.string())),
        }
    )
    pq.write_table(full, src / "full.parquet")
    pq.write_table(full.slice(0, 0), src / "empty.parquet")
    return make_dataset(
        tmp_path,
        {
            "fsn_syn_easy_random": {"test": str(src / "full.parquet")},
            "same_as_easy_random": {"test": str(src / "empty.parquet")},
        },
        columns={"term1": "First term.", "label": "1 = similar."},
        label_column="label",
        task_categories=("sentence-similarity",),
    )


def card_yaml(path: Path) -> dict:
    text = path.read_text()
    assert text.startswith("---\n")
    return yaml.safe_load(text.split("---\n")[1])


def test_build_dataset_folder(tmp_path: Path, two_configs: ReleaseDataset, monkeypatch: pytest.MonkeyPatch) -> None:
    out = tmp_path / "release" / "public" / "termpairs" / "hpo"
    status = two_configs.licence_status()
    built = build_dataset(two_configs, out, status, provenance(), {})
    assert [s.rows for s in built.shards] == [4, 0]
    files = sorted(p.relative_to(out).as_posix() for p in out.rglob("*") if p.is_file())
    assert files == [
        "README.md",
        "SHA256SUMS",
        "croissant.json",
        "data/fsn_syn_easy_random/test-00000-of-00001.parquet",
        "data/same_as_easy_random/test-00000-of-00001.parquet",
    ]
    assert verify_sha256sums(out) == []
    # Rows and order survive; no pandas metadata.
    released = pq.read_table(out / "data/fsn_syn_easy_random/test-00000-of-00001.parquet")
    assert released.column("term1").to_pylist() == ["fever", "pyrexia", "cough", "rash"]
    assert released.schema.metadata is None

    meta = card_yaml(out / "README.md")
    assert meta["license"] == "cc-by-4.0"
    assert meta["size_categories"] == ["n<1K"]
    assert meta["source_datasets"] == ["https://example.org/hp.obo"]  # the source's URL, not its name
    assert meta["pretty_name"] == "Term pairs"
    assert meta["configs"][0] == {
        "config_name": "fsn_syn_easy_random",
        "data_files": [{"split": "test", "path": "data/fsn_syn_easy_random/test-00000-of-00001.parquet"}],
        "default": True,
    }
    assert [c["config_name"] for c in meta["configs"]] == ["fsn_syn_easy_random"]  # the empty one is not declared
    (info,) = meta["dataset_info"] if isinstance(meta["dataset_info"], list) else [meta["dataset_info"]]
    assert info["splits"] == [{"name": "test", "num_bytes": released.nbytes, "num_examples": 4}]
    assert {"name": "ids", "list": "string"} in info["features"]
    card = (out / "README.md").read_text()
    for section in (
        "## Datasheet",
        "### Motivation",
        "### Composition",
        "### Collection process",
        "### Sources",
        "### Known limitations",
        "### Licence",
        "### Citation",
    ):
        assert section in card
    assert "| fsn_syn_easy_random | test | 2 | 2 |" in card  # label 0 / label 1 counts
    assert "`same_as_easy_random/test`" in card  # empty file named
    assert "easy_max_distance: 5" in card  # construction parameters
    assert f"content sha256 `{'ab' * 32}`" in card  # source checksum
    assert "Restricted" not in card

    doc = json.loads((out / "croissant.json").read_text())
    assert doc["conformsTo"] == "http://mlcommons.org/croissant/1.1"
    assert [rs["@id"] for rs in doc["recordSet"]] == [
        "fsn_syn_easy_random.test",
        "same_as_easy_random.test",
    ]
    assert doc["prov:wasDerivedFrom"][0]["sha256"] == "ab" * 32
    assert (
        doc["distribution"][0]["sha256"]
        == hashlib.sha256((out / "data/fsn_syn_easy_random/test-00000-of-00001.parquet").read_bytes()).hexdigest()
    )
    warnings = validate_croissant(out / "croissant.json", check_records=10)
    assert all("datePublished" in w for w in warnings)

    import mlcroissant as mlc

    records = list(mlc.Dataset(jsonld=out / "croissant.json").records("fsn_syn_easy_random.test"))
    assert [r["fsn_syn_easy_random.test/term1"] for r in records] == [
        b"fever",
        b"pyrexia",
        b"cough",
        b"rash",
    ]
    assert records[1]["fsn_syn_easy_random.test/ids"] == [b"HP:1", b"HP:2"]

    # The Hugging Face loader reads the card's configs and each config's data_dir, offline.
    import datasets
    import huggingface_hub.constants

    monkeypatch.setattr(datasets.config, "HF_DATASETS_OFFLINE", True)  # read at import: patch the flags
    monkeypatch.setattr(datasets.config, "HF_HUB_OFFLINE", True)
    monkeypatch.setattr(huggingface_hub.constants, "HF_HUB_OFFLINE", True)

    ds = datasets.load_dataset(str(out), "fsn_syn_easy_random", cache_dir=str(tmp_path / "hf" / "cache"))
    assert ds["test"].num_rows == 4 and ds["test"]["ids"][1] == ["HP:1", "HP:2"]
    ds = datasets.load_dataset(
        "parquet",
        data_dir=str(out / "data" / "fsn_syn_easy_random"),
        cache_dir=str(tmp_path / "hf" / "cache"),
    )
    assert ds["test"]["term2"] == ["pyrexia", "fever", "fever", "cough"]
    # An empty config is released as a file without row groups and described by Croissant, but not
    # declared in the card (the loader cannot load an empty split).
    assert pq.read_metadata(out / "data/same_as_easy_random/test-00000-of-00001.parquet").num_row_groups == 0
    assert list(mlc.Dataset(jsonld=out / "croissant.json").records("same_as_easy_random.test")) == []
    with pytest.raises(ValueError):
        datasets.load_dataset(str(out), "same_as_easy_random", cache_dir=str(tmp_path / "hf" / "cache"))


def test_build_is_deterministic_and_removes_stale_files(tmp_path: Path, two_configs: ReleaseDataset) -> None:
    status = two_configs.licence_status()
    a, b = tmp_path / "a", tmp_path / "b"
    build_dataset(two_configs, a, status, provenance(), {})
    (b / "data" / "old_config").mkdir(parents=True)
    (b / "data" / "old_config" / "test-00000-of-00001.parquet").write_bytes(b"stale")
    build_dataset(two_configs, b, status, provenance(), {})
    assert not (b / "data" / "old_config" / "test-00000-of-00001.parquet").exists()
    for name in ("README.md", "croissant.json", "SHA256SUMS"):
        assert (a / name).read_bytes() == (b / name).read_bytes(), name


def test_restricted_dataset_refused_public_and_noticed_private(tmp_path: Path, two_configs: ReleaseDataset) -> None:
    restricted = ReleaseDataset.from_params({**two_configs.to_params(), "name": "snomed", "sources": [vars(SNOMED)]})
    status = restricted.licence_status()
    with pytest.raises(RestrictedLicenceError, match="termpairs/snomed"):
        build_dataset(restricted, tmp_path / "pub", status, provenance("public"), {})
    assert not (tmp_path / "pub").exists()
    checksums = {"snomed": [("Full/sct2_Concept.txt", 10, "c" * 64)]}
    build_dataset(restricted, tmp_path / "priv", status, provenance("private"), checksums)
    card = (tmp_path / "priv" / "README.md").read_text()
    meta = card_yaml(tmp_path / "priv" / "README.md")
    assert meta["license"] == "other" and meta["license_name"] == "snomed-ct-affiliate-licence"
    assert "extra_gated_prompt" in meta
    assert "**Restricted licence — private release only.**" in card
    assert "| Full/sct2_Concept.txt | 10 | " + "c" * 64 + " |" in card
    assert "/x/MiniCT" not in card  # the local path of the licensed release is not published
    assert "MiniCT" in card


def test_write_release_manifest(tmp_path: Path, two_configs: ReleaseDataset) -> None:
    root = tmp_path / "1.2.3" / "public"
    status = two_configs.licence_status()
    build_dataset(two_configs, root / two_configs.id, status, provenance(), {})
    withheld = ReleaseDataset.from_params({**two_configs.to_params(), "name": "snomed", "sources": [vars(SNOMED)]})
    (root / "stale").mkdir()
    (root / "stale" / "file.txt").write_text("not released")
    config = {"seed": 1, "release": {"version": "1.2.3"}, "b": [1, 2]}
    entries = write_release(
        root,
        [(two_configs, status)],
        [(withheld, withheld.licence_status())],
        provenance(),
        {"python": "3.11.0", "pandas": "3.0"},
        config,
    )
    listed = [rel for rel, _ in entries]
    assert "stale/file.txt" not in listed
    assert not (root / "stale").exists()  # the folder holds what SHA256SUMS lists, nothing else
    assert {
        "RELEASE.md",
        "config.yaml",
        "termpairs/hpo/SHA256SUMS",
        "termpairs/hpo/data/fsn_syn_easy_random/test-00000-of-00001.parquet",
    } <= set(listed)
    paths = [line.split("  ", 1)[1] for line in (root / "SHA256SUMS").read_text().splitlines()]
    assert paths == sorted(listed, key=str.encode)
    text = (root / "RELEASE.md").read_text()
    assert "# biosem release 1.2.3 (public)" in text
    assert "[`termpairs/hpo`](termpairs/hpo/README.md) | 2 | test 4 | 4 | 1 | open (cc-by-4.0) |" in text
    assert "* `termpairs/snomed`: snomed: format rf2, licence SNOMED CT" in text
    assert "git commit unknown" in text
    assert "snakemake --cores N release_public" in text
    assert "| pandas | 3.0 |" in text
    assert yaml.safe_load((root / "config.yaml").read_text()) == config
    with pytest.raises(RestrictedLicenceError):
        write_release(root, [(withheld, withheld.licence_status())], [], provenance("public"), {}, config)


# --- provenance -----------------------------------------------------------------------------------


def test_code_version_outside_and_inside_git(tmp_path: Path) -> None:
    assert code_version(tmp_path) == {"commit": "unknown", "state": "unknown"}
    if not shutil.which("git"):
        pytest.skip("git not installed")
    repo = tmp_path / "repo"
    repo.mkdir()
    env = ["-c", "user.email=t@example.org", "-c", "user.name=t"]
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    (repo / "f.txt").write_text("1")
    subprocess.run(["git", "-C", str(repo), "add", "f.txt"], check=True)
    subprocess.run(["git", *env, "-C", str(repo), "commit", "-q", "-m", "x"], check=True)
    head = subprocess.run(
        ["git", "-C", str(repo), "rev-parse", "HEAD"], capture_output=True, text=True, check=True
    ).stdout.strip()
    (repo / "untracked.txt").write_text("ignored")
    assert code_version(repo) == {"commit": head, "state": "clean"}
    (repo / "f.txt").write_text("2")
    assert code_version(repo) == {"commit": head, "state": "modified"}
    (repo / "sub").mkdir()
    assert code_version(repo / "sub")["commit"] == "unknown"  # not the top of the checkout


def test_command_and_config_rendering(tmp_path: Path) -> None:
    assert command_line("release_public", ["config/config.yaml", "my config.yaml"], ["seed=1"]) == (
        "snakemake --cores N --configfile config/config.yaml 'my config.yaml' --config seed=1 release_public"
    )
    assert relative_paths([tmp_path / "config" / "c.yaml"], tmp_path) == ["config/c.yaml"]
    assert config_yaml({"b": (1, 2), "a": {"z": 1, "y": None}}) == "a:\n  y: null\n  z: 1\nb:\n- 1\n- 2\n"


def test_manifest_counts_from_parquet_footers(tmp_path: Path, two_configs: ReleaseDataset) -> None:
    from biosem.release.build import dataset_rows

    build_dataset(two_configs, tmp_path / "d", two_configs.licence_status(), provenance(), {})
    assert dataset_rows(two_configs, tmp_path / "d") == {
        ("fsn_syn_easy_random", "test"): 4,
        ("same_as_easy_random", "test"): 0,
    }
    assert pd.read_parquet(tmp_path / "d" / two_configs.data_file("same_as_easy_random", "test")).empty


# --- report captions ------------------------------------------------------------------------------


def test_every_report_caption_exists() -> None:
    """`snakemake --report` needs every caption a `report()` output names (workflow/rules/*.smk)."""
    repo = REPO
    rules = repo / "workflow" / "rules"
    captions = {
        (rules / match).resolve()
        for smk in sorted(rules.glob("*.smk"))
        for match in re.findall(r"caption\s*=\s*[\"']([^\"']+)[\"']", smk.read_text())
    }
    assert (rules / "../report/release_manifest.rst").resolve() in captions
    missing = sorted(str(p.relative_to(repo)) for p in captions if not p.is_file())
    assert missing == []
    snakefile = (repo / "Snakefile").read_text()
    (main,) = re.findall(r"^report:\s*[\"']([^\"']+)[\"']", snakefile, flags=re.MULTILINE)
    assert (repo / main).is_file()


def test_check_release_folder(tmp_path: Path, two_configs: ReleaseDataset) -> None:
    from biosem.release.check import check_release, main

    root = tmp_path / "1.2.3" / "public"
    status = two_configs.licence_status()
    build_dataset(two_configs, root / two_configs.id, status, provenance(), {})
    write_release(root, [(two_configs, status)], [], provenance(), {}, {"seed": 1})
    assert check_release(root) == []
    assert main([str(root)]) == 0
    (root / "termpairs/hpo/data/same_as_easy_random/test-00000-of-00001.parquet").write_bytes(b"tampered")
    problems = check_release(root)
    assert "SHA256SUMS: digest mismatch: termpairs/hpo/data/same_as_easy_random/test-00000-of-00001.parquet" in problems
    assert "termpairs/hpo/SHA256SUMS: digest mismatch: data/same_as_easy_random/test-00000-of-00001.parquet" in problems
    assert any(p.startswith("termpairs/hpo/croissant.json:") for p in problems)
    assert main([str(root)]) == 1
    # A restricted card slipped into a public folder is reported.
    restricted = ReleaseDataset.from_params({**two_configs.to_params(), "name": "snomed", "sources": [vars(SNOMED)]})
    build_dataset(restricted, root / restricted.id, restricted.licence_status(), provenance("private"), {})
    assert (
        "termpairs/snomed: restricted dataset in a public release (from the sources croissant.json records: "
        "snomed: format rf2, licence SNOMED CT)"
    ) in check_release(root)


# --- rule functions (biosem.workflow.release) -----------------------------------------------------


def test_release_plan_membership_guard_and_provenance(tmp_path: Path) -> None:
    from types import SimpleNamespace

    from biosem.workflow.release import ReleasePlan, active_stages

    config = yaml.safe_load((REPO / "config" / "config.yaml").read_text())
    # A stage is active when it has targets; stages no provider names are ignored.
    stages = active_stages({"termpairs": ["t"], "wic": ["x"], "analogies": [], "corpora": ["c"]})
    assert stages == ["termpairs", "wic"]
    plan = ReleasePlan(config, stages, str(tmp_path), ["config/config.yaml"])
    public, private = SimpleNamespace(visibility="public"), SimpleNamespace(visibility="private")
    open_terms = ["cl", "doid", "go", "hpo", "mesh", "mop", "so", "uberon"]
    assert [d.id for d in plan.members("public")] == [*(f"termpairs/{t}" for t in open_terms), "wic/biowic"]
    assert [d.id for d in plan.withheld("public")] == [
        "termpairs/snomed_sample",
        "termpairs/umls_sample",
    ]
    assert len(plan.members("private")) == 11 and plan.withheld("private") == []
    assert plan.manifest_inputs(public) == [
        *(f"results/release/0.1.0/public/termpairs/{t}/SHA256SUMS" for t in open_terms),
        "results/release/0.1.0/public/wic/biowic/SHA256SUMS",
    ]
    assert plan.public_target(public) == "results/release/0.1.0/public/SHA256SUMS"
    assert plan.guard("termpairs/snomed_sample")(private) == []
    with pytest.raises(RestrictedLicenceError, match="termpairs/snomed_sample"):
        plan.guard("termpairs/snomed_sample")(public)
    by_id = {d.id: d for d in plan.datasets}
    outputs = plan.dataset_outputs(by_id["termpairs/hpo"])
    assert outputs["card"] == "results/release/0.1.0/{visibility}/termpairs/hpo/README.md"
    assert len(outputs["data"]) == 20
    assert plan.licensed_checksums(by_id["termpairs/snomed_sample"]) == ["results/release/checksums/snomed_sample.tsv"]
    prov = plan.provenance(private)
    assert prov["git_commit"] == "unknown" and prov["visibility"] == "private"
    assert prov["command"] == "snakemake --cores N --configfile config/config.yaml release_private"
    assert prov["date"] == config["release"]["date_published"]  # a config value, never the clock
    # An explicit selection naming restricted datasets makes the public release fail, not the private.
    explicit = {**config, "release": {**config["release"], "datasets": ["termpairs"]}}
    plan = ReleasePlan(explicit, stages, str(tmp_path), ["config/config.yaml"])
    assert len(plan.manifest_inputs(private)) == 10
    with pytest.raises(RestrictedLicenceError, match="refuses 2 dataset"):
        plan.manifest_inputs(public)
    with pytest.raises(RestrictedLicenceError):
        plan.public_target(public)
