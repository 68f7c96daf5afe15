"""Released cards follow the Hugging Face dataset-card conventions, and Croissant its recommendations.

The datasets are the real providers' (biosem.release.families on config/config.yaml: sources,
attributions, papers, label names) with their Parquet inputs replaced by small tables written here:
word-in-context pairs (train / dev / test, several sources), HPO term pairs (one source) and a rated
word-pair set of one source under a named licence without a Hub id. Every card's YAML header is parsed
and checked, then the folders are loaded with ``datasets`` offline.
"""

from __future__ import annotations

import dataclasses
import json
import re
from pathlib import Path

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
import yaml
from conftest import REPO, validated_config

from biosem.release import citations, families
from biosem.release.build import build_dataset
from biosem.release.check import check_release
from biosem.release.croissant import validate_croissant
from biosem.release.provenance import Provenance
from biosem.release.registry import ReleaseDataset, Source
from biosem.validity import check, label_checks, string_baseline_checks, write_validity

CONFIG = validated_config(yaml.safe_load((REPO / "config" / "config.yaml").read_text()))
HUB_IDS = {"cc-by-4.0", "cc-by-3.0", "cc0-1.0", "apache-2.0", "mit", "unknown", "other"}
"""The Hub licence ids biosem may write (https://huggingface.co/docs/hub/repositories-licenses)."""
TASKS = {"sentence-similarity", "text-classification", "question-answering"}
SPLITS = {"train", "validation", "test"}
LICENCE_NAME = re.compile(r"^[a-z0-9][a-z0-9.-]*$")
URL = re.compile(r"^https?://\S+$")


def wic_table(n: int, offset: int) -> pa.Table:
    rows = range(offset, offset + n)
    return pa.table(
        {
            "term1": [f"cold{i}" for i in rows],
            "term2": [f"COLD{i}" for i in rows],
            "sentence1": [f"A cold{i} here." for i in rows],
            "sentence2": [f"The COLD{i} there." for i in rows],
            "start1": pa.array([2] * n, pa.int64()),
            "end1": pa.array([2 + len(f"cold{i}") for i in rows], pa.int64()),
            "start2": pa.array([4] * n, pa.int64()),
            "end2": pa.array([4 + len(f"COLD{i}") for i in rows], pa.int64()),
            "cat": ["abbreviations"] * n,
            "label": pa.array([i % 2 for i in rows], pa.int64()),
        }
    )


TERMPAIRS = pa.table(
    {
        "term1": ["fever", "pyrexia", "cough", "rash"],
        "term2": ["pyrexia", "rash", "tussis", "cough"],
        "label": pa.array([1, 0, 1, 0], pa.int64()),
        "concept_id1": ["HP:0001945", "HP:0001945", "HP:0012735", "HP:0000988"],
        "concept_id2": ["HP:0001945", None, "HP:0012735", None],
        "levenshtein": pa.array([7, 6, 5, 5], pa.int64()),
    }
)
RATED = pa.table({"word1": ["run", "walk"], "word2": ["jog", "stroll"], "score": [8.5, 7.25]})


def with_files(dataset: ReleaseDataset, tmp: Path, tables: dict[tuple[str, str], pa.Table]) -> ReleaseDataset:
    """``dataset`` reading ``tables`` (by its own config and split) from Parquet files under ``tmp``."""
    configs: dict[str, dict[str, str]] = {}
    for (config, split), table in tables.items():
        path = tmp / "in" / dataset.family / dataset.name / f"{config}-{split}.parquet"
        path.parent.mkdir(parents=True, exist_ok=True)
        pq.write_table(table, path)
        configs.setdefault(config, {})[split] = str(path)
    return dataclasses.replace(dataset, configs=configs)


@pytest.fixture(scope="module")
def release(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A public release folder with the three datasets built (cards, Croissant, checksums)."""
    tmp = tmp_path_factory.mktemp("conventions")
    (wic,) = families.wic(CONFIG)
    assert list(wic.configs["default"]) == ["train", "validation", "test"]
    wic = with_files(
        wic,
        tmp,
        {
            ("default", "train"): wic_table(6, 0),
            ("default", "validation"): wic_table(2, 6),
            ("default", "test"): wic_table(4, 8),
        },
    )
    validity = tmp / "validity.tsv"
    write_validity(
        [
            *label_checks([1] * 40 + [0] * 10, "test", "term_identity"),
            *string_baseline_checks(["cold", "fever"], ["COLD", "tussis"], [1, 0], "test"),
            check("train/dev", "shared_sentences", 3, "== 0", detail="A | pipe in one sentence."),
            check("test", "trivial_share", 0.25, detail="n=4"),
            check("test", "trivial_share", 0.5, stratum="abbreviations"),  # a stratum the card leaves out
        ],
        validity,
    )
    wic = dataclasses.replace(wic, validity=(str(validity),))
    hpo = next(d for d in families.termpairs(CONFIG) if d.name == "hpo")
    assert hpo.validity == ("results/datasets/termpairs/hpo/validity.tsv",)
    hpo = with_files(
        dataclasses.replace(hpo, validity=()),
        tmp,
        {("fsn_syn_easy_random", "test"): TERMPAIRS, ("syn_syn_hard_levenshtein", "test"): TERMPAIRS},
    )
    (rated,) = families.simlex_rated(CONFIG)
    terms = "USF Free Association Norms terms of use"
    rated = dataclasses.replace(
        with_files(rated, tmp, {("default", "test"): RATED}),
        name="rated_example",
        sources=(Source("example_ratings.csv", "local", "ratings", terms, path=str(tmp / "example_ratings.csv")),),
    )
    (tmp / "example_ratings.csv").write_text("word1,word2,rating\n")
    root = tmp / "release" / "public"
    provenance = Provenance(
        CONFIG["release"]["version"],
        "public",
        "0.1.0",
        "unknown",
        "unknown",
        "snakemake --cores N release_public",
        ("config/config.yaml",),
        date=CONFIG["release"]["date_published"],
    )
    # the default's WiC reads CRAFT, whose articles carry notices; these rows name no article
    assert wic.notices == ("results/intermediate/notices/craft.parquet",)
    notices = pd.DataFrame(columns=["corpus", "document_id", "pmcid", "url", "citation", "statement", "notice"])
    for dataset in (wic, hpo, rated):
        status = dataset.licence_status(CONFIG["release"])
        build_dataset(dataset, root / dataset.id, status, provenance, {}, notices if dataset.notices else None)
    return root


def front_matter(card: Path) -> dict:
    text = card.read_text(encoding="utf-8")
    assert text.startswith("---\n")
    return yaml.safe_load(text.split("---\n")[1])


def bibtex_block(card: Path) -> str:
    (block,) = re.findall(r"```bibtex\n(.*?)\n```", card.read_text(encoding="utf-8"), flags=re.S)
    return block


def test_every_card_follows_the_hub_conventions(release: Path) -> None:
    cards = sorted(release.glob("*/*/README.md"))
    assert [c.parent.relative_to(release).as_posix() for c in cards] == [
        "simlex/rated_example",
        "termpairs/hpo",
        "wic/biowic",
    ]
    for card in cards:
        meta = front_matter(card)
        name = card.parent.relative_to(release).as_posix()
        # licence: a Hub id, or `other` with an id-like name and a link
        assert meta["license"] in HUB_IDS, name
        if meta["license"] == "other":
            assert LICENCE_NAME.match(meta["license_name"]), (name, meta["license_name"])
            assert URL.match(meta["license_link"]) or meta["license_link"] == "README.md", name
        assert meta["pretty_name"] and set(meta["task_categories"]) <= TASKS, name
        # source_datasets: URLs only (the sources' upstream pages), never a bare source name
        assert all(URL.match(s) for s in meta.get("source_datasets", [])), (name, meta.get("source_datasets"))
        # configs: Hub split names, files named after their split
        for config in meta["configs"]:
            for files in config["data_files"]:
                assert files["split"] in SPLITS, name
                assert Path(files["path"]).name == f"{files['split']}-00000-of-00001.parquet"
                assert (card.parent / files["path"]).is_file()
        infos = meta["dataset_info"] if isinstance(meta["dataset_info"], list) else [meta["dataset_info"]]
        for info in infos:
            assert {s["name"] for s in info["splits"]} <= SPLITS
        # an example row and a BibTeX block with balanced braces, one entry per paper and source work
        assert "### Example" in card.read_text()
        block = bibtex_block(card)
        assert block.count("{") == block.count("}"), name


def test_licences(release: Path) -> None:
    assert front_matter(release / "termpairs/hpo/README.md")["license"] == "other"
    hpo = front_matter(release / "termpairs/hpo/README.md")
    assert hpo["license_name"] == "hpo-licence" and hpo["license_link"] == "https://hpo.jax.org/license"
    # One source under a named licence without a Hub id (the USF norms' terms): its own licence, not a mix.
    rated = front_matter(release / "simlex/rated_example/README.md")
    assert rated["license"] == "other"
    assert rated["license_name"] == "usf-free-association-norms-terms"
    assert rated["license_link"] == "http://w3.usf.edu/FreeAssociation/"
    # WiC: public-domain corpora and CC0 add no condition, but MeSH's terms, CRAFT's and UBERON's CC BY 3.0
    # and GO's, CL's, SO's and MOP's CC BY 4.0 all bind it: a mix, each source's terms in the card.
    wic = front_matter(release / "wic/biowic/README.md")
    assert (wic["license"], wic["license_name"], wic["license_link"]) == ("other", "biosem-derived-mixed", "README.md")
    text = (release / "wic/biowic/README.md").read_text()
    assert "NLM Terms and Conditions" in text and "CC-BY-3.0" in text and "CC-BY-4.0" in text


def test_splits_class_labels_and_source_urls(release: Path) -> None:
    meta = front_matter(release / "wic/biowic/README.md")
    (config,) = meta["configs"]
    assert [f["split"] for f in config["data_files"]] == ["train", "validation", "test"]
    assert (release / "wic/biowic/data/validation-00000-of-00001.parquet").is_file()
    assert not list((release / "wic/biowic").rglob("dev*"))
    (label,) = [f for f in meta["dataset_info"]["features"] if f["name"] == "label"]
    assert label["dtype"] == {"class_label": {"names": {"0": "different_concept", "1": "same_concept"}}}
    assert {"name": "start1", "dtype": "int64"} in meta["dataset_info"]["features"]
    assert "https://www.nlm.nih.gov/mesh/" in meta["source_datasets"]
    assert "https://www.ncbi.nlm.nih.gov/CBBresearch/Dogan/DISEASE/" in meta["source_datasets"]
    assert len(meta["source_datasets"]) == len(set(meta["source_datasets"]))
    hpo = front_matter(release / "termpairs/hpo/README.md")
    assert hpo["source_datasets"] == ["https://hpo.jax.org"]  # the work's home page, not `hpo`
    for info in hpo["dataset_info"]:
        (label,) = [f for f in info["features"] if f["name"] == "label"]
        assert label["dtype"]["class_label"]["names"] == {"0": "dissimilar", "1": "similar"}
    rated = front_matter(release / "simlex/rated_example/README.md")
    assert "source_datasets" not in rated  # a local file has no URL
    assert all("class_label" not in json.dumps(f) for f in rated["dataset_info"]["features"])


def test_example_row_is_the_first_row_of_train(release: Path) -> None:
    text = (release / "wic/biowic/README.md").read_text()
    (example,) = re.findall(r"### Example\n\nThe first row of `train`:\n\n```json\n(.*?)\n```", text, flags=re.S)
    assert json.loads(example) == wic_table(1, 0).to_pylist()[0]
    text = (release / "termpairs/hpo/README.md").read_text()
    pattern = r"first row of `test` of config `fsn_syn_easy_random`:\n\n```json\n(.*?)\n```"
    (example,) = re.findall(pattern, text, flags=re.S)
    assert json.loads(example) == TERMPAIRS.to_pylist()[0]


def test_citations_cover_papers_and_sources(release: Path) -> None:
    wic = bibtex_block(release / "wic/biowic/README.md")
    assert wic.startswith(citations.PAPERS["rouhizadeh2024"])
    for title, note in (
        ("BioCreative V CDR", "Li et al. BioCreative V CDR task corpus"),
        ("NCBI Disease", "Doğan, Leaman and Lu"),
        ("Medical Subject Headings", None),
    ):
        assert title.lower() in wic.lower(), title
        assert note is None or note in wic, note
    # the three files of a corpus share one entry
    assert wic.count("Li et al. BioCreative V CDR task corpus") == 1
    hpo = bibtex_block(release / "termpairs/hpo/README.md")
    assert citations.PAPERS["schulz2020"] in hpo and "@misc{hpo," in hpo and "Gargano et al." in hpo
    rated = bibtex_block(release / "simlex/rated_example/README.md")
    for key in ("chiu2018", "hill2015", "gerz2016"):
        assert citations.PAPERS[key] in rated, key
    assert "@misc{example_ratingscsv," in rated
    entries = re.findall(r"^@(\w+)\{([^,]+),$", rated, flags=re.M)
    assert [k for _, k in entries] == ["chiu2018", "hill2015", "gerz2016", "example_ratingscsv"]


def test_croissant_labels_date_and_no_warnings(release: Path) -> None:
    doc = json.loads((release / "wic/biowic/croissant.json").read_text())
    assert doc["datePublished"].startswith(CONFIG["release"]["date_published"])
    labels = next(rs for rs in doc["recordSet"] if rs["@id"] == "label_names")
    assert labels["data"] == [
        {"label_names/index": 0, "label_names/name": "different_concept"},
        {"label_names/index": 1, "label_names/name": "same_concept"},
    ]
    train = next(rs for rs in doc["recordSet"] if rs["@id"] == "train")
    (label,) = [f for f in train["field"] if f["name"] == "label"]
    assert label["references"] == {"field": {"@id": "label_names/index"}}
    for path in sorted(release.glob("*/*/croissant.json")):
        assert validate_croissant(path, check_records=3) == [], path


def test_release_check_accepts_the_folders(release: Path) -> None:
    # The dataset folders only: the release manifest (RELEASE.md, SHA256SUMS) is not written here.
    assert [p for p in check_release(release) if not p.startswith("no SHA256SUMS in ")] == []


def test_datasets_loads_validation_and_class_labels_offline(
    release: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import datasets
    import huggingface_hub.constants

    monkeypatch.setattr(datasets.config, "HF_DATASETS_OFFLINE", True)  # read at import: patch the flags
    monkeypatch.setattr(datasets.config, "HF_HUB_OFFLINE", True)
    monkeypatch.setattr(huggingface_hub.constants, "HF_HUB_OFFLINE", True)
    ds = datasets.load_dataset(str(release / "wic/biowic"), cache_dir=str(tmp_path / "cache"))
    assert {name: d.num_rows for name, d in ds.items()} == {"train": 6, "validation": 2, "test": 4}
    assert ds["train"].features["label"].names == ["different_concept", "same_concept"]
    assert ds["validation"]["label"] == [0, 1]
    plain = datasets.load_dataset("parquet", data_dir=str(release / "wic/biowic/data"), cache_dir=str(tmp_path / "c2"))
    assert sorted(plain) == ["test", "train", "validation"]
    pairs = datasets.load_dataset(str(release / "termpairs/hpo"), "fsn_syn_easy_random", cache_dir=str(tmp_path / "c3"))
    assert pairs["test"].features["label"].int2str(1) == "similar"


def test_validity_checks_join_the_known_limitations(release: Path) -> None:
    text = (release / "wic" / "biowic" / "README.md").read_text(encoding="utf-8")
    limits = text.split("### Known limitations", 1)[1].split("### Licence", 1)[0]
    assert "11 checks, 9 flagged:" in limits
    assert "* `test`: `trivial_share` = 0.25; n=4" in limits and "0.5; " not in limits
    assert "* Solvable by string matching (a string baseline's AUC or accuracy >= 0.95, 6 values): `test`" in limits
    assert "`exact_match_auc` =" not in limits  # baselines are tabulated, not listed one by one
    assert "* `test` / `term_identity`: `majority_class_accuracy` = 0.8 (passes when <= 0.55)" in limits
    assert "* `train/dev`: `shared_sentences` = 3 (passes when == 0); A | pipe in one sentence." in limits
    assert "| dataset | exact match | Levenshtein ratio | char 3-gram Jaccard |" in limits
    assert "| test | 1 | 1 | 1 |" in limits  # cold / COLD vs fever / tussis: every baseline separates them
    hpo = (release / "termpairs" / "hpo" / "README.md").read_text(encoding="utf-8")
    assert "Validity checks of this build" not in hpo  # no validity files given
