"""The ontologies CRAFT ships (UBERON, SO, MOP): an OBO file in a zip inside a tar, read in memory and
pinned by the member's sha256 (biosem.sources), the slips of those files the OBO reader gets past
(biosem.terminology.obo), and the real files' counts, asserted exactly."""

from __future__ import annotations

import hashlib
import io
import logging
import tarfile
import zipfile
from collections import Counter
from pathlib import Path

import pytest
import yaml
from conftest import REPO, SHARED_DATA

from biosem.errors import SourceFormatError, SourceNotFoundError
from biosem.sources import content_sha256, extract_source, fetch_source, read_member
from biosem.terminology.obo import ALT_ID_CODE_SYSTEM, read_obo, resolve_relationship_names

# The slips of CRAFT's files, each on a clause biosem reads past: a relationship type written with a
# Typedef's name (MOP), a URL xref with an OBO escape (UBERON, SO), a synonym xref list with spaces in
# an id (UBERON); and an imported class of another ontology (MOP's CHEBI classes).
CRAFT_LIKE = """\
format-version: 1.2
data-version: releases/2014-09-03
synonymtypedef: ABBREVIATION "abbreviation"
ontology: mop

[Term]
id: CHEBI:51870
name: boryl group

[Term]
id: MOP:0000000
name: borylation
alt_id: MOP:0000900
synonym: "boronation" EXACT [TAO:Bird and Mabee 2003]
synonym: "BOR" EXACT ABBREVIATION []
xref: http://en.wikipedia.org/wiki/File\\:Gray793.png
xref: Wikipedia:Borylation
relationship: has_participant CHEBI:51870 ! boryl group
relationship: BFO:0000057 CHEBI:51870

[Term]
id: MOP:0000001
name: methanidylation
is_a: MOP:0000000

[Typedef]
id: BFO:0000057
name: has_participant
"""

TAR_MEMBER = "CRAFT-5.0.2/concept-annotation/MOP/MOP/MOP.obo.zip"


def _zip(name: str, data: bytes) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr(zipfile.ZipInfo(name, date_time=(2018, 5, 10, 21, 6, 26)), data)
    return buffer.getvalue()


def _tar_gz(path: Path, members: dict[str, bytes]) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    with tarfile.open(path, "w:gz") as tf:
        for name, data in members.items():
            info = tarfile.TarInfo(name)
            info.size = len(data)
            tf.addfile(info, io.BytesIO(data))
    return path


@pytest.fixture
def craft_mirror(tmp_path: Path) -> Path:
    """A mirror folder with a CRAFT-like tarball: a README and the zipped OBO file."""
    _tar_gz(
        tmp_path / "mirror" / "craft" / "CRAFT-5.0.2.tar.gz",
        {"CRAFT-5.0.2/README.md": b"# CRAFT\n", TAR_MEMBER: _zip("MOP.obo", CRAFT_LIKE.encode())},
    )
    return tmp_path / "mirror"


def _spec(sha256: str) -> dict[str, str]:
    return {
        "filename": "MOP.obo",
        "mirror_path": "craft/CRAFT-5.0.2.tar.gz",
        "mirror_member": TAR_MEMBER,
        "member": "MOP.obo",
        "sha256": sha256,
    }


SHA = hashlib.sha256(CRAFT_LIKE.encode()).hexdigest()


def test_obo_from_a_zip_inside_a_tar_is_read_in_memory(craft_mirror: Path):
    tarball = craft_mirror / "craft" / "CRAFT-5.0.2.tar.gz"
    zipped = read_member(tarball, TAR_MEMBER)

    assert zipfile.is_zipfile(io.BytesIO(zipped))
    assert read_member(zipped, "MOP.obo") == CRAFT_LIKE.encode()
    assert extract_source(tarball, _spec(SHA), mirror=True) == CRAFT_LIKE.encode()
    # Without mirror_member (a download of the zip itself) only `member` is read.
    assert extract_source(tarball, {"member": TAR_MEMBER}, mirror=False) == zipped
    assert extract_source(tarball, {}, mirror=True) is None


def test_fetch_writes_the_member_checked_against_its_sha256(craft_mirror: Path, tmp_path: Path):
    dest = tmp_path / "resources" / "mop" / "MOP.obo"

    origin = fetch_source("mop", _spec(SHA), [craft_mirror], dest)

    assert dest.read_bytes() == CRAFT_LIKE.encode()
    assert content_sha256(dest) == SHA
    assert origin == (
        f"mop: copied from mirror {craft_mirror / 'craft' / 'CRAFT-5.0.2.tar.gz'}!{TAR_MEMBER}!MOP.obo "
        f"(sha256 {SHA} verified)"
    )
    assert sorted(p.name for p in dest.parent.iterdir()) == ["MOP.obo"]
    tables = read_obo(dest, "mop", id_prefixes=["MOP"])
    assert tables["concepts"].column("concept_id").to_pylist() == ["MOP:0000000", "MOP:0000001"]


def test_a_member_with_other_content_is_refused(craft_mirror: Path, tmp_path: Path):
    tarball_sha = content_sha256(craft_mirror / "craft" / "CRAFT-5.0.2.tar.gz")
    dest = tmp_path / "resources" / "mop" / "MOP.obo"

    with pytest.raises(SourceNotFoundError) as err:
        fetch_source("mop", _spec(tarball_sha), [craft_mirror], dest)  # the tarball's digest is not the member's

    assert f"sha256 {SHA} != pinned {tarball_sha}" in str(err.value)
    assert not dest.exists()


def test_a_missing_member_is_named(craft_mirror: Path, tmp_path: Path):
    spec = _spec(SHA) | {"mirror_member": "CRAFT-5.0.2/MOP/MOP.obo.zip"}

    with pytest.raises(SourceNotFoundError) as err:
        fetch_source("mop", spec, [craft_mirror], tmp_path / "out" / "MOP.obo")

    assert "tar member 'CRAFT-5.0.2/MOP/MOP.obo.zip'" in str(err.value)
    assert f"same name at: {TAR_MEMBER}" in str(err.value)
    with pytest.raises(SourceFormatError, match="zip member 'mop.obo'"):
        read_member(_zip("MOP.obo", b"x"), "mop.obo")
    with pytest.raises(SourceFormatError, match="a zip or tar archive holding MOP.obo"):
        read_member(b"format-version: 1.2\n", "MOP.obo")


def test_download_of_the_zip_reads_member(tmp_path: Path):
    served = tmp_path / "server" / "MOP.obo.zip"
    served.parent.mkdir()
    served.write_bytes(_zip("MOP.obo", CRAFT_LIKE.encode()))
    spec = _spec(SHA) | {"url": served.as_uri()}
    dest = tmp_path / "resources" / "mop" / "MOP.obo"

    origin = fetch_source("mop", spec, [tmp_path / "no-mirror"], dest)

    assert origin.startswith("mop: downloaded from file://")
    assert dest.read_bytes() == CRAFT_LIKE.encode()


def test_craft_slips_and_id_prefixes(tmp_path: Path, caplog):
    path = tmp_path / "MOP.obo"
    path.write_text(CRAFT_LIKE, encoding="utf-8")

    with caplog.at_level(logging.INFO, logger="biosem.terminology.obo"):
        tables = {name: table.to_pylist() for name, table in read_obo(path, "mop", id_prefixes=["MOP"]).items()}
        everything = read_obo(path, "mop")

    assert [row["concept_id"] for row in tables["concepts"]] == ["MOP:0000000", "MOP:0000001"]
    assert everything["concepts"].num_rows == 3  # without id_prefixes the CHEBI class is a concept
    # Both relationship lines name BFO:0000057 (one by the Typedef's name): one relation.
    assert [(r["subject_id"], r["rel"], r["rela"], r["object_id"]) for r in tables["relations"]] == [
        ("MOP:0000000", "BFO:0000057", "has_participant", "CHEBI:51870"),
        ("MOP:0000001", "is_a", "is_a", "MOP:0000000"),
    ]
    assert [(r["term"], r["scope"], r["tty"]) for r in tables["terms"]] == [
        ("borylation", None, None),
        ("BOR", "EXACT", "ABBREVIATION"),
        ("boronation", "EXACT", None),  # its malformed xref list emptied, the synonym kept
        ("methanidylation", None, None),
    ]
    assert [(r["code_system"], r["code"]) for r in tables["mappings"]] == [
        ("Wikipedia", "Borylation"),
        (ALT_ID_CODE_SYSTEM, "MOP:0000900"),
    ]
    assert "1 relationship(s) of type 'has_participant' (not a Typedef id) read as [Typedef] BFO:0000057" in caplog.text
    assert "MOP.obo:14: malformed synonym xref list emptied" in caplog.text
    assert "MOP.obo:16: malformed xref skipped" in caplog.text
    assert "terms outside id_prefixes (dropped): CHEBI: 1" in caplog.text
    assert "alt_ids: 1" in caplog.text


def test_underscores_as_spaces(tmp_path: Path, caplog):
    path = tmp_path / "so.obo"
    path.write_text(
        '[Term]\nid: SO:0000204\nname: five_prime_UTR\nsynonym: "five prime UTR" EXACT []\n'
        'synonym: "5\'_UTR" EXACT []\n\n[Term]\nid: SO:0000001\nname: region\n',
        encoding="utf-8",
    )

    with caplog.at_level(logging.INFO, logger="biosem.terminology.obo"):
        spaced = read_obo(path, "so", underscores_as_spaces=True)["terms"].column("term").to_pylist()

    assert read_obo(path, "so")["terms"].column("term").to_pylist() == [
        "region",
        "five_prime_UTR",
        "5'_UTR",
        "five prime UTR",
    ]
    assert spaced == ["region", "five prime UTR", "5' UTR", "five prime UTR"]
    assert "underscores written as spaces in 2 terms" in caplog.text


# SO 2015-11-24's synonym types as it writes them: VAR, the labels of variant-annotation tools (one
# RELATED), BS (biosapiens), and a synonym without a type.
SO_SYNONYM_TYPES = """\
format-version: 1.2
synonymtypedef: BS "biosapiens"
synonymtypedef: VAR "variant annotation term"

[Term]
id: SO:0001587
name: stop_gained
synonym: "ANNOVAR:stopgain" EXACT VAR []
synonym: "nonsense" BROAD []
synonym: "snpEff:STOP_GAINED" EXACT VAR []
synonym: "stop gained" EXACT []

[Term]
id: SO:0000316
name: CDS
synonym: "coding sequence" EXACT BS []
synonym: "Jannovar:coding_sequence_variant" RELATED VAR []
"""


def test_exclude_synonym_types(tmp_path: Path, caplog):
    path = tmp_path / "so.obo"
    path.write_text(SO_SYNONYM_TYPES, encoding="utf-8")
    columns = ["term_id", "term", "scope", "tty"]

    every = read_obo(path, "so")["terms"].select(columns)
    with caplog.at_level(logging.INFO, logger="biosem.terminology.obo"):
        kept = read_obo(path, "so", exclude_synonym_types=["VAR", "dbsnp"])["terms"].select(columns)

    assert every.to_pylist() == [
        {"term_id": "SO:0000316#name", "term": "CDS", "scope": None, "tty": None},
        {"term_id": "SO:0000316#syn0", "term": "coding sequence", "scope": "EXACT", "tty": "BS"},
        {"term_id": "SO:0000316#syn1", "term": "Jannovar:coding_sequence_variant", "scope": "RELATED", "tty": "VAR"},
        {"term_id": "SO:0001587#name", "term": "stop_gained", "scope": None, "tty": None},
        {"term_id": "SO:0001587#syn0", "term": "nonsense", "scope": "BROAD", "tty": None},
        {"term_id": "SO:0001587#syn1", "term": "ANNOVAR:stopgain", "scope": "EXACT", "tty": "VAR"},
        {"term_id": "SO:0001587#syn2", "term": "snpEff:STOP_GAINED", "scope": "EXACT", "tty": "VAR"},
        {"term_id": "SO:0001587#syn3", "term": "stop gained", "scope": "EXACT", "tty": None},
    ]
    # Exactly the VAR rows are gone; the BS synonym, the untyped ones and the names stay, ids unchanged.
    assert kept.to_pylist() == [row for row in every.to_pylist() if row["tty"] != "VAR"]
    assert "so.obo (so): synonyms of excluded types left out: VAR: 3, dbsnp: 0" in caplog.text
    assert "no synonym has the excluded synonym type 'dbsnp'" in caplog.text
    assert read_obo(path, "so", exclude_synonym_types=None)["terms"].select(columns).equals(every)


def test_relationship_names_are_resolved_only_when_unique():
    text = (
        "[Term]\nid: A:1\nrelationship: has_participant B:1\nrelationship: part_of B:1\nrelationship: twin B:1\n\n"
        "[Typedef]\nid: BFO:0000057\nname: has_participant\n\n[Typedef]\nid: part_of\nname: part of\n\n"
        "[Typedef]\nid: R:1\nname: twin\n\n[Typedef]\nid: R:2\nname: twin\n"
    )

    resolved, renamed = resolve_relationship_names(text)

    assert renamed == {"has_participant": ("BFO:0000057", 1)}
    assert "relationship: BFO:0000057 B:1\nrelationship: part_of B:1\nrelationship: twin B:1\n" in resolved
    assert resolved.count("\n") == text.count("\n")


# --- the real files -------------------------------------------------------------------------------

CONFIG = yaml.safe_load((REPO / "config" / "config.yaml").read_text())
CRAFT_TARBALL = SHARED_DATA / "craft" / "CRAFT-5.0.2.tar.gz"

EXPECTED = {
    # concepts (active), terms (EXACT synonyms), relations by rel, associations by kind, alt_ids
    "uberon": {
        "concepts": 14_074,
        "active": 13_080,
        "terms": 51_708,
        "exact": 24_781,
        "relations": {
            "is_a": 20_372,
            "part_of": 10_631,
            "develops_from": 1_413,
            "immediate_transformation_of": 68,
            "transformation_of": 41,
        },
        "associations": {"replaced_by": 116, "possibly_equivalent_to": 62},
        "alt_ids": 338,
        "abbreviations": 613,
        "underscores": 4,  # synonyms such as "hind_digit" (no underscores_as_spaces)
        "tool_labels": 0,
    },
    "so": {
        "concepts": 2_383,
        "active": 2_179,
        "terms": 6_005,  # 6,224 with the 219 VAR synonyms (183 EXACT): exclude_synonym_types
        "exact": 3_164,
        "relations": {
            "is_a": 2_270,
            "part_of": 174,
            "has_quality": 164,
            "has_part": 150,
            "derives_from": 46,
            "has_origin": 29,
            "transcribed_to": 7,
            "adjacent_to": 6,
            "non_functional_homolog_of": 4,
            "contains": 3,
            "member_of": 3,
            "variant_of": 3,
            "guided_by": 1,
            "overlaps": 1,
            "transcribed_from": 1,
        },
        "associations": {"replaced_by": 56, "possibly_equivalent_to": 12},
        "alt_ids": 130,
        "abbreviations": 0,
        "underscores": 0,  # 2,111 names and 342 synonyms had them: underscores_as_spaces
        # 218 of the VAR synonyms; two tool labels carry no type: "ANNOVAR:frameshift substitution" RELATED
        # (SO:0001589) and "ANNOVAR:ncRNA_splicing" NARROW (SO:0002088)
        "tool_labels": 2,
    },
    "mop": {
        "concepts": 3_577,
        "active": 3_577,
        "terms": 4_222,
        "exact": 644,
        "relations": {
            "is_a": 3_598,
            "BFO:0000117": 42,
            "BFO:0000119": 28,
            "BFO:0000077": 24,
            "BFO:0000057": 20,  # 16 by id + 4 written "has_participant"
            "BFO:0000055": 4,
            "BFO:0000078": 3,
            "BFO:0000133": 2,
            "BFO:0000132": 1,
            "MOP:0000769": 1,
        },
        "associations": {},
        "alt_ids": 45,
        "abbreviations": 0,
        "underscores": 0,
        "tool_labels": 0,
    },
}

TOOL_LABEL = r"^(?:ANNOVAR|Jannovar|Seattleseq|VAAST|VAT|VEP|snpEff):"
"""A synonym of SO's type VAR as the variant-annotation tools print it ("ANNOVAR:stopgain")."""


@pytest.mark.skipif(not CRAFT_TARBALL.is_file(), reason="the mirror's CRAFT tarball is absent")
@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_craft_ontologies_as_configured(name: str, tmp_path: Path):
    source = CONFIG["sources"][CONFIG["terminologies"][name]["source"]]
    data = extract_source(SHARED_DATA / source["mirror_path"], source, mirror=True)
    assert data is not None and hashlib.sha256(data).hexdigest() == source["sha256"]
    path = tmp_path / source["filename"]
    path.write_bytes(data)

    spec = CONFIG["terminologies"][name]
    read = read_obo(
        path,
        name,
        id_prefixes=spec["id_prefixes"],
        underscores_as_spaces=spec["underscores_as_spaces"],
        exclude_synonym_types=spec["exclude_synonym_types"],
    )
    tables = {k: t.to_pandas() for k, t in read.items()}

    want = EXPECTED[name]
    concepts, terms, mappings = tables["concepts"], tables["terms"], tables["mappings"]
    assert (len(concepts), int(concepts["active"].sum())) == (want["concepts"], want["active"])
    assert concepts["concept_id"].str.startswith(name.upper() + ":").all()
    assert len(terms) == want["terms"]
    assert int((terms["scope"] == "EXACT").sum()) == want["exact"]
    assert int((terms["tty"] == "ABBREVIATION").sum()) == want["abbreviations"]
    assert dict(Counter(tables["relations"]["rel"])) == want["relations"]
    assert dict(Counter(tables["associations"]["kind"])) == want["associations"]
    assert int((mappings["code_system"] == ALT_ID_CODE_SYSTEM).sum()) == want["alt_ids"]
    assert int(terms["term"].str.contains("_").sum()) == want["underscores"]
    assert int(terms["term"].str.contains(TOOL_LABEL, case=False).sum()) == want["tool_labels"]
    assert int((terms["tty"] == "VAR").sum()) == 0
