"""Fault injection: one bad input at a time, on the smallest target that reads it (issue 24).

Each case copies the workflow into a temporary folder, injects ONE fault (a corrupted copy of a source
in a mirror folder listed first in ``mirror_dirs``, a bad config overlay, a tiny licensed-format folder
given by ``terminologies.<name>.path``, a held lock) and runs snakemake on one target, or the BioWiC
validator on one folder. Every case asserts that the run fails, that its message (stderr and the
rule's log) names the file and, where there is one, the line, and that no output of the failing rule
(the target and its siblings, nor an atomic write's temporary file) is left behind.

A corrupted public source gets its own ``sha256`` in the overlay, so that the mirror copy verifies and
the rule that parses it is the one that fails.
"""

from __future__ import annotations

import gzip
import hashlib
import inspect
import json
import os
import shutil
import signal
import subprocess
import sys
import time
import zipfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd
import pytest
import yaml
from conftest import CONFIG_FILES, REPO, SHARED_DATA, copy_workflow, run_workflow
from craft_fixture import GO_BP, knowtator_xml, write_craft
from craft_fixture import MODULES as CRAFT_MODULES

from biosem.corpora.schemas import TABLES as CORPUS_TABLES
from biosem.layout import paths
from biosem.layout.outputs import (
    corpus_counts,
    corpus_module_counts,
    rated_dataset,
    rated_dataset_text,
    rater_agreement,
    rating_agreement,
    simlex_survey_items,
    termpair_components,
    termpair_dataset,
    termpair_positives,
    termpair_study_key,
    termpair_study_scores,
    termpair_study_sheet,
    termpair_study_votes,
    termpair_validity,
)
from biosem.terminology.schemas import TERMINOLOGY_TABLES

CONFIG = yaml.safe_load((REPO / "config" / "config.yaml").read_text())
SOURCES = CONFIG["sources"]
OVERLAY = "config/fault.yaml"
FAULT_MIRROR = "fault-mirror"
"""Folder (in the workflow copy) of the corrupted mirror copies; listed first in ``mirror_dirs``."""
RF2_SAMPLE = REPO / CONFIG["terminologies"]["snomed_sample"]["path"]
RRF_SAMPLE = REPO / CONFIG["terminologies"]["umls_sample"]["path"]


@dataclass
class Case:
    """What one fault runs and what its failure must say.

    ``command``: the snakemake targets, or a whole command when ``raw``. ``named``: what the message
    must contain (the file, ``file:line``, the config key); a tuple is a choice of spellings (``file:3``
    or ``line 3``). ``outputs``: the failing rule's outputs, none of which may exist afterwards.
    ``log``: its log file. ``overlay``: the config written to :data:`OVERLAY`, read after the tests'.
    ``exit_code``: the exit status the run must end with (``None``: any failure). ``gone``: folders that
    must not exist afterwards (a release folder the gate removed).
    ``max_lines``: the most lines the run may print (a config error is a short message, not the schema).
    """

    command: list[str]
    named: list[str | tuple[str, ...]]
    outputs: list[str] = field(default_factory=list)
    log: str | None = None
    overlay: dict = field(default_factory=dict)
    raw: bool = False
    exit_code: int | None = None
    gone: list[str] = field(default_factory=list)
    max_lines: int | None = None


# --------------------------------------------------------------------------------------------------
# Injection helpers
# --------------------------------------------------------------------------------------------------


def content_sha256(data: bytes) -> str:
    return hashlib.sha256(gzip.decompress(data) if data[:2] == b"\x1f\x8b" else data).hexdigest()


def mirror_source(work: Path, name: str, data: bytes) -> dict:
    """Place ``data`` as the mirror copy of source ``name`` in the fault mirror; return the overlay that
    lists that mirror first and pins the copy's checksum."""
    target = work / FAULT_MIRROR / SOURCES[name]["mirror_path"]
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_bytes(data)
    return {
        "mirror_dirs": [str(work / FAULT_MIRROR), str(SHARED_DATA)],
        "sources": {name: {"sha256": content_sha256(data)}},
    }


def source_text(name: str) -> str:
    data = (SHARED_DATA / SOURCES[name]["mirror_path"]).read_bytes()
    return (gzip.decompress(data) if data[:2] == b"\x1f\x8b" else data).decode("utf-8")


def fetched(name: str) -> str:
    """Where the workflow puts source ``name`` (the file the ingest rule reads and its errors name)."""
    return paths.source(name, SOURCES[name]["filename"])


def line_of(text: str, needle: str, after: int = 0) -> int:
    """1-based number of the first line of ``text`` after line ``after`` that contains ``needle``."""
    return next(i for i, line in enumerate(text.split("\n"), start=1) if i > after and needle in line)


def replace_line(text: str, number: int, new: str) -> str:
    lines = text.split("\n")
    lines[number - 1] = new
    return "\n".join(lines)


def terminology_outputs(name: str) -> list[str]:
    return [paths.intermediate(table, name) for table in TERMINOLOGY_TABLES]


def terms_target(name: str) -> list[str]:
    return [paths.intermediate("terms", name)]


def licensed_copy(work: Path, terminology: str, sample: Path) -> tuple[Path, dict]:
    """A copy of a licensed sample release folder in the workflow copy, and the overlay pointing to it."""
    folder = work / "fault-release" / terminology
    shutil.copytree(sample, folder)
    for path in folder.rglob("*"):
        path.chmod(0o755 if path.is_dir() else 0o644)
    return folder, {"terminologies": {terminology: {"path": str(folder)}}}


def rf2_file(folder: Path, stem: str) -> Path:
    """The Full release file of RF2 type ``stem`` (``sct2_Description_Full``) in a copied sample."""
    return next(folder.rglob(f"{stem}*.txt"))


def edit_lines(path: Path, edit: Callable[[list[bytes]], list[bytes]]) -> None:
    path.write_bytes(b"\n".join(edit(path.read_bytes().split(b"\n"))))


# --------------------------------------------------------------------------------------------------
# Faults. Each takes the workflow copy and returns its Case; it writes whatever it injects.
# --------------------------------------------------------------------------------------------------

# --- OBO (generic GO slim, a plain 250 kB file) -----------------------------------------------------


def obo_case(work: Path, text: bytes, line: int | None) -> Case:
    overlay = mirror_source(work, "go_slim", text)
    where = fetched("go_slim")
    return Case(
        terms_target("go_slim"),
        [where if line is None else f"{where}:{line}"],
        terminology_outputs("go_slim"),
        paths.log("ingest_obo", "go_slim"),
        overlay,
    )


def obo_malformed_stanza(work: Path) -> Case:
    text = source_text("go_slim")
    number = line_of(text, "name: reproduction")
    return obo_case(work, replace_line(text, number, "name reproduction").encode(), number)


def obo_bad_utf8(work: Path) -> Case:
    text = source_text("go_slim")
    number = line_of(text, "name: reproduction")
    data = replace_line(text, number, "name: reproduction\udcff").encode("utf-8", "surrogateescape")
    return obo_case(work, data, number)


def obo_undeclared_is_a(work: Path) -> Case:
    text = source_text("go_slim")
    number = line_of(text, "name: reproduction") + 1
    lines = text.split("\n")
    lines.insert(number - 1, "is_a: GO:9999999 ! not declared")
    return obo_case(work, "\n".join(lines).encode(), number)


def obo_not_obo(work: Path) -> Case:
    return obo_case(work, b"<html><body>404 Not Found</body></html>\n", 1)


# --- mirror copies and their checksums (USF norms: a gzipped tar with no URL to fall back on) ------


def usf_case(work: Path, data: bytes | None, named: list[str]) -> Case:
    """Fetch ``usf`` from the fault mirror holding ``data`` (absent if None), then an empty mirror."""
    mirror = work / FAULT_MIRROR
    empty = work / "empty-mirror"
    empty.mkdir()
    mirror.mkdir(exist_ok=True)
    copy = mirror / SOURCES["usf"]["mirror_path"]
    if data is not None:
        copy.parent.mkdir(parents=True, exist_ok=True)
        copy.write_bytes(data)
    overlay: dict = {"mirror_dirs": [str(mirror), str(empty)]}
    return Case(
        [fetched("usf")],
        [str(copy), str(empty / SOURCES["usf"]["mirror_path"]), *named],
        [fetched("usf"), paths.source_checksum("usf", SOURCES["usf"]["filename"])],
        paths.log("fetch_source", f"usf/{SOURCES['usf']['filename']}"),
        overlay,
    )


def mirror_truncated_gz(work: Path) -> Case:
    data = (SHARED_DATA / SOURCES["usf"]["mirror_path"]).read_bytes()
    return usf_case(work, data[: len(data) // 2], ["a complete gzip stream"])


def mirror_content_edited(work: Path) -> Case:
    raw = bytearray(gzip.decompress((SHARED_DATA / SOURCES["usf"]["mirror_path"]).read_bytes()))
    raw[len(raw) // 2] ^= 0x01
    return usf_case(work, gzip.compress(bytes(raw), mtime=0), [f"!= pinned {SOURCES['usf']['sha256']}"])


def source_missing(work: Path) -> Case:
    return usf_case(work, None, ["source 'usf' not found", "(absent)", "sources.usf.url"])


# --- SNOMED CT RF2 (the MiniCT sample) -------------------------------------------------------------


def rf2_case(work: Path, stem: str, edit: Callable[[list[bytes]], list[bytes]], line: int | None) -> Case:
    folder, overlay = licensed_copy(work, "snomed_sample", RF2_SAMPLE)
    path = rf2_file(folder, stem)
    edit_lines(path, edit)
    return Case(
        terms_target("snomed_sample"),
        [str(path) if line is None else f"{path}:{line}"],
        terminology_outputs("snomed_sample"),
        paths.log("ingest_snomed", "snomed_sample"),
        overlay,
    )


def rf2_wrong_column_count(work: Path) -> Case:
    def edit(lines: list[bytes]) -> list[bytes]:
        lines[4] = lines[4].rsplit(b"\t", 1)[0]  # a description without caseSignificanceId
        return lines

    return rf2_case(work, "sct2_Description_Full", edit, 5)


def rf2_bad_sctid(work: Path) -> Case:
    def edit(lines: list[bytes]) -> list[bytes]:
        fields = lines[6].split(b"\t")
        fields[4] = b"12A45"  # conceptId not an SCTID
        lines[6] = b"\t".join(fields)
        return lines

    return rf2_case(work, "sct2_Description_Full", edit, 7)


def rf2_bad_utf8(work: Path) -> Case:
    def edit(lines: list[bytes]) -> list[bytes]:
        fields = lines[8].split(b"\t")
        fields[7] = fields[7] + b"\xff\xfe"
        lines[8] = b"\t".join(fields)
        return lines

    return rf2_case(work, "sct2_Description_Full", edit, 9)


def rf2_rows(stem: str) -> int:
    """Lines of the sample's ``stem`` file (header included): the number of its last line."""
    return rf2_file(RF2_SAMPLE, stem).read_bytes().rstrip(b"\r\n").count(b"\n") + 1


def rf2_truncated_mid_row(work: Path) -> Case:
    """The file cut inside its last row (a third of it kept), no newline."""

    def edit(lines: list[bytes]) -> list[bytes]:
        return [*lines[:-2], lines[-2][: len(lines[-2]) // 3]]

    return rf2_case(work, "sct2_Description_Full", edit, rf2_rows("sct2_Description_Full"))


def rf2_last_line_without_newline(work: Path) -> Case:
    """The last row complete but its line ending lost: the file may stop anywhere after it."""
    last = rf2_rows("sct2_Description_Full")
    return rf2_case(work, "sct2_Description_Full", lambda lines: [*lines[:-2], lines[-2].rstrip(b"\r")], last)


def rf2_header_only_description(work: Path) -> Case:
    return rf2_case(work, "sct2_Description_Full", lambda lines: [lines[0], b""], None)


# --- UMLS RRF (the cumulus-library 2000AA sample) ----------------------------------------------------
# The sample is a SQL*Loader "trailing nullcols" export (542 of its 543 MRCONSO rows stop after STR).
# Faults of the field count are injected in a copy with full rows, read as a terminology of its own
# (``umls_fault``) with the defaults of a real release.

RRF_LAYOUT = {"MRCONSO.RRF": (18, {15: b"0", 16: b"N"}), "MRREL.RRF": (16, {14: b"N"})}
"""Fields of a full row (UMLS Reference Manual §3.3, before the trailing ``|``) and the values given to
the fields a short row lacks (0-based: MRCONSO SRL 0 and SUPPRESS N, MRREL SUPPRESS N)."""


def full_rows(data: bytes, fields: int, fill: dict[int, bytes]) -> list[bytes]:
    """The rows of an RRF file padded to ``fields`` fields (``fill`` or empty), each ``|``-terminated."""
    rows = []
    for line in data.rstrip(b"\n").split(b"\n"):
        values = line.removesuffix(b"|").split(b"|") if line.count(b"|") >= fields else line.split(b"|")
        values += [fill.get(i, b"") for i in range(len(values), fields)]
        rows.append(b"|".join(values) + b"|")
    return rows


def rrf_case(work: Path, edit: Callable[[list[bytes]], list[bytes]], line: int | None, full: bool = False) -> Case:
    """``edit`` the MRCONSO rows of a copy of the sample (of its full-row form when ``full``)."""
    name = "umls_fault" if full else "umls_sample"
    folder, overlay = licensed_copy(work, name, RRF_SAMPLE)
    if full:
        for file, (fields, fill) in RRF_LAYOUT.items():
            rows = full_rows((RRF_SAMPLE / file).read_bytes(), fields, fill)
            (folder / file).write_bytes(b"\n".join(rows) + b"\n")
        overlay["terminologies"][name].update(format="rrf", languages=["ENG"], sabs=None)
    path = folder / "MRCONSO.RRF"
    edit_lines(path, edit)
    return Case(
        terms_target(name),
        [str(path) if line is None else f"{path}:{line}"],
        terminology_outputs(name),
        paths.log("ingest_umls", name),
        overlay,
    )


def rrf_too_many_fields(work: Path) -> Case:
    def edit(lines: list[bytes]) -> list[bytes]:
        lines[2] = lines[2] + b"|extra" * 6
        return lines

    return rrf_case(work, edit, 3)


def rrf_short_row(work: Path) -> Case:
    def edit(lines: list[bytes]) -> list[bytes]:
        lines[2] = b"|".join(lines[2].split(b"|")[:16]) + b"|"  # SRL and SUPPRESS ... lost
        return lines

    return rrf_case(work, edit, 3, full=True)


def rrf_truncated_last_line(work: Path) -> Case:
    """The last row cut inside STR, no newline: as many fields as a trailing-nullcols row."""

    def edit(lines: list[bytes]) -> list[bytes]:
        while lines and not lines[-1]:
            lines.pop()
        fields = lines[-1].split(b"|")
        lines[-1] = b"|".join(fields[:14]) + b"|" + fields[14][: max(1, len(fields[14]) // 2)]
        return lines

    rows = (RRF_SAMPLE / "MRCONSO.RRF").read_bytes().rstrip(b"\n").count(b"\n") + 1
    return rrf_case(work, edit, rows, full=True)


def rrf_bad_cui(work: Path) -> Case:
    def edit(lines: list[bytes]) -> list[bytes]:
        lines[3] = b"X" + lines[3][1:]  # CUI C0348290 -> X0348290
        return lines

    return rrf_case(work, edit, 4)


def rrf_bad_utf8(work: Path) -> Case:
    def edit(lines: list[bytes]) -> list[bytes]:
        fields = lines[5].split(b"|")
        fields[14] = fields[14] + b"\xc3\x28"
        lines[5] = b"|".join(fields)
        return lines

    return rrf_case(work, edit, 6)


# --- PubTator corpora (NCBI Disease training file) ---------------------------------------------------


def pubtator_case(
    work: Path, text: str | bytes, line: int, source: str = "ncbi_disease_train", corpus: str = "ncbi_disease"
) -> Case:
    """``text`` as the mirror copy of ``source``, a file of ``corpus``; the error names ``line`` of it."""
    data = text.encode("utf-8") if isinstance(text, str) else text
    overlay = mirror_source(work, source, data)
    overlay["corpora"] = {"build": [corpus]}
    return Case(
        [paths.intermediate("mentions", corpus)],
        [f"{fetched(source)}:{line}"],
        [*(paths.intermediate(table, corpus) for table in CORPUS_TABLES), corpus_counts.path(corpus=corpus)],
        paths.log("ingest_pubtator", corpus),
        overlay,
    )


def pubtator_bad_offsets(work: Path) -> Case:
    text = source_text("ncbi_disease_train")
    number = line_of(text, "10192393\t15\t26\tskin tumour")
    return pubtator_case(
        work, replace_line(text, number, "10192393\t15\t26\tskin cancer\tDiseaseClass\tD012878"), number
    )


def pubtator_non_numeric_pmid(work: Path) -> Case:
    text = source_text("ncbi_disease_train")
    lines = text.split("\n")
    number = line_of(text, "10192393|t|")
    for i, line in enumerate(lines):
        if line.startswith("10192393"):
            lines[i] = "PMC1019239" + line[len("10192393") :]
    return pubtator_case(work, "\n".join(lines), number)


def pubtator_bad_utf8(work: Path) -> Case:
    text = source_text("ncbi_disease_train")
    number = line_of(text, "10192393|a|")
    data = replace_line(text, number, text.split("\n")[number - 1] + "\udcff").encode("utf-8", "surrogateescape")
    return pubtator_case(work, data, number)


def pmid_list_case(work: Path, edit: Callable[[list[str]], list[str]], line: int) -> Case:
    """A MedMentions split list (dev) edited, read by the ingestion of the 3-document sample."""
    lines = edit(source_text("medmentions_pmids_dev").split("\n"))
    return pubtator_case(work, "\n".join(lines), line, "medmentions_pmids_dev", "medmentions_sample")


def pmid_list_duplicate(work: Path) -> Case:
    return pmid_list_case(work, lambda lines: [*lines[:5], lines[1], *lines[5:]], 6)


def pmid_list_non_numeric(work: Path) -> Case:
    return pmid_list_case(work, lambda lines: [*lines[:3], "2756X815", *lines[4:]], 4)


# --- a fetched source edited after its fetch (re-checked against its sidecar before use) --------------


def fetched_source_edited(work: Path) -> Case:
    first = run_workflow(work, 1, fetched("go_slim"))
    assert first.returncode == 0, first.stderr[-3000:]
    copy = work / fetched("go_slim")
    copy.write_text(copy.read_text(encoding="utf-8").replace("name: reproduction", "name: production"))
    return Case(
        terms_target("go_slim"),
        [fetched("go_slim"), SOURCES["go_slim"]["sha256"]],
        terminology_outputs("go_slim"),
        paths.log("ingest_obo", "go_slim"),
    )


# --- MeSH: NLM's XML and the mirror's RDS tables -------------------------------------------------------

MESH_XML = """\
<?xml version="1.0"?>
<DescriptorRecordSet LanguageCode="eng">
<DescriptorRecord DescriptorClass="1">
  <DescriptorUI>D000001</DescriptorUI>
  <DescriptorName><String>Calcimycin</String></DescriptorName>
  <ConceptList>
    <Concept PreferredConceptYN="Y">
      <ConceptUI>M0000001</ConceptUI>
      <ConceptName><String>Calcimycin</String></ConceptName>
      <TermList>
        <Term ConceptPreferredTermYN="Y" IsPermutedTermYN="N" LexicalTag="NON" RecordPreferredTermYN="Y">
          <TermUI>T000002</TermUI>
          <String>Calcimycin</String>
        </Term>
      </TermList>
    </Concept>
  </ConceptList>
</DescriptorRecord>
<DescriptorRecord DescriptorClass="1">
  <DescriptorUI>D000002</DescriptorUI>
  <DescriptorName><String>Temefos</String></DescriptorName>
  <ConceptList>
    <Concept PreferredConceptYN="Y">
      <ConceptUI>M0000002</ConceptUI>
      <TermList>
        <Term ConceptPreferredTermYN="Y" IsPermutedTermYN="N" LexicalTag="NON" RecordPreferredTermYN="Y">
          <TermUI>T000004</TermUI>
          <String>Temefos</String>
      </TermList>
    </Concept>
  </ConceptList>
</DescriptorRecord>
</DescriptorRecordSet>
"""


def mesh_xml_malformed(work: Path) -> Case:
    data = MESH_XML.encode()
    name = "mesh_xml"
    copy = work / FAULT_MIRROR / "mesh" / "desc_fault.xml"
    copy.parent.mkdir(parents=True, exist_ok=True)
    copy.write_bytes(data)
    overlay = {
        "mirror_dirs": [str(work / FAULT_MIRROR), str(SHARED_DATA)],
        "sources": {
            name: {"filename": "desc_fault.xml", "mirror_path": "mesh/desc_fault.xml", "sha256": content_sha256(data)}
        },
        "terminologies": {name: {"format": "mesh", "sources": {"descriptors": name}}},
    }
    line = line_of(MESH_XML, "</TermList>", after=line_of(MESH_XML, "T000004"))
    return Case(
        terms_target(name),
        [f"{paths.source(name, 'desc_fault.xml')}:{line}"],
        terminology_outputs(name),
        paths.log("ingest_mesh", name),
        overlay,
    )


@pytest.fixture(scope="module")
def pharmacological_actions() -> pd.DataFrame:
    """The mirror's MeSH pharmacological-action table (read once per module)."""
    import pyreadr

    return next(
        iter(pyreadr.read_r(str(SHARED_DATA / SOURCES["mesh_pharmacological_actions"]["mirror_path"])).values())
    )


def mesh_rds_missing_column(work: Path, pharmacological_actions: pd.DataFrame) -> Case:
    import pyreadr

    staged = work / "staged.rds"
    pyreadr.write_rds(str(staged), pharmacological_actions.drop(columns=["PharmActionUI"]))
    overlay = mirror_source(work, "mesh_pharmacological_actions", staged.read_bytes())
    staged.unlink()
    return Case(
        terms_target("mesh"),
        [fetched("mesh_pharmacological_actions"), "PharmActionUI"],
        terminology_outputs("mesh"),
        paths.log("ingest_mesh", "mesh"),
        overlay,
    )


# --- agreement: the SimVerb-3500 annotator matrix ----------------------------------------------------


def simverb_duplicate_row(work: Path) -> Case:
    member = CONFIG["agreement"]["ratings"]["simverb3500"]["member"]
    archive = SHARED_DATA / SOURCES["simverb3500_data"]["mirror_path"]
    staged = work / "staged.zip"
    with zipfile.ZipFile(archive) as src, zipfile.ZipFile(staged, "w", zipfile.ZIP_DEFLATED) as dst:
        for info in src.infolist():
            data = src.read(info)
            if info.filename == member:
                lines = data.split(b"\n")
                lines.insert(10, lines[2])  # line 3 again as line 11
                data = b"\n".join(lines)
            dst.writestr(info, data)
    overlay = mirror_source(work, "simverb3500_data", staged.read_bytes())
    staged.unlink()
    where = f"{fetched('simverb3500_data')}:{member}"
    return Case(
        [rated_dataset.path(ratings="simverb3500")],
        [(f"{where}:3", "line 3"), (f"{where}:11", "line 11")],
        [rated_dataset.path(ratings="simverb3500"), rated_dataset_text.path(ratings="simverb3500")],
        paths.log("aggregate_ratings", "simverb3500"),
        overlay,
    )


# --- the BioWiC validator ------------------------------------------------------------------------------

WIC_RECORD = {
    "term1": "cold",
    "term2": "cold",
    "sentence1": "A cold virus.",
    "sentence2": "The cold room.",
    "start1": 2,
    "end1": 6,
    "start2": 4,
    "end2": 8,
    "cat": "term_identical",
    "label": 0,
}


def wic_non_utf8_json(work: Path) -> Case:
    folder = work / "wic-fault"
    folder.mkdir()
    text = json.dumps([WIC_RECORD, {**WIC_RECORD, "sentence2": "The cold r\u00f6om."}], indent=1, ensure_ascii=False)
    (folder / "test.json").write_bytes(text.encode("utf-8").replace("ö".encode(), b"\xf6"))
    line = line_of(text, "r\u00f6om")
    return Case(
        [sys.executable, "-m", "biosem.wic.validate", str(folder)],
        [(f"{folder / 'test.json'}:{line}", f"line {line}"), str(folder / "test.json")],
        raw=True,
    )


def wic_truncated_json(work: Path) -> Case:
    folder = work / "wic-fault"
    folder.mkdir()
    text = json.dumps([WIC_RECORD, WIC_RECORD], indent=1)
    text = text[: len(text) - 40]
    (folder / "test.json").write_text(text, encoding="utf-8")
    with pytest.raises(json.JSONDecodeError) as err:
        json.loads(text)
    line = err.value.lineno
    return Case(
        [sys.executable, "-m", "biosem.wic.validate", str(folder)],
        [str(folder / "test.json"), (f"{folder / 'test.json'}:{line}", f"line {line}")],
        raw=True,
    )


# --- config ------------------------------------------------------------------------------------------------


def config_case(overlay: dict, named: list[str], max_lines: int | None = None) -> Case:
    outputs = [fetched("go_slim"), *terminology_outputs("go_slim")]
    return Case(terms_target("go_slim"), named, outputs, None, overlay, max_lines=max_lines)


def config_seed_not_integer(work: Path) -> Case:
    return config_case({"seed": "x"}, ["config key seed must be of type integer, found 'x'", OVERLAY], 9)


def config_unknown_key(work: Path) -> Case:
    """A misspelt top-level key: a few lines (not the schema and the config) naming it, the file that set it,
    the key meant and the keys allowed."""
    named = ["config key sede is not allowed", f"set in {OVERLAY}", "did you mean seed?", "mirror_dirs, release, seed"]
    return config_case({"sede": 7}, named, 9)


def config_unknown_termpairs_terminology(work: Path) -> Case:
    return config_case({"termpairs": {"terminologies": ["hpo", "nope"]}}, ["termpairs.terminologies lists nope"])


def config_dangling_path(work: Path) -> Case:
    folder = work / "no-such-release"
    case = config_case(
        {"terminologies": {"snomed_sample": {"path": str(folder)}}},
        [str(folder), "terminologies.snomed_sample.path"],
    )
    case.command = terms_target("snomed_sample")
    case.outputs = terminology_outputs("snomed_sample")
    return case


def config_bad_nested_type(work: Path) -> Case:
    named = ["config key termpairs.easy_max_distance must be of type integer, found 'five'"]
    return config_case({"termpairs": {"easy_max_distance": "five"}}, named, 9)


# --- issue 39: OBO files pronto accepts silently -------------------------------------------------------


def obo_error(work: Path, text: str, line: int | None, expected: str | tuple[str, ...]) -> Case:
    """The GO slim replaced by ``text``; the ingestion stops naming file, ``line`` and what it expected."""
    case = obo_case(work, text.encode(), line)
    case.named.append(expected)
    case.exit_code = 1
    return case


def obo_duplicate_term_id(work: Path) -> Case:
    text = source_text("go_slim").rstrip("\n") + "\n\n[Term]\nid: GO:0000003\nname: production\n"
    line = text.count("\n") - 1  # the id line of the stanza appended
    return obo_error(work, text, line, "expected each [Term] id once (GO:0000003 is declared at line 25 already)")


def obo_no_terms(work: Path) -> Case:
    text = source_text("go_slim")
    header = text[: text.index("[Term]")]
    typedef = text[text.index("[Typedef]\nid: part_of") :]
    return obo_error(work, header + typedef, None, "expected at least one [Term] stanza")


def obo_term_without_name(work: Path) -> Case:
    text = source_text("go_slim")
    number = line_of(text, "name: reproduction")
    lines = text.split("\n")
    del lines[number - 1]
    return obo_error(work, "\n".join(lines), number - 1, "expected a 'name:' in [Term] GO:0000003")


def obo_is_a_self_loop(work: Path) -> Case:
    text = source_text("go_slim")
    number = line_of(text, "name: reproduction") + 1
    lines = text.split("\n")
    lines.insert(number - 1, "is_a: GO:0000003 ! itself")
    case = obo_error(work, "\n".join(lines), number, "the cycle GO:0000003 is_a GO:0000003")
    case.named.append("allow_cycles: true")
    return case


def obo_is_a_part_of_cycle(work: Path) -> Case:
    """reproduction is_a biological_process (line 38); biological_process made part_of reproduction."""
    text = source_text("go_slim")
    number = line_of(text, "name: biological_process") + 1
    lines = text.split("\n")
    lines.insert(number - 1, "relationship: part_of GO:0000003 ! reproduction")
    found = line_of(text, "is_a: GO:0008150", after=line_of(text, "id: GO:0000003"))
    return obo_error(
        work,
        "\n".join(lines),
        found,
        ("the cycle GO:0000003 is_a GO:0008150 part_of GO:0000003", "the cycle GO:0008150 part_of GO:0000003 is_a"),
    )


# --- issue 39: config keys checked when the workflow is parsed -------------------------------------------


def config_error(overlay: dict, named: list[str | tuple[str, ...]]) -> Case:
    case = config_case(overlay, named)
    case.exit_code = 1
    return case


def config_filename_dotdot(work: Path) -> Case:
    return config_error({"sources": {"go_slim": {"filename": ".."}}}, ["'..' does not match", "filename"])


def licence_error(overlay: dict, key: str, text: str) -> Case:
    """A restricted licence spelt as no known licence: a config error naming the key and the known licences."""
    return config_error(
        overlay,
        [
            f"config {key}: {text!r} is not a licence biosem knows",
            "snomed-ct-affiliate-licence (SNOMED CT Affiliate Licence, restricted)",
            "umls-metathesaurus-licence (UMLS Metathesaurus Licence, restricted)",
            "CC-BY-4.0 (CC BY 4.0)",
        ],
    )


def config_licence_ihtsdo(work: Path) -> Case:
    text = "IHTSDO Affiliate Licence"
    return licence_error({"sources": {"go_slim": {"licence": text}}}, "sources.go_slim.licence", text)


def config_licence_umls_agreement(work: Path) -> Case:
    text = "Unified Medical Language System Metathesaurus License Agreement"
    return licence_error({"terminologies": {"go_slim": {"licence": text}}}, "terminologies.go_slim.licence", text)


def config_licence_uts(work: Path) -> Case:
    text = "NLM UTS licence (Metathesaurus)"
    return licence_error({"corpora": {"specs": {"bc5cdr": {"licence": text}}}}, "corpora.specs.bc5cdr.licence", text)


def config_survey_scale_reversed(work: Path) -> Case:
    return config_error(
        {"simlex": {"survey": {"scale_min": 6, "scale_max": 0}}},
        ["config simlex.survey: scale_min (6) must be below scale_max (0)"],
    )


def config_ratings_scale_reversed(work: Path) -> Case:
    return config_error(
        {"agreement": {"ratings": {"simverb3500": {"scale": [6, 0]}}}},
        ["config agreement.ratings.simverb3500.scale: [6, 0] must run from a lower to a higher value"],
    )


# --- issue 39: an unreadable Parquet intermediate names the rule that writes it ---------------------------


def parquet_intermediate_corrupt(work: Path) -> Case:
    terms = paths.intermediate("terms", "go_slim")
    first = run_workflow(work, 1, terms)
    assert first.returncode == 0, first.stderr[-3000:]
    data = (work / terms).read_bytes()
    (work / terms).write_bytes(data[: len(data) // 2])  # cut short, as by a full disk or a killed copy
    return Case(
        [termpair_positives.path(terminology="go_slim")],
        [f"{terms}: expected a Parquet table as rule ingest_obo writes it", "--forcerun ingest_obo", "--force"],
        [termpair_positives.path(terminology="go_slim"), termpair_components.path(terminology="go_slim")],
        paths.log("build_termpair_positives", "go_slim"),
        exit_code=1,
    )


# --- issue 39: vector files (biosem evaluate, exit 2) -------------------------------------------------------


def vectors_case(work: Path, text: str, named: list[str | tuple[str, ...]]) -> Case:
    (work / "vectors.txt").write_text(text)
    command = [sys.executable, "-m", "biosem.cli", "evaluate", "vectors.txt", "--output", "scores.tsv"]
    command += ["--format", "word2vec_text", "--families", "rated", "--configfile", "config/test-paths.yaml"]
    return Case(command, named, ["scores.tsv"], raw=True, exit_code=2)


def vectors_wrong_dimension(work: Path) -> Case:
    return vectors_case(
        work,
        "3 4\nfever 1 2 3 4\ncough 1 2 3\nrash 1 2 3 4\n",
        ["error: vectors.txt:3: expected a word and 4 values (as the header says); found '3 values'"],
    )


def vectors_nan(work: Path) -> Case:
    return vectors_case(
        work,
        "3 4\nfever 1 2 3 4\ncough 1 nan 3 4\nrash 1 2 3 4\n",
        ["error: vectors.txt:3: expected finite values (no nan or inf); found 'nan'"],
    )


def vectors_header_count_too_large(work: Path) -> Case:
    return vectors_case(
        work,
        "5 4\nfever 1 2 3 4\ncough 1 2 3 4\nrash 1 2 3 4\n",
        ["error: vectors.txt:5: expected 5 vectors, as the header (line 1) says; found '3 vectors: the file ends"],
    )


def vectors_header_count_too_small(work: Path) -> Case:
    return vectors_case(
        work,
        "2 4\nfever 1 2 3 4\ncough 1 2 3 4\nrash 1 2 3 4\n",
        ["error: vectors.txt:4: expected 2 vectors, as the header (line 1) says; found '3 rows"],
    )


# --- issue 39: the study key and the survey exports ---------------------------------------------------------


def study_key_edited(work: Path) -> Case:
    """The key edited after the sheets were written (by hand, in a spreadsheet): named as the key, not the sheets."""
    from biosem.agreement.sheets import sheet_csv

    key = pd.DataFrame(
        {
            "item": ["P001", "P002", "P003"],
            "dataset": ["fsn_syn_easy_random"] * 3,
            "kind": ["fsn_syn"] * 3,
            "difficulty": ["easy"] * 3,
            "strategy": ["random"] * 3,
            "label": [1, 0, 1],
            "term1": ["fever", "-ase", '=HYPERLINK("x")'],
            "term2": ["pyrexia", "gout", "cough"],
            "concept_id1": ["HP:1", "HP:2", "HP:3"],
            "concept_id2": ["HP:1", "HP:9", "HP:3"],
            "levenshtein": [7, 5, 9],
        }
    )
    sheet = key[["item", "term1", "term2"]].assign(answer="")
    key_path, sheet_path = termpair_study_key.path(terminology="hpo"), termpair_study_sheet.path(terminology="hpo")
    (work / sheet_path).parent.mkdir(parents=True)
    (work / sheet_path).write_text(sheet_csv(sheet))
    (work / "filled.csv").write_text(sheet_csv(sheet.assign(answer=["same", "not same", "same"])))
    (work / key_path).write_text(sheet_csv(key.assign(term2=["pyrexia", "edited", "cough"])))
    scores, votes = termpair_study_scores.path(terminology="hpo"), termpair_study_votes.path(terminology="hpo")
    return Case(
        [scores, "--allowed-rules", "score_termpair_study"],
        [
            f"{key_path}:3: expected term2 'gout' for item P002, as in the sheet ({sheet_path}:3); found 'edited'",
            f"The study key {key_path} was edited after rule write_termpair_study wrote it",
            f"`snakemake --cores 1 --force {key_path}` (rule write_termpair_study; the draw is seeded",
        ],
        [scores, votes],
        paths.log("score_termpair_study", "hpo"),
        {"agreement": {"filled_sheets": {"termpairs": {"hpo": {"r1": "filled.csv"}}}}},
        exit_code=1,
    )


def write_survey_design(work: Path) -> pd.DataFrame:
    """A nouns survey design of two groups of five unique items, written where design_simlex_survey writes it."""
    from biosem.io import write_table
    from biosem.simlex.schemas import SURVEY_ITEMS

    rows = [
        (
            "nouns",
            group,
            1,
            position,
            f"nouns-g{group}-p01-{position:03d}",
            f"P{group}{position}",
            "unique",
            f"w{group}{position}",
            f"v{group}{position}",
        )
        for group in (1, 2)
        for position in range(1, 6)
    ]
    items = pd.DataFrame(
        rows, columns=["survey", "group", "page", "position", "item_id", "pair_id", "role", "word1", "word2"]
    )
    write_table(items, work / simlex_survey_items.path(dataset="nouns"), SURVEY_ITEMS)
    return items


def write_survey_export(work: Path, items: pd.DataFrame, group: int, rater: str, ratings: list[str]) -> str:
    """The export the survey form of ``group`` writes for ``rater``; its file name."""
    from biosem.agreement.forms import SURVEY_EXPORT_COLUMNS, survey_id
    from biosem.agreement.sheets import sheet_csv

    export = items[items["group"] == group].assign(
        rater=rater, rating=ratings, survey_id=survey_id(items), dont_know="0", time_ms="900"
    )
    name = f"export_{rater}.csv"
    (work / name).write_text(sheet_csv(export[list(SURVEY_EXPORT_COLUMNS)].astype(str)))
    return name


def survey_export_fractional_rating(work: Path) -> Case:
    """A survey form export whose rating was edited to 2.5: the forms rate on the integers of the scale."""
    items = write_survey_design(work)
    write_survey_export(work, items, 1, "r1", ["1", "2", "2.5", "4", "5"])
    target = rated_dataset.path(ratings="survey1")
    return Case(
        [target, "--allowed-rules", "aggregate_ratings"],
        ["export_r1.csv:4: expected an integer rating in [0, 6]; found '2.5'"],
        [target, rated_dataset_text.path(ratings="survey1")],
        paths.log("aggregate_ratings", "survey1"),
        {"agreement": {"ratings": {"survey1": {"exports": ["export_r1.csv"], "survey": "nouns", "format": "long"}}}},
        exit_code=1,
    )


def survey_exports_incomplete(work: Path) -> Case:
    """Issue 40: the exports of three raters of group 1 where the design has two groups of six raters."""
    items = write_survey_design(work)
    files = [write_survey_export(work, items, 1, f"r{k}", [str((k + i) % 7) for i in range(5)]) for k in (1, 2, 3)]
    target = rated_dataset.path(ratings="survey1")
    return Case(
        [target, "--allowed-rules", "aggregate_ratings"],
        [
            f"3 export(s) ({', '.join(files)}) leave groups of the design short (2 group(s) of 6 raters)",
            "group 1: 3 of 6 raters exported (rater ids r1, r2, r3)",
            "group 2: 0 of 6 raters exported",
            "agreement.ratings.survey1.allow_incomplete: true",
        ],
        [
            target,
            rated_dataset_text.path(ratings="survey1"),
            rating_agreement.path(ratings="survey1"),
            rater_agreement.path(ratings="survey1"),
        ],
        paths.log("aggregate_ratings", "survey1"),
        {"agreement": {"ratings": {"survey1": {"exports": files, "survey": "nouns", "format": "long"}}}},
        exit_code=1,
    )


def configfile_swallows_target(work: Path) -> Case:
    """Issue 40: a target written after ``--configfile`` is read as one more config file. Snakemake (9.27)
    loads the config files before the Snakefile runs, so no biosem code can say more: it prints a traceback
    ending in this line, which README § Troubleshooting quotes (a missing config file ends the same way). If
    this fails after a Snakemake upgrade, update that row to the new message."""
    return Case(
        [sys.executable, "-m", "snakemake", "--cores", "1", "--configfile", *CONFIG_FILES, "termpairs"],
        ["FileNotFoundError: [Errno 2] No such file or directory: 'termpairs'"],
        raw=True,
        exit_code=1,
    )


# --- issue 39: the release gate and check-release -----------------------------------------------------------

SNOMED_IDS = ["386661006", "22298006"]
"""SNOMED CT concept ids (fever, myocardial infarction): valid SCTIDs, as the content scan knows them."""


def release_gate_restricted_content(work: Path) -> Case:
    """An HPO term-pair dataset whose rows carry SNOMED CT ids (a SNOMED-derived file copied or hard-linked
    over it): release_public builds it (its provenance is open), then its last step finds the ids, removes
    the release folder and names the dataset and file."""
    import pyarrow as pa

    from biosem.io import write_parquet
    from biosem.termpairs import DATASETS
    from biosem.validity import check, write_validity

    for name in DATASETS:
        ids = SNOMED_IDS if name == "fsn_syn_easy_random" else ["HP:0001945", "HP:0002315"]
        table = pa.table(
            {
                "term1": ["fever", "pyrexia"],
                "term2": ["pyrexia", "headache"],
                "label": pa.array([1, 0], pa.int64()),
                "concept_id1": ids,
                "concept_id2": [ids[0], ids[1]],
                "levenshtein": pa.array([7, 8], pa.int64()),
            }
        )
        write_parquet(table, work / termpair_dataset.path(terminology="hpo", dataset=name))
    # The validity table the card summarises (check_termpair_validity is not among the allowed rules).
    write_validity(
        [check("fsn_syn_easy_random", "duplicate_pairs", 0.0, "== 0")], work / termpair_validity.path(terminology="hpo")
    )
    folder = paths.release(CONFIG["release"]["version"], "public")
    return Case(
        [
            "release_public",
            "--allowed-rules",
            "build_release_termpairs_hpo",
            "write_release_manifest",
            "release_public",
        ],
        [
            f"{folder}: the release check (biosem check-release) found 2 problem(s)",
            "termpairs/hpo/data/fsn_syn_easy_random/test-00000-of-00001.parquet: column concept_id1: 2 value(s) look "
            "like SNOMED CT ids (e.g. 386661006); expected none in a public release",
            "The release folder was removed",
        ],
        [f"{folder}/SHA256SUMS", f"{folder}/RELEASE.md", f"{folder}/termpairs/hpo/README.md"],
        paths.log("check_release", "public"),
        {"release": {"datasets": ["termpairs/hpo"]}},
        exit_code=1,
        gone=[folder],
    )


def check_release_renamed_public_folder(work: Path) -> Case:
    """A public release with a SNOMED CT dataset copied in (every SHA256SUMS regenerated) and renamed: the
    check reads the release's RELEASE.md, not the folder's name."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    from biosem.release.build import build_dataset, write_release
    from biosem.release.checksums import write_sha256sums
    from biosem.release.provenance import Provenance
    from biosem.release.registry import Paper, ReleaseDataset, Source

    def dataset(name: str, source: Source) -> ReleaseDataset:
        parquet = work / f"{name}.parquet"
        pq.write_table(pa.table({"term1": ["fever"], "term2": ["pyrexia"], "concept_id1": [SNOMED_IDS[0]]}), parquet)
        paper = Paper("A 2020", "A. 2020.", "@misc{a}", "https://example.org")
        return ReleaseDataset(
            "termpairs",
            name,
            name,
            "Pairs.",
            "Tests.",
            {"default": {"test": str(parquet)}},
            (source,),
            {"seed": 1},
            paper,
        )

    def provenance(visibility: str) -> Provenance:
        return Provenance("1.2.3", visibility, "0.1.0", "unknown", "unknown", f"release_{visibility}", ())

    open_source = Source("sheet", "local", "review", "Apache-2.0", path=str(work / "open.parquet"))
    snomed = Source("snomed", "licensed", "terminology (RF2 release)", "SNOMED CT", format="rf2", release="MiniCT")
    root = work / "release-staging" / "public"
    hpo, sct = dataset("open", open_source), dataset("snomed", snomed)
    build_dataset(hpo, root / hpo.id, hpo.licence_status(), provenance("public"), {})
    write_release(root, [(hpo, hpo.licence_status())], [], provenance("public"), {}, {"seed": 1})
    build_dataset(sct, root / sct.id, sct.licence_status(), provenance("private"), {})
    write_sha256sums(root)
    (work / "hf-upload").mkdir()
    root.rename(work / "hf-upload" / "public-0.1.0")
    return Case(
        [sys.executable, "-m", "biosem.cli", "check-release", "hf-upload"],
        [
            "hf-upload: public-0.1.0/termpairs/snomed: restricted dataset in a public release (from the sources "
            "croissant.json records: snomed: format rf2, licence SNOMED CT)",
            "hf-upload: public-0.1.0/termpairs/snomed: built by the private release",
        ],
        raw=True,
        exit_code=1,
    )


# --- locks -------------------------------------------------------------------------------------------------


def lock_leftover(work: Path) -> Case:
    """A lock left by a killed snakemake that was making the same files: the run stops, naming the folder."""
    locks = work / ".snakemake" / "locks"
    locks.mkdir(parents=True)
    (locks / "0.output.lock").write_text(f"{paths.intermediate('terms', 'go_slim')}\n")
    (locks / "0.input.lock").write_text("")
    return Case(terms_target("go_slim"), [str(work), "cannot be locked"], terminology_outputs("go_slim"))


def craft_spanned_text_differs(work: Path) -> Case:
    """A CRAFT tarball (the tests' tiny one) whose Knowtator file gives a spannedText that is not the text
    at the annotation's offsets: the error names the member inside the tarball, its line and the
    annotation id; none of the rule's six outputs is left."""
    bad = knowtator_xml("1001", GO_BP["1001"], spanned={"GO_BP_1": "Gene regulation"})
    member = "concept-annotation/GO_BP/GO_BP/knowtator/1001.txt.knowtator.xml"
    folder = work / "fault-craft"
    folder.mkdir()
    overlay = mirror_source(work, "craft", write_craft(folder, {member: bad}).read_bytes())
    overlay["corpora"] = {"build": ["craft"], "specs": {"craft": {"modules": list(CRAFT_MODULES)}}}
    line = line_of(bad, "<spannedText>Gene regulation")
    outputs = [*(paths.intermediate(table, "craft") for table in (*CORPUS_TABLES, "notices"))]
    outputs += [corpus_counts.path(corpus="craft"), corpus_module_counts.path(corpus="craft")]
    return Case(
        [paths.intermediate("mentions", "craft")],
        [f"{fetched('craft')}/CRAFT-5.0.2/{member}:{line}", "annotation GO_BP_1"],
        outputs,
        paths.log("ingest_craft", "craft"),
        overlay,
    )


FAULTS: list = [
    pytest.param(obo_malformed_stanza, id="obo-malformed-stanza"),
    pytest.param(obo_bad_utf8, id="obo-bad-utf8"),
    pytest.param(obo_undeclared_is_a, id="obo-undeclared-is_a"),
    pytest.param(obo_not_obo, id="obo-html-instead-of-obo"),
    pytest.param(mirror_truncated_gz, id="mirror-truncated-gz"),
    pytest.param(mirror_content_edited, id="mirror-sha256-mismatch"),
    pytest.param(source_missing, id="source-missing"),
    pytest.param(fetched_source_edited, id="fetched-source-edited-after-fetch"),
    pytest.param(rf2_wrong_column_count, id="rf2-wrong-column-count"),
    pytest.param(rf2_bad_sctid, id="rf2-bad-sctid"),
    pytest.param(rf2_bad_utf8, id="rf2-bad-utf8"),
    pytest.param(rf2_truncated_mid_row, id="rf2-truncated-mid-row"),
    pytest.param(rf2_last_line_without_newline, id="rf2-last-line-without-newline"),
    pytest.param(rf2_header_only_description, id="rf2-header-only-description"),
    pytest.param(rrf_too_many_fields, id="rrf-too-many-fields"),
    pytest.param(rrf_short_row, id="rrf-wrong-field-count"),
    pytest.param(rrf_truncated_last_line, id="rrf-truncated-last-line"),
    pytest.param(rrf_bad_cui, id="rrf-bad-cui"),
    pytest.param(rrf_bad_utf8, id="rrf-bad-utf8"),
    pytest.param(pubtator_bad_offsets, id="pubtator-bad-offsets"),
    pytest.param(pubtator_non_numeric_pmid, id="pubtator-non-numeric-pmid"),
    pytest.param(pubtator_bad_utf8, id="pubtator-bad-utf8"),
    pytest.param(craft_spanned_text_differs, id="craft-spanned-text-differs"),
    pytest.param(pmid_list_duplicate, id="pmid-list-duplicate"),
    pytest.param(pmid_list_non_numeric, id="pmid-list-non-numeric"),
    pytest.param(mesh_xml_malformed, id="mesh-xml-malformed"),
    pytest.param(mesh_rds_missing_column, id="mesh-rds-missing-column"),
    pytest.param(simverb_duplicate_row, id="simverb-duplicate-row"),
    pytest.param(wic_truncated_json, id="wic-validator-truncated-json"),
    pytest.param(wic_non_utf8_json, id="wic-validator-non-utf8-json"),
    pytest.param(config_seed_not_integer, id="config-seed-not-integer"),
    pytest.param(config_unknown_key, id="config-unknown-key"),
    pytest.param(config_unknown_termpairs_terminology, id="config-unknown-termpairs-terminology"),
    pytest.param(config_dangling_path, id="config-dangling-terminology-path"),
    pytest.param(config_bad_nested_type, id="config-bad-nested-type"),
    pytest.param(lock_leftover, id="lock-leftover"),
    # issue 39: silent accepts and unclear errors
    pytest.param(obo_duplicate_term_id, id="obo-duplicate-term-id"),
    pytest.param(obo_no_terms, id="obo-no-terms"),
    pytest.param(obo_term_without_name, id="obo-term-without-name"),
    pytest.param(obo_is_a_self_loop, id="obo-is_a-self-loop"),
    pytest.param(obo_is_a_part_of_cycle, id="obo-is_a-part_of-cycle"),
    pytest.param(config_filename_dotdot, id="config-filename-dotdot"),
    pytest.param(config_licence_ihtsdo, id="config-licence-ihtsdo-affiliate"),
    pytest.param(config_licence_umls_agreement, id="config-licence-umls-agreement"),
    pytest.param(config_licence_uts, id="config-licence-nlm-uts"),
    pytest.param(config_survey_scale_reversed, id="config-survey-scale-reversed"),
    pytest.param(config_ratings_scale_reversed, id="config-ratings-scale-reversed"),
    pytest.param(parquet_intermediate_corrupt, id="parquet-intermediate-corrupt"),
    pytest.param(vectors_wrong_dimension, id="vectors-wrong-dimension"),
    pytest.param(vectors_nan, id="vectors-nan"),
    pytest.param(vectors_header_count_too_large, id="vectors-header-count-too-large"),
    pytest.param(vectors_header_count_too_small, id="vectors-header-count-too-small"),
    pytest.param(study_key_edited, id="study-key-edited"),
    pytest.param(survey_export_fractional_rating, id="survey-export-fractional-rating"),
    pytest.param(survey_exports_incomplete, id="survey-exports-incomplete"),
    pytest.param(configfile_swallows_target, id="configfile-swallows-target"),
    pytest.param(release_gate_restricted_content, id="release-gate-restricted-content"),
    pytest.param(check_release_renamed_public_folder, id="check-release-renamed-public-folder"),
]


def leftovers(work: Path, outputs: list[str]) -> list[str]:
    """The outputs that exist, and temporary files of atomic writes beside them."""
    found = [out for out in outputs if (work / out).exists()]
    for out in outputs:
        folder = (work / out).parent
        if folder.is_dir():
            found += [str(p.relative_to(work)) for p in folder.glob(f".{Path(out).name}.*")]
    return found


@pytest.mark.parametrize("fault", FAULTS)
def test_fault(fault: Callable[..., Case], tmp_path: Path, request: pytest.FixtureRequest) -> None:
    work = copy_workflow(tmp_path / "w")
    fixtures = list(inspect.signature(fault).parameters)[1:]  # after the workflow copy
    extra = [request.getfixturevalue(name) for name in fixtures]
    case = fault(work, *extra)
    if case.raw:
        result = subprocess.run(case.command, cwd=work, capture_output=True, text=True, check=False)
    else:
        (work / OVERLAY).write_text(yaml.safe_dump(case.overlay))
        result = run_workflow(work, 1, *case.command, "--configfile", *CONFIG_FILES, OVERLAY)
    message = result.stdout + result.stderr
    if case.log and (work / case.log).is_file():
        message += (work / case.log).read_text(encoding="utf-8", errors="replace")
    assert result.returncode != 0, message[-3000:]
    missing = [
        name for name in case.named if not any(n in message for n in ([name] if isinstance(name, str) else name))
    ]
    assert not missing, f"message does not name {missing}:\n{message[-4000:]}"
    if case.exit_code is not None:
        assert result.returncode == case.exit_code, message[-3000:]
    if case.max_lines is not None:
        assert len(message.splitlines()) <= case.max_lines, message[-4000:]
    assert not leftovers(work, case.outputs)
    assert not [folder for folder in case.gone if (work / folder).exists()]


def test_fault_held_lock(tmp_path: Path) -> None:
    """A second snakemake in a folder where one is running (held stopped while it holds its lock) stops,
    naming the folder; the first, resumed, completes and releases its lock."""
    work = copy_workflow(tmp_path / "w")
    target = paths.intermediate("terms", "hpo")
    env = dict(os.environ, NLTK_DATA=str(SHARED_DATA / "nltk_data"))
    cmd = [sys.executable, "-m", "snakemake", "--cores", "1", "--configfile", *CONFIG_FILES, "--quiet=rules"]
    first = subprocess.Popen([*cmd, target], cwd=work, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    locks = work / ".snakemake" / "locks"
    try:
        deadline = time.monotonic() + 300
        while not any(locks.glob("*.output.lock")) and first.poll() is None and time.monotonic() < deadline:
            time.sleep(0.02)
        assert first.poll() is None and any(locks.glob("*.output.lock")), "the first run never held its lock"
        os.kill(first.pid, signal.SIGSTOP)
        second = run_workflow(work, 1, paths.intermediate("relations", "hpo"))
    finally:
        os.kill(first.pid, signal.SIGCONT)
        output, _ = first.communicate(timeout=600)
    assert second.returncode != 0, second.stderr[-3000:]
    assert "cannot be locked" in second.stderr and str(work) in second.stderr, second.stderr[-3000:]
    assert first.returncode == 0, output.decode(errors="replace")[-3000:]
    assert not any(locks.glob("*.lock"))
    assert (work / target).is_file()


def test_truncated_mirror_copy_falls_through_to_the_next_mirror(tmp_path: Path) -> None:
    """The counterpart of ``mirror-truncated-gz``: with a good copy in the next mirror the fetch succeeds
    from it (the truncated copy is passed over, not copied)."""
    work = copy_workflow(tmp_path / "w")
    case = mirror_truncated_gz(work)
    case.overlay["mirror_dirs"] = [case.overlay["mirror_dirs"][0], str(SHARED_DATA)]
    (work / OVERLAY).write_text(yaml.safe_dump(case.overlay))
    result = run_workflow(work, 1, *case.command, "--configfile", *CONFIG_FILES, OVERLAY)
    assert result.returncode == 0, result.stderr[-3000:]
    good = SHARED_DATA / SOURCES["usf"]["mirror_path"]
    assert (work / fetched("usf")).read_bytes() == good.read_bytes()
    assert f"copied from mirror {good}" in (work / case.log).read_text(encoding="utf-8")


# --- licence bypass attempts (the release's membership, read from the DAG) -----------------------------------

BYPASSES = {
    "licence-override": {"terminologies": {"snomed_sample": {"licence": "CC0-1.0"}, "umls_sample": {"licence": "CC0"}}},
    "restricted-formats-off": {
        "terminologies": {"snomed_sample": {"licence": "CC0-1.0"}, "umls_sample": {"licence": "CC0-1.0"}},
        "release": {"restricted_formats": [], "restricted_licences": []},
    },
}


@pytest.mark.parametrize("overlay", list(BYPASSES.values()), ids=list(BYPASSES))
def test_licence_bypass_puts_nothing_restricted_in_public(overlay: dict, tmp_path: Path) -> None:
    """Config cannot lift a restriction: the public release's DAG holds no SNOMED CT or UMLS dataset, and
    naming one explicitly stops the public release, naming it. (Symlinked inputs and hidden files are
    refused by the build and by biosem.release.check: tests/unit/release/test_licence_guard.py.)"""
    work = copy_workflow(tmp_path / "w")
    (work / OVERLAY).write_text(yaml.safe_dump(overlay))
    listed = run_workflow(work, 1, "release_public", "--summary", "--configfile", *CONFIG_FILES, OVERLAY)
    assert listed.returncode == 0, listed.stderr[-3000:]
    public = [line.split("\t")[0] for line in listed.stdout.splitlines() if "/public/" in line]
    assert any("/public/termpairs/hpo/" in p for p in public)
    assert not [p for p in public if "snomed" in p or "umls" in p]
    explicit = {**overlay, "release": {**overlay.get("release", {}), "datasets": ["termpairs/snomed_sample"]}}
    (work / OVERLAY).write_text(yaml.safe_dump(explicit))
    refused = run_workflow(work, 1, "release_public", "-n", "--configfile", *CONFIG_FILES, OVERLAY)
    message = refused.stdout + refused.stderr
    assert refused.returncode != 0 and "termpairs/snomed_sample" in message, message[-3000:]
