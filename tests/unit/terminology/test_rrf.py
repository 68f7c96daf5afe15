"""Tests of the UMLS RRF adapter (biosem.terminology.rrf) on the shared samples and hand-made files."""

from __future__ import annotations

import gzip
import logging
import shutil
from collections import defaultdict
from collections.abc import Iterable
from pathlib import Path

import pyarrow as pa
import pyarrow.compute as pc
import pytest
from conftest import SHARED_DATA
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from biosem.errors import SourceFormatError, SourceNotFoundError
from biosem.terminology import rrf
from biosem.terminology.rrf import MRCONSO_COLUMNS, MRREL_COLUMNS, iter_rrf, read_rrf, reader
from biosem.terminology.schemas import TERMINOLOGY_TABLES

SAMPLES = SHARED_DATA / "umls-rrf-samples"
CUMULUS = SAMPLES / "cumulus-library-umls_2000AA"
SCISPACY = SAMPLES / "scispacy_umls_META"  # its MRCONSO, MRSTY and MRDEF lack a final newline


def repaired(sample: Path, folder: Path) -> Path:
    """A copy of a META sample in ``folder`` with the final newlines the sample's files lack."""
    folder.mkdir(parents=True, exist_ok=True)
    for path in sample.glob("*.RRF"):
        data = path.read_bytes()
        (folder / path.name).write_bytes(data if data.endswith(b"\n") else data + b"\n")
    return folder


@pytest.fixture(scope="module")
def scispacy(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return repaired(SCISPACY, tmp_path_factory.mktemp("scispacy"))


def raw_rows(path: Path) -> list[list[str]]:
    """The file's rows split on "|" (trailing "|" removed), read independently of the adapter."""
    rows = []
    for line in path.read_text(encoding="utf-8").splitlines():
        fields = line.split("|")
        if fields[-1] == "":
            fields.pop()
        rows.append(fields)
    return rows


def conso(
    cui: str,
    aui: str,
    string: str,
    *,
    lat: str = "ENG",
    ts: str = "P",
    stt: str = "PF",
    ispref: str = "Y",
    sab: str = "MSH",
    tty: str = "MH",
    code: str = "D000001",
    suppress: str = "N",
) -> str:
    """One well-formed MRCONSO line (18 fields and the trailing "|")."""
    fields = [cui, lat, ts, "L0000001", stt, "S0000001", ispref, aui, "", "", "", sab, tty, code]
    return "|".join([*fields, string, "0", suppress, "256"]) + "|"


def rel(cui1: str, rel_: str, cui2: str, *, rela: str = "", sab: str = "MSH") -> str:
    """One well-formed MRREL line (16 fields and the trailing "|")."""
    fields = [cui1, "", "CUI", rel_, cui2, "", "CUI", rela, "R1", "", sab, sab, "", "", "N", "256"]
    return "|".join(fields) + "|"


def write_meta(directory: Path, **files: list[str] | bytes) -> Path:
    """Write META files (name -> lines or raw bytes) into ``directory``; ``.gz`` names are gzipped."""
    directory.mkdir(parents=True, exist_ok=True)
    for name, content in files.items():
        data = content if isinstance(content, bytes) else "".join(f"{x}\n" for x in content).encode()
        filename = name.replace("_RRF", ".RRF").replace("_gz", ".gz")
        opener = gzip.open if filename.endswith(".gz") else open
        with opener(directory / filename, "wb") as handle:
            handle.write(data)
    return directory


def by_id(table: pa.Table, key: str) -> dict[str, dict]:
    return {row[key]: row for row in table.to_pylist()}


def assert_same_tables(a: dict[str, pa.Table], b: dict[str, pa.Table]) -> None:
    assert a.keys() == b.keys() == TERMINOLOGY_TABLES.keys()
    for name, table in a.items():
        assert table.equals(b[name]), name


@pytest.fixture(scope="module")
def cumulus() -> dict[str, pa.Table]:
    return read_rrf(CUMULUS, "umls", trailing_nullcols=True)


# ------------------------------------------------------------------------------------------------
# The cumulus-library 2000AA subset: ICD10CM, SQL*Loader "trailing nullcols" rows


def test_cumulus_schemas(cumulus: dict[str, pa.Table]) -> None:
    assert cumulus.keys() == TERMINOLOGY_TABLES.keys()
    for name, table in cumulus.items():
        assert table.schema.equals(TERMINOLOGY_TABLES[name].schema), name
    assert cumulus["associations"].num_rows == 0


def test_cumulus_terms_and_concepts(cumulus: dict[str, pa.Table]) -> None:
    rows = raw_rows(CUMULUS / "MRCONSO.RRF")
    assert len(rows) == 543
    assert sum(len(r) == 15 for r in rows) == 542  # CUI..STR only
    terms, concepts = cumulus["terms"], cumulus["concepts"]
    assert terms.num_rows == 543
    assert sorted(terms.column("term_id").to_pylist()) == sorted(r[7] for r in rows)
    cuis = {r[0] for r in rows}
    assert len(cuis) == 480
    assert concepts.column("concept_id").to_pylist() == sorted(cuis)
    assert concepts.column("active").to_pylist() == [True] * 480
    assert concepts.column("module").null_count == 480  # no MRSTY in this sample
    term_by_aui = by_id(terms, "term_id")
    for r in rows:
        t = term_by_aui[r[7]]
        assert (t["concept_id"], t["term"], t["sab"], t["tty"]) == (r[0], r[14], r[11], r[12])
    assert set(terms.column("language").to_pylist()) == {"en"}
    assert set(terms.column("source").to_pylist()) == {"umls"}
    assert terms.column("active").to_pylist() == [True] * 543  # SUPPRESS "N" or missing
    assert terms.column("scope").null_count == terms.column("acceptability").null_count == 543
    types = terms.column("term_type").to_pylist()
    assert (types.count("preferred"), types.count("synonym"), len(types)) == (480, 63, 543)


def test_cumulus_one_preferred_term_per_cui(cumulus: dict[str, pa.Table]) -> None:
    preferred: dict[str, list[str]] = defaultdict(list)
    for t in cumulus["terms"].to_pylist():
        if t["term_type"] == "preferred":
            preferred[t["concept_id"]].append(t["term_id"])
    assert set(preferred) == set(cumulus["concepts"].column("concept_id").to_pylist())
    assert all(len(auis) == 1 for auis in preferred.values())
    # The rule, recomputed from the raw rows: TS=P, then STT=PF, then ISPREF=Y, then AUI.
    rows_by_cui: dict[str, list[list[str]]] = defaultdict(list)
    for r in raw_rows(CUMULUS / "MRCONSO.RRF"):
        rows_by_cui[r[0]].append(r)
    for cui, rows in rows_by_cui.items():
        best = min(rows, key=lambda r: (r[2] != "P", r[4] != "PF", r[6] != "Y", r[7]))
        assert preferred[cui] == [best[7]], cui
    # Checked by hand:
    terms = by_id(cumulus["terms"], "term_id")
    # TS=P (ISPREF=N) beats TS=S (ISPREF=Y)
    assert terms["A17811852"]["term_type"] == "preferred"  # C0153210 "Gonococcal infection of eye"
    assert terms["A17811853"]["term_type"] == "synonym"
    # TS=P STT=VO beats TS=S STT=PF
    assert terms["A17824854"]["term_type"] == "preferred"  # C2368006 "Parapoxvirus infections"
    # Same TS/STT/ISPREF: the smaller AUI
    assert terms["A17811933"]["term_type"] == "preferred"  # C1955630 B10.09
    assert terms["A17850249"]["term_type"] == "synonym"


def test_cumulus_relations(cumulus: dict[str, pa.Table]) -> None:
    rows = raw_rows(CUMULUS / "MRREL.RRF")
    assert len(rows) == 1756
    assert all(len(r) == 15 for r in rows)  # CUI1..SUPPRESS
    expected = {(r[4], r[3], r[7] or None, r[0], r[10]) for r in rows if r[0] and r[4]}
    assert len(expected) == 1744  # 12 rows repeat a CUI-level relation through other AUIs
    relations = cumulus["relations"]
    got = [(t["subject_id"], t["rel"], t["rela"], t["object_id"], t["sab"]) for t in relations.to_pylist()]
    assert len(got) == len(set(got)) == relations.num_rows == 1744
    assert set(got) == expected
    # Line 1: C2880081|A20098492|SDUI|CHD|C0694449|... = CUI2 C0694449 is a CHD of CUI1 C2880081.
    assert ("C0694449", "CHD", None, "C2880081", "ICD10CM") in got
    assert sum(s == o for s, _, _, o, _ in got) == 91  # CUI-level self-relations are kept


def test_cumulus_mappings(cumulus: dict[str, pa.Table]) -> None:
    rows = raw_rows(CUMULUS / "MRCONSO.RRF")
    expected = {(r[0], r[11], r[13]) for r in rows if r[13] not in ("", "NOCODE")}
    mappings = cumulus["mappings"]
    got = {(m["concept_id"], m["code_system"], m["code"]) for m in mappings.to_pylist()}
    assert got == expected
    assert mappings.num_rows == len(expected) == 543
    assert ("C0694449", "ICD10CM", "A00-B99") in got


def test_cumulus_logs_counts(caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.INFO, logger="biosem.terminology.rrf"):
        read_rrf(CUMULUS, "umls", trailing_nullcols=True)
    assert "MRCONSO.RRF: 543 rows read (543 short rows padded)" in caplog.text
    assert "MRCONSO.RRF: 543 rows kept of 543" in caplog.text
    assert "MRREL.RRF: 1756 rows read (1756 short rows padded)" in caplog.text


def test_cumulus_sab_filter() -> None:
    tables = read_rrf(CUMULUS, "umls", trailing_nullcols=True, sabs=["MSH"])
    assert {name: t.num_rows for name, t in tables.items()} == dict.fromkeys(tables, 0)
    assert read_rrf(CUMULUS, "umls", trailing_nullcols=True, sabs=["ICD10CM", "MSH"])["relations"].num_rows == 1744


# ------------------------------------------------------------------------------------------------
# The scispacy META sample: full rows, MRSTY


def test_scispacy_sample_lacks_final_newlines() -> None:
    with pytest.raises(SourceFormatError, match="truncated file") as err:
        read_rrf(SCISPACY, "umls")
    assert err.value.path == SCISPACY / "MRCONSO.RRF"
    assert err.value.line == 3 and err.value.found.endswith("|256|")


def test_scispacy_sample(scispacy: Path) -> None:
    tables = read_rrf(scispacy, "umls")
    concepts = by_id(tables["concepts"], "concept_id")
    # MRSTY: C0000005 -> T116 only; C0000039 -> T109 and T121: the smallest is T109.
    assert {cui: c["module"] for cui, c in concepts.items()} == {
        "C0000005": "T116",
        "C0000039": "T109",
    }
    terms = by_id(tables["terms"], "term_id")
    assert {aui: (t["concept_id"], t["term"], t["term_type"], t["tty"]) for aui, t in terms.items()} == {
        "A26634265": ("C0000005", "(131)I-Macroaggregated Albumin", "preferred", "PEP"),
        "A26634266": ("C0000005", "(131)I-MAA", "synonym", "ET"),
        "A0016515": ("C0000039", "1,2-Dipalmitoylphosphatidylcholine", "preferred", "MH"),
    }
    mappings = {(m["concept_id"], m["code_system"], m["code"]) for m in tables["mappings"].to_pylist()}
    assert mappings == {("C0000005", "MSH", "D012711"), ("C0000039", "MSH", "D015060")}
    assert tables["relations"].num_rows == 0  # no MRREL


# ------------------------------------------------------------------------------------------------
# Hand-made files


def test_double_quotes_are_literal(tmp_path: Path) -> None:
    strings = ['5" nail', '"quoted"', 'a ""b"" c', '"', "it's"]
    lines = [conso(f"C000000{i}", f"A000000{i}", s) for i, s in enumerate(strings, start=1)]
    tables = read_rrf(write_meta(tmp_path, MRCONSO_RRF=lines), "umls")
    got = {t["term_id"]: t["term"] for t in tables["terms"].to_pylist()}
    assert got == {f"A000000{i}": s for i, s in enumerate(strings, start=1)}


def test_term_rules_and_filters(tmp_path: Path) -> None:
    lines = [
        conso("C0000001", "A0000003", "Alpha", ts="S", stt="PF", ispref="Y"),
        conso("C0000001", "A0000002", "alpha", ts="P", stt="VC", ispref="N"),  # TS=P wins
        conso("C0000001", "A0000001", "ALPHA", ts="S", stt="VC", ispref="Y", tty="AB"),
        conso("C0000001", "A0000004", "alpha old", ts="S", suppress="O", code="NOCODE"),
        conso("C0000002", "A0000006", "Beta", tty="ACR"),  # sole term: preferred, not abbreviation
        conso("C0000002", "A0000005", "Bêta", lat="FRE", sab="MSHFRE", code="D000002"),
        conso("C0000003", "A0000007", "Gamma", sab="SNOMEDCT_US", code="123"),
        conso("C0000003", "A0000008", "Gammma", ts="P", stt="PF", ispref="Y"),  # AUI tie-break
        conso("C0000004", "A0000009", "Delta", lat="XXX", code=""),
    ]
    meta = write_meta(tmp_path, MRCONSO_RRF=lines)

    eng = read_rrf(meta, "umls")
    terms = by_id(eng["terms"], "term_id")
    assert set(terms) == {f"A000000{i}" for i in (1, 2, 3, 4, 6, 7, 8)}
    assert {aui: t["term_type"] for aui, t in terms.items()} == {
        "A0000001": "abbreviation",
        "A0000002": "preferred",
        "A0000003": "synonym",
        "A0000004": "synonym",
        "A0000006": "preferred",
        "A0000007": "preferred",
        "A0000008": "synonym",
    }
    assert terms["A0000004"]["active"] is False and terms["A0000003"]["active"] is True
    assert eng["concepts"].column("concept_id").to_pylist() == ["C0000001", "C0000002", "C0000003"]
    mappings = {(m["concept_id"], m["code_system"], m["code"]) for m in eng["mappings"].to_pylist()}
    assert mappings == {
        ("C0000001", "MSH", "D000001"),
        ("C0000002", "MSH", "D000001"),
        ("C0000003", "MSH", "D000001"),
        ("C0000003", "SNOMEDCT_US", "123"),
    }

    every = read_rrf(meta, "umls", languages=None)
    languages = {t["term_id"]: t["language"] for t in every["terms"].to_pylist()}
    assert (languages["A0000005"], languages["A0000009"], languages["A0000001"]) == (
        "fr",
        "xxx",
        "en",
    )
    assert ("C0000004", "MSH", "") not in {
        (m["concept_id"], m["code_system"], m["code"]) for m in every["mappings"].to_pylist()
    }

    french = read_rrf(meta, "umls", languages=["FRE"], sabs=["MSHFRE"])
    assert [(t["term_id"], t["term"], t["term_type"]) for t in french["terms"].to_pylist()] == [
        ("A0000005", "Bêta", "preferred")
    ]
    assert read_rrf(meta, "umls", sabs=["SNOMEDCT_US"])["terms"].num_rows == 1


def test_mrrel_rules(tmp_path: Path) -> None:
    meta = write_meta(
        tmp_path,
        MRCONSO_RRF=[conso("C0000001", "A0000001", "a"), conso("C0000002", "A0000002", "b")],
        MRREL_RRF=[
            rel("C0000001", "PAR", "C0000002", rela="inverse_isa"),
            rel("C0000001", "PAR", "C0000002", rela="inverse_isa"),  # AUI-level repeat
            rel("C0000002", "CHD", "C0000001", rela="isa"),
            rel("C0000001", "RO", "C0000002", sab="SNOMEDCT_US"),
            rel("C0000001", "RO", ""),  # no CUI2: dropped
            rel("", "RO", "C0000002"),  # no CUI1: dropped
        ],
    )
    got = [
        (t["subject_id"], t["rel"], t["rela"], t["object_id"], t["sab"])
        for t in read_rrf(meta, "umls")["relations"].to_pylist()
    ]
    assert sorted(got, key=str) == sorted(
        [
            ("C0000002", "PAR", "inverse_isa", "C0000001", "MSH"),
            ("C0000001", "CHD", "isa", "C0000002", "MSH"),
            ("C0000002", "RO", None, "C0000001", "SNOMEDCT_US"),
        ],
        key=str,
    )
    only_msh = read_rrf(meta, "umls", sabs=["MSH"])["relations"]
    assert set(only_msh.column("sab").to_pylist()) == {"MSH"} and only_msh.num_rows == 2


def test_mrsab_is_read_and_logged(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    fields = ["C0000010", "C0000011", "MSH2024", "MSH", "MeSH", "MSH", "2024", *[""] * 6, "0", *[""] * 5]
    fields += ["ENG", "UTF-8", "Y", "Y", "MeSH", ""]
    assert len(fields) == 25
    mrsab = ["|".join(fields) + "|"]
    meta = write_meta(tmp_path, MRCONSO_RRF=[conso("C0000001", "A0000001", "a")], MRSAB_RRF=mrsab)
    with caplog.at_level(logging.INFO, logger="biosem.terminology.rrf"):
        read_rrf(meta, "umls", sabs=["MSH", "NCI"])
    assert "MSH=MSH2024 (2024)" in caplog.text
    assert "requested SABs not current in this release: ['NCI']" in caplog.text


def test_mrsab_srl_must_be_0_to_4_or_9(tmp_path: Path) -> None:
    fields = ["C0000010", "C0000011", "MSH2024", "MSH", "MeSH", "MSH", "2024", *[""] * 6, "0", *[""] * 5]
    fields += ["ENG", "UTF-8", "Y", "Y", "MeSH", ""]
    snomed = [*fields[:3], "SNOMEDCT_US", "SNOMEDCT_US", *fields[5:13], "9", *fields[14:]]
    bad = [*fields[:13], "7", *fields[14:]]
    mrsab = ["|".join(fields) + "|", "|".join(snomed) + "|", "|".join(bad) + "|"]
    meta = write_meta(tmp_path, MRCONSO_RRF=[conso("C0000001", "A0000001", "a")], MRSAB_RRF=mrsab)
    with pytest.raises(SourceFormatError, match="SRL matching") as caught:
        read_rrf(meta, "umls")
    assert (caught.value.path, caught.value.line, caught.value.found) == (meta / "MRSAB.RRF", 3, "'7'")


def mrfiles_row(name: str, columns: tuple[str, ...] | list[str]) -> str:
    return f"{name}|{name}|{','.join(columns)}|{len(columns)}|1|100|"


def test_mrfiles_gives_the_field_count(tmp_path: Path) -> None:
    # The first row is short: without MRFILES it would set the layout (15 fields) and line 2 be wrong.
    lines = [short(1), good(2)]
    meta = write_meta(tmp_path, MRCONSO_RRF=lines, MRFILES_RRF=[mrfiles_row("MRCONSO.RRF", MRCONSO_COLUMNS)])
    with pytest.raises(SourceFormatError) as caught:
        read_rrf(meta, "umls")
    assert (caught.value.path, caught.value.line) == (meta / "MRCONSO.RRF", 1)
    assert "18 '|'-terminated fields (the layout of MRCONSO.RRF in MRFILES.RRF)" in str(caught.value)
    assert caught.value.found.startswith("15 fields: C0000001|")
    # A release whose MRCONSO has 15 columns: its rows have 15 fields, SRL and SUPPRESS read as "".
    meta = write_meta(tmp_path / "short", MRCONSO_RRF=[short(1), short(2)], MRFILES_RRF=[
        mrfiles_row("MRCONSO.RRF", MRCONSO_COLUMNS[:15])
    ])  # fmt: skip
    terms = read_rrf(meta, "umls")["terms"]
    assert terms["term"].to_pylist() == ["term 1", "term 2"] and all(terms["active"].to_pylist())


def test_mrfiles_layout_must_be_the_adapters(tmp_path: Path) -> None:
    columns = list(MRCONSO_COLUMNS)
    columns[14], columns[13] = columns[13], columns[14]  # STR before CODE
    meta = write_meta(tmp_path, MRCONSO_RRF=[good(1)], MRFILES_RRF=[mrfiles_row("MRCONSO.RRF", columns)])
    with pytest.raises(SourceFormatError, match="MRCONSO.RRF with the columns") as caught:
        read_rrf(meta, "umls")
    assert caught.value.path == meta / "MRFILES.RRF" and "STR,CODE" in caught.value.found


def test_mrcols_gives_the_field_count_without_mrfiles(tmp_path: Path) -> None:
    mrcols = [f"{c}|{c}||0|0|0|MRCONSO.RRF|char|" for c in MRCONSO_COLUMNS]
    meta = write_meta(tmp_path, MRCONSO_RRF=[short(1), short(2)], MRCOLS_RRF=mrcols)
    with pytest.raises(SourceFormatError, match="in MRCOLS.RRF") as caught:
        read_rrf(meta, "umls")
    assert caught.value.line == 1


def test_missing_inputs(tmp_path: Path) -> None:
    with pytest.raises(SourceNotFoundError):
        read_rrf(tmp_path / "nowhere", "umls")
    with pytest.raises(SourceNotFoundError):
        read_rrf(
            write_meta(tmp_path / "meta", MRSTY_RRF=["C0000001|T047|B2.2.1.2.1|Disease|AT1|256|"]),
            "umls",
        )


# ------------------------------------------------------------------------------------------------
# gzip and streaming


def test_gzip_gives_the_same_tables(tmp_path: Path, cumulus: dict[str, pa.Table]) -> None:
    for name in ("MRCONSO.RRF", "MRREL.RRF"):
        with open(CUMULUS / name, "rb") as src, gzip.open(tmp_path / f"{name}.gz", "wb") as dst:
            shutil.copyfileobj(src, dst)
    assert_same_tables(read_rrf(tmp_path, "umls", trailing_nullcols=True), cumulus)


def test_both_plain_and_gzip_is_an_error(tmp_path: Path) -> None:
    line = [conso("C0000001", "A0000001", "a")]
    meta = write_meta(tmp_path, MRCONSO_RRF=line, MRCONSO_RRF_gz=line)
    with pytest.raises(SourceFormatError, match="both"):
        read_rrf(meta, "umls")


@pytest.mark.parametrize("sample", ["cumulus", "scispacy"])
def test_tiny_blocks_give_the_same_tables(sample: str, scispacy: Path) -> None:
    meta, nullcols = (CUMULUS, True) if sample == "cumulus" else (scispacy, False)
    assert_same_tables(
        read_rrf(meta, "umls", block_size=1024, trailing_nullcols=nullcols),
        read_rrf(meta, "umls", trailing_nullcols=nullcols),
    )


def test_tiny_blocks_with_mixed_short_rows(tmp_path: Path) -> None:
    lines = []
    for i in range(1, 400):
        line = conso(f"C{i:07d}", f"A{i:07d}", f"term {i}", ts="PS"[i % 2])
        if i % 3 == 0:  # trailing nullcols: stop after STR
            line = "|".join(line.split("|")[:15])
        lines.append(line)
    meta = write_meta(tmp_path, MRCONSO_RRF=lines)
    small = read_rrf(meta, "umls", block_size=1024, trailing_nullcols=True)
    large = read_rrf(meta, "umls", trailing_nullcols=True)
    assert_same_tables(small, large)
    assert small["terms"].num_rows == small["concepts"].num_rows == 399


def test_iter_rrf_pads_short_rows(tmp_path: Path) -> None:
    path = tmp_path / "MRREL.RRF"
    lines = [
        rel("C0000001", "PAR", "C0000002"),  # 16 fields and the trailing "|"
        "C0000003||CUI|RO|C0000004||CUI||||MSH",  # stops after SAB, no trailing "|"
        "C0000005||CUI|RO|C0000006||CUI||||MSH|MSH|||N|",  # stops after SUPPRESS
    ]
    path.write_text("".join(f"{x}\n" for x in lines), encoding="utf-8")
    batches = list(iter_rrf(path, MRREL_COLUMNS, include=["CUI1", "SAB", "CVF"], required=11, trailing_nullcols=True))
    assert all(b.schema.names == ["CUI1", "SAB", "CVF"] for b in batches)
    rows = [r for b in batches for r in pa.Table.from_batches([b]).to_pylist()]
    assert sorted(rows, key=str) == [
        {"CUI1": "C0000001", "SAB": "MSH", "CVF": "256"},
        {"CUI1": "C0000003", "SAB": "MSH", "CVF": ""},
        {"CUI1": "C0000005", "SAB": "MSH", "CVF": ""},
    ]


# ------------------------------------------------------------------------------------------------
# Malformed input: SourceFormatError with the 1-based line


def good(i: int) -> str:
    return conso(f"C{i:07d}", f"A{i:07d}", f"term {i}")


def short(i: int) -> str:
    return "|".join(good(i).split("|")[:15])


MALFORMED: dict[str, tuple[list[str] | bytes, int | None, str]] = {
    "extra field, trailing |": ([good(1), good(2), good(3) + "x|", good(4)], 3, "18 '|'-terminated"),
    "extra field, no trailing |": ([good(1), short(2), good(3) + "x", good(4)], 3, "extra field"),
    "extra field after short rows": ([short(1), short(2), good(3) + "x|"], 3, "15 to 18 '|'-separated"),
    "bad CUI": ([good(1), good(2).replace("C0000002", "C000002"), good(3)], 2, "CUI matching"),
    "bad CUI after short rows": (
        [short(1), short(2), good(3), short(4), good(5).replace("C0000005", "X0000005"), good(6)],
        5,
        "CUI matching",
    ),
    "bad CUI in a short row": ([good(1), short(2).replace("C0000002", "c0000002")], 2, "CUI"),
    "bad AUI": ([good(1), good(2).replace("A0000002", "")], 2, "AUI matching"),
    "too few fields": ([good(1), "|".join(good(2).split("|")[:14]), good(3)], 2, "15 to 18 '|'-separated"),
    "short row, strict": ([good(1), short(2), good(3)], 2, "18 '|'-terminated fields (as on line 1)"),
    "stray | in STR": ([good(1), conso("C0000002", "A0000002", "Unspecified|viral"), good(3)], 2, "19 fields"),
    "stray | in a short STR": ([good(1), short(2).replace("term 2", "Unspecified|viral"), good(3)], 2, "SRL"),
    "last line cut in STR": (
        f"{good(1)}\n{good(2)}\n".encode() + good(3).encode().split(b"term 3")[0] + b"term",
        3,
        "truncated file",
    ),
    "last line cut in CVF": (f"{good(1)}\n{good(2)[:-2]}".encode(), 2, "truncated file"),
    "no final newline": (f"{good(1)}\n{good(2)}".encode(), 2, "truncated file"),
    "last line cut in a short row": (f"{good(1)}\n{short(2)[:-2]}".encode(), 2, "truncated file"),
    "SRL out of range": ([good(1), good(2).replace("|term 2|0|", "|term 2|5|"), good(3)], 2, "SRL matching [0-49]"),
    "SUPPRESS not N/O/E/Y": ([good(1), conso("C0000002", "A0000002", "t", suppress="X")], 2, "SUPPRESS matching"),
    "empty line": ([good(1), good(2), "", good(4)], 3, "empty line"),
    "bad UTF-8": (
        "".join(f"{x}\n" for x in [good(1), good(2), good(3)]).encode() + good(4).encode()
        .replace(b"term 4", b"term \xff4") + b"\n",
        4,
        "UTF-8",
    ),
    "bad UTF-8 in a short row": (
        "".join(f"{x}\n" for x in [good(1), good(2), short(3)]).encode() + short(4).encode()
        .replace(b"term 4", b"term \xc3(") + b"\n",
        4,
        "UTF-8",
    ),
    "empty file": (b"", None, "at least one RRF row"),
}  # fmt: skip


NULLCOLS_CASES = {
    "extra field, no trailing |",
    "extra field after short rows",
    "bad CUI after short rows",
    "bad CUI in a short row",
    "too few fields",
    "stray | in a short STR",
    "last line cut in a short row",
    "bad UTF-8 in a short row",
}
"""Cases read with ``trailing_nullcols=True`` (their short rows are errors otherwise)."""


@pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning")
@pytest.mark.parametrize("block_size", [64 << 20, 300], ids=["default", "tiny"])
@pytest.mark.parametrize("gz", [False, True], ids=["plain", "gz"])
@pytest.mark.parametrize("case", list(MALFORMED))
def test_malformed_mrconso(tmp_path: Path, case: str, gz: bool, block_size: int) -> None:
    content, line, expected = MALFORMED[case]
    meta = write_meta(tmp_path, **{"MRCONSO_RRF_gz" if gz else "MRCONSO_RRF": content})
    with pytest.raises(SourceFormatError) as caught:
        read_rrf(meta, "umls", block_size=block_size, trailing_nullcols=case in NULLCOLS_CASES)
    assert caught.value.line == line
    assert expected in str(caught.value)
    assert caught.value.path.name.startswith("MRCONSO.RRF")
    assert f"{caught.value.path}:{line}" in str(caught.value) if line else str(caught.value.path) in str(caught.value)


def test_first_problem_in_file_order_is_reported(tmp_path: Path) -> None:
    # Line 4 (too many fields) is skipped by the fast path and seen before the batch holding line 2
    # (bad CUI); the reader must still report line 2.
    lines = [good(1), good(2).replace("C0000002", "C2"), short(3), good(4) + "x|y|", good(5)]
    meta = write_meta(tmp_path, MRCONSO_RRF=lines)
    with pytest.raises(SourceFormatError) as caught:
        read_rrf(meta, "umls")
    assert caught.value.line == 2


def test_malformed_mrrel_and_mrsty(tmp_path: Path) -> None:
    conso_lines = [good(1)]
    meta = write_meta(
        tmp_path / "rel",
        MRCONSO_RRF=conso_lines,
        MRREL_RRF=[rel("C0000001", "RO", "C0000002"), rel("C0000001", "RO", "C00002")],
    )
    with pytest.raises(SourceFormatError) as caught:
        read_rrf(meta, "umls")
    assert (caught.value.path.name, caught.value.line) == ("MRREL.RRF", 2)
    meta = write_meta(
        tmp_path / "sty",
        MRCONSO_RRF=conso_lines,
        MRSTY_RRF=["C0000001|T047|B2.2.1.2.1|Disease|AT1|256|", "C0000001|047|B|Disease|AT2|256|"],
    )
    with pytest.raises(SourceFormatError) as caught:
        read_rrf(meta, "umls")
    assert (caught.value.path.name, caught.value.line) == ("MRSTY.RRF", 2)


# ------------------------------------------------------------------------------------------------
# Property: any STR without "|" or a line break is read back unchanged, full or short row, any block


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    strings=st.lists(
        st.text(
            alphabet=st.characters(codec="utf-8", exclude_characters="|\n\r"),
            min_size=1,
            max_size=30,
        ),
        min_size=1,
        max_size=20,
    ),
    short_rows=st.lists(st.booleans(), min_size=20, max_size=20),
    block_size=st.sampled_from([512, 4096, 64 << 20]),
)
def test_str_round_trips(
    tmp_path_factory: pytest.TempPathFactory,
    strings: list[str],
    short_rows: list[bool],
    block_size: int,
) -> None:
    path = tmp_path_factory.mktemp("prop") / "MRCONSO.RRF"
    lines = []
    for i, s in enumerate(strings, start=1):
        line = conso(f"C{i:07d}", f"A{i:07d}", s)
        lines.append("|".join(line.split("|")[:15]) if short_rows[i - 1] else line)
    path.write_text("".join(f"{x}\n" for x in lines), encoding="utf-8")
    got = {
        row["AUI"]: row["STR"]
        for batch in iter_rrf(path, MRCONSO_COLUMNS, include=["AUI", "STR"], required=15,
                              block_size=block_size, trailing_nullcols=True)
        for row in pa.Table.from_batches([batch]).to_pylist()
    }  # fmt: skip
    assert got == {f"A{i:07d}": s for i, s in enumerate(strings, start=1)}


PATTERNS = [
    rrf.CUI_PATTERN,
    rrf.AUI_PATTERN,
    rrf.TUI_PATTERN,
    rrf.SRL_PATTERN,
    rrf.SUPPRESS_PATTERN,
    f"(?:{rrf.CUI_PATTERN})?",
    "[0-9]+",
    "[YN]",
    "GO:[0-9]{7}",
    r"[^\s]+",  # not of the byte form: RE2
]


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.one_of(
            st.text(alphabet="CAT0123456789NOEYG:é\x00 ", max_size=10),
            st.from_regex(r"C[0-9]{7}|A[0-9]{1,9}|T[0-9]{3}|GO:[0-9]{7}", fullmatch=True),
        ),
        max_size=40,
    ),
    st.integers(0, 3),
)
def test_pattern_checks_agree_with_re2(values: list[str], offset: int) -> None:
    """The numpy byte checks of the reader's patterns give RE2's full-match answer, on sliced arrays too."""
    array = pa.array(["C0000001", *values], pa.string()).slice(min(offset, len(values)))
    for pattern in PATTERNS:
        expected = pc.match_substring_regex(array, f"^(?:{pattern})$").to_numpy(zero_copy_only=False)
        assert reader.full_match(array, pattern).tolist() == expected.tolist(), pattern
    assert reader._compile_pattern(rrf.CUI_PATTERN) is not None
    assert reader._compile_pattern(r"[^\s]+") is None


def test_pieces_of_whole_lines_give_the_rows_of_one_pass(tmp_path: Path) -> None:
    """A threaded pass parses the file in pieces of 8 blocks (of 1 KiB here: pieces of 8 KiB, a
    file of 4), each ending after a newline; rows and errors' line numbers as in one piece."""
    lines = [conso(f"C{i:07d}", f"A{i:07d}", f"term {i}" + ("x" * 900 if i == 7 else "")) for i in range(1, 300)]
    meta = write_meta(tmp_path / "META", MRCONSO_RRF=lines)
    path = meta / "MRCONSO.RRF"
    assert path.stat().st_size > 3 * 8 * 1024

    def rows(block_size: int) -> list[dict]:
        batches = iter_rrf(path, MRCONSO_COLUMNS, include=["CUI", "AUI", "STR"], block_size=block_size)
        return [row for b in batches for row in pa.Table.from_batches([b]).to_pylist()]

    one_piece = rows(8 << 20)
    assert len(one_piece) == 299 and one_piece[6]["STR"].endswith("x" * 900)
    assert rows(1024) == rows(1500) == one_piece
    assert read_rrf(meta, "umls", block_size=1024)["terms"].equals(read_rrf(meta, "umls")["terms"])

    bad = [*lines[:250], lines[250].replace("C0000251", "X0000251"), *lines[251:]]
    meta = write_meta(tmp_path / "bad", MRCONSO_RRF=bad)
    with pytest.raises(SourceFormatError, match="expected CUI matching") as err:
        read_rrf(meta, "umls", block_size=1024)
    assert err.value.line == 251
    cut = write_meta(tmp_path / "cut", MRCONSO_RRF="".join(f"{x}\n" for x in lines).encode()[:-3])
    with pytest.raises(SourceFormatError, match="truncated file") as err:
        read_rrf(cut, "umls", block_size=1024)
    assert err.value.line == 299


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.text(alphabet="C/0189:\x7f", min_size=8, max_size=8), min_size=1, max_size=30),
    st.lists(st.text(alphabet="T/0189:", min_size=4, max_size=4), min_size=1, max_size=30),
)
def test_fixed_width_digit_checks_agree_with_re2(cuis: list[str], tuis: list[str]) -> None:
    """The word-at-a-time check of fixed-width values (CUIs, TUIs), with bytes next to '0' and '9'."""
    for values, pattern in ((cuis, rrf.CUI_PATTERN), (tuis, rrf.TUI_PATTERN)):
        array = pa.array(values, pa.string())
        expected = pc.match_substring_regex(array, f"^(?:{pattern})$").to_numpy(zero_copy_only=False)
        assert reader.full_match(array, pattern).tolist() == expected.tolist()


def _decoded(batches: Iterable[pa.RecordBatch]) -> list[dict]:
    """The rows of ``batches``, dictionary columns decoded."""
    rows = []
    for batch in batches:
        arrays = [c.dictionary_decode() if isinstance(c, pa.DictionaryArray) else c for c in batch.columns]
        rows += pa.Table.from_arrays(arrays, names=batch.schema.names).to_pylist()
    return rows


@pytest.mark.parametrize("block_size", [300, 1 << 20], ids=["tiny", "one block"])
def test_split_path_gives_the_rows_of_pyarrows(tmp_path: Path, block_size: int) -> None:
    """An uncompressed file is split by the kernels, its coded columns dictionary-encoded; from the
    first block with a line that is not regular (here a CRLF line, then short rows), pyarrow reads
    the rest. Either way the rows are those of the .gz file, which pyarrow reads whole."""
    lines = [
        conso(f"C{i:07d}", f"A{i:07d}", f"term {i} é", sab="MSH" if i % 3 else "SNOMEDCT_US") for i in range(1, 40)
    ]
    lines[25] += "\r"
    lines[30] = "|".join(lines[30].split("|")[:16])
    kwargs = {"include": ["CUI", "SAB", "STR", "SUPPRESS"], "coded": ["SAB", "SUPPRESS"], "required": 15}
    kwargs["trailing_nullcols"] = True
    meta = write_meta(tmp_path / "plain", MRCONSO_RRF=lines)
    zipped = write_meta(tmp_path / "gz", MRCONSO_RRF_gz=lines)
    split = list(iter_rrf(meta / "MRCONSO.RRF", MRCONSO_COLUMNS, block_size=block_size, **kwargs))
    whole = list(iter_rrf(zipped / "MRCONSO.RRF.gz", MRCONSO_COLUMNS, block_size=block_size, **kwargs))
    assert sorted(_decoded(split), key=str) == sorted(_decoded(whole), key=str)
    assert len(_decoded(split)) == 39 and {r["STR"] for r in _decoded(split)} == {f"term {i} é" for i in range(1, 40)}
    assert all(b.schema.field("SAB").type == pa.string() for b in whole)
    kinds = [b.schema.field("SAB").type for b in split]
    assert kinds[-1] == pa.string()  # the block with line 26 on: read by pyarrow
    if block_size == 300:  # the blocks before line 26 are split, in file order
        assert kinds[0] == pa.dictionary(pa.uint16(), pa.string())
        assert [r["CUI"] for r in _decoded(split)[:20]] == [f"C{i:07d}" for i in range(1, 21)]
        assert sum(b.num_rows for b, k in zip(split, kinds, strict=True) if k != pa.string()) >= 20


def test_split_path_reports_lines_of_the_whole_file(tmp_path: Path) -> None:
    """Problems found by the split path or after it handed over carry the file's line numbers."""
    lines = [good(i) for i in range(1, 60)]
    for bad_line, edit, message in [
        (45, lambda s: s.replace("C0000045", "C45"), "CUI matching"),
        (45, lambda s: s.replace("|0|N|", "|0|X|"), "SUPPRESS matching"),
        (50, lambda s: s + "x|", "extra field"),
        (52, lambda s: s.replace("term 52", "term \xff52"), "UTF-8"),
    ]:
        content = lines[: bad_line - 1] + [edit(lines[bad_line - 1])] + lines[bad_line:]
        data = "".join(f"{x}\n" for x in content).encode().replace("\xff".encode(), b"\xff")
        meta = write_meta(tmp_path / f"{bad_line}{message}", MRCONSO_RRF=data)
        with pytest.raises(SourceFormatError, match=message) as caught:
            read_rrf(meta, "umls", block_size=400)
        assert caught.value.line == bad_line


def test_a_byte_order_mark_is_skipped_on_either_path(tmp_path: Path) -> None:
    """pyarrow's CSV reader skips a UTF-8 byte order mark at the start of a file; so does the split path."""
    lines = [good(i) for i in range(1, 30)]
    plain = write_meta(tmp_path / "plain", MRCONSO_RRF=lines)
    marked = write_meta(tmp_path / "bom", MRCONSO_RRF=b"\xef\xbb\xbf" + "".join(f"{x}\n" for x in lines).encode())
    zipped = write_meta(tmp_path / "gz", MRCONSO_RRF_gz=b"\xef\xbb\xbf" + "".join(f"{x}\n" for x in lines).encode())
    expected = read_rrf(plain, "umls", block_size=500)
    for meta in (marked, zipped):
        got = read_rrf(meta, "umls", block_size=500)
        assert all(got[name].equals(expected[name]) for name in expected)
    assert expected["terms"].num_rows == 29
