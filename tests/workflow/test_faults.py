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
from biosem.layout.outputs import corpus_counts, corpus_module_counts, rated_dataset, rated_dataset_text
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
    """

    command: list[str]
    named: list[str | tuple[str, ...]]
    outputs: list[str] = field(default_factory=list)
    log: str | None = None
    overlay: dict = field(default_factory=dict)
    raw: bool = False


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


def config_case(overlay: dict, named: list[str]) -> Case:
    return Case(terms_target("go_slim"), named, [fetched("go_slim"), *terminology_outputs("go_slim")], None, overlay)


def config_seed_not_integer(work: Path) -> Case:
    return config_case({"seed": "x"}, ["'x' is not of type 'integer'", "seed"])


def config_unknown_key(work: Path) -> Case:
    return config_case({"sede": 7}, ["'sede' was unexpected"])


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
    return config_case({"termpairs": {"easy_max_distance": "five"}}, ["'five' is not of type 'integer'"])


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
    assert not leftovers(work, case.outputs)


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
