"""The licence guard against bypass attempts: a licence set in config, empty restriction lists,
sources that state no licence (and, with the build and check, symlinks and hidden files)."""

from __future__ import annotations

import copy
import os
import re
import shutil
from pathlib import Path
from types import SimpleNamespace

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
import yaml
from conftest import REPO

from biosem.release.build import SymlinkError, build_dataset, write_release
from biosem.release.check import check, check_release
from biosem.release.checksums import write_sha256sums
from biosem.release.content import restricted_id_kind
from biosem.release.licence import (
    Attribution,
    RestrictedLicenceError,
    UnknownLicenceError,
    classify,
    hub_licence,
    restricted_notice,
)
from biosem.release.provenance import Provenance
from biosem.release.registry import Paper, ReleaseDataset, Source, terminology_sources
from biosem.workflow.release import ReleasePlan

PUBLIC = SimpleNamespace(visibility="public")
HPO = Source(
    "hpo",
    "public",
    "terminology hpo (OBO)",
    "CC0",
    "2025-01-16",
    "https://example.org/hp.obo",
    "ab" * 32,
    "obo",
    attribution=Attribution("Example Phenotype Ontology", "the Example Consortium"),
)
SNOMED = Source("snomed", "licensed", "terminology (RF2 release)", "SNOMED CT", format="rf2", release="MiniCT")
HPO_ROWS = {"term1": ["fever", "pyrexia"], "term2": ["pyrexia", "fever"], "concept_id1": ["HP:0001945"] * 2}
SNOMED_ROWS = {"term1": ["fever", "pyrexia"], "term2": ["pyrexia", "fever"], "concept_id1": ["386661006"] * 2}


def default_config() -> dict:
    return yaml.safe_load((REPO / "config" / "config.yaml").read_text())


def plan(config: dict, stages: tuple[str, ...] = ("termpairs",)) -> ReleasePlan:
    return ReleasePlan(config, list(stages), str(REPO), ["config/config.yaml"])


def public_ids(p: ReleasePlan) -> list[str]:
    return [d.id for d in p.members("public")]


def test_a_terminology_licence_never_replaces_its_source_licence() -> None:
    config = default_config()
    config["sources"]["sct_obo"] = {
        **config["sources"]["hpo"],
        "licence": "SNOMED CT Affiliate Licence",
        "attribution": {"title": "SNOMED CT as OBO", "creator": "SNOMED International"},
    }
    config["terminologies"]["sct"] = {"format": "obo", "source": "sct_obo", "licence": "CC0"}
    config["termpairs"]["terminologies"] = ["hpo", "sct"]
    (source,) = terminology_sources(config, "sct")
    assert (source.licence, source.extra_licences) == ("SNOMED CT Affiliate Licence", ("CC0",))
    p = plan(config)
    assert public_ids(p) == ["termpairs/hpo"]
    assert p.status["termpairs/sct"].reasons == ("sct_obo: licence SNOMED CT Affiliate Licence",)
    assert hub_licence(p.status["termpairs/sct"])["license_name"] == "snomed-ct-affiliate-licence"
    # A restricted terminology licence over an open file restricts too.
    config["terminologies"]["hpo"]["licence"] = "UMLS Metathesaurus License"
    assert public_ids(plan(config)) == []


def test_empty_restriction_lists_lift_nothing() -> None:
    config = default_config()
    config["release"]["restricted_formats"] = []
    config["release"]["restricted_licences"] = []
    config["terminologies"]["umls_sample"]["licence"] = "CC0"
    config["terminologies"]["snomed_sample"]["licence"] = "CC0"
    p = plan(config)
    assert not {"termpairs/umls_sample", "termpairs/snomed_sample"} & set(public_ids(p))
    assert p.status["termpairs/umls_sample"].reasons == ("umls_sample: format rrf",)
    assert p.status["termpairs/snomed_sample"].reasons == ("snomed_sample: format rf2",)
    # The lists add restrictions; a licence naming SNOMED or UMLS is restricted in any format.
    config["release"]["restricted_formats"] = ["obo"]
    assert all(d.id == "termpairs/mesh" for d in plan(config).members("public"))
    unrelated = Source("x", "public", "terminology", "Licensed from SNOMED International", format="obo")
    assert classify([unrelated]).reasons == (
        "x: licence Licensed from SNOMED International (not a licence biosem knows)",
    )


ATTACK_LICENCES = [
    "IHTSDO Affiliate Licence",
    "Unified Medical Language System Metathesaurus License Agreement",
    "NLM UTS licence (Metathesaurus)",
]


@pytest.mark.parametrize("text", ATTACK_LICENCES)
@pytest.mark.parametrize(
    "where", ["sources.sct_obo.licence", "terminologies.sct.licence", "corpora.specs.bc5cdr.licence"]
)
def test_a_licence_biosem_does_not_know_is_a_config_error_listing_the_known_ones(text: str, where: str) -> None:
    """Restricted licences spelt another way (an OBO conversion of SNOMED CT or UMLS content) are never
    classed open: the config stops, naming the key and every licence it may name."""
    config = default_config()
    config["sources"]["sct_obo"] = {**config["sources"]["hpo"], "licence": "CC0-1.0"}
    config["terminologies"]["sct"] = {"format": "obo", "source": "sct_obo"}
    config["termpairs"]["terminologies"] = ["hpo", "sct"]
    *keys, _ = where.split(".")
    target = config
    for key in keys:
        target = target[key]
    target["licence"] = text
    with pytest.raises(UnknownLicenceError) as err:
        plan(config)
    message = str(err.value)
    assert message.startswith(f"config {where}: {text!r} is not a licence biosem knows. Give the SPDX id or")
    for known in (
        "CC0-1.0 (CC0 1.0)",
        "CC-BY-4.0 (CC BY 4.0)",
        "snomed-ct-affiliate-licence (SNOMED CT Affiliate Licence, restricted)",
        "umls-metathesaurus-licence (UMLS Metathesaurus Licence, restricted)",
        "nlm-mesh-terms (NLM Terms and Conditions for MeSH)",
        "hpo-licence (HPO licence)",
    ):
        assert known in message
    # The library classes such a string restricted wherever it meets one (a croissant.json, a direct call).
    status = classify([Source("sct_obo", "public", "terminology", text, format="obo")])
    assert status.restricted and status.reasons == (f"sct_obo: licence {text} (not a licence biosem knows)",)


def test_restricted_licences_are_named_by_identity() -> None:
    config = default_config()
    config["release"]["restricted_licences"] = ["SNOMED"]  # once a substring, now no licence's name
    with pytest.raises(UnknownLicenceError, match=r"config release.restricted_licences\[0\]: 'SNOMED' is not"):
        plan(config)
    config["release"]["restricted_licences"] = ["HPO licence"]  # a known licence: its datasets go private
    assert "termpairs/hpo" not in public_ids(plan(config))
    for text in ("SNOMED CT", "snomed_ct_affiliate_licence", "SNOMED CT Affiliate License", "UMLS"):
        status = classify([Source("x", "public", "terminology", text, format="obo")])
        assert status.restricted and status.reasons == (f"x: licence {text}",) and len(status.restricted_by) == 1


def test_a_source_stating_no_licence_is_not_public_until_asserted(tmp_path) -> None:
    from biosem.release.build import render_release
    from biosem.release.card import licence_section
    from biosem.release.provenance import Provenance

    config = default_config()
    p = plan(config, ("agreement",))
    assert public_ids(p) == []
    (withheld,) = p.withheld("public")
    status = p.status[withheld.id]
    assert withheld.id == "simlex/rated_simverb3500"
    assert status.reasons == (
        "simverb3500_data: no licence stated (expected a licence in its config, or 'simverb3500_data' "
        "in release.assert_licences)",
    )
    assert status.unstated == ("simverb3500_data",)
    assert hub_licence(status) == {"license": "unknown"}
    assert "state no licence (simverb3500_data)" in restricted_notice(status)
    explicit = copy.deepcopy(config)
    explicit["release"]["datasets"] = ["simlex"]
    with pytest.raises(RestrictedLicenceError, match="simlex/rated_simverb3500: simverb3500_data: no licence"):
        plan(explicit, ("agreement",)).public_target(PUBLIC)
    # Asserting the licence releases it; the card and RELEASE.md say it is asserted, not open.
    config["release"]["assert_licences"] = ["simverb3500_data"]
    p = plan(config, ("agreement",))
    assert public_ids(p) == ["simlex/rated_simverb3500"]
    (dataset,) = p.members("public")
    status = p.status[dataset.id]
    assert not status.restricted and status.asserted == ("simverb3500_data",)
    assert "state no licence: the release's configuration asserts that it may be published" in licence_section(
        dataset, status
    )
    prov = Provenance("0.1.0", "public", "0.1.0", "unknown", "unknown", "snakemake", ())
    text = render_release([(dataset, status, {("default", "test"): 3})], [], prov, {}, "0" * 64)
    assert "licence asserted (unknown; simverb3500_data state none)" in text
    assert "| open (" not in text
    # An asserted licence never lifts SNOMED CT / UMLS, and a name of no source is an error.
    assert classify([Source("umls", "licensed", "t", None, format="rrf")], asserted=["umls"]).restricted
    config["release"]["assert_licences"] = ["simverb"]
    with pytest.raises(ValueError, match=r"assert_licences: simverb name no source .*one of: simverb3500_data"):
        plan(config, ("agreement",))


# --- the build: symlinks and hidden files ------------------------------------------------------------


def provenance(visibility: str) -> Provenance:
    return Provenance("1.2.3", visibility, "0.1.0", "unknown", "unknown", f"snakemake release_{visibility}", ())


def make_dataset(name: str, parquet: Path, source: Source) -> ReleaseDataset:
    return ReleaseDataset(
        family="termpairs",
        name=name,
        pretty_name=f"Term pairs {name}",
        summary="Pairs of terms.",
        motivation="Testing.",
        configs={"default": {"test": str(parquet)}},
        sources=(source,),
        parameters={"seed": 1},
        paper=Paper("Author 2020", "A. Author. 2020. A paper.", "@misc{a}", "https://example.org"),
    )


@pytest.fixture
def workdir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A workflow folder with the outputs of an open (HPO) and a SNOMED CT dataset, as the cwd."""
    monkeypatch.chdir(tmp_path)
    for name, rows in (("hpo", HPO_ROWS), ("snomed", SNOMED_ROWS)):
        Path(f"results/termpairs/{name}").mkdir(parents=True)
        pq.write_table(pa.table(rows), f"results/termpairs/{name}/test.parquet")
    return tmp_path


def release_files(root: Path) -> list[str]:
    return sorted(str(p.relative_to(root)) for p in root.rglob("*"))


def test_a_symlinked_input_is_refused_naming_it(workdir: Path) -> None:
    hpo = make_dataset("hpo", Path("results/termpairs/hpo/test.parquet"), HPO)
    out = Path("results/release/1.2.3/public/termpairs/hpo")
    os.remove("results/termpairs/hpo/test.parquet")
    os.symlink(workdir / "results/termpairs/snomed/test.parquet", "results/termpairs/hpo/test.parquet")
    with pytest.raises(SymlinkError) as err:
        build_dataset(hpo, out, hpo.licence_status(), provenance("public"), {})
    assert str(err.value).startswith(
        "termpairs/hpo: input results/termpairs/hpo/test.parquet: expected a regular file or folder, found a "
        f"symbolic link results/termpairs/hpo/test.parquet -> {workdir}/results/termpairs/snomed/test.parquet."
    )
    assert not out.exists()
    # A symlinked folder on the way is refused as well.
    os.remove("results/termpairs/hpo/test.parquet")
    os.rmdir("results/termpairs/hpo")
    os.symlink("snomed", "results/termpairs/hpo")
    with pytest.raises(SymlinkError, match="found a symbolic link results/termpairs/hpo -> snomed"):
        build_dataset(hpo, out, hpo.licence_status(), provenance("public"), {})
    assert not out.exists()


def test_the_release_removes_hidden_files_and_refuses_symlinks(workdir: Path) -> None:
    hpo = make_dataset("hpo", Path("results/termpairs/hpo/test.parquet"), HPO)
    root = Path("results/release/1.2.3/public")
    out = root / "termpairs/hpo"
    (out / ".snomed_data").mkdir(parents=True)
    (out / ".snomed_data/test.parquet").write_bytes(Path("results/termpairs/snomed/test.parquet").read_bytes())
    build_dataset(hpo, out, hpo.licence_status(), provenance("public"), {})
    (root / ".cache").mkdir()
    (root / ".cache/snomed.parquet").write_bytes(Path("results/termpairs/snomed/test.parquet").read_bytes())
    write_release(root, [(hpo, hpo.licence_status())], [], provenance("public"), {}, {"seed": 1})
    listed = sorted(line.split("  ", 1)[1] for line in (root / "SHA256SUMS").read_text().splitlines())
    assert [f for f in release_files(root) if (root / f).is_file()] == sorted([*listed, "SHA256SUMS"])
    assert not any("snomed" in f or f.startswith(".") or "/." in f for f in release_files(root))
    # A symlink in the release folder stops the manifest (nothing is hashed through a link).
    os.symlink(workdir / "results/termpairs/snomed", root / "termpairs/snomed")
    with pytest.raises(SymlinkError, match=r"release .*public: .*found a symbolic link .*public/termpairs/snomed ->"):
        write_release(root, [(hpo, hpo.licence_status())], [], provenance("public"), {}, {"seed": 1})


# --- python -m biosem.release.check against tampering -----------------------------------------------


def public_release(workdir: Path, parquet: str = "results/termpairs/hpo/test.parquet") -> tuple[Path, ReleaseDataset]:
    hpo = make_dataset("hpo", Path(parquet), HPO)
    root = Path("results/release/1.2.3/public")
    build_dataset(hpo, root / hpo.id, hpo.licence_status(), provenance("public"), {})
    write_release(root, [(hpo, hpo.licence_status())], [], provenance("public"), {}, {"seed": 1})
    return root, hpo


def test_check_reports_files_in_hidden_folders(workdir: Path) -> None:
    root, _ = public_release(workdir)
    assert check_release(root, records=1) == []
    snomed = Path("results/termpairs/snomed/test.parquet").read_bytes()
    (root / ".cache").mkdir()
    (root / ".cache/snomed.parquet").write_bytes(snomed)
    (root / "termpairs/hpo/.snomed_data").mkdir()
    (root / "termpairs/hpo/.snomed_data/test.parquet").write_bytes(snomed)
    problems = check_release(root, records=1)
    assert problems == [
        "SHA256SUMS: not listed: .cache/snomed.parquet",
        "SHA256SUMS: not listed: termpairs/hpo/.snomed_data/test.parquet",
        "termpairs/hpo/SHA256SUMS: not listed: .snomed_data/test.parquet",
        ".cache/snomed.parquet: column concept_id1: 2 value(s) look like SNOMED CT ids (e.g. 386661006); "
        "expected none in a public release",
        "termpairs/hpo/.snomed_data/test.parquet: column concept_id1: 2 value(s) look like SNOMED CT ids "
        "(e.g. 386661006); expected none in a public release",
    ]
    (root / "termpairs/hpo/link.parquet").symlink_to(workdir / "results/termpairs/snomed/test.parquet")
    assert any(p.startswith("symbolic link: termpairs/hpo/link.parquet -> ") for p in check_release(root, records=1))


def test_check_decides_restricted_from_provenance_not_from_the_banner(workdir: Path) -> None:
    root, _ = public_release(workdir)
    snomed = make_dataset("snomed", Path("results/termpairs/snomed/test.parquet"), SNOMED)
    folder = root / snomed.id
    build_dataset(snomed, folder, snomed.licence_status(), provenance("private"), {})
    card = (folder / "README.md").read_text()
    assert "**Restricted licence — private release only.**" in card
    # Tampering: banner and notice lines gone, licence metadata made open, every SHA256SUMS regenerated.
    card = "\n".join(line for line in card.splitlines() if not line.startswith(">"))
    card = card.replace("license: other\n", "license: cc0-1.0\n", 1)
    card = re.sub(r"license_name: .*\nlicense_link: .*\n", "", card, count=1)
    (folder / "README.md").write_text(card + "\n")
    write_sha256sums(folder)
    write_sha256sums(root)
    problems = check_release(root, records=1)
    assert problems == [
        "termpairs/snomed: restricted dataset in a public release (from the sources croissant.json records: "
        "snomed: format rf2, licence SNOMED CT)",
        "termpairs/snomed/README.md: licence metadata {'license': 'cc0-1.0', 'license_name': None, 'license_link': "
        "None} does not match its sources' provenance (expected {'license': 'other', 'license_name': "
        "'snomed-ct-affiliate-licence', 'license_link': 'https://www.snomed.org/get-snomed'})",
        "termpairs/snomed: built by the private release (croissant.json, prov:wasGeneratedBy) but found in a public "
        "release (its RELEASE.md says so); rebuild it with release_public",
        "termpairs/snomed/data/test-00000-of-00001.parquet: column concept_id1: 2 value(s) look like SNOMED CT ids "
        "(e.g. 386661006); expected none in a public release",
    ]


def test_check_scans_public_content_for_restricted_ids(workdir: Path) -> None:
    # Provenance that lies (an "HPO" dataset whose rows carry UMLS CUIs) is caught by the content.
    pq.write_table(pa.table({**HPO_ROWS, "concept_id1": ["C0015967", "HP:0001945"]}), "cuis.parquet")
    root, _ = public_release(workdir, "cuis.parquet")
    (root / "extra.tsv").write_text("a_id\tb_ids\tconcept_id2\n86044005\tx\tMESH:D014262\n")
    problems = [p for p in check_release(root, records=1) if "look like" in p]
    assert problems == [
        "extra.tsv: column a_id: 1 value(s) look like SNOMED CT ids (e.g. 86044005); expected none in a public release",
        "termpairs/hpo/data/test-00000-of-00001.parquet: column concept_id1: 1 value(s) look like UMLS CUIs "
        "(e.g. C0015967); expected none in a public release",
    ]


@pytest.mark.parametrize(
    ("value", "kind"),
    [
        ("C0015967", "UMLS CUI"),
        ("386661006", "SNOMED CT id"),
        ("900000000000509007", "SNOMED CT id"),  # long format (partition 10)
        ("C000002", None),  # MeSH supplementary record UI: C + 6 digits
        ("C000596789", None),  # ... or C + 9 digits
        ("M0000001", None),
        ("D014262", None),
        ("HP:0001945", None),
        ("MESH:D014262", None),
        ("7157", None),  # an NCBI Gene id (namespaced in the corpora anyway)
        ("386661007", None),  # wrong check digit
        ("1234567", None),
    ],
)
def test_restricted_id_patterns(value: str, kind: str | None) -> None:
    assert restricted_id_kind(value) == kind


# --- what check-release checks: read from the release, never from a folder name -------------------------


def private_release(workdir: Path) -> Path:
    """A private release with the HPO and the SNOMED CT datasets, as release_private builds it."""
    root = Path("results/release/1.2.3/private")
    members = [
        make_dataset(n, Path(f"results/termpairs/{n}/test.parquet"), s) for n, s in (("hpo", HPO), ("snomed", SNOMED))
    ]
    for dataset in members:
        build_dataset(dataset, root / dataset.id, dataset.licence_status(), provenance("private"), {})
    write_release(root, [(d, d.licence_status()) for d in members], [], provenance("private"), {}, {"seed": 1})
    return root


@pytest.mark.parametrize("name", ["hf-upload", "public-0.1.0", "private"])
def test_a_restricted_dataset_fails_a_public_release_under_any_folder_name(workdir: Path, name: str) -> None:
    root, _ = public_release(workdir)
    private = private_release(workdir)
    shutil.copytree(private / "termpairs/snomed", root / "termpairs/snomed")
    write_sha256sums(root)
    renamed = root.rename(root.parent / name) if name != "private" else root.rename(root.parent / "renamed")
    if name == "private":  # the private release moved aside, the public one given its name
        shutil.rmtree(private)
        renamed = renamed.rename(root.parent / "private")
    problems, verdicts = check(renamed, records=1)
    assert verdicts == ["public release (its RELEASE.md says so): 2 dataset(s)"]
    assert problems[:2] == [
        "termpairs/snomed: restricted dataset in a public release (from the sources croissant.json records: "
        "snomed: format rf2, licence SNOMED CT)",
        "termpairs/snomed: built by the private release (croissant.json, prov:wasGeneratedBy) but found in a public "
        "release (its RELEASE.md says so); rebuild it with release_public",
    ]
    assert (
        "termpairs/snomed/data/test-00000-of-00001.parquet: column concept_id1: 2 value(s) look like SNOMED CT ids"
        in (problems[2])
    )


def test_a_private_release_passes_whatever_its_folder_is_called(workdir: Path) -> None:
    private = private_release(workdir)
    renamed = private.rename(private.parent / "public")
    problems, verdicts = check(renamed, records=1)
    assert problems == []
    assert verdicts == [
        "private release (its RELEASE.md says so): 2 dataset(s), restricted: termpairs/snomed: share it only with "
        "licensees"
    ]


def test_a_release_root_and_a_single_dataset_folder_can_be_checked(workdir: Path) -> None:
    public, _ = public_release(workdir)
    private_release(workdir)
    root = public.parent
    problems, verdicts = check(root, records=1)
    assert problems == []
    assert verdicts == [
        "private/private release (its RELEASE.md says so): 2 dataset(s), restricted: termpairs/snomed: share it only "
        "with licensees",
        "public/public release (its RELEASE.md says so): 1 dataset(s)",
    ]
    (root / "notes.txt").write_text("x")
    (root / "scratch").mkdir()
    assert check_release(root, records=1) == [
        "scratch: neither a release folder nor a dataset folder (expected none in a release root)",
        "notes.txt: file outside the releases (expected none in a release root)",
    ]
    # A dataset folder alone (what is uploaded to the Hub): public unless its croissant.json records the private
    # release; a restricted one copied out of the private release says so, a tampered open one fails.
    assert check(public / "termpairs/hpo", records=1) == (
        [],
        ["public release (its croissant.json records the public release): one dataset"],
    )
    assert check(root / "private/termpairs/snomed", records=1) == (
        [],
        [
            "private release (its croissant.json records the private release): one dataset, restricted: this dataset: "
            "share it only with licensees"
        ],
    )
    hpo = public / "termpairs/hpo"
    os.remove(hpo / "data/test-00000-of-00001.parquet")
    os.link("results/termpairs/snomed/test.parquet", hpo / "data/test-00000-of-00001.parquet")
    write_sha256sums(hpo)
    assert [p for p in check_release(hpo, records=1) if "look like" in p] == [
        "data/test-00000-of-00001.parquet: column concept_id1: 2 value(s) look like SNOMED CT ids (e.g. 386661006); "
        "expected none in a public release"
    ]


def test_an_empty_folder_in_a_release_is_a_problem(workdir: Path) -> None:
    root, _ = public_release(workdir)
    (root / "termpairs/hpo/extra/empty").mkdir(parents=True)
    assert check_release(root, records=1) == [
        "empty folder: termpairs/hpo/extra (expected none: a release holds the files its SHA256SUMS lists)",
    ]
